// Follow one element: where a cell of a Plan sits at every stage, in words.
//
// A student who pins element k wants one sentence per stage ("row 1, column
// 3", "fractal (0,0), row 1, column 3", "offset 19, byte 0x26") and one line
// for the whole journey. Everything here reads the Plan alone (stage shapes,
// axis names, grids, dtype, offsets), so the explorer, the compare panel and
// a CLI twin print the same words.
//
// How a stage's place is worded (o = the cell's offset in the stage):
//   - memory (a linear grid): "offset o, byte 0xB" with B = o * bits / 8;
//     int4 adds "(low nibble)" / "(high nibble)".
//   - a tensor of rank 1: "index i"; rank 2: "row r, column c".
//   - rank >= 3 whose last two axis names are plain names ending in '0'
//     (M0/N0, K0/N0, ...; not merged ones like M1*M0): a
//     fractal layout: "fractal (a,b), row r, column c" (the leading
//     coordinates name the fractal).
//   - any other rank >= 3: "(N,C,H,W) (0,1,2,3)" with the axis names when the
//     stage has them, else "(0,1,2,3)".
//   - hidden (-1): "not there yet (padding added later)".
// Example: ND (2,28) fp16 -> FRACTAL_NZ, source element 31 (row 1, column 3)
// is cell 19, and narration(p, 19) ==
//   "row 1, column 3 -> (M1,M0,N1,N0) (0,1,0,3) -> fractal (0,0), row 1,
//    column 3 -> offset 19, byte 0x26"
// (the pad stage says "row 1, column 3" again, so it is said once).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/plan.hpp"

namespace ll {

// One stage's phrase for `cell` (see the wording above).
std::string where_at(const Plan& p, size_t k, int64_t cell);

// The offset of `cell` at stage k (offset_of when the plan has it, else the
// stage's full offsets).
int64_t offset_at_stage(const Plan& p, size_t k, int64_t cell);

// What happened to `cell` in the step into stage k (k >= 1): "transpose:
// (M1,M0,N1,N0) (0,1,0,3) -> fractal (0,0), row 1, column 3", or
// "pad: stays at row 1, column 3" when the phrase does not change. Stage 0:
// "source: row 1, column 3". Padding cells start "padding element: ".
std::string narrate_step(const Plan& p, size_t k, int64_t cell);

// The whole journey: every stage's phrase joined by " -> ", equal
// consecutive phrases once. A padding cell starts with "padding -> ".
std::string narration(const Plan& p, int64_t cell);

// The cell holding source element `src` (row-major index into
// p.src_shape), -1 when none (out of range, or cropped away).
int64_t cell_of_source(const Plan& p, int64_t src);

}  // namespace ll
