// The tiling sweep (core/tiling/sweep.hpp): coverage, ranking, Pareto front.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "core/tiling/sweep.hpp"

using namespace ll;
using namespace ll::tiling;

namespace {

SweepSpec small_spec() {
    SweepSpec s;
    s.base.shape = {1, 8, 6, 12};
    s.base.layout = "NHWC";
    s.base.mem.dram.setup_ns = 50;  // makes tile size matter
    s.base.mem.sram.setup_ns = 5;
    return s;
}

bool dominates(const SweepRow& a, const SweepRow& b) {
    return a.footprint <= b.footprint && a.total_us() <= b.total_us() &&
           (a.footprint < b.footprint || a.total_us() < b.total_us());
}

}  // namespace

TEST(TilingSweep, CoversEveryPairAndOrder) {
    const SweepSpec s = small_spec();
    const SweepResult r = sweep(s);
    // Sub-tile sizes: candidates up to the tile's extent, per dimension.
    int64_t pairs = 0;
    for (int64_t c : divisors_of(8))
        for (int64_t h : divisors_of(6))
            for (int64_t w : divisors_of(12)) {
                int64_t n = 1;
                for (auto [ext, t] : {std::pair{8, c}, std::pair{6, h}, std::pair{12, w}}) {
                    int64_t k = 0;
                    for (int64_t d : divisors_of(ext)) k += d <= t;
                    n *= k;
                }
                pairs += n;
            }
    EXPECT_EQ(int64_t(r.rows.size()), pairs * 36);
    EXPECT_EQ(r.skipped_capacity, 0);
    EXPECT_EQ(r.ranking.size(), r.rows.size());
}

TEST(TilingSweep, RowsAgreeWithEvaluate) {
    const SweepSpec s = small_spec();
    const SweepResult r = sweep(s);
    for (size_t i = 0; i < r.rows.size(); i += 997) {
        const SweepRow& row = r.rows[i];
        Config c = s.base;
        c.l1_tile = row.tile;
        c.l2_tile = row.sub;
        c.l1_order = all_orders()[row.l1_order];
        c.l2_order = all_orders()[row.l2_order];
        const Result e = evaluate(c);
        EXPECT_NEAR(row.total_us(), e.total_us, 1e-9 * e.total_us);
        EXPECT_EQ(row.footprint, e.tile_bytes + e.subtile_bytes);
    }
}

TEST(TilingSweep, RankingIsByTime) {
    const SweepResult r = sweep(small_spec());
    for (size_t i = 1; i < r.ranking.size(); ++i)
        ASSERT_LE(r.rows[r.ranking[i - 1]].total_us(), r.rows[r.ranking[i]].total_us());
    // The best row uses the layout's contiguous dimension (C for NHWC) innermost.
    const SweepRow& best = r.rows[r.ranking[0]];
    EXPECT_EQ(all_orders()[best.l1_order].inner_to_outer[0], Dim::C);
}

TEST(TilingSweep, ParetoFrontIsNonDominatedAndComplete) {
    const SweepResult r = sweep(small_spec());
    ASSERT_FALSE(r.pareto.empty());
    for (size_t k = 1; k < r.pareto.size(); ++k) {
        EXPECT_LT(r.rows[r.pareto[k - 1]].footprint, r.rows[r.pareto[k]].footprint);
        EXPECT_GT(r.rows[r.pareto[k - 1]].total_us(), r.rows[r.pareto[k]].total_us());
    }
    for (uint32_t p : r.pareto)
        for (const SweepRow& row : r.rows) ASSERT_FALSE(dominates(row, r.rows[p]));
    // Every row off the front is dominated by, or equal to, a front point.
    for (const SweepRow& row : r.rows) {
        bool covered = false;
        for (uint32_t p : r.pareto) {
            const SweepRow& f = r.rows[p];
            covered = covered || dominates(f, row) ||
                      (f.footprint == row.footprint && f.total_us() == row.total_us());
        }
        ASSERT_TRUE(covered);
    }
    // The fastest configuration is the front's last point (ties: smallest footprint).
    EXPECT_EQ(r.rows[r.pareto.back()].total_us(), r.rows[r.ranking[0]].total_us());
}

TEST(TilingSweep, ParetoFrontOfHandMadeRows) {
    std::vector<SweepRow> rows(5);
    const double t[5] = {10, 8, 9, 5, 5};
    const int64_t f[5] = {1, 2, 2, 4, 5};
    for (int i = 0; i < 5; ++i) {
        rows[size_t(i)].l1_us = t[i];
        rows[size_t(i)].footprint = f[i];
    }
    EXPECT_EQ(pareto_front(rows), (std::vector<uint32_t>{0, 1, 3}));
}

TEST(TilingSweep, CapacityFiltersTiles) {
    SweepSpec s = small_spec();
    s.base.mem.sram.capacity_bytes = 512;
    s.base.mem.reg.capacity_bytes = 64;
    const SweepResult r = sweep(s);
    EXPECT_GT(r.skipped_capacity, 0);
    ASSERT_FALSE(r.rows.empty());
    for (const SweepRow& row : r.rows) {
        EXPECT_LE(row.tile.c * row.tile.h * row.tile.w * 4, 512);
        EXPECT_LE(row.sub.c * row.sub.h * row.sub.w * 4, 64);
    }
}

TEST(TilingSweep, Errors) {
    SweepSpec s = small_spec();
    s.candidates[0] = {0, 2};
    EXPECT_THROW(sweep(s), UsageError);
    s = small_spec();
    s.candidates[1] = {7};  // larger than H = 6
    EXPECT_THROW(sweep(s), UsageError);
    s = small_spec();
    s.max_configs = 100;
    EXPECT_THROW(sweep(s), UsageError);
    s = small_spec();
    s.base.mem.dram.bandwidth_gbps = 0;
    EXPECT_THROW(sweep(s), UsageError);
}
