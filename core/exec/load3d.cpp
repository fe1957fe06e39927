#include "core/exec/load3d.hpp"

#include "core/error.hpp"
#include "core/exec/check.hpp"
#include "core/exec/img2col.hpp"

namespace ll::exec {

int64_t Load3dParams::out_h() const {
    return window_out(h, pad_top, pad_bottom, kh, stride_h, dil_h);
}
int64_t Load3dParams::out_w() const {
    return window_out(w, pad_left, pad_right, kw, stride_w, dil_w);
}

void Load3dParams::validate() const {
    if (dtype != DType::fp16 && dtype != DType::int8 && dtype != DType::uint8)
        throw UsageError(std::string("dtype ") + name(dtype) +
                         " is not a Load3Dv1 type; expected fp16, int8 or uint8");
    check_range("C1 (slices in A1)", c1, 1, 4096);
    check_range("H", h, 1, 32767);
    check_range("W", w, 1, 32767);
    check_range("padList left", pad_left, 0, 255);
    check_range("padList right", pad_right, 0, 255);
    check_range("padList top", pad_top, 0, 255);
    check_range("padList bottom", pad_bottom, 0, 255);
    check_range("c1Index", c1_index, 0, c1 - 1);
    check_range("strideW", stride_w, 1, 63);
    check_range("strideH", stride_h, 1, 63);
    check_range("filterW", kw, 1, 255);
    check_range("filterH", kh, 1, 255);
    check_range("fetchFilterW", fetch_filter_w, 0, kw - 1);
    check_range("fetchFilterH", fetch_filter_h, 0, kh - 1);
    check_range("dilationFilterW", dil_w, 1, 255);
    check_range("dilationFilterH", dil_h, 1, 255);
    check_range("leftTopW", left_top_w, -pad_left, 32767);
    check_range("leftTopH", left_top_h, -pad_top, 32767);
    check_range("jumpStride", jump_stride, 1, 127);
    check_range("repeatMode", repeat_mode, 0, 1);
    check_range("repeatTime", repeat, 1, 255);
    check_range("cSize", c_size, 0, 0);
    Window2d win;
    win.kh = kh;
    win.kw = kw;
    win.stride_h = stride_h;
    win.stride_w = stride_w;
    win.dil_h = dil_h;
    win.dil_w = dil_w;
    win.pad_top = pad_top;
    win.pad_bottom = pad_bottom;
    win.pad_left = pad_left;
    win.pad_right = pad_right;
    exec::validate(win, h, w);
    if (repeat_mode == 0) {
        int64_t q0 = (c1_index * kh + fetch_filter_h) * kw + fetch_filter_w;
        if (q0 + repeat > kernel_positions()) {
            const std::string detail = std::to_string(repeat) +
                                       " walks past the last kernel position in repeatMode 0; "
                                       "expected 1.." +
                                       std::to_string(kernel_positions() - q0) +
                                       " (C1*Kh*Kw minus the start position)";
            throw UsageError("repeatTime", detail, "repeatTime = " + detail);
        }
    }
}

Load3dParams load3d_doc_example() {
    Load3dParams p;
    p.dtype = DType::fp16;
    p.c1 = 2;
    p.h = p.w = 4;
    p.kh = p.kw = 2;
    p.dil_h = p.dil_w = 2;
    p.pad_left = p.pad_right = p.pad_top = p.pad_bottom = 1;
    p.stride_h = p.stride_w = 1;
    p.left_top_w = p.left_top_h = -1;
    p.jump_stride = 1;
    p.repeat_mode = 0;
    // featureMapA2Size / (16*C0) = howoRound * C1*Kh*Kw*C0 / (16*C0)
    int64_t howo_round = round_up(p.out_h() * p.out_w(), 16);
    p.repeat = howo_round * p.c1 * p.kh * p.kw / 16;
    return p;
}

LoadResult load3d(const Load3dParams& p) {
    p.validate();
    LoadResult r;
    const int64_t c0 = p.c0();
    r.geom = FractalGeom{16, c0};
    const int64_t e = r.geom.elems();
    r.dst_of.assign(size_t(p.repeat * e), -1);
    r.padded.assign(r.dst_of.size(), 0);
    label_destination(r, Buffer::A2, p.dtype);
    const int64_t ho = p.out_h(), wo = p.out_w();
    const int64_t q0 = (p.c1_index * p.kh + p.fetch_filter_h) * p.kw + p.fetch_filter_w;
    for (int64_t i = 0; i < p.repeat; ++i) {
        int64_t q = p.repeat_mode == 0 ? q0 + i : q0;
        int64_t p0 = p.repeat_mode == 0 ? 0 : i * 16 * p.jump_stride;
        int64_t kw = q % p.kw, kh = (q / p.kw) % p.kh, c1 = q / (p.kw * p.kh);
        r.fractals.push_back({i, q, i, false});  // src_fractal: the kernel position q
        for (int64_t row = 0; row < 16; ++row) {
            int64_t pos = p0 + row;
            if (pos >= ho * wo) continue;
            int64_t oh = pos / wo, ow = pos % wo;
            int64_t ih = p.left_top_h + oh * p.stride_h + kh * p.dil_h;
            int64_t iw = p.left_top_w + ow * p.stride_w + kw * p.dil_w;
            if (ih < 0 || ih >= p.h || iw < 0 || iw >= p.w) {  // padValue fills the row
                for (int64_t c = 0; c < c0; ++c) r.padded[size_t(i * e + row * c0 + c)] = 1;
                continue;
            }
            for (int64_t c = 0; c < c0; ++c)
                r.dst_of[size_t(i * e + row * c0 + c)] = ((c1 * p.h + ih) * p.w + iw) * c0 + c;
        }
    }
    return r;
}

}  // namespace ll::exec
