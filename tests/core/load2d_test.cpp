// LoadData 2D v1: every destination element against a byte-address
// reference, transpose rules, and every bad-parameter class.
#include <gtest/gtest.h>

#include <random>

#include "core/error.hpp"
#include "core/exec/load2d.hpp"

using namespace ll;
using namespace ll::exec;

namespace {

// Reference written from the document's units: addresses in bytes, 512 B per
// fractal, dstGap measured from the END of the previous fractal.
std::vector<int64_t> reference(const Load2dParams& p) {
    const int64_t bits_per = bits(p.dtype), e = 512 * 8 / bits_per;
    int64_t src_addr = p.start_index * 512, dst_addr = 0, end = 0;
    std::vector<std::pair<int64_t, int64_t>> moves;  // dst elem, src elem
    for (int64_t i = 0; i < p.repeat; ++i) {
        for (int64_t k = 0; k < e; ++k) {
            int64_t dk = k;
            if (p.transpose) dk = (k % 16) * 16 + k / 16;  // 16x16 element transpose
            moves.push_back({dst_addr * 8 / bits_per + dk, src_addr * 8 / bits_per + k});
        }
        end = dst_addr + 512;
        dst_addr = end + p.dst_gap * 512;
        src_addr += (p.decrement ? -1 : 1) * p.src_stride * 512;
    }
    std::vector<int64_t> out(size_t(end * 8 / bits_per), -1);
    for (auto [d, s] : moves) out[size_t(d)] = s;
    return out;
}

}  // namespace

TEST(Load2d, WorkedExample) {
    Load2dParams p;
    p.src_fractals = 5;
    p.start_index = 1;
    p.repeat = 2;
    p.src_stride = 2;
    p.dst_gap = 1;
    LoadResult r = load2d(p);
    ASSERT_EQ(r.dst_of.size(), 3u * 256);
    EXPECT_EQ(r.dst_of[0], 256);
    EXPECT_EQ(r.dst_of[256], -1);
    EXPECT_EQ(r.dst_of[512], 768);
    ASSERT_EQ(r.fractals.size(), 2u);
    EXPECT_EQ(r.fractals[1].src_fractal, 3);
    EXPECT_EQ(r.fractals[1].dst_fractal, 2);
}

TEST(Load2d, MatchesByteReferenceForEveryDtypeAndParameterMix) {
    std::mt19937 rng(3);
    auto pick = [&](int lo, int hi) {
        return int64_t(std::uniform_int_distribution<int>(lo, hi)(rng));
    };
    for (DType t : load2d_dtypes(Product::any, false, Buffer::A1, Buffer::A2))
        for (int trial = 0; trial < 40; ++trial) {
            Load2dParams p;
            p.dtype = t;
            p.src = Buffer::A1;
            p.dst = Buffer::A2;
            p.repeat = pick(1, 6);
            p.src_stride = pick(0, 3);
            p.dst_gap = pick(0, 2);
            p.decrement = bits(t) != 4 && pick(0, 1);
            p.transpose = bits(t) == 16 && pick(0, 1);
            p.start_index = p.decrement ? (p.repeat - 1) * p.src_stride + pick(0, 2) : pick(0, 3);
            p.src_fractals =
                p.start_index + (p.decrement ? 1 : (p.repeat - 1) * p.src_stride + 1) + pick(0, 2);
            LoadResult r = load2d(p);
            EXPECT_EQ(r.dst_of, reference(p)) << name(t) << " trial " << trial;
            EXPECT_EQ(r.geom.elems() * bits(t), 4096);
        }
}

TEST(Load2d, TransposeSwapsRowsAndColumnsOfEachFractal) {
    Load2dParams p;
    p.src = Buffer::B1;
    p.dst = Buffer::B2;
    p.transpose = true;
    p.src_fractals = 2;
    p.start_index = 1;
    LoadResult r = load2d(p);
    for (int64_t row = 0; row < 16; ++row)
        for (int64_t col = 0; col < 16; ++col)
            EXPECT_EQ(r.dst_of[size_t(row * 16 + col)], 256 + col * 16 + row);
}

TEST(Load2d, PathsAndFractalSizes) {
    EXPECT_EQ(fractal_geom(DType::int8).cols, 32);
    EXPECT_EQ(fractal_geom(DType::fp32).cols, 8);
    EXPECT_EQ(fractal_geom(DType::int4).cols, 64);
    for (auto [s, d] : std::vector<std::pair<Buffer, Buffer>>{
             {Buffer::GM, Buffer::A1}, {Buffer::GM, Buffer::B2}, {Buffer::B1, Buffer::B2}}) {
        Load2dParams p;
        p.src = s;
        p.dst = d;
        EXPECT_NO_THROW(load2d(p));
    }
}

namespace {
void expect_usage(const Load2dParams& p, const std::string& mentions) {
    try {
        load2d(p);
        ADD_FAILURE() << "no error; expected one mentioning " << mentions;
    } catch (const UsageError& e) {
        std::string m = e.what();
        EXPECT_NE(m.find(mentions), std::string::npos) << m;
        EXPECT_NE(m.find("expected"), std::string::npos) << m;
    }
}
}  // namespace

TEST(Load2d, EveryBadParameterClass) {
    Load2dParams ok;
    ok.src_fractals = 4;
    Load2dParams p = ok;
    p.repeat = 0;
    expect_usage(p, "repeatTimes");
    p.repeat = 256;
    expect_usage(p, "repeatTimes");
    p = ok;
    p.start_index = 4;  // past the 4-fractal source
    expect_usage(p, "outside the source");
    p = ok;
    p.start_index = 65536;
    expect_usage(p, "startIndex");
    p = ok;
    p.src_stride = 65536;
    expect_usage(p, "srcStride");
    p = ok;
    p.dst_gap = -1;
    expect_usage(p, "dstGap");
    p = ok;
    p.sid = 1;
    expect_usage(p, "sid");
    p = ok;
    p.dtype = DType::int8;
    p.transpose = true;
    expect_usage(p, "16-bit");
    p = ok;
    p.src = Buffer::GM;
    p.transpose = true;
    expect_usage(p, "A1->A2 or B1->B2");
    p = ok;
    p.decrement = true;
    p.start_index = 1;
    p.src_stride = 1;
    p.repeat = 3;
    expect_usage(p, "below fractal 0");
    p = ok;
    p.dst = Buffer::B2;  // A1 -> B2 is no path
    expect_usage(p, "path A1->B2");
    p = ok;
    p.dtype = DType::int4;
    p.src = Buffer::GM;
    expect_usage(p, "int4");
    p = ok;  // legal ranges, but a destination too long to list element by element
    p.repeat = 255;
    p.dst_gap = 65535;
    expect_usage(p, "destination would span");
}
