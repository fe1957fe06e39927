// The weight-stationary systolic array: the register simulation equals the
// direct product on random inputs of many shapes, its last output leaves at
// the cycle the formulas give, the formula state matches the simulation's
// busy PEs, and the plan puts every cell where the dataflow says.
#include <gtest/gtest.h>

#include <set>

#include "core/error.hpp"
#include "core/gpu/systolic.hpp"

using namespace ll::gpu;

TEST(Systolic, HeaderExample) {
    SystolicParams p;  // 4x4 array, M 6, K 4, N 4
    const SystolicSummary s = systolic_summary(p);
    ASSERT_EQ(s.tiles.size(), 1u);
    EXPECT_EQ(s.load_cycles, 4);
    EXPECT_EQ(s.stream_cycles, 12);
    EXPECT_EQ(s.cycles, 16);
    EXPECT_DOUBLE_EQ(s.utilisation, 96.0 / 256.0);
    EXPECT_EQ(s.cube_steps, 1);
    EXPECT_DOUBLE_EQ(s.cube_utilisation, 96.0 / 4096.0);
    p.m = p.k = p.n = 64;
    const SystolicSummary big = systolic_summary(p);
    EXPECT_EQ(big.tiles.size(), 256u);
    EXPECT_EQ(big.cycles, 256 * 74);
    EXPECT_EQ(big.cube_steps, 64);
}

TEST(Systolic, RegisterSimulationEqualsDirect) {
    for (uint32_t seed = 1; seed <= 30; ++seed) {
        SystolicParams p;
        p.rows = 1 + seed % 5;
        p.cols = 1 + seed * 3 % 6;
        p.m = 1 + seed * 7 % 13;
        p.k = 1 + seed * 5 % 11;
        p.n = 1 + seed * 11 % 9;
        p.load_cycles_per_row = seed % 3;
        p.seed = seed;
        const SystolicRun r = systolic_run(p);
        EXPECT_TRUE(r.equal) << "seed " << seed;
        EXPECT_EQ(r.c, r.direct);
        // The last sum leaves in the last cycle of the last tile.
        EXPECT_EQ(r.last_output_cycle, r.summary.cycles - 1) << "seed " << seed;
        EXPECT_LE(r.max_active_pes, p.rows * p.cols);
    }
}

TEST(Systolic, StateAgreesWithTheDataflow) {
    SystolicParams p;
    p.m = 5, p.k = 6, p.n = 3, p.rows = 4, p.cols = 2;
    const SystolicSummary s = systolic_summary(p);
    ASSERT_EQ(s.tiles.size(), 4u);  // N tiles (2) x K tiles (2)
    int64_t macs = 0;
    for (int64_t c = 0; c <= s.cycles; ++c) {
        const CycleState st = systolic_state(p, c);
        macs += st.active_pes;  // one MAC per busy PE per cycle
        if (st.loading) {
            EXPECT_EQ(st.active_pes, 0);
        }
        for (int64_t i = 0; i < p.rows; ++i)
            for (int64_t j = 0; j < p.cols; ++j) {
                const PeState& pe = st.pes[size_t(i * p.cols + j)];
                if (!pe.active) continue;
                const SystolicTile& tl = s.tiles[size_t(st.tile)];
                EXPECT_EQ(pe.m + i + j, c - tl.stream_start);  // the skew
            }
    }
    EXPECT_EQ(macs, s.macs);
    EXPECT_EQ(systolic_state(p, s.cycles).outputs_done, p.m * p.n);
    EXPECT_EQ(systolic_state(p, 0).outputs_done, 0);
}

TEST(Systolic, PlanPlacesEveryCellOnce) {
    SystolicParams p;
    p.m = 3, p.k = 5, p.n = 2, p.rows = 3, p.cols = 2;
    const ll::Plan plan = systolic_plan(p);
    const SystolicSummary s = systolic_summary(p);
    ASSERT_EQ(int64_t(plan.stages.size()), s.cycles + 1);
    for (size_t k = 0; k < plan.stages.size(); ++k) {
        const std::vector<int64_t> off = plan.offsets(k);
        std::set<int64_t> seen;
        const int64_t size = plan.stages[k].shape[0] * plan.stages[k].shape[1];
        for (int64_t o : off) {
            if (o < 0) continue;
            EXPECT_LT(o, size);
            EXPECT_TRUE(seen.insert(o).second) << "two cells at " << o << " in stage " << k;
        }
        // One highlight pair (activation, sum) per busy PE.
        EXPECT_EQ(int64_t(plan.stages[k].highlight.size()),
                  2 * systolic_state(p, int64_t(k)).active_pes);
    }
    // At the end every C element is shown.
    const std::vector<int64_t> last = plan.offsets(plan.stages.size() - 1);
    const int64_t c_first = plan.cell_count - p.m * p.n;
    for (int64_t c = c_first; c < plan.cell_count; ++c) EXPECT_GE(last[size_t(c)], 0);
}

TEST(Systolic, BadInputIsKeyed) {
    SystolicParams p;
    p.rows = 17;
    try {
        systolic_summary(p);
        FAIL();
    } catch (const ll::UsageError& e) {
        EXPECT_EQ(e.key(), "rows");
    }
    p = {};
    p.m = p.k = p.n = 64;
    p.rows = p.cols = 1;
    try {
        systolic_plan(p);
        FAIL();
    } catch (const ll::UsageError& e) {
        EXPECT_EQ(e.key(), "cycles");
    }
}
