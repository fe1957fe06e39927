// LoadData 3D (v1): img2col done by the load unit on the way A1 -> A2.
//
// This is the instruction that document 001's closing call example really
// makes (padList, H, W, strides, kernel, dilation, repeat, pad value): an
// img2col load, not Load2D (seeds/README known mistake 5).
//
// Model. The source in A1 is one image in NC1HWC0 without N: [C1][H][W][C0]
// (C0 = 32 B / sizeof(T)). Each iteration writes one 16 x C0 fractal of the
// img2col matrix (rows = window positions, row-major over Ho x Wo; columns =
// (c1, kh, kw, c0)) to A2 fractal i:
//   dst element (i, r, c0) = src (c1, ih, iw, c0) with
//     ih = leftTopH + oh*strideH + kh*dilationH,  iw likewise,
//     (oh, ow) = window position p = p0 + r,  or padValue outside [0,H)x[0,W)
//     or when p >= Ho*Wo (the round-up of HoWo to 16).
//   repeatMode 0: iteration i takes kernel position q0 + i, where
//     q = (c1*Kh + kh)*Kw + kw and q0 = (c1Index*Kh + fetchFilterH)*Kw +
//     fetchFilterW; rows p0 = 0 (one 16-row band, walking K).
//   repeatMode 1: kernel position q0 fixed; p0 = i * 16 * jumpStride (walking M).
// Worked example (001's call: C1 2, H = W = 4, K 2x2, dilation 2, pads 1,
// stride 1, leftTop -1,-1, repeatMode 0, repeat 8): Ho = Wo = 4, 16 rows, 8
// fractals = C1*Kh*Kw; fractal 0 row 0 is window (0,0) at kernel (0,0), which
// reads (ih, iw) = (-1, -1): padding.
//
// Ranges (the Ascend C LoadData3DParamsV1 reference): H, W 1..32767;
// pads 0..255; c1Index 0..4095; fetchFilter 0..254; leftTop -255..32767 (and
// not above the top/left pad); stride 1..63; kernel 1..255; dilation 1..255;
// jumpStride 1..127; repeatMode 0..1; repeatTime 1..255; cSize 0 (the
// 4-channel mode is not modelled). Types: fp16, int8, uint8.
#pragma once

#include <cstdint>

#include "core/dtype.hpp"
#include "core/exec/load2d.hpp"

namespace ll::exec {

struct Load3dParams {
    DType dtype = DType::fp16;
    int64_t c1 = 1;  // channel slices present in A1
    int64_t h = 1, w = 1;
    int64_t pad_left = 0, pad_right = 0, pad_top = 0, pad_bottom = 0;  // padList order
    int64_t c1_index = 0, fetch_filter_w = 0, fetch_filter_h = 0;
    int64_t left_top_w = 0, left_top_h = 0;
    int64_t stride_w = 1, stride_h = 1;
    int64_t kw = 1, kh = 1;
    int64_t dil_w = 1, dil_h = 1;
    int64_t jump_stride = 1;
    int64_t repeat_mode = 0;
    int64_t repeat = 1;
    int64_t c_size = 0;
    double pad_value = 0.0;

    void validate() const;  // throws UsageError
    int64_t c0() const { return elems_per_32b(dtype); }
    int64_t out_h() const;
    int64_t out_w() const;
    int64_t kernel_positions() const { return c1 * kh * kw; }  // fractal columns of K
};

// The call example of document 001 as parameters (fp16).
Load3dParams load3d_doc_example();

// dst_of: A2 element -> A1 element ([C1][H][W][C0] index) or -1 (pad value);
// fractals[i].src_fractal holds the kernel position q of iteration i.
LoadResult load3d(const Load3dParams& p);

}  // namespace ll::exec
