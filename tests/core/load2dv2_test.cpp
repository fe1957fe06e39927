// LoadData 2D v2: fractal placement, the per-bit-width transpose blocks
// (checked as a true matrix transpose), and bad parameters.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "core/exec/load2d.hpp"

using namespace ll;
using namespace ll::exec;

namespace {

// The source as an M x K element matrix stored in NZ with K-adjacent fractals
// srcStride apart: element (m, k) -> buffer element index.
int64_t nz_index(int64_t m, int64_t k, int64_t stride, FractalGeom g) {
    return ((k / g.cols) * stride + m / 16) * g.elems() + (m % 16) * g.cols + k % g.cols;
}

}  // namespace

TEST(Load2dV2, PlainCopyPlacesFractals) {
    Load2dV2Params p;
    p.src_fractals = 12;
    p.m_start = 1;
    p.k_start = 1;
    p.m_step = 2;
    p.k_step = 2;
    p.src_stride = 4;  // 4 fractals along M in the source
    p.dst_stride = 2;
    LoadResult r = load2d_v2(p);
    ASSERT_EQ(r.dst_fractals(), 4);
    // dst fractal (i, j) = j*2 + i takes source fractal (1+j)*4 + 1+i.
    for (int64_t j = 0; j < 2; ++j)
        for (int64_t i = 0; i < 2; ++i)
            for (int64_t e = 0; e < 256; ++e)
                EXPECT_EQ(r.dst_of[size_t((j * 2 + i) * 256 + e)], ((1 + j) * 4 + 1 + i) * 256 + e);
}

TEST(Load2dV2, TransposeIsAMatrixTransposeForEveryWidth) {
    // b4 on Atlas 350 is fp4x2 (int4 is not in its Load2Dv2 list).
    for (DType t : {DType::fp4x2_e2m1, DType::int8, DType::fp16, DType::fp32}) {
        FractalGeom g = fractal_geom(t);
        TransposeBlock b = transpose_block(t);
        Load2dV2Params p;
        p.dtype = t;
        p.src = Buffer::A1;
        p.dst = Buffer::A2;
        p.transpose = true;
        p.m_step = 2 * b.m_fractals;
        p.k_step = 2 * b.k_fractals;
        p.src_stride = p.m_step;
        p.dst_stride = p.m_step;
        p.src_fractals = p.m_step * p.k_step;
        LoadResult r = load2d_v2(p);
        // Within each s x s block, destination element (a, c) (block-local
        // M/K coordinates, same NZ addressing) holds source element (c, a).
        const int64_t M = p.m_step * 16, K = p.k_step * g.cols;
        for (int64_t m = 0; m < M; ++m)
            for (int64_t k = 0; k < K; ++k) {
                int64_t bm = m / b.side * b.side, bk = k / b.side * b.side;
                int64_t sm = bm + (k - bk), sk = bk + (m - bm);
                ASSERT_EQ(r.dst_of[size_t(nz_index(m, k, p.dst_stride, g))],
                          nz_index(sm, sk, p.src_stride, g))
                    << name(t) << " m " << m << " k " << k;
            }
    }
}

TEST(Load2dV2, TransposeStepConstraints) {
    Load2dV2Params p;
    p.transpose = true;
    p.src_fractals = 64;
    p.dtype = DType::int8;
    p.m_step = 3;
    EXPECT_THROW(load2d_v2(p), UsageError);  // b8: mStep multiple of 2
    p.dtype = DType::fp4x2_e1m2;
    p.m_step = 2;
    EXPECT_THROW(load2d_v2(p), UsageError);  // b4: multiple of 4
    p.m_step = 4;
    EXPECT_NO_THROW(load2d_v2(p));
    p.dtype = DType::fp32;
    p.m_step = 1;
    p.k_step = 3;
    p.src_stride = 1;
    EXPECT_THROW(load2d_v2(p), UsageError);  // b32: kStep even
    p.k_step = 2;
    EXPECT_NO_THROW(load2d_v2(p));
    p.dtype = DType::fp16;
    p.m_step = 3;
    p.k_step = 1;
    EXPECT_NO_THROW(load2d_v2(p));  // b16: no extra rule
}

TEST(Load2dV2, BadParameters) {
    Load2dV2Params ok;
    ok.src_fractals = 8;
    auto p = ok;
    p.m_step = 256;
    EXPECT_THROW(load2d_v2(p), UsageError);
    p = ok;
    p.k_step = -1;
    EXPECT_THROW(load2d_v2(p), UsageError);
    p = ok;
    p.m_start = 8;
    EXPECT_THROW(load2d_v2(p), UsageError);  // outside the source
    p = ok;
    p.src = Buffer::GM;
    p.transpose = true;
    EXPECT_THROW(load2d_v2(p), UsageError);  // transpose only L1 -> L0
    p = ok;
    p.dtype = DType::int16;
    EXPECT_THROW(load2d_v2(p), UsageError);
    p = ok;
    p.m_step = 0;  // nothing to move is legal
    EXPECT_NO_THROW(load2d_v2(p));
}
