#include "app/panels/view_widgets.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "app/i18n/tr.hpp"
#include "app/render/grid_labels.hpp"
#include "app/render/overlays.hpp"
#include "core/error.hpp"
#include "core/view/args.hpp"
#include "core/view/layout.hpp"

namespace ll::gui::viewui {

bool ChainEditor::draw(bool with_base) {
    bool changed = false;
    ImGui::PushItemWidth(160);
    changed |=
        ImGui::InputText(tr_id("shape"), shape, sizeof shape, ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    changed |= ImGui::InputText(tr_id("layout"), layout, sizeof layout,
                                ImGuiInputTextFlags_EnterReturnsTrue);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "%s",
            tr("memory order: NCHW, NHWC, CHWN, nChw4c, NCHW2h2w, or 0,2,3,1; empty = row-major"));
    ImGui::SameLine();
    ImGui::PushItemWidth(80);
    changed |= ImGui::InputInt(tr_id("elem bytes"), &elem_bytes, 0, 0,
                               ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::PopItemWidth();
    elem_bytes = std::clamp(elem_bytes, 1, 16);
    if (with_base) {
        ImGui::SameLine();
        ImGui::PushItemWidth(90);
        changed |= ImGui::InputText(tr_id("base"), base, sizeof base,
                                    ImGuiInputTextFlags_EnterReturnsTrue);
        ImGui::PopItemWidth();
    }
    ImGui::PopItemWidth();

    ImGui::PushItemWidth(200);
    bool add = ImGui::InputText("##op", op, sizeof op, ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::PopItemWidth();
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "%s",
            tr("permute:0,2,1  transpose:1,2  slice:2:8,5:15  slice:0:10:2,:\n"
               "select:1,2  reshape:6,4  expand:4,3  squeeze[:d]  unsqueeze:d  repeat:2,1  "
               "contiguous\n"
               "gather:1:0,2,2 (indices of dim 1)  im2col:3,3[,sh,sw[,dh,dw]] (windows of H,W)"));
    ImGui::SameLine();
    add |= ImGui::Button(tr_id("add op"));
    if (add && op[0]) {
        ops.push_back(op);
        changed = true;
    }
    ImGui::SameLine();
    if (ImGui::Button(tr_id("clear ops")) && !ops.empty()) {
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
    Shape s;
    try {
        s = parse_shape(shape);
    } catch (const UsageError& e) {
        throw UsageError("shape", e.what());
    }
    view::Layout l;
    try {
        l = layout[0] ? view::layout_from_spec(layout, s) : view::row_major(s);
    } catch (const UsageError& e) {
        throw UsageError("layout", e.what());
    }
    int64_t b = 0;
    try {
        b = view::parse_address(base, "base");
    } catch (const UsageError& e) {
        throw UsageError("base", e.what());
    }
    return view::make_view(l, elem_bytes * 8, b);
}

std::vector<view::Op> ChainEditor::parsed_ops() const {
    std::vector<view::Op> v;
    for (size_t i = 0; i < ops.size(); ++i) {
        try {
            v.push_back(view::parse_op(ops[i]));
        } catch (const UsageError& e) {
            throw UsageError("ops[" + std::to_string(i) + "]", e.what());
        }
    }
    return v;
}

nlohmann::json ChainEditor::to_json(bool with_base) const {
    nlohmann::json j = {
        {"shape", shape}, {"layout", layout}, {"elem_bytes", elem_bytes}, {"ops", ops}};
    if (with_base) j["base"] = base;
    return j;
}

void ChainEditor::from_json(const SceneReader& r) {
    auto text = [&](const char* key, char* dst, size_t n) {
        std::string v = dst;
        r.get(key, v);
        if (v.size() >= n)
            r.fail(key, r.at(key), "at most " + std::to_string(n - 1) + " characters");
        std::snprintf(dst, n, "%s", v.c_str());
    };
    text("shape", shape, sizeof shape);
    text("layout", layout, sizeof layout);
    text("base", base, sizeof base);
    r.get("elem_bytes", elem_bytes, 1, 16);
    if (r.has("ops")) {
        const auto& o = r.at("ops");
        bool ok = o.is_array() && std::all_of(o.begin(), o.end(), [](const nlohmann::json& x) {
                      return x.is_string();
                  });
        if (!ok) r.fail("ops", o, "a list of op strings, e.g. [\"transpose:1,2\"]");
        ops = o.get<std::vector<std::string>>();
    }
}

nlohmann::json rect_json(ImVec2 p, float size) {
    return {p.x, p.y, size};
}

view::Canvas canvas_here() {
    ImVec2 a = ImGui::GetContentRegionAvail();
    return {std::max(a.x, 64.f), std::max(a.y, 64.f), ImGui::GetFontSize()};
}

bool Picture::needs_layout(const view::Canvas& c) const {
    return !has_plan || std::abs(c.w - laid_out.w) > 2 || std::abs(c.h - laid_out.h) > 2 ||
           c.font != laid_out.font;
}

void Picture::set(Plan p, const view::Canvas& c, bool refit) {
    gpu.set_plan(std::make_shared<const Plan>(std::move(p)), ColourMode::source_index);
    laid_out = c;
    has_plan = true;
    if (refit) view.request_fit(0, 0);
}

void Picture::draw(float stage, ImVec2 size, bool dark) {
    render::ViewStyle style;
    style.dark = dark;
    view.draw(gpu, stage, size, style);
    min_ = ImGui::GetItemRectMin();
    max_ = ImGui::GetItemRectMax();
}

void Picture::outline(const std::vector<int64_t>& cells, size_t k, bool dark) {
    if (cells.empty() || !gpu.plan()) return;
    render::OverlayFrame f;
    f.dl = ImGui::GetWindowDrawList();
    f.clip_min = min_;
    f.clip_max = max_;
    f.at = [this](float x, float y) { return view.to_screen(x, y); };
    f.zoom = view.camera().zoom;
    f.dark = dark;
    f.dl->PushClipRect(min_, max_, true);
    render::draw_highlight(f, cells, [&](int64_t c) { return gpu.place(k, c); });
    f.dl->PopClipRect();
}

nlohmann::json Picture::rect(int64_t cell, size_t k) {
    if (cell < 0 || !gpu.plan()) return nullptr;
    return rect(gpu.place(k, cell));
}

nlohmann::json Picture::rect(Place p) const {
    return rect_json(view.to_screen(p.x, p.y), view.camera().zoom);
}

nlohmann::json Picture::probe() const {
    nlohmann::json j = {{"canvas", {min_.x, min_.y, max_.x - min_.x, max_.y - min_.y}}};
    const Plan* p = gpu.plan();
    if (!p || p->stages.empty()) return j;
    Extent e = grid_extent(p->stages[0].grid);
    ImVec2 a = view.to_screen(0, 0), b = view.to_screen(e.w, e.h);
    a.x = std::max(a.x, min_.x), a.y = std::max(a.y, min_.y);
    b.x = std::min(b.x, max_.x), b.y = std::min(b.y, max_.y);
    j["picture"] = {a.x, a.y, std::max(0.f, b.x - a.x), std::max(0.f, b.y - a.y)};
    j["zoom"] = view.camera().zoom;
    j["labels"] = render::labels_json(view.drawn_labels());
    return j;
}

}  // namespace ll::gui::viewui
