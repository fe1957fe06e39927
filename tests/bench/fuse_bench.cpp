// Fused vs unfused execution of the seed document's chain on real bytes:
// (1,64,56,56) fp32, reshape to (1,64,3136) then transpose to (1,3136,64).
// BM_Unfused materialises each step (two passes, one intermediate buffer);
// BM_Fused runs the single strided read map that fuse() returns. Compare
// the two in the same run; BM_Memcpy is the contiguous-copy floor.
#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

#include "core/view/fuse.hpp"

namespace {

using namespace ll::view;

// dst[i] = src[L(unravel(i))] for every row-major i, walking the flattened
// sub-modes with an odometer (what an AGU does in hardware).
void gather(const Layout& l, const float* src, float* dst) {
    std::vector<SubMode> subs = coalesce(flatten(l));
    std::vector<int64_t> ctr(subs.size(), 0);
    int64_t n = l.size(), off = l.offset;
    const int64_t inner = subs.back().size, istride = subs.back().stride;
    for (int64_t i = 0; i < n; i += inner) {
        for (int64_t k = 0; k < inner; ++k) dst[i + k] = src[off + k * istride];
        for (size_t d = subs.size() - 1; d-- > 0;) {
            off += subs[d].stride;
            if (++ctr[d] < subs[d].size) break;
            off -= subs[d].stride * subs[d].size;
            ctr[d] = 0;
        }
    }
}

struct Case {
    View input = make_view(row_major({1, 64, 56, 56}), 32);
    std::vector<Op> ops{parse_op("reshape:1,64,3136"), parse_op("transpose:1,2")};
    Fused fused = fuse(input, ops);
    std::vector<float> src = std::vector<float>(size_t(input.layout.size()));
    Case() {
        for (size_t i = 0; i < src.size(); ++i) src[i] = float(i);
    }
};

const Case& the_case() {
    static const Case c;
    return c;
}

void BM_Unfused(benchmark::State& st) {
    const Case& c = the_case();
    std::vector<float> tmp(c.src.size()), dst(c.src.size());
    for (auto _ : st) {
        View v = c.input;
        const float* from = c.src.data();
        for (size_t k = 0; k < c.ops.size(); ++k) {
            View step =
                apply(make_view(row_major(v.shape()), 32), c.ops[k], ReshapeRule::hierarchical)
                    .view;
            float* to = k + 1 == c.ops.size() ? dst.data() : tmp.data();
            gather(step.layout, from, to);
            from = to;
            v = step;
        }
        benchmark::DoNotOptimize(dst.data());
    }
    st.SetBytesProcessed(int64_t(st.iterations()) * c.fused.unfused_moved_bytes);
}
BENCHMARK(BM_Unfused);

void BM_Fused(benchmark::State& st) {
    const Case& c = the_case();
    std::vector<float> dst(c.src.size());
    for (auto _ : st) {
        gather(c.fused.result.layout, c.src.data(), dst.data());
        benchmark::DoNotOptimize(dst.data());
    }
    st.SetBytesProcessed(int64_t(st.iterations()) * c.fused.moved_bytes);
}
BENCHMARK(BM_Fused);

void BM_Memcpy(benchmark::State& st) {
    const Case& c = the_case();
    std::vector<float> dst(c.src.size());
    for (auto _ : st) {
        std::memcpy(dst.data(), c.src.data(), c.src.size() * sizeof(float));
        benchmark::DoNotOptimize(dst.data());
    }
    st.SetBytesProcessed(int64_t(st.iterations()) * int64_t(2 * c.src.size() * sizeof(float)));
}
BENCHMARK(BM_Memcpy);

}  // namespace
