// The pictures of the views, fusion and AGU panels as Plans (core/view/
// view_plans): golden texts of small cases worked out by hand, the colour key
// (the storage-0 element) of every cell, the hover links, and the layout
// promises (storage 0 keeps its place while stepping; the picture fills the
// canvas).
#include "core/view/view_plans.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "core/error.hpp"
#include "core/plan_text.hpp"
#include "core/view/layout.hpp"

using namespace ll;
using namespace ll::view;

namespace {

const Canvas kCanvas{900, 500, 13};

std::vector<int64_t> srcs(const Plan& p, int64_t first, int64_t n) {
    return {p.src.begin() + first, p.src.begin() + first + n};
}

}  // namespace

// x = (2,3) fp32 at 0x1000: under its caption the strip's column ticks 0..5
// with "address" in the margin, one strip row "0x1000 | 0..5", then the
// grid: ticks 0 1 2 above, rows 0 and 1 on the left. The board is 8 columns
// wide (a 2-column margin that holds "address", 6 cells), so strip cell i
// sits at offset 2*8 + 2 + i and grid cell (r,c) at (6+r)*8 + 2 + c.
TEST(ViewPlans, ViewsGolden) {
    View x = make_view(row_major({2, 3}), 32, 0x1000);
    ViewsScene sc = views_scene(Chain{{x}, {false}}, 0, kCanvas);
    EXPECT_EQ(plan_text(sc.plan),
              "plan \"views\": 12 cells, fp32, source (6), 1 stages\n"
              "stage 0 \"view (2,3)\" (8,8) tensor\n"
              "  formula: address = base + (offset + sum i_d * s_d) * elem_size\n"
              "  offsets: 18 19 20 21 22 23 50 51 52 58 59 60\n"
              "  label caption (0,0.5) \"storage 0 (never moves), 4 B per element\"\n"
              "  label tick (2.5,2) \"0\"\n"
              "  label tick (3.5,2) \"1\"\n"
              "  label tick (4.5,2) \"2\"\n"
              "  label tick (5.5,2) \"3\"\n"
              "  label tick (6.5,2) \"4\"\n"
              "  label tick (7.5,2) \"5\"\n"
              "  label axis (1.85,1.5) \"address\"\n"
              "  label address (2,2.5) \"0x1000\"\n"
              "  label caption (0,4.5) \"view (2,3) strides (3,1) offset 0: each cell shows the "
              "storage-0 element it reads\"\n"
              "  label tick (2.5,6) \"0\"\n"
              "  label tick (3.5,6) \"1\"\n"
              "  label tick (4.5,6) \"2\"\n"
              "  label axis (1.85,5.5) \"i0 \\ i1\"\n"
              "  label tick (2,6.5) \"0\"\n"
              "  label tick (2,7.5) \"1\"\n");
    EXPECT_EQ(sc.plan.src, (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5}));
    EXPECT_EQ(sc.grid_first, 6);
    EXPECT_EQ(sc.strip_first, std::vector<int64_t>{0});
    // Grid cell (1,2) reads storage cell 5, and storage cell 5 is read by it alone.
    EXPECT_EQ(sc.links[11], std::vector<int64_t>{5});
    EXPECT_EQ(sc.links[5], std::vector<int64_t>{11});
    EXPECT_EQ(sc.read, 6);
}

// transpose then reshape of (2,3): the reshape copies. Storage 1 holds the
// transposed order 0 3 1 4 2 5, the (6) view reads it as it lies; storage 0
// keeps its offsets at every step; the grid cell of index 1 links to storage
// 1's cell 1 and to storage 0's element 3.
TEST(ViewPlans, ViewsCopyAndStableStorage) {
    Chain ch = apply_chain(make_view(row_major({2, 3})),
                           {parse_op("transpose:0,1"), parse_op("reshape:6")});
    ASSERT_EQ(ch.copied, (std::vector<bool>{false, false, true}));
    ViewsScene s2 = views_scene(ch, 2, kCanvas);
    ASSERT_EQ(s2.strip_first, (std::vector<int64_t>{0, 6}));
    EXPECT_EQ(srcs(s2.plan, 0, 6), (std::vector<int64_t>{0, 1, 2, 3, 4, 5}));
    EXPECT_EQ(srcs(s2.plan, 6, 6), (std::vector<int64_t>{0, 3, 1, 4, 2, 5}));
    EXPECT_EQ(srcs(s2.plan, s2.grid_first, 6), (std::vector<int64_t>{0, 3, 1, 4, 2, 5}));
    EXPECT_EQ(s2.links[size_t(s2.grid_first + 1)], (std::vector<int64_t>{7, 3}));
    std::vector<int64_t> off2 = s2.plan.offsets(0);
    for (size_t step : {size_t(0), size_t(1)}) {
        ViewsScene s = views_scene(ch, step, kCanvas);
        std::vector<int64_t> off = s.plan.offsets(0);
        EXPECT_TRUE(std::equal(off.begin(), off.begin() + 6, off2.begin())) << step;
        EXPECT_EQ(s.plan.stages[0].shape, s2.plan.stages[0].shape) << step;
    }
    // Step 1 (the transpose) reads storage 0 directly: grid (3,2) = 0 3 / 1 4 / 2 5.
    ViewsScene s1 = views_scene(ch, 1, kCanvas);
    EXPECT_EQ(srcs(s1.plan, s1.grid_first, 6), (std::vector<int64_t>{0, 3, 1, 4, 2, 5}));
}

TEST(ViewPlans, ViewsErrorsNameTheOp) {
    try {
        apply_chain(make_view(row_major({2, 3})),
                    {parse_op("transpose:0,1"), parse_op("permute:0,0")});
        FAIL() << "no error";
    } catch (const UsageError& e) {
        EXPECT_EQ(e.key(), "ops[1]");
    }
    EXPECT_THROW(views_scene(apply_chain(make_view(row_major({65, 64})), {}), 0, kCanvas),
                 UsageError);
}

TEST(ViewPlans, AddressFormula) {
    View x = make_view(row_major({2, 3, 4}), 32, 0x1000);
    auto [f, nums] = address_formula(x, {0, 1, 2});
    EXPECT_EQ(f, "index (0,1,2):  address = base + (offset + i0*s0 + i1*s1 + i2*s2) * elem_size");
    EXPECT_EQ(nums, "0x1000 + (0 + 0*12 + 1*4 + 2*1) * 4 = 0x1018   (element 6 of storage 0)");
}

// DMA (1,2,1,2) NCHW -> NHWC, fp32, at step 1: step s is element (0,c,0,w)
// with s = 2c + w, read offset s, write offset 2w + c. Step 1 = (0,0,0,1):
// read 0x4, write 0x8. Destination cells: 0 <- step 0 (written), 1 <- step 2
// and 3 <- step 3 (not yet: hidden), 2 <- step 1: on source cell 1 before,
// at destination cell 2 after.
TEST(ViewPlans, DmaGolden) {
    Shape s{1, 2, 1, 2};
    Dma d = make_dma(layout_from_spec("NCHW", s), layout_from_spec("NHWC", s), 32);
    DmaScene sc = dma_scene(d, 1, kCanvas);
    // Board 5 wide (1 margin + 4): the tick row ("address", 0..3) over the
    // source strip; source row 2 (offsets 11..14), destination row 5 (26..29).
    EXPECT_EQ(plan_text(sc.plan),
              "plan \"dma\": 8 cells, fp32, source (4), 2 stages\n"
              "stage 0 \"before step 1\" (6,5) tensor\n"
              "  formula: step 1 of 4\n"
              "  offsets: 11 12 13 14 26 . 12 .\n"
              "  box row (1,5 4x1)\n"
              "  box highlight (3,5 1x1)\n"
              "  arrow (2.5,3) -> (3.5,5) \"0x4 -> 0x8\"\n"
              "  label caption (0,0.5) \"source memory, read AGU: base=0x0 bounds=(1,2,1,2) "
              "strides=(4,2,2,1) elem=4B\"\n"
              "  label tick (1.5,2) \"0\"\n"
              "  label tick (2.5,2) \"1\"\n"
              "  label tick (3.5,2) \"2\"\n"
              "  label tick (4.5,2) \"3\"\n"
              "  label axis (0.85,1.5) \"address\"\n"
              "  label address (1,2.5) \"0x0\"\n"
              "  label caption (0,4.5) \"destination memory, write AGU: base=0x0 bounds=(1,2,1,2) "
              "strides=(4,1,4,2) elem=4B\"\n"
              "  label address (1,5.5) \"0x0\"\n"
              "  highlight 1 cells: 1\n"
              "stage 1 \"after step 1\" (6,5) tensor\n"
              "  formula: step 1 of 4\n"
              "  offsets: 11 12 13 14 26 . 28 .\n"
              "  box row (1,5 4x1)\n"
              "  label caption (0,0.5) \"source memory, read AGU: base=0x0 bounds=(1,2,1,2) "
              "strides=(4,2,2,1) elem=4B\"\n"
              "  label tick (1.5,2) \"0\"\n"
              "  label tick (2.5,2) \"1\"\n"
              "  label tick (3.5,2) \"2\"\n"
              "  label tick (4.5,2) \"3\"\n"
              "  label axis (0.85,1.5) \"address\"\n"
              "  label address (1,2.5) \"0x0\"\n"
              "  label caption (0,4.5) \"destination memory, write AGU: base=0x0 bounds=(1,2,1,2) "
              "strides=(4,1,4,2) elem=4B\"\n"
              "  label address (1,5.5) \"0x0\"\n"
              "  highlight 1 cells: 6\n");
    EXPECT_EQ(sc.plan.src, (std::vector<int64_t>{0, 1, 2, 3, 0, 2, 1, 3}));
    EXPECT_EQ(sc.read_cell, 1);
    EXPECT_EQ(sc.per_row, 4);
    EXPECT_EQ(sc.read_place, (Place{2, 2}));
    EXPECT_EQ(sc.write_place, (Place{3, 5}));
    // After the last step every destination cell is written; no arrow.
    DmaScene end = dma_scene(d, 4, kCanvas);
    EXPECT_EQ(end.plan.stages.size(), 1u);
    EXPECT_EQ(end.read_cell, -1);
    std::vector<int64_t> off = end.plan.offsets(0);
    EXPECT_TRUE(std::none_of(off.begin(), off.end(), [](int64_t o) { return o < 0; }));
}

// The stream table of (1,4,3,4) NCHW -> NHWC fp32: the read AGU moves 4 B a
// step; the write AGU 16 B (C = 4 channels apart), back by 44 B at a new row.
TEST(ViewPlans, DmaRows) {
    Shape s{1, 4, 3, 4};
    Dma d = make_dma(layout_from_spec("NCHW", s), layout_from_spec("NHWC", s), 32);
    auto rows = dma_rows(d, s, 3, 4);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].step, 3);
    EXPECT_EQ(rows[0].element, (Coord{0, 0, 0, 3}));
    EXPECT_EQ(rows[0].read_delta, 4);
    EXPECT_EQ(rows[0].write_delta, 16);
    EXPECT_EQ(rows[1].element, (Coord{0, 0, 1, 0}));
    EXPECT_EQ(rows[1].write, 4 * 4 * 4);
    EXPECT_EQ(rows[1].write_delta, 64 - 48);
    EXPECT_EQ(dma_rows(d, s, 0, 0)[0].write_delta, 0);
    EXPECT_TRUE(dma_rows(d, s, 50, 60).empty());
}

// Fusion of a (2,2) transpose: the output buffer reads 0 2 1 3; element 1 is
// held by four cells (input, step 1, fused input, output).
TEST(ViewPlans, FusionGolden) {
    Fused f = fuse(make_view(row_major({2, 2})), {parse_op("transpose:0,1")});
    FusionScene sc = fusion_scene(f, kCanvas);
    EXPECT_EQ(plan_text(sc.plan),
              "plan \"fusion\": 16 cells, fp32, source (4), 1 stages\n"
              "stage 0 \"buffers\" (10,6) tensor\n"
              "  formula: fused map (2,2):(1,2)\n"
              "  offsets: 14 15 16 17 26 27 28 29 44 45 46 47 56 57 58 59\n"
              "  label caption (0,0.5) \"UNFUSED: input\"\n"
              "  label tick (2.5,2) \"0\"\n"
              "  label tick (3.5,2) \"1\"\n"
              "  label tick (4.5,2) \"2\"\n"
              "  label tick (5.5,2) \"3\"\n"
              "  label axis (1.85,1.5) \"address\"\n"
              "  label address (2,2.5) \"+0\"\n"
              "  label caption (0,3.5) \"step 1 transpose:0,1: 16 B read, 16 B written\"\n"
              "  label address (2,4.5) \"+0\"\n"
              "  label caption (0,6.5) \"FUSED: input, read once through the fused map\"\n"
              "  label address (2,7.5) \"+0\"\n"
              "  label caption (0,8.5) \"output: 32 B in one pass\"\n"
              "  label address (2,9.5) \"+0\"\n");
    EXPECT_EQ(sc.plan.src, (std::vector<int64_t>{0, 1, 2, 3, 0, 2, 1, 3, 0, 1, 2, 3, 0, 2, 1, 3}));
    EXPECT_EQ(sc.buffer_first, (std::vector<int64_t>{0, 4, 8, 12}));
    EXPECT_EQ(sc.links[1], (std::vector<int64_t>{1, 6, 9, 14}));
}

// A slice reads part of the input: the fused input strip tints what is read.
TEST(ViewPlans, FusionTintsTheReadRuns) {
    Fused f = fuse(make_view(row_major({4, 4})), {parse_op("slice:1:3")});
    FusionScene sc = fusion_scene(f, kCanvas);
    const auto& boxes = sc.plan.stages[0].boxes;
    ASSERT_FALSE(boxes.empty());
    float cells = 0;
    for (const Box& b : boxes) cells += b.w * b.h;
    EXPECT_EQ(cells, 8);  // rows 1 and 2 of the 4x4 input
}

// Gather of indices 0,1,5 in requests of 2, 8 B bursts, fp32, at request 1:
// request 0 read cells 0 and 1, request 1 cell 5 (highlighted); cells 2..4
// are never read (padding); a box per 8 B burst.
TEST(ViewPlans, GatherGolden) {
    ScatterGather sg{2, 32, 0, 8};
    GatherReport g = gather(sg, {0, 1, 5});
    GatherScene sc = gather_scene(g, sg, 1, kCanvas);
    EXPECT_EQ(plan_text(sc.plan),
              "plan \"gather\": 6 cells, fp32, source (2), 1 stages\n"
              "stage 0 \"request 1\" (4,7) tensor\n"
              "  formula: 2 requests of width 2\n"
              "  offsets: 22 23 24 25 26 27\n"
              "  box row (1,3 2x1)\n"
              "  box row (3,3 2x1)\n"
              "  box row (5,3 2x1)\n"
              "  label caption (0,0.5) \"memory: each element read coloured by the request that "
              "reads it (the number), hatched: never\"\n"
              "  label caption (0,1.5) \"read, empty: read later; boxes are 8 B bursts\"\n"
              "  label tick (1.5,3) \"0\"\n"
              "  label tick (2.5,3) \"1\"\n"
              "  label tick (3.5,3) \"2\"\n"
              "  label tick (4.5,3) \"3\"\n"
              "  label tick (5.5,3) \"4\"\n"
              "  label tick (6.5,3) \"5\"\n"
              "  label axis (0.85,2.5) \"address\"\n"
              "  label address (1,3.5) \"0x0\"\n"
              "  highlight 1 cells: 5\n");
    EXPECT_EQ(sc.plan.src, (std::vector<int64_t>{0, 0, -1, -1, -1, 1}));
    EXPECT_EQ(sc.request_cells, std::vector<int64_t>{5});
    // At request 0, request 1's cell is not there yet.
    GatherScene s0 = gather_scene(g, sg, 0, kCanvas);
    EXPECT_EQ(s0.plan.offsets(0)[5], -1);
}

// The picture fills its canvas: fitted to the canvas, the board covers at
// least 85% of it along one side, for wide and tall canvases.
TEST(ViewPlans, PictureFillsTheCanvas) {
    Chain ch = apply_chain(make_view(row_major({2, 3, 4}), 32, 0x1000),
                           {parse_op("transpose:1,2"), parse_op("reshape:6,4")});
    Shape s{1, 4, 3, 4};
    Dma d = make_dma(layout_from_spec("NCHW", s), layout_from_spec("NHWC", s), 32);
    Fused f = fuse(make_view(row_major({1, 4, 3, 2})),
                   {parse_op("reshape:1,4,6"), parse_op("transpose:1,2")});
    for (Canvas c : {Canvas{1400, 600, 13}, Canvas{700, 900, 20}, Canvas{1000, 400, 20}}) {
        const Plan plans[] = {views_scene(ch, 2, c).plan, dma_scene(d, 3, c).plan,
                              fusion_scene(f, c).plan};
        for (const Plan* p = plans; p != plans + 3; ++p) {
            Extent e = grid_extent(p->stages[0].grid);
            float zoom = std::min((c.w - 24) / e.w, (c.h - 24) / e.h);
            float share = std::max(e.w * zoom / (c.w - 24), e.h * zoom / (c.h - 24));
            EXPECT_GT(share, 0.85f) << p->title << " " << c.w << "x" << c.h;
            // Cells stay cells (captions and each strip's tick row take room
            // on a short canvas: 1000x400 at font 20 gives views 24 rows, 3 of
            // them ticks, and cells of 15.7 px that still print numbers).
            EXPECT_GE(zoom, 15.f) << p->title << " " << c.w << "x" << c.h;
        }
    }
}
