// Presentation mode on the panels' side (AppContext::present): the caption
// of a Plan's stage, and the rule every panel follows — when ctx.present is
// set, draw() skips its controls and side bars and gives its diagram all of
// ImGui::GetContentRegionAvail(); keys (space, arrows, Home/End) still work.
#pragma once

#include <imgui.h>

#include <string>

#include "app/panels/panel.hpp"
#include "core/plan.hpp"

namespace ll::gui {

// ctx.caption for plan p shown at (fractional) stage s: "<prefix>stage k of
// n: <label>" and the stage's formula with its shape. The nearer stage names
// the caption while cells glide.
void caption_from_stage(AppContext& ctx, const Plan& p, double s, const std::string& prefix = "");

// For diagrams drawn with ImGui rather than the cell renderer: note the
// screen rectangle [a, b] they fill for the presentation probe
// (app/render/present.hpp); the cell renderer notes its own.
void note_diagram(ImVec2 a, ImVec2 b);

}  // namespace ll::gui
