// Systolic array vs Cube (document 004's TPU beside the Ascend Cube): a GEMM
// flowing through a weight-stationary systolic array cycle by cycle (core's
// systolic_plan: A skewed at the left, weights entering from the top and
// staying, partial sums moving down, C filling below), and under it the Cube's
// 16x16x16 fractal step for the same GEMM on the same clock (core's cube_plan,
// one step per cycle). The side column prints core's cycle state, tiles,
// cycle counts and utilisation of both, and the register simulation's check.
//
// Scene keys: rows, cols, m, k, n, load (cycles per weight row), cycle, rate,
// playing.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

#include "app/i18n/tr.hpp"
#include "app/i18n/tr_text.hpp"
#include "app/panels/compute_widgets.hpp"
#include "app/panels/panel.hpp"
#include "app/panels/playhead_panel.hpp"
#include "app/panels/present.hpp"
#include "app/panels/scene_reader.hpp"
#include "app/render/plan_view.hpp"
#include "app/render/present.hpp"
#include "core/error.hpp"
#include "core/exec/cube_plan.hpp"
#include "core/gpu/systolic.hpp"

namespace ll::gui {

namespace {

using compute::labelled_int;

struct SystolicSettings {
    gpu::SystolicParams p;
    int64_t cycle = 0;
    double rate = 2;  // cycles per second
    bool playing = false;
    nlohmann::json to_json() const {
        return {{"rows", p.rows}, {"cols", p.cols}, {"m", p.m},
                {"k", p.k},       {"n", p.n},       {"load", p.load_cycles_per_row},
                {"cycle", cycle}, {"rate", rate},   {"playing", playing}};
    }
};

class SystolicPanel : public PlayheadPanel {
  public:
    SystolicPanel() : PlayheadPanel("cycle", Playhead(0, 0)) { rebuild(); }
    const char* title() const override { return trn("Systolic array vs Cube"); }
    void draw(AppContext& ctx) override;
    nlohmann::json save_settings() const override {
        SystolicSettings s = set_;
        s.cycle = play_.whole();
        s.rate = play_.speed;
        s.playing = play_.playing;
        return s.to_json();
    }
    nlohmann::json probe() const override;
    void load_settings(const nlohmann::json& j) override {
        SceneReader r(j, "systolic");
        r.only({"rows", "cols", "m", "k", "n", "load", "cycle", "rate", "playing"});
        SystolicSettings s = set_;
        r.get("rows", s.p.rows, 1, 16);
        r.get("cols", s.p.cols, 1, 16);
        r.get("m", s.p.m, 1, 64);
        r.get("k", s.p.k, 1, 64);
        r.get("n", s.p.n, 1, 64);
        r.get("load", s.p.load_cycles_per_row, 0, 8);
        r.get("rate", s.rate, 0.25, 1000.0);
        r.get("playing", s.playing);
        int64_t cycles = 0;
        try {
            cycles = gpu::systolic_summary(s.p).cycles;
            gpu::systolic_plan(s.p);
        } catch (const std::exception& e) {
            r.rethrow(e);
        }
        s.cycle = 0;
        r.get("cycle", s.cycle, 0, cycles);
        set_ = s;
        rebuild();
        play_.seek(double(s.cycle));
        play_.speed = s.rate;
        play_.playing = s.playing;
    }

  private:
    void rebuild();
    void controls();
    void side();
    void caption(AppContext& ctx) const;
    void pictures(ImVec2 size, bool dark, bool side = false);

    SystolicSettings set_;
    gpu::SystolicRun run_;
    std::shared_ptr<Plan> plan_, cube_;
    int64_t cube_step_ = -1;
    exec::CubeScene cube_scene_;
    render::PlanGpu gpu_, cube_gpu_;
    render::PlanView view_, cube_view_;
    std::string error_, bad_;
    bool uploaded_ = false;
};

// --dump-view: both pictures as the last frame drew them (canvas and labels).
nlohmann::json SystolicPanel::probe() const {
    auto view = [](const render::PlanView& v) {
        return nlohmann::json{{"origin", {v.origin().x, v.origin().y}},
                              {"size", {v.canvas_size().x, v.canvas_size().y}},
                              {"zoom", v.camera().zoom},
                              {"labels", render::labels_json(v.drawn_labels())}};
    };
    return {{"screen", {{"array", view(view_)}, {"cube", view(cube_view_)}}}};
}

void SystolicPanel::rebuild() {
    try {
        run_ = gpu::systolic_run(set_.p);
        plan_ = std::make_shared<Plan>(gpu::systolic_plan(set_.p));
        uploaded_ = false;  // GL work waits for draw(): no context needed to construct
        error_.clear();
        bad_.clear();
    } catch (const UsageError& e) {
        plan_.reset();
        error_ = e.what();
        bad_ = e.key();
        return;
    }
    const gpu::SystolicSummary& s = run_.summary;
    cube_scene_ = exec::CubeScene{};
    cube_scene_.m1 = s.cube_m1;
    cube_scene_.k1 = s.cube_k1;
    cube_scene_.n1 = s.cube_n1;
    cube_step_ = -1;
    play_.set_range(0, double(s.cycles));
    play_.speed = set_.rate;
    play_.seek(0);
    play_.playing = false;
    view_.request_fit(0, -1);
    cube_view_.request_fit(0, 0);
}

void SystolicPanel::controls() {
    bool ch = false;
    gpu::SystolicParams& p = set_.p;
    ch |= labelled_int(trn("PE rows"), p.rows, 60, bad_ == "rows");
    ImGui::SameLine(0, 12);
    ch |= labelled_int(trn("PE cols"), p.cols, 60, bad_ == "cols" || bad_ == "cycles");
    ImGui::SameLine(0, 12);
    ch |= labelled_int("M", p.m, 60, bad_ == "m");
    ImGui::SameLine(0, 12);
    ch |= labelled_int("K", p.k, 60, bad_ == "k");
    ImGui::SameLine(0, 12);
    ch |= labelled_int("N", p.n, 60, bad_ == "n");
    ImGui::SameLine(0, 12);
    ch |= labelled_int(trn("load cycles/row"), p.load_cycles_per_row, 60,
                       bad_ == "load_cycles_per_row");
    if (ch) rebuild();
    if (ImGui::Button(play_.playing ? tr_id("Pause") : tr_id("Play"))) play_.toggle();
    ImGui::SameLine();
    if (ImGui::Button(tr_id("Step"))) play_.step(+1);
    ImGui::SameLine();
    if (ImGui::Button(tr_id("Reset"))) {
        play_.playing = false;
        play_.seek(0);
    }
    ImGui::SameLine(0, 16);
    float r = float(play_.speed);
    if (compute::labelled_float(trn("cycles/s"), r, 0.25f, 200, "%.2f", 160))
        set_.rate = play_.speed = r;
}

void SystolicPanel::side() {
    const gpu::SystolicParams& p = set_.p;
    const gpu::SystolicSummary& s = run_.summary;
    const gpu::CycleState st = gpu::systolic_state(p, play_.whole());
    ImGui::Text(tr("cycle %lld of %lld"), static_cast<long long>(st.cycle),
                static_cast<long long>(s.cycles));
    if (st.tile >= 0) {
        const gpu::SystolicTile& tl = s.tiles[size_t(st.tile)];
        ImGui::TextWrapped(tr("tile %lld of %zu: weights k %lld..%lld, n %lld..%lld"),
                           static_cast<long long>(st.tile + 1), s.tiles.size(),
                           static_cast<long long>(tl.k0), static_cast<long long>(tl.k0 + tl.kt - 1),
                           static_cast<long long>(tl.n0),
                           static_cast<long long>(tl.n0 + tl.nt - 1));
        ImGui::TextWrapped(st.loading ? tr("loading weights: %lld of %lld rows in")
                                      : tr("streaming A (%lld of %lld weight rows held)"),
                           static_cast<long long>(st.loaded_rows), static_cast<long long>(tl.kt));
    } else {
        ImGui::TextUnformatted(tr("done"));
    }
    ImGui::Text(tr("%lld of %lld PEs busy"), static_cast<long long>(st.active_pes),
                static_cast<long long>(p.rows * p.cols));
    ImGui::Text(tr("%lld of %lld outputs complete"), static_cast<long long>(st.outputs_done),
                static_cast<long long>(p.m * p.n));
    ImGui::Separator();
    ImGui::TextWrapped(tr("Systolic %lldx%lld: %zu tile(s), %lld cycles (%lld loading, %lld "
                          "streaming = M + Kt + Nt - 2 per tile), %lld MACs, utilisation %.1f%%"),
                       static_cast<long long>(p.rows), static_cast<long long>(p.cols),
                       s.tiles.size(), static_cast<long long>(s.cycles),
                       static_cast<long long>(s.load_cycles),
                       static_cast<long long>(s.stream_cycles), static_cast<long long>(s.macs),
                       100 * s.utilisation);
    ImGui::TextWrapped(tr("Cube (fp16, 16x16x16 a cycle): %lld x %lld x %lld = %lld step(s) = %lld "
                          "cycle(s), utilisation %.1f%%"),
                       static_cast<long long>(s.cube_m1), static_cast<long long>(s.cube_k1),
                       static_cast<long long>(s.cube_n1), static_cast<long long>(s.cube_steps),
                       static_cast<long long>(s.cube_steps), 100 * s.cube_utilisation);
    ImGui::PushStyleColor(ImGuiCol_Text, run_.equal ? render::theme_colour(render::Role::done)
                                                    : compute::err_colour());
    ImGui::TextWrapped("%s", run_.equal
                                 ? tr("register simulation = direct product")
                                 : tr("register simulation DIFFERS from the direct product"));
    ImGui::PopStyleColor();
    ImGui::Separator();
    ImGui::TextWrapped(
        "%s",
        tr("Blue: A, skewed so row i starts i cycles late, moving right. Green: weights (B), "
           "loaded from the top, then staying. Dark red: partial sums moving down. Bright red: C "
           "once complete. Each PE: weight | activation over . | sum; busy PEs framed."));
    ImGui::TextDisabled("%s", tr("space play/pause, left/right step, Home/End"));
}

void SystolicPanel::pictures(ImVec2 size, bool dark, bool side) {
    if (!uploaded_) {
        gpu_.set_plan(plan_, ColourMode::value);
        uploaded_ = true;
    }
    render::ViewStyle vs;
    vs.dark = dark;
    vs.show_numbers = false;
    // Side by side on a slide: the array is tall and narrow (its cells are
    // limited by the height), so stacking the Cube under it halved its cells
    // and dropped the PE row/column ticks; the Cube takes the right quarter.
    const float label_h = ImGui::GetTextLineHeightWithSpacing();
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    const float sys_w = side ? std::floor(size.x * 0.72f) : size.x;
    const float cube_w = side ? size.x - sys_w - gap : size.x;
    const float cube_h = side ? size.y - 3 * label_h : std::max(80.0f, size.y * 0.28f);
    view_.draw(gpu_, float(play_.value), ImVec2(sys_w, side ? size.y : size.y - cube_h - label_h),
               vs);
    if (side) {
        ImGui::SameLine();
        ImGui::BeginGroup();
    }
    const int64_t step = std::min<int64_t>(play_.whole(), cube_scene_.steps());
    if (!cube_ || step != cube_step_) {
        try {
            cube_ = std::make_shared<Plan>(
                exec::cube_plan(cube_scene_, step, cube_w / std::max(1.0f, cube_h)));
            cube_gpu_.set_plan(cube_, ColourMode::value);
        } catch (const UsageError& e) {
            cube_.reset();
            error_ = e.what();
        }
        cube_step_ = step;
    }
    // One line is reserved for it: the short form where the long one would be cut.
    char line[256];
    std::snprintf(line, sizeof line,
                  tr("Cube, same GEMM on the same clock: step %lld of %lld (one 16x16x16 fractal "
                     "multiply per cycle)"),
                  static_cast<long long>(step), static_cast<long long>(cube_scene_.steps()));
    if (ImGui::CalcTextSize(line).x > cube_w)
        std::snprintf(line, sizeof line, tr("Cube, same GEMM: step %lld of %lld"),
                      static_cast<long long>(step), static_cast<long long>(cube_scene_.steps()));
    if (side) {  // the slide's narrow column: the short form wraps rather than being cut
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + cube_w);
        ImGui::TextWrapped("%s", line);
        ImGui::PopTextWrapPos();
    } else {
        ImGui::TextUnformatted(line);
    }
    if (cube_) cube_view_.draw(cube_gpu_, 0, ImVec2(cube_w, cube_h - 4), vs);
    if (side) ImGui::EndGroup();
}

// Presentation mode's caption: the side column's cycle state and totals, in
// two lines (all of it core's systolic_state / SystolicSummary).
void SystolicPanel::caption(AppContext& ctx) const {
    const gpu::SystolicParams& p = set_.p;
    const gpu::SystolicSummary& s = run_.summary;
    const gpu::CycleState st = gpu::systolic_state(p, play_.whole());
    char buf[320];
    if (st.tile >= 0) {
        std::snprintf(buf, sizeof buf,
                      tr("systolic %lldx%lld   cycle %lld of %lld, tile %lld of %zu: %s"),
                      static_cast<long long>(p.rows), static_cast<long long>(p.cols),
                      static_cast<long long>(st.cycle), static_cast<long long>(s.cycles),
                      static_cast<long long>(st.tile + 1), s.tiles.size(),
                      st.loading ? tr("loading weights") : tr("streaming A"));
    } else {
        std::snprintf(buf, sizeof buf, tr("systolic %lldx%lld   cycle %lld of %lld: done"),
                      static_cast<long long>(p.rows), static_cast<long long>(p.cols),
                      static_cast<long long>(st.cycle), static_cast<long long>(s.cycles));
    }
    ctx.caption.title = buf;
    std::snprintf(buf, sizeof buf,
                  tr("%lld cycles (%lld loading), utilisation %.1f%%   vs   Cube %lld step(s), "
                     "%.1f%%"),
                  static_cast<long long>(s.cycles), static_cast<long long>(s.load_cycles),
                  100 * s.utilisation, static_cast<long long>(s.cube_steps),
                  100 * s.cube_utilisation);
    ctx.caption.formula = buf;
}

void SystolicPanel::draw(AppContext& ctx) {
    apply_keys(play_, ctx.keys);
    if (ctx.present) {
        if (!plan_) {
            ctx.caption.title = tr("systolic array");
            ctx.caption.formula = tr_text("error: " + error_);
            return;
        }
        caption(ctx);
        const ImVec2 avail = ImGui::GetContentRegionAvail();
        pictures(ImVec2(avail.x, std::max(160.0f, avail.y - 4)), ctx.dark_theme, true);
        return;
    }
    controls();
    if (!plan_) {
        ImGui::TextColored(compute::err_colour(), "%s", tr_text("error: " + error_).c_str());
        return;
    }
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float w = std::min(340.0f * ctx.ui_scale, avail.x * 0.3f);
    ImGui::BeginChild("side", ImVec2(w, avail.y), true);
    side();
    ImGui::EndChild();
    ImGui::SameLine();
    const ImVec2 rest = ImGui::GetContentRegionAvail();
    ImGui::BeginGroup();
    pictures(ImVec2(rest.x, std::max(160.0f, rest.y - 4)), ctx.dark_theme);
    ImGui::EndGroup();
}

}  // namespace

std::unique_ptr<Panel> make_systolic_panel() {
    return std::make_unique<SystolicPanel>();
}

}  // namespace ll::gui
