#include "core/exec/conv.hpp"

#include <algorithm>
#include <stdexcept>
#include <type_traits>

#include "core/error.hpp"
#include "core/exec/check.hpp"
#include "core/exec/cube.hpp"
#include "core/exec/half.hpp"

namespace ll::exec {

int64_t ConvParams::c0() const {
    return cube_shape(dtype).k0;
}
int64_t ConvParams::out_h() const {
    return window_out(h, win.pad_top, win.pad_bottom, win.kh, win.stride_h, win.dil_h);
}
int64_t ConvParams::out_w() const {
    return window_out(w, win.pad_left, win.pad_right, win.kw, win.stride_w, win.dil_w);
}

void ConvParams::validate() const {
    constexpr int64_t kBig = 1 << 20;
    check_range("N", n, 1, kBig);
    check_range("Cin", cin, 1, kBig);
    check_range("Cout", cout, 1, kBig);
    check_range("H", h, 1, kBig);
    check_range("W", w, 1, kBig);
    cube_shape(dtype);  // fp16 or int8
    exec::validate(win, h, w);
    // Every buffer of the pipeline must be a sane size.
    int64_t c1 = ceil_div(cin, c0());
    numel({n, round_up(out_h() * out_w(), 16), c1 * win.kh * win.kw * c0()});
    numel({n, c1, h, w, c0()});
}

ConvParams conv_case_study() {
    return ConvParams{};
}

void check_runnable(const ConvParams& p) {
    constexpr int64_t kMax = int64_t(1) << 28;
    p.validate();
    const int64_t c0 = p.c0(), c1 = ceil_div(p.cin, c0), kk = p.win.kh * p.win.kw;
    const int64_t rows = round_up(p.out_h() * p.out_w(), 16);
    const struct {
        const char* what;
        int64_t n;
    } bufs[] = {
        {"input", p.n * p.cin * p.h * p.w},
        {"weight", p.cout * p.cin * kk},
        {"A fractal", p.n * rows * c1 * kk * c0},
        {"C fractal", round_up(p.cout, 16) * p.n * rows},
    };
    for (const auto& b : bufs)
        if (b.n > kMax)
            throw UsageError(std::string("running this convolution needs the ") + b.what +
                             " buffer of " + std::to_string(b.n) + " elements; expected at most " +
                             std::to_string(kMax));
}

const Shape& ConvShapes::at(const std::string& key) const {
    for (const auto& s : stages)
        if (s.key == key) return s.shape;
    throw std::out_of_range("no conv stage '" + key + "'");
}

int64_t lecture_multiplications(const ConvParams& p) {
    p.validate();
    return p.win.kh * p.win.kw * p.out_h() * p.out_w() * p.cin * p.cout * p.n;
}

ConvShapes conv_shapes(const ConvParams& p) {
    p.validate();
    const int64_t c0 = p.c0(), c1 = ceil_div(p.cin, c0), ho = p.out_h(), wo = p.out_w();
    const int64_t kk = p.win.kh * p.win.kw, mf = ceil_div(ho * wo, 16), nf = ceil_div(p.cout, 16);
    ConvShapes s;
    s.k1 = c1 * kk;
    s.n1 = nf;
    s.m1 = p.n * mf;
    s.cube_ops = s.k1 * s.n1 * s.m1;
    const std::string C0 = std::to_string(c0);
    s.stages = {
        {"input_nhwc",
         "input NHWC",
         {p.n, p.h, p.w, p.cin},
         "where document 004's case study starts: [N, Hin, Win, Cin]"},
        {"input_nhwc_split",
         "NHWC, C split",
         {p.n, p.h, p.w, c1, c0},
         "step 1: Cin zero-padded and split into C1 x C0=" + C0 +
             " in place, [N, H, W, C1, C0]; a transpose gives NC1HWC0"},
        {"input_nchw",
         "input NCHW",
         {p.n, p.cin, p.h, p.w},
         "the same feature map as frameworks that store NCHW hold it (the other way in)"},
        {"input_5hd",
         "input NC1HWC0",
         {p.n, c1, p.h, p.w, c0},
         "channels split into C1 slices of C0=" + C0 + " (32 bytes), zero-padded"},
        {"img2col",
         "img2col matrix",
         {p.n, ho * wo, c1 * kk * c0},
         "one row per output pixel, one column per (c1,kh,kw,c0): each window unrolled"},
        {"a_fractal",
         "A fractals (ZZ)",
         {p.n, mf, c1 * kk, 16, c0},
         "rows padded to 16, cut into 16x" + C0 + " fractals: big Z, small Z (A2 / L0A)"},
        {"weight_oihw", "weight OIHW", {p.cout, p.cin, p.win.kh, p.win.kw}, "the kernels"},
        {"weight_5hd",
         "weight 5D",
         {p.cout, c1, p.win.kh, p.win.kw, c0},
         "input channels split like the feature map"},
        {"weight_slice",
         "weight matrix, one C1",
         {kk * c0, p.cout},
         "one C1 slice: each kernel's Kh x Kw x C0 values as a column, [Hk Wk C0, Cout]"},
        {"weight_matrix",
         "weight matrix",
         {c1 * kk * c0, p.cout},
         "each kernel unrolled into a column, rows ordered (c1,kh,kw,c0)"},
        {"b_fractal",
         "B fractals (ZN, FRACTAL_Z)",
         {c1 * kk, nf, 16, c0},
         "Cout padded to 16: big Z over (K1,N1), each fractal 16 columns of C0: small N (B2 / "
         "L0B)"},
        {"c_fractal",
         "C fractals (NZ)",
         {nf, p.n * mf, 16, 16},
         "the Cube accumulates A(m,k) x B(k,n) into C(n,m): big N, small Z (CO1 / L0C)"},
        {"c_unpadded",
         "C without padding",
         {nf, p.n, ho, wo, 16},
         "rows beyond Ho*Wo dropped on the way out"},
        {"output_5hd", "output NC1HWC0", {p.n, nf, ho, wo, 16}, "axes swapped back to 5HD"},
        {"output_nchw", "output NCHW", {p.n, p.cout, ho, wo}, "padding channels dropped"},
    };
    return s;
}

namespace {

void check_sizes(const ConvParams& p, size_t in, size_t w) {
    check_runnable(p);
    if (int64_t(in) != p.n * p.cin * p.h * p.w)
        throw UsageError("input has " + std::to_string(in) + " elements; expected N*Cin*H*W = " +
                         std::to_string(p.n * p.cin * p.h * p.w));
    if (int64_t(w) != p.cout * p.cin * p.win.kh * p.win.kw)
        throw UsageError("weight has " + std::to_string(w) +
                         " elements; expected Cout*Cin*Kh*Kw = " +
                         std::to_string(p.cout * p.cin * p.win.kh * p.win.kw));
}

// The pipeline for one element type T (fp16 carried as rounded floats, or
// int8) accumulating in Acc. `conv_in` maps an input value into T.
template <class T, class Acc, class In, class F>
std::vector<Acc> run_pipeline(const ConvParams& p, const ConvShapes& s,
                              const std::vector<In>& input, const std::vector<In>& weight,
                              F conv_in) {
    const int64_t c0 = p.c0(), c1 = ceil_div(p.cin, c0), ho = p.out_h(), wo = p.out_w();
    const int64_t kh = p.win.kh, kw = p.win.kw, howo = ho * wo, mf = ceil_div(howo, 16);
    const int64_t k1 = s.k1, n1 = s.n1, m1 = s.m1, H = p.h, W = p.w;

    // NCHW -> NC1HWC0 (zero channels past Cin).
    const std::vector<int64_t> xmap = input_5hd_map(p);
    std::vector<T> x5(xmap.size(), T(0));
    for (size_t i = 0; i < xmap.size(); ++i)
        if (xmap[i] >= 0) x5[i] = conv_in(input[size_t(xmap[i])]);

    // img2col straight into A fractals [N][mf][k1][16][c0]: each row of a
    // fractal is C0 contiguous channels of one input pixel (or zeros).
    std::vector<T> a(size_t(m1 * k1 * 16 * c0), T(0));
    for (int64_t n = 0; n < p.n; ++n)
        for (int64_t pos = 0; pos < howo; ++pos) {
            const int64_t oh = pos / wo, ow = pos % wo, mb = n * mf + pos / 16, m0 = pos % 16;
            for (int64_t c = 0; c < c1; ++c)
                for (int64_t y = 0; y < kh; ++y) {
                    const int64_t ih = oh * p.win.stride_h - p.win.pad_top + y * p.win.dil_h;
                    if (ih < 0 || ih >= H) continue;
                    for (int64_t x = 0; x < kw; ++x) {
                        const int64_t iw = ow * p.win.stride_w - p.win.pad_left + x * p.win.dil_w;
                        if (iw < 0 || iw >= W) continue;
                        const T* src = &x5[size_t(((n * c1 + c) * H + ih) * W + iw) * size_t(c0)];
                        T* dst = &a[size_t(((mb * k1 + (c * kh + y) * kw + x) * 16 + m0) * c0)];
                        std::copy(src, src + c0, dst);
                    }
                }
        }

    // OIHW -> B fractals [k1][n1][16][c0].
    const std::vector<int64_t> wmap = weight_fractal_map(p);
    std::vector<T> b(wmap.size(), T(0));
    for (size_t i = 0; i < wmap.size(); ++i)
        if (wmap[i] >= 0) b[i] = conv_in(weight[size_t(wmap[i])]);

    // The Cube: C [n1][m1][16][16].
    std::vector<Acc> c(size_t(n1 * m1 * 256), Acc(0));
    mmad(a.data(), b.data(), c.data(), m1, k1, n1, c0);

    // Out: drop padded rows and channels, straight to NCHW.
    std::vector<Acc> out(size_t(p.n * p.cout * howo));
    for (int64_t n = 0; n < p.n; ++n)
        for (int64_t co = 0; co < p.cout; ++co)
            for (int64_t pos = 0; pos < howo; ++pos)
                out[size_t((n * p.cout + co) * howo + pos)] =
                    c[size_t(((co / 16 * m1 + n * mf + pos / 16) * 16 + pos % 16) * 16 + co % 16)];
    return out;
}

}  // namespace

std::vector<int64_t> input_5hd_map(const ConvParams& p) {
    p.validate();
    const int64_t c0 = p.c0(), c1 = ceil_div(p.cin, c0), hw = p.h * p.w;
    std::vector<int64_t> m(size_t(p.n * c1 * hw * c0), -1);
    for (int64_t n = 0; n < p.n; ++n)
        for (int64_t c = 0; c < p.cin; ++c)
            for (int64_t i = 0; i < hw; ++i)
                m[size_t(((n * c1 + c / c0) * hw + i) * c0 + c % c0)] = (n * p.cin + c) * hw + i;
    return m;
}

std::vector<int64_t> weight_fractal_map(const ConvParams& p) {
    p.validate();
    const int64_t c0 = p.c0(), c1 = ceil_div(p.cin, c0), kh = p.win.kh, kw = p.win.kw;
    const int64_t n1 = ceil_div(p.cout, 16), k1 = c1 * kh * kw;
    std::vector<int64_t> m(size_t(k1 * n1 * 16 * c0), -1);
    for (int64_t co = 0; co < p.cout; ++co)
        for (int64_t ci = 0; ci < p.cin; ++ci)
            for (int64_t y = 0; y < kh; ++y)
                for (int64_t x = 0; x < kw; ++x) {
                    const int64_t k = ((ci / c0) * kh + y) * kw + x;
                    m[size_t(((k * n1 + co / 16) * 16 + co % 16) * c0 + ci % c0)] =
                        ((co * p.cin + ci) * kh + y) * kw + x;
                }
    return m;
}

namespace {

template <class In, class Acc>
std::vector<Acc> direct_any(const ConvParams& p, const std::vector<In>& input,
                            const std::vector<In>& weight) {
    p.validate();
    check_sizes(p, input.size(), weight.size());
    const int64_t ho = p.out_h(), wo = p.out_w(), kh = p.win.kh, kw = p.win.kw;
    using Sum = std::conditional_t<std::is_integral_v<Acc>, int64_t, double>;
    std::vector<Acc> out(size_t(p.n * p.cout * ho * wo));
    for (int64_t n = 0; n < p.n; ++n)
        for (int64_t co = 0; co < p.cout; ++co)
            for (int64_t oh = 0; oh < ho; ++oh)
                for (int64_t ow = 0; ow < wo; ++ow) {
                    Sum sum = 0;
                    for (int64_t ci = 0; ci < p.cin; ++ci)
                        for (int64_t y = 0; y < kh; ++y) {
                            int64_t ih = oh * p.win.stride_h - p.win.pad_top + y * p.win.dil_h;
                            if (ih < 0 || ih >= p.h) continue;
                            for (int64_t x = 0; x < kw; ++x) {
                                int64_t iw = ow * p.win.stride_w - p.win.pad_left + x * p.win.dil_w;
                                if (iw < 0 || iw >= p.w) continue;
                                sum +=
                                    Sum(input[size_t(((n * p.cin + ci) * p.h + ih) * p.w + iw)]) *
                                    Sum(weight[size_t(((co * p.cin + ci) * kh + y) * kw + x)]);
                            }
                        }
                    out[size_t(((n * p.cout + co) * ho + oh) * wo + ow)] = Acc(sum);
                }
    return out;
}

}  // namespace

ConvResultF conv_fp16(const ConvParams& p, const std::vector<float>& input,
                      const std::vector<float>& weight) {
    if (p.dtype != DType::fp16)
        throw UsageError(std::string("conv_fp16 with dtype ") + name(p.dtype) + "; expected fp16");
    ConvResultF r;
    r.shapes = conv_shapes(p);
    check_sizes(p, input.size(), weight.size());
    r.output = run_pipeline<float, float>(p, r.shapes, input, weight,
                                          [](float v) { return round_to_half(v); });
    return r;
}

ConvResultI conv_int8(const ConvParams& p, const std::vector<int8_t>& input,
                      const std::vector<int8_t>& weight) {
    if (p.dtype != DType::int8)
        throw UsageError(std::string("conv_int8 with dtype ") + name(p.dtype) + "; expected int8");
    ConvResultI r;
    r.shapes = conv_shapes(p);
    check_sizes(p, input.size(), weight.size());
    r.output =
        run_pipeline<int8_t, int32_t>(p, r.shapes, input, weight, [](int8_t v) { return v; });
    return r;
}

std::vector<float> direct_conv(const ConvParams& p, const std::vector<float>& input,
                               const std::vector<float>& weight) {
    return direct_any<float, float>(p, input, weight);
}

std::vector<int32_t> direct_conv_int8(const ConvParams& p, const std::vector<int8_t>& input,
                                      const std::vector<int8_t>& weight) {
    return direct_any<int8_t, int32_t>(p, input, weight);
}

}  // namespace ll::exec
