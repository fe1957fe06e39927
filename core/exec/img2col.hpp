// img2col: the expanding transform that turns a convolution into a matrix
// multiply, explicit (a materialised matrix) and implicit (a gather function).
//
// Contract. For an input X[N][C][H][W] and a kernel Kh x Kw with stride,
// dilation and padding per side, the matrix M has
//   rows = N * Ho * Wo   (row r = (n, oh, ow), row-major)
//   cols = C * Kh * Kw   (col q = (c, kh, kw), row-major; torch `unfold` order)
//   Ho = (H + pad_top + pad_bottom - dil_h*(Kh-1) - 1) / stride_h + 1 (same for Wo)
// and M[r][q] = X[n][c][ih][iw] with ih = oh*stride_h - pad_top + kh*dil_h,
// iw = ow*stride_w - pad_left + kw*dil_w, or the pad value where (ih, iw)
// falls outside the input. img2col_source() is that gather (the implicit
// form); img2col_index_map() materialises it (the explicit form); both agree
// on every element by construction and by test.
//
// Worked example (the documents' 3x3 input, 2x2 kernel, stride 1, no pad):
//   rows 4, cols 4, 16 matrix elements from 9 inputs; the centre element
//   (index 4, "e") is reused 4 times, the corners once, the edges twice.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/shape.hpp"

namespace ll::exec {

// Geometry of a 2-D sliding window. Every field is validated by validate().
struct Window2d {
    int64_t kh = 1, kw = 1;
    int64_t stride_h = 1, stride_w = 1;
    int64_t dil_h = 1, dil_w = 1;
    int64_t pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
};

// Output extent along one axis; 0 or less means the kernel does not fit.
int64_t window_out(int64_t in, int64_t pad_a, int64_t pad_b, int64_t k, int64_t stride,
                   int64_t dil);

// Throws UsageError ("<parameter> = v; expected <range>") for stride or
// dilation < 1, kernel < 1, negative padding, or a (dilated) kernel larger
// than the padded input.
void validate(const Window2d& w, int64_t h_in, int64_t w_in);

struct Img2colSpec {
    int64_t n = 1, c = 1, h = 1, w = 1;
    Window2d win;

    int64_t out_h() const;
    int64_t out_w() const;
    int64_t rows() const { return n * out_h() * out_w(); }
    int64_t cols() const { return c * win.kh * win.kw; }
    void validate() const;  // throws UsageError
};

// Implicit img2col: the NCHW linear index of the input element that lands at
// (row, col) of the matrix, or -1 for padding. No validation (hot path);
// call spec.validate() once before.
int64_t img2col_source(const Img2colSpec& s, int64_t row, int64_t col);

// Every index of the formula above for matrix entry (row, col): the row's
// (n, oh, ow), the column's (c, kh, kw), the input position (ih, iw) (negative
// or past the edge in the padding), the entry's index in the padded input
// (N, C, H + pads, W + pads), row-major, and the source (img2col_source: the
// NCHW input index, -1 in the padding). No validation, like img2col_source.
// Example: 3x3 input, 2x2 kernel, pad 1: row 0, col 3 -> (n 0, oh 0, ow 0),
// (c 0, kh 1, kw 1), (ih 0, iw 0), padded index 6, source 0.
struct Img2colTap {
    int64_t n = 0, oh = 0, ow = 0;
    int64_t c = 0, kh = 0, kw = 0;
    int64_t ih = 0, iw = 0;
    int64_t padded = 0;
    int64_t source = -1;
};
Img2colTap img2col_tap(const Img2colSpec& s, int64_t row, int64_t col);

// Explicit img2col of indices: rows*cols entries, row-major, each the
// img2col_source() of its position.
std::vector<int64_t> img2col_index_map(const Img2colSpec& s);

// Explicit img2col of values (NCHW float input), pad value where padded.
std::vector<float> img2col_explicit(const Img2colSpec& s, const std::vector<float>& input,
                                    float pad_value = 0.0f);

struct Img2colExpansion {
    int64_t input_elements = 0;
    int64_t matrix_elements = 0;
    int64_t padding_elements = 0;  // matrix entries that read the pad value
    int64_t max_reuse = 0;         // most times one input element appears
    int64_t unused_inputs = 0;     // inputs never read (stride > kernel reach)
    std::vector<int64_t> reuse;    // per input element (NCHW order)
    double ratio() const {
        return input_elements ? double(matrix_elements) / double(input_elements) : 0.0;
    }
};

Img2colExpansion img2col_expansion(const Img2colSpec& s);

}  // namespace ll::exec
