// Follow one element, staged motion and layout comparison (core/format/
// narrate.hpp, core/motion.hpp, core/compare.hpp) and the inspector's address
// of a cell (core/format/cell_address.hpp): the words, the waves and
// the differing cells are checked against hand-worked cases of the
// documents' ND -> FRACTAL_NZ example and against the element maps.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/compare.hpp"
#include "core/error.hpp"
#include "core/format/cell_address.hpp"
#include "core/format/format.hpp"
#include "core/format/format_plan.hpp"
#include "core/format/narrate.hpp"
#include "core/motion.hpp"

using namespace ll;

namespace {

Plan plan_of(Format from, Format to, Shape s, DType t) {
    return format_plan({make_pipeline({from, to, std::move(s), t})});
}

}  // namespace

// ND (2,28) fp16 -> NZ: source element 31 is row 1, column 3; it lands in
// fractal (0,0) at row 1, column 3, element offset 16 + 3 = 19, byte 38.
TEST(Narrate, NdToNzGolden) {
    Plan p = plan_of(Format::ND, Format::FRACTAL_NZ, {2, 28}, DType::fp16);
    int64_t c = cell_of_source(p, 31);
    ASSERT_EQ(c, 19);
    EXPECT_EQ(narration(p, c),
              "row 1, column 3 -> (M1,M0,N1,N0) (0,1,0,3) -> fractal (0,0), row 1, column 3 "
              "-> offset 19, byte 0x26");
    std::vector<std::string> want = {
        "source ND: row 1, column 3", "pad: stays at row 1, column 3",
        "reshape: row 1, column 3 -> (M1,M0,N1,N0) (0,1,0,3)",
        "transpose(2,0,1,3): (M1,M0,N1,N0) (0,1,0,3) -> fractal (0,0), row 1, column 3",
        "memory FRACTAL_NZ: fractal (0,0), row 1, column 3 -> offset 19, byte 0x26"};
    ASSERT_EQ(p.stages.size(), want.size());
    for (size_t k = 0; k < want.size(); ++k) EXPECT_EQ(narrate_step(p, k, c), want[k]) << k;
    // Column 20 goes to the second fractal along N: N1 = 1, offset 256 + 20 - 16.
    int64_t c20 = cell_of_source(p, 20);
    EXPECT_EQ(c20, 256 + 4);
    EXPECT_EQ(where_at(p, 3, c20), "fractal (1,0), row 0, column 4");
    EXPECT_EQ(where_at(p, 4, c20), "offset 260, byte 0x208");
}

// With a batch axis: the padded matrix (B, M1*M0, N1*N0) is not a fractal
// layout yet (its axes are merged names); the transposed one is.
TEST(Narrate, BatchedNdToNz) {
    Plan p = plan_of(Format::ND, Format::FRACTAL_NZ, {2, 2, 28}, DType::fp16);
    int64_t c = cell_of_source(p, 31);
    ASSERT_EQ(c, 19);
    EXPECT_EQ(narration(p, c),
              "(B,M,N) (0,1,3) -> (B,M1*M0,N1*N0) (0,1,3) -> (B,M1,M0,N1,N0) (0,0,1,0,3) -> "
              "fractal (0,0,0), row 1, column 3 -> offset 19, byte 0x26");
}

// A padding cell is "not there yet" at the source and appears at the pad step.
TEST(Narrate, PaddingAppearsAtThePadStep) {
    Plan p = plan_of(Format::ND, Format::FRACTAL_NZ, {2, 28}, DType::fp16);
    ASSERT_LT(p.src[40], 0);
    EXPECT_EQ(narrate_step(p, 0, 40),
              "padding element, source ND: not there yet (padding added later)");
    EXPECT_EQ(narrate_step(p, 1, 40), "padding element, pad: appears at row 2, column 8");
    EXPECT_EQ(narration(p, 40),
              "padding -> row 2, column 8 -> (M1,M0,N1,N0) (0,2,0,8) -> fractal (0,0), row 2, "
              "column 8 -> offset 40, byte 0x50");
}

// NCHW (1,20,2,2) -> NC1HWC0 (C0 16): channel 4, h 0, w 1 is source 17 and
// sits at (n,c1,h,w,c0) = (0,0,0,1,4): offset (0*2+1)*16 + 4 = 20.
TEST(Narrate, Nc1hwc0NamesItsAxes) {
    Plan p = plan_of(Format::NCHW, Format::NC1HWC0, {1, 20, 2, 2}, DType::fp16);
    int64_t c = cell_of_source(p, 17);
    ASSERT_GE(c, 0);
    EXPECT_EQ(narration(p, c),
              "(N,C,H,W) (0,4,0,1) -> (N,C1*C0,H,W) (0,4,0,1) -> (N,C1,C0,H,W) (0,0,4,0,1) -> "
              "(N,C1,H,W,C0) (0,0,0,1,4) -> offset 20, byte 0x28");
    // Channel 17 is C1 = 1, C0 = 1: offset (((0*2+1)*2+0)*2+0)*16 + 1 = 65.
    int64_t c17 = cell_of_source(p, 17 * 4);  // c 17, h 0, w 0
    EXPECT_EQ(where_at(p, p.stages.size() - 1, c17), "offset 65, byte 0x82");
}

// int4: two elements per byte, the odd one in the high nibble.
TEST(Narrate, Int4SaysWhichNibble) {
    Plan p = plan_of(Format::ND, Format::FRACTAL_NZ, {2, 28}, DType::int4);
    size_t last = p.stages.size() - 1;
    int64_t c = cell_of_source(p, 1);  // row 0, column 1: offset 1
    EXPECT_EQ(where_at(p, last, c), "offset 1, byte 0x0 (high nibble)");
    EXPECT_EQ(where_at(p, last, cell_of_source(p, 0)), "offset 0, byte 0x0 (low nibble)");
}

TEST(Narrate, OutOfRangeIsEmptyNotACrash) {
    Plan p = plan_of(Format::ND, Format::FRACTAL_NZ, {2, 28}, DType::fp16);
    EXPECT_EQ(narration(p, -1), "");
    EXPECT_EQ(narration(p, p.cell_count), "");
    EXPECT_EQ(narrate_step(p, 99, 0), "");
    EXPECT_EQ(cell_of_source(p, 56), -1);
    EXPECT_EQ(cell_of_source(p, -3), -1);
}

// transpose -> memory of ND (2,28) -> NZ by block: one wave per 512-byte
// fractal, in address order (cells 0..255 first).
TEST(Waves, NzMemoryStepMovesOneFractalAtATime) {
    Plan p = plan_of(Format::ND, Format::FRACTAL_NZ, {2, 28}, DType::fp16);
    Waves w = stage_waves(p, 3, WaveBy::block);
    ASSERT_EQ(w.count, 2);
    for (int64_t i = 0; i < 512; ++i) EXPECT_EQ(w.wave[size_t(i)], i < 256 ? 0 : 1) << i;
    // By row: one wave per 32-byte row (16 fp16), 32 rows.
    Waves r = stage_waves(p, 3, WaveBy::row);
    ASSERT_EQ(r.count, 32);
    for (int64_t i = 0; i < 512; ++i) EXPECT_EQ(r.wave[size_t(i)], i / 16) << i;
    // Capped: 32 rows into 8 waves of 4 rows.
    Waves c = stage_waves(p, 3, WaveBy::row, 8);
    ASSERT_EQ(c.count, 8);
    for (int64_t i = 0; i < 512; ++i) EXPECT_EQ(c.wave[size_t(i)], i / 64) << i;
    // none, and past the last stage: all at once.
    EXPECT_EQ(stage_waves(p, 3, WaveBy::none).count, 1);
    EXPECT_EQ(stage_waves(p, 4, WaveBy::row).count, 1);
}

// Waves follow the destination: along the next stage's offsets the wave
// number never decreases, on every step of a few conversions.
TEST(Waves, OrderedAlongTheDestination) {
    std::vector<Plan> plans;
    plans.push_back(plan_of(Format::ND, Format::FRACTAL_NZ, {3, 40, 20}, DType::fp16));
    plans.push_back(plan_of(Format::NCHW, Format::NC1HWC0, {1, 20, 3, 5}, DType::int8));
    plans.push_back(plan_of(Format::ND, Format::FRACTAL_ZN, {20, 36}, DType::fp32));
    for (const Plan& p : plans)
        for (size_t k = 0; k + 1 < p.stages.size(); ++k)
            for (WaveBy by : {WaveBy::row, WaveBy::block}) {
                Waves w = stage_waves(p, k, by);
                if (w.count == 1) continue;
                std::vector<int64_t> off = p.offsets(k + 1);
                std::vector<std::pair<int64_t, int32_t>> v;
                for (size_t i = 0; i < off.size(); ++i)
                    if (off[i] >= 0) v.push_back({off[i], w.wave[i]});
                std::sort(v.begin(), v.end());
                for (size_t i = 1; i < v.size(); ++i)
                    ASSERT_LE(v[i - 1].second, v[i].second) << p.title << " step " << k;
                EXPECT_EQ(v.front().second, 0);
                EXPECT_EQ(v.back().second, w.count - 1);
            }
}

// wave_t: wave w of n moves over [w/(n+1), (w+2)/(n+1)]; one wave is plain t.
TEST(Waves, WaveParameter) {
    EXPECT_FLOAT_EQ(wave_t(0.4f, 0, 1), 0.4f);
    // 3 waves: [0, 0.5], [0.25, 0.75], [0.5, 1].
    EXPECT_FLOAT_EQ(wave_t(0.f, 0, 3), 0.f);
    EXPECT_FLOAT_EQ(wave_t(0.25f, 0, 3), 0.5f);
    EXPECT_FLOAT_EQ(wave_t(0.5f, 0, 3), 1.f);
    EXPECT_FLOAT_EQ(wave_t(0.5f, 2, 3), 0.f);
    EXPECT_FLOAT_EQ(wave_t(0.75f, 2, 3), 0.5f);
    EXPECT_FLOAT_EQ(wave_t(1.f, 2, 3), 1.f);
    EXPECT_FLOAT_EQ(wave_t(0.3f, 1, 3), 0.1f);
    EXPECT_FLOAT_EQ(wave_t(2.f, 1, 3), 1.f);
    EXPECT_EQ(wave_by_from_name("block"), WaveBy::block);
    EXPECT_THROW(wave_by_from_name("fractals"), UsageError);
}

// NZ vs ZN of ND (2,28) fp16, checked against the element maps: element e
// sits at the index of e in each map; 52 of the 56 elements differ.
TEST(Compare, NzVsZnAgreesWithTheElementMaps) {
    Pipeline a = make_pipeline({Format::ND, Format::FRACTAL_NZ, {2, 28}, DType::fp16});
    Pipeline b = make_pipeline({Format::ND, Format::FRACTAL_ZN, {2, 28}, DType::fp16});
    Plan pa = format_plan({a}), pb = format_plan({b});
    LayoutDiff d = compare_layouts(pa, pb);
    ElementMap ma = element_map(a), mb = element_map(b);
    std::vector<int64_t> at_a(56, -1), at_b(56, -1);
    for (size_t i = 0; i < ma.size(); ++i)
        if (ma[i] >= 0) at_a[size_t(ma[i])] = int64_t(i);
    for (size_t i = 0; i < mb.size(); ++i)
        if (mb[i] >= 0) at_b[size_t(mb[i])] = int64_t(i);
    int64_t differ = 0;
    std::vector<int64_t> cells;
    for (size_t e = 0; e < 56; ++e)
        if (at_a[e] != at_b[e]) ++differ, cells.push_back(at_a[e]);
    std::sort(cells.begin(), cells.end());
    EXPECT_TRUE(d.same_source);
    EXPECT_EQ(d.compared, 56);
    EXPECT_EQ(d.offset_differs, differ);
    EXPECT_EQ(d.offset_differs, 52);
    EXPECT_EQ(d.cells_a, cells);
    EXPECT_EQ(d.bytes_a, 1024);
    EXPECT_EQ(d.summary(),
              "52 of 56 elements sit at different offsets (52 at different bytes); A 1024 B, "
              "B 1024 B");
    mark_differences(pa, pb, d);
    EXPECT_EQ(pa.stages.back().highlight, d.cells_a);
    EXPECT_EQ(pb.stages.back().highlight, d.cells_b);
}

// fp16 vs int8 NZ: int8 fractals are 16 x 32, so columns 16..27 of row 0
// stay in fractal 0 at offsets 16..27 (fp16 moves them to fractal 1).
TEST(Compare, Fp16VsInt8) {
    Plan a = plan_of(Format::ND, Format::FRACTAL_NZ, {2, 28}, DType::fp16);
    Plan b = plan_of(Format::ND, Format::FRACTAL_NZ, {2, 28}, DType::int8);
    LayoutDiff d = compare_layouts(a, b);
    EXPECT_EQ(d.compared, 56);
    // Same offset only for columns 0..15 of row 0 (row 1 starts at 16 vs 32).
    EXPECT_EQ(d.offset_differs, 56 - 16);
    // Same byte (2 x fp16 offset == int8 offset): element 0 (0, 0) and
    // element 28, row 1 column 0 (fp16 offset 16 = byte 32, int8 offset 32).
    EXPECT_EQ(d.byte_differs, 54);
    EXPECT_EQ(d.bytes_b, 512);
    // Different source shapes compare nothing.
    Plan c = plan_of(Format::ND, Format::FRACTAL_NZ, {3, 28}, DType::fp16);
    LayoutDiff e = compare_layouts(a, c);
    EXPECT_FALSE(e.same_source);
    EXPECT_EQ(e.compared, 0);
    EXPECT_TRUE(e.cells_a.empty());
}

// cell_address: the inspector's numbers for one cell, by hand on the
// documents' example and on every cell of a few plans against the definitions
// (byte = offset * bits / 8; a fractal is 512 bytes of 32-byte rows).
// ND (2,2,28) fp16 -> NZ: cell 19 holds source (0,1,3) (#31) at destination
// (0,0,0,1,3), offset 19, byte 0x26, fractal 0 row 1 column 3.
TEST(CellAddress, NdToNzByHand) {
    const Plan p = plan_of(Format::ND, Format::FRACTAL_NZ, {2, 2, 28}, DType::fp16);
    const CellAddress a = cell_address(p, 19);
    EXPECT_EQ(a.source, 31);
    EXPECT_EQ(a.logical, (Coord{0, 1, 3}));
    EXPECT_EQ(a.destination, (Coord{0, 0, 0, 1, 3}));
    EXPECT_EQ(a.offset, 19);
    EXPECT_EQ(a.byte, 0x26);
    EXPECT_TRUE(a.fractal);
    EXPECT_EQ(a.fractal_index, 0);
    EXPECT_EQ(a.fractal_row, 1);
    EXPECT_EQ(a.element_in_row, 3);
    EXPECT_FALSE(a.high_nibble);
    // Offset 293 = fractal 1 (256 elements of 2 bytes), row 2, column 5.
    const CellAddress b = cell_address(p, 293);
    EXPECT_EQ(b.byte, 586);
    EXPECT_EQ(b.fractal_index, 1);
    EXPECT_EQ(b.fractal_row, 2);
    EXPECT_EQ(b.element_in_row, 5);
    EXPECT_THROW(cell_address(p, p.cell_count), UsageError);
    EXPECT_THROW(cell_address(p, -1), UsageError);
}

// Every cell: the numbers agree with the plan's offsets and with each other,
// given the offset or not.
TEST(CellAddress, EveryCellAgreesWithThePlan) {
    struct Case {
        Format from, to;
        Shape shape;
        DType t;
        bool fractal;
    };
    const Case cases[] = {
        {Format::ND, Format::FRACTAL_NZ, {3, 40}, DType::fp16, true},
        {Format::ND, Format::FRACTAL_NZ, {5, 70}, DType::int4, true},
        {Format::NCHW, Format::NC1HWC0, {1, 20, 3, 3}, DType::fp32, false},
        {Format::NCHW, Format::NC1HWC0, {1, 3, 2, 2}, DType::int8, false},
    };
    for (const Case& c : cases) {
        const Plan p = plan_of(c.from, c.to, c.shape, c.t);
        const int64_t b = bits(c.t);
        const size_t last = p.stages.size() - 1;
        for (int64_t cell = 0; cell < p.cell_count; ++cell) {
            const CellAddress a = cell_address(p, cell);
            ASSERT_EQ(a.offset, offset_at_stage(p, last, cell));
            EXPECT_EQ(a.fractal, c.fractal);
            EXPECT_EQ(a.byte, a.offset * b / 8);
            EXPECT_EQ(a.high_nibble, b == 4 && a.offset % 2 == 1);
            EXPECT_EQ(a.fractal_index * 512 + a.fractal_row * 32 + a.element_in_row * b / 8,
                      a.byte);
            EXPECT_EQ(a.row32 * 32 + a.element_in_row * b / 8, a.byte);
            EXPECT_EQ(ravel(a.destination, p.stages[last - 1].shape), a.offset);
            if (a.source >= 0) {
                EXPECT_EQ(ravel(a.logical, p.src_shape), a.source);
            }
            const CellAddress given = cell_address(p, cell, a.offset);
            EXPECT_EQ(given.byte, a.byte);
            EXPECT_EQ(given.destination, a.destination);
        }
    }
}
