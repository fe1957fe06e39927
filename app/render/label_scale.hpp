// The type size of a grid's labels (app/render/grid_labels.hpp) and of the
// element numbers in its cells when the cells are larger than the desk's.
// On a slide the fit makes cells of up to 192 px while ticks and axis names
// stayed at the body size (16 px): footnotes, unreadable from the back of a
// lecture hall. Up to the normal fit's largest cell (Display::max_cell()
// outside presentation mode, 80 px per UI scale) labels keep the body size,
// so the desk and the projector do not change; beyond it they grow one and a
// half times as fast as the cells, to at most 2.2 times the body size, which
// keeps them under a fifth of a cell: they never outweigh the cells.
#pragma once

#include <algorithm>

#include "app/render/present.hpp"

namespace ll::render {

// How fast labels grow with cells past the desk's largest cell.
constexpr float kLabelGrowth = 1.5f;
// The most the labels grow, times the UI's text.
constexpr float kMaxLabelScale = 2.2f;

// The text scale for labels of cells `cell_px` pixels tall.
inline float label_text_scale(float cell_px) {
    Display desk = display();
    desk.present = false;
    const float base = desk.max_cell();
    if (!(base > 0) || !(cell_px > base)) return 1.f;
    return std::min(1.f + kLabelGrowth * (cell_px / base - 1.f), kMaxLabelScale);
}

}  // namespace ll::render
