// Compare two layouts of the same tensor side by side: NZ vs ZN, fp16 vs
// int8, C0 16 vs 32. Each side is an explorer scene (format, shape, dtype);
// both are shown at one shared stage (one slider, one play button), and the
// elements that sit at different offsets in the two memory buffers are
// outlined on the memory stage (core/compare.hpp decides which).
//
// Settings: {"a": <scene>, "b": <scene>, "stage": "last"}; a scene is the
// explorer's (from, to, via, shape, dtype, c0, fractal, ...).
//
// Sections: [state] [settings] [draw]
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

#include "app/i18n/tr.hpp"
#include "app/i18n/tr_text.hpp"
#include "app/panels/explorer_scene.hpp"
#include "app/panels/panel.hpp"
#include "app/panels/playhead.hpp"
#include "app/panels/present.hpp"
#include "app/render/plan_view.hpp"
#include "core/compare.hpp"
#include "core/error.hpp"
#include "core/format/format.hpp"
#include "core/format/narrate.hpp"

namespace ll::gui {

namespace {

// ---- [state] -------------------------------------------------------------------

struct Side {
    Scene scene;
    std::shared_ptr<Plan> plan;
    render::PlanGpu gpu;
    render::PlanView view;
    char shape_buf[128] = {};
    std::string err;
};

class ComparePanel : public Panel {
  public:
    ComparePanel() {
        side_[0].scene.to = "FRACTAL_NZ";
        side_[1].scene.to = "FRACTAL_ZN";
        for (Side& s : side_) {
            s.scene.shape = "2,16,28";
            std::snprintf(s.shape_buf, sizeof s.shape_buf, "%s", s.scene.shape.c_str());
        }
        rebuild();
        play_.seek(play_.hi);
    }
    const char* title() const override { return trn("Compare layouts"); }
    bool busy() const override { return play_.busy(); }
    Timeline timeline() const override { return timeline_of(play_, "stage"); }
    void seek(double t) override { seek_at_rest(play_, t); }
    void update(double dt) override { play_.update(dt); }
    void draw(AppContext& ctx) override;
    nlohmann::json save_settings() const override;
    nlohmann::json probe() const override;
    void load_settings(const nlohmann::json& j) override;

  private:
    bool rebuild();
    bool side_controls(Side& s, const char* id, AppContext& ctx);
    void upload();
    void draw_sides(AppContext& ctx, bool present);
    Side side_[2];
    LayoutDiff diff_;
    Playhead play_{0, 0};
    bool upload_ = false;  // the plans changed since the last upload
};

bool ComparePanel::rebuild() {
    bool ok = true;
    for (Side& s : side_) {
        s.err.clear();
        try {
            s.plan = build_plan(s.scene);
        } catch (const UsageError& e) {
            s.err = e.what();
            ok = false;
        }
    }
    if (!ok || !side_[0].plan || !side_[1].plan) return false;
    diff_ = compare_layouts(*side_[0].plan, *side_[1].plan);
    mark_differences(*side_[0].plan, *side_[1].plan, diff_);
    upload_ = true;  // GPU copies are made in draw(), where a GL context exists
    // One slider over both: the longer pipeline's stages; the shorter one
    // rests on its last stage past its end.
    size_t n = std::max(side_[0].plan->stages.size(), side_[1].plan->stages.size());
    play_.set_range(0, double(n - 1));
    return true;
}

// ---- [settings] ------------------------------------------------------------------

nlohmann::json ComparePanel::save_settings() const {
    nlohmann::json j;
    j["a"] = to_json(side_[0].scene);
    j["b"] = to_json(side_[1].scene);
    j["stage"] = play_.value;
    return j;
}

// What --dump-view reports beside the settings: core's diff and where each
// side's view sat on screen.
nlohmann::json ComparePanel::probe() const {
    nlohmann::json j = nlohmann::json::object();
    nlohmann::json d;
    d["same_source"] = diff_.same_source;
    d["compared"] = diff_.compared;
    d["offset_differs"] = diff_.offset_differs;
    d["byte_differs"] = diff_.byte_differs;
    d["summary"] = diff_.summary();
    j["diff"] = d;
    for (const Side& s : side_) {
        ImVec2 o = s.view.origin();
        const render::Camera& c = s.view.camera();
        j["screen"].push_back({{"origin", {o.x, o.y}},
                               {"zoom", c.zoom},
                               {"pan_x", c.pan_x},
                               {"pan_y", c.pan_y},
                               {"stages", s.plan ? int(s.plan->stages.size()) : 0}});
    }
    return j;
}

void ComparePanel::load_settings(const nlohmann::json& j) {
    if (!j.is_object()) throw UsageError("compare: expected a JSON object with \"a\" and \"b\"");
    std::string base;
    if (j.contains("_base_dir") && j.at("_base_dir").is_string())
        base = j.at("_base_dir").get<std::string>();
    for (const auto& [k, v] : j.items())
        if (k != "a" && k != "b" && k != "stage" && k != "panel" && k != "_base_dir" &&
            k != "diff" && k != "screen" && k != "window" && k != "probe" && k != "present" &&
            k != "diagram" && k != "slide")
            throw UsageError("compare: unknown key \"" + k + "\"; expected a, b, stage");
    const char* keys[2] = {"a", "b"};
    for (int i = 0; i < 2; ++i) {
        if (!j.contains(keys[i])) continue;
        side_[i].scene = scene_from_json(j.at(keys[i]), base);
        std::snprintf(side_[i].shape_buf, sizeof side_[i].shape_buf, "%s",
                      side_[i].scene.shape.c_str());
    }
    if (!rebuild())
        throw UsageError("compare: " + (side_[0].err.empty() ? side_[1].err : side_[0].err));
    if (j.contains("stage")) {
        const nlohmann::json& st = j.at("stage");
        if (st.is_number())
            play_.seek(st.get<double>());
        else if (st.is_string())
            play_.seek(double(parse_stage(st.get<std::string>(), size_t(play_.hi) + 1)));
        else
            throw UsageError("compare: \"stage\" must be a number or \"last\"");
    }
}

// ---- [draw] ------------------------------------------------------------------------

bool ComparePanel::side_controls(Side& s, const char* id, AppContext& ctx) {
    bool changed = false;
    ImGui::PushID(id);
    ImGui::PushItemWidth(150 * ctx.ui_scale);
    // Label before each field: "from [ND]  to [FRACTAL_NZ]  dtype [fp16]  shape [2,28]".
    auto label = [](const char* text) {
        ImGui::AlignTextToFramePadding();
        ImGui::TextUnformatted(tr(text));  // text: a catalog key (trn)
        ImGui::SameLine();
    };
    auto combo = [&](const char* text, std::string& v) {
        label(text);
        ImGui::PushID(text);
        bool open = ImGui::BeginCombo("##combo", v.c_str());
        ImGui::PopID();
        if (open) {
            for (Format f : all_formats())
                if (ImGui::Selectable(name(f), v == name(f))) {
                    v = name(f);
                    changed = true;
                }
            ImGui::EndCombo();
        }
    };
    combo(trn("from"), s.scene.from);
    ImGui::SameLine();
    combo(trn("to"), s.scene.to);
    ImGui::SameLine();
    label(trn("dtype"));
    if (ImGui::BeginCombo("##dtype", s.scene.dtype.c_str())) {
        for (DType t : all_dtypes())
            if (ImGui::Selectable(name(t), s.scene.dtype == name(t))) {
                s.scene.dtype = name(t);
                changed = true;
            }
        ImGui::EndCombo();
    }
    ImGui::SameLine();
    label(trn("shape"));
    if (ImGui::InputText("##shape", s.shape_buf, sizeof s.shape_buf,
                         ImGuiInputTextFlags_EnterReturnsTrue) ||
        ImGui::IsItemDeactivatedAfterEdit()) {
        s.scene.shape = s.shape_buf;
        changed = true;
    }
    ImGui::PopItemWidth();
    ImGui::PopID();
    return changed;
}

void ComparePanel::upload() {
    if (!upload_) return;
    for (Side& s : side_) {
        s.gpu.set_plan(s.plan, colour_mode_from_name(s.scene.colour));
        s.view.request_fit(0, -1);
        s.view.set_follow(true);
    }
    upload_ = false;
}

void ComparePanel::draw(AppContext& ctx) {
    apply_keys(play_, ctx.keys);
    if (ctx.present) {
        // Presentation mode: the two sides fill the slide, one label line
        // each; the caption is core's difference summary.
        if (!side_[0].plan || !side_[1].plan) {
            ctx.caption.title = tr("compare layouts");
            ctx.caption.formula =
                tr_text("error: " + (side_[0].err.empty() ? side_[1].err : side_[0].err));
            return;
        }
        upload();
        const Plan& a = *side_[0].plan;
        const Plan& b = *side_[1].plan;
        ctx.caption.title = "A: " + tr_text(a.title) + " " + name(a.dtype) + tr("   vs   ") +
                            "B: " + tr_text(b.title) + " " + name(b.dtype);
        ctx.caption.formula = tr_text(diff_.summary());
        draw_sides(ctx, true);
        return;
    }
    bool changed = false;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("A:");
    ImGui::SameLine();
    changed |= side_controls(side_[0], "a", ctx);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("B:");
    ImGui::SameLine();
    changed |= side_controls(side_[1], "b", ctx);
    if (changed) rebuild();
    for (const Side& s : side_)
        if (!s.err.empty())
            ImGui::TextColored(ImVec4(1.f, 0.42f, 0.38f, 1.f), "%s",
                               tr_text("error: " + s.err).c_str());
    if (!side_[0].plan || !side_[1].plan) return;
    upload();

    // One transport for both sides.
    if (ImGui::Button("|<")) play_.seek(play_.lo);
    ImGui::SameLine();
    if (ImGui::Button("<")) play_.step(-1);
    ImGui::SameLine();
    if (ImGui::Button(play_.playing ? tr_id("Pause") : tr_id("Play"), ImVec2(70 * ctx.ui_scale, 0)))
        play_.toggle();
    ImGui::SameLine();
    if (ImGui::Button(">")) play_.step(+1);
    ImGui::SameLine();
    if (ImGui::Button(">|")) play_.seek(play_.hi);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(std::max(120.f, ImGui::GetContentRegionAvail().x));
    float sv = float(play_.value);
    if (ImGui::SliderFloat("##stage", &sv, float(play_.lo), float(play_.hi), tr("stage %.2f")))
        play_.seek(sv);
    ImGui::SetWindowFontScale(1.15f);
    ImGui::TextWrapped("%s", tr_text(diff_.summary()).c_str());
    ImGui::SetWindowFontScale(1.f);
    ImGui::TextDisabled(
        "%s",
        tr("On the memory stage an outlined cell sits at a different offset in the other layout; "
           "a plain one at the same offset. Hover a cell to find its element on the other side."));
    ImGui::SetWindowFontScale(1.15f);
    ImGui::SetWindowFontScale(1.f);

    draw_sides(ctx, false);
}

// A and B side by side at the shared stage, each under its label lines (one
// in presentation mode); hovering a cell on one side highlights its element
// on the other.
void ComparePanel::draw_sides(AppContext& ctx, bool present) {
    ImVec2 avail = ImGui::GetContentRegionAvail();
    float gap = 10 * ctx.ui_scale;
    float w = std::floor((avail.x - gap) / 2);
    float head = (present ? 1 : 2) * ImGui::GetTextLineHeightWithSpacing();
    float h = std::max(60.f, avail.y - head);
    render::ViewStyle vs;
    vs.dark = ctx.dark_theme;
    int64_t hov[2] = {side_[0].view.hovered(), side_[1].view.hovered()};
    for (int i = 0; i < 2; ++i) {
        Side& s = side_[i];
        if (i) ImGui::SameLine(0, gap);
        ImGui::BeginGroup();
        float last = float(s.plan->stages.size() - 1);
        float st = std::min(float(play_.value), last);
        size_t k = size_t(std::lround(st));
        if (present) {
            ImGui::Text(tr("%s: stage %zu %s, shape %s"), i ? "B" : "A", k,
                        tr_text(s.plan->stages[k].label).c_str(),
                        to_string(s.plan->stages[k].shape).c_str());
        } else {
            ImGui::Text("%s: %s %s", i ? "B" : "A", tr_text(s.plan->title).c_str(),
                        name(s.plan->dtype));
            ImGui::TextDisabled(tr("stage %zu %s, shape %s"), k,
                                tr_text(s.plan->stages[k].label).c_str(),
                                to_string(s.plan->stages[k].shape).c_str());
        }
        // Hovering an element on one side highlights the same source
        // element on the other.
        int64_t other = hov[1 - i];
        const Plan& op = *side_[1 - i].plan;
        int64_t src = other >= 0 ? op.src[size_t(other)] : -1;
        vs.highlight = -1;
        if (src >= 0 && s.plan->cell_count <= render::PlanGpu::kSmallPlan)
            vs.highlight = cell_of_source(*s.plan, src);
        s.view.draw(s.gpu, st, ImVec2(w, h), vs);
        ImGui::EndGroup();
    }
}

}  // namespace

std::unique_ptr<Panel> make_compare_panel() {
    return std::make_unique<ComparePanel>();
}

}  // namespace ll::gui
