// The visiting order and the addresses of the two-level tiling
// (core/tiling/traverse.hpp), and the Plans the tiling panel draws.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "core/error.hpp"
#include "core/plan_text.hpp"
#include "core/tiling/traverse.hpp"

using namespace ll;
using namespace ll::tiling;

namespace {

Config doc(const char* layout) {
    Config c;  // (1,64,56,56) fp32, tile (16,14,14) W_H_C, sub-tile (4,7,7) W_H_C
    c.layout = layout;
    return c;
}

// Address of (c,h,w) worked out by hand from the layout's definition.
int64_t by_hand(const std::string& layout, int64_t C, int64_t H, int64_t W, int64_t c0, int64_t c,
                int64_t h, int64_t w) {
    if (layout == "NCHW") return (c * H + h) * W + w;
    if (layout == "NHWC") return (h * W + w) * C + c;
    const int64_t c1 = c / c0;  // NC1HWC0
    return ((c1 * H + h) * W + w) * c0 + c % c0;
}

}  // namespace

TEST(TilingTraverse, DocumentExampleVisits) {
    const std::vector<Visit> v = l1_visits(doc("NCHW"));
    ASSERT_EQ(v.size(), 64u);
    EXPECT_EQ(v[1].origin, (Index3{0, 0, 14}));
    EXPECT_EQ(v[1].offset, 14);
    EXPECT_EQ(v[4].origin, (Index3{0, 14, 0}));
    EXPECT_EQ(v[4].offset, 784);
    EXPECT_EQ(v[16].origin, (Index3{16, 0, 0}));
    EXPECT_EQ(v[16].offset, 50176);
    EXPECT_EQ(v[16].jump, 50176 - (42 * 56 + 42));
    const std::vector<Visit> n = l1_visits(doc("NHWC"));
    EXPECT_EQ(n[1].offset, 896);
    EXPECT_EQ(n[4].offset, 50176);
    EXPECT_EQ(n[16].offset, 16);
}

TEST(TilingTraverse, OrdersVisitEveryBlockOnceInnermostFirst) {
    Config c = doc("NCHW");
    c.shape = {1, 10, 7, 9};  // edge blocks in every dimension
    c.l1_tile = {4, 3, 4};
    c.l2_tile = {3, 2, 3};
    for (const Order& o : all_orders()) {
        c.l1_order = c.l2_order = o;
        const std::vector<Visit> v = l1_visits(c);
        const BlockGrid g = l1_grid(c);
        ASSERT_EQ(int64_t(v.size()), g.size());
        EXPECT_EQ(g.counts(), (Extent3{3, 3, 3}));
        std::set<std::tuple<int64_t, int64_t, int64_t>> seen;
        int64_t elems = 0;
        for (const Visit& x : v) {
            seen.insert({x.origin.c, x.origin.h, x.origin.w});
            elems += x.extent.c * x.extent.h * x.extent.w;
            EXPECT_EQ(g.rank(o, x.index), x.step);
        }
        EXPECT_EQ(seen.size(), v.size());
        EXPECT_EQ(elems, 10 * 7 * 9);
        // The innermost dimension of the order moves first.
        const Dim d = o.inner_to_outer[0];
        EXPECT_EQ(v[1].index[d], 1) << to_string(o);
        // The last tile in every dimension is the edge one.
        EXPECT_EQ(v.back().extent, (Extent3{2, 1, 1}));
    }
}

TEST(TilingTraverse, AddressesFollowTheLayout) {
    for (const char* layout : {"NCHW", "NHWC", "NC1HWC0"})
        for (DType t : {DType::fp32, DType::fp16}) {
            Config c = doc(layout);
            c.dtype = t;
            c.shape = {1, 20, 5, 6};  // C not a multiple of C0
            c.l1_tile = {8, 2, 3};
            c.l2_tile = {3, 2, 2};
            const int64_t c0 = elems_per_32b(t);
            const Extent3 tensor{20, 5, 6};
            for (int64_t ch = 0; ch < 20; ch += 3)
                for (int64_t h = 0; h < 5; h += 2)
                    for (int64_t w = 0; w < 6; ++w)
                        EXPECT_EQ(element_offset(c, tensor, {ch, h, w}),
                                  by_hand(layout, 20, 5, 6, c0, ch, h, w))
                            << layout << " " << ch << "," << h << "," << w;
            for (const Visit& v : l1_visits(c))
                EXPECT_EQ(v.offset,
                          by_hand(layout, 20, 5, 6, c0, v.origin.c, v.origin.h, v.origin.w));
            // L2 offsets are inside the tile as stored in SRAM (its own frame).
            const std::vector<Visit> s = l2_visits(c, 0);
            for (const Visit& v : s)
                EXPECT_EQ(v.offset,
                          by_hand(layout, 8, 2, 3, c0, v.origin.c, v.origin.h, v.origin.w));
        }
}

TEST(TilingTraverse, InnerWalkStepsAreTheModelsStrides) {
    // The address step between the first two accesses of a block is the
    // stride the cost model reads its efficiency from (source basis).
    for (const char* layout : {"NCHW", "NHWC", "NC1HWC0"})
        for (const Order& o : all_orders()) {
            Config c = doc(layout);
            c.l1_order = c.l2_order = o;
            const Result r = evaluate(c);
            const Extent3 tensor{64, 56, 56};
            const std::vector<int64_t> a =
                access_offsets(c, tensor, {0, 0, 0}, c.l1_tile, c.l1_order, 2);
            ASSERT_EQ(a.size(), 2u);
            EXPECT_EQ(a[1] - a[0], r.l1.stride) << layout << " " << to_string(o);
            const std::vector<int64_t> b =
                access_offsets(c, c.l1_tile, {0, 0, 0}, c.l2_tile, c.l2_order, 2);
            EXPECT_EQ(b[1] - b[0], r.l2.stride) << layout << " " << to_string(o);
        }
}

TEST(TilingTraverse, JsonTwin) {
    const nlohmann::json j = traversal_json(doc("NHWC"));
    EXPECT_EQ(j["l1_tiles"], 64);
    EXPECT_EQ(j["l2_subtiles"], 16);
    ASSERT_EQ(j["l1_visits"].size(), 64u);
    EXPECT_EQ(j["l1_visits"][16]["origin"], nlohmann::json::array({16, 0, 0}));
    EXPECT_EQ(j["l1_visits"][16]["offset"], 16);
    ASSERT_EQ(j["l2_visits"].size(), 16u);
    // Sub-tile 1 of the first tile (16,14,14) in NHWC: W origin 7 -> 7 * 16.
    EXPECT_EQ(j["l2_visits"][1]["origin"], nlohmann::json::array({0, 0, 7}));
    EXPECT_EQ(j["l2_visits"][1]["offset"], 112);
    // Inside the first tile, W_H_C in NHWC steps W: 64 elements apart.
    EXPECT_EQ(j["l1_inner"][1], 64);
}

TEST(TilingTraverse, BadStepsAreUsageErrors) {
    const Config c = doc("NCHW");
    EXPECT_THROW(l1_visit(c, 64), UsageError);
    EXPECT_THROW(l1_visit(c, -1), UsageError);
    EXPECT_THROW(l2_visit(c, 0, 16), UsageError);
    EXPECT_THROW(l2_visits(c, 64), UsageError);
    EXPECT_EQ(l2_visit(c, 63, 15).origin, (Index3{12, 7, 7}));
}

TEST(TilingTraverse, TensorPlan) {
    Config c = doc("NCHW");
    c.shape = {1, 4, 3, 5};
    c.l1_tile = {2, 2, 3};
    c.l2_tile = {1, 1, 2};
    const Plan p = tensor_plan(c);
    ASSERT_EQ(p.stages.size(), 2u);
    EXPECT_EQ(p.cell_count, 60);
    EXPECT_EQ(p.stages[0].shape, (Shape{4, 3, 5}));
    EXPECT_EQ(p.stages[1].shape, (Shape{60}));
    EXPECT_TRUE(p.stages[1].grid.linear);
    // 2 x 2 x 2 tiles, each boxed once per channel it spans (2): 16 boxes in
    // visit order. Tile 2 (W_H_C) is the edge tile in W: 5 - 3 = 2 wide.
    ASSERT_EQ(p.stages[0].boxes.size(), 16u);
    const Box& t2 = p.stages[0].boxes[2];
    EXPECT_EQ(t2.w, 2.f);
    EXPECT_EQ(t2.h, 2.f);
    EXPECT_EQ(t2.kind, Box::outline);
    const Place at = cell_place(p.stages[0].grid, 3);  // element (0,0,3)
    EXPECT_EQ(t2.x, at.x);
    EXPECT_EQ(t2.y, at.y);
    // Its second box is the same rectangle on channel 1.
    const Place at1 = cell_place(p.stages[0].grid, 15 + 3);
    EXPECT_EQ(p.stages[0].boxes[3].x, at1.x);
    EXPECT_EQ(p.stages[0].boxes[3].y, at1.y);
    // Cells are the elements in (C,H,W) order: stage 0 offsets count up, and
    // stage 1 offsets are their addresses. NCHW: the same order.
    const std::vector<int64_t> e = p.offsets(0), a = p.offsets(1);
    for (int64_t i = 0; i < 60; ++i) {
        EXPECT_EQ(a[size_t(i)], i);
        EXPECT_EQ(e[size_t(i)], i);
    }
    EXPECT_EQ(p.offset_of(1, 7), 7);
    // src is when each element is read.
    EXPECT_EQ(p.src_shape, (Shape{60}));
    EXPECT_EQ(p.src[0], 0);   // tile 1 first
    EXPECT_EQ(p.src[1], 1);   // W fastest inside it
    EXPECT_EQ(p.src[5], 3);   // (0,1,0): after (0,0,0..2)
    EXPECT_EQ(p.src[3], 12);  // (0,0,3): tile 2 starts after tile 1's 2x2x3 elements
    std::vector<int64_t> sorted = p.src;
    std::sort(sorted.begin(), sorted.end());
    for (int64_t i = 0; i < 60; ++i) EXPECT_EQ(sorted[size_t(i)], i);  // a permutation

    c.layout = "NHWC";
    const Plan q = tensor_plan(c);
    // Element (c,h,w) = (1,2,4), cell (1*3 + 2)*5 + 4 = 29, sits at address
    // (h*W + w)*C + c = (2*5 + 4)*4 + 1 = 57.
    EXPECT_EQ(q.offsets(0)[29], 29);
    EXPECT_EQ(q.offsets(1)[29], 57);
    EXPECT_EQ(q.offset_of(1, 15), 1);  // channel 1 of (h,w) = (0,0): address 1
    EXPECT_EQ(q.src, p.src);           // the same elements are read at the same times
    EXPECT_NE(q.stages[1].formula.find("NHWC"), std::string::npos);
}

TEST(TilingTraverse, TilePlanPadsC0Groups) {
    Config c = doc("NC1HWC0");
    c.dtype = DType::fp16;  // C0 = 16
    c.shape = {1, 20, 4, 4};
    c.l1_tile = {20, 2, 2};
    c.l2_tile = {8, 1, 2};
    const Plan p = tile_plan(c, 0);
    EXPECT_EQ(p.cell_count, 20 * 2 * 2);
    // Two C0 groups of 16 channels: 32 x 2 x 2 elements in SRAM, 12 x 4 of padding.
    EXPECT_EQ(p.stages[1].shape, (Shape{128}));
    const std::vector<int64_t> a = p.offsets(1);
    EXPECT_EQ(std::set<int64_t>(a.begin(), a.end()).size(), 80u);
    // The last element: c = 19, group 1, (h,w) = (1,1), c0 = 3.
    EXPECT_EQ(a.back(), 64 + 3 * 16 + 3);
    // Channel 16 of (h,w) = (0,0) opens group 1 at 64; channel 15 of (1,1)
    // closes group 0 at 3 * 16 + 15; the 12 channels after 19 are padding.
    EXPECT_EQ(a[size_t(16 * 4)], 64);
    EXPECT_EQ(a[size_t(15 * 4 + 3)], 63);
    // 3 x 2 x 1 sub-tiles.
    EXPECT_EQ(l2_grid(c, 0).size(), 6);
}

TEST(TilingTraverse, EveryTileIsBoxedOnEachChannel) {
    const Plan p = tensor_plan(doc("NCHW"));  // 64 tiles of 16 channels
    EXPECT_EQ(p.stages[0].boxes.size(), 64u * 16);
    EXPECT_NE(p.stages[0].formula.find("64 L1 tiles (16,14,14), visited W_H_C"), std::string::npos)
        << p.stages[0].formula;
}

TEST(TilingTraverse, HugeFramesAreRefusedForPictures) {
    Config c = doc("NCHW");
    c.shape = {1, 512, 224, 224};
    EXPECT_THROW(tensor_plan(c), UsageError);
    EXPECT_NO_THROW(l1_visits(c));  // the numbers still hold
}

TEST(TilingTraverse, MatchedOrderFollowsStrides) {
    const Extent3 t{64, 56, 56};
    EXPECT_EQ(to_string(matched_order("NCHW", DType::fp32, t)), "W_H_C");
    EXPECT_EQ(to_string(matched_order("NHWC", DType::fp32, t)), "C_W_H");
    EXPECT_EQ(to_string(matched_order("NC1HWC0", DType::fp16, t)), "C_W_H");
    EXPECT_EQ(to_string(matched_order("NHCW", DType::fp32, t)), "W_C_H");
}

TEST(TilingTraverse, VisitOverlayMarksTheTileAndTheJump) {
    Config c = doc("NHWC");
    c.shape = {1, 4, 3, 5};
    c.l1_tile = {2, 2, 3};
    c.l2_tile = {1, 1, 2};
    const Plan p = tensor_plan(c);
    const Grid& g = p.stages[0].grid;
    const Visit v0 = l1_visit(c, 0), v1 = l1_visit(c, 1);
    const Stage first = visit_overlay(g, v0, nullptr);
    ASSERT_EQ(first.boxes.size(), 2u);  // channels 0 and 1
    EXPECT_EQ(first.boxes[0].kind, Box::highlight);
    EXPECT_TRUE(first.arrows.empty());
    const Stage second = visit_overlay(g, v1, &v0);
    ASSERT_EQ(second.arrows.size(), 1u);
    // NHWC: tile 2 starts at (0,0,3), address 3 * 4 = 12.
    EXPECT_EQ(second.arrows[0].label, "+12");
    const Place a = cell_place(g, 0), b = cell_place(g, 3);
    EXPECT_FLOAT_EQ(second.arrows[0].x0, a.x + 1.5f);  // centre of (3 wide, 2 tall)
    EXPECT_FLOAT_EQ(second.arrows[0].y0, a.y + 1.0f);
    EXPECT_FLOAT_EQ(second.arrows[0].x1, b.x + 1.0f);  // the 2-wide edge tile
}

// The whole small picture as text (core/plan_text.hpp): stages, axes, every
// cell's offsets, boxes and labels (the grid labels of core/plan_labels.hpp:
// W and H with their ticks, a tag per channel, the buffer's address).
// Golden: an NHWC tensor (2,2,3) in tiles of (1,2,2), visited W_H_C.
TEST(TilingTraverse, GoldenPlanText) {
    Config c = doc("NHWC");
    c.shape = {1, 2, 2, 3};
    c.l1_tile = {1, 2, 2};
    c.l2_tile = {1, 1, 1};
    const std::string text = plan_text(tensor_plan(c, 1.0f));
    // Cells are the elements in (C,H,W) order; stage 1 gives their NHWC
    // addresses: element 1 = (0,0,1) sits at (0*3 + 1)*2 + 0 = 2.
    const std::string golden =
        R"golden(plan "tiling: tensor in DRAM": 12 cells, fp32, source (12), 2 stages
stage 0 "tensor (C,H,W)" (2,2,3) axes (C,H,W) tensor
  formula: 4 L1 tiles (1,2,2), visited W_H_C; colour = when each element is read
  offsets: 0 1 2 3 4 5 6 7 8 9 10 11
  box outline (0,0 2x2)
  box outline (2,0 1x2)
  box outline (0,3 2x2)
  box outline (2,3 1x2)
  label tick (0.5,0) "0"
  label tick (1.5,0) "1"
  label tick (2.5,0) "2"
  label axis (1.5,0) "W"
  label tick (0,0.5) "0"
  label tick (0,1.5) "1"
  label tick (0,3.5) "0"
  label tick (0,4.5) "1"
  label axis (0,0) "H"
  label tag (0,0) "c=0"
  label tag (0,3) "c=1"
stage 1 "DRAM (NHWC)" (12) axes (offset) memory
  formula: NHWC (1,2,2,3):(12,1,6,2) (N,C,H,W):(strides)
  offsets: 0 2 4 6 8 10 1 3 5 7 9 11
  label tick (0.5,0) "0"
  label tick (1.5,0) "1"
  label tick (2.5,0) "2"
  label tick (3.5,0) "3"
  label tick (4.5,0) "4"
  label tick (5.5,0) "5"
  label tick (6.5,0) "6"
  label tick (7.5,0) "7"
  label axis (0,0) "address"
  label address (0,0.5) "f0 0x0"
)golden";
    EXPECT_EQ(text, golden) << text;
}

// The tiling panel's clock: every tile gets a full tile's sub-tile slots;
// an edge tile's extra slots show its last sub-tile; past the end, the last.
TEST(TilingTraverse, StepsGiveEveryTileAFullTilesSlots) {
    const Config c = doc("NCHW");  // 64 tiles x (4*2*2 = 16) slots
    EXPECT_EQ(traversal_steps(c), 64 * 16);
    TraversalStep t = traversal_step(c, 17);
    EXPECT_EQ(t.tile, 1);
    EXPECT_EQ(t.sub, 1);
    t = traversal_step(c, 64 * 16 - 1);
    EXPECT_EQ(t.tile, 63);
    EXPECT_EQ(t.sub, 15);
    t = traversal_step(c, 1 << 30);  // past the end: the last sub-tile
    EXPECT_EQ(t.tile, 63);
    EXPECT_EQ(t.sub, 15);
    t = traversal_step(c, -5);
    EXPECT_EQ(t.tile, 0);
    EXPECT_EQ(t.sub, 0);
    // H = W = 20 with tiles of 14: the edge tiles are 6 wide and hold fewer
    // sub-tiles of 7 than the 16 slots they are given.
    Config e = c;
    e.shape = {1, 16, 20, 20};
    const int64_t slots = 4 * 2 * 2;
    ASSERT_EQ(traversal_steps(e), l1_grid(e).size() * slots);
    for (int64_t step = 0; step < traversal_steps(e); ++step) {
        t = traversal_step(e, step);
        ASSERT_EQ(t.tile, step / slots);
        const int64_t subs = l2_grid(e, t.tile).size();
        ASSERT_EQ(t.sub, std::min(step % slots, subs - 1)) << step;
        EXPECT_NO_THROW(l2_visit(e, t.tile, t.sub));
    }
}
