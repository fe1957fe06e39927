// The sweep of Matmul tilings: every candidate (baseM, baseN, baseK, stepK,
// order) that fits the product's buffers, simulated, ranked by total cycles
// (ties: smaller L1 footprint), with the Pareto front of time vs L1 footprint.
// The default tiling is the sweep's best.
//
// Candidates: baseM, baseN in {16, 32, 64, 128, 256} (and the padded M / N
// when smaller), baseK in k0 x {1, 2, 4, 8, 16} (and the padded K), stepKa =
// stepKb in {1, 2, 4, 8} while stepK x baseK does not pass K, both orders;
// buffering as asked (double: L1, L0A/L0B and L0C ping/pong, or a single L0C
// slot when a C tile pair does not fit L0C). Worked example: a GEMM 256x256x256 fp16 on A2 with
// double buffering sweeps a few hundred tilings; all of them fit.
#pragma once

#include <cstdint>
#include <vector>

#include "core/aicore/schedule.hpp"

namespace ll::aicore {

struct SweepRow {
    Tiling tiling;
    int64_t total_cycles = 0;
    int64_t l1_bytes = 0;  // L1 footprint (all A1/B1 slots)
    Unit bound = Unit::cube;
    double cube_utilisation = 0;
    bool estimated = false;  // extrapolated from the first blocks (see estimate())
};

// One tiling's total. The repeating unit of the run is a whole number of rows
// of the visiting order (at least kEstimateBlocks blocks; an operand tile is
// reloaded at each row change) or, for rows longer than 8 x kEstimateBlocks,
// kEstimateBlocks blocks. With at most 3 units of blocks the run is simulated
// whole; otherwise the first 2 units are, the second unit's period (the
// steady state) is extrapolated to the middle blocks, and the last unit
// (edge tiles) adds its own period, measured after the unit before it. This keeps a
// sweep of a 4096^3 GEMM interactive; the chosen tiling is then simulated
// whole (the CLI and the panel show the exact run).
constexpr int64_t kEstimateBlocks = 8;
SweepRow estimate(const Problem& p, const Tiling& t, const Product& prod, const Costs& c);

struct SweepResult {
    std::vector<SweepRow> rows;  // ranked, best first
    std::vector<size_t> pareto;  // indices into rows, by footprint ascending
    int64_t skipped = 0;         // candidates that do not fit
};

SweepResult sweep(const Problem& p, const Product& prod, const Costs& c, bool double_buffer);

// The best tiling that fits; UsageError when none does.
Tiling best_tiling(const Problem& p, const Product& prod, const Costs& c, bool double_buffer);

// Total cycles against one base size (0 baseM, 1 baseN, 2 baseK), the others
// as in `t`: every candidate size that fits (sizes that do not fit are left
// out), each total from estimate().
struct SizePoint {
    int64_t size = 0;
    int64_t total_cycles = 0;
};
std::vector<SizePoint> size_curve(const Problem& p, const Tiling& t, const Product& prod,
                                  const Costs& c, int which);

std::vector<int64_t> base_candidates(const Problem& p, int which);  // 0 M, 1 N, 2 K

}  // namespace ll::aicore
