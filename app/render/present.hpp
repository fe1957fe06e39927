// What the renderer needs to know about the display as a whole, set once per
// frame by the host: the UI scale (cells grow with the text) and whether the
// window is in presentation mode (a diagram may grow to fill it). And the
// probe of presentation mode: the union of the screen rectangles that
// diagrams covered in the frame, which --dump-view writes as "diagram" so a
// test can check that the picture fills the window.
#pragma once

#include <imgui.h>

#include "app/render/palette.hpp"

namespace ll::render {

struct Display {
    float ui_scale = 1;    // the user's UI scale (fonts and sizes)
    bool present = false;  // presentation mode
    bool dark = true;      // the theme
    // Presentation mode: the region the panel draws in (the window less the
    // caption), ImGui screen pixels.
    ImVec2 slide_min{0, 0}, slide_max{0, 0};
    // Largest cell the fit gives, in pixels: 5 lines of text normally (80 px
    // at scale 1, so a 2x2 tensor does not become four posters), 12 lines in
    // presentation mode, where the diagram is the slide.
    float max_cell() const { return (present ? 192.f : 80.f) * ui_scale; }
};

// The display of the current frame (the host writes it before panels draw).
Display& display();

// The palette colour of role r in the current theme, for ImGui::TextColored
// and PushStyleColor (error text, warnings) where no `dark` is at hand.
ImVec4 theme_colour(Role r);

// Diagram bounds of the current frame, in ImGui screen pixels.
void diagram_reset();
// A diagram drew inside [a, b] (clipped by the caller to what is visible).
void diagram_note(ImVec2 a, ImVec2 b);
// The union of the notes since the reset; false when none.
bool diagram_bounds(ImVec2& a, ImVec2& b);

}  // namespace ll::render
