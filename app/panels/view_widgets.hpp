// Shared by the stride-algebra panels (views, fusion, AGU): the editor for
// "shape + layout + op chain" with its scene keys, and the drawing of a core
// picture (core/view/view_plans.hpp) with the cell renderer, filling the
// space left in the window.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/panels/scene_reader.hpp"
#include "app/render/plan_view.hpp"
#include "core/view/view.hpp"
#include "core/view/view_plans.hpp"

namespace ll::gui::viewui {

// Shape, input layout, element size, base address and an ordered list of op
// texts: the part of the views and fusion settings the editor owns.
struct ChainEditor {
    char shape[64] = "2,3,4";
    char layout[64] = "";
    char base[32] = "0x1000";
    int elem_bytes = 4;
    char op[64] = "transpose:1,2";
    std::vector<std::string> ops;
    // Draws the controls; true when anything changed.
    bool draw(bool with_base);
    // The input view; throws UsageError (key "shape", "layout" or "base").
    view::View input() const;
    // The ops; throws UsageError with key "ops[k]".
    std::vector<view::Op> parsed_ops() const;
    nlohmann::json to_json(bool with_base) const;
    // Reads shape, layout, base, elem_bytes and ops (absent keys stay).
    void from_json(const SceneReader& r);
};

// A cell's screen rectangle as [x, y, size] for --dump-view probes.
nlohmann::json rect_json(ImVec2 p, float size);

// The canvas for a picture: the space left in the window.
view::Canvas canvas_here();

// One picture of a view panel: the cell renderer's GPU copy and view of a
// core Plan. draw() fills `size`; hovered() is the cell under the mouse.
struct Picture {
    render::PlanGpu gpu;
    render::PlanView view;
    view::Canvas laid_out;  // the canvas the plan was built for
    bool has_plan = false;
    // A canvas this different from the last one needs a new layout.
    bool needs_layout(const view::Canvas& c) const;
    void set(Plan p, const view::Canvas& c, bool refit = true);
    void draw(float stage, ImVec2 size, bool dark);
    // Outlines the given cells at stage k over the last draw.
    void outline(const std::vector<int64_t>& cells, size_t k, bool dark);
    // Screen rectangle [x, y, size] of a cell (or a place) in the last draw.
    nlohmann::json rect(int64_t cell, size_t k);
    nlohmann::json rect(Place p) const;
    // The share of the canvas that the cells' extent covers in the last draw,
    // the zoom, and the grid labels drawn ("labels", grid_labels.hpp's form).
    nlohmann::json probe() const;

  private:
    ImVec2 min_{0, 0}, max_{0, 0};
};

}  // namespace ll::gui::viewui
