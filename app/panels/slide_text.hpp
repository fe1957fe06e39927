// The type size of a picture on a slide (presentation mode): the UI's font
// suits a desk, but on a tall slide the cells grow far past it and the
// picture's captions and ticks read as footnotes. A panel sets this as its
// window's font scale while it lays out and draws the slide's picture.
#pragma once

#include <imgui.h>

#include <algorithm>

namespace ll::gui {

// 1 while the slide holds fewer than about 40 lines of the UI's text (a
// projector at UI scale 1.5), growing with the slide's height to at most 1.8.
inline float slide_text_scale() {
    return std::clamp(ImGui::GetContentRegionAvail().y / (40 * ImGui::GetFontSize()), 1.f, 1.8f);
}

}  // namespace ll::gui
