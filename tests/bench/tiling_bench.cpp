// How fast the tiling sweep is: configurations per second on one core,
// against a trivial reference loop measured in the same run (the ratio is
// what to report; absolute rates depend on the machine and its load).
//
//   build/tiling_bench --benchmark_counter_tabular=true
//
// BM_Sweep: the whole sweep (evaluation + ranking + Pareto front) of the
//   document's tensor (1,64,56,56) fp32 NCHW, divisor tile sizes, all 36 order
//   pairs: items = configurations.
// BM_EvaluateFast: one configuration at a time through evaluate_fast(), no
//   sharing across orders (the slow path the sweep avoids).
// BM_ReferenceLoop: per configuration, one division by a stride-derived
//   efficiency written to an array: a floor for any per-configuration work.
#include <benchmark/benchmark.h>

#include <vector>

#include "core/tiling/sweep.hpp"

using namespace ll::tiling;

namespace {

SweepSpec doc_spec() {
    SweepSpec s;
    s.base.mem.dram.setup_ns = 50;
    s.base.mem.sram.setup_ns = 5;
    return s;
}

void BM_Sweep(benchmark::State& state) {
    const SweepSpec s = doc_spec();
    int64_t rows = 0;
    for (auto _ : state) {
        SweepResult r = sweep(s);
        rows += int64_t(r.rows.size());
        benchmark::DoNotOptimize(r.pareto.data());
    }
    state.SetItemsProcessed(rows);
    state.counters["configs"] = double(rows) / double(state.iterations());
}
BENCHMARK(BM_Sweep)->Unit(benchmark::kMillisecond);

void BM_EvaluateFast(benchmark::State& state) {
    Config c = doc_spec().base;
    const auto& orders = all_orders();
    size_t k = 0;
    for (auto _ : state) {
        c.l1_order = orders[k % 6];
        c.l2_order = orders[(k / 6) % 6];
        ++k;
        benchmark::DoNotOptimize(evaluate_fast(c));
    }
    state.SetItemsProcessed(int64_t(state.iterations()));
}
BENCHMARK(BM_EvaluateFast);

void BM_ReferenceLoop(benchmark::State& state) {
    const int64_t n = 1'000'000;
    std::vector<double> out(static_cast<size_t>(n));
    const int64_t strides[6] = {1, 56, 3136, 1, 196, 14};
    for (auto _ : state) {
        for (int64_t i = 0; i < n; ++i) {
            const double eta = ll::access_efficiency(strides[i % 6] + (i & 1), 4.0, 0);
            out[size_t(i)] = 802816.0 / (100e3 * eta);
        }
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(int64_t(state.iterations()) * n);
}
BENCHMARK(BM_ReferenceLoop)->Unit(benchmark::kMillisecond);

}  // namespace
