// Presentation mode's caption: the line under the diagram that says, in
// large type, what the picture shows now (the stage's label and formula).
#pragma once

#include <imgui.h>

#include "app/panels/panel.hpp"

namespace ll::gui {

// Height the caption takes at the current font (two lines, large).
float caption_height();
// Draws `c` (the panel's title when c.title is empty) into [pos, pos + (w, caption_height())].
void draw_caption(const AppContext::Caption& c, const char* panel_title, ImVec2 pos, float w,
                  bool dark);

}  // namespace ll::gui
