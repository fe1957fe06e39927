// How fast the AI Core schedule is simulated and swept, against a reference
// loop measured in the same run (report the ratio; absolute times depend on
// the machine and its load).
//
//   build/tests/pipeline_bench
//
// BM_SimulateConv / BM_SimulateGemm4096: one whole schedule with every
//   instruction kept (what the CLI and the panel draw); items = instructions.
// BM_SimulateGemm4096Lean: the same without keeping instructions (the sweep's path).
// BM_SweepConv / BM_SweepGemm4096: the whole sweep (every tiling that fits,
//   ranked, Pareto front); items = tilings.
// BM_SliderDrag4096: what the panel recomputes when a base-size slider moves:
//   the kept schedule plus the three time-vs-tile-size curves.
// BM_ReferenceLoop: per instruction, a max, an add and a store of three
//   int64 - a floor for any discrete-event step.
#include <benchmark/benchmark.h>

#include <vector>

#include "core/aicore/sweep.hpp"

using namespace ll::aicore;

namespace {

const Product& a2() {
    return product_by_id("a2");
}

Tiling gemm_tiling() {
    Tiling t;  // the sweep's best for 4096^3 fp16 on A2
    t.base_m = t.base_n = 128;
    t.base_k = 64;
    t.step_ka = t.step_kb = 8;
    return t;
}

void BM_SimulateConv(benchmark::State& state) {
    const Problem p = conv_problem(ll::exec::conv_case_study());
    const Costs c = default_costs(a2());
    const Tiling t = best_tiling(p, a2(), c, true);
    int64_t n = 0;
    for (auto _ : state) {
        Schedule s = simulate(p, t, a2(), c, true);
        n += int64_t(s.instrs.size());
        benchmark::DoNotOptimize(s.total_cycles);
    }
    state.SetItemsProcessed(n);
}
BENCHMARK(BM_SimulateConv)->Unit(benchmark::kMicrosecond);

void BM_SimulateGemm4096(benchmark::State& state) {
    const Problem p = gemm_problem(4096, 4096, 4096, ll::DType::fp16);
    const Costs c = default_costs(a2());
    int64_t n = 0;
    for (auto _ : state) {
        Schedule s = simulate(p, gemm_tiling(), a2(), c, true);
        n += int64_t(s.instrs.size());
        benchmark::DoNotOptimize(s.total_cycles);
    }
    state.SetItemsProcessed(n);
}
BENCHMARK(BM_SimulateGemm4096)->Unit(benchmark::kMillisecond);

void BM_SimulateGemm4096Lean(benchmark::State& state) {
    const Problem p = gemm_problem(4096, 4096, 4096, ll::DType::fp16);
    const Costs c = default_costs(a2());
    int64_t n = 0;
    for (auto _ : state) {
        Schedule s = simulate(p, gemm_tiling(), a2(), c, false);
        for (const UnitStats& u : s.units) n += u.count;
        benchmark::DoNotOptimize(s.total_cycles);
    }
    state.SetItemsProcessed(n);
}
BENCHMARK(BM_SimulateGemm4096Lean)->Unit(benchmark::kMillisecond);

void BM_SweepConv(benchmark::State& state) {
    const Problem p = conv_problem(ll::exec::conv_case_study());
    const Costs c = default_costs(a2());
    int64_t rows = 0;
    for (auto _ : state) {
        SweepResult r = sweep(p, a2(), c, true);
        rows += int64_t(r.rows.size());
        benchmark::DoNotOptimize(r.pareto.data());
    }
    state.SetItemsProcessed(rows);
}
BENCHMARK(BM_SweepConv)->Unit(benchmark::kMillisecond);

void BM_SweepGemm4096(benchmark::State& state) {
    const Problem p = gemm_problem(4096, 4096, 4096, ll::DType::fp16);
    const Costs c = default_costs(a2());
    int64_t rows = 0;
    for (auto _ : state) {
        SweepResult r = sweep(p, a2(), c, true);
        rows += int64_t(r.rows.size());
        benchmark::DoNotOptimize(r.pareto.data());
    }
    state.SetItemsProcessed(rows);
}
BENCHMARK(BM_SweepGemm4096)->Unit(benchmark::kMillisecond);

void BM_SliderDrag4096(benchmark::State& state) {
    const Problem p = gemm_problem(4096, 4096, 4096, ll::DType::fp16);
    const Costs c = default_costs(a2());
    for (auto _ : state) {
        Schedule s = simulate(p, gemm_tiling(), a2(), c, true);
        for (int w = 0; w < 3; ++w) {
            std::vector<SizePoint> v = size_curve(p, gemm_tiling(), a2(), c, w);
            benchmark::DoNotOptimize(v.data());
        }
        benchmark::DoNotOptimize(s.total_cycles);
    }
}
BENCHMARK(BM_SliderDrag4096)->Unit(benchmark::kMillisecond);

void BM_ReferenceLoop(benchmark::State& state) {
    const size_t n = 1 << 18;
    std::vector<int64_t> out(3 * n);
    int64_t free_at = 0;
    for (auto _ : state) {
        for (size_t i = 0; i < n; ++i) {
            const int64_t start = std::max(free_at, out[3 * ((i * 7) % n) + 2]);
            free_at = start + int64_t(i & 15) + 1;
            out[3 * i] = start;
            out[3 * i + 1] = int64_t(i);
            out[3 * i + 2] = free_at;
        }
        benchmark::DoNotOptimize(out.data());
    }
    state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(n));
}
BENCHMARK(BM_ReferenceLoop)->Unit(benchmark::kMicrosecond);

}  // namespace
