// Plans of the execution scenes: every cell's place in every stage agrees
// with the engine that the scene illustrates.
#include <gtest/gtest.h>

#include <set>

#include "core/exec/plans.hpp"

using namespace ll;
using namespace ll::exec;

TEST(ExecPlans, Img2colStagesAgreeWithTheIndexMap) {
    Img2colSpec s;
    s.n = 2;
    s.c = 2;
    s.h = 5;
    s.w = 4;
    s.win = Window2d{3, 2, 2, 1, 1, 2, 1, 0, 2, 1};
    Plan p = img2col_plan(s);
    ASSERT_EQ(p.stages.size(), 3u);
    EXPECT_EQ(p.cell_count, s.rows() * s.cols());
    EXPECT_EQ(p.offsets(0), p.src);
    std::vector<int64_t> padded = p.offsets(1), mat = p.offsets(2);
    const int64_t ph = p.stages[1].shape[2], pw = p.stages[1].shape[3];
    for (int64_t i = 0; i < p.cell_count; ++i) {
        EXPECT_EQ(mat[size_t(i)], i);
        Coord q = unravel(padded[size_t(i)], p.stages[1].shape);
        bool border = q[2] < s.win.pad_top || q[2] >= ph - s.win.pad_bottom ||
                      q[3] < s.win.pad_left || q[3] >= pw - s.win.pad_right;
        if (p.src[size_t(i)] < 0) {
            EXPECT_TRUE(border) << i;
        } else {
            ASSERT_FALSE(border) << i;
            Coord in = {q[0], q[1], q[2] - s.win.pad_top, q[3] - s.win.pad_left};
            EXPECT_EQ(ravel(in, p.src_shape), p.src[size_t(i)]) << i;
        }
    }
}

TEST(ExecPlans, LoadPlanPlacesCellsAtSourceThenDestination) {
    Load2dParams lp;
    lp.src_fractals = 5;
    lp.start_index = 1;
    lp.repeat = 2;
    lp.src_stride = 2;
    lp.dst_gap = 1;
    LoadResult r = load2d(lp);
    Plan p = load_plan(r, 5 * 256, DType::fp16, "Load2D", "A1", "A2");
    EXPECT_EQ(p.cell_count, 768);
    EXPECT_EQ(p.offsets(0), r.dst_of);
    EXPECT_EQ(p.offsets(1)[300], 300);
    EXPECT_EQ(p.stages[0].boxes.size(), 5u);  // one box per source fractal
    EXPECT_EQ(p.stages[1].boxes.size(), 3u);
    EXPECT_EQ(p.stages[1].boxes[0].h, 16.0f);  // 16 rows of 32 bytes
}

TEST(ExecPlans, ConvAPlanFollowsEachElementThroughThePipeline) {
    ConvParams cp;
    cp.n = 2;
    cp.cin = 19;  // channel padding in the second C1 slice
    cp.cout = 4;
    cp.h = 5;
    cp.w = 6;
    cp.win = Window2d{3, 3, 2, 1, 1, 1, 1, 1, 0, 1};
    Plan p = conv_a_plan(cp);
    ConvShapes s = conv_shapes(cp);
    EXPECT_EQ(p.cell_count, numel(s.at("a_fractal")));
    std::vector<int64_t> o5 = p.offsets(1), om = p.offsets(2);
    std::set<int64_t> seen;
    const int64_t c0 = cp.c0();
    for (int64_t i = 0; i < p.cell_count; ++i) {
        if (om[size_t(i)] >= 0) {
            EXPECT_TRUE(seen.insert(om[size_t(i)]).second);  // a bijection
        }
        if (p.src[size_t(i)] < 0) continue;
        Coord x = unravel(p.src[size_t(i)], p.src_shape);
        Coord f = unravel(o5[size_t(i)], s.at("input_5hd"));
        EXPECT_EQ(x[0], f[0]);
        EXPECT_EQ(x[1], f[1] * c0 + f[4]);
        EXPECT_EQ(x[2], f[2]);
        EXPECT_EQ(x[3], f[3]);
    }
    EXPECT_EQ(int64_t(seen.size()), numel(s.at("img2col")));
}

TEST(ExecPlans, CubeScheduleRunsKThenNThenM) {
    std::vector<CubeStep> v = cube_schedule(3, 2, 2);
    ASSERT_EQ(v.size(), 12u);
    EXPECT_EQ(v[0].k, 0);
    EXPECT_EQ(v[1].m, 1);  // M innermost
    EXPECT_EQ(v[3].n, 1);  // then N
    EXPECT_EQ(v[6].k, 1);  // K outermost
    EXPECT_EQ(v[7].a, 1 * 2 + 1);
    EXPECT_EQ(v[7].c, 0 * 3 + 1);
    EXPECT_FALSE(v[7].first_k);
    EXPECT_EQ(cube_schedule(490, 18, 4).size(), 35280u);
}
