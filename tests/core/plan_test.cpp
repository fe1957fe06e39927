// Plan: grid placement contracts and the format-conversion plan.
#include "core/format/format_plan.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "core/error.hpp"
#include "core/format/format.hpp"

using namespace ll;

TEST(PlanGrid, TensorGridContract) {
    Grid g = tensor_grid({2, 3, 4});
    EXPECT_EQ(cell_place(g, 13), (Place{1, 4}));
    Extent e = grid_extent(g);
    EXPECT_EQ(e.w, 4);
    EXPECT_EQ(e.h, 7);  // 2 blocks of 3 rows, 1-cell gap
}

TEST(PlanGrid, TensorGridPlacesAreDistinctAndInside) {
    for (Shape s :
         {Shape{5}, Shape{3, 4}, Shape{2, 3, 4}, Shape{2, 2, 3, 4}, Shape{2, 1, 2, 3, 5}}) {
        Grid g = tensor_grid(s);
        Extent e = grid_extent(g);
        std::set<std::pair<float, float>> seen;
        for (int64_t o = 0; o < numel(s); ++o) {
            Place q = cell_place(g, o);
            EXPECT_GE(q.x, 0);
            EXPECT_GE(q.y, 0);
            EXPECT_LE(q.x + 1, e.w) << to_string(s) << " " << o;
            EXPECT_LE(q.y + 1, e.h) << to_string(s) << " " << o;
            EXPECT_TRUE(seen.insert({q.x, q.y}).second) << to_string(s) << " " << o;
        }
    }
}

TEST(PlanGrid, LinearGridContract) {
    Grid g;
    g.shape = {4096};
    g.linear = true;
    g.row_elems = 16;
    g.band_rows = 32;
    EXPECT_EQ(cell_place(g, 600), (Place{26, 5}));
    Grid m = memory_grid(1 << 20, DType::fp16);
    EXPECT_EQ(m.row_elems, 16);
    EXPECT_EQ(m.band_rows % 16, 0);  // bands break only at fractal boundaries
}

TEST(PlanFormat, NdToNzExample) {
    ConvertSpec s{Format::ND, Format::FRACTAL_NZ, {2, 2, 28}, DType::fp16};
    Pipeline pl = make_pipeline(s);
    Plan p = format_plan({pl});
    EXPECT_EQ(p.cell_count, numel(pl.dst_shape));
    ASSERT_EQ(p.stages.size(), pl.steps.size() + 2);
    EXPECT_EQ(p.src, element_map(pl));
    EXPECT_TRUE(p.stages.back().grid.linear);
    // Stage 0 places a cell at its source index; the last stage at its own index.
    std::vector<int64_t> first = p.offsets(0), last = p.offsets(p.stages.size() - 1);
    for (int64_t i = 0; i < p.cell_count; ++i) {
        EXPECT_EQ(first[size_t(i)], p.src[size_t(i)]);
        EXPECT_EQ(last[size_t(i)], i);
    }
    std::vector<float> xy;
    stage_places(p, 0, xy);
    for (int64_t i = 0; i < p.cell_count; ++i) {
        if (p.src[size_t(i)] < 0) {
            EXPECT_TRUE(std::isnan(xy[size_t(2 * i)]));
            continue;
        }
        Place q = cell_place(p.stages[0].grid, p.src[size_t(i)]);
        EXPECT_EQ(xy[size_t(2 * i)], q.x);
        EXPECT_EQ(xy[size_t(2 * i + 1)], q.y);
    }
}

TEST(PlanFormat, ChainComposesElementMaps) {
    Pipeline a = make_pipeline({Format::NCHW, Format::NHWC, {1, 3, 4, 5}, DType::fp16});
    ConvertSpec sb{Format::NHWC, Format::NC1HWC0, {1, 4, 5, 3}, DType::fp16};
    Pipeline b = make_pipeline(sb);
    Plan p = format_plan({a, b});
    ElementMap ma = element_map(a), mb = element_map(b);
    ASSERT_EQ(p.src.size(), mb.size());
    for (size_t i = 0; i < mb.size(); ++i) EXPECT_EQ(p.src[i], mb[i] < 0 ? -1 : ma[size_t(mb[i])]);
    EXPECT_EQ(p.stages.size(), a.steps.size() + b.steps.size() + 3);
    EXPECT_THROW(format_plan({b, a}), UsageError);
}

TEST(PlanColour, PaddingIsTransparentAndMapIsMonotoneInBlue) {
    Pipeline pl = make_pipeline({Format::ND, Format::FRACTAL_NZ, {2, 2, 28}, DType::fp16});
    Plan p = format_plan({pl});
    for (int64_t i = 0; i < p.cell_count; ++i) {
        Rgba8 c = cell_colour(p, ColourMode::source_index, i, 256);
        EXPECT_EQ(c[3] == 0, p.src[size_t(i)] < 0);
    }
    EXPECT_NE(colour_map(0.f), colour_map(1.f));
    EXPECT_EQ(colour_mode_from_name("fractal"), ColourMode::fractal);
    EXPECT_THROW(colour_mode_from_name("rainbow"), UsageError);
}

// A channels-last stage (NHWC with 3 channels) is drawn as rows of
// interleaved channels, as in the documents' Figure 1: pixel (h, w) channel c
// of (1,8,8,3) sits in row h at column 3w + c. Other stages keep their grid.
TEST(PlanGrid, ChannelsLastStageReadsRgbRgb) {
    Pipeline pl = make_pipeline({Format::NCHW, Format::NHWC, {1, 3, 8, 8}, DType::fp16});
    Plan p = format_plan({pl});
    const Stage* nhwc = nullptr;
    for (const Stage& s : p.stages)
        if (s.shape == Shape{1, 8, 8, 3}) nhwc = &s;
    ASSERT_NE(nhwc, nullptr);
    EXPECT_EQ(nhwc->grid.shape, (Shape{1, 8, 24}));
    for (int64_t h : {0, 5})
        for (int64_t w : {0, 7})
            for (int64_t c : {0, 2}) {
                int64_t o = (h * 8 + w) * 3 + c;  // row-major in (1,8,8,3)
                EXPECT_EQ(cell_place(nhwc->grid, o), (Place{float(3 * w + c), float(h)}));
                EXPECT_EQ(offset_at(nhwc->grid, float(3 * w + c) + 0.5f, float(h) + 0.5f), o);
            }
    EXPECT_EQ(p.stages.front().grid.shape, (Shape{1, 3, 8, 8}));            // NCHW: planes
    EXPECT_EQ(stage_grid({1, 8, 8, 16}, 1.f).shape, (Shape{1, 8, 8, 16}));  // C0-wide: blocks
    EXPECT_EQ(stage_grid({8, 3}, 1.f).shape, (Shape{8, 3}));                // a plain matrix
}
