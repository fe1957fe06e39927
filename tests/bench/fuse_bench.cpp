// Fused vs unfused execution on real bytes, (1,64,56,56) fp32, two chains
// (the benchmark argument):
//   0: the seed document's reshape to (1,64,3136) then transpose to (1,3136,64)
//   1: im2col:3,3 then transpose:0,1 -> the (C*9, OH*OW) = (576, 2916) GEMM
//      operand; fused, one overlapping-stride read map, 9x expansion
// BM_Unfused materialises each step (one pass per step, intermediate
// buffers); BM_Fused runs the single read map that fuse() returns. Compare
// the two in the same run; BM_Memcpy is the contiguous-copy floor.
#include <benchmark/benchmark.h>

#include <algorithm>
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
    std::vector<Op> ops;
    Fused fused;
    std::vector<float> src = std::vector<float>(size_t(input.layout.size()));
    int64_t out_elems = 0, biggest = 0;
    explicit Case(std::vector<Op> chain) : ops(std::move(chain)), fused(fuse(input, ops)) {
        for (size_t i = 0; i < src.size(); ++i) src[i] = float(i);
        out_elems = fused.result.layout.size();
        for (const auto& s : fused.steps) biggest = std::max(biggest, ll::numel(s.out_shape));
    }
};

const Case& the_case(int64_t which) {
    static const Case c0({parse_op("reshape:1,64,3136"), parse_op("transpose:1,2")});
    static const Case c1({parse_op("im2col:3,3"), parse_op("transpose:0,1")});
    return which == 0 ? c0 : c1;
}

void BM_Unfused(benchmark::State& st) {
    const Case& c = the_case(st.range(0));
    std::vector<float> tmp(size_t(c.biggest)), dst(size_t(c.biggest));
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
BENCHMARK(BM_Unfused)->Arg(0)->Arg(1);

void BM_Fused(benchmark::State& st) {
    const Case& c = the_case(st.range(0));
    std::vector<float> dst(size_t(c.out_elems));
    for (auto _ : st) {
        gather(c.fused.result.layout, c.src.data(), dst.data());
        benchmark::DoNotOptimize(dst.data());
    }
    st.SetBytesProcessed(int64_t(st.iterations()) * c.fused.moved_bytes);
}
BENCHMARK(BM_Fused)->Arg(0)->Arg(1);

void BM_Memcpy(benchmark::State& st) {
    const Case& c = the_case(0);
    std::vector<float> dst(c.src.size());
    for (auto _ : st) {
        std::memcpy(dst.data(), c.src.data(), c.src.size() * sizeof(float));
        benchmark::DoNotOptimize(dst.data());
    }
    st.SetBytesProcessed(int64_t(st.iterations()) * int64_t(2 * c.src.size() * sizeof(float)));
}
BENCHMARK(BM_Memcpy);

}  // namespace
