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
#include "app/panels/compact.hpp"
#include "app/panels/compute_widgets.hpp"
#include "app/panels/explorer_scene.hpp"
#include "app/panels/panel.hpp"
#include "app/panels/playhead_panel.hpp"
#include "app/panels/present.hpp"
#include "app/panels/scene_reader.hpp"
#include "app/render/grid_labels.hpp"
#include "app/render/plan_view.hpp"
#include "core/compare.hpp"
#include "core/error.hpp"
#include "core/format/format.hpp"
#include "core/format/narrate.hpp"
#include "core/plan_fit.hpp"

namespace ll::gui {

namespace {

// ---- [state] -------------------------------------------------------------------

struct Side {
    Scene scene;
    std::shared_ptr<Plan> plan;
    render::PlanGpu gpu;
    render::PlanView view;
    char shape_buf[128] = {};
    std::string err, err_key;  // the engine's message and its key ("shape")
};

class ComparePanel : public PlayheadPanel {
  public:
    ComparePanel() : PlayheadPanel("stage", Playhead(0, 0)) {
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
    float aspect_ = 0;  // of the panes the memory stages were fitted to (0: not yet)
    bool upload_ = false;
    nlohmann::json fields_ = nlohmann::json::object();  // input rectangles, for the probe  // the
                                                        // plans changed since the last upload
};

bool ComparePanel::rebuild() {
    bool ok = true;
    for (Side& s : side_) {
        s.err.clear();
        s.err_key.clear();
        try {
            s.plan = build_plan(s.scene);
        } catch (const UsageError& e) {
            s.err = e.what();
            s.err_key = e.key();
            ok = false;
        }
    }
    if (!ok || !side_[0].plan || !side_[1].plan) return false;
    diff_ = compare_layouts(*side_[0].plan, *side_[1].plan);
    mark_differences(*side_[0].plan, *side_[1].plan, diff_);
    aspect_ = 0;     // draw_sides fits the new memory stages to their panes
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
    if (!fields_.empty()) j["fields"] = fields_;
    for (const Side& s : side_) {
        ImVec2 o = s.view.origin(), sz = s.view.canvas_size();
        const render::Camera& c = s.view.camera();
        j["screen"].push_back({{"origin", {o.x, o.y}},
                               {"canvas", {o.x, o.y, sz.x, sz.y}},
                               {"labels", render::labels_json(s.view.drawn_labels())},
                               {"zoom", c.zoom},
                               {"pan_x", c.pan_x},
                               {"pan_y", c.pan_y},
                               {"stages", s.plan ? int(s.plan->stages.size()) : 0}});
    }
    return j;
}

void ComparePanel::load_settings(const nlohmann::json& j) {
    const SceneReader r(j, "compare");
    // "diff" and "screen" were written by older --dump-view files; ignored.
    r.only({"a", "b", "stage", "_base_dir", "diff", "screen"});
    std::string base;
    if (j.contains("_base_dir") && j.at("_base_dir").is_string())
        base = j.at("_base_dir").get<std::string>();
    const char* keys[2] = {"a", "b"};
    for (int i = 0; i < 2; ++i) {
        if (!r.has(keys[i])) continue;
        side_[i].scene = read_scene(r.sub(keys[i]), base);
        std::snprintf(side_[i].shape_buf, sizeof side_[i].shape_buf, "%s",
                      side_[i].scene.shape.c_str());
    }
    if (!rebuild())  // the engine's error about one side, under that side's key ("a.shape")
        for (int i = 0; i < 2; ++i)
            if (!side_[i].err.empty())
                r.sub(keys[i]).rethrow(UsageError(side_[i].err_key, side_[i].err, side_[i].err));
    if (r.has("stage")) {
        const nlohmann::json& st = r.at("stage");
        if (st.is_number()) {
            double v = 0;
            r.get("stage", v, 0, play_.hi);
            play_.seek(v);
        } else if (st.is_string()) {
            try {
                play_.seek(double(parse_stage(st.get<std::string>(), size_t(play_.hi) + 1)));
            } catch (const UsageError& e) {
                r.rethrow(e);
            }
        } else {
            r.fail("stage", st, "a stage number or \"last\"");
        }
    }
}

// ---- [draw] ------------------------------------------------------------------------

bool ComparePanel::side_controls(Side& s, const char* id, AppContext& ctx) {
    bool changed = false;
    ImGui::PushID(id);
    const float field = 150 * ctx.ui_scale;
    ImGui::PushItemWidth(field);
    // Label before each field: "from [ND]  to [FRACTAL_NZ]  dtype [fp16]  shape [2,28]".
    // A pair that does not fit in what is left of the line starts the next
    // one (at 1024x768 x1.5 the shape field ran off the window's right edge).
    auto label = [&](const char* text) {
        compute::wrap_for(ImGui::CalcTextSize(tr(text)).x + ImGui::GetStyle().ItemSpacing.x +
                          field);
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
    fields_[std::string(id) + "_shape"] =
        compute::rect_json(ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
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
        const Plan& a = *side_[0].plan;
        const Plan& b = *side_[1].plan;
        ctx.caption.title = "A: " + tr_text(a.title) + " " + name(a.dtype) + tr("   vs   ") +
                            "B: " + tr_text(b.title) + " " + name(b.dtype);
        ctx.caption.formula = tr_text(diff_.summary());
        draw_sides(ctx, true);
        return;
    }
    bool changed = false;
    // On a short window (the projector) the two rows of fields fold under a
    // header that names both sides, so the pictures keep the height.
    const bool compact = compact_layout();
    auto named = [](const Side& s) {
        return s.scene.from + " -> " + s.scene.to + " " + s.scene.dtype + " (" + s.scene.shape +
               ")";
    };
    const bool open = !compact || compact_header(std::string(tr("edit: ")) + "A " +
                                                     named(side_[0]) + "   B " + named(side_[1]),
                                                 "compare_sides");
    if (open) {
        ImGui::AlignTextToFramePadding();
        ImGui::TextUnformatted("A:");
        ImGui::SameLine();
        changed |= side_controls(side_[0], "a", ctx);
        ImGui::AlignTextToFramePadding();
        ImGui::TextUnformatted("B:");
        ImGui::SameLine();
        changed |= side_controls(side_[1], "b", ctx);
    }
    if (changed) rebuild();
    for (const Side& s : side_)
        if (!s.err.empty())
            ImGui::TextColored(ImVec4(1.f, 0.42f, 0.38f, 1.f), "%s",
                               tr_text("error: " + s.err).c_str());
    if (!side_[0].plan || !side_[1].plan) return;

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
    if (open) {  // the key to the outlines, wrapped (it ran off the projector's edge)
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextWrapped(
            "%s", tr("On the memory stage an outlined cell sits at a different offset in the other "
                     "layout; a plain one at the same offset. Hover a cell to find its element on "
                     "the other side."));
        ImGui::PopStyleColor();
    }

    draw_sides(ctx, false);
}

// A and B side by side at the shared stage, each under its label lines (one
// in presentation mode); hovering a cell on one side highlights its element
// on the other.
void ComparePanel::draw_sides(AppContext& ctx, bool present) {
    ImVec2 avail = ImGui::GetContentRegionAvail();
    float gap = 10 * ctx.ui_scale;
    float w = std::floor((avail.x - gap) / 2);
    // Each side's heading: on a slide one line a size up from the text when
    // both fit, else wrapped within its pane (a heading wider than its pane
    // pushed side B off the projector's slide).
    size_t stage[2];
    std::string lines[2][2];
    for (int i = 0; i < 2; ++i) {
        const Plan& p = *side_[i].plan;
        stage[i] = size_t(std::lround(std::min(play_.value, double(p.stages.size() - 1))));
        const Stage& st = p.stages[stage[i]];
        char buf[256];
        if (present) {
            std::snprintf(buf, sizeof buf, tr("%s: stage %zu %s, shape %s"), i ? "B" : "A",
                          stage[i], tr_text(st.label).c_str(), to_string(st.shape).c_str());
            lines[i][0] = buf;
        } else {
            lines[i][0] = std::string(i ? "B: " : "A: ") + tr_text(p.title) + " " + name(p.dtype);
            std::snprintf(buf, sizeof buf, tr("stage %zu %s, shape %s"), stage[i],
                          tr_text(st.label).c_str(), to_string(st.shape).c_str());
            lines[i][1] = buf;
        }
    }
    float scale = 1.f;
    if (present) {
        ImGui::SetWindowFontScale(1.3f);
        if (ImGui::CalcTextSize(lines[0][0].c_str()).x <= w &&
            ImGui::CalcTextSize(lines[1][0].c_str()).x <= w)
            scale = 1.3f;
    }
    ImGui::SetWindowFontScale(scale);
    float head = 0;
    for (const auto& side : lines) {
        float hh = 0;
        for (const std::string& l : side)
            if (!l.empty())
                hh += ImGui::CalcTextSize(l.c_str(), nullptr, false, w).y +
                      ImGui::GetStyle().ItemSpacing.y;
        head = std::max(head, hh);
    }
    ImGui::SetWindowFontScale(1.f);
    float h = std::max(60.f, avail.y - head);
    // The memory stages folded into bands that suit the panes (core's
    // fit_memory_stages): one band of 64 rows was a strip in a square pane.
    const float aspect = std::round(w / h * 5) / 5;
    if (aspect != aspect_) {
        aspect_ = aspect;
        for (Side& s : side_)
            if (fit_memory_stages(*s.plan, aspect) > 0) upload_ = true;
    }
    upload();
    render::ViewStyle vs;
    vs.dark = ctx.dark_theme;
    int64_t hov[2] = {side_[0].view.hovered(), side_[1].view.hovered()};
    for (int i = 0; i < 2; ++i) {
        Side& s = side_[i];
        if (i) ImGui::SameLine(0, gap);
        ImGui::BeginGroup();
        const float top = ImGui::GetCursorPosY();
        ImGui::SetWindowFontScale(scale);
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + w);
        ImGui::TextWrapped("%s", lines[i][0].c_str());
        if (!lines[i][1].empty()) {
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
            ImGui::TextWrapped("%s", lines[i][1].c_str());
            ImGui::PopStyleColor();
        }
        ImGui::PopTextWrapPos();
        ImGui::SetWindowFontScale(1.f);
        ImGui::SetCursorPosY(top + head);  // both pictures start on one line
        // Hovering an element on one side highlights the same source
        // element on the other.
        int64_t other = hov[1 - i];
        const Plan& op = *side_[1 - i].plan;
        int64_t src = other >= 0 ? op.src[size_t(other)] : -1;
        vs.highlight = -1;
        if (src >= 0 && s.plan->cell_count <= render::PlanGpu::kSmallPlan)
            vs.highlight = cell_of_source(*s.plan, src);
        const float last = float(s.plan->stages.size() - 1);
        s.view.draw(s.gpu, std::min(float(play_.value), last), ImVec2(w, h), vs);
        ImGui::EndGroup();
    }
}

}  // namespace

std::unique_ptr<Panel> make_compare_panel() {
    return std::make_unique<ComparePanel>();
}

}  // namespace ll::gui
