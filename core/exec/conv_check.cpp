#include "core/exec/conv_check.hpp"

#include <chrono>
#include <cmath>
#include <random>
#include <vector>

#include "core/exec/half.hpp"

namespace ll::exec {

ConvCheck conv_check(const ConvParams& p, uint32_t seed) {
    check_runnable(p);
    using clock = std::chrono::steady_clock;
    auto secs = [](clock::time_point a, clock::time_point b) {
        return std::chrono::duration<double>(b - a).count();
    };
    std::mt19937 rng(seed);
    const size_t nx = size_t(p.n * p.cin * p.h * p.w),
                 nw = size_t(p.cout * p.cin * p.win.kh * p.win.kw);
    ConvCheck c;
    if (p.dtype == DType::int8) {
        std::uniform_int_distribution<int> d(-128, 127);
        std::vector<int8_t> x(nx), w(nw);
        for (auto& v : x) v = int8_t(d(rng));
        for (auto& v : w) v = int8_t(d(rng));
        const auto t0 = clock::now();
        ConvResultI r = conv_int8(p, x, w);
        const auto t1 = clock::now();
        std::vector<int32_t> ref = direct_conv_int8(p, x, w);
        const auto t2 = clock::now();
        for (size_t i = 0; i < ref.size(); ++i) {
            c.max_abs_diff =
                std::max(c.max_abs_diff, std::fabs(double(r.output[i]) - double(ref[i])));
            c.mismatches += r.output[i] != ref[i];
        }
        c.pipeline_s = secs(t0, t1);
        c.direct_s = secs(t1, t2);
        c.cube_ops = r.shapes.cube_ops;
    } else {
        std::uniform_real_distribution<float> d(-1.0f, 1.0f);
        std::vector<float> x(nx), w(nw);
        for (auto& v : x) v = round_to_half(d(rng));
        for (auto& v : w) v = round_to_half(d(rng));
        const auto t0 = clock::now();
        ConvResultF r = conv_fp16(p, x, w);
        const auto t1 = clock::now();
        std::vector<float> ref = direct_conv(p, x, w);
        const auto t2 = clock::now();
        for (size_t i = 0; i < ref.size(); ++i)
            c.max_abs_diff = std::max(c.max_abs_diff, double(std::fabs(r.output[i] - ref[i])));
        c.pipeline_s = secs(t0, t1);
        c.direct_s = secs(t1, t2);
        c.cube_ops = r.shapes.cube_ops;
    }
    return c;
}

}  // namespace ll::exec
