#include "app/panels/view_widgets.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "core/error.hpp"
#include "core/view/args.hpp"
#include "core/view/layout.hpp"

namespace ll::gui::viewui {

bool ChainEditor::draw(bool with_base) {
    bool changed = false;
    ImGui::PushItemWidth(160);
    changed |= ImGui::InputText("shape", shape, sizeof shape, ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    changed |=
        ImGui::InputText("layout", layout, sizeof layout, ImGuiInputTextFlags_EnterReturnsTrue);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "memory order: NCHW, NHWC, CHWN, nChw4c, NCHW2h2w, or 0,2,3,1; empty = row-major");
    ImGui::SameLine();
    ImGui::PushItemWidth(80);
    changed |=
        ImGui::InputInt("elem bytes", &elem_bytes, 0, 0, ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::PopItemWidth();
    elem_bytes = std::clamp(elem_bytes, 1, 16);
    if (with_base) {
        ImGui::SameLine();
        ImGui::PushItemWidth(90);
        changed |=
            ImGui::InputText("base", base, sizeof base, ImGuiInputTextFlags_EnterReturnsTrue);
        ImGui::PopItemWidth();
    }
    ImGui::PopItemWidth();

    ImGui::PushItemWidth(200);
    bool add = ImGui::InputText("##op", op, sizeof op, ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::PopItemWidth();
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "permute:0,2,1  transpose:1,2  slice:2:8,5:15  slice:0:10:2,:\n"
            "select:1,2  reshape:6,4  expand:4,3  squeeze[:d]  unsqueeze:d  repeat:2,1  "
            "contiguous\n"
            "gather:1:0,2,2 (indices of dim 1)  im2col:3,3[,sh,sw[,dh,dw]] (windows of H,W)");
    ImGui::SameLine();
    add |= ImGui::Button("add op");
    if (add && op[0]) {
        ops.push_back(op);
        changed = true;
    }
    ImGui::SameLine();
    if (ImGui::Button("clear ops") && !ops.empty()) {
        ops.clear();
        changed = true;
    }
    for (size_t i = 0; i < ops.size(); ++i) {
        ImGui::PushID(int(i));
        if (i) ImGui::SameLine();
        if (ImGui::SmallButton((ops[i] + "  x").c_str())) {
            ops.erase(ops.begin() + long(i));
            changed = true;
            ImGui::PopID();
            break;
        }
        ImGui::PopID();
    }
    return changed;
}

view::View ChainEditor::input() const {
    Shape s = parse_shape(shape);
    view::Layout l = layout[0] ? view::layout_from_spec(layout, s) : view::row_major(s);
    return view::make_view(l, elem_bytes * 8, view::parse_address(base, "base"));
}

std::vector<view::Op> ChainEditor::parsed_ops() const {
    std::vector<view::Op> v;
    for (const auto& t : ops) v.push_back(view::parse_op(t));
    return v;
}

nlohmann::json ChainEditor::save() const {
    return {{"shape", shape},
            {"layout", layout},
            {"base", base},
            {"elem_bytes", elem_bytes},
            {"ops", ops}};
}

void ChainEditor::load(const nlohmann::json& j) {
    auto copy = [&](const char* key, char* dst, size_t n) {
        if (!j.contains(key)) return;
        if (!j[key].is_string())
            throw UsageError(std::string("scene: '") + key + "' must be a string");
        std::snprintf(dst, n, "%s", j[key].get<std::string>().c_str());
    };
    copy("shape", shape, sizeof shape);
    copy("layout", layout, sizeof layout);
    copy("base", base, sizeof base);
    if (j.contains("elem_bytes")) {
        if (!j["elem_bytes"].is_number_integer())
            throw UsageError("scene: 'elem_bytes' must be an integer");
        int eb = j["elem_bytes"].get<int>();
        if (eb < 1 || eb > 16)
            throw UsageError("scene: 'elem_bytes' is " + std::to_string(eb) + "; expected 1..16");
        elem_bytes = eb;
    }
    if (j.contains("ops")) {
        if (!j["ops"].is_array()) throw UsageError("scene: 'ops' must be a list of op strings");
        ops.clear();
        for (const auto& o : j["ops"]) {
            if (!o.is_string()) throw UsageError("scene: 'ops' must be a list of op strings");
            ops.push_back(o.get<std::string>());
        }
    }
}

void ChainEditor::validate() const {
    auto key = [](const std::string& k, const UsageError& e) {
        return UsageError("scene: " + k + ": " + e.what());
    };
    Shape s;
    try {
        s = parse_shape(shape);
    } catch (const UsageError& e) {
        throw key("'shape'", e);
    }
    view::View v;
    try {
        v = view::make_view(layout[0] ? view::layout_from_spec(layout, s) : view::row_major(s));
    } catch (const UsageError& e) {
        throw key("'layout'", e);
    }
    try {
        view::parse_address(base, "base");
    } catch (const UsageError& e) {
        throw key("'base'", e);
    }
    for (size_t i = 0; i < ops.size(); ++i) {
        try {
            v = view::apply(v, view::parse_op(ops[i])).view;
        } catch (const UsageError& e) {
            throw key("'ops'[" + std::to_string(i) + "]", e);
        }
    }
}

void check_keys(const nlohmann::json& j, const char* panel, const std::vector<std::string>& known) {
    if (!j.is_object()) throw UsageError(std::string("scene: expected a JSON object"));
    for (const auto& item : j.items()) {
        const std::string& k = item.key();
        if (k == "panel" || k == "window" || k == "screen") continue;
        if (std::find(known.begin(), known.end(), k) != known.end()) continue;
        std::string all;
        for (const auto& n : known) all += (all.empty() ? "" : ", ") + n;
        throw UsageError("scene: unknown key '" + k + "' for the " + panel +
                         " panel; expected one of " + all);
    }
}

nlohmann::json rect_json(ImVec2 p, float size) {
    return {p.x, p.y, size};
}

ImU32 element_colour(int64_t element, int64_t count, float alpha) {
    float h = count > 1 ? 0.75f * float(element) / float(count - 1) : 0.0f;
    float r, g, b;
    ImGui::ColorConvertHSVtoRGB(h, 0.55f, 0.85f, r, g, b);
    return ImGui::ColorConvertFloat4ToU32(ImVec4(r, g, b, alpha));
}

namespace {

bool hovered_rect(ImVec2 a, ImVec2 b) {
    return ImGui::IsWindowHovered() && ImGui::IsMouseHoveringRect(a, b);
}

void draw_cell(ImDrawList* dl, ImVec2 p, float cell, ImU32 fill, const std::string& text) {
    ImVec2 q(p.x + cell - 1, p.y + cell - 1);
    if (fill)
        dl->AddRectFilled(p, q, fill);
    else
        dl->AddRect(p, q, IM_COL32(120, 120, 120, 90));
    if (!text.empty()) {
        ImVec2 ts = ImGui::CalcTextSize(text.c_str());
        if (ts.x + 2 <= cell)
            dl->AddText(ImVec2(p.x + (cell - ts.x) / 2, p.y + (cell - ts.y) / 2),
                        IM_COL32(20, 20, 20, 255), text.c_str());
    }
}

}  // namespace

ImVec2 CellRow::cell_pos(int64_t i) const {
    return ImVec2(origin.x + float(i % per_row) * cell, origin.y + float(i / per_row) * cell);
}

ImVec2 CellRow::cell_centre(int64_t i) const {
    ImVec2 p = cell_pos(i);
    return ImVec2(p.x + cell / 2, p.y + cell / 2);
}

float CellRow::height() const {
    return float((count + per_row - 1) / std::max<int64_t>(per_row, 1)) * cell;
}

int64_t CellRow::draw(ImDrawList* dl, const std::function<ImU32(int64_t)>& fill,
                      const std::function<std::string(int64_t)>& label) const {
    int64_t hovered = -1;
    for (int64_t i = 0; i < count; ++i) {
        ImVec2 p = cell_pos(i);
        draw_cell(dl, p, cell, fill(i), label ? label(i) : "");
        if (hovered_rect(p, ImVec2(p.x + cell, p.y + cell))) hovered = i;
    }
    return hovered;
}

void CellRow::outline(ImDrawList* dl, int64_t i, ImU32 colour, float thickness) const {
    if (i < 0 || i >= count) return;
    ImVec2 p = cell_pos(i);
    dl->AddRect(p, ImVec2(p.x + cell - 1, p.y + cell - 1), colour, 0, 0, thickness);
}

int64_t ViewGrid::rows() const {
    int64_t r = 1;
    for (size_t i = 0; i + 1 < shape.size(); ++i) r *= shape[i];
    return r;
}

ImVec2 ViewGrid::cell_pos(int64_t linear) const {
    int64_t row = linear / cols(), col = linear % cols();
    int64_t block = row / rows_per_block();
    return ImVec2(origin.x + float(col) * cell,
                  origin.y + float(row) * cell + float(block) * cell * 0.35f);
}

float ViewGrid::height() const {
    int64_t blocks = rows() / rows_per_block();
    return float(rows()) * cell + float(blocks) * cell * 0.35f;
}

int64_t ViewGrid::draw(ImDrawList* dl, const std::function<ImU32(int64_t)>& fill,
                       const std::function<std::string(int64_t)>& label) const {
    int64_t hovered = -1;
    int64_t n = rows() * cols();
    for (int64_t i = 0; i < n; ++i) {
        ImVec2 p = cell_pos(i);
        draw_cell(dl, p, cell, fill(i), label ? label(i) : "");
        if (hovered_rect(p, ImVec2(p.x + cell, p.y + cell))) hovered = i;
    }
    return hovered;
}

void ViewGrid::outline(ImDrawList* dl, int64_t linear, ImU32 colour, float thickness) const {
    if (linear < 0 || linear >= rows() * cols()) return;
    ImVec2 p = cell_pos(linear);
    dl->AddRect(p, ImVec2(p.x + cell - 1, p.y + cell - 1), colour, 0, 0, thickness);
}

}  // namespace ll::gui::viewui
