// Staged motion: between two stages cells move in waves (one destination
// row, or one fractal/block, at a time) instead of all at once, so the eye
// can follow a group. Core says which wave each cell belongs to; the
// renderer only shifts each cell's interpolation parameter by its wave
// (wave_t below, mirrored by shaders/cells.vert).
//
// Grouping for the step from stage k to stage k+1, by where the cell lands
// in stage k+1 (o = its offset there, shape (..., R, C)):
//   row:    o / C                 (a memory stage: o / row_elems, one 32-byte row)
//   block:  o / (R * C)           (a memory stage: o / fractal_elems, one 512-byte fractal)
// Cells hidden in stage k+1 (not yet there) take the wave of their place in
// stage k. Groups are numbered in order of first appearance along the
// destination, then merged evenly so there are at most `max_waves` waves.
// Example: ND (2,28) fp16 -> FRACTAL_NZ, step transpose -> memory by block:
// 2 waves, cells 0..255 wave 0, 256..511 wave 1.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/plan.hpp"

namespace ll {

enum class WaveBy : uint8_t { none, row, block };
const char* name(WaveBy w);
WaveBy wave_by_from_name(const std::string& s);  // throws UsageError
const std::vector<WaveBy>& all_wave_modes();

struct Waves {
    int count = 1;              // number of waves (1: all at once)
    std::vector<int32_t> wave;  // per cell, 0 .. count-1 (empty: all 0)
};

// The waves of the step from stage k to k+1 (k+1 past the last: one wave).
Waves stage_waves(const Plan& p, size_t k, WaveBy by, int max_waves = 32);

// The interpolation parameter of a cell in wave w of `count` waves when the
// step as a whole is at t in [0,1]: wave w moves while t runs from
// w / (count+1) to (w+2) / (count+1), so each wave overlaps half of the next,
// wave 0 starts at t = 0 and the last ends at t = 1.
// Example: 3 waves: wave 0 over [0, 0.5], wave 1 [0.25, 0.75], wave 2 [0.5, 1].
float wave_t(float t, int w, int count);

}  // namespace ll
