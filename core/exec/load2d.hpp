// LoadData 2D (v1 and v2): fractal copies between the AI Core's buffers.
//
// A fractal is 512 bytes: 16 rows of 32 bytes, i.e. 16 x (32B / sizeof(T))
// elements (int4: 16 x 64, int8: 16 x 32, 16-bit: 16 x 16, 32-bit: 16 x 8).
// Element indices below count elements (not bytes) from the start of a buffer;
// fractal f holds elements [f*E, (f+1)*E) with E = 4096 / bits.
//
// Load2D v1 (document 001, table 3). Iteration i = 0 .. repeatTimes-1 copies
//   source fractal  s_i = startIndex + i*srcStride   (addrMode decrement: - i*srcStride)
//   to dest fractal d_i = i * (1 + dstGap)           (dstGap: gap between the END
//                                                     of one fractal and the next)
// element by element, or transposed inside the 16x16 fractal when ifTranspose
// (only A1->A2 / B1->B2, only 16-bit types). Worked example (fp16, E = 256):
//   startIndex 1, repeat 2, srcStride 2, dstGap 1 on a 5-fractal source:
//   fractal 1 -> 0, fractal 3 -> 2; dst_of[0] = 256, dst_of[256] = -1 (the gap),
//   dst_of[512] = 768; dst_of has 3*256 entries (up to the last fractal written).
//
// Load2D v2 (table 4) sees the source as an M x K matrix of fractals stored
// with M-adjacent fractals contiguous and K-adjacent ones srcStride fractals
// apart (NZ); it copies mStep x kStep fractals starting at fractal (mStart,
// kStart) to the destination, whose K-adjacent fractals are dstStride apart:
//   src fractal (i, j) = (kStart + j) * srcStride + mStart + i
//   dst fractal (i, j) = j * dstStride + i
// With ifTranspose, square blocks of s x s elements (s = max(16, fractal
// columns)) are transposed: b16 one fractal, b8 two and b4 four fractals along
// M (so mStep must be a multiple of 2 / 4), b32 two fractals along K (kStep
// even). Every instruction validates itself: UsageError "<parameter> = v is
// out of range; expected <range>".
#pragma once

#include <cstdint>
#include <vector>

#include "core/dtype.hpp"
#include "core/exec/buffer.hpp"
#include "core/exec/product.hpp"

namespace ll::exec {

// Fractal geometry of one dtype (the A-side view: 16 rows of 32 bytes).
// Counted in values: the fp4x2 pairs are b4 here (16 x 64), as Load2Dv2's
// transpose rules treat them.
struct FractalGeom {
    int64_t rows = 16;  // always 16
    int64_t cols = 16;  // 32 B / sizeof(T)
    int64_t elems() const { return rows * cols; }
};
FractalGeom fractal_geom(DType t);

struct FractalMove {
    int64_t iteration = 0;
    int64_t src_fractal = 0;
    int64_t dst_fractal = 0;
    bool transposed = false;
};

// What a load did: every fractal copy and, for each destination element up
// to the end of the last fractal written, the source element (or -1).
struct LoadResult {
    FractalGeom geom;
    std::vector<FractalMove> fractals;
    std::vector<int64_t> dst_of;
    // Load3D: 1 where the destination element was filled with padValue (a
    // window position outside the feature map); empty for Load2D.
    std::vector<uint8_t> padded;
    // The destination fractal as document 001 writes it for the buffer:
    // A2 "ZZ" 16 x (32 B / sizeof), B2 "ZN" (32 B / sizeof) x 16, A1/B1 "NZ"
    // 16 x (32 B / sizeof); empty when not set (Load3D: A2, ZZ).
    std::string dst_format;
    int64_t dst_rows = 0, dst_cols = 0;
    int64_t dst_fractals() const {
        return geom.elems() ? int64_t(dst_of.size()) / geom.elems() : 0;
    }
};

// repeatTimes is 8 bits: one LoadData 2D copies at most 255 fractals.
constexpr int64_t kLoad2dMaxRepeat = 255;

struct Load2dParams {
    DType dtype = DType::fp16;
    Buffer src = Buffer::A1, dst = Buffer::A2;
    int64_t src_fractals = 1;        // size of the source buffer, in fractals
    int64_t start_index = 0;         // [0, 65535], unit 512 B
    int64_t repeat = 1;              // [1, 255]
    int64_t src_stride = 0;          // [0, 65535], unit 512 B, start-to-start
    int64_t dst_gap = 0;             // [0, 65535], unit 512 B, end-to-start
    int64_t sid = 0;                 // reserved: 0
    bool transpose = false;          // ifTranspose
    bool decrement = false;          // addrMode: true = decrement
    Product product = Product::any;  // whose Table 1 applies (product.hpp)

    void validate() const;  // throws UsageError
    int64_t src_fractal(int64_t i) const {
        return decrement ? start_index - i * src_stride : start_index + i * src_stride;
    }
    int64_t dst_fractal(int64_t i) const { return i * (1 + dst_gap); }
};

LoadResult load2d(const Load2dParams& p);  // validates first

// Sets r.dst_format / dst_rows / dst_cols for a destination buffer.
void label_destination(LoadResult& r, Buffer dst, DType t);

struct Load2dV2Params {
    DType dtype = DType::fp16;
    Buffer src = Buffer::A1, dst = Buffer::A2;
    int64_t src_fractals = 1;
    int64_t m_start = 0;     // mStartPosition, unit 16 elements (one fractal along M)
    int64_t k_start = 0;     // kStartPosition, unit 32 B (one fractal along K)
    int64_t m_step = 1;      // [0, 255], fractals along M
    int64_t k_step = 1;      // [0, 255], fractals along K
    int64_t src_stride = 1;  // fractals between K-adjacent source fractals
    int64_t dst_stride = 1;  // fractals between K-adjacent destination fractals
    int64_t sid = 0;
    bool transpose = false;
    Product product = Product::any;

    void validate() const;
    int64_t src_fractal(int64_t i, int64_t j) const {
        return (k_start + j) * src_stride + m_start + i;
    }
    int64_t dst_fractal(int64_t i, int64_t j) const { return j * dst_stride + i; }
};

LoadResult load2d_v2(const Load2dV2Params& p);

// The transpose block of a dtype: side s and how many fractals it spans
// along M and K (b16: 16, 1, 1; b8: 32, 2, 1; b4: 64, 4, 1; b32: 16, 1, 2).
struct TransposeBlock {
    int64_t side, m_fractals, k_fractals;
};
TransposeBlock transpose_block(DType t);

}  // namespace ll::exec
