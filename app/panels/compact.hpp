// Compact controls for short windows (a projector at 1024x768 with a large UI
// scale): when the window holds fewer than about 45 lines of text, a panel
// folds its secondary controls under a collapsing header whose label sums
// them up, so that its picture keeps at least half the window's height.
#pragma once

#include <imgui.h>

#include <string>

namespace ll::gui {

// True when the space left in the window is short for its text size.
inline bool compact_layout() {
    return ImGui::GetContentRegionAvail().y < 45.0f * ImGui::GetFontSize();
}

// A collapsing header (closed at first) whose visible label is `summary`
// while its id stays `id`, so editing a value does not reopen or close it.
inline bool compact_header(const std::string& summary, const char* id) {
    return ImGui::CollapsingHeader((summary + "###" + id).c_str());
}

}  // namespace ll::gui
