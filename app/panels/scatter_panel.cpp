// Scatter: the scatter side of scatter-gather (document 003, section 14). A
// packed source (one request per row) animates into memory (one burst per
// row) at the index list; an element written twice keeps only the later
// writer, bursts a request writes only in part are framed "partial" (masked
// write or read-modify-write), conflicts framed. The picture is core's
// scatter_plan, the numbers core's ScatterReport; the CLI twin is `scatter`.
// The AGU panel's gather mode is the read side.
//
// Scene keys: indices (comma-separated), width, burst, dtype, stage (0..1).
#include <imgui.h>

#include <cstdio>
#include <memory>

#include "app/i18n/tr.hpp"
#include "app/i18n/tr_text.hpp"
#include "app/panels/compute_widgets.hpp"
#include "app/panels/panel.hpp"
#include "app/panels/playhead_panel.hpp"
#include "app/panels/present.hpp"
#include "app/panels/scene_reader.hpp"
#include "app/render/grid_labels.hpp"
#include "app/render/plan_view.hpp"
#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core/view/scatter.hpp"

namespace ll::gui {

namespace {

std::vector<int64_t> parse_indices(const std::string& s) {
    std::vector<int64_t> v;
    size_t p = 0;
    while (p <= s.size()) {
        const size_t q = std::min(s.find(',', p), s.size());
        const std::string tok = s.substr(p, q - p);
        size_t used = 0;
        long long x = 0;
        try {
            x = std::stoll(tok, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used == 0 || used != tok.size())
            throw UsageError("indices", "'" + tok + "' is not an integer; expected e.g. 0,5,6,7");
        v.push_back(x);
        p = q + 1;
    }
    return v;
}

class ScatterPanel : public PlayheadPanel {
  public:
    ScatterPanel() : PlayheadPanel("stage", Playhead(0, 1)) {
        std::snprintf(indices_, sizeof indices_, "0,1,2,3,9,10,11,12,20,5,20,31");
        sg_.width = 4;
        rebuild();
        play_.seek(1);  // the scattered memory; "Back to source" shows the packed source
    }
    const char* title() const override { return trn("Scatter"); }
    void draw(AppContext& ctx) override;
    // --dump-view: where the picture sat and the labels drawn on it.
    nlohmann::json probe() const override {
        const ImVec2 o = view_.origin(), sz = view_.canvas_size();
        return {{"screen",
                 {{"canvas", {o.x, o.y, sz.x, sz.y}},
                  {"zoom", view_.camera().zoom},
                  {"labels", render::labels_json(view_.drawn_labels())}}}};
    }
    nlohmann::json save_settings() const override {
        return {{"indices", indices_},
                {"width", sg_.width},
                {"burst", sg_.burst_bytes},
                {"dtype", name(dtype_)},
                {"stage", play_.whole()}};
    }
    void load_settings(const nlohmann::json& j) override {
        SceneReader r(j, "scatter");
        r.only({"indices", "width", "burst", "dtype", "stage"});
        std::string idx = indices_, dt = name(dtype_);
        r.get("indices", idx);
        r.get("width", sg_.width, 1, 4096);
        r.get("burst", sg_.burst_bytes, 1, 4096);
        r.get("dtype", dt);
        int64_t st = 1;
        r.get("stage", st, 0, 1);
        try {
            dtype_ = dtype_from_name(dt);
            std::snprintf(indices_, sizeof indices_, "%s", idx.c_str());
            rebuild();
            if (!error_.empty()) throw UsageError(bad_, error_);
        } catch (const std::exception& e) {
            r.rethrow(e);
        }
        play_.seek(double(st));
    }

  private:
    void draw_present(AppContext& ctx);
    void draw_view(bool dark, ImVec2 size);
    void rebuild() {
        sg_.elem_bits = bits(dtype_);
        try {
            report_ = view::scatter(sg_, parse_indices(indices_));
            plan_ = std::make_shared<Plan>(view::scatter_plan(report_, sg_));
            uploaded_ = false;  // GL work waits for draw(): no context needed to construct
            view_.request_fit(0, -1);
            error_.clear();
            bad_.clear();
        } catch (const UsageError& e) {
            plan_.reset();
            error_ = e.detail();
            bad_ = e.key().empty() ? "indices" : e.key();
        }
    }

    view::ScatterGather sg_;
    DType dtype_ = DType::fp32;
    char indices_[1024] = {};
    view::ScatterReport report_;
    std::shared_ptr<Plan> plan_;
    render::PlanGpu gpu_;
    render::PlanView view_;
    std::string error_, bad_;
    bool uploaded_ = false;
};

void ScatterPanel::draw_view(bool dark, ImVec2 size) {
    if (!uploaded_) {
        gpu_.set_plan(plan_, ColourMode::source_index);
        uploaded_ = true;
    }
    render::ViewStyle vs;
    vs.dark = dark;
    view_.draw(gpu_, float(play_.value), size, vs);
}

// Presentation mode: source and scattered memory fill the slide; the caption
// is the stage's and core's counts (bursts, partial bursts, conflicts).
void ScatterPanel::draw_present(AppContext& ctx) {
    if (!plan_) {
        ctx.caption.title = tr("scatter: ") + bad_;
        ctx.caption.formula = tr_text("error: " + error_);
        return;
    }
    caption_from_stage(ctx, *plan_, play_.value);
    const view::ScatterReport& r = report_;
    char buf[160];
    std::snprintf(buf, sizeof buf, tr("   %lld bursts, %lld partial, %zu conflict(s)"),
                  static_cast<long long>(r.bursts), static_cast<long long>(r.partial_bursts),
                  r.conflicts.size());
    ctx.caption.title += buf;
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    draw_view(ctx.dark_theme, ImVec2(avail.x, std::max(120.0f, avail.y - 4)));
}

void ScatterPanel::draw(AppContext& ctx) {
    apply_keys(play_, ctx.keys);
    if (ctx.present) {
        draw_present(ctx);
        return;
    }
    const float em = ImGui::GetFontSize();
    bool ch = false;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(tr("indices"));
    ImGui::SameLine();
    ImGui::SetNextItemWidth(std::max(12 * em, ImGui::GetContentRegionAvail().x * 0.4f));
    ch |= ImGui::InputText("##indices", indices_, sizeof indices_);
    ImGui::SameLine();
    ch |= compute::labelled_int(trn("width"), sg_.width, 60);
    ImGui::SameLine();
    ch |= compute::labelled_int(trn("burst B"), sg_.burst_bytes, 60);
    if (ch) rebuild();
    if (ImGui::Button(tr_id("Scatter"))) play_.go(1);
    ImGui::SameLine();
    if (ImGui::Button(tr_id("Back to source"))) play_.go(0);
    if (!plan_) {
        ImGui::TextColored(compute::err_colour(), "%s",
                           tr_text("error: " + bad_ + ": " + error_).c_str());
        return;
    }
    const view::ScatterReport& r = report_;
    ImGui::TextWrapped(
        tr("%lld elements in %zu requests of %lld: %lld runs, %lld bursts, %lld written "
           "only in part (masked write or read-modify-write); %zu conflicts (an index "
           "written twice: the later write wins)."),
        static_cast<long long>(r.elements), r.requests.size(), static_cast<long long>(sg_.width),
        static_cast<long long>(r.runs), static_cast<long long>(r.bursts),
        static_cast<long long>(r.partial_bursts), r.conflicts.size());
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    draw_view(ctx.dark_theme, ImVec2(avail.x, std::max(120.0f, avail.y - 4)));
}

}  // namespace

std::unique_ptr<Panel> make_scatter_panel() {
    return std::make_unique<ScatterPanel>();
}

}  // namespace ll::gui
