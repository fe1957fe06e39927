// Format conversion throughput against memcpy of the same byte count.
// Run: build/convert_bench (not part of ctest). Bytes/s counts source bytes.
#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

#include "core/format/format.hpp"

namespace {

void run_conversion(benchmark::State& st, ll::Format from, ll::Format to, ll::Shape shape,
                    ll::DType t) {
    ll::ConvertSpec spec;
    spec.from = from;
    spec.to = to;
    spec.shape = std::move(shape);
    spec.dtype = t;
    ll::Executor ex(ll::make_pipeline(spec));
    std::vector<uint8_t> src(static_cast<size_t>(ex.src_bytes()));
    for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint8_t>(i * 31);
    std::vector<uint8_t> dst(static_cast<size_t>(ex.dst_bytes()));
    for (auto _ : st) {
        ex.run(src.data(), dst.data());
        benchmark::DoNotOptimize(dst.data());
        benchmark::ClobberMemory();
    }
    st.SetBytesProcessed(static_cast<int64_t>(st.iterations()) * ex.src_bytes());
}

void BM_NdToNz_fp16_4096(benchmark::State& st) {
    run_conversion(st, ll::Format::ND, ll::Format::FRACTAL_NZ, {4096, 4096}, ll::DType::fp16);
}
void BM_NzToNd_fp16_4096(benchmark::State& st) {
    run_conversion(st, ll::Format::FRACTAL_NZ, ll::Format::ND, {4096, 4096}, ll::DType::fp16);
}
void BM_NchwToNc1hwc0_fp16(benchmark::State& st) {
    run_conversion(st, ll::Format::NCHW, ll::Format::NC1HWC0, {32, 64, 56, 56}, ll::DType::fp16);
}
void BM_NhwcToNc1hwc0_fp16(benchmark::State& st) {
    run_conversion(st, ll::Format::NHWC, ll::Format::NC1HWC0, {32, 56, 56, 64}, ll::DType::fp16);
}
void BM_Memcpy_32MiB(benchmark::State& st) {
    std::vector<uint8_t> src(size_t(4096) * 4096 * 2, 1), dst(src.size());
    for (auto _ : st) {
        std::memcpy(dst.data(), src.data(), src.size());
        benchmark::DoNotOptimize(dst.data());
        benchmark::ClobberMemory();
    }
    st.SetBytesProcessed(static_cast<int64_t>(st.iterations() * src.size()));
}
void BM_ElementMap_NdToNz_4096(benchmark::State& st) {
    ll::ConvertSpec spec;
    spec.from = ll::Format::ND;
    spec.to = ll::Format::FRACTAL_NZ;
    spec.shape = {4096, 4096};
    const ll::Pipeline p = ll::make_pipeline(spec);
    for (auto _ : st) benchmark::DoNotOptimize(ll::element_map(p).data());
}

}  // namespace

BENCHMARK(BM_Memcpy_32MiB)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_NdToNz_fp16_4096)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_NzToNd_fp16_4096)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_NchwToNc1hwc0_fp16)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_NhwcToNc1hwc0_fp16)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ElementMap_NdToNz_4096)->Unit(benchmark::kMillisecond);
