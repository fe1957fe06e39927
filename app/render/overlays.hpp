// Drawing a stage's overlays (core/plan.hpp: boxes, arrows, labels,
// highlighted cells) over the cells, with ImGui's draw list. The overlay data
// comes from core; this file only maps cell units to pixels and picks colours
// that read on both themes.
#pragma once

#include <imgui.h>

#include <functional>
#include <vector>

#include "core/plan.hpp"

namespace ll::render {

struct DrawnLabel;  // app/render/grid_labels.hpp

struct OverlayFrame {
    ImDrawList* dl = nullptr;
    ImVec2 clip_min, clip_max;               // the canvas
    std::function<ImVec2(float, float)> at;  // cell units -> screen pixels
    float zoom = 1;                          // pixels per cell
    bool dark = true;
    float alpha = 1;                           // fade while the stage glides in or out
    std::vector<DrawnLabel>* drawn = nullptr;  // labels drawn (probes), when set
    bool sparse_tags = false;                  // ViewStyle::sparse_tags
    float label_scale = 1;  // grid labels' text scale (app/render/label_scale.hpp)
};

// Boxes, arrows and labels of stage `st` (labels: see grid_labels.hpp). An
// arrow's label sits on a plate of the canvas colour, so it reads over cells.
void draw_overlays(const OverlayFrame& f, const Stage& st);

// An outline around each highlighted cell; `place` gives a cell's top-left
// corner in cell units (NaN: hidden). At most `cap` cells are outlined.
void draw_highlight(const OverlayFrame& f, const std::vector<int64_t>& cells,
                    const std::function<Place(int64_t)>& place, size_t cap = 4096);

// The same for a marked set of cells, outlined in its role's colour
// (current: the accent; done: green; pinned: magenta; each readable on both
// themes). At most `cap` cells are outlined.
void draw_cell_set(const OverlayFrame& f, const CellSet& set,
                   const std::function<Place(int64_t)>& place, size_t cap = 4096);

}  // namespace ll::render
