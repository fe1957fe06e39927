// Sweep of the two-level tiling model: every L1 order x every L2 order x every
// (tile, sub-tile) pair from per-dimension candidate sizes that fits the
// capacities (tile in SRAM, sub-tile in registers), ranked by total time,
// with the Pareto front of time vs on-chip footprint (tile + sub-tile bytes).
//
// Contract:
//   * rows hold every configuration evaluated, each with the same figures as
//     tiling::evaluate() for that configuration;
//   * ranking lists row indices by (total_us, footprint, index) ascending;
//   * pareto lists row indices by footprint ascending; no row has both a
//     footprint <= and a time <= a front point with one of them strictly less,
//     and every row off the front is dominated by (or equal to) a front point.
// Example: shape (1,64,56,56) fp32 NCHW, default candidates (divisors of each
//   extent) -> 36 order pairs per (tile, sub-tile) pair; the fastest rows use
//   W_H_C at both levels.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core/tiling/tiling.hpp"

namespace ll::tiling {

struct SweepSpec {
    Config base;  // shape, layout, dtype, hierarchy, l2_passes, basis (tiles/orders ignored)
    // Candidate sizes for C, H, W; an empty list means divisors_of(extent).
    // Sub-tile sizes come from the same list, limited to the tile's extent.
    std::array<std::vector<int64_t>, 3> candidates;
    int64_t max_configs = 4'000'000;  // UsageError above this (about 110 B each)
};

struct SweepRow {
    Extent3 tile, sub;
    uint8_t l1_order = 0, l2_order = 0;  // indices into all_orders()
    float l1_eff = 0, l2_eff = 0;
    double l1_us = 0, l2_us = 0;
    int64_t footprint = 0;  // tile bytes + sub-tile bytes
    double total_us() const { return l1_us + l2_us; }
};

struct SweepResult {
    std::vector<SweepRow> rows;
    std::vector<uint32_t> ranking;
    std::vector<uint32_t> pareto;
    int64_t skipped_capacity = 0;  // (tile, sub-tile) pairs left out for capacity
};

std::vector<int64_t> divisors_of(int64_t n);
// Throws UsageError like validate() (bad shape, bandwidth, ...) and when a
// candidate is <= 0 or larger than the tensor.
SweepResult sweep(const SweepSpec& spec);
// Pareto front of (footprint, total_us), both minimised; exposed for tests.
std::vector<uint32_t> pareto_front(const std::vector<SweepRow>& rows);

}  // namespace ll::tiling
