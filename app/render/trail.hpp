// Following one pinned element: where it is in the view now, a ghost of the
// stage it came from, and a strip of small frames (one per stage) that shows
// its place in each stage's own grid. The places come from PlanGpu (core's
// offsets through the stage grids); nothing here computes an engine fact.
//
// Why frames: every stage has its own grid, so a place of stage j drawn over
// stage k's cells lands on an unrelated cell. The view marks only where the
// element is now (and, faintly, where it was in the previous stage, labelled
// as such); the strip shows the whole journey, each point in its own frame.
#pragma once

#include <imgui.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include "app/render/grid_labels.hpp"
#include "app/render/plan_gpu.hpp"

namespace ll::render {

// The pinned cell in a view at stage ka -> kb, parameter tt (already eased
// and shifted by the cell's wave). `at` maps cell units to screen pixels.
struct PinFrame {
    ImDrawList* dl = nullptr;
    std::function<ImVec2(float, float)> at;
    float zoom = 1;  // pixels per cell
    bool dark = true;
    int ka = 0, kb = 0;
    float tt = 0;
    // The grid labels the view drew this frame: the ghost's label goes where
    // it covers none of them (below its outline, else above, else not at all).
    const std::vector<DrawnLabel>* avoid = nullptr;
    // Out: the ghost label's screen rectangle [x0, y0, x1, y1] (NaN: none drawn).
    ImVec4* ghost_label = nullptr;
};
// Draws a ring around the pinned cell where it is now and, when the view
// has moved past stage 0, the ghost: the previous stage's grid outline and
// the cell's place there (dashed), with an arrow to where it is now.
// Returns the marker's centre on screen (NaN when the cell is hidden).
ImVec2 draw_pinned(PlanGpu& gpu, int64_t cell, const PinFrame& f);

// One frame of the trail strip, for probes and tests.
struct TrailMark {
    int stage = 0;
    int64_t offset = -1;          // the cell's offset in the stage (-1 hidden)
    Place place{NAN, NAN};        // in the stage's cell units
    ImVec2 grid_origin{0, 0};     // screen point of cell unit (0, 0)
    float scale = 0;              // pixels per cell unit in the frame
    ImVec2 frame_min, frame_max;  // the frame on screen
};
// Draws the strip (one frame per stage, the stage in view emphasised) into
// a `size` rectangle at the cursor and returns where each mark went.
std::vector<TrailMark> draw_trail_strip(PlanGpu& gpu, int64_t cell, float stage, ImVec2 size,
                                        bool dark);

}  // namespace ll::render
