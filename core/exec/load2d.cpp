#include "core/exec/load2d.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "core/exec/check.hpp"

namespace ll::exec {

FractalGeom fractal_geom(DType t) {
    return FractalGeom{16, 256 / value_bits(t)};
}

TransposeBlock transpose_block(DType t) {
    FractalGeom g = fractal_geom(t);
    int64_t side = std::max(g.rows, g.cols);
    return TransposeBlock{side, side / g.rows, side / g.cols};
}

namespace {

constexpr int64_t kU16 = 65535;

bool is_l1_to_l0(Buffer src, Buffer dst) {
    return (src == Buffer::A1 && dst == Buffer::A2) || (src == Buffer::B1 && dst == Buffer::B2);
}

// dst_of is materialised, so its length is capped (the hardware ranges alone
// allow a destination of 255 * 65536 fractals).
constexpr int64_t kMaxDstElems = int64_t(1) << 24;

void size_result(LoadResult& r, int64_t last_dst_fractal) {
    const int64_t n = (last_dst_fractal + 1) * r.geom.elems();
    if (n > kMaxDstElems)
        throw UsageError("the destination would span " + std::to_string(n) +
                         " elements (last fractal " + std::to_string(last_dst_fractal) +
                         "); expected at most " + std::to_string(kMaxDstElems) +
                         " - use a smaller dstGap/dstStride or fewer repeats");
    r.dst_of.assign(size_t(n), -1);
}

void check_src_fractal(int64_t f, int64_t src_fractals, const std::string& what) {
    if (f < 0 || f >= src_fractals)
        throw UsageError(what + " reads source fractal " + std::to_string(f) +
                         ", outside the source; expected 0.." + std::to_string(src_fractals - 1) +
                         " (the source holds " + std::to_string(src_fractals) + " fractals)");
}

// Copies one fractal straight (no transpose).
void copy_fractal(LoadResult& r, int64_t src_f, int64_t dst_f) {
    const int64_t e = r.geom.elems();
    for (int64_t k = 0; k < e; ++k) r.dst_of[size_t(dst_f * e + k)] = src_f * e + k;
}

}  // namespace

void label_destination(LoadResult& r, Buffer dst, DType t) {
    const int64_t w = 256 / value_bits(t);  // 32 B of values
    switch (dst) {
        case Buffer::B2:  // ZN: K0 = 32 B / sizeof rows of N0 = 16
            r.dst_format = "ZN";
            r.dst_rows = w;
            r.dst_cols = 16;
            break;
        case Buffer::A2:
            r.dst_format = "ZZ";
            r.dst_rows = 16;
            r.dst_cols = w;
            break;
        default:  // A1/B1: no requirement, usually NZ
            r.dst_format = "NZ";
            r.dst_rows = 16;
            r.dst_cols = w;
            break;
    }
}

void Load2dParams::validate() const {
    check_path(src, dst, Op::load2d);
    check_load2d(product, false, src, dst, dtype, dst_gap);
    check_range("startIndex", start_index, 0, kU16);
    check_range("repeatTimes", repeat, 1, kLoad2dMaxRepeat);
    check_range("srcStride", src_stride, 0, kU16);
    check_range("dstGap", dst_gap, 0, kU16);
    check_range("sid (reserved)", sid, 0, 0);
    check_range("source size", src_fractals, 1, int64_t(1) << 24);
    if (transpose) {
        if (!is_l1_to_l0(src, dst))
            throw param_error("ifTranspose", std::string("on path ") + name(src) + "->" +
                                                 name(dst) +
                                                 "; expected transpose only on A1->A2 or B1->B2");
        if (value_bits(dtype) != 16)
            throw param_error("ifTranspose",
                              std::string("with ") + name(dtype) + " (" +
                                  std::to_string(value_bits(dtype)) +
                                  "-bit); expected a 16-bit dtype (fp16, bf16, int16, uint16)");
    }
    for (int64_t i = 0; i < repeat; ++i) {
        int64_t f = src_fractal(i);
        if (f < 0)
            throw param_error("addrMode",
                              "decrement goes below fractal 0 at iteration " + std::to_string(i) +
                                  "; expected startIndex >= (repeatTimes-1)*srcStride = " +
                                  std::to_string((repeat - 1) * src_stride));
        check_src_fractal(f, src_fractals, "iteration " + std::to_string(i));
    }
}

LoadResult load2d(const Load2dParams& p) {
    p.validate();
    LoadResult r;
    r.geom = fractal_geom(p.dtype);
    label_destination(r, p.dst, p.dtype);
    size_result(r, p.dst_fractal(p.repeat - 1));
    const int64_t e = r.geom.elems(), side = r.geom.cols;
    for (int64_t i = 0; i < p.repeat; ++i) {
        int64_t s = p.src_fractal(i), d = p.dst_fractal(i);
        r.fractals.push_back({i, s, d, p.transpose});
        if (!p.transpose) {
            copy_fractal(r, s, d);
            continue;
        }
        // 16-bit only: the fractal is 16 x 16; element (row, col) of the
        // destination comes from (col, row) of the source.
        for (int64_t row = 0; row < side; ++row)
            for (int64_t col = 0; col < side; ++col)
                r.dst_of[size_t(d * e + row * side + col)] = s * e + col * side + row;
    }
    return r;
}

void Load2dV2Params::validate() const {
    check_path(src, dst, Op::load2d);
    check_load2d(product, true, src, dst, dtype, 0);
    check_range("mStartPosition", m_start, 0, kU16);
    check_range("kStartPosition", k_start, 0, kU16);
    check_range("mStep", m_step, 0, 255);
    check_range("kStep", k_step, 0, 255);
    check_range("srcStride", src_stride, 0, kU16);
    check_range("dstStride", dst_stride, 0, kU16);
    check_range("sid (reserved)", sid, 0, 0);
    check_range("source size", src_fractals, 1, int64_t(1) << 24);
    if (transpose) {
        if (!is_l1_to_l0(src, dst))
            throw param_error("ifTranspose", std::string("on path ") + name(src) + "->" +
                                                 name(dst) +
                                                 "; expected transpose only on A1->A2 or B1->B2");
        TransposeBlock b = transpose_block(dtype);
        if (m_step % b.m_fractals != 0)
            throw param_error("mStep", "= " + std::to_string(m_step) + " with transpose of " +
                                           std::to_string(value_bits(dtype)) +
                                           "-bit data; expected a multiple of " +
                                           std::to_string(b.m_fractals));
        if (k_step % b.k_fractals != 0)
            throw param_error("kStep", "= " + std::to_string(k_step) + " with transpose of " +
                                           std::to_string(value_bits(dtype)) +
                                           "-bit data; expected a multiple of " +
                                           std::to_string(b.k_fractals));
    }
    for (int64_t j = 0; j < k_step; ++j)
        for (int64_t i = 0; i < m_step; ++i)
            check_src_fractal(src_fractal(i, j), src_fractals,
                              "fractal (m " + std::to_string(i) + ", k " + std::to_string(j) + ")");
}

LoadResult load2d_v2(const Load2dV2Params& p) {
    p.validate();
    LoadResult r;
    r.geom = fractal_geom(p.dtype);
    label_destination(r, p.dst, p.dtype);
    int64_t last = -1;
    for (int64_t j = 0; j < p.k_step; ++j)
        for (int64_t i = 0; i < p.m_step; ++i) last = std::max(last, p.dst_fractal(i, j));
    size_result(r, last);
    const int64_t e = r.geom.elems(), fr = r.geom.rows, fc = r.geom.cols;
    int64_t iter = 0;
    for (int64_t j = 0; j < p.k_step; ++j)
        for (int64_t i = 0; i < p.m_step; ++i, ++iter) {
            r.fractals.push_back({iter, p.src_fractal(i, j), p.dst_fractal(i, j), p.transpose});
            if (!p.transpose) copy_fractal(r, p.src_fractal(i, j), p.dst_fractal(i, j));
        }
    if (!p.transpose || r.fractals.empty()) return r;
    // Transposed: walk the s x s blocks. Block element (a, b) lives in
    // fractal (i0 + a/16, j0 + b/cols) at local (a%16)*cols + b%cols, the
    // same rule on both sides; destination (a, b) takes source (b, a).
    TransposeBlock b = transpose_block(p.dtype);
    for (int64_t j0 = 0; j0 < p.k_step; j0 += b.k_fractals)
        for (int64_t i0 = 0; i0 < p.m_step; i0 += b.m_fractals)
            for (int64_t a = 0; a < b.side; ++a)
                for (int64_t c = 0; c < b.side; ++c) {
                    int64_t df = p.dst_fractal(i0 + a / fr, j0 + c / fc);
                    int64_t sf = p.src_fractal(i0 + c / fr, j0 + a / fc);
                    r.dst_of[size_t(df * e + (a % fr) * fc + c % fc)] =
                        sf * e + (c % fr) * fc + a % fc;
                }
    return r;
}

}  // namespace ll::exec
