// Drawing helpers of the planning panel (app/panels/planning_panel.cpp): the
// operator graph with its layouts and mismatches, an address-stream plot, and
// the NoC transpose on a grid of PEs. They draw into the current ImGui window
// and report clicks; the panel keeps all state.
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

#include "core/netplan/noc.hpp"
#include "core/netplan/strategy.hpp"

namespace ll::gui::planning {

// Colours with a meaning (the GUI tests look for kMismatch: it marks a
// mismatched edge and is used for nothing else).
constexpr ImU32 kMismatch = IM_COL32(235, 64, 52, 255);
constexpr ImU32 kMismatchLegend = IM_COL32(235, 64, 54, 255);  // looks the same, counts apart
constexpr ImU32 kFixed = IM_COL32(90, 200, 120, 255);          // fixed by an upstream decision
constexpr ImU32 kChanged = IM_COL32(250, 190, 70, 255);        // layout changed by a decision
constexpr ImU32 kSelected = IM_COL32(255, 220, 120, 255);

// A text the graph drew: what kind ("node", "op", "layout", "edge",
// "marker"), its ink, the fill of the box it stands on, its place and size.
struct GraphText {
    std::string text;
    const char* kind;
    ImU32 ink, box;
    ImVec2 at, size;
};

struct GraphClick {
    int node = -1;         // index into Graph::nodes
    long edge = -1;        // index into Propagation::edges
    ImVec2 content{0, 0};  // the drawn graph's size in pixels (before centring)
    std::vector<GraphText> texts;
};

// The most nodes in one column of the drawn graph (for sizing the canvas).
int graph_rows(const netplan::Graph& g);

// The size draw_graph's content takes in the current font (before it is
// drawn, so a panel fits the type in the same frame).
ImVec2 graph_content_size(const netplan::Graph& g, const netplan::NetPlan* plan);

// The graph as columns of nodes (by depth) with bezier edges; each edge is
// labelled with its stored layout, a mismatch with "source -> target" and
// the decision's strategy. `plan` is null when the graph does not propagate.
// `scroll` false (a slide, whose scale makes the graph fit): no scroll bars.
GraphClick draw_graph(const netplan::Graph& g, const netplan::NetPlan* plan, int selected_node,
                      long selected_edge, float height, bool scroll = true);

// Element offsets against step for one address stream, on its own y scale
// (lowest to highest offset; scale > 0: 0 to at least `scale`, shared): a
// contiguous stream is a ramp, a strided one a saw-tooth or a staircase.
// A text row above the plot holds the offsets' range, `note` and the step
// count. Returns what it drew: the offsets' range and the pixels the line spans
// vertically out of the plot's height (the probe's "streams": a stream on
// its own scale spans the plot, not a flat line).
struct StreamPlotDrawn {
    int64_t bottom = 0, top = 0;
    float span_px = 0, plot_px = 0;
};
StreamPlotDrawn draw_stream_plot(const std::string& title, const std::vector<int64_t>& offsets,
                                 ImVec2 size, ImU32 colour, int64_t scale, bool dark = true,
                                 const std::string& note = "");

// The mesh of PEs, link loads as line widths, and the blocks in flight at
// time t (in hops). Returns the height used.
float draw_noc_grid(const netplan::NocPlan& noc, float t, float cell);

}  // namespace ll::gui::planning
