// Drawing a stage's labels (core/plan_labels.hpp: axis names, ticks, block
// tags, addresses, captions) so they stay readable at any zoom: text keeps
// its pixel size, ticks and addresses thin out to every 2nd, 5th, 10th ...
// when their spacing is smaller than the text, no label overlaps another, and
// a label that would be cut by the canvas edge is left out rather than cut.
// The camera fit leaves room for them (label_margins).
// On cells bigger than the desk's the text grows (app/render/label_scale.hpp).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/render/overlays.hpp"
#include "core/plan.hpp"

namespace ll::render {

// Pixels the labels of st need outside its grid on each side.
struct LabelMargins {
    float left = 0, top = 0, right = 0, bottom = 0;
    // Labels placed at a point beside the grid (the Cube's m0 left of A, a
    // caption right of B) need, besides their text's pixels, the cells
    // between the grid's edge and their point.
    float cells_left = 0, cells_right = 0;
    // Block tags over the grid's left edge stand left of the row labels
    // when the cells are too small to hold them in the gap above their
    // block (draw_labels): the left margin they then need, and their text
    // height, which with the fit's zoom says whether they will.
    float tag_left = 0, tag_h = 0;
};
// Whether block tags of text height tag_h (pixels) leave the gap above
// their block at `zoom` pixels a cell: a tag shrinks to 70% before it does.
bool tags_beside(float zoom, float tag_h);
// `scale`: the labels' text scale (OverlayFrame::label_scale).
LabelMargins label_margins(const Stage& st, float scale = 1);

// A label as drawn in the last frame (screen pixels), for --dump-view probes.
struct DrawnLabel {
    std::string text;
    Label::Kind kind = Label::caption;
    float x = 0, y = 0, w = 0, h = 0;
};

// Draws st.labels into f; appends what was drawn to `drawn` when given.
void draw_labels(const OverlayFrame& f, const Stage& st, std::vector<DrawnLabel>* drawn);

// [{"text", "kind", "rect": [x, y, w, h]}, ...] of drawn labels.
nlohmann::json labels_json(const std::vector<DrawnLabel>& v);

}  // namespace ll::render
