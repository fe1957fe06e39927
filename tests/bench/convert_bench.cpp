// Format conversion throughput against memcpy of the same byte count.
// Run: build/convert_bench (not part of ctest). Bytes/s counts source bytes.
//
// Every conversion is registered right after a memcpy of its own source
// size (BM_Memcpy/<bytes>), so each ratio can be read from one run:
//   convert_bench --benchmark_filter='Memcpy/25690112|NchwToNc1hwc0_fp16'
// The counter "vs_memcpy" is filled in by the conversion benchmark itself: it
// times memcpy of the same bytes in the same process, interleaved with the
// conversion (medians of thread CPU time), and reports conversion bytes/s
// divided by memcpy bytes/s.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "core/format/format.hpp"

namespace {

using ll::DType;
using ll::Format;

// Thread CPU time: on a shared machine the process is often descheduled
// mid-run, which wall time would count against whichever side it hit.
double thread_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

template <class F>
double seconds_of(const F& f) {
    const double t0 = thread_seconds();
    f();
    return thread_seconds() - t0;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

void run_conversion(benchmark::State& st, Format from, Format to, ll::Shape shape, DType t) {
    ll::ConvertSpec spec;
    spec.from = from;
    spec.to = to;
    spec.shape = std::move(shape);
    spec.dtype = t;
    ll::Executor ex(ll::make_pipeline(spec));
    std::vector<uint8_t> src(static_cast<size_t>(ex.src_bytes()));
    for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint8_t>(i * 31);
    std::vector<uint8_t> dst(static_cast<size_t>(ex.dst_bytes()));
    std::vector<uint8_t> copy(src.size());
    ex.run(src.data(), dst.data());
    std::memcpy(copy.data(), src.data(), src.size());
    std::vector<double> tc, tm;
    for (auto _ : st) {
        tc.push_back(seconds_of([&] { ex.run(src.data(), dst.data()); }));
        benchmark::DoNotOptimize(dst.data());
        benchmark::ClobberMemory();
        st.PauseTiming();
        tm.push_back(seconds_of([&] { std::memcpy(copy.data(), src.data(), src.size()); }));
        benchmark::DoNotOptimize(copy.data());
        benchmark::ClobberMemory();
        st.ResumeTiming();
    }
    st.SetBytesProcessed(static_cast<int64_t>(st.iterations()) * ex.src_bytes());
    st.counters["vs_memcpy"] = median(tm) / median(tc);
}

void BM_Memcpy(benchmark::State& st) {
    std::vector<uint8_t> src(static_cast<size_t>(st.range(0)), 1), dst(src.size());
    for (auto _ : st) {
        std::memcpy(dst.data(), src.data(), src.size());
        benchmark::DoNotOptimize(dst.data());
        benchmark::ClobberMemory();
    }
    st.SetBytesProcessed(static_cast<int64_t>(st.iterations()) * st.range(0));
}

void BM_ElementMap_NdToNz_4096(benchmark::State& st) {
    ll::ConvertSpec spec;
    spec.from = Format::ND;
    spec.to = Format::FRACTAL_NZ;
    spec.shape = {4096, 4096};
    const ll::Pipeline p = ll::make_pipeline(spec);
    for (auto _ : st) benchmark::DoNotOptimize(ll::element_map(p).data());
}

struct Case {
    const char* name;
    Format from, to;
    ll::Shape shape;
    DType t;
};

// The CLI's --bench cases of the issue first, then the other C-blocking and
// fractal conversions (weights: 3x3 kernels, HWCN; a first layer with C < C0).
const Case kCases[] = {
    {"NdToNz_fp16_4096", Format::ND, Format::FRACTAL_NZ, {4096, 4096}, DType::fp16},
    {"NzToNd_fp16_4096", Format::FRACTAL_NZ, Format::ND, {4096, 4096}, DType::fp16},
    {"NdToZn_fp16_4096", Format::ND, Format::FRACTAL_ZN, {4096, 4096}, DType::fp16},
    {"NchwToNc1hwc0_fp16", Format::NCHW, Format::NC1HWC0, {8, 64, 112, 112}, DType::fp16},
    {"Nc1hwc0ToNchw_fp16", Format::NC1HWC0, Format::NCHW, {8, 64, 112, 112}, DType::fp16},
    {"NhwcToNc1hwc0_fp16", Format::NHWC, Format::NC1HWC0, {8, 112, 112, 64}, DType::fp16},
    {"Nc1hwc0ToNhwc_fp16", Format::NC1HWC0, Format::NHWC, {8, 112, 112, 64}, DType::fp16},
    {"NchwToNc1hwc0_fp32", Format::NCHW, Format::NC1HWC0, {8, 64, 112, 112}, DType::fp32},
    {"NchwToNc1hwc0_int8", Format::NCHW, Format::NC1HWC0, {8, 64, 112, 112}, DType::int8},
    {"NchwToNc1hwc0_fp16_C3", Format::NCHW, Format::NC1HWC0, {8, 3, 224, 224}, DType::fp16},
    {"NchwToNc1hwc0_fp16_7x7", Format::NCHW, Format::NC1HWC0, {32, 512, 7, 7}, DType::fp16},
    {"NchwToFractalZ_fp16", Format::NCHW, Format::FRACTAL_Z, {512, 512, 3, 3}, DType::fp16},
    {"HwcnToFractalZ_fp16", Format::HWCN, Format::FRACTAL_Z, {3, 3, 512, 512}, DType::fp16},
    {"FractalZToNchw_fp16", Format::FRACTAL_Z, Format::NCHW, {512, 512, 3, 3}, DType::fp16},
    {"NcdhwToNdc1hwc0_fp16", Format::NCDHW, Format::NDC1HWC0, {2, 64, 16, 56, 56}, DType::fp16},
    {"NchwToNhwc_fp16", Format::NCHW, Format::NHWC, {8, 64, 112, 112}, DType::fp16},
};

int register_all() {
    for (const Case& c : kCases) {
        const int64_t bytes = ll::bytes_for(c.t, ll::numel(c.shape));
        benchmark::RegisterBenchmark("BM_Memcpy", BM_Memcpy)
            ->Arg(bytes)
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(
            (std::string("BM_") + c.name).c_str(),
            [c](benchmark::State& st) { run_conversion(st, c.from, c.to, c.shape, c.t); })
            ->Unit(benchmark::kMillisecond);
    }
    benchmark::RegisterBenchmark("BM_ElementMap_NdToNz_4096", BM_ElementMap_NdToNz_4096)
        ->Unit(benchmark::kMillisecond);
    return 0;
}
[[maybe_unused]] const int kRegistered = register_all();

}  // namespace
