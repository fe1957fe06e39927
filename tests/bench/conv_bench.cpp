// The conv pipeline (NC1HWC0 -> img2col fractals -> Cube -> NCHW) against a
// plain direct convolution loop in float, on the same case-study geometry,
// in the same run. Compare BM_ConvPipeline with BM_DirectConvLoop.
#include <benchmark/benchmark.h>

#include <random>

#include "core/exec/conv.hpp"
#include "core/exec/half.hpp"

namespace {

using namespace ll::exec;

struct Data {
    ConvParams p = conv_case_study();
    std::vector<float> x, w;
    Data() {
        std::mt19937 rng(5);
        std::uniform_real_distribution<float> d(-1.0f, 1.0f);
        x.resize(size_t(p.n * p.cin * p.h * p.w));
        w.resize(size_t(p.cout * p.cin * p.win.kh * p.win.kw));
        for (auto& v : x) v = round_to_half(d(rng));
        for (auto& v : w) v = round_to_half(d(rng));
    }
};

const Data& data() {
    static const Data d;
    return d;
}

// The baseline a programmer would write first: seven nested loops, float
// accumulation, bounds checks for the padding.
std::vector<float> direct_loop(const ConvParams& p, const std::vector<float>& x,
                               const std::vector<float>& w) {
    const int64_t ho = p.out_h(), wo = p.out_w(), kh = p.win.kh, kw = p.win.kw;
    std::vector<float> y(size_t(p.n * p.cout * ho * wo));
    for (int64_t n = 0; n < p.n; ++n)
        for (int64_t co = 0; co < p.cout; ++co)
            for (int64_t oh = 0; oh < ho; ++oh)
                for (int64_t ow = 0; ow < wo; ++ow) {
                    float s = 0;
                    for (int64_t ci = 0; ci < p.cin; ++ci)
                        for (int64_t a = 0; a < kh; ++a) {
                            int64_t ih = oh * p.win.stride_h - p.win.pad_top + a * p.win.dil_h;
                            if (ih < 0 || ih >= p.h) continue;
                            for (int64_t b = 0; b < kw; ++b) {
                                int64_t iw = ow * p.win.stride_w - p.win.pad_left + b * p.win.dil_w;
                                if (iw < 0 || iw >= p.w) continue;
                                s += x[size_t(((n * p.cin + ci) * p.h + ih) * p.w + iw)] *
                                     w[size_t(((co * p.cin + ci) * kh + a) * kw + b)];
                            }
                        }
                    y[size_t(((n * p.cout + co) * ho + oh) * wo + ow)] = s;
                }
    return y;
}

void BM_ConvPipeline(benchmark::State& st) {
    const Data& d = data();
    for (auto _ : st) {
        ConvResultF r = conv_fp16(d.p, d.x, d.w);
        benchmark::DoNotOptimize(r.output.data());
    }
    st.counters["MACs/s"] = benchmark::Counter(double(conv_shapes(d.p).cube_ops) * 4096,
                                               benchmark::Counter::kIsIterationInvariantRate);
}

void BM_DirectConvLoop(benchmark::State& st) {
    const Data& d = data();
    for (auto _ : st) {
        std::vector<float> y = direct_loop(d.p, d.x, d.w);
        benchmark::DoNotOptimize(y.data());
    }
}

}  // namespace

BENCHMARK(BM_ConvPipeline)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DirectConvLoop)->Unit(benchmark::kMillisecond);
