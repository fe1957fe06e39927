// Printable forms of a Plan: what a picture shows, as text a golden test or a
// script can check. The renderer draws exactly these stages and overlays.
//
// plan_text: one block per stage, e.g. for ND (2,2,28) fp16 -> FRACTAL_NZ
//   stage 0 "source" (2,2,28) axes (N,H,W)
//     offsets: 0 1 2 ... (cells in cell order; '.' hidden)
//     box fractal (0,0 16x16) "fractal 0"
// Offsets are printed only when the plan has at most `max_cells` cells.
//
// plan_json: {title, cell_count, dtype, src_shape, stages: [{label, formula,
//   shape, axes, grid, offsets?, boxes, arrows, labels, highlight}],
//   offsets_omitted?: "<why>"}. `offsets` per stage is the row-major offset of
//   every cell in that stage's tensor (-1 hidden), present when cell_count <=
//   max_cells; otherwise the stages carry no offsets and `offsets_omitted`
//   says the limit.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "core/plan.hpp"

namespace ll {

// A label kind's name as plan_text/plan_json (and the renderer's probe) print it.
const char* label_kind(Label::Kind k);
std::string plan_text(const Plan& p, int64_t max_cells = 4096);
nlohmann::json plan_json(const Plan& p, int64_t max_cells = 1 << 16);

}  // namespace ll
