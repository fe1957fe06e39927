// Fusion: a chain of transforms on the left; on the right the unfused
// execution (one intermediate buffer per step, each read and written whole)
// against the fused single pass (one read map over the input, one write),
// with the bytes each moves. Hovering an output cell marks the input element
// it reads and the cells that carry it through every intermediate buffer.
// Expanding steps (expand, repeat, im2col) show their expansion factor; a
// gather shows the index array the fused map reads through.
//
// Scene keys: shape, layout, elem_bytes, ops, select (an input element to
// trace through every buffer; -1 for none). save_settings() adds "screen":
// each buffer row's first cell as [x, y, size], and "select_cells", the cells
// that hold the selected element (for tests).
//
// State: the chain and selection (saved); the Fused result (engine data,
// rebuilt on change); the screen rectangles of the last frame (for dumps).
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
    nlohmann::json save_settings() const override {
        nlohmann::json j = ed_.save();
        j.erase("base");
        j["select"] = select_;
        if (!screen_.empty()) j["screen"] = screen_;
        return j;
    }
    void load_settings(const nlohmann::json& j) override {
        viewui::check_keys(j, "fusion", {"shape", "layout", "elem_bytes", "ops", "select"});
        ed_.load(j);
        ed_.validate();
        rebuild();
        if (!ok_) throw UsageError("scene: " + error_);
        select_ = -1;
        if (j.contains("select")) {
            const auto& s = j["select"];
            int64_t n0 = fused_.input.storage_elems;
            if (!s.is_number_integer() || s.get<int64_t>() < -1 || s.get<int64_t>() >= n0)
                throw UsageError("scene: 'select' must be an input element 0.." +
                                 std::to_string(n0 - 1) + " to trace, or -1 for none");
            select_ = s.get<int64_t>();
        }
    }

  private:
    void rebuild() {
        try {
            fused_ = view::fuse(ed_.input(), ed_.parsed_ops());
            ok_ = true;
            if (select_ >= fused_.input.storage_elems) select_ = -1;
            error_.clear();
        } catch (const UsageError& e) {
            error_ = e.what();
        }
    }
    void draw_chain();
    void draw_execution();

    viewui::ChainEditor ed_;
    view::Fused fused_;
    int64_t select_ = -1;    // input element traced (click a cell), -1 none
    nlohmann::json screen_;  // what the last frame drew where
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
        if (s.category == view::Category::expanding)
            ImGui::Text("   %s -> %s   x%.2f elements", ll::to_string(s.in_shape).c_str(),
                        ll::to_string(s.out_shape).c_str(), view::expansion(s));
        else
            ImGui::Text("   %s -> %s", ll::to_string(s.in_shape).c_str(),
                        ll::to_string(s.out_shape).c_str());
        const char* how = s.map.gather    ? " (through an index array)"
                          : s.map.storage ? " (after a copy)"
                                          : "";
        ImGui::TextWrapped("   composed map %s%s", view::to_string(s.map.layout).c_str(), how);
    }
    ImGui::Separator();
    ImGui::TextWrapped("fused read map: %s", view::map_string(f.result).c_str());
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
    screen_ = nlohmann::json();
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
    float cell = std::clamp(avail / float(std::min<int64_t>(biggest, 32)), 10.0f, 30.0f);
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
    add("FUSED  input buffer (read once through the fused map; dimmed: never read)", nullptr, n0);
    add("output: " + std::to_string(f.moved_bytes) + " B moved in one pass", &f.result,
        f.result.layout.size());

    auto element_at = [&](const Buffer& b, int64_t i) {
        return b.map ? view::resolve(*b.map, unravel(i, b.map->shape())) : i;
    };
    // Input elements the fused pass reads; the fused input buffer dims the rest.
    std::vector<bool> fused_reads(size_t(n0), false);
    for (int64_t i = 0; i < f.result.layout.size(); ++i) {
        int64_t e = element_at(bufs.back(), i);
        if (e >= 0 && e < n0) fused_reads[size_t(e)] = true;
    }
    const Buffer* fused_input = &bufs[bufs.size() - 2];
    int64_t hover_elem = -1;
    screen_ = {{"buffers", nlohmann::json::array()}};
    for (const auto& b : bufs) {
        bool dim_unread = &b == fused_input;
        int64_t h = b.row.draw(
            dl,
            [&](int64_t i) {
                int64_t e = element_at(b, i);
                bool read = !dim_unread || fused_reads[size_t(e)];
                return viewui::element_colour(e, n0, read ? 1.0f : 0.3f);
            },
            [&](int64_t i) { return std::to_string(element_at(b, i)); });
        if (h >= 0) hover_elem = element_at(b, h);
        screen_["buffers"].push_back(viewui::rect_json(b.row.cell_pos(0), cell));
    }
    ImGui::Dummy(ImVec2(avail, y - o.y));
    if (hover_elem >= 0 && ImGui::IsMouseClicked(0)) select_ = hover_elem;
    // The traced element: hovered, else selected; outlined wherever it lies.
    int64_t traced = hover_elem >= 0 ? hover_elem : select_;
    screen_["select_cells"] = nlohmann::json::array();
    if (traced >= 0) {
        int copies = 0;
        ImU32 col = hover_elem >= 0 ? IM_COL32(255, 255, 255, 255) : IM_COL32(255, 220, 60, 255);
        for (const auto& b : bufs)
            for (int64_t i = 0; i < b.row.count; ++i)
                if (element_at(b, i) == traced) {
                    b.row.outline(dl, i, col, 2.5f);
                    if (traced == select_)
                        screen_["select_cells"].push_back(
                            viewui::rect_json(b.row.cell_pos(i), cell));
                    ++copies;
                }
        if (hover_elem >= 0)
            ImGui::SetTooltip("input element %lld: %d cells across the buffers",
                              static_cast<long long>(hover_elem), copies);
    }
}

}  // namespace

std::unique_ptr<Panel> make_fusion_panel() {
    return std::make_unique<FusionPanel>();
}

}  // namespace ll::gui
