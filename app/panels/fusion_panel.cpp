// Fusion: a chain of transforms on the left; on the right the unfused
// execution (one intermediate buffer per step, each read and written whole)
// against the fused single pass (one read map over the input, one write),
// with the bytes each moves. Hovering an output cell marks the input element
// it reads and the cells that carry it through every intermediate buffer.
//
// State: the chain (saved); the Fused result (engine data, rebuilt on change).
#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "app/panels/panel.hpp"
#include "app/panels/view_widgets.hpp"
#include "core/error.hpp"
#include "core/view/fuse.hpp"

namespace ll::gui {

namespace {

constexpr int64_t kMaxCells = 2048;

class FusionPanel : public Panel {
  public:
    FusionPanel() {
        std::snprintf(ed_.shape, sizeof ed_.shape, "1,4,3,2");
        ed_.ops = {"reshape:1,4,6", "transpose:1,2"};
        rebuild();
    }
    const char* title() const override { return "Fusion"; }
    void draw(AppContext& ctx) override;
    nlohmann::json save_settings() const override { return ed_.save(); }
    void load_settings(const nlohmann::json& j) override {
        ed_.load(j);
        rebuild();
    }

  private:
    void rebuild() {
        try {
            fused_ = view::fuse(ed_.input(), ed_.parsed_ops());
            ok_ = true;
            error_.clear();
        } catch (const UsageError& e) {
            error_ = e.what();
        }
    }
    void draw_chain();
    void draw_execution();

    viewui::ChainEditor ed_;
    view::Fused fused_;
    bool ok_ = false;
    std::string error_;
};

void FusionPanel::draw(AppContext& ctx) {
    (void)ctx;
    if (ed_.draw(false)) rebuild();
    if (!error_.empty())
        ImGui::TextColored(ImVec4(1, 0.42f, 0.38f, 1), "error: %s", error_.c_str());
    if (!ok_) return;
    ImGui::BeginChild("chain", ImVec2(340, 0), true);
    draw_chain();
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("exec", ImVec2(0, 0), true, ImGuiWindowFlags_HorizontalScrollbar);
    draw_execution();
    ImGui::EndChild();
}

void FusionPanel::draw_chain() {
    const view::Fused& f = fused_;
    ImGui::Text("input %s", view::to_string(f.input.layout).c_str());
    for (size_t i = 0; i < f.steps.size(); ++i) {
        const auto& s = f.steps[i];
        ImVec4 col = s.category == view::Category::bijective   ? ImVec4(0.5f, 0.8f, 1, 1)
                     : s.category == view::Category::expanding ? ImVec4(1, 0.7f, 0.4f, 1)
                                                               : ImVec4(0.6f, 1, 0.6f, 1);
        ImGui::Separator();
        ImGui::Text("%zu. %s", i + 1, s.op.text.c_str());
        ImGui::SameLine();
        ImGui::TextColored(col, "[%s]", view::name(s.category));
        ImGui::Text("   %s -> %s", ll::to_string(s.in_shape).c_str(),
                    ll::to_string(s.out_shape).c_str());
        ImGui::TextWrapped("   composed map %s%s", view::to_string(s.map.layout).c_str(),
                           s.map.storage ? " (after a copy)" : "");
    }
    ImGui::Separator();
    std::string map = view::to_string(f.result.layout);
    for (const view::View* v = f.result.source.get(); v; v = v->source.get())
        map += " -> row-major index of " + ll::to_string(v->shape()) + " -> " +
               view::to_string(v->layout);
    ImGui::TextWrapped("fused read map: %s", map.c_str());
    if (f.identity)
        ImGui::TextColored(ImVec4(0.6f, 1, 0.6f, 1), "identity: nothing moves");
    else if (f.moves_nothing)
        ImGui::TextColored(ImVec4(0.6f, 1, 0.6f, 1), "the input as it lies: nothing moves");
    if (f.composite)
        ImGui::TextWrapped("no single layout expresses the chain; one pass composes the maps");
    ImGui::Separator();
    double mx = double(std::max<int64_t>(1, f.unfused_moved_bytes));
    ImGui::Text("unfused %lld B", static_cast<long long>(f.unfused_moved_bytes));
    ImGui::ProgressBar(float(double(f.unfused_moved_bytes) / mx), ImVec2(-1, 0), "");
    ImGui::Text("fused   %lld B", static_cast<long long>(f.moved_bytes));
    ImGui::ProgressBar(float(double(f.moved_bytes) / mx), ImVec2(-1, 0), "");
}

void FusionPanel::draw_execution() {
    const view::Fused& f = fused_;
    int64_t n0 = f.input.storage_elems;
    int64_t biggest = n0;
    for (const auto& s : f.steps) biggest = std::max(biggest, numel(s.out_shape));
    if (biggest > kMaxCells) {
        ImGui::TextUnformatted("(too many elements to draw; use a tensor under 2048 elements)");
        return;
    }
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImVec2 o = ImGui::GetCursorScreenPos();
    float avail = std::max(200.0f, ImGui::GetContentRegionAvail().x);
    float cell = std::clamp(avail / float(std::min<int64_t>(biggest, 32)), 10.0f, 24.0f);
    int64_t per_row = std::max<int64_t>(1, int64_t(avail / cell));
    int bits = f.input.elem_bits;
    auto bytes = [&](int64_t n) { return (n * bits + 7) / 8; };
    float y = o.y;
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);

    // Buffer k holds, at row-major position i, the input element that the
    // composed map up to step k reads there: exactly what step-by-step
    // materialisation writes.
    struct Buffer {
        viewui::CellRow row;
        const view::View* map;
    };
    std::vector<Buffer> bufs;
    auto add = [&](const std::string& label, const view::View* map, int64_t count) {
        dl->AddText(ImVec2(o.x, y), text, label.c_str());
        y += ImGui::GetTextLineHeightWithSpacing();
        viewui::CellRow row{ImVec2(o.x, y), cell, count, per_row};
        y += row.height() + cell * 0.4f;
        bufs.push_back({row, map});
    };
    add("UNFUSED  input buffer", nullptr, n0);
    for (size_t k = 0; k < f.steps.size(); ++k) {
        const auto& s = f.steps[k];
        add("step " + std::to_string(k + 1) + " " + s.op.text + ": reads " +
                std::to_string(bytes(s.reads)) + " B, writes " + std::to_string(bytes(s.writes)) +
                " B" + (k + 1 == f.steps.size() ? " (output)" : " (intermediate)"),
            &s.map, numel(s.out_shape));
    }
    y += cell;
    add("FUSED  input buffer (read once through the fused map)", nullptr, n0);
    add("output: " + std::to_string(f.moved_bytes) + " B moved in one pass", &f.result,
        f.result.layout.size());

    auto element_at = [&](const Buffer& b, int64_t i) {
        return b.map ? view::resolve(*b.map, unravel(i, b.map->shape())) : i;
    };
    int64_t hover_elem = -1;
    for (const auto& b : bufs) {
        int64_t h = b.row.draw(
            dl, [&](int64_t i) { return viewui::element_colour(element_at(b, i), n0); },
            [&](int64_t i) { return std::to_string(element_at(b, i)); });
        if (h >= 0) hover_elem = element_at(b, h);
    }
    ImGui::Dummy(ImVec2(avail, y - o.y));
    if (hover_elem >= 0) {
        int copies = 0;
        for (const auto& b : bufs)
            for (int64_t i = 0; i < b.row.count; ++i)
                if (element_at(b, i) == hover_elem) {
                    b.row.outline(dl, i, IM_COL32(255, 255, 255, 255), 2.5f);
                    ++copies;
                }
        ImGui::SetTooltip("input element %lld: %d cells across the buffers",
                          static_cast<long long>(hover_elem), copies);
    }
}

}  // namespace

std::unique_ptr<Panel> make_fusion_panel() {
    return std::make_unique<FusionPanel>();
}

}  // namespace ll::gui
