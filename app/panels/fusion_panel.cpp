// Fusion: a chain of transforms on the left; on the right the unfused
// execution (one intermediate buffer per step, each read and written whole)
// against the fused single pass (one read map over the input, one write),
// with the bytes each moves. Hovering an output cell marks the input element
// it reads and the cells that carry it through every intermediate buffer.
// Expanding steps (expand, repeat, im2col) show their expansion factor; a
// gather shows the index array the fused map reads through.
//
// The buffers are core's picture (view::fusion_scene), drawn by the cell
// renderer.
//
// Scene keys: shape, layout, elem_bytes, ops, select (an input element to
// trace through every buffer; -1 for none), sidebar (false: the chain column
// is hidden, the buffers take its room). probe() (--dump-view) holds
// "screen": each buffer's first cell as [x, y, size],
// "select_cells", the cells that hold the selected element, and the canvas
// and picture rectangles (for tests).
//
// State: the settings (saved); the Fused result and its scene (engine data,
// rebuilt on change); the probe of the last frame (for dumps).
#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "app/i18n/tr.hpp"
#include "app/i18n/tr_text.hpp"
#include "app/panels/compact.hpp"
#include "app/panels/panel.hpp"
#include "app/panels/present.hpp"
#include "app/panels/scene_reader.hpp"
#include "app/panels/slide_text.hpp"
#include "app/panels/view_widgets.hpp"
#include "app/render/present.hpp"
#include "core/error.hpp"
#include "core/view/fuse.hpp"
#include "core/view/view_plans.hpp"

namespace ll::gui {

namespace {

struct FusionSettings {
    viewui::ChainEditor chain;
    int64_t select = -1;  // input element traced (click a cell), -1 none
    bool sidebar = true;  // the chain column is shown
    FusionSettings() {
        std::snprintf(chain.shape, sizeof chain.shape, "1,4,3,2");
        // Two free reshapes and two copies unfused against one fused pass.
        chain.ops = {"reshape:1,4,6", "transpose:1,2", "reshape:1,3,2,4", "transpose:2,3"};
    }
    nlohmann::json to_json() const {
        nlohmann::json j = chain.to_json(false);
        j["select"] = select;
        j["sidebar"] = sidebar;
        return j;
    }
};

class FusionPanel : public Panel {
  public:
    FusionPanel() { rebuild(); }
    const char* title() const override { return "Fusion"; }
    void draw(AppContext& ctx) override;
    void draw_present(AppContext& ctx);
    nlohmann::json save_settings() const override { return set_.to_json(); }
    nlohmann::json probe() const override {
        nlohmann::json p = nlohmann::json::object();
        if (!probe_.empty()) p["screen"] = probe_;
        return p;
    }
    void load_settings(const nlohmann::json& j) override {
        SceneReader r(j, "fusion");
        r.only({"shape", "layout", "elem_bytes", "ops", "select", "sidebar"});
        set_.chain.from_json(r);
        try {
            // The chain first, so that an error names the op (ops[k]).
            view::apply_chain(set_.chain.input(), set_.chain.parsed_ops(),
                              view::ReshapeRule::hierarchical);
            fused_ = view::fuse(set_.chain.input(), set_.chain.parsed_ops());
        } catch (const std::exception& e) {
            r.rethrow(e);
        }
        set_.select = -1;
        r.get("select", set_.select, -1, fused_.input.storage_elems - 1);
        r.get("sidebar", set_.sidebar);
        rebuild();
    }

  private:
    void rebuild() {
        try {
            fused_ = view::fuse(set_.chain.input(), set_.chain.parsed_ops());
            ok_ = true;
            if (set_.select >= fused_.input.storage_elems) set_.select = -1;
            error_.clear();
        } catch (const UsageError& e) {
            error_ = e.what();
        }
        pic_.has_plan = false;
    }
    void draw_chain();
    void draw_execution(bool dark);

    FusionSettings set_;
    view::Fused fused_;
    view::FusionScene scene_;
    viewui::Picture pic_;
    nlohmann::json probe_;  // what the last frame drew where
    bool ok_ = false;
    std::string error_, draw_error_;
};

// Presentation mode: the buffers of the fused and unfused execution fill the slide.
void FusionPanel::draw_present(AppContext& ctx) {
    if (!ok_) return;
    ctx.caption.title = "Fusion: " + std::to_string(fused_.steps.size()) + " ops on input " +
                        view::to_string(fused_.input.layout);
    // The picture's text grows with a tall slide (at 1600x1000 its 13 px
    // captions sat under 85 px cells like footnotes); core lays the scene
    // out for that font size.
    ImGui::SetWindowFontScale(slide_text_scale());
    draw_execution(ctx.dark_theme);
    ImGui::SetWindowFontScale(1.f);
}

void FusionPanel::draw(AppContext& ctx) {
    if (ctx.present) {
        draw_present(ctx);
        return;
    }
    // On a short window (a projector) the chain editor folds under a header
    // naming the shape and the ops, and the chain column narrows.
    const bool compact = compact_layout();
    std::string chain_text;
    for (const std::string& o : set_.chain.ops) chain_text += "  " + o;
    // << hides the chain column (on a projector 24 cells of a buffer were
    // 21 px wide beside it, their numbers hard to read).
    if (ImGui::Button(set_.sidebar ? "<<" : ">>")) set_.sidebar = !set_.sidebar;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", set_.sidebar ? tr("hide the controls (more room for the picture)")
                                             : tr("show the controls"));
    ImGui::SameLine();
    if (!compact || !error_.empty() ||
        compact_header(std::string(tr("edit: shape ")) + set_.chain.shape +
                           std::string(tr(", ops")) + chain_text,
                       "fusion_chain"))
        if (set_.chain.draw(false)) rebuild();
    if (!error_.empty())
        ImGui::TextColored(render::theme_colour(render::Role::error), tr("error: %s"),
                           tr_text(error_).c_str());
    if (!ok_) return;
    if (set_.sidebar) {
        ImGui::BeginChild(
            "chain",
            ImVec2(std::min(ImGui::GetFontSize() * 24, ImGui::GetContentRegionAvail().x * 0.3f), 0),
            true);
        draw_chain();
        ImGui::EndChild();
        ImGui::SameLine();
    }
    ImGui::BeginChild("exec", ImVec2(0, 0), true);
    draw_execution(ctx.dark_theme);
    ImGui::EndChild();
}

void FusionPanel::draw_chain() {
    const view::Fused& f = fused_;
    // Every line wraps: on a projector the column is narrower than its text.
    ImGui::TextWrapped(tr("input %s"), view::to_string(f.input.layout).c_str());
    for (size_t i = 0; i < f.steps.size(); ++i) {
        const auto& s = f.steps[i];
        // Theme colours (pale blue on the light theme could not be read).
        const ImVec4 col =
            render::theme_colour(s.category == view::Category::bijective   ? render::Role::info
                                 : s.category == view::Category::expanding ? render::Role::accent
                                                                           : render::Role::done);
        ImGui::Separator();
        ImGui::TextWrapped("%zu. %s", i + 1, tr_text(s.op.text).c_str());
        // The category tag follows the op when it fits, else takes its own line.
        const std::string tag = "[" + tr_text(view::name(s.category)) + "]";
        ImGui::SameLine();
        if (ImGui::CalcTextSize(tag.c_str()).x > ImGui::GetContentRegionAvail().x) ImGui::NewLine();
        ImGui::TextColored(col, "%s", tag.c_str());
        if (s.category == view::Category::expanding)
            ImGui::TextWrapped(tr("   %s -> %s   x%.2f elements"),
                               ll::to_string(s.in_shape).c_str(),
                               ll::to_string(s.out_shape).c_str(), view::expansion(s));
        else
            ImGui::TextWrapped("   %s -> %s", ll::to_string(s.in_shape).c_str(),
                               ll::to_string(s.out_shape).c_str());
        const char* how = s.map.gather    ? tr(" (through an index array)")
                          : s.map.storage ? tr(" (after a copy)")
                                          : "";
        ImGui::TextWrapped(tr("   composed map %s%s"), view::to_string(s.map.layout).c_str(), how);
    }
    ImGui::Separator();
    ImGui::TextWrapped(tr("fused read map: %s"), view::map_string(f.result).c_str());
    if (f.identity)
        ImGui::TextColored(render::theme_colour(render::Role::done), "%s",
                           tr("identity: nothing moves"));
    else if (f.moves_nothing)
        ImGui::TextColored(render::theme_colour(render::Role::done), "%s",
                           tr("the input as it lies: nothing moves"));
    if (f.composite)
        ImGui::TextWrapped("%s",
                           tr("no single layout expresses the chain; one pass composes the maps"));
    ImGui::Separator();
    double mx = double(std::max<int64_t>(1, f.unfused_moved_bytes));
    ImGui::TextWrapped(tr("unfused %lld B"), static_cast<long long>(f.unfused_moved_bytes));
    ImGui::ProgressBar(float(double(f.unfused_moved_bytes) / mx), ImVec2(-1, 0), "");
    ImGui::TextWrapped(tr("fused   %lld B"), static_cast<long long>(f.moved_bytes));
    ImGui::ProgressBar(float(double(f.moved_bytes) / mx), ImVec2(-1, 0), "");
}

void FusionPanel::draw_execution(bool dark) {
    view::Canvas c = viewui::canvas_here();
    if (pic_.needs_layout(c)) {
        try {
            scene_ = view::fusion_scene(fused_, c);
            pic_.set(scene_.plan, c);
            draw_error_.clear();
        } catch (const UsageError& e) {
            draw_error_ = e.what();
            pic_.has_plan = false;
        }
    }
    probe_ = nlohmann::json();
    if (!draw_error_.empty()) {
        ImGui::TextWrapped("(%s)", tr_text(draw_error_).c_str());
        return;
    }
    pic_.draw(0, ImVec2(c.w, c.h), dark);
    const Plan& p = scene_.plan;
    int64_t hovered = pic_.view.hovered();
    int64_t hover_elem = hovered >= 0 ? p.src[size_t(hovered)] : -1;
    if (pic_.view.clicked() && hover_elem >= 0) set_.select = hover_elem;
    // The traced element: outlined wherever it lies (hovered, else selected).
    std::vector<int64_t> traced;
    int64_t any = -1;  // one cell holding the selected element
    for (size_t b = 0; b < scene_.buffer_first.size() && set_.select >= 0 && any < 0; ++b)
        for (int64_t i = 0; i < scene_.buffer_size[b] && any < 0; ++i)
            if (p.src[size_t(scene_.buffer_first[b] + i)] == set_.select)
                any = scene_.buffer_first[b] + i;
    if (hovered >= 0) traced = scene_.links[size_t(hovered)];
    std::vector<int64_t> selected = any >= 0 ? scene_.links[size_t(any)] : std::vector<int64_t>{};
    traced.insert(traced.end(), selected.begin(), selected.end());
    pic_.outline(traced, 0, dark);
    if (hovered >= 0 && hover_elem >= 0)
        ImGui::SetTooltip(tr("input element %lld: %zu cells across the buffers"),
                          static_cast<long long>(hover_elem), scene_.links[size_t(hovered)].size());
    probe_ = pic_.probe();
    probe_["buffers"] = nlohmann::json::array();
    for (int64_t first : scene_.buffer_first) probe_["buffers"].push_back(pic_.rect(first, 0));
    probe_["select_cells"] = nlohmann::json::array();
    for (int64_t cell : selected) probe_["select_cells"].push_back(pic_.rect(cell, 0));
}

}  // namespace

std::unique_ptr<Panel> make_fusion_panel() {
    return std::make_unique<FusionPanel>();
}

}  // namespace ll::gui
