// Presentation mode's caption: the line under the diagram that says, in
// large type, what the picture shows now (the stage's label and formula).
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

#include "app/panels/panel.hpp"

namespace ll::gui {

// Height the caption takes at the current font (two lines, large).
float caption_height();
// Draws `c` (the panel's title when c.title is empty) into [pos, pos + (w, caption_height())].
void draw_caption(const AppContext::Caption& c, const char* panel_title, ImVec2 pos, float w,
                  bool dark);

// A caption line as drawn in the last frame (screen pixels) and the width it
// had to fit in [min_x, max_x], for --dump-view's probe.
struct CaptionLine {
    std::string text;
    float x = 0, y = 0, w = 0, h = 0;
    float min_x = 0, max_x = 0;
};
const std::vector<CaptionLine>& caption_lines();

}  // namespace ll::gui
