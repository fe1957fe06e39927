// The AI Core model: buffers and placements, the schedule's properties on
// random problems, the conv case study's Cube steps, a golden timeline.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>

#include "core/aicore/instr_fractals.hpp"
#include "core/aicore/schedule.hpp"
#include "core/aicore/sweep.hpp"
#include "core/error.hpp"

using namespace ll::aicore;
using ll::DType;
using ll::UsageError;

namespace {

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const UsageError& e) {
        return e.what();
    }
    return "";
}

// A random tiling from the sweep's candidates (may not fit).
Tiling random_tiling(const Problem& p, std::mt19937& rng) {
    auto pick = [&](const std::vector<int64_t>& v) {
        return v[std::uniform_int_distribution<size_t>(0, v.size() - 1)(rng)];
    };
    Tiling t;
    t.base_m = pick(base_candidates(p, 0));
    t.base_n = pick(base_candidates(p, 1));
    t.base_k = pick(base_candidates(p, 2));
    t.step_ka = pick({1, 2, 4});
    t.step_kb = pick({1, 2, 4});
    t.order = rng() % 2 ? Order::m_first : Order::n_first;
    t.set_double_buffer(true);
    return t;
}

Problem random_problem(std::mt19937& rng) {
    std::uniform_int_distribution<int64_t> d(1, 700);
    const DType types[] = {DType::fp16, DType::bf16, DType::int8};
    return gemm_problem(d(rng), d(rng), d(rng), types[rng() % 3]);
}

}  // namespace

TEST(AicoreModel, ProductsAndPlacements) {
    const Product& a2 = product_by_id("a2");
    EXPECT_EQ(a2.capacity[int(Buf::l1)], 512 * 1024);
    EXPECT_EQ(a2.capacity[int(Buf::l0c)], 128 * 1024);
    const Product& tr = product_by_id("training");
    EXPECT_EQ(tr.capacity[int(Buf::l1)], 1 << 20);
    EXPECT_EQ(tr.capacity[int(Buf::l0c)], 256 * 1024);
    EXPECT_NE(error_of([] { product_by_id("h100"); }).find("a2, training"), std::string::npos);

    // The header's worked example.
    const Problem p = gemm_problem(4096, 4096, 4096, DType::fp16);
    Tiling t;  // 128 x 128 x 64, step 4, double
    const BufferMap m = place(p, t, a2);
    const BufferUse* l1 = m.find(Buf::l1);
    ASSERT_NE(l1, nullptr);
    ASSERT_EQ(l1->slots.size(), 4u);
    EXPECT_EQ(l1->slots[0].tile, "A1 ping");
    EXPECT_EQ(l1->slots[1].addr, 64 * 1024);
    EXPECT_EQ(l1->peak, 256 * 1024);
    EXPECT_EQ(m.find(Buf::l0a)->peak, 32 * 1024);
    EXPECT_EQ(m.find(Buf::l0c)->peak, 128 * 1024);
    EXPECT_EQ(m.find(Buf::ub), nullptr);  // A2: FixPipe writes GM
    EXPECT_NE(place(p, t, tr).find(Buf::ub), nullptr);
}

TEST(AicoreModel, ErrorsNameBothTiles) {
    const Product& a2 = product_by_id("a2");
    const Problem p = gemm_problem(4096, 4096, 4096, DType::fp16);
    Tiling t;
    t.base_m = 256;
    t.base_k = 128;  // A2 ping/pong: 2 x 64 KiB > L0A
    t.step_ka = t.step_kb = 1;
    const std::string e = error_of([&] { place(p, t, a2); });
    EXPECT_NE(e.find("A2 pong"), std::string::npos) << e;
    EXPECT_NE(e.find("past the end of L0A"), std::string::npos) << e;

    BufferUse b{Buf::l1, 1024, 0, {}};
    b.slots.push_back(Placement{Buf::l1, "A1 ping", 0, 0, 0, 512});
    b.slots.push_back(Placement{Buf::l1, "B1 ping", 1, 0, 256, 512});
    const std::string o = error_of([&] { check_placements(b); });
    EXPECT_NE(o.find("'A1 ping'"), std::string::npos) << o;
    EXPECT_NE(o.find("'B1 ping'"), std::string::npos) << o;
    EXPECT_NE(o.find("overlap in L1"), std::string::npos) << o;

    Costs c = default_costs(a2);
    c.mte2_bytes_per_cycle = 0;
    EXPECT_NE(error_of([&] { c.validate(); }).find("MTE2 bandwidth"), std::string::npos);
    EXPECT_NE(error_of([&] { simulate(p, Tiling{}, a2, c); }).find("positive"), std::string::npos);
    Tiling bad;
    bad.base_k = 24;
    EXPECT_NE(error_of([&] { bad.validate(p); }).find("multiple of 16"), std::string::npos);
}

TEST(AicoreSchedule, PropertiesOnRandomProblems) {
    std::mt19937 rng(16);
    int runs = 0;
    for (int trial = 0; trial < 300 && runs < 120; ++trial) {
        const Problem p = random_problem(rng);
        const Product& prod = products()[rng() % products().size()];
        Tiling t = random_tiling(p, rng);
        Tiling single = t;
        single.set_double_buffer(false);
        try {
            place(p, t, prod);
        } catch (const UsageError&) {
            continue;  // does not fit with ping/pong: nothing to compare
        }
        ++runs;
        const Costs c = default_costs(prod);
        const Schedule d = simulate(p, t, prod, c);
        const Schedule s = simulate(p, single, prod, c);
        for (const Schedule* x : {&d, &s}) {
            for (const Check& ck : x->checks())
                EXPECT_TRUE(ck.ok) << ck.what << " " << p.describe();
            EXPECT_NO_THROW(x->check_lives()) << p.describe() << " " << x->tiling.describe();
            EXPECT_EQ(x->units[int(Unit::cube)].busy, p.cube_steps() * c.cube_cycles_per_step);
            for (int u = 0; u < kUnitCount; ++u) EXPECT_GE(x->total_cycles, x->units[u].busy);
            // Each instruction's cost is the model's and it starts after its waits.
            for (const Instr& in : x->instrs) {
                ASSERT_EQ(in.end - in.start, cost_of(in, c));
                for (int w = 0; w < in.n_wait; ++w)
                    ASSERT_GE(in.start, x->instrs[size_t(in.wait[w])].end);
            }
        }
        EXPECT_LE(d.total_cycles, s.total_cycles) << p.describe() << " " << t.describe();

        // Doubling the GM bandwidth: MTE2 busy is exactly the model's sum and
        // the run is never slower.
        Costs c2 = c;
        c2.mte2_bytes_per_cycle *= 2;
        const Schedule d2 = simulate(p, t, prod, c2);
        int64_t want = 0;
        for (const Instr& in : d.instrs)
            if (in.unit == Unit::mte2)
                want += c.mte2_latency +
                        int64_t(std::ceil(double(in.bytes) / c2.mte2_bytes_per_cycle - 1e-9));
        EXPECT_EQ(d2.units[int(Unit::mte2)].busy, want);
        EXPECT_LE(d2.total_cycles, d.total_cycles);
        EXPECT_EQ(d2.units[int(Unit::cube)].busy, d.units[int(Unit::cube)].busy);
    }
    EXPECT_GE(runs, 60);
}

TEST(AicoreSchedule, MemoryBoundScalesWithBandwidth) {
    // With no latencies and a slow GM, MTE2 bounds the run; doubling its
    // bandwidth halves MTE2 busy cycles (bytes divide evenly).
    const Product& a2 = product_by_id("a2");
    const Problem p = gemm_problem(512, 512, 512, DType::fp16);
    Tiling t;
    t.base_m = t.base_n = 128;
    t.base_k = 64;
    Costs c = default_costs(a2);
    c.mte2_latency = c.mte1_latency = c.fixpipe_latency = 0;
    c.mte2_bytes_per_cycle = 8;
    const Schedule s1 = simulate(p, t, a2, c);
    c.mte2_bytes_per_cycle = 16;
    const Schedule s2 = simulate(p, t, a2, c);
    EXPECT_EQ(s1.bound, Unit::mte2);
    EXPECT_EQ(s1.units[int(Unit::mte2)].busy, 2 * s2.units[int(Unit::mte2)].busy);
    EXPECT_LT(s2.total_cycles, s1.total_cycles);
}

TEST(AicoreSchedule, ConvCaseStudyCubeSteps) {
    const Problem p = conv_problem(ll::exec::conv_case_study());
    EXPECT_EQ(p.m, 7840);
    EXPECT_EQ(p.k, 288);
    EXPECT_EQ(p.n, 64);
    EXPECT_EQ(p.cube_steps(), 35280);
    for (const Product& prod : products()) {
        const Costs c = default_costs(prod);
        const Tiling t = best_tiling(p, prod, c, true);
        const Schedule s = simulate(p, t, prod, c);
        EXPECT_EQ(s.cube_steps, 35280);
        EXPECT_EQ(s.units[int(Unit::cube)].busy, 35280 * c.cube_cycles_per_step);
        EXPECT_NO_THROW(s.check_lives());
        // A is read as NC1HWC0 rows: less GM traffic than the img2col matrix.
        EXPECT_LT(s.gm_read_bytes, p.m * p.k * 2 + p.k * p.n * 2 * s.blocks);
    }
}

TEST(AicoreSweep, BestFitsAndRanks) {
    const Product& a2 = product_by_id("a2");
    const Problem p = gemm_problem(256, 256, 256, DType::fp16);
    const Costs c = default_costs(a2);
    const SweepResult r = sweep(p, a2, c, true);
    ASSERT_FALSE(r.rows.empty());
    for (size_t i = 1; i < r.rows.size(); ++i)
        EXPECT_LE(r.rows[i - 1].total_cycles, r.rows[i].total_cycles);
    // The best is what simulate() gives for it, and no candidate beats it.
    const Schedule best = simulate(p, r.rows[0].tiling, a2, c);
    EXPECT_EQ(best.total_cycles, r.rows[0].total_cycles);
    ASSERT_FALSE(r.pareto.empty());
    EXPECT_EQ(r.rows[r.pareto.back()].total_cycles, r.rows[0].total_cycles);
    for (size_t i = 1; i < r.pareto.size(); ++i) {
        EXPECT_GT(r.rows[r.pareto[i]].l1_bytes, r.rows[r.pareto[i - 1]].l1_bytes);
        EXPECT_LT(r.rows[r.pareto[i]].total_cycles, r.rows[r.pareto[i - 1]].total_cycles);
    }
}

// A small GEMM's whole timeline, compared with tests/core/golden/aicore_gemm32.csv.
// 32x32x32 fp16 on A2, base 16x16x16, stepK 1, single buffering, M-first:
// 4 blocks x 2 k chunks. First block by hand: Scalar 0..32; MTE2 A
// 32..247 (200 + ceil(512 / 34.7)); MTE2 B 247..462; MTE1 A 247..264
// (16 + 512/512); MTE1 B 462..480 (16 + 512/256); Mmad 480..481.
TEST(AicoreSchedule, GoldenSmallGemm) {
    const Product& a2 = product_by_id("a2");
    const Problem p = gemm_problem(32, 32, 32, DType::fp16);
    Tiling t;
    t.base_m = t.base_n = t.base_k = 16;
    t.step_ka = t.step_kb = 1;
    t.set_double_buffer(false);
    const Schedule s = simulate(p, t, a2, default_costs(a2));
    ASSERT_GE(s.instrs.size(), 6u);
    EXPECT_EQ(s.instrs[1].start, 32);
    EXPECT_EQ(s.instrs[1].end, 247);
    EXPECT_EQ(s.instrs[2].end, 462);
    EXPECT_EQ(s.instrs[3].start, 247);
    EXPECT_EQ(s.instrs[3].end, 264);
    EXPECT_EQ(s.instrs[4].end, 480);
    EXPECT_EQ(s.instrs[5].start, 480);
    EXPECT_EQ(s.instrs[5].end, 481);
    const std::string got = instructions_csv(s);
    const std::string path =
        std::string(LAYOUTLAB_SOURCE_DIR) + "/tests/core/golden/aicore_gemm32.csv";
    if (std::getenv("LAYOUTLAB_UPDATE_GOLDEN")) std::ofstream(path) << got;
    std::ifstream in(path);
    ASSERT_TRUE(in) << path;
    std::stringstream want;
    want << in.rdbuf();
    EXPECT_EQ(got, want.str());
}

TEST(AicoreSweep, EstimateCloseToTheWholeRun) {
    // Problems with many blocks: the extrapolated total is within 1% of the
    // simulated one (exact when every row repeats the same way).
    const Product& a2 = product_by_id("a2");
    const Costs c = default_costs(a2);
    std::mt19937 rng(7);
    int checked = 0;
    for (int trial = 0; trial < 40 && checked < 12; ++trial) {
        std::uniform_int_distribution<int64_t> d(300, 1500);
        const Problem p = gemm_problem(d(rng), d(rng), d(rng), DType::fp16);
        Tiling t = random_tiling(p, rng);
        try {
            place(p, t, a2);
        } catch (const UsageError&) {
            continue;
        }
        const SweepRow e = estimate(p, t, a2, c);
        if (!e.estimated) continue;
        ++checked;
        const Schedule s = simulate(p, t, a2, c, false);
        EXPECT_NEAR(double(e.total_cycles), double(s.total_cycles), 0.01 * double(s.total_cycles))
            << p.describe() << " " << t.describe();
    }
    EXPECT_GE(checked, 5);
}

TEST(AicoreSchedule, HoverTextNamesFlagsAndOccupancyFollowsTheCursor) {
    const Product& a2 = product_by_id("a2");
    const Problem p = gemm_problem(64, 64, 64, DType::fp16);
    Tiling t;
    t.base_m = t.base_n = t.base_k = 32;
    t.step_ka = t.step_kb = 1;
    const Schedule s = simulate(p, t, a2, default_costs(a2));
    // The first Mmad waits for both MTE1 loads and sets a flag for a later reader.
    int32_t mmad = -1;
    for (size_t i = 0; i < s.instrs.size() && mmad < 0; ++i)
        if (s.instrs[i].op == Op::mmad) mmad = int32_t(i);
    ASSERT_GE(mmad, 0);
    const std::string d = describe(s, mmad);
    EXPECT_NE(d.find("wait_flag MTE1->Cube"), std::string::npos) << d;
    EXPECT_NE(d.find("set_flag Cube->"), std::string::npos) << d;
    EXPECT_NE(d.find("fractal steps"), std::string::npos) << d;
    // At the Mmad's start its L0A tile is live; at cycle 0 nothing is.
    const Instr& in = s.instrs[size_t(mmad)];
    for (const Occupancy& o : occupancy_at(s, 0)) EXPECT_EQ(o.live_bytes, 0);
    bool l0a_live = false;
    for (const Occupancy& o : occupancy_at(s, in.start))
        if (o.buf == Buf::l0a) l0a_live = o.live_bytes == 32 * 32 * 2;
    EXPECT_TRUE(l0a_live);
}

// The pipeline panel opens a clicked Mmad as a Cube and an L1 -> L0 load as a
// LoadData 2D with core's numbers: every Mmad's fractals multiply to its
// steps, every load reads inside its L1 tile, copies the bytes the schedule
// says, and passes LoadData's own checks.
TEST(AicoreSchedule, InstructionsInCubeAndLoadDataUnits) {
    const Product& a2 = product_by_id("a2");
    for (DType t : {DType::fp16, DType::int8}) {
        const Problem p = gemm_problem(512, 512, 256, t);
        Tiling tl;  // 128 x 128 x 64, stepK 4
        if (t == DType::int8) tl.base_k = 128;
        const Schedule s = simulate(p, tl, a2, default_costs(a2));
        int mmads = 0, loads = 0;
        for (const Instr& in : s.instrs) {
            if (in.unit == Unit::cube) {
                const MmadFractals f = mmad_fractals(in, p);
                EXPECT_EQ(f.m1 * 16, in.rows);
                EXPECT_EQ(f.n1 * 16, in.cols);
                EXPECT_EQ(f.k1 * p.k0(), in.depth);
                EXPECT_EQ(f.m1 * f.k1 * f.n1, in.steps);
                ++mmads;
            } else if (in.op == Op::load_a_l0 || in.op == Op::load_b_l0) {
                const ll::exec::Load2dParams l = l0_load_params(in, p, tl);
                EXPECT_NO_THROW(l.validate());
                EXPECT_LE(l.start_index + l.repeat, l.src_fractals);
                EXPECT_EQ(l.repeat * 512, in.bytes);
                const int64_t steps = in.op == Op::load_a_l0 ? tl.step_ka : tl.step_kb;
                EXPECT_EQ(l.start_index, (in.k % steps) * l.repeat);
                ++loads;
            } else {
                EXPECT_THROW(mmad_fractals(in, p), UsageError);
                EXPECT_THROW(l0_load_params(in, p, tl), UsageError);
            }
        }
        EXPECT_GT(mmads, 0);
        EXPECT_GT(loads, 0);
    }
    // The header's example: fp16, baseM 128, baseK 64, stepKa 4, k chunk 6.
    const Problem p = gemm_problem(4096, 4096, 4096, DType::fp16);
    Instr a;
    a.unit = Unit::mte1;
    a.op = Op::load_a_l0;
    a.rows = 128;
    a.cols = 64;
    a.k = 6;
    const ll::exec::Load2dParams l = l0_load_params(a, p, Tiling{});
    EXPECT_EQ(l.repeat, 32);
    EXPECT_EQ(l.start_index, 64);
    EXPECT_EQ(l.src_fractals, 128);
    EXPECT_EQ(l.src, ll::exec::Buffer::A1);
    EXPECT_EQ(l.dst, ll::exec::Buffer::A2);
}
