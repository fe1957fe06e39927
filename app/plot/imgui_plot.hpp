// The window painter of the plotting component: draws a PlotSpec with
// ImGui's ImDrawList through the same layout + paint routine as SVG and PNG,
// and shows a tooltip for the point, bar or cell under the mouse.
#pragma once

#include <imgui.h>

#include "app/plot/plot.hpp"

namespace ll::plot {

// Reserves `size` (negative or zero: the available width / 320 px high) at
// the cursor, paints the plot and handles hover. `id` must be unique in the window.
void show_plot(const char* id, const PlotSpec& spec, ImVec2 size = ImVec2(0, 0));

}  // namespace ll::plot
