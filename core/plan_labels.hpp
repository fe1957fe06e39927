// Labels every grid carries: axis names, index ticks, block (fractal) tags and
// memory addresses, built from a stage's axis names and its grid. Engines call
// add_grid_labels() once a stage has its grid; the renderer draws Stage::labels
// for every panel the same way (app/render/grid_labels.cpp).
//
// Layout, for a tensor grid of rank r drawn as blocks of (axis -2) x (axis -1):
//   - the last axis: its name above the first block (lane 1), ticks 0..n-1
//     above each column (lane 0);
//   - axis -2: its name at the top-left corner, on the line of the column
//     axis's name; ticks to the left of each row, of the first block and,
//     when there are at most kRowTickBlocks of them with at most kMaxTicks
//     ticks in all, of every block on the left edge;
//   - the axes before: one tag per block above its top-left corner (in the
//     gap between blocks), e.g. "n1=0 m1=1" (names in lower case, as the
//     documents write fractal indices), or "[0,1]" when the axes have no
//     names; the first block's ticks and name then stand one lane higher;
//   - a stage drawn with its last two axes merged (stage_grid's channels-last
//     picture) gets ticks per pixel group, named "W x C".
// A memory (linear) grid gets the byte address above every band and to the
// left of every 512-byte fractal row, and element ticks above its first band.
// Ticks thin out in core for long axes (at most kMaxTicks per axis, at
// multiples of 1, 2, 5, 10, ...); the renderer thins them further by zoom.
#pragma once

#include "core/plan.hpp"

namespace ll {

constexpr int64_t kMaxTicks = 128;     // per axis
constexpr int64_t kMaxTags = 1024;     // block tags per stage
constexpr int64_t kRowTickBlocks = 8;  // blocks on the left edge with row ticks of their own
constexpr int64_t kMaxAddress = 2048;  // fractal addresses per memory stage

// Appends the grid labels of `s` (axis names from s.axes) to s.labels.
// `elem_bits`: bits per element, for byte addresses of a linear grid.
void add_grid_labels(Stage& s, int elem_bits);
// The same for every stage of p (p.dtype gives the element size).
void add_grid_labels(Plan& p);

// The step (1, 2, 5, 10, 20, ...) at which n ticks stay within `max`.
int64_t tick_step(int64_t n, int64_t max);

}  // namespace ll
