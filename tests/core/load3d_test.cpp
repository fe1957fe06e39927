// LoadData 3D (img2col load): document 001's call example, agreement with
// the img2col engine on every element, both repeat modes, bad parameters.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "core/exec/img2col.hpp"
#include "core/exec/load3d.hpp"

using namespace ll;
using namespace ll::exec;

namespace {

// The same element through img2col on a single-channel-per-slice view:
// A2 fractal (q, row, c0) must be img2col matrix (row, q) of channel
// c1*C0 + c0, mapped back from NCHW to [C1][H][W][C0].
void expect_matches_img2col(const Load3dParams& p, const LoadResult& r) {
    Img2colSpec s;
    s.n = 1;
    s.c = p.c1 * p.c0();
    s.h = p.h;
    s.w = p.w;
    s.win.kh = p.kh;
    s.win.kw = p.kw;
    s.win.stride_h = p.stride_h;
    s.win.stride_w = p.stride_w;
    s.win.dil_h = p.dil_h;
    s.win.dil_w = p.dil_w;
    s.win.pad_top = p.pad_top;
    s.win.pad_bottom = p.pad_bottom;
    s.win.pad_left = p.pad_left;
    s.win.pad_right = p.pad_right;
    ASSERT_EQ(p.left_top_h, -p.pad_top);  // the comparison assumes the usual origin
    ASSERT_EQ(p.left_top_w, -p.pad_left);
    const int64_t c0 = p.c0(), kk = p.kh * p.kw;
    for (int64_t i = 0; i < p.repeat; ++i) {
        int64_t q = r.fractals[size_t(i)].src_fractal;
        int64_t c1 = q / kk, k = q % kk;
        int64_t p0 = p.repeat_mode == 0 ? 0 : i * 16 * p.jump_stride;
        for (int64_t row = 0; row < 16; ++row)
            for (int64_t c = 0; c < c0; ++c) {
                int64_t got = r.dst_of[size_t((i * 16 + row) * c0 + c)];
                int64_t pos = p0 + row;
                if (pos >= s.rows()) {
                    EXPECT_EQ(got, -1);
                    continue;
                }
                int64_t src = img2col_source(s, pos, (c1 * c0 + c) * kk + k);  // NCHW index
                int64_t want = -1;
                if (src >= 0) {
                    int64_t ch = src / (p.h * p.w), hw = src % (p.h * p.w);
                    want = ((ch / c0) * p.h * p.w + hw) * c0 + ch % c0;
                }
                ASSERT_EQ(got, want) << "fractal " << i << " row " << row << " c0 " << c;
            }
    }
}

}  // namespace

TEST(Load3d, DocumentCallExample) {
    Load3dParams p = load3d_doc_example();
    EXPECT_EQ(p.out_h(), 4);
    EXPECT_EQ(p.out_w(), 4);
    EXPECT_EQ(p.repeat, 8);  // fmRepeat = howoRound*C1*Kh*Kw*C0 / (16*C0)
    LoadResult r = load3d(p);
    EXPECT_EQ(r.dst_fractals(), 8);
    EXPECT_EQ(r.dst_of[0], -1);  // window (0,0), kernel (0,0) reads (-1,-1)
    expect_matches_img2col(p, r);
}

TEST(Load3d, RepeatModeOneWalksWindowPositions) {
    Load3dParams p;
    p.c1 = 1;
    p.h = p.w = 9;
    p.kh = p.kw = 3;
    p.pad_top = p.pad_left = 1;
    p.left_top_h = p.left_top_w = -1;
    p.stride_h = p.stride_w = 2;
    p.fetch_filter_h = 1;
    p.fetch_filter_w = 2;
    p.repeat_mode = 1;
    p.repeat = 2;
    for (DType t : {DType::fp16, DType::int8}) {
        p.dtype = t;
        expect_matches_img2col(p, load3d(p));
    }
}

TEST(Load3d, BadParameters) {
    Load3dParams ok = load3d_doc_example();
    auto p = ok;
    p.repeat = 9;  // past C1*Kh*Kw in repeatMode 0
    EXPECT_THROW(load3d(p), UsageError);
    p = ok;
    p.repeat = 0;
    EXPECT_THROW(load3d(p), UsageError);
    p = ok;
    p.stride_w = 0;
    EXPECT_THROW(load3d(p), UsageError);
    p = ok;
    p.kh = 7;  // 2*(7-1)+1 = 13 > 4 + 2
    EXPECT_THROW(load3d(p), UsageError);
    p = ok;
    p.dtype = DType::fp32;
    EXPECT_THROW(load3d(p), UsageError);
    p = ok;
    p.left_top_h = -2;  // above the one-row top pad
    EXPECT_THROW(load3d(p), UsageError);
    p = ok;
    p.c1_index = 2;
    EXPECT_THROW(load3d(p), UsageError);
}

// Window positions outside the feature map are filled with padValue and
// reported as padding, not as untouched; every other row is written.
TEST(Load3d, PadValuePositionsAreReportedAsPadding) {
    Load3dParams p = load3d_doc_example();
    LoadResult r = load3d(p);
    ASSERT_EQ(r.padded.size(), r.dst_of.size());
    int64_t pad = 0, written = 0;
    const int64_t c0 = p.c0(), e = 16 * c0, ho = p.out_h(), wo = p.out_w();
    for (int64_t i = 0; i < p.repeat; ++i) {
        const int64_t q = i, kw = q % p.kw, kh = (q / p.kw) % p.kh;
        for (int64_t row = 0; row < 16; ++row) {
            const size_t at = size_t(i * e + row * c0);
            if (row >= ho * wo) {
                EXPECT_EQ(r.padded[at], 0);
                EXPECT_EQ(r.dst_of[at], -1);
                continue;
            }
            const int64_t ih = p.left_top_h + row / wo * p.stride_h + kh * p.dil_h;
            const int64_t iw = p.left_top_w + row % wo * p.stride_w + kw * p.dil_w;
            const bool outside = ih < 0 || ih >= p.h || iw < 0 || iw >= p.w;
            EXPECT_EQ(r.padded[at], outside ? 1 : 0) << i << " " << row;
            EXPECT_EQ(r.dst_of[at] < 0, outside) << i << " " << row;
            (outside ? pad : written) += c0;
        }
    }
    EXPECT_GT(pad, 0);
    EXPECT_GT(written, 0);
}
