// Drawing helpers shared by the stride-algebra panels (views, fusion, AGU):
// an editor for "shape + layout + op chain", and rows of cells drawn with
// ImDrawList. Colours follow the ELEMENT (its offset in the original
// storage), so an element keeps its colour wherever a view or a copy puts it.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/view/view.hpp"

namespace ll::gui::viewui {

// Shape, input layout, element size and an ordered list of op texts.
struct ChainEditor {
    char shape[64] = "2,3,4";
    char layout[64] = "";
    char base[32] = "0x1000";
    int elem_bytes = 4;
    char op[64] = "transpose:1,2";
    std::vector<std::string> ops;
    // Draws the controls; true when anything changed.
    bool draw(bool with_base);
    // The input view; throws UsageError for bad text.
    view::View input() const;
    std::vector<view::Op> parsed_ops() const;
    nlohmann::json save() const;
    // Reads the keys it knows (wrong types throw); call validate() after.
    void load(const nlohmann::json& j);
    // Builds the input and applies every op; throws UsageError naming the
    // scene key ('shape', 'layout', 'base', 'ops'[k]) that does not work.
    void validate() const;
};

// Throws UsageError naming the first key of a scene object that is not in
// `known` ("panel", and "window"/"screen" that --dump-view adds, always pass).
void check_keys(const nlohmann::json& j, const char* panel, const std::vector<std::string>& known);

// A cell's screen rectangle as [x, y, size] for save_settings() dumps.
nlohmann::json rect_json(ImVec2 p, float size);

ImU32 element_colour(int64_t element, int64_t count, float alpha = 1.0f);

// A block of cells laid out in rows of `per_row` starting at `origin`.
// fill(i) gives each cell's colour (0 = empty); returns the hovered cell or -1.
// label(i) is drawn inside cells wide enough for it.
struct CellRow {
    ImVec2 origin;
    float cell = 18.0f;
    int64_t count = 0;
    int64_t per_row = 32;
    ImVec2 cell_pos(int64_t i) const;  // top-left corner
    ImVec2 cell_centre(int64_t i) const;
    float height() const;
    int64_t draw(ImDrawList* dl, const std::function<ImU32(int64_t)>& fill,
                 const std::function<std::string(int64_t)>& label) const;
    void outline(ImDrawList* dl, int64_t i, ImU32 colour, float thickness = 2.0f) const;
};

// A 2D grid for a view: rows = product of all dims but the last, columns = the
// last dim; a thin gap between the blocks of each leading index.
struct ViewGrid {
    ImVec2 origin;
    float cell = 22.0f;
    Shape shape;
    int64_t cols() const { return shape.empty() ? 1 : shape.back(); }
    int64_t rows() const;
    int64_t rows_per_block() const { return shape.size() >= 2 ? shape[shape.size() - 2] : 1; }
    ImVec2 cell_pos(int64_t linear) const;
    float height() const;
    int64_t draw(ImDrawList* dl, const std::function<ImU32(int64_t)>& fill,
                 const std::function<std::string(int64_t)>& label) const;
    void outline(ImDrawList* dl, int64_t linear, ImU32 colour, float thickness = 2.0f) const;
};

}  // namespace ll::gui::viewui
