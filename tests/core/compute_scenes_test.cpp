// The compute scenes as core builds them: the Cube's picture and state, the
// conv pipeline's buffer occupancy, and the conv feature map's Plan at the
// case-study size (N 10, Cin 32, 28x28, Cout 64, 3x3) with its two old bugs:
// the feature map collapsing and the A fractals drawn transposed.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <utility>

#include "core/error.hpp"
#include "core/exec/conv_buffers.hpp"
#include "core/exec/cube_plan.hpp"
#include "core/exec/plans.hpp"
#include "core/plan_text.hpp"

using namespace ll;
using namespace ll::exec;

namespace {

Place place_of(const Plan& p, size_t k, int64_t cell) {
    return cell_place(p.stages[k].grid, p.offsets(k)[size_t(cell)]);
}

}  // namespace

// int8, M1 2 x K1 2 x N1 1, after 3 steps (k 1, n 0, m 1): an int8 A
// fractal (16x32) is two cells across, a B fractal (32x16) two cells down.
TEST(ComputeScenes, CubePlanGoldenInt8) {
    CubeScene s;
    s.m1 = 2, s.k1 = 2, s.n1 = 1, s.dtype = DType::int8;
    const std::string want =
        "plan \"Cube: A row x B column -> C fractal\": 14 cells, int8, source (3,14), 1 stages\n"
        "stage 0 \"cube\" (9,6) axes (y,x) tensor\n"
        "  formula: C[n][m] += A[m][k] x B[k][n], loop K -> N -> M\n"
        "  offsets: 42 43 44 45 48 49 50 51 5 11 17 23 47 53\n"
        "  box outline (0,7 4x2)\n"
        "  box outline (5,7 1x2)\n"
        "  box outline (5,0 1x4)\n"
        "  box tile (0,8 4x1)\n"
        "  box tile (5,0 1x4)\n"
        "  box highlight (2,8 2x1)\n"
        "  box highlight (5,2 1x2)\n"
        "  box highlight (5,8 1x1)\n"
        "  arrow (4,8.5) -> (5,8.5)\n"
        "  arrow (5.5,4) -> (5.5,8)\n"
        "  label caption (0,7) \"A (ZZ)\"\n"
        "  label caption (6.2,7.5) \"C (NZ)\"\n"
        "  label tick (1,7) \"k0\"\n"
        "  label tick (3,7) \"k1\"\n"
        "  label tick (0,7.5) \"m0\"\n"
        "  label tick (0,8.5) \"m1\"\n"
        "  label caption (6.6,0.5) \"B (ZN)\"\n"
        "  label tick (5.5,0) \"n0\"\n"
        "  highlight 5 cells: 6 10 7 11 13\n";
    EXPECT_EQ(plan_text(cube_plan(s, 3)), want);
}

// A's rows m run down and its fractal columns k across, and A's row m sits
// on the same line as C's row m, also when M is folded into strips.
TEST(ComputeScenes, CubePlanPlacesARowBesideItsCRow) {
    CubeScene s = cube_case_study();
    const Plan p = cube_plan(s, 0, 1.4f);
    const CubeLayout l = cube_layout(s, 1.4f);
    EXPECT_GT(l.strips, 1);  // 490 rows fold
    const int64_t na = s.m1 * s.k1, nb = s.k1 * s.n1;
    for (int64_t m : {int64_t(0), int64_t(81), int64_t(82), int64_t(489)}) {
        const Place a0 = place_of(p, 0, m * s.k1), a1 = place_of(p, 0, m * s.k1 + 1);
        EXPECT_EQ(a1.x, a0.x + 1) << m;  // k across
        EXPECT_EQ(a1.y, a0.y);
        const Place c = place_of(p, 0, na + nb + 0 * s.m1 + m);  // C[n0][m]
        EXPECT_EQ(c.y, a0.y) << m;
        EXPECT_GT(c.x, a0.x + float(s.k1 - 1));
        if (m % l.rows > 0) {
            const Place up = place_of(p, 0, (m - 1) * s.k1);
            EXPECT_EQ(a0.y, up.y + 1) << m;  // m down
        }
    }
    // Every cell its own place.
    std::set<std::pair<float, float>> seen;
    for (int64_t i = 0; i < p.cell_count; ++i) {
        const Place q = place_of(p, 0, i);
        EXPECT_TRUE(seen.insert({q.x, q.y}).second) << i;
    }
}

// C brightness follows the loop: cube_summed equals a replay of the schedule.
TEST(ComputeScenes, CubeSummedMatchesTheSchedule) {
    CubeScene s;
    s.m1 = 3, s.k1 = 4, s.n1 = 2;
    const auto sched = cube_schedule(s.m1, s.k1, s.n1);
    std::vector<int64_t> count(size_t(s.m1 * s.n1), 0);
    for (int64_t step = 0; step <= s.steps(); ++step) {
        for (int64_t n = 0; n < s.n1; ++n)
            for (int64_t m = 0; m < s.m1; ++m)
                EXPECT_EQ(cube_summed(s, step, n, m), count[size_t(n * s.m1 + m)]) << step;
        if (step < s.steps()) {
            const CubeStep& c = sched[size_t(step)];
            EXPECT_EQ(cube_state(s, step).current.c, c.c);
            EXPECT_EQ(cube_state(s, step).current.a, c.a);
            ++count[size_t(c.c)];
        }
    }
    EXPECT_THROW(cube_state(s, s.steps() + 1), UsageError);
    try {
        CubeScene bad = s;
        bad.k1 = 0;
        bad.validate();
        FAIL();
    } catch (const UsageError& e) {
        EXPECT_EQ(e.key(), "k1");
    }
}

// Values: C starts from zero, and stepping back replays the same numbers.
TEST(ComputeScenes, CubeRunValues) {
    CubeScene s;
    CubeRun run(s);
    ASSERT_TRUE(run.has_values());
    const CubeValues v0 = run.values(0), v13 = run.values(13);
    for (double x : v0.before) EXPECT_EQ(x, 0);
    EXPECT_EQ(v13.c_fractal, 5);
    EXPECT_NE(v13.before, v13.after);
    const CubeValues again = run.values(13);
    EXPECT_EQ(run.values(2).c_fractal, 2);
    EXPECT_EQ(run.values(13).after, again.after);
    EXPECT_EQ(run.values(24).c_fractal, -1);  // done
}

TEST(ComputeScenes, ConvOccupancyOfTheCaseStudy) {
    const ConvParams p = conv_case_study();
    const auto u = conv_occupancy(p, conv_shapes(p));
    ASSERT_EQ(u.size(), 5u);
    EXPECT_EQ(u[2].name, "A2");
    EXPECT_EQ(u[2].need, 10 * 49 * 18 * 16 * 16 * 2);
    EXPECT_EQ(u[2].capacity, 64 * 1024);
    EXPECT_TRUE(u[2].must_tile());
    EXPECT_FALSE(u[3].must_tile());  // B2: 36,864 of 65,536
    EXPECT_EQ(u[4].need, 4 * 490 * 16 * 16 * 4);
}

// Bug 1: the feature map collapsed (the case study showed two bars and a
// hairline). The NCHW stage now uses the explorer's grid (stage_grid), every
// distinct element has its own place, the picture suits the view, and a run
// of 256 consecutive cells (the renderer's coarse block) holds one channel in
// a small box (or two channels where one's run ends), so the coarse picture
// keeps the channels apart.
TEST(ComputeScenes, ConvFeatureMapKeepsElementsApartAtCaseStudySize) {
    const ConvParams cp = conv_case_study();
    const Plan p = conv_a_plan(cp);
    const Stage& st = p.stages[0];
    const Grid want = stage_grid(st.shape, kConvViewAspect);
    EXPECT_EQ(st.grid.shape, want.shape);
    EXPECT_EQ(st.grid.wrap, want.wrap);
    const Extent e = grid_extent(st.grid);
    EXPECT_LT(std::abs(std::log(e.w / e.h / kConvViewAspect)), std::log(2.0f));
    std::set<std::pair<float, float>> places;
    for (int64_t o = 0; o < numel(st.shape); ++o) {
        const Place q = cell_place(st.grid, o);
        places.insert({q.x, q.y});
    }
    EXPECT_EQ(int64_t(places.size()), numel(st.shape));
    for (size_t k : {size_t(0), size_t(1)}) {
        const std::vector<int64_t> off = p.offsets(k);
        for (int64_t b = 0; b + 256 <= p.cell_count; b += 256 * 97) {
            float x0 = 1e30f, y0 = 1e30f, x1 = -1e30f, y1 = -1e30f;
            std::set<int64_t> channels;
            for (int64_t i = b; i < b + 256; ++i) {
                if (off[size_t(i)] < 0) continue;
                const Place q = cell_place(p.stages[k].grid, off[size_t(i)]);
                x0 = std::min(x0, q.x), y0 = std::min(y0, q.y);
                x1 = std::max(x1, q.x + 1), y1 = std::max(y1, q.y + 1);
                if (p.src[size_t(i)] >= 0) channels.insert(p.src[size_t(i)] / (28 * 28) % 32);
            }
            if (x1 < x0) continue;
            // A channel's run (784 cells) is not a multiple of the block, so
            // a block holds one channel or the end of one and the start of
            // the next; one channel's block is a small box.
            EXPECT_LE(channels.size(), 2u) << b;
            // NCHW: a channel's block is a small box. (NC1HWC0 spreads one
            // channel's pixels C0 apart; its blocks keep only their colour.)
            if (channels.size() == 1 && k == 0) {
                EXPECT_LE((x1 - x0) * (y1 - y0), 4.0f * 256) << "stage " << k << " block " << b;
            }
        }
    }
}

// Bug 2: the A fractals were drawn M1 across and K1 down, transposed against
// the Cube. Now the next k is the next fractal to the right and the next
// row of fractals (m) is below, as in the Cube plan.
TEST(ComputeScenes, ConvAFractalsRunM1DownK1AcrossLikeTheCube) {
    const ConvParams cp = conv_case_study();
    const Plan p = conv_a_plan(cp);
    const Stage& a = p.stages[3];
    ASSERT_EQ(a.shape, Shape({10, 49, 18, 16, 16}));
    auto at = [&](int64_t n, int64_t mb, int64_t k) {
        return cell_place(a.grid, ravel({n, mb, k, 0, 0}, a.shape));
    };
    const Place f = at(0, 0, 0), right = at(0, 0, 1), down = at(0, 1, 0);
    EXPECT_EQ(right.y, f.y);
    EXPECT_GT(right.x, f.x + 15);  // one fractal (16 wide) further right
    EXPECT_EQ(down.x, f.x);
    EXPECT_GT(down.y, f.y + 15);
    EXPECT_EQ(a.axes[2], "K1");
    // The Cube plan: A[m][k+1] to the right, A[m+1][k] below.
    CubeScene s;
    const Plan c = cube_plan(s, 0);
    const Place c0 = place_of(c, 0, 0), ck = place_of(c, 0, 1), cm = place_of(c, 0, s.k1);
    EXPECT_EQ(ck.y, c0.y);
    EXPECT_GT(ck.x, c0.x);
    EXPECT_EQ(cm.x, c0.x);
    EXPECT_GT(cm.y, c0.y);
}
