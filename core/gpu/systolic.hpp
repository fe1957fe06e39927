// A weight-stationary systolic array (Google TPU, document 004) running a
// GEMM C (M x N) = A (M x K) x B (K x N), cycle by cycle, beside the Ascend
// Cube's 16x16x16 fractal step for the same GEMM.
//
// Dataflow of an R x Cc array of processing elements (PEs):
//   - weights stay: for each weight tile (k0 .. k0+Kt, n0 .. n0+Nt), Kt <= R,
//     Nt <= Cc, the weights enter from the top one row per cycle
//     (load_cycles_per_row = 1) and after Kt cycles PE(i, j) holds
//     B[k0 + i][n0 + j];
//   - activations flow right: A[m][k0 + i] enters row i at cycle m + i of the
//     streaming phase (the skew) and moves one PE per cycle, so it is in
//     PE(i, j) during cycle m + i + j;
//   - partial sums flow down: PE(i, j) adds A[m][k0+i] * B[k0+i][n0+j] to the
//     sum from above during that same cycle, and the bottom PE hands the sum
//     for C[m][n0 + j] to the accumulators after cycle m + Kt - 1 + j.
// A tile's streaming phase lasts M + Kt + Nt - 2 cycles; tiles run one after
// another, N tiles outer, K tiles inner (the accumulators sum the K tiles).
// Utilisation = M K N / (R Cc total cycles).
//
// Example: R = Cc = 4, M = 6, K = N = 4: one tile, 4 load + 12 streaming =
// 16 cycles for 96 MACs on 16 PEs -> 37.5%. The Cube (fp16, 16x16x16 per
// step, one step per cycle) does the same GEMM in ceil(6/16) ceil(4/16)
// ceil(4/16) = 1 step at 96 / 4096 = 2.3% of its MACs: it pays for its size on
// small problems and wins on large ones (M = K = N = 64: the 4x4 array
// takes 256 tiles x 74 = 18944 cycles, the Cube 64).
//
// systolic_run() simulates the registers of every PE cycle by cycle (not the
// formulas above) on seeded integer inputs, so its output must equal the
// direct product and its last output must leave at the cycle the formulas
// give; the tests check both.
#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/plan.hpp"

namespace ll::gpu {

struct SystolicParams {
    int64_t rows = 4, cols = 4;       // the PE array, 1..16 each
    int64_t m = 6, k = 4, n = 4;      // the GEMM, 1..64 each
    int64_t load_cycles_per_row = 1;  // weight loading, 0..8 cycles per row of weights
    uint32_t seed = 1;
};
// Throws UsageError keyed "rows", "cols", "m", "k", "n", "load_cycles_per_row".
void check(const SystolicParams& p);

struct SystolicTile {
    int64_t k0 = 0, n0 = 0, kt = 0, nt = 0;  // the weights this tile holds
    int64_t start = 0;                       // first cycle (weight loading)
    int64_t stream_start = 0;                // first streaming cycle
    int64_t end = 0;                         // one past the last cycle
};

struct SystolicSummary {
    std::vector<SystolicTile> tiles;
    int64_t cycles = 0, load_cycles = 0, stream_cycles = 0;
    int64_t macs = 0;  // M K N
    double utilisation = 0;
    // The Cube for the same GEMM (fp16, 16x16x16 per step, one step a cycle).
    int64_t cube_m1 = 0, cube_k1 = 0, cube_n1 = 0, cube_steps = 0;
    double cube_utilisation = 0;
};
SystolicSummary systolic_summary(const SystolicParams& p);

// What is in the array during one cycle.
struct PeState {
    bool active = false;  // an activation and a partial sum pass through
    int64_t m = -1;       // the row of A (and C) it works on
    int64_t summed = 0;   // k terms in the partial sum after this cycle
};
struct CycleState {
    int64_t cycle = 0, tile = -1;  // tile -1: done
    bool loading = false;          // weights entering
    int64_t loaded_rows = 0;       // weight rows in the array (loading)
    std::vector<PeState> pes;      // rows x cols, row-major
    int64_t active_pes = 0;
    int64_t outputs_done = 0;  // C elements with every k term summed
};
// The state during cycle `cycle`, 0..cycles (cycles: after the last).
CycleState systolic_state(const SystolicParams& p, int64_t cycle);

struct SystolicRun {
    SystolicSummary summary;
    std::vector<int64_t> a, b, c, direct;  // row-major M x K, K x N, M x N, M x N
    int64_t last_output_cycle = -1;        // when the last sum left the array
    int64_t max_active_pes = 0;
    bool equal = false;
};
SystolicRun systolic_run(const SystolicParams& p);

// At most this many cycles are drawn (UsageError "cycles" above it).
constexpr int64_t kSystolicPlanCycles = 4096;
// The animation: one stage per cycle plus a final one. Cells: the skewed A
// copies of every tile pass (blue, waiting at the left of their row, then in
// the activation slot of the PE they pass), the weights (green, in the B
// matrix on the right until their tile, entering from the top, then in the
// PE's weight slot), the partial sums (dark red, in the PE's sum slot) and C
// (bright red, below the array, shown once every k term is summed). Each PE is a 2 x 2 block:
// weight | activation over . | sum. Overlays: the PEs (active ones highlighted), the matrices, the
// tile's weights framed in B, a caption with the cycle and phase.
Plan systolic_plan(const SystolicParams& p);

nlohmann::json systolic_to_json(const SystolicRun& r, const SystolicParams& p);

}  // namespace ll::gpu
