// The Executor's fast paths, each on odd shapes and every dtype: threads
// (the outermost level split), a padded innermost level moved as one run plus
// a pad fill, int4 nibble pairs moved as bytes (and the nibble walk where
// pairs split), and non-temporal stores on destinations past 8 MiB (tiled
// gathers, tiled scatters, row copies). Every destination element is checked
// against the ElementMap, and the inverse must give the source back.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/format/batch_tiles.hpp"
#include "core/format/format.hpp"
#include "core/format/gather.hpp"
#include "core/format/nibbles.hpp"
#include "core/format/staged_scatter.hpp"
#include "core/format/transpose_tile.hpp"

using namespace ll;

namespace {

ConvertSpec spec(Format from, Format to, Shape s, DType t, double pad) {
    ConvertSpec sp;
    sp.from = from;
    sp.to = to;
    sp.shape = std::move(s);
    sp.dtype = t;
    sp.pad_value = pad;
    return sp;
}

// Element i of a plain source holds f(i) (wrapped to the dtype's range).
double value_at(DType t, int64_t i) {
    switch (t) {
        case DType::int4:
            return static_cast<double>(i % 15 - 7);
        case DType::int8:
            return static_cast<double>(i % 251 - 125);
        case DType::uint8:
            return static_cast<double>(i % 199);
        case DType::int16:
            return static_cast<double>(i % 30011 - 15000);
        case DType::fp16:
        case DType::bf16:
            return static_cast<double>(i % 241);
        default:
            if (!is_float(t) || is_storage_only(t)) {  // uint16, int32, fp8 codes, ...
                const double lo = int_min(t), span = std::min(int_max(t) - lo + 1, 1000003.0);
                return lo + static_cast<double>(i % static_cast<int64_t>(span));
            }
            return static_cast<double>(i % 1000003);
    }
}

double pad_of(DType t) {
    // Unsigned and storage-only types hold no negative value.
    if (t == DType::int4) return -8;
    return (!is_float(t) || is_storage_only(t)) && int_min(t) >= 0 ? 201 : -3;
}

std::vector<uint8_t> plain_source(DType t, int64_t n) {
    std::vector<uint8_t> b(static_cast<size_t>(bytes_for(t, n)));
    for (int64_t i = 0; i < n; ++i) store_element(t, b.data(), i, value_at(t, i));
    return b;
}

// Forward with `threads`, every element against the map; back again with
// `threads`, the source returns.
void check(const ConvertSpec& sp, int threads) {
    const Pipeline p = make_pipeline(sp);
    const std::string what = std::string(name(sp.from)) + "->" + name(sp.to) + " " +
                             name(sp.dtype) + " " + to_string(sp.shape) + " threads " +
                             std::to_string(threads);
    const Executor fwd(p);
    const auto src = plain_source(sp.dtype, numel(p.src_shape));
    std::vector<uint8_t> dst(static_cast<size_t>(fwd.dst_bytes()), 0x5A);
    fwd.run(src.data(), dst.data(), threads);
    const ElementMap m = element_map(p);
    for (size_t i = 0; i < m.size(); ++i) {
        const double want = m[i] < 0 ? sp.pad_value : value_at(sp.dtype, m[i]);
        ASSERT_EQ(load_element(sp.dtype, dst.data(), static_cast<int64_t>(i)), want)
            << what << " dst " << i;
    }
    const Executor back(inverse(p));
    std::vector<uint8_t> again(src.size(), 0xA5);
    back.run(dst.data(), again.data(), threads);
    ASSERT_EQ(again, src) << what << " (inverse)";
}

// check() with 1 and 2 threads for each case, the pad value of its dtype;
// big: the side (source or destination bytes) that must be past 8 MiB for
// the streaming paths the case is there for.
enum class Big { none, src, dst };
void check_cases(const std::vector<ConvertSpec>& cases, Big big = Big::none) {
    for (ConvertSpec sp : cases) {
        sp.pad_value = pad_of(sp.dtype);
        if (big != Big::none) {
            const Executor ex(make_pipeline(sp));
            ASSERT_GE(big == Big::src ? ex.src_bytes() : ex.dst_bytes(), int64_t(8) << 20)
                << to_string(sp.shape);
        }
        check(sp, 1);
        if (::testing::Test::HasFatalFailure()) return;
        check(sp, 2);
        if (::testing::Test::HasFatalFailure()) return;
    }
}

// f(T{}) for T of 1, 2, 4 and 8 bytes: the element sizes the tile code
// specialises on.
template <class F>
void every_element_size(const F& f) {
    f(uint8_t{});
    f(uint16_t{});
    f(uint32_t{});
    f(uint64_t{});
}

// body() with a kernel switch (detail::nibble_avx2(), byte_tiles_avx2())
// on, where the CPU has AVX2, then off; the switch is restored after each
// pass, and a fatal failure ends the loop.
template <class Body>
void avx2_on_then_off(bool& kernel, const Body& body) {
    const bool saved = kernel;
    for (bool on : {true, false}) {
        if (on && !detail::kCpuAvx2) continue;
        SCOPED_TRACE(on ? "AVX2 kernel" : "SSE2 kernel");
        kernel = on;
        body();
        kernel = saved;
        if (::testing::Test::HasFatalFailure()) return;
    }
}

}  // namespace

TEST(ExecutorFastPaths, ThreadsGiveTheSameResultOnOddShapes) {
    const std::vector<ConvertSpec> cases = {
        spec(Format::ND, Format::FRACTAL_NZ, {3, 37, 45}, DType::fp16, 0),
        spec(Format::NCHW, Format::NC1HWC0, {5, 19, 7, 9}, DType::fp16, 0),
        spec(Format::NHWC, Format::NC1HWC0, {3, 5, 7, 35}, DType::fp16, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {33, 19, 3, 3}, DType::fp16, 0),
        spec(Format::NDHWC, Format::FRACTAL_Z_3D, {17, 2, 3, 3, 21}, DType::fp16, 0),
        spec(Format::FRACTAL_NZ, Format::FRACTAL_ZN, {2, 35, 50}, DType::fp16, 0),
    };
    for (ConvertSpec sp : cases)
        for (DType t : all_dtypes()) {
            sp.dtype = t;
            sp.pad_value = pad_of(t);
            if (!is_plain(sp.from)) continue;  // a fractal source is checked below
            for (int threads : {1, 2, 3, 7}) check(sp, threads);
        }
    // Fractal -> fractal (two segments, each split): the same bytes for any
    // thread count.
    for (DType t : all_dtypes()) {
        ConvertSpec sp = cases[5];
        sp.dtype = t;
        const Executor ex(make_pipeline(sp));
        std::vector<uint8_t> src(static_cast<size_t>(ex.src_bytes()));
        for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint8_t>(i * 7 + 1);
        std::vector<uint8_t> one(static_cast<size_t>(ex.dst_bytes())), two(one.size());
        ex.run(src.data(), one.data(), 1);
        ex.run(src.data(), two.data(), 3);
        EXPECT_EQ(one, two) << name(t);
    }
}

// C below, at and above C0 on the innermost (channels-last) axis, and N
// not a multiple of N0: the padded innermost level moves as one run and a
// pad fill.
TEST(ExecutorFastPaths, PaddedInnermostRunEveryDtype) {
    const std::vector<ConvertSpec> cases = {
        spec(Format::NHWC, Format::NC1HWC0, {2, 3, 5, 3}, DType::fp16, 0),
        spec(Format::NHWC, Format::NC1HWC0, {2, 4, 3, 56}, DType::fp16, 0),
        spec(Format::NHWC, Format::NC1HWC0, {1, 3, 3, 67}, DType::fp16, 0),
        spec(Format::ND, Format::FRACTAL_NZ, {19, 21}, DType::fp16, 0),
        spec(Format::ND, Format::FRACTAL_ZZ, {2, 17, 29}, DType::fp16, 0),
        spec(Format::NDHWC, Format::NDC1HWC0, {1, 2, 3, 4, 7}, DType::fp16, 0),
    };
    for (ConvertSpec sp : cases)
        for (DType t : all_dtypes()) {
            sp.dtype = t;
            sp.pad_value = pad_of(t);
            check(sp, 1);
        }
}

// FRACTAL_Z / FRACTAL_Z_3D from NCHW / NCDHW with small kernels take the
// batched tiles (batch_tiles.hpp) forward and back, for every dtype but
// int4 (its nibble paths come first): kernels 2x2 to 7x7 and 3x3x3 (tile
// heights below, at and past a block, with and without ragged rows; 1x1 is
// a row copy, no tile), C a
// multiple of C0, not one (C1 partly padding: the valid X count per middle
// index), and C = 3; N a multiple of 16 (N padded keeps the plain walk,
// checked too). Threads 1, 2 and 3; the plan is checked, so that a
// conversion that silently left the path fails here.
TEST(ExecutorFastPaths, SmallTilesBatchedAlongN) {
    struct Case {
        ConvertSpec sp;
        bool batched;
    };
    const Case cases[] = {
        {spec(Format::NCHW, Format::FRACTAL_Z, {32, 48, 3, 3}, DType::fp16, 0), true},
        {spec(Format::NCHW, Format::FRACTAL_Z, {48, 45, 3, 3}, DType::fp16, 0), true},
        {spec(Format::NCHW, Format::FRACTAL_Z, {32, 3, 7, 7}, DType::fp16, 0), true},
        {spec(Format::NCHW, Format::FRACTAL_Z, {16, 70, 5, 5}, DType::fp16, 0), true},
        {spec(Format::NCHW, Format::FRACTAL_Z, {32, 40, 2, 2}, DType::fp16, 0), true},
        {spec(Format::NCHW, Format::FRACTAL_Z, {32, 17, 1, 1}, DType::fp16, 0),
         false},  // a row copy
        {spec(Format::NCHW, Format::FRACTAL_Z, {64, 19, 4, 4}, DType::fp16, 0), true},
        {spec(Format::NCDHW, Format::FRACTAL_Z_3D, {32, 40, 3, 3, 3}, DType::fp16, 0), true},
        {spec(Format::NCDHW, Format::FRACTAL_Z_3D, {16, 3, 2, 3, 3}, DType::fp16, 0), true},
        {spec(Format::NCHW, Format::FRACTAL_Z, {37, 45, 3, 3}, DType::fp16, 0), false},
        // folded tiles (plan_fold): 27 and 18 rows, whole 32-column blocks
        // for the 1-byte scatter; 8 rows (a gather fold only)
        {spec(Format::NCDHW, Format::FRACTAL_Z_3D, {48, 64, 3, 3, 3}, DType::fp16, 0), true},
        {spec(Format::NCDHW, Format::FRACTAL_Z_3D, {32, 64, 2, 3, 3}, DType::fp16, 0), true},
        {spec(Format::NCDHW, Format::FRACTAL_Z_3D, {32, 96, 2, 2, 2}, DType::fp16, 0), true},
    };
    for (const Case& c : cases)
        for (DType t : all_dtypes()) {
            if (t == DType::int4) continue;
            ConvertSpec sp = c.sp;
            sp.dtype = t;
            sp.pad_value = pad_of(t);
            const Pipeline p = make_pipeline(sp);
            const auto segs = detail::segments(p);
            ASSERT_EQ(segs.size(), 1u);
            const int esz = bits(t) / 8;
            const detail::Gather g =
                detail::compile_gather(segs[0].plain, segs[0].steps, esz, true);
            for (const bool scatter : {false, true}) {
                detail::BatchPlan plan;
                EXPECT_EQ(detail::plan_batch_tiles(g, esz, scatter, plan), c.batched)
                    << to_string(sp.shape) << " " << name(t) << (scatter ? " inverse" : "");
            }
            for (int threads : {1, 2, 3}) {
                check(sp, threads);
                if (::testing::Test::HasFatalFailure()) return;
            }
        }
}

// int4: where every stride is even the nibbles move in pairs as bytes;
// where a destination byte pairs nibbles from two source rows (C0 of NCHW
// -> NC1HWC0), or an odd row length splits a pair, they go one by one.
TEST(ExecutorFastPaths, Int4PairsAndSingleNibbles) {
    struct Case {
        ConvertSpec sp;
        bool pairs;
    };
    const Case cases[] = {
        {spec(Format::ND, Format::FRACTAL_NZ, {70, 128}, DType::int4, -8), true},
        {spec(Format::ND, Format::FRACTAL_NZ, {3, 21, 90}, DType::int4, 5), true},
        {spec(Format::ND, Format::FRACTAL_NZ, {21, 91}, DType::int4, 5), false},
        {spec(Format::NHWC, Format::NC1HWC0, {2, 3, 5, 70}, DType::int4, -1), true},
        {spec(Format::NHWC, Format::NC1HWC0, {2, 3, 5, 7}, DType::int4, -1), false},
        {spec(Format::NCHW, Format::NC1HWC0, {2, 70, 3, 4}, DType::int4, 3), false},
        {spec(Format::NCHW, Format::FRACTAL_Z, {20, 17, 3, 3}, DType::int4, 3), false},
    };
    for (const Case& c : cases) {
        const Pipeline p = make_pipeline(c.sp);
        const auto segs = detail::segments(p);
        ASSERT_EQ(segs.size(), 1u);
        const detail::Gather g =
            detail::compile_gather(segs[0].plain, segs[0].steps, 1, true, true);
        EXPECT_EQ(g.nibble_pairs, c.pairs) << to_string(c.sp.shape);
        check(c.sp, 1);
        check(c.sp, 2);
    }
}

// Destinations (or, inverse, plain outputs) past 8 MiB take the streaming
// stores: tiled gather, tiled scatter, row copies; odd and ragged shapes
// included (C=3, C=37, H*W not a multiple of the block).
TEST(ExecutorFastPaths, StreamingStoresOnLargeTensors) {
    const std::vector<ConvertSpec> cases = {
        spec(Format::NCHW, Format::NC1HWC0, {12, 37, 97, 101}, DType::fp16, 0),
        spec(Format::NCHW, Format::NC1HWC0, {100, 3, 100, 97}, DType::fp32, 0),
        spec(Format::NCHW, Format::NC1HWC0, {12, 64, 110, 110}, DType::int8, 0),
        spec(Format::NHWC, Format::NC1HWC0, {8, 99, 101, 64}, DType::fp16, 0),
        spec(Format::ND, Format::FRACTAL_NZ, {2100, 2050}, DType::fp16, 0),
        spec(Format::ND, Format::FRACTAL_ZN, {1031, 4100}, DType::fp16, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {4000, 64, 3, 3}, DType::fp32, 0),
    };
    for (ConvertSpec sp : cases) {
        sp.pad_value = pad_of(sp.dtype);
        const Pipeline p = make_pipeline(sp);
        ASSERT_GE(std::min(Executor(p).dst_bytes(), Executor(p).src_bytes()), int64_t(8) << 20)
            << to_string(sp.shape);
        check(sp, 1);
        check(sp, 2);
    }
}

// 1-byte tiled scatters past 8 MiB go through a line buffer (transpose_tile.hpp):
// plain rows on 64-byte lines (H*W = 64*224, N = 8256) take windows of one
// line, rows off the grid (H*W = 110*110, N = 25201) windows of 256 bytes
// with normal stores at the partial ends; C = 37 leaves the last x block
// partly valid and every shape leaves a ragged y tail after the windows.
TEST(ExecutorFastPaths, OneByteScattersThroughALineBuffer) {
    const std::vector<ConvertSpec> cases = {
        spec(Format::NCHW, Format::NC1HWC0, {16, 37, 64, 224}, DType::int8, 0),
        spec(Format::NCHW, Format::NC1HWC0, {12, 64, 110, 110}, DType::uint8, 0),
        spec(Format::ND, Format::FRACTAL_ZN, {1031, 8256}, DType::int8, 0),
        spec(Format::ND, Format::FRACTAL_ZN, {1031, 8201}, DType::fp8_e4m3fn, 0),
        spec(Format::HWCN, Format::FRACTAL_Z, {3, 3, 37, 25201}, DType::int8, 0),
        spec(Format::NCDHW, Format::NDC1HWC0, {48, 32, 8, 28, 28}, DType::int8, 0),
    };
    check_cases(cases, Big::src);
}

// 1-byte tiled gathers past 8 MiB whose destination rows are a line or more
// (C of NHWC) go through the same buffer: rows of exactly one line (C = 64),
// rows off the line grid (C = 80), rows wider than one 256-byte window
// (C = 272); H*W leaves a ragged y tail.
TEST(ExecutorFastPaths, OneByteGathersThroughALineBuffer) {
    const std::vector<ConvertSpec> cases = {
        spec(Format::NCHW, Format::NHWC, {8, 64, 130, 130}, DType::int8, 0),
        spec(Format::NCHW, Format::NHWC, {8, 80, 115, 115}, DType::uint8, 0),
        spec(Format::NCHW, Format::NHWC, {2, 272, 127, 127}, DType::int8, 0),
    };
    check_cases(cases, Big::dst);
}

// int4 whose nibbles do not move in pairs (C0 of NCHW, C of NHWC, ZN):
// 32 x 32 nibble transposes, four at a time along long output rows, packed
// where the output rows are one piece (32-byte C0 rows), one at a time
// otherwise; ragged edges and padding (C = 37, C = 32 into C0 = 64) nibble
// by nibble and in whole pad bytes; streaming stores past 8 MiB. With the
// AVX2 kernel where the CPU has it, and always with the SSE2 one.
TEST(ExecutorFastPaths, Int4NibbleTransposes) {
    const std::vector<ConvertSpec> cases = {
        spec(Format::NCHW, Format::NC1HWC0, {2, 37, 67, 65}, DType::int4, 0),
        spec(Format::NCHW, Format::NC1HWC0, {3, 64, 40, 40}, DType::int4, 0),
        spec(Format::NCHW, Format::NHWC, {2, 160, 33, 35}, DType::int4, 0),
        spec(Format::ND, Format::FRACTAL_ZN, {100, 300}, DType::int4, 0),
        spec(Format::ND, Format::FRACTAL_ZN, {101, 301}, DType::int4, 0),
        spec(Format::ND, Format::FRACTAL_NZ, {99, 302}, DType::int4, 0),
        spec(Format::NCDHW, Format::NDC1HWC0, {2, 32, 4, 28, 28}, DType::int4, 0),
        spec(Format::NCHW, Format::NC1HWC0, {10, 64, 180, 180}, DType::int4, 0),
        spec(Format::NCHW, Format::NHWC, {4, 256, 130, 130}, DType::int4, 0),
        // fractal -> fractal, composed into one gather (no padding: the
        // round trip then gives the source back)
        spec(Format::FRACTAL_NZ, Format::FRACTAL_ZN, {4096, 4608}, DType::int4, 0),
        spec(Format::FRACTAL_NZ, Format::FRACTAL_ZN, {64, 128}, DType::int4, 0),
        // input rows 2,048 bytes apart (4,096 nibbles), staged 64 bytes a
        // row (finding 43): four blocks, or three (96 input rows), from each
        // slab of 128 columns; K = 130 leaves a ragged K1. 1,024 apart,
        // not staged, beside them.
        spec(Format::ND, Format::FRACTAL_ZN, {130, 4096}, DType::int4, 0),
        spec(Format::NHWC, Format::NCHW, {2, 8, 12, 4096}, DType::int4, 0),
        spec(Format::NCHW, Format::NHWC, {2, 96, 64, 64}, DType::int4, 0),
        spec(Format::NCHW, Format::NHWC, {2, 64, 32, 64}, DType::int4, 0),
    };
    avx2_on_then_off(detail::nibble_avx2(), [&] { check_cases(cases); });
}

// int4 tall gathers with long output rows past 8 MiB (finding 51): windows
// of 128 output rows, each row built whole in a buffer and streamed, the
// input rows 64 on prefetched. NHWC -> HWCN with N = 302 (a ragged last
// block, which the tile's overlapping blocks store over the window's rows)
// and N = 544; NCHW -> HWCN with N = 1,030 and its inverse, which the C
// fold took before (their tiles now fit a window); NCHW -> NHWC with
// C = 160 and 36 x 36 = 1,296 rows: ten windows of 128, then the 16
// ragged rows as overlapping blocks.
TEST(ExecutorFastPaths, Int4WindowsOfLongOutputRows) {
    const std::vector<ConvertSpec> cases = {
        spec(Format::NHWC, Format::HWCN, {302, 8, 8, 1024}, DType::int4, 0),
        spec(Format::NHWC, Format::HWCN, {544, 4, 8, 1024}, DType::int4, 0),
        spec(Format::NCHW, Format::HWCN, {1030, 16, 32, 32}, DType::int4, 0),
        spec(Format::NCHW, Format::NHWC, {96, 160, 36, 36}, DType::int4, 0),
    };
    avx2_on_then_off(detail::nibble_avx2(), [&] { check_cases(cases, Big::dst); });
}

// 1-byte gathers whose tiles have fewer rows than a block (3x3 and 3x3x3
// kernels: 9 or 27 of 16): the last rows still go through the block
// transpose, whose row loads read past the tile, except where they would
// run past the source (the last tiles, element by element); ragged C.
// Under ASan (CI) a load past the source would be reported.
TEST(ExecutorFastPaths, ShortTilesThroughTheBlockTranspose) {
    const std::vector<ConvertSpec> cases = {
        spec(Format::NCHW, Format::FRACTAL_Z, {37, 45, 3, 3}, DType::int8, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {16, 32, 3, 3}, DType::uint8, 0),
        spec(Format::NCDHW, Format::FRACTAL_Z_3D, {5, 40, 3, 3, 3}, DType::int8, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {3, 5, 7, 7}, DType::int8, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {4000, 256, 3, 3}, DType::int8, 0),
        // kernels whose rows are under half a block (the inverse must not
        // store whole blocks there: a row's tail would reach past the tile)
        spec(Format::NCHW, Format::FRACTAL_Z, {37, 45, 1, 1}, DType::fp32, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {20, 40, 2, 2}, DType::int8, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {20, 40, 2, 2}, DType::fp16, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {20, 40, 1, 3}, DType::fp32, 0),
    };
    check_cases(cases);
}

// 1-byte batched tiles (batch_tiles.hpp) take two 16 x 16 blocks at once
// through AVX2 where 32 columns are valid: gather_tiles
// (byte_tiles32_avx2) where every read stays inside the source,
// scatter_tiles (byte_tiles32_back_avx2, through check()'s inverse) where
// short plain rows are back to back, the last row of the valid columns
// stored exactly. Kernel heights under a block (2x2: the scatter's row
// stores would reach three rows on, so it stays SSE2; 2x4, whose stores
// cover exactly two rows; 3x3; 3x5, one row short of a block), one block
// (4x4), and past it with ragged rows (5x5, 7x7: the last rows one
// overlapping block); C with a partly padded C1 (the blocks there stay
// SSE2); the last tiles of the source (their reads past a tile would pass
// its end: SSE2 there too); FRACTAL_Z_3D with C = 40 and 64, 9-row tiles
// whose plain rows are 27 apart (the scatter stays SSE2), and C = 32 (one
// C1). Both kernels, threads 1 and 2; one destination past 8 MiB
// (streamed).
TEST(ExecutorFastPaths, OneByteBatchedTilesTwoBlocksAtOnce) {
    const std::vector<ConvertSpec> cases = {
        spec(Format::NCHW, Format::FRACTAL_Z, {32, 64, 3, 3}, DType::int8, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {48, 45, 3, 3}, DType::uint8, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {32, 64, 2, 2}, DType::hifloat8, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {32, 64, 2, 4}, DType::uint8, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {32, 64, 3, 5}, DType::int8, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {32, 64, 4, 4}, DType::int8, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {16, 96, 5, 5}, DType::fp8_e4m3fn, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {32, 70, 7, 7}, DType::int8, 0),
        spec(Format::NCDHW, Format::FRACTAL_Z_3D, {32, 32, 3, 3, 3}, DType::int8, 0),
        spec(Format::NCDHW, Format::FRACTAL_Z_3D, {32, 64, 3, 3, 3}, DType::uint8, 0),
        spec(Format::NCDHW, Format::FRACTAL_Z_3D, {16, 40, 3, 3, 3}, DType::int8, 0),
    };
    avx2_on_then_off(detail::byte_tiles_avx2(), [&] {
        check_cases(cases);
        if (!::testing::Test::HasFatalFailure())
            check_cases({spec(Format::NCHW, Format::FRACTAL_Z, {4096, 256, 3, 3}, DType::int8, 0)},
                        Big::dst);
    });
}

// 2-byte batched gathers take two 8 x 8 blocks at a time through AVX2
// (half_tiles16_avx2, finding 54) where two whole blocks of columns remain
// and the tile is at least 8 rows high: kernels of 8, 9, 15, 16 and 25
// rows (the last block of rows overlapping the one before), C with a
// ragged last block (45: one pair, then a single block), N past a group,
// the folded 27-row tiles of FRACTAL_Z_3D, and 1x1 and 2x2 kernels (under
// 8 rows: the SSE2 blocks). Every element against the map, both kernels,
// threads 1 and 2, and one case past 8 MiB.
TEST(ExecutorFastPaths, TwoByteBatchedGathersTwoBlocksAtOnce) {
    const std::vector<ConvertSpec> cases = {
        spec(Format::NCHW, Format::FRACTAL_Z, {32, 64, 3, 3}, DType::fp16, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {48, 45, 3, 3}, DType::bf16, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {35, 32, 2, 4}, DType::fp16, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {32, 64, 3, 5}, DType::bf16, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {32, 48, 4, 4}, DType::fp16, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {16, 96, 5, 5}, DType::fp16, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {32, 64, 1, 1}, DType::fp16, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {32, 64, 2, 2}, DType::bf16, 0),
        spec(Format::NCDHW, Format::FRACTAL_Z_3D, {32, 32, 3, 3, 3}, DType::fp16, 0),
        spec(Format::NCDHW, Format::FRACTAL_Z_3D, {16, 40, 3, 3, 3}, DType::bf16, 0),
    };
    avx2_on_then_off(detail::half_tiles_avx2(), [&] {
        check_cases(cases);
        if (!::testing::Test::HasFatalFailure())
            check_cases({spec(Format::NCHW, Format::FRACTAL_Z, {2048, 256, 3, 3}, DType::fp16, 0)},
                        Big::dst);
    });
}

// 2- and 4-byte batched scatters (FRACTAL_Z -> NCHW, FRACTAL_Z_3D ->
// NCDHW) go in subsets of their outer middle level, C1 (finding 55): 1
// KiB source pieces, each subset's plain part whole lines. The plan is
// checked (sub entries making whole lines, within kSubsetBytes; none for
// 1-byte types, for C1 = 1, or where two entries are over the bound),
// then every element: C with padding in the last entry (45, 36, 40), N
// not a multiple of the group, threads 1 and 2, and one case past 8 MiB
// (its pieces streamed).
TEST(ExecutorFastPaths, ScattersInSubsetsOfTheMiddleLevel) {
    struct Case {
        ConvertSpec sp;
        int64_t sub;
    };
    const Case cases[] = {
        {spec(Format::NCHW, Format::FRACTAL_Z, {48, 256, 3, 3}, DType::fp16, 0), 4},
        {spec(Format::NCHW, Format::FRACTAL_Z, {48, 45, 3, 3}, DType::bf16, 0), 2},
        {spec(Format::NCHW, Format::FRACTAL_Z, {80, 36, 3, 3}, DType::fp32, 0), 4},
        {spec(Format::NCHW, Format::FRACTAL_Z, {32, 64, 2, 2}, DType::int16, 0), 4},
        {spec(Format::NCHW, Format::FRACTAL_Z, {32, 96, 5, 5}, DType::fp16, 0), 2},  // 800 B
        {spec(Format::NCHW, Format::FRACTAL_Z, {32, 96, 7, 7}, DType::fp16, 0), 0},  // too big
        // C1 and D: each subset takes every depth of its C1 entries
        {spec(Format::NCDHW, Format::FRACTAL_Z_3D, {32, 40, 3, 3, 3}, DType::fp16, 0), 2},
        {spec(Format::NCDHW, Format::FRACTAL_Z_3D, {48, 64, 3, 3, 3}, DType::fp32, 0), 2},
        {spec(Format::NCHW, Format::FRACTAL_Z, {32, 256, 3, 3}, DType::int8, 0), 0},
        {spec(Format::NCHW, Format::FRACTAL_Z, {32, 3, 7, 7}, DType::fp16, 0), 0},  // C1 = 1
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(to_string(c.sp.shape) + " " + name(c.sp.dtype));
        const Pipeline p = make_pipeline(c.sp);
        const auto segs = detail::segments(p);
        ASSERT_EQ(segs.size(), 1u);
        const int esz = bits(c.sp.dtype) / 8;
        const detail::Gather g = detail::compile_gather(segs[0].plain, segs[0].steps, esz, true);
        detail::BatchPlan plan;
        ASSERT_TRUE(detail::plan_batch_tiles(g, esz, true, plan));
        EXPECT_EQ(plan.sub, c.sub);
        if (plan.sub > 0) {
            const int64_t part = plan.sub * plan.mid[0].src_stride * esz;
            EXPECT_EQ(part % 64, 0);
            EXPECT_LE(plan.k * part, detail::kSubsetBytes);
            EXPECT_EQ(plan.k * plan.x.size * esz, detail::kSubsetPiece);
        }
        check_cases({c.sp});  // (the way back is the scatter)
        if (::testing::Test::HasFatalFailure()) return;
    }
    check_cases({spec(Format::NCHW, Format::FRACTAL_Z, {2048, 256, 3, 3}, DType::fp16, 0)},
                Big::dst);
}

// FRACTAL_Z_3D <-> NCDHW: the depth level folds into the tile rows where
// the plain rows continue across it (plan_fold, finding 49): a gather
// for every width whose hw rows are not whole blocks, a scatter for the
// 1-byte AVX2 tiles only, with every 32-column block whole (C a multiple
// of 32) and at least 16 rows. The plan is checked, then every element,
// both kernels, threads 1 and 2, and one 1-byte case past 8 MiB (the
// gather's rows and the scatter's plain blocks streamed).
TEST(ExecutorFastPaths, DepthFoldedIntoTileRows) {
    struct Case {
        ConvertSpec sp;
        bool gather_folds, scatter_folds;  // for 1-byte types under AVX2
    };
    const Case cases[] = {
        {spec(Format::NCDHW, Format::FRACTAL_Z_3D, {48, 64, 3, 3, 3}, DType::int8, 0), true, true},
        {spec(Format::NCDHW, Format::FRACTAL_Z_3D, {32, 64, 2, 3, 3}, DType::uint8, 0), true, true},
        {spec(Format::NCDHW, Format::FRACTAL_Z_3D, {32, 96, 5, 2, 2}, DType::int8, 0), true, true},
        // X padded (C = 40): the scatter keeps 9-row tiles
        {spec(Format::NCDHW, Format::FRACTAL_Z_3D, {32, 40, 3, 3, 3}, DType::int8, 0), true, false},
        // 8 rows: under a block, the scatter keeps 4-row tiles
        {spec(Format::NCDHW, Format::FRACTAL_Z_3D, {32, 64, 2, 2, 2}, DType::int8, 0), true, false},
        // hw rows of 16 bytes are whole blocks: nothing to fold
        {spec(Format::NCDHW, Format::FRACTAL_Z_3D, {32, 64, 3, 4, 4}, DType::int8, 0), false,
         false},
        {spec(Format::NCDHW, Format::FRACTAL_Z_3D, {48, 64, 3, 3, 3}, DType::fp16, 0), true, false},
        {spec(Format::NCDHW, Format::FRACTAL_Z_3D, {32, 24, 3, 3, 3}, DType::fp32, 0), true, false},
    };
    avx2_on_then_off(detail::byte_tiles_avx2(), [&] {
        for (const Case& c : cases) {
            ConvertSpec sp = c.sp;
            sp.pad_value = pad_of(sp.dtype);
            const Pipeline p = make_pipeline(sp);
            const auto segs = detail::segments(p);
            ASSERT_EQ(segs.size(), 1u);
            const int esz = bits(sp.dtype) / 8;
            const detail::Gather g =
                detail::compile_gather(segs[0].plain, segs[0].steps, esz, true);
            for (const bool scatter : {false, true}) {
                detail::BatchPlan plan;
                ASSERT_TRUE(detail::plan_batch_tiles(g, esz, scatter, plan));
                const bool want =
                    scatter ? c.scatter_folds && detail::byte_tiles_avx2() : c.gather_folds;
                EXPECT_EQ(plan.folded, want)
                    << to_string(sp.shape) << " " << name(sp.dtype) << (scatter ? " inverse" : "");
            }
            check(sp, 1);
            if (::testing::Test::HasFatalFailure()) return;
            check(sp, 2);
            if (::testing::Test::HasFatalFailure()) return;
        }
        check_cases(
            {spec(Format::NCDHW, Format::FRACTAL_Z_3D, {5000, 64, 3, 3, 3}, DType::int8, 0)},
            Big::dst);
    });
}

// Destination rows that end in a part of a block (NCHW -> HWCN with N not
// a multiple of B; under B, every column of the tile is ragged): a quarter
// of a block or more goes through one block transposed in registers, each
// row's part stored as two overlapping moves of 8 or 4 bytes (ragged_block,
// row_part); fewer stay element by element. Rows of 11 (int8: 8 + 8
// overlapping by 5), 5 (fp16: 10 bytes), 3 (fp32: 12), 13 (fp16: one whole
// block and 5 ragged), 7 (int8: 4 + 4), 4 (int8: exactly a quarter, 4 + 4
// over the same bytes), 2 (fp16: 4 bytes), 3 (int8, under a quarter:
// element by element). A mutation of either second move's shift fails
// this test.
TEST(ExecutorFastPaths, RaggedColumnsAsOneBlock) {
    const std::vector<ConvertSpec> cases = {
        spec(Format::NCHW, Format::HWCN, {11, 64, 12, 12}, DType::uint8, 0),
        spec(Format::NCHW, Format::HWCN, {11, 3, 17, 19}, DType::int8, 0),
        spec(Format::NCHW, Format::HWCN, {5, 16, 9, 31}, DType::fp16, 0),
        spec(Format::NCHW, Format::HWCN, {3, 8, 20, 20}, DType::fp32, 0),
        spec(Format::NCHW, Format::HWCN, {13, 8, 16, 17}, DType::fp16, 0),
        spec(Format::NCHW, Format::HWCN, {7, 24, 16, 16}, DType::int8, 0),
        spec(Format::NCHW, Format::HWCN, {4, 24, 16, 16}, DType::int8, 0),
        spec(Format::NCHW, Format::HWCN, {2, 16, 9, 31}, DType::fp16, 0),
        spec(Format::NCHW, Format::HWCN, {3, 24, 16, 16}, DType::int8, 0),
    };
    check_cases(cases);
}

// C = 3 (and 5) into C0 on a destination past 8 MiB: each padded row is
// built in registers and streamed; the last row's source load stays inside
// the source (the row falls back to the byte path where it would not).
TEST(ExecutorFastPaths, ShortPaddedRowsStreamed) {
    const std::vector<ConvertSpec> cases = {
        spec(Format::NHWC, Format::NC1HWC0, {8, 199, 201, 3}, DType::fp16, 0),
        spec(Format::NHWC, Format::NC1HWC0, {15, 199, 201, 3}, DType::int8, 0),
        spec(Format::NHWC, Format::NC1HWC0, {8, 199, 201, 5}, DType::fp32, 0),
        spec(Format::NHWC, Format::NC1HWC0, {14, 99, 101, 21}, DType::fp16, 0),
    };
    check_cases(cases, Big::dst);
}

// The round trip on 64-byte aligned buffers (a std::vector's large buffer
// sits 16 bytes past a page, and the widened scatter below runs only where
// it writes whole lines): forward, then back into a fresh plain buffer.
void check_aligned(const ConvertSpec& sp, int threads) {
    const Pipeline p = make_pipeline(sp);
    const Executor fwd(p), back(inverse(p));
    const auto src = plain_source(sp.dtype, numel(p.src_shape));
    const auto buffer = [](int64_t n) {
        const auto bytes = static_cast<size_t>((n + 63) / 64 * 64);
        return std::unique_ptr<uint8_t, void (*)(void*)>(
            static_cast<uint8_t*>(std::aligned_alloc(64, bytes)), std::free);
    };
    auto blocked = buffer(fwd.dst_bytes());
    auto again = buffer(static_cast<int64_t>(src.size()));
    std::memset(again.get(), 0xA5, src.size());
    fwd.run(src.data(), blocked.get(), threads);
    back.run(blocked.get(), again.get(), threads);
    const auto at = std::mismatch(src.begin(), src.end(), again.get()).first - src.begin();
    ASSERT_EQ(at, static_cast<std::ptrdiff_t>(src.size()))
        << name(sp.from) << "->" << name(sp.to) << " " << name(sp.dtype) << " "
        << to_string(sp.shape) << " threads " << threads << ": byte " << at << " (aligned)";
}

// check_aligned() with 1 and 2 threads for each case, the pad value of its
// dtype.
void check_cases_aligned(const std::vector<ConvertSpec>& cases) {
    for (ConvertSpec sp : cases) {
        sp.pad_value = pad_of(sp.dtype);
        for (int threads : {1, 2}) {
            check_aligned(sp, threads);
            if (::testing::Test::HasFatalFailure()) return;
        }
    }
}

// Copy scatters whose runs are 32-byte pieces of plain rows (N0 rows of
// FRACTAL_NZ -> ND, C0 rows into NHWC/NDHWC) take K steps of the level two
// out inside each chunk and read the K columns in order, so each plain row
// gets 128 bytes at once (streamed, with a software prefetch), on aligned
// plain buffers past 8 MiB: fp16, fp32, int8, int4 (nibble pairs), a batch
// axis, threads splitting the widened outer level, padded M (partial
// fractals skipped), columns not 4 KiB apart, the channels-last targets.
// Where 4 columns do not divide the level, 2 (one whole line) do (finding
// 47). N1 = 257 (no K divides it), FRACTAL_ZZ (read in order already), 16 rows
// (one fractal row), an odd N (rows off the 16-byte grid), C = 56 (rows off
// the line grid) and every unaligned buffer keep the plain walk.
TEST(ExecutorFastPaths, ShortScatterRunsWidenedToLines) {
    const std::vector<ConvertSpec> cases = {
        spec(Format::ND, Format::FRACTAL_NZ, {1024, 4096}, DType::fp16, 0),
        spec(Format::ND, Format::FRACTAL_NZ, {1024, 2048}, DType::fp32, 0),
        spec(Format::ND, Format::FRACTAL_NZ, {2048, 4096}, DType::int8, 0),
        spec(Format::ND, Format::FRACTAL_NZ, {4096, 4096}, DType::int4, 0),
        spec(Format::ND, Format::FRACTAL_NZ, {3, 1024, 1408}, DType::fp16, 0),
        spec(Format::ND, Format::FRACTAL_NZ, {2041, 4096}, DType::fp16, 0),
        spec(Format::ND, Format::FRACTAL_NZ, {2041, 2048}, DType::fp32, 0),
        spec(Format::ND, Format::FRACTAL_NZ, {4089, 4096}, DType::int8, 0),
        spec(Format::ND, Format::FRACTAL_NZ, {3, 377, 4096}, DType::fp16, 0),
        spec(Format::ND, Format::FRACTAL_NZ, {1040, 4096}, DType::fp16, 0),
        spec(Format::NHWC, Format::NC1HWC0, {24, 56, 56, 64}, DType::fp16, 0),
        spec(Format::NHWC, Format::FRACTAL_Z, {4000, 3, 3, 256}, DType::int8, 0),
        spec(Format::NDHWC, Format::NDC1HWC0, {24, 8, 28, 28, 32}, DType::fp32, 0),
        // two columns a chunk (one line): C1 = 2 (the widened level is one
        // step), C1 = 6 and N1 = 258, which 4 does not divide
        spec(Format::NDHWC, Format::NDC1HWC0, {24, 8, 28, 28, 32}, DType::fp16, 0),
        spec(Format::NHWC, Format::NC1HWC0, {40, 56, 56, 96}, DType::bf16, 0),
        spec(Format::ND, Format::FRACTAL_NZ, {1024, 4128}, DType::fp16, 0),
        // N = 1: the one-step level goes, the threads split the plane
        spec(Format::NHWC, Format::NC1HWC0, {1, 512, 512, 32}, DType::fp16, 0),
        // the plain walk
        spec(Format::ND, Format::FRACTAL_NZ, {48, 4112}, DType::fp16, 0),
        spec(Format::ND, Format::FRACTAL_ZZ, {1024, 4096}, DType::fp16, 0),
        spec(Format::ND, Format::FRACTAL_NZ, {16, 4096}, DType::fp16, 0),
        spec(Format::ND, Format::FRACTAL_NZ, {1001, 4090}, DType::fp16, 0),
        spec(Format::NHWC, Format::NC1HWC0, {24, 56, 56, 56}, DType::fp16, 0),
    };
    check_cases(cases);
    check_cases_aligned(cases);
    if (HasFatalFailure()) return;
    for (size_t i = 0; i < 17; ++i)
        ASSERT_GE(Executor(make_pipeline(cases[i])).src_bytes(), int64_t(8) << 20)
            << to_string(cases[i].shape);
}

// Tiled gathers whose 8-64 source rows are streams of 4 lines or more take
// a software prefetch down each row (Tile::gather_blocks, finding 14 of
// docs/PERFORMANCE.md). Straight through Tile::gather for every element
// size: x counts on both sides of the range (7 and 65 rows: no prefetch),
// a partly valid last x block, a ragged y tail, padding on both axes, and a
// source that ends right after the tile (the prefetches run past its end;
// the loads must not). Every destination element against the definition.
template <class T>
void check_prefetched_tiles() {
    using Tile = detail::Tile<T>;
    struct Case {
        int64_t ny, nx, vy, vx;
        bool prefetched;
    };
    const std::vector<Case> cases = {
        {301, 16, 301, 16, true}, {300, 16, 290, 13, true},  {517, 32, 517, 32, true},
        {250, 64, 250, 64, true}, {333, 48, 333, 37, true},  {400, 8, 400, 8, true},
        {400, 8, 400, 7, false},  {301, 72, 301, 65, false}, {20, 16, 20, 16, false},
    };
    for (const Case& c : cases) {
        const int64_t sx = c.vy + 3;  // source rows a little longer than the tile
        const int64_t dy = c.nx;
        std::vector<T> a(static_cast<size_t>((c.vx - 1) * sx + c.vy));
        for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<T>(i * 7 + 1);
        const T pad = static_cast<T>(0x5A);
        std::vector<T> b(static_cast<size_t>(c.ny * dy), static_cast<T>(0x33));
        const int64_t ahead = Tile::ahead_elems(c.vx, c.vy);
        EXPECT_EQ(ahead > 0, c.prefetched && c.vy * static_cast<int64_t>(sizeof(T)) >= 256)
            << sizeof(T) << "-byte, " << c.vx << " rows of " << c.vy;
        Tile::template gather<false>(a.data(), sx, b.data(), dy, c.ny, c.nx, c.vy, c.vx, pad,
                                     static_cast<int64_t>(a.size()));
        for (int64_t y = 0; y < c.ny; ++y)
            for (int64_t x = 0; x < c.nx; ++x) {
                const T want = (y < c.vy && x < c.vx) ? a[static_cast<size_t>(x * sx + y)] : pad;
                ASSERT_EQ(b[static_cast<size_t>(y * dy + x)], want)
                    << sizeof(T) << "-byte tile " << c.ny << "x" << c.nx << " at y " << y << ", x "
                    << x;
            }
    }
}

TEST(ExecutorFastPaths, PrefetchedTileRowsEveryElementSize) {
    every_element_size([](auto zero) { check_prefetched_tiles<decltype(zero)>(); });
}

// The same through the Executor: C-blocking conversions whose C0 (or C)
// rows take the prefetch, odd H*W and C, every dtype, 1 and 2 threads and
// the inverse; one case past 8 MiB so the streamed gather takes it too.
TEST(ExecutorFastPaths, PrefetchedTileRowsThroughTheExecutor) {
    std::vector<ConvertSpec> cases;
    for (DType t : all_dtypes()) {
        cases.push_back(spec(Format::NCHW, Format::NC1HWC0, {2, 37, 13, 29}, t, 0));
        cases.push_back(spec(Format::NCHW, Format::NHWC, {2, 41, 11, 31}, t, 0));
        cases.push_back(spec(Format::HWCN, Format::FRACTAL_Z, {3, 3, 37, 301}, t, 0));
    }
    check_cases(cases);
    check_cases({spec(Format::NCHW, Format::NC1HWC0, {10, 45, 97, 101}, DType::fp16, 0)}, Big::dst);
}

// Row copies whose rows are 256 bytes or more apart on the side read, in a
// tensor past 8 MiB, prefetch down each row (kRowAhead in executor.cpp,
// finding 15): the composed fractal -> fractal gathers (C0 runs from 16
// rows of NC1HWC0 into FRACTAL_Z and back), ND -> FRACTAL_NZ/ZZ, on odd
// shapes (N, M not multiples of 16; C a whole number of C0 where the
// blocked source would hold padding, which a round trip cannot give back),
// 1/2/4-byte types; check() runs each inverse too (FRACTAL_Z -> NC1HWC0).
TEST(ExecutorFastPaths, StridedRowCopiesPrefetched) {
    const std::vector<ConvertSpec> cases = {
        spec(Format::NC1HWC0, Format::FRACTAL_Z, {3601, 144, 3, 3}, DType::fp16, 0),
        spec(Format::NC1HWC0, Format::FRACTAL_Z, {3001, 104, 3, 3}, DType::fp32, 0),
        spec(Format::NC1HWC0, Format::FRACTAL_Z, {4001, 256, 3, 3}, DType::int8, 0),
        spec(Format::NHWC, Format::FRACTAL_Z, {3601, 3, 3, 130}, DType::fp16, 0),
        spec(Format::ND, Format::FRACTAL_ZZ, {2100, 2050}, DType::fp16, 0),
        spec(Format::ND, Format::FRACTAL_NZ, {3001, 2999}, DType::int8, 0),
    };
    check_cases(cases, Big::dst);
}

// Copy scatters whose short pieces continue a plain row over a long row
// level, with the blocked side's jumps inside 512 KiB (FRACTAL_ZZ -> ND:
// one 16-row strip of fractals), walk in plain order and stream the plain
// side (plain_order in executor.cpp): on 64-byte aligned buffers past 8
// MiB, 1/2/4-byte and int4 (nibble pairs; 4 KiB rows, as a strip of
// 16 rows under 64 KiB keeps the blocked order), M not a multiple of the fractal
// rows (the last strip's padding rows skipped), N a multiple of 8 but not
// 16 for fp16 (the last piece's valid half streamed through partial()), a
// batch axis, 1 and 2 threads; check() runs the forward direction against
// the element map as well.
TEST(ExecutorFastPaths, ShortScatterRunsInPlainOrder) {
    const std::vector<ConvertSpec> cases = {
        spec(Format::ND, Format::FRACTAL_ZZ, {1100, 4104}, DType::fp16, 0),
        spec(Format::ND, Format::FRACTAL_ZZ, {1031, 2048}, DType::fp32, 0),
        spec(Format::ND, Format::FRACTAL_ZZ, {2049, 4128}, DType::int8, 0),
        spec(Format::ND, Format::FRACTAL_ZZ, {2049, 8320}, DType::int4, 0),
        spec(Format::ND, Format::FRACTAL_ZZ, {3, 400, 4096}, DType::fp16, 0),
    };
    check_cases(cases, Big::src);
    check_cases_aligned(cases);
}

// A conversion that is one contiguous copy (NHWC -> NC1HWC0 with C = C0:
// the same bytes in the same order) compiles to a single level, and
// threads split that level itself: each thread copies its own part. Each
// used to copy the whole run from its start, past the end of both buffers
// (found by valgrind on PaddedRowsInOneCall's fp32 C = 8 case).
TEST(ExecutorFastPaths, ThreadsSplitAOneLevelCopy) {
    check_cases({
        spec(Format::NHWC, Format::NC1HWC0, {3, 5, 7, 16}, DType::fp16, 0),
        spec(Format::NHWC, Format::NC1HWC0, {3, 5, 7, 8}, DType::fp32, 0),
        spec(Format::NHWC, Format::NC1HWC0, {3, 5, 7, 32}, DType::int8, 0),
        spec(Format::NHWC, Format::NC1HWC0, {3, 5, 7, 64}, DType::int4, 0),
        spec(Format::NHWC, Format::NC1HWC0, {1, 1, 3, 16}, DType::fp16, 0),
    });
    for (int threads : {3, 7}) {
        ConvertSpec sp = spec(Format::NHWC, Format::NC1HWC0, {2, 3, 5, 16}, DType::fp16, 0);
        check(sp, threads);
    }
}

// The rows of a padded innermost level in one call (partial_rows): every
// dtype, C from 1 to 17 into C0 (valid bytes per row 1 to 34; 16-byte
// stores of back-to-back plain rows where a row is at most 16 bytes, the
// last rows exact), few rows per call (W = 2) and many, NHWC and NDHWC,
// 1 and 2 threads; the big streamed cases are in ShortPaddedRowsStreamed.
TEST(ExecutorFastPaths, PaddedRowsInOneCall) {
    std::vector<ConvertSpec> cases;
    for (DType t : all_dtypes())
        for (int64_t c : {1, 2, 3, 5, 7, 8, 9, 15, 17}) {
            cases.push_back(spec(Format::NHWC, Format::NC1HWC0, {3, 5, 7, c}, t, 0));
            cases.push_back(spec(Format::NHWC, Format::NC1HWC0, {2, 1, 2, c}, t, 0));
        }
    cases.push_back(spec(Format::NDHWC, Format::NDC1HWC0, {2, 3, 5, 7, 3}, DType::fp16, 0));
    check_cases(cases);
}

// Threads cut the outermost level only where both sides have moved a
// multiple of 64 bytes (split_grain). A tiled gather of two levels splits
// Y itself (unit stride on the plain side): cut anywhere, a thread of the
// streamed fp16 scatter NC1HWC0 -> NCHW (8 MiB; 3, 5 and 7
// threads) started mid-line and its aligned streaming stores faulted, and
// an int4 nibble transpose (NCHW -> NHWC, Y = 70 cut at 35) started
// mid-byte.
TEST(ExecutorFastPaths, ThreadCutsOnWholeLines) {
    const ConvertSpec big = spec(Format::NCHW, Format::NC1HWC0, {1, 16, 512, 512}, DType::fp16, 0);
    ASSERT_GE(Executor(make_pipeline(big)).src_bytes(), int64_t(8) << 20);
    const std::vector<ConvertSpec> small = {
        spec(Format::NCHW, Format::NHWC, {1, 32, 10, 7}, DType::int4, 0),
        spec(Format::NCHW, Format::NC1HWC0, {1, 32, 10, 7}, DType::int4, 0),
        spec(Format::NCHW, Format::NC1HWC0, {1, 16, 37, 41}, DType::fp16, 0),
        spec(Format::NCHW, Format::NC1HWC0, {1, 32, 37, 41}, DType::int8, 0),
    };
    for (int threads : {3, 5, 7}) {
        check(big, threads);
        if (HasFatalFailure()) return;
        for (const ConvertSpec& sp : small) {
            check(sp, threads);
            if (HasFatalFailure()) return;
        }
    }
}

// The 32 x 32 nibble transpose, SSE2 and (where the CPU has it) AVX2,
// against nibble-by-nibble moves: output nibble r of row c is input nibble
// c of row r; strides odd and even, and the bytes between the rows must
// stay as they were.
void check_nibble_block(void (*kernel)(const uint8_t*, int64_t, uint8_t*, int64_t),
                        const char* name) {
    for (int64_t is : {16, 17, 48}) {
        for (int64_t os : {16, 19, 64}) {
            std::vector<uint8_t> in(static_cast<size_t>(32 * is));
            for (size_t i = 0; i < in.size(); ++i)
                in[i] = static_cast<uint8_t>((i * 2654435761u) >> 13);
            std::vector<uint8_t> want(static_cast<size_t>(32 * os), 0xA5), got = want;
            for (int64_t r = 0; r < 32; ++r)
                for (int64_t c = 0; c < 32; ++c)
                    detail::set_nibble(want.data(), c * os * 2 + r,
                                       detail::get_nibble(in.data(), r * is * 2 + c));
            kernel(in.data(), is, got.data(), os);
            EXPECT_EQ(got, want) << name << " is " << is << " os " << os;
        }
    }
}

TEST(ExecutorFastPaths, NibbleBlockTransposeSse2) {
    check_nibble_block(detail::nibble_block32_sse2, "sse2");
}

TEST(ExecutorFastPaths, NibbleBlockTransposeAvx2) {
    if (!detail::kCpuAvx2) GTEST_SKIP() << "this CPU has no AVX2 (or LAYOUTLAB_NO_AVX2 is set)";
    check_nibble_block(detail::nibble_block32_avx2, "avx2");
}

// The int4 kernel tiles' AVX2 kernels (finding 41) against nibble-by-nibble
// moves, every kernel size 1-32 (16 and 32 fill their registers exactly)
// and 64 to 256 kernels: ny rows of cw nibbles (row y at y * is bytes;
// kernel k's nibble y is row y's nibble k) into cw kernels of ny nibbles
// back to back, and back into rows (stride ts, the bytes between them left
// as they were); and kernels_to_rows_avx2 from one unpacked byte a nibble.
// The packed kernels and the rows read from them sit in buffers that end
// where they do, so an AddressSanitizer build catches a read or write past
// them.
TEST(ExecutorFastPaths, Int4KernelPairsAvx2) {
    if (!detail::kCpuAvx2) GTEST_SKIP() << "this CPU has no AVX2 (or LAYOUTLAB_NO_AVX2 is set)";
    for (int64_t ny = 1; ny <= 32; ++ny)
        for (int64_t cw : {64, 128, 256}) {
            SCOPED_TRACE("ny " + std::to_string(ny) + " cw " + std::to_string(cw));
            const int64_t is = cw / 2 + 3, ts = cw / 2 + 5, kb = cw * ny / 2;
            // the rows: the last one ends the buffer
            const auto rows_n = static_cast<size_t>(is * (ny - 1) + cw / 2);
            const std::unique_ptr<uint8_t[]> rows(new uint8_t[rows_n]);
            for (size_t i = 0; i < rows_n; ++i)
                rows[i] = static_cast<uint8_t>(((i + 7 * ny) * 2654435761u) >> 11);
            std::vector<uint8_t> want(static_cast<size_t>(kb));
            for (int64_t k = 0; k < cw; ++k)
                for (int64_t y = 0; y < ny; ++y)
                    detail::set_nibble(want.data(), k * ny + y,
                                       detail::get_nibble(rows.get(), y * is * 2 + k));
            const std::unique_ptr<uint8_t[]> packed(new uint8_t[static_cast<size_t>(kb)]);
            std::memset(packed.get(), 0xA5, static_cast<size_t>(kb));
            detail::rows_to_kernels_packed_avx2(rows.get(), is, ny, cw, packed.get());
            ASSERT_EQ(std::vector<uint8_t>(packed.get(), packed.get() + kb), want) << "packed";
            // back into rows
            std::vector<uint8_t> back(static_cast<size_t>(ts * ny), 0x5A), expect = back;
            for (int64_t y = 0; y < ny; ++y)
                std::memcpy(expect.data() + y * ts, rows.get() + y * is,
                            static_cast<size_t>(cw / 2));
            detail::kernels_packed_to_rows_avx2(packed.get(), packed.get() + kb, ny, cw,
                                                back.data(), ts);
            ASSERT_EQ(back, expect) << "from packed kernels";
            // from unpacked kernels (16 bytes of slack: the kernel loads are
            // 16 wide)
            std::vector<uint8_t> u(static_cast<size_t>(cw * ny + 32));
            for (int64_t i = 0; i < cw * ny; ++i) u[i] = detail::get_nibble(want.data(), i);
            std::vector<uint8_t> back2(back.size(), 0x5A);
            detail::kernels_to_rows_avx2(u.data(), ny, cw, back2.data(), ts);
            ASSERT_EQ(back2, expect) << "from unpacked kernels";
        }
}

// stream_bytes against memcpy: every destination offset within a line,
// every length up to three lines and a bit, and the bytes on either side
// of the copy left as they were.
TEST(ExecutorFastPaths, StreamBytesAtAnyOffsetAndLength) {
    std::vector<char> src(256);
    for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<char>(i * 37 + 11);
    alignas(64) char got[512];
    alignas(64) char want[512];
    for (int64_t off = 0; off < 64; ++off)
        for (int64_t n = 0; n <= 200; ++n) {
            std::memset(got, 0x5A, sizeof got);
            std::memset(want, 0x5A, sizeof want);
            std::memcpy(want + 64 + off, src.data() + 3, static_cast<size_t>(n));
            detail::stream_bytes(got + 64 + off, src.data() + 3, n);
            ASSERT_EQ(0, std::memcmp(got, want, sizeof got)) << "offset " << off << " n " << n;
        }
}

// The nibble-run helpers of nibbles.hpp against get/set one nibble at a
// time: every start offset of both parities, lengths across the 16-byte
// (unpack, pack) and 8-byte (shifted copy) steps; the nibbles around the
// run must stay as they were.
TEST(ExecutorFastPaths, NibbleRunsAtAnyOffset) {
    std::vector<uint8_t> src(200), base(200);
    for (size_t i = 0; i < src.size(); ++i) {
        src[i] = static_cast<uint8_t>(i * 37 + 11);
        base[i] = static_cast<uint8_t>(i * 91 + 5);
    }
    for (int64_t p : {0, 1, 2, 3, 17}) {
        for (int64_t q : {0, 1, 4, 7}) {
            for (int64_t n : {0, 1, 2, 3, 15, 16, 17, 31, 32, 33, 64, 65, 66, 97, 130}) {
                const std::string what = "p " + std::to_string(p) + " q " + std::to_string(q) +
                                         " n " + std::to_string(n);
                std::vector<uint8_t> want = base, got = base;
                for (int64_t i = 0; i < n; ++i)
                    detail::set_nibble(want.data(), q + i, detail::get_nibble(src.data(), p + i));
                detail::copy_nibbles(got.data(), q, src.data(), p, n);
                EXPECT_EQ(got, want) << "copy " << what;

                std::vector<uint8_t> bytes(static_cast<size_t>(n) + 1, 0xEE);
                detail::unpack_nibbles(bytes.data(), src.data(), p, n);
                for (int64_t i = 0; i < n; ++i)
                    ASSERT_EQ(bytes[static_cast<size_t>(i)], detail::get_nibble(src.data(), p + i))
                        << "unpack " << what << " at " << i;
                EXPECT_EQ(bytes.back(), 0xEE) << "unpack wrote past the run: " << what;

                got = base;
                detail::pack_nibbles(got.data(), q, bytes.data(), n);
                EXPECT_EQ(got, want) << "pack " << what;

                want = base;
                got = base;
                for (int64_t i = 0; i < n; ++i) detail::set_nibble(want.data(), q + i, 0x9);
                detail::pad_nibbles(got.data(), q, q + n, 0x9);
                EXPECT_EQ(got, want) << "pad " << what;
            }
        }
    }
}

// int4 rows that start mid-byte, which neither move as nibble pairs nor as
// 32 x 32 nibble blocks: runs contiguous on both sides (FRACTAL_NZ with an
// odd N, C = 3 and other odd C into C0 of NC1HWC0) through copy_nibbles;
// tiled transposes with an odd stride (3x3, 7x7 and 3x3x3 kernels into
// FRACTAL_Z, an odd N into HWCN, odd H*W into NHWC) through bytes
// (NibbleBytesTilePolicy; whole kernel tiles now take kernel_rows, see
// Int4KernelRows, and their padded C0 tiles stay here), their plain rows
// back to back as one run where
// they are short, pieces of up to 64 x 128 (H*W = 81 and 147 cut along y,
// N = 301 along x; an odd C*H*W keeps NCHW -> HWCN off gather_rows for
// every c, see Int4RowsMidByteFromWholeBytes). Forward against the
// element map, back to the source.
TEST(ExecutorFastPaths, Int4RowsMidByte) {
    const std::vector<ConvertSpec> cases = {
        spec(Format::ND, Format::FRACTAL_NZ, {37, 45}, DType::int4, 0),
        spec(Format::ND, Format::FRACTAL_NZ, {3, 33, 4095 % 97}, DType::int4, 0),
        spec(Format::ND, Format::FRACTAL_ZZ, {19, 71}, DType::int4, 0),
        spec(Format::ND, Format::FRACTAL_ZN, {67, 131}, DType::int4, 0),
        spec(Format::NHWC, Format::NC1HWC0, {3, 5, 7, 3}, DType::int4, 0),
        spec(Format::NHWC, Format::NC1HWC0, {2, 3, 5, 67}, DType::int4, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {5, 3, 3, 3}, DType::int4, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {37, 70, 3, 3}, DType::int4, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {5, 3, 7, 7}, DType::int4, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {33, 70, 9, 9}, DType::int4, 0),
        spec(Format::NCDHW, Format::FRACTAL_Z_3D, {5, 66, 3, 3, 3}, DType::int4, 0),
        spec(Format::NCHW, Format::HWCN, {7, 5, 6, 9}, DType::int4, 0),
        spec(Format::NCHW, Format::HWCN, {301, 3, 3, 49}, DType::int4, 0),
        spec(Format::NHWC, Format::HWCN, {7, 6, 9, 5}, DType::int4, 0),
        spec(Format::NCHW, Format::NHWC, {3, 5, 7, 9}, DType::int4, 0),
        spec(Format::NHWC, Format::NCHW, {3, 7, 9, 5}, DType::int4, 0),
    };
    check_cases(cases);
}

// The batched tiles with both sides past 8 MiB: rows streamed forward, the
// plain blocks streamed back (aligned buffers, and the unaligned plain
// blocks of a 7x7 kernel with C = 3, whose rows are 147 elements).
TEST(ExecutorFastPaths, SmallTilesBatchedStreamed) {
    const std::vector<ConvertSpec> cases = {
        spec(Format::NCHW, Format::FRACTAL_Z, {2048, 256, 3, 3}, DType::fp16, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {1024, 256, 3, 3}, DType::fp32, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {4608, 200, 3, 3}, DType::int8, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {32768, 3, 7, 7}, DType::fp16, 0),
        spec(Format::NCDHW, Format::FRACTAL_Z_3D, {8192, 40, 3, 3, 3}, DType::uint8, 0),
    };
    check_cases(cases, Big::dst);
    check_cases_aligned(cases);
}

// Tiles of many source rows (65 or more) far apart, or so many that they
// pass 1 MiB, are staged (Tile::stage_plan, finding 21): chunks of every
// row copied into a buffer, in strips of rows where the buffer would pass
// its budget, the blocks transposed from there; the scatter transposes into
// a buffer of plain-row pieces and writes each piece whole. Ragged y, padded
// x and y, several strips, streamed and not; 1-byte types never stage.
template <class T>
void check_staged_tiles() {
    using Tile = detail::Tile<T>;
    const auto esz = static_cast<int64_t>(sizeof(T));
    struct Case {
        int64_t ny, nx, vy, vx, sx;
    };
    const int64_t far = 2048 / esz + 8;  // rows 2 KiB apart, off the 16-byte grid
    const std::vector<Case> cases = {
        {301, 72, 301, 70, far},      // ragged x block, ragged y
        {1201, 80, 1190, 67, far},    // padded y and x, several chunks per row
        {67, 8000, 67, 7900, 67},     // close rows past 1 MiB: strips
        {130, 4200, 128, 4100, 136},  // strips, padded
    };
    for (const Case& c : cases) {
        const bool staged = Tile::stage_plan(c.vx, c.vy, c.sx, Tile::kStageBytes).cw > 0;
        EXPECT_EQ(staged, sizeof(T) != 1) << sizeof(T) << "-byte, " << c.vx << " rows";
        std::vector<T> a(static_cast<size_t>((c.vx - 1) * c.sx + c.vy));
        for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<T>(i * 7 + 1);
        const T pad = static_cast<T>(0x5A);
        const int64_t dy = c.nx;
        std::vector<T> b(static_cast<size_t>(c.ny * dy), static_cast<T>(0x33));
        Tile::template gather<false>(a.data(), c.sx, b.data(), dy, c.ny, c.nx, c.vy, c.vx, pad,
                                     static_cast<int64_t>(a.size()));
        for (int64_t y = 0; y < c.ny; ++y)
            for (int64_t x = 0; x < c.nx; ++x) {
                const T want = (y < c.vy && x < c.vx) ? a[static_cast<size_t>(x * c.sx + y)] : pad;
                ASSERT_EQ(b[static_cast<size_t>(y * dy + x)], want)
                    << sizeof(T) << "-byte gather " << c.ny << "x" << c.nx << " at y " << y
                    << ", x " << x;
            }
        // back: only the valid entries are written, the rest stays
        std::vector<T> back(a.size(), static_cast<T>(0x11));
        Tile::template scatter<false>(back.data(), c.sx, b.data(), dy, c.nx, c.vy, c.vx);
        for (int64_t x = 0; x < c.vx; ++x)
            for (int64_t y = 0; y < c.sx && x * c.sx + y < static_cast<int64_t>(a.size()); ++y) {
                const auto i = static_cast<size_t>(x * c.sx + y);
                ASSERT_EQ(back[i], y < c.vy ? a[i] : static_cast<T>(0x11))
                    << sizeof(T) << "-byte scatter " << c.vx << " rows at x " << x << ", y " << y;
            }
    }
}

TEST(ExecutorFastPaths, StagedTilesEveryElementSize) {
    every_element_size([](auto zero) { check_staged_tiles<decltype(zero)>(); });
}

// Unstreamed scatters whose plain rows all share one L1 set (a multiple of
// 4 KiB apart) and number a block or more go through scatter_staged in
// 256-byte windows (Tile::one_set, finding 48): whole blocks of x, a
// partly valid last x block, x past the last whole block, y not a whole
// number of windows nor of blocks, rows 4 and 8 KiB apart; rows 4 KiB + 64
// apart, too few rows, or too short, keep the plain walk. Only the valid
// entries are written; every plain element against the definition.
template <class T>
void check_one_set_scatter() {
    using Tile = detail::Tile<T>;
    const auto esz = static_cast<int64_t>(sizeof(T));
    struct Case {
        int64_t nx, vy, vx, sx;
        bool one_set;
    };
    const int64_t k4 = 4096 / esz;
    const std::vector<Case> cases = {
        {32, 4096 / esz, 32, k4, true},      // FRACTAL_ZN -> ND's tile (int8)
        {32, 1000 / esz + 3, 30, k4, true},  // ragged y, partly valid last block
        {40, 700 / esz, 37, 2 * k4, true},   // x past the last whole block
        {16, 256 / esz, 16, k4, true},       // one window exactly
        {32, 4096 / esz, 32, k4 + 64 / esz, false},
        {16, 4096 / esz, 15, k4, false},
        {16, 255 / esz, 16, k4, false},
    };
    for (const Case& c : cases) {
        const int64_t nxb = c.nx - c.nx % Tile::B, vxr = (c.vx + Tile::B - 1) / Tile::B * Tile::B;
        EXPECT_EQ(Tile::one_set(c.sx, c.vx, c.vy, std::min(nxb, vxr)), c.one_set)
            << sizeof(T) << "-byte, " << c.vx << " rows " << c.sx << " apart";
        const int64_t dy = c.nx;
        // values that do not repeat with any block or window shift (an LCG's
        // high bits), none equal to the untouched 0x11
        std::vector<T> b(static_cast<size_t>(c.vy * dy));
        uint32_t r = 12345;
        for (T& v : b) {
            r = r * 1664525u + 1013904223u;
            v = static_cast<T>(r >> 24);
            if (v == static_cast<T>(0x11)) v = static_cast<T>(0x12);
        }
        // the rows of a partly valid last block inside a, so a write there shows
        const int64_t rows = std::max(c.vx, (c.vx + Tile::B - 1) / Tile::B * Tile::B);
        std::vector<T> a(static_cast<size_t>(rows * c.sx), static_cast<T>(0x11));
        Tile::template scatter<false>(a.data(), c.sx, b.data(), dy, c.nx, c.vy, c.vx);
        for (int64_t i = 0; i < static_cast<int64_t>(a.size()); ++i) {
            const int64_t x = i / c.sx, y = i % c.sx;
            const T want =
                x < c.vx && y < c.vy ? b[static_cast<size_t>(y * dy + x)] : static_cast<T>(0x11);
            ASSERT_EQ(a[static_cast<size_t>(i)], want)
                << sizeof(T) << "-byte scatter, " << c.vx << " rows of " << c.vy << " at x " << x
                << ", y " << y;
        }
    }
}

TEST(ExecutorFastPaths, OneSetScattersStaged) {
    every_element_size([](auto zero) {
        check_one_set_scatter<decltype(zero)>();
        // rows whose window buffer would pass kStageBudget keep the plain walk
        using Tile = detail::Tile<decltype(zero)>;
        const int64_t k4 = 4096 / static_cast<int64_t>(sizeof(zero));
        EXPECT_TRUE(Tile::one_set(k4, 800, 4096, 800)) << sizeof(zero) << "-byte";
        EXPECT_FALSE(Tile::one_set(k4, 1024, 4096, 1024)) << sizeof(zero) << "-byte";
    });
    // through the Executor, under 8 MiB (unstreamed): FRACTAL_ZN -> ND with
    // N a multiple of 4 KiB and not, padded M and N, every dtype
    std::vector<ConvertSpec> cases;
    for (DType t : all_dtypes()) {
        cases.push_back(spec(Format::ND, Format::FRACTAL_ZN, {96, 4096}, t, 0));
        cases.push_back(spec(Format::ND, Format::FRACTAL_ZN, {2, 77, 2048}, t, 0));
        cases.push_back(spec(Format::ND, Format::FRACTAL_ZN, {45, 4100}, t, 0));
    }
    check_cases(cases);
}

// A staging chunk is a whole number of blocks for any row length: the
// buffer copy and the block passes step B elements at a time (rows of 168
// fp16 elements halved to 84 ran 8 bytes past the buffer).
TEST(ExecutorFastPaths, StagedChunksAreWholeBlocks) {
    every_element_size([](auto zero) {
        using Tile = detail::Tile<decltype(zero)>;
        for (int64_t len = 8; len < 700; ++len)
            for (const int64_t rows : {65, 400, 3136}) {
                const auto st = Tile::stage_plan(rows, len, 40000, 1024);
                EXPECT_EQ(st.cw % Tile::B, 0) << sizeof(zero) << "-byte, rows of " << len;
                EXPECT_LE(st.cw, len);
            }
    });
}

// The same through the Executor, every dtype, 1 and 2 threads, both ways:
// NCHW/NHWC -> HWCN (N = 67 rows far apart) and back (the scatter), HWCN ->
// NCHW/NHWC as gathers (H*W or H*W*C rows of N elements: strips).
TEST(ExecutorFastPaths, StagedTilesThroughTheExecutor) {
    std::vector<ConvertSpec> cases;
    for (DType t : all_dtypes()) {
        cases.push_back(spec(Format::NCHW, Format::HWCN, {67, 6, 9, 11}, t, 0));
        cases.push_back(spec(Format::NHWC, Format::HWCN, {67, 9, 11, 6}, t, 0));
        cases.push_back(spec(Format::HWCN, Format::NCHW, {67, 61, 6, 67}, t, 0));
        cases.push_back(spec(Format::HWCN, Format::NHWC, {9, 11, 79, 67}, t, 0));
    }
    // rows of N = 168 halved to a chunk that is no whole number of blocks
    // for fp16 (84): the staging copy ran past its buffer (ASan catches it)
    cases.push_back(spec(Format::HWCN, Format::NCHW, {28, 28, 4, 168}, DType::fp16, 0));
    check_cases(cases);
    check_cases({spec(Format::NCHW, Format::HWCN, {131, 16, 48, 48}, DType::fp16, 0),
                 spec(Format::HWCN, Format::NHWC, {40, 40, 16, 131}, DType::fp32, 0)},
                Big::dst);
}

// Tiled scatters past 8 MiB read the blocked tiles in address order
// (blocked_order), and where every plain row of a tile starts the same way
// into a line, but not on one, the first blocks are stored normally so that
// the streamed windows fill whole lines: NDC1HWC0 -> NCDHW with 28 x 28
// planes (every other d half a line in on aligned buffers, all of them 16
// bytes in on a vector's), C padded in C1, planes too short for the head
// (2 x 4), fp16 and fp32, vector and 64-byte aligned buffers, 1 and 2
// threads; NC1HWC0 -> NCHW whose rows alternate (sx not a whole line).
TEST(ExecutorFastPaths, TiledScattersInBlockedOrder) {
    const std::vector<ConvertSpec> cases = {
        spec(Format::NCDHW, Format::NDC1HWC0, {24, 30, 8, 28, 28}, DType::fp16, 0),
        spec(Format::NCDHW, Format::NDC1HWC0, {12, 32, 8, 28, 28}, DType::fp32, 0),
        spec(Format::NCDHW, Format::NDC1HWC0, {4000, 40, 4, 2, 4}, DType::fp16, 0),
        spec(Format::NCHW, Format::NC1HWC0, {120, 50, 28, 28}, DType::fp16, 0),
    };
    check_cases(cases, Big::src);
    if (::testing::Test::HasFatalFailure()) return;
    check_cases_aligned(cases);
}

// 1-byte gathers through the line buffer whose last block row is short (m
// of B rows, m >= B / 4): transposed into the buffer too and streamed in
// whole rows, where the B-wide loads stay inside the source (the last
// tiles of the tensor fall back to the element loop): NDHWC -> NCDHW with
// C = 28 (m = 12), NHWC -> NCHW with C = 20 (m = 4) and D*H*W = 203 (a
// ragged x), C = 19 (m = 3: not taken), past 8 MiB, 1 and 2 threads.
TEST(ExecutorFastPaths, OneByteGathersShortLastBlockRow) {
    check_cases({spec(Format::NDHWC, Format::NCDHW, {48, 8, 28, 28, 28}, DType::int8, 0),
                 spec(Format::NHWC, Format::NCHW, {2100, 29, 7, 20}, DType::uint8, 0),
                 spec(Format::NHWC, Format::NCHW, {2400, 7, 29, 19}, DType::int8, 0)},
                Big::dst);
}

// 1-byte gathers through the line buffer whose source rows are 33-64 bytes
// apart (NHWC -> NCHW with C of 33-64 bytes: H*W source rows, too short
// for per-row prefetches) prefetch each block's span ahead into L2 on the
// walk that first reads each line (Tile::kBufferedAhead, finding 44). A
// prefetch changes no result, so this shows that the walks which issue
// them still convert every element: C = 64 (whole lines), 56 (the short
// last block row) and 33 (the gate's edge), H*W = 2,400 (a last 256-byte
// window of 96; the last blocks' spans ahead lie past the tensor's end),
// past 8 MiB, 1 and 2 threads. Streamed, so H*W is a multiple of 16.
TEST(ExecutorFastPaths, OneByteGathersPrefetchTheRunAhead) {
    check_cases({spec(Format::NHWC, Format::NCHW, {56, 48, 50, 64}, DType::int8, 0),
                 spec(Format::NHWC, Format::NCHW, {63, 50, 48, 56}, DType::uint8, 0),
                 spec(Format::NHWC, Format::NCHW, {110, 48, 50, 33}, DType::fp8_e4m3fn, 0)},
                Big::dst);
}

namespace {

// The gather of `sp`'s one segment (a forward conversion; its inverse is
// the scatter that walks it backwards).
detail::Gather gather_of(const ConvertSpec& sp) {
    const Pipeline p = make_pipeline(sp);
    const auto segs = detail::segments(p);
    return detail::compile_gather(segs.at(0).plain, segs.at(0).steps, bits(sp.dtype) / 8, true);
}

}  // namespace

// Which copy scatters go through the staging buffer (staged_scatter.hpp,
// finding 25), and how: FRACTAL_NZ -> ND with N odd in windows of the N1
// level (one 16-row strip per f; fp16, fp32, int8), NC1HWC0 -> NHWC with C
// = 56 and FRACTAL_Z_3D -> NDHWC as images of whole f (one (n, h), or 16
// n); not a batch whose M is not a multiple of 16 (the batch and M1 levels
// do not nest: no cut fits), not tiled gathers, not steps under 1 KiB (N =
// 31; C = 3 into NC1HWC0, whose N, H and W coalesce into one level of
// 6-byte steps).
TEST(ExecutorFastPaths, StagedScatterPlans) {
    detail::StagedPlan p;
    struct Want {
        ConvertSpec sp;
        bool staged;
        int top;
        bool windows;
    };
    const std::vector<Want> wants = {
        {spec(Format::ND, Format::FRACTAL_NZ, {8205, 4095}, DType::fp16, 0), true, 1, true},
        {spec(Format::ND, Format::FRACTAL_NZ, {4110, 4095}, DType::fp32, 0), true, 1, true},
        {spec(Format::ND, Format::FRACTAL_NZ, {16395, 4095}, DType::int8, 0), true, 1, true},
        {spec(Format::ND, Format::FRACTAL_NZ, {3, 704, 2047}, DType::fp16, 0), true, 2, true},
        {spec(Format::NHWC, Format::NC1HWC0, {168, 64, 56, 56}, DType::fp16, 0), true, 2, false},
        {spec(Format::NDHWC, Format::FRACTAL_Z_3D, {38848, 3, 3, 3, 64}, DType::int8, 0), true, 1,
         false},
        {spec(Format::ND, Format::FRACTAL_NZ, {3, 701, 2047}, DType::fp16, 0), false, 0, false},
        {spec(Format::NCHW, Format::NC1HWC0, {168, 64, 56, 56}, DType::fp16, 0), false, 0, false},
        {spec(Format::ND, Format::FRACTAL_NZ, {8205, 31}, DType::fp16, 0), false, 0, false},
        {spec(Format::NHWC, Format::NC1HWC0, {40, 224, 224, 3}, DType::fp16, 0), false, 0, false},
    };
    for (const Want& w : wants) {
        const detail::Gather g = gather_of(w.sp);
        const auto esz = static_cast<int64_t>(bits(w.sp.dtype) / 8);
        ASSERT_EQ(detail::plan_staged(g, esz, p), w.staged)
            << name(w.sp.from) << " " << to_string(w.sp.shape) << " " << name(w.sp.dtype);
        if (!w.staged) continue;
        EXPECT_EQ(p.top, w.top) << to_string(w.sp.shape);
        EXPECT_EQ(p.win > 0, w.windows) << to_string(w.sp.shape);
        // the buffer stays in L1, and the f cover the plain tensor
        const int64_t buf = p.win > 0 ? p.win * p.g.levels[static_cast<size_t>(p.top)].src_stride *
                                            p.g.levels[static_cast<size_t>(p.top) + 1].size
                                      : p.per_chunk * p.step;
        EXPECT_LE(buf * esz, detail::kStageBytes) << to_string(w.sp.shape);
        EXPECT_GE(p.fs * p.step, g.src_numel) << to_string(w.sp.shape);
    }
}

// The staged scatters through the Executor past 8 MiB, element by element:
// FRACTAL_NZ -> ND windows in every dtype the byte walk takes (odd M: the
// last strip's padding rows skipped; odd N: the last window partly padding,
// rows off every grid), a batch of whole strips (two top levels),
// NC1HWC0 -> NHWC with C = 56 (images; C padded in C1), FRACTAL_Z_3D ->
// NDHWC (C = 72: padded too); 1, 2 and 3 threads, vector and 64-byte
// aligned buffers.
TEST(ExecutorFastPaths, StagedScattersOffTheLineGrid) {
    std::vector<ConvertSpec> cases;
    for (DType t : all_dtypes()) {
        if (bits(t) == 4) continue;  // nibbles: NibblePolicy
        const int64_t m = bits(t) == 8 ? 4103 : (bits(t) == 16 ? 2053 : 1031);
        cases.push_back(spec(Format::ND, Format::FRACTAL_NZ, {m, 2047}, t, 0));
    }
    const std::vector<ConvertSpec> more = {
        spec(Format::ND, Format::FRACTAL_NZ, {3, 352, 4095}, DType::fp16, 0),
        spec(Format::NHWC, Format::NC1HWC0, {24, 56, 56, 56}, DType::fp32, 0),
        spec(Format::NHWC, Format::NC1HWC0, {44, 57, 61, 56}, DType::int8, 0),
        spec(Format::NDHWC, Format::FRACTAL_Z_3D, {4401, 3, 3, 3, 72}, DType::int8, 0),
    };
    cases.insert(cases.end(), more.begin(), more.end());
    detail::StagedPlan p;
    for (const ConvertSpec& sp : cases)
        ASSERT_TRUE(detail::plan_staged(gather_of(sp), bits(sp.dtype) / 8, p))
            << to_string(sp.shape) << " " << name(sp.dtype);
    check_cases(cases, Big::src);
    if (HasFatalFailure()) return;
    check_cases_aligned(more);
    if (HasFatalFailure()) return;
    ConvertSpec sp = cases.front();
    sp.pad_value = pad_of(sp.dtype);
    check(sp, 3);
}

// Tiled gathers and scatters past 8 MiB with each count of open streamed
// lines (detail::stream_open_lines): 8 (the AMD machine: fp16 blocks
// streamed from the registers) and 4 (elsewhere: fp16 through the line
// buffers, as 1-byte types always), so both paths are tested on any
// machine; fp16 C-blocking both ways, NCHW <-> NHWC, ZN -> ND, plain rows
// on and off the line grid, the staged many-row tiles of HWCN (their line
// buffer; odd W: b rows off the line grid).
TEST(ExecutorFastPaths, StreamedTilesWithFourOrEightOpenLines) {
    const int saved = detail::stream_open_lines();
    const std::vector<ConvertSpec> cases = {
        spec(Format::NCHW, Format::NC1HWC0, {12, 37, 97, 101}, DType::fp16, 0),
        spec(Format::NCHW, Format::NC1HWC0, {20, 64, 64, 64}, DType::bf16, 0),
        spec(Format::NCHW, Format::NHWC, {20, 64, 57, 59}, DType::fp16, 0),
        spec(Format::ND, Format::FRACTAL_ZN, {1031, 4100}, DType::fp16, 0),
        spec(Format::NCDHW, Format::NDC1HWC0, {24, 30, 8, 28, 28}, DType::int16, 0),
        spec(Format::HWCN, Format::NCHW, {48, 48, 16, 131}, DType::fp16, 0),
        spec(Format::NCHW, Format::HWCN, {131, 16, 48, 47}, DType::fp16, 0),
    };
    for (int lines : {8, 4}) {
        detail::stream_open_lines() = lines;
        check_cases(cases, Big::src);
        if (HasFatalFailure()) break;
        check_cases_aligned(cases);
        if (HasFatalFailure()) break;
    }
    detail::stream_open_lines() = saved;
}

namespace {

// sp with axis `axis` of its shape grown until the plain side passes 8 MiB.
// The gather a one-segment spec compiles to (tiled), and the window its
// tiles are planned for (Tile::window_plan, as int; 0: none).
void plan_window(const ConvertSpec& sp, detail::Gather& g, int& w) {
    const auto segs = detail::segments(make_pipeline(sp));
    ASSERT_EQ(segs.size(), 1u);
    g = detail::compile_gather(segs[0].plain, segs[0].steps, bits(sp.dtype) / 8, true);
    ASSERT_TRUE(g.tiled) << to_string(sp.shape) << " " << name(sp.dtype);
    const detail::Level& y = g.levels[g.levels.size() - 2];
    const detail::Level& x = g.levels.back();
    const auto window = [&](auto zero) {
        return static_cast<int>(detail::Tile<decltype(zero)>::window_plan(
            x.src_stride, y.dst_stride, y.size, x.size, y.size, x.size));
    };
    w = bits(sp.dtype) == 8    ? window(uint8_t{})
        : bits(sp.dtype) == 16 ? window(uint16_t{})
        : bits(sp.dtype) == 32 ? window(uint32_t{})
                               : window(uint64_t{});
}

ConvertSpec past_8mib(ConvertSpec sp, size_t axis) {
    const int64_t bytes = Executor(make_pipeline(sp)).src_bytes();
    const int64_t want = (int64_t(17) << 20) / 2;
    sp.shape[axis] *= std::max<int64_t>(1, (want + bytes - 1) / bytes);
    return sp;
}

}  // namespace

// Tiled gathers past 8 MiB transposed in windows through a buffer
// (Tile::window_plan, finding 27), every dtype the byte tiles take: tall
// (many source rows: NHWC -> HWCN, whose destination rows are back to back,
// and NCHW -> HWCN, whose are not, C folded into the windows:
// Tile::gather_tall_c) and wide (many destination rows: HWCN -> NHWC, whose
// source rows are back to back, and HWCN -> NCHW, whose are not, C folded
// in: Tile::gather_wide_c); N = 37 (a ragged last block of rows, 37 = 2 *
// 16 + 5, the tall windows' overlapping last block), N = 16 and 17 (one
// block, a block and one row, both tall walks), windows that do not
// divide the other side (63 * 63 * 61, 5 * 157, 9 * 61), pieces of N off
// the line grid, 1, 2 and
// 3 threads (3 splitting the tall fold's C), the inverse, vector and
// 64-byte aligned buffers.
TEST(ExecutorFastPaths, WindowedTransposes) {
    std::vector<ConvertSpec> cases;
    for (DType t : all_dtypes()) {
        if (bits(t) == 4) continue;  // nibbles
        cases.push_back(past_8mib(spec(Format::NHWC, Format::HWCN, {37, 63, 9, 61}, t, 0), 2));
        cases.push_back(past_8mib(spec(Format::HWCN, Format::NHWC, {63, 9, 61, 37}, t, 0), 1));
        cases.push_back(past_8mib(spec(Format::HWCN, Format::NCHW, {63, 9, 5, 37}, t, 0), 1));
        cases.push_back(past_8mib(spec(Format::NCHW, Format::HWCN, {37, 5, 9, 61}, t, 0), 1));
    }
    for (int64_t n : {16, 17}) {
        cases.push_back(
            past_8mib(spec(Format::NCHW, Format::HWCN, {n, 7, 9, 61}, DType::int8, 0), 1));
        cases.push_back(
            past_8mib(spec(Format::NHWC, Format::HWCN, {n, 63, 9, 61}, DType::int8, 0), 2));
    }
    // 1-byte source rows a multiple of 4 KiB apart, each block's window
    // copied into a buffer first (tall_stage, finding 43): NHWC -> HWCN
    // (H*W*C = 4,096 k; N = 37, the overlapping last block from the buffer
    // too), NCHW -> HWCN with C folded in (H*W = 4,096), ND -> FRACTAL_ZN
    // (N = 4,096)
    for (DType t : {DType::int8, DType::fp8_e4m3fn}) {
        cases.push_back(past_8mib(spec(Format::NHWC, Format::HWCN, {37, 8, 8, 64}, t, 0), 1));
        cases.push_back(past_8mib(spec(Format::NCHW, Format::HWCN, {37, 5, 64, 64}, t, 0), 1));
        cases.push_back(past_8mib(spec(Format::ND, Format::FRACTAL_ZN, {32, 4096}, t, 0), 0));
    }
    const std::vector<ConvertSpec> more = {
        past_8mib(spec(Format::NCHW, Format::HWCN, {37, 5, 157, 23}, DType::fp16, 0), 3),
        past_8mib(spec(Format::NCHW, Format::HWCN, {37, 5, 157, 23}, DType::int8, 0), 3),
        past_8mib(spec(Format::HWCN, Format::NCHW, {157, 23, 5, 37}, DType::fp32, 0), 1),
        past_8mib(spec(Format::NCHW, Format::NHWC, {3, 61, 157, 161}, DType::fp16, 0), 0),
    };
    cases.insert(cases.end(), more.begin(), more.end());
    for (const ConvertSpec& sp : cases) {
        detail::Gather g;
        int w = 0;
        plan_window(sp, g, w);
        if (HasFatalFailure()) return;
        const detail::Level& y = g.levels[g.levels.size() - 2];
        const detail::Level& x = g.levels.back();
        EXPECT_NE(w, 0) << name(sp.from) << " " << to_string(sp.shape) << " " << name(sp.dtype);
        if (sp.from == Format::NHWC) {  // gather_tall, the tall windows without a fold
            EXPECT_EQ(w, static_cast<int>(detail::Tile<uint8_t>::Window::tall))
                << to_string(sp.shape) << " " << name(sp.dtype);
        }
        // NCHW <-> HWCN: three levels whose outer one continues the tile's
        // destination rows (tall) or source rows (wide), so the windows
        // fold C in (executor.cpp's window_folded)
        const bool tall = sp.from == Format::NCHW && sp.to == Format::HWCN;
        if (tall || (sp.from == Format::HWCN && sp.to == Format::NCHW)) {
            ASSERT_EQ(g.levels.size(), 3u) << to_string(sp.shape) << " " << name(sp.dtype);
            const detail::Level& c = g.levels[0];
            EXPECT_EQ(g.mask, 0u);
            if (tall)
                EXPECT_TRUE(x.dst_stride == 1 && c.dst_stride == x.size) << to_string(sp.shape);
            else
                EXPECT_TRUE(y.src_stride == 1 && c.src_stride == y.size) << to_string(sp.shape);
        }
    }
    check_cases(cases, Big::src);
    if (HasFatalFailure()) return;
    check_cases_aligned(more);
    if (HasFatalFailure()) return;
    ConvertSpec sp = more.front();
    sp.pad_value = pad_of(sp.dtype);
    check(sp, 3);
    // the tall fold with C (440) split between three threads: pieces of
    // one destination row written by two threads, each flushing its carry
    check(past_8mib(spec(Format::NCHW, Format::HWCN, {37, 5, 9, 61}, DType::int8, 0), 1), 3);
}

// Tiled scatters past 8 MiB whose plain rows are 8 or more far apart write
// them in windows through a buffer (Tile::scatter_tall, finding 27): the
// inverses of NCHW -> NC1HWC0 (H*W = 63 * 61: a window remainder; C = 40 in
// fp16, a padded C1 whose tiles keep the old path), NCDHW -> NDC1HWC0
// with 28 x 28 planes and D = 4 (plain rows a whole number of lines apart,
// every other tile's rows 32 bytes into a line: normal stores up to it;
// fails when those are skipped), ND -> FRACTAL_ZN and HWCN -> FRACTAL_Z, every
// byte dtype, 1 and 2 threads, vector and 64-byte aligned buffers.
// Each case planned as tall windows of more rows than window_rows(); with
// dy_on_grid, its destination rows also a multiple of 64 bytes apart (the
// blocks of finding 52).
void expect_tall_past_window_rows(const std::vector<ConvertSpec>& cases, bool dy_on_grid = false) {
    for (const ConvertSpec& sp : cases) {
        detail::Gather g;
        int w = 0;
        plan_window(sp, g, w);
        if (::testing::Test::HasFatalFailure()) return;
        const detail::Level& x = g.levels.back();
        const detail::Level& y = g.levels[g.levels.size() - 2];
        EXPECT_GT(x.size, detail::Tile<uint8_t>::window_rows()) << to_string(sp.shape);
        if (dy_on_grid) {
            EXPECT_EQ((y.dst_stride * bits(sp.dtype) / 8) % 64, 0) << to_string(sp.shape);
        }
        EXPECT_EQ(w, static_cast<int>(detail::Tile<uint8_t>::Window::tall))
            << name(sp.from) << " " << to_string(sp.shape) << " " << name(sp.dtype);
    }
}

// Tall windows of more rows than one window buffer held before finding 50
// (512): NHWC -> HWCN with N = 601 (every dtype the byte tiles take; the
// blocks prefetch the rows 64 on, across into the next window, and the
// ragged last block), N = 4,099 int8 and fp16 (past 4,096 rows: two even
// strips, each piece of a destination row strided), and NCHW -> HWCN with
// N = 601 (too many rows for the fold: tall windows one c at a time). Each
// is planned tall and checked element by element, 1 and 2 threads, and
// the fold is asserted off where N passes window_rows().
TEST(ExecutorFastPaths, TallWindowsOfManyRows) {
    EXPECT_EQ(detail::Tile<uint8_t>::window_rows(), 512);
    std::vector<ConvertSpec> cases;
    for (DType t : all_dtypes()) {
        if (bits(t) == 4) continue;
        cases.push_back(past_8mib(spec(Format::NHWC, Format::HWCN, {601, 3, 5, 64}, t, 0), 1));
    }
    for (DType t : {DType::int8, DType::fp16})
        cases.push_back(past_8mib(spec(Format::NHWC, Format::HWCN, {4099, 2, 1, 520}, t, 0), 1));
    cases.push_back(
        past_8mib(spec(Format::NCHW, Format::HWCN, {601, 3, 9, 61}, DType::fp16, 0), 1));
    cases.push_back(
        past_8mib(spec(Format::NCHW, Format::HWCN, {601, 3, 9, 61}, DType::int8, 0), 1));
    expect_tall_past_window_rows(cases);
    if (HasFatalFailure()) return;
    check_cases(cases, Big::dst);
}

// Tall tiles past window_rows() whose destination rows all start at one
// offset into a line (dy = C x N a multiple of 64 bytes) go in blocks of
// source rows (Tile::gather_tall_blocks, finding 52): NCHW -> HWCN int8
// with C = 8 and N = 520 (each c's tile starts at its own offset into a
// line, so each has its own first block; ragged last blocks; H x W =
// 2,031, not a whole number of B), fp16 with C = 32 and N = 520, and fp32 with
// N = 608 and H x W = 3,505 (two chunks of rows, the second ragged). Each
// is planned tall, past 8 MiB, and checked element by element both ways
// on 1 and 2 threads.
TEST(ExecutorFastPaths, TallBlocksOfSourceRows) {
    const std::vector<ConvertSpec> cases = {
        spec(Format::NCHW, Format::HWCN, {520, 8, 3, 677}, DType::int8, 0),
        spec(Format::NCHW, Format::HWCN, {520, 32, 7, 37}, DType::fp16, 0),
        spec(Format::NCHW, Format::HWCN, {608, 1, 5, 701}, DType::fp32, 0),
    };
    expect_tall_past_window_rows(cases, true);
    if (HasFatalFailure()) return;
    check_cases(cases, Big::dst);
}

TEST(ExecutorFastPaths, WindowedScatters) {
    std::vector<ConvertSpec> cases;
    for (DType t : all_dtypes()) {
        if (bits(t) == 4) continue;
        cases.push_back(past_8mib(spec(Format::NCHW, Format::NC1HWC0, {1, 64, 63, 61}, t, 0), 0));
        cases.push_back(
            past_8mib(spec(Format::NCDHW, Format::NDC1HWC0, {1, 32, 4, 28, 28}, t, 0), 0));
    }
    const std::vector<ConvertSpec> more = {
        past_8mib(spec(Format::NCHW, Format::NC1HWC0, {1, 40, 63, 61}, DType::fp16, 0), 0),
        past_8mib(spec(Format::ND, Format::FRACTAL_ZN, {1000, 4100}, DType::fp16, 0), 0),
        past_8mib(spec(Format::ND, Format::FRACTAL_ZN, {1000, 4100}, DType::int8, 0), 0),
        past_8mib(spec(Format::HWCN, Format::FRACTAL_Z, {3, 3, 256, 1001}, DType::fp32, 0), 3),
        past_8mib(spec(Format::NCDHW, Format::NDC1HWC0, {1, 32, 4, 28, 28}, DType::fp32, 0), 0),
    };
    cases.insert(cases.end(), more.begin(), more.end());
    check_cases(cases, Big::src);
    if (HasFatalFailure()) return;
    check_cases_aligned(more);
}

// Tiled gathers of small whole tiles move them block by block, without a
// Tile::gather call per tile (small_tiles_fit in executor.cpp): the
// composed FRACTAL_NZ <-> FRACTAL_ZN (one fractal a tile) in every byte
// dtype, in cache and past 8 MiB (streamed; 1-byte types through a
// buffer, their blocks opening 8 lines), a batch axis, 1 and 2 threads,
// vector and 64-byte aligned buffers. check() runs each inverse too.
TEST(ExecutorFastPaths, SmallTilesBlockByBlock) {
    std::vector<ConvertSpec> small_cases, big;
    for (DType t : all_dtypes()) {
        if (bits(t) == 4) continue;
        small_cases.push_back(spec(Format::FRACTAL_NZ, Format::FRACTAL_ZN, {2, 96, 160}, t, 0));
        big.push_back(past_8mib(spec(Format::FRACTAL_NZ, Format::FRACTAL_ZN, {64, 2048}, t, 0), 0));
    }
    check_cases(small_cases);
    if (HasFatalFailure()) return;
    check_cases(big, Big::src);
    if (HasFatalFailure()) return;
    std::vector<ConvertSpec> aligned;
    for (const ConvertSpec& sp : big)
        if (sp.dtype == DType::int8 || sp.dtype == DType::fp16) aligned.push_back(sp);
    check_cases_aligned(aligned);
}

// int4 nibble transposes past 8 MiB (NibbleTransposePolicy, streamed),
// each forward and back, 1 and 2 threads: input rows prefetched ahead
// (NCHW -> NHWC, C = 64); long output rows in chunks through a buffer, the
// last part line of each piece carried to the next (NC1HWC0 -> NCHW, rows
// of 1,596 bytes off the line grid, hw = 3,192 ragged against the chunks
// and the blocks; FRACTAL_Z -> HWCN; FRACTAL_ZN -> ND); a ragged edge as
// overlapping whole blocks (NHWC -> NCHW, C = 56, h*w = 1,188 and 1,190:
// both edges); the level above the tile folded in (HWCN -> NCHW, N = 56,
// h*w = 6,882 ragged against the fold; C = 128, which two threads split);
// padded short rows streamed whole (NCDHW -> NDC1HWC0, C = 32 and C = 96:
// a full C1 and a half one); input rows 2,048 bytes apart staged (NCHW ->
// NHWC, C = 96, h*w = 4,096; finding 43). Every case keeps even strides, which
// nibble_transposes asks for (an odd h*w goes to NibbleBytesTilePolicy).
TEST(ExecutorFastPaths, Int4NibbleTransposesStreamed) {
    const DType t = DType::int4;
    const std::vector<ConvertSpec> cases = {
        past_8mib(spec(Format::NCHW, Format::NHWC, {1, 64, 40, 41}, t, 0), 0),
        past_8mib(spec(Format::NCHW, Format::NC1HWC0, {1, 64, 56, 57}, t, 0), 0),
        past_8mib(spec(Format::HWCN, Format::FRACTAL_Z, {3, 3, 64, 4000}, t, 0), 3),
        past_8mib(spec(Format::ND, Format::FRACTAL_ZN, {64, 4096}, t, 0), 0),
        past_8mib(spec(Format::NCHW, Format::NHWC, {1, 96, 64, 64}, t, 0), 0),
        past_8mib(spec(Format::NHWC, Format::NCHW, {1, 33, 36, 56}, t, 0), 0),
        past_8mib(spec(Format::NHWC, Format::NCHW, {1, 34, 35, 56}, t, 0), 0),
        past_8mib(spec(Format::HWCN, Format::NCHW, {37, 62, 56, 56}, t, 0), 1),
        past_8mib(spec(Format::HWCN, Format::NCHW, {16, 62, 128, 56}, t, 0), 1),
        past_8mib(spec(Format::NCDHW, Format::NDC1HWC0, {1, 32, 4, 28, 28}, t, 0), 0),
        past_8mib(spec(Format::NCDHW, Format::NDC1HWC0, {1, 96, 3, 20, 21}, t, 0), 0),
    };
    check_cases(cases, Big::src);
    if (HasFatalFailure()) return;
    // the same walks unstreamed, at their unscaled sizes
    std::vector<ConvertSpec> small_cases;
    for (ConvertSpec sp : cases) {
        sp.shape[0] = std::min<int64_t>(sp.shape[0], 2);
        small_cases.push_back(sp);
    }
    check_cases(small_cases);
}

// int4 gathers whose plain rows start on a byte and whose blocked rows of
// an odd N do not (NibbleBytesTilePolicy::gather_rows, finding 33), in
// cache and past 8 MiB (streamed), forward and back:
//  * NCHW -> HWCN with an even H*W: the rows of C back to back in each
//    HWCN row, one pass over all of them. C = 64 (C*N = 2,368 nibbles,
//    whole bytes: chunks of 512 whose blocks of 32 rows cross from one c
//    to the next, and streamed, the carried part lines) and C = 63 (every
//    other HWCN row mid-byte: shifted copies); C = 5 (C*N = 185: a band
//    packed into one piece); h*w ragged against the bands of 128;
//  * NCHW -> HWCN with an odd H*W: one c at a time, the even ones through
//    gather_rows, the odd ones (plain rows mid-byte) through the pieces;
//  * NHWC -> HWCN: the rows back to back, a band packed into one piece
//    (N = 37), and N = 2,049 past the packed limit (rows one by one, every
//    other mid-byte).
TEST(ExecutorFastPaths, Int4RowsMidByteFromWholeBytes) {
    const DType t = DType::int4;
    const std::vector<ConvertSpec> small = {
        spec(Format::NCHW, Format::HWCN, {37, 64, 8, 8}, t, 0),
        spec(Format::NCHW, Format::HWCN, {37, 63, 8, 8}, t, 0),
        spec(Format::NCHW, Format::HWCN, {37, 5, 12, 11}, t, 0),
        spec(Format::NCHW, Format::HWCN, {37, 64, 9, 23}, t, 0),
        spec(Format::NCHW, Format::HWCN, {1, 3, 8, 8}, t, 0),
        spec(Format::NHWC, Format::HWCN, {37, 9, 13, 6}, t, 0),
        spec(Format::NHWC, Format::HWCN, {2049, 3, 4, 3}, t, 0),
    };
    check_cases(small);
    if (HasFatalFailure()) return;
    const std::vector<ConvertSpec> big = {
        spec(Format::NCHW, Format::HWCN, {37, 64, 96, 96}, t, 0),
        spec(Format::NCHW, Format::HWCN, {37, 63, 96, 96}, t, 0),
        past_8mib(spec(Format::NCHW, Format::HWCN, {37, 5, 12, 11}, t, 0), 2),
        past_8mib(spec(Format::NHWC, Format::HWCN, {37, 9, 13, 6}, t, 0), 1),
    };
    check_cases(big, Big::dst);
}

// int4 runs whose plain rows start mid-byte, in strips (strip_runs,
// finding 34): ND <-> FRACTAL_NZ with an odd N, forward and back, in cache
// and past 8 MiB (streamed). M = 100 and 301 pad the last strip of 8 rows;
// N = 4,095 leaves a last run of 63 nibbles, N = 65 one of 1 and N = 129
// three runs; a batch of 3 (batches on whole bytes) and of 2 with an odd
// M * N (the second batch's rows start on the other half of a byte). Also
// NHWC -> NC1HWC0 with C = 131 (a last C1 of 3) and H*W = 72, whose
// levels take the same form (strips of 8 pixels, the C1 runs).
TEST(ExecutorFastPaths, Int4RunsInStrips) {
    const DType t = DType::int4;
    const std::vector<ConvertSpec> small = {
        spec(Format::ND, Format::FRACTAL_NZ, {100, 4095}, t, 0),
        spec(Format::ND, Format::FRACTAL_NZ, {300, 65}, t, 0),
        spec(Format::ND, Format::FRACTAL_NZ, {3, 100, 4095}, t, 0),
        spec(Format::ND, Format::FRACTAL_NZ, {2, 301, 129}, t, 0),
        spec(Format::NHWC, Format::NC1HWC0, {1, 8, 9, 131}, t, 0),
    };
    check_cases(small);
    if (HasFatalFailure()) return;
    const std::vector<ConvertSpec> big = {
        past_8mib(spec(Format::ND, Format::FRACTAL_NZ, {100, 4095}, t, 0), 0),
        past_8mib(spec(Format::ND, Format::FRACTAL_NZ, {2, 301, 129}, t, 0), 1),
    };
    check_cases(big, Big::src);
}

// int4 rows of a few nibbles padded to a C0 row of 32 bytes, built in
// registers (NibblePolicy::partial_rows, finding 35): NHWC -> NC1HWC0 with
// C = 3, 5 and 14 (the most a row takes), C = 15 (the nibble walk), and
// C = 67 (a last C1 of 3), in cache and past 8 MiB (streamed), forward and
// back; odd pixel counts, so the last rows sit at the source's end (where
// the 8-byte load would pass it) and start on either half of a byte.
TEST(ExecutorFastPaths, Int4ShortPaddedRows) {
    const DType t = DType::int4;
    const std::vector<ConvertSpec> small = {
        spec(Format::NHWC, Format::NC1HWC0, {3, 5, 7, 3}, t, 0),
        spec(Format::NHWC, Format::NC1HWC0, {1, 9, 11, 5}, t, 0),
        spec(Format::NHWC, Format::NC1HWC0, {2, 3, 5, 14}, t, 0),
        spec(Format::NHWC, Format::NC1HWC0, {2, 3, 5, 15}, t, 0),
        spec(Format::NHWC, Format::NC1HWC0, {1, 3, 5, 67}, t, 0),
    };
    check_cases(small);
    if (HasFatalFailure()) return;
    const std::vector<ConvertSpec> big = {
        spec(Format::NHWC, Format::NC1HWC0, {1, 577, 577, 3}, t, 0),
        spec(Format::NHWC, Format::NC1HWC0, {1, 577, 577, 5}, t, 0),
    };
    check_cases(big, Big::dst);
}

// int4 gathers of a few plain rows into padded C0 rows, built in registers
// (few_rows, finding 35): through the nibble transposes (NCHW -> NC1HWC0,
// even H*W: C = 3, 5 and 14; C = 15 keeps the blocks) and through the
// byte tiles (odd H*W: plain rows mid-byte; FRACTAL_Z with 7x7 and 3x3
// kernels and C = 3, whose 32-byte rows of n0 are not streamed), in cache
// and past 8 MiB, forward and back, 1 and 2 threads.
TEST(ExecutorFastPaths, Int4FewRowsIntoC0) {
    const DType t = DType::int4;
    const std::vector<ConvertSpec> small = {
        spec(Format::NCHW, Format::NC1HWC0, {2, 3, 6, 8}, t, 0),
        spec(Format::NCHW, Format::NC1HWC0, {2, 5, 4, 6}, t, 0),
        spec(Format::NCHW, Format::NC1HWC0, {2, 14, 4, 6}, t, 0),
        spec(Format::NCHW, Format::NC1HWC0, {2, 15, 4, 6}, t, 0),
        spec(Format::NCHW, Format::NC1HWC0, {3, 3, 5, 7}, t, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {32, 3, 7, 7}, t, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {19, 3, 3, 3}, t, 0),
    };
    check_cases(small);
    if (HasFatalFailure()) return;
    const std::vector<ConvertSpec> big = {
        spec(Format::NCHW, Format::NC1HWC0, {2, 3, 256, 640}, t, 0),
        spec(Format::NCHW, Format::NC1HWC0, {4, 3, 255, 333}, t, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {6000, 3, 7, 7}, t, 0),
    };
    check_cases(big, Big::dst);
}

// int4 nibble transposes with fewer than 32 long output rows (NHWC ->
// NCHW and NDHWC -> NCDHW with an even C < 32): one row of 32 x 32 blocks
// read 32 nibbles wide across the short input rows, vy rows stored per
// chunk, streamed and carried past 8 MiB. Ragged last columns (H*W % 32 !=
// 0) go to the part blocks; where the last block's 16-byte reads would
// pass the source's end (the last n), that tile keeps the part blocks.
// Forward and back, 1 and 2 threads.
TEST(ExecutorFastPaths, Int4FewLongRows) {
    const DType t = DType::int4;
    const std::vector<ConvertSpec> small = {
        spec(Format::NHWC, Format::NCHW, {2, 10, 17, 28}, t, 0),
        spec(Format::NHWC, Format::NCHW, {3, 1, 200, 2}, t, 0),
        spec(Format::NHWC, Format::NCHW, {2, 12, 15, 30}, t, 0),
        spec(Format::NHWC, Format::NCHW, {2, 8, 20, 6}, t, 0),
        spec(Format::NDHWC, Format::NCDHW, {2, 3, 8, 10, 28}, t, 0),
    };
    check_cases(small);
    if (HasFatalFailure()) return;
    const std::vector<ConvertSpec> big = {
        spec(Format::NHWC, Format::NCHW, {2, 512, 600, 28}, t, 0),
        spec(Format::NHWC, Format::NCHW, {2, 1024, 601, 14}, t, 0),
    };
    check_cases(big, Big::dst);
}

// int4 gathers of short plain rows back to back into blocked rows (the 9,
// 25 or 27 nibbles of 3x3, 5x5 and 3x3x3 kernels into FRACTAL_Z and
// FRACTAL_Z_3D with C <= 64; kernel_rows, finding 37): kernel pairs
// through a 16 x 16 byte transpose, one or two row groups (25, 27 > 16),
// tiles starting mid-byte (C = 65, odd n), a chunk of 512 and one of 32
// (NCHW -> HWCN, N = 544), short output rows stored in place and long
// ones through the buffer, streamed
// past 8 MiB; there the 3x3 and 5x5 tiles of 8 values of n in one piece
// (kernel_batch; a padded N walks tile by tile). C = 128 with 3x3x3
// kernels (D apart from H*W: plain stride 27, rows of 9) and C = 48 (C0
// padded) keep the byte tiles. Long chunks through
// the AVX2 transpose where the CPU has it, and through the SSE2 one.
// With AVX2, kernels of 64 (a tile's C0) go packed straight through the
// pair shuffles (finding 41): 3, 7, 9 and 15 nibbles (one register), 25
// and 27 (two), runs on a byte and mid-byte, the last pair's loads and
// stores at the tensor's end.
// Forward and back, 1 and 2 threads.
TEST(ExecutorFastPaths, Int4KernelRows) {
    const DType t = DType::int4;
    const std::vector<ConvertSpec> small = {
        spec(Format::NCHW, Format::FRACTAL_Z, {20, 64, 3, 3}, t, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {17, 256, 3, 3}, t, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {5, 48, 3, 3}, t, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {16, 64, 5, 5}, t, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {32, 64, 1, 3}, t, 0),
        spec(Format::NCDHW, Format::FRACTAL_Z_3D, {16, 64, 3, 3, 3}, t, 0),
        spec(Format::NCDHW, Format::FRACTAL_Z_3D, {33, 64, 3, 3, 3}, t, 0),
        spec(Format::NCDHW, Format::FRACTAL_Z_3D, {48, 128, 3, 3, 3}, t, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {3, 65, 3, 3}, t, 0),
        spec(Format::NCHW, Format::HWCN, {544, 1, 3, 3}, t, 0),
        // the packed scatter's (AVX2) other kernel sizes: 15 nibbles (its
        // largest odd one: one byte of each pair store left over), 7
        // (with C = 65, runs mid-byte for odd n)
        spec(Format::NCHW, Format::FRACTAL_Z, {18, 128, 3, 5}, t, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {5, 65, 1, 7}, t, 0),
    };
    check_cases(small);
    if (HasFatalFailure()) return;
    // C0 = 32: tiles of 32 kernels, which take the unpacked bytes with
    // AVX2 too (the packed kernels need whole 64-kernel groups)
    ConvertSpec c32 = spec(Format::NCHW, Format::FRACTAL_Z, {17, 33, 3, 3}, t, 0);
    c32.c0 = 32;
    check_cases({c32});
    if (HasFatalFailure()) return;
    const std::vector<ConvertSpec> big = {
        spec(Format::NCHW, Format::FRACTAL_Z, {8000, 256, 3, 3}, t, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {8004, 256, 3, 3}, t, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {14003, 192, 3, 3}, t, 0),
        spec(Format::NCHW, Format::FRACTAL_Z, {6016, 128, 5, 5}, t, 0),
        spec(Format::NCDHW, Format::FRACTAL_Z_3D, {10000, 64, 3, 3, 3}, t, 0),
    };
    check_cases(big, Big::dst);
    if (HasFatalFailure()) return;
    // chunks of 256 kernels or more take the AVX2 transpose where the CPU
    // has it: the same cases through the SSE2 one
    if (!detail::kCpuAvx2) return;
    const bool avx2 = detail::nibble_avx2();
    SCOPED_TRACE("SSE2 kernel");
    detail::nibble_avx2() = false;
    check_cases(small);
    if (!HasFatalFailure()) check_cases(big, Big::dst);
    detail::nibble_avx2() = avx2;
}

// Copy scatters whose walk writes the plain tensor front to back, streamed
// (writes_plain_in_order): padded C0 rows of which whole 16-byte pieces are
// data, back to back on the plain side (NDC1HWC0 -> NDHWC int4 with C = 32,
// int8 C = 16, fp16 C = 8; NC1HWC0 -> NHWC fp32 C = 4 and int4 C = 32),
// past 8 MiB, 1 and 2 threads, vector and 64-byte aligned buffers; and one
// whose last C1 is partial (C = 40 int8), which must keep the other walk.
TEST(ExecutorFastPaths, StreamedScattersInPlainOrder) {
    const std::vector<ConvertSpec> cases = {
        past_8mib(spec(Format::NDHWC, Format::NDC1HWC0, {1, 8, 28, 28, 32}, DType::int4, 0), 0),
        past_8mib(spec(Format::NDHWC, Format::NDC1HWC0, {1, 8, 28, 28, 16}, DType::int8, 0), 0),
        past_8mib(spec(Format::NDHWC, Format::NDC1HWC0, {1, 8, 28, 28, 8}, DType::fp16, 0), 0),
        past_8mib(spec(Format::NHWC, Format::NC1HWC0, {1, 56, 56, 4}, DType::fp32, 0), 0),
        past_8mib(spec(Format::NHWC, Format::NC1HWC0, {1, 56, 55, 32}, DType::int4, 0), 0),
        past_8mib(spec(Format::NHWC, Format::NC1HWC0, {1, 56, 56, 40}, DType::int8, 0), 0),
    };
    check_cases(cases, Big::src);
    if (HasFatalFailure()) return;
    check_cases_aligned(cases);
}
