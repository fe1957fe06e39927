#include "core/exec/img2col.hpp"

#include <algorithm>

#include "core/checked.hpp"
#include "core/error.hpp"
#include "core/exec/check.hpp"

namespace ll::exec {

int64_t window_out(int64_t in, int64_t pad_a, int64_t pad_b, int64_t k, int64_t stride,
                   int64_t dil) {
    int64_t span = dil * (k - 1) + 1;
    int64_t padded = in + pad_a + pad_b;
    if (span > padded) return 0;
    return (padded - span) / stride + 1;
}

void validate(const Window2d& w, int64_t h_in, int64_t w_in) {
    constexpr int64_t kBig = 1 << 20;
    check_range("kernel height (kh)", w.kh, 1, kBig);
    check_range("kernel width (kw)", w.kw, 1, kBig);
    check_range("stride_h", w.stride_h, 1, kBig);
    check_range("stride_w", w.stride_w, 1, kBig);
    check_range("dilation_h", w.dil_h, 1, kBig);
    check_range("dilation_w", w.dil_w, 1, kBig);
    check_range("pad_top", w.pad_top, 0, kBig);
    check_range("pad_bottom", w.pad_bottom, 0, kBig);
    check_range("pad_left", w.pad_left, 0, kBig);
    check_range("pad_right", w.pad_right, 0, kBig);
    int64_t span_h = w.dil_h * (w.kh - 1) + 1, span_w = w.dil_w * (w.kw - 1) + 1;
    int64_t ph = h_in + w.pad_top + w.pad_bottom, pw = w_in + w.pad_left + w.pad_right;
    // Keyed by the kernel's side (the field a panel frames).
    if (span_h > ph)
        throw param_error("kernel height", "(dilated) = " + std::to_string(span_h) +
                                               " is larger than the padded input height " +
                                               std::to_string(ph) +
                                               "; expected dil_h*(kh-1)+1 <= H + pad_top + "
                                               "pad_bottom");
    if (span_w > pw)
        throw param_error("kernel width",
                          "(dilated) = " + std::to_string(span_w) +
                              " is larger than the padded input width " + std::to_string(pw) +
                              "; expected dil_w*(kw-1)+1 <= W + pad_left + pad_right");
}

int64_t Img2colSpec::out_h() const {
    return window_out(h, win.pad_top, win.pad_bottom, win.kh, win.stride_h, win.dil_h);
}
int64_t Img2colSpec::out_w() const {
    return window_out(w, win.pad_left, win.pad_right, win.kw, win.stride_w, win.dil_w);
}

void Img2colSpec::validate() const {
    constexpr int64_t kBig = 1 << 24;
    check_range("N", n, 1, kBig);
    check_range("C", c, 1, kBig);
    check_range("H", h, 1, kBig);
    check_range("W", w, 1, kBig);
    exec::validate(win, h, w);
    // Each product checked before it is formed (rows() and cols() would
    // overflow first for dims near the caps).
    checked_product({n, c, h, w}, "img2col input N x C x H x W", kMaxElements);
    const int64_t r =
        checked_product({n, out_h(), out_w()}, "img2col rows N x OH x OW", kMaxElements);
    const int64_t k =
        checked_product({c, win.kh, win.kw}, "img2col columns C x KH x KW", kMaxElements);
    checked_mul(r, k, "img2col matrix rows x columns", kMaxElements);
}

Img2colTap img2col_tap(const Img2colSpec& s, int64_t row, int64_t col) {
    const Window2d& w = s.win;
    const int64_t ho = s.out_h(), wo = s.out_w();
    Img2colTap t;
    t.ow = row % wo;
    t.oh = (row / wo) % ho;
    t.n = row / (wo * ho);
    t.kw = col % w.kw;
    t.kh = (col / w.kw) % w.kh;
    t.c = col / (w.kw * w.kh);
    t.ih = t.oh * w.stride_h - w.pad_top + t.kh * w.dil_h;
    t.iw = t.ow * w.stride_w - w.pad_left + t.kw * w.dil_w;
    const int64_t ph = s.h + w.pad_top + w.pad_bottom, pw = s.w + w.pad_left + w.pad_right;
    t.padded = ((t.n * s.c + t.c) * ph + t.ih + w.pad_top) * pw + t.iw + w.pad_left;
    if (t.ih >= 0 && t.ih < s.h && t.iw >= 0 && t.iw < s.w)
        t.source = ((t.n * s.c + t.c) * s.h + t.ih) * s.w + t.iw;
    return t;
}

int64_t img2col_source(const Img2colSpec& s, int64_t row, int64_t col) {
    return img2col_tap(s, row, col).source;
}

// The explicit forms materialise the matrix; cap them (the implicit gather
// img2col_source works at any size).
constexpr int64_t kMaxExplicit = int64_t(1) << 25;

std::vector<int64_t> img2col_index_map(const Img2colSpec& s) {
    s.validate();
    if (s.rows() * s.cols() > kMaxExplicit)
        throw UsageError(
            "the img2col matrix would hold " + std::to_string(s.rows() * s.cols()) +
            " elements; expected at most " + std::to_string(kMaxExplicit) +
            " to materialise it (one element at a time, the implicit form, has no limit)");
    // Materialised the way an explicit im2col kernel writes it: walk the
    // windows and copy each one out, rather than calling the gather per cell.
    const int64_t ho = s.out_h(), wo = s.out_w(), cols = s.cols();
    std::vector<int64_t> m(size_t(s.rows() * cols), -1);
    for (int64_t n = 0; n < s.n; ++n)
        for (int64_t oh = 0; oh < ho; ++oh)
            for (int64_t ow = 0; ow < wo; ++ow) {
                int64_t* dst = m.data() + ((n * ho + oh) * wo + ow) * cols;
                for (int64_t c = 0; c < s.c; ++c)
                    for (int64_t kh = 0; kh < s.win.kh; ++kh) {
                        int64_t ih = oh * s.win.stride_h - s.win.pad_top + kh * s.win.dil_h;
                        for (int64_t kw = 0; kw < s.win.kw; ++kw, ++dst) {
                            int64_t iw = ow * s.win.stride_w - s.win.pad_left + kw * s.win.dil_w;
                            if (ih >= 0 && ih < s.h && iw >= 0 && iw < s.w)
                                *dst = ((n * s.c + c) * s.h + ih) * s.w + iw;
                        }
                    }
            }
    return m;
}

std::vector<float> img2col_explicit(const Img2colSpec& s, const std::vector<float>& input,
                                    float pad_value) {
    s.validate();
    if (int64_t(input.size()) != s.n * s.c * s.h * s.w)
        throw UsageError("img2col input has " + std::to_string(input.size()) +
                         " elements; expected N*C*H*W = " + std::to_string(s.n * s.c * s.h * s.w));
    std::vector<int64_t> idx = img2col_index_map(s);
    std::vector<float> m(idx.size());
    for (size_t i = 0; i < idx.size(); ++i) m[i] = idx[i] < 0 ? pad_value : input[size_t(idx[i])];
    return m;
}

Img2colExpansion img2col_expansion(const Img2colSpec& s) {
    s.validate();
    Img2colExpansion e;
    e.input_elements = s.n * s.c * s.h * s.w;
    e.matrix_elements = s.rows() * s.cols();
    e.reuse.assign(size_t(e.input_elements), 0);
    for (int64_t src : img2col_index_map(s)) {
        if (src < 0)
            ++e.padding_elements;
        else
            ++e.reuse[size_t(src)];
    }
    for (int64_t r : e.reuse) {
        e.max_reuse = std::max(e.max_reuse, r);
        if (r == 0) ++e.unused_inputs;
    }
    return e;
}

}  // namespace ll::exec
