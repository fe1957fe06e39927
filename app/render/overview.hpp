// Overview and magnifier for tensors too large to read at a glance, drawn
// over a PlanView's canvas right after its draw():
//   view.draw(gpu, s, size, style);
//   render::draw_overview(view, gpu, k, dark);   // minimap, click to jump
//   render::draw_magnifier(view, gpu, k, dark);  // lens with cell numbers
// Both read the Plan through the same grid functions as the renderer
// (offset_at, PlanGpu::cell_at, cell_colour), so what they show is the cells
// of stage k, not a second picture.
#pragma once

#include "app/render/plan_gpu.hpp"
#include "app/render/plan_view.hpp"

namespace ll::render {

// The minimap: in the canvas's bottom-right corner whenever the view shows
// less than the whole of stage k, a thumbnail of the stage (colours sampled
// from the cells) with the part in view outlined. Pressing or dragging the
// mouse inside it centres the view there. Returns true while it has the mouse.
bool draw_overview(PlanView& view, PlanGpu& gpu, int k, bool dark);

// The magnifier: while the mouse is over the canvas and the cells are under
// 8 px (too small for any number), a lens beside the cursor shows the 7 x 7
// cells around it, enlarged, each with its source index ("pad" for padding).
// Returns true when it drew.
bool draw_magnifier(PlanView& view, PlanGpu& gpu, int k, bool dark);

}  // namespace ll::render
