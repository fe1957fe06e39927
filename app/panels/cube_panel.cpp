// The Cube scene: a row of A fractals meets a column of B fractals and
// accumulates into one C fractal, one 16x16x16 (fp16) or 16x32x16 (int8)
// multiply per step, in the lecture's loop order K -> N -> M. The picture is
// core's cube_plan (core/exec/cube_plan.hpp) drawn by the cell renderer; the
// loop nest at the left prints core's CubeState and, for small problems, the
// real values CubeRun computes. The panel keeps only its settings and the
// playhead.
//
// Sections: [settings] scene file in/out, [model] rebuild, [draw] controls,
// loop nest, picture.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "app/i18n/tr.hpp"
#include "app/i18n/tr_text.hpp"
#include "app/panels/compute_widgets.hpp"
#include "app/panels/panel.hpp"
#include "app/panels/playhead_panel.hpp"
#include "app/panels/present.hpp"
#include "app/render/grid_labels.hpp"
#include "app/render/plan_view.hpp"
#include "app/render/present.hpp"
#include "core/error.hpp"
#include "core/exec/cube_plan.hpp"

namespace ll::gui {

namespace {

using compute::labelled_int;
using compute::rect_json;

// What a scene file holds (save_settings / load_settings).
struct CubeSettings {
    exec::CubeScene scene;
    int64_t step = 0;
    double rate = 4;  // steps per second while playing
    bool playing = false;

    nlohmann::json to_json() const {
        return {{"m1", scene.m1},    {"k1", scene.k1},
                {"n1", scene.n1},    {"int8", scene.dtype == DType::int8},
                {"step", step},      {"rate", rate},
                {"playing", playing}};
    }
    // Keys absent from the file keep their values.
    void read(const SceneReader& r) {
        // "steps" and "values" were written by older versions; ignored.
        r.only(
            {"m1", "k1", "n1", "int8", "step", "steps", "rate", "playing", "case_study", "values"});
        bool cs = false, int8 = scene.dtype == DType::int8;
        r.get("case_study", cs);
        if (cs) {
            scene = exec::cube_case_study();
            rate = 2000;
            int8 = false;
        }
        r.get("m1", scene.m1, 1, 4096);
        r.get("k1", scene.k1, 1, 4096);
        r.get("n1", scene.n1, 1, 4096);
        r.get("int8", int8);
        scene.dtype = int8 ? DType::int8 : DType::fp16;
        step = 0;
        r.get("step", step, 0, scene.steps());
        r.get("rate", rate, 0.5, 5000.0);
        r.get("playing", playing);
    }
};

class CubePanel : public PlayheadPanel {
  public:
    CubePanel() : PlayheadPanel("step", Playhead(0, 0)) { rebuild(); }
    const char* title() const override { return "Cube"; }
    void draw(AppContext& ctx) override;
    nlohmann::json save_settings() const override {
        CubeSettings s = set_;
        s.step = play_.whole();
        s.rate = play_.speed;
        s.playing = play_.playing;
        return s.to_json();
    }
    nlohmann::json probe() const override {
        nlohmann::json j = {{"screen", probe_}};
        if (!int8_rect_.is_null()) j["int8_checkbox"] = int8_rect_;
        return j;
    }
    void load_settings(const nlohmann::json& j) override {
        CubeSettings s = set_;
        s.read(SceneReader(j, "Cube"));
        set_ = s;
        rebuild();
        play_.seek(double(s.step));
        play_.speed = s.rate;
        play_.playing = s.playing;
    }

  private:
    void rebuild();
    void controls();
    void loop_nest();
    void picture(ImVec2 size, bool dark);
    void draw_present(AppContext& ctx);

    CubeSettings set_;
    std::unique_ptr<exec::CubeRun> run_;
    exec::CubeValues values_;
    std::shared_ptr<Plan> plan_;
    int64_t plan_step_ = -1;
    float aspect_ = 1.4f;
    render::PlanGpu gpu_;
    render::PlanView view_;
    std::string error_;
    nlohmann::json probe_ = nlohmann::json::object();
    nlohmann::json int8_rect_;  // the int8 checkbox with its label, last frame (probe)
};

// ---- [model] ---------------------------------------------------------------------

void CubePanel::rebuild() {
    play_.set_range(0, double(set_.scene.steps()));
    play_.speed = set_.rate;
    play_.seek(0);
    play_.playing = false;
    run_ = std::make_unique<exec::CubeRun>(set_.scene);
    plan_step_ = -1;  // the picture follows on the next draw
    view_.request_fit(0, 0);
}

// ---- [draw] ----------------------------------------------------------------------

void CubePanel::controls() {
    bool ch = false;
    auto field = [&](const char* label, int64_t& v) {
        if (labelled_int(label, v, 90)) {
            v = std::clamp<int64_t>(v, 1, 4096);
            ch = true;
        }
    };
    exec::CubeScene& s = set_.scene;
    field(trn("M1 (A fractal rows)"), s.m1);
    ImGui::SameLine(0, 16);
    field("K1", s.k1);
    ImGui::SameLine(0, 16);
    field(trn("N1 (B fractal columns)"), s.n1);
    ImGui::SameLine(0, 16);
    bool int8 = s.dtype == DType::int8;
    // The checkbox starts a new line when its label does not fit (in Chinese
    // at 1024x768 x1.5 it was cut at the window's edge).
    compute::wrap_for(ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x +
                      ImGui::CalcTextSize(tr("int8 (16x32x16 per step)")).x);
    if (ImGui::Checkbox(tr_id("int8 (16x32x16 per step)"), &int8)) {
        s.dtype = int8 ? DType::int8 : DType::fp16;
        ch = true;
    }
    int8_rect_ = rect_json(ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    ImGui::SameLine(0, 16);
    compute::wrap_for(ImGui::CalcTextSize(tr("Case study (490 x 18 x 4)")).x + 20);
    if (ImGui::Button(tr_id("Case study (490 x 18 x 4)"))) {
        s = exec::cube_case_study();
        set_.rate = 2000;
        ch = true;
    }
    ImGui::SameLine();
    compute::wrap_for(ImGui::CalcTextSize(tr("Small example")).x + 20);
    if (ImGui::Button(tr_id("Small example"))) {
        s.m1 = 4;
        s.k1 = 3;
        s.n1 = 2;
        set_.rate = 4;
        ch = true;
    }
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
    if (compute::labelled_float(trn("steps/s"), r, 0.5f, 5000, "%.1f", 160))
        set_.rate = play_.speed = r;
}

void CubePanel::loop_nest() {
    const exec::CubeState st = exec::cube_state(set_.scene, play_.whole());
    const exec::CubeStep& s = st.current;
    ImGui::Text(tr("step %lld / %lld"), (long long)st.step, (long long)st.steps);
    ImGui::Text(tr("%lld MACs so far"), (long long)st.macs);
    ImGui::Text(tr("(%lldx%lldx%lld per step)"), (long long)st.shape.m0, (long long)st.shape.k0,
                (long long)st.shape.n0);
    ImGui::Separator();
    ImGui::TextUnformatted(tr("loop order K -> N -> M:"));
    // The running loop lines in the theme's accent (a fixed yellow was
    // unreadable on the light theme).
    const ImVec4 on = render::theme_colour(render::Role::accent);
    auto line = [&](const char* fmt, long long v, long long n) {
        if (!st.done)
            ImGui::TextColored(on, fmt, v, n);
        else
            ImGui::TextDisabled(fmt, v, n);
    };
    line(tr("for k = %lld  (of %lld)"), (long long)s.k, (long long)set_.scene.k1);
    line(tr("  for n = %lld  (of %lld)"), (long long)s.n, (long long)set_.scene.n1);
    line(tr("    for m = %lld  (of %lld)"), (long long)s.m, (long long)set_.scene.m1);
    if (!st.done) {
        ImGui::Text("      C[n%lld][m%lld] %s", (long long)s.n, (long long)s.m,
                    s.first_k ? "=" : "+=");
        // The product on two indented lines: on the projector one line ran
        // past the loop column, and wrapped it lost its indent.
        ImGui::Text("        A[m%lld][k%lld]", (long long)s.m, (long long)s.k);
        ImGui::Text("          x B[k%lld][n%lld]", (long long)s.k, (long long)s.n);
        ImGui::Separator();
        ImGui::TextWrapped(tr("A fractal %lld (ZZ), B fractal %lld (ZN) -> C fractal %lld (NZ), "
                              "%lld of %lld partial products summed after this step"),
                           (long long)s.a, (long long)s.b, (long long)s.c, (long long)(s.k + 1),
                           (long long)set_.scene.k1);
    } else {
        ImGui::TextWrapped("%s",
                           tr("done: every C fractal holds the sum over all K1 fractal products"));
    }
    values_ = run_->values(st.step);
    if (values_.c_fractal >= 0) {
        ImGui::Separator();
        ImGui::TextWrapped(tr("real values (small integers in A and B), C[n%lld][m%lld] row 0:"),
                           (long long)s.n, (long long)s.m);
        auto row = [&](const char* what, const std::vector<double>& v) {
            std::string t;
            for (size_t i = 0; i < 6 && i < v.size(); ++i)
                t += std::to_string(std::lround(v[i])) + " ";
            ImGui::Text("%-7s %s...", what, t.c_str());
        };
        row(tr("before"), values_.before);
        row(tr("after"), values_.after);
    }
    ImGui::Separator();
    const exec::CubeLayout l = exec::cube_layout(set_.scene, aspect_);
    ImGui::TextWrapped(tr("Picture: one cell = 16x16 elements%s. A blue, B green, C red: brighter "
                          "= more k summed."),
                       l.fw > 1 ? tr("; an int8 A fractal (16x32) is 2 cells across, a B fractal "
                                     "(32x16) 2 cells down")
                                : tr(" = one fp16 fractal"));
    if (l.strips > 1)
        ImGui::TextWrapped(tr("M folded into %lld columns of %lld rows (each an A | C pair)."),
                           (long long)l.strips, (long long)l.rows);
    ImGui::TextDisabled("%s", tr("space play/pause, left/right step, Home/End"));
    ImGui::TextWrapped("%s",
                       tr("K outermost: B[k][n] stays in L0B while m sweeps A's column k; each C "
                          "fractal is revisited once per k and stays in L0C until k ends."));
}

// The plan of the current step, rebuilt when the step or the view's shape changes.
void CubePanel::picture(ImVec2 size, bool dark) {
    const float aspect = std::round(size.x / std::max(1.0f, size.y) * 5) / 5;
    const int64_t step = play_.whole();
    if (!plan_ || step != plan_step_ || aspect != aspect_) {
        if (aspect != aspect_) view_.request_fit(0, 0);
        aspect_ = aspect;
        try {
            plan_ = std::make_shared<Plan>(exec::cube_plan(set_.scene, step, aspect_));
            gpu_.set_plan(plan_, ColourMode::value);
            error_.clear();
        } catch (const UsageError& e) {
            plan_.reset();
            error_ = e.what();
        }
        plan_step_ = step;
    }
    probe_ = nlohmann::json::object();
    if (!plan_) {
        ImGui::TextColored(compute::err_colour(), "%s", tr_text(error_).c_str());
        return;
    }
    render::ViewStyle vs;
    vs.dark = dark;
    vs.show_numbers = false;  // cells stand for whole 16x16 blocks
    view_.draw(gpu_, 0, size, vs);
    // The probe: where the matrices and the current step's boxes landed.
    const exec::CubeScene& sc = set_.scene;
    const exec::CubeLayout l = exec::cube_layout(sc, aspect_);
    auto rect = [&](float x, float y, float w, float h) {
        return rect_json(view_.to_screen(x, y), view_.to_screen(x + w, y + h));
    };
    const float k1w = float(sc.k1 * l.fw), n1 = float(sc.n1),
                rows0 = float(std::min(l.rows, sc.m1));
    probe_["cell"] = view_.camera().zoom;
    const ImVec2 vo = view_.origin(), vs_size = view_.canvas_size();
    probe_["canvas"] = {vo.x, vo.y, vs_size.x, vs_size.y};
    probe_["labels"] = render::labels_json(view_.drawn_labels());
    probe_["strips"] = l.strips;
    probe_["a"] = rect(l.a_x(0), l.row_y(0), k1w, rows0);
    probe_["b"] = rect(l.b_x(sc.k1), l.b_y(), n1, k1w);
    probe_["c"] = rect(l.c_x(0, sc.k1), l.row_y(0), n1, rows0);
    const exec::CubeState st = exec::cube_state(sc, step);
    probe_["step"] = st.step;
    probe_["steps"] = st.steps;
    if (!st.done) {
        const exec::CubeStep& s = st.current;
        probe_["a_row"] = rect(l.a_x(s.m), l.row_y(s.m), k1w, 1);
        probe_["a_fractal"] = rect(l.a_x(s.m) + float(s.k * l.fw), l.row_y(s.m), float(l.fw), 1);
        probe_["b_column"] = rect(l.b_x(sc.k1) + float(s.n), l.b_y(), 1, k1w);
        probe_["b_fractal"] =
            rect(l.b_x(sc.k1) + float(s.n), l.b_y() + float(s.k * l.fw), 1, float(l.fw));
        probe_["c_fractal"] = rect(l.c_x(s.m, sc.k1) + float(s.n), l.row_y(s.m), 1, 1);
    }
    if (values_.c_fractal >= 0)
        probe_["values"] = {
            {"c_fractal", values_.c_fractal}, {"before", values_.before}, {"after", values_.after}};
}

// Presentation mode: the three matrices alone fill the slide; the caption
// says which fractals the current step multiplies.
void CubePanel::draw_present(AppContext& ctx) {
    picture(ImGui::GetContentRegionAvail(), ctx.dark_theme);
    const exec::CubeState st = exec::cube_state(set_.scene, play_.whole());
    char buf[160];
    std::snprintf(buf, sizeof buf, "Cube step %lld of %lld", (long long)st.step,
                  (long long)st.steps);
    ctx.caption.title = buf;
    if (st.done) {
        std::snprintf(buf, sizeof buf, "done: %lld multiply-accumulates", (long long)st.macs);
    } else {
        const exec::CubeStep& c = st.current;
        std::snprintf(buf, sizeof buf, "C[m=%lld][n=%lld] %s A[m=%lld][k=%lld] x B[k=%lld][n=%lld]",
                      (long long)c.m, (long long)c.n, c.first_k ? "=" : "+=", (long long)c.m,
                      (long long)c.k, (long long)c.k, (long long)c.n);
    }
    ctx.caption.formula = buf;
}

void CubePanel::draw(AppContext& ctx) {
    // space play/pause, left/right one step, Home/End first/last step.
    apply_keys(play_, ctx.keys);
    if (ctx.present) {
        draw_present(ctx);
        return;
    }
    controls();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float side = std::min(360.0f * ctx.ui_scale, avail.x * 0.3f);
    ImGui::BeginChild("loops", ImVec2(side, avail.y), true);
    loop_nest();
    ImGui::EndChild();
    ImGui::SameLine();
    const ImVec2 rest = ImGui::GetContentRegionAvail();
    picture(ImVec2(rest.x, std::max(120.0f, rest.y - 4)), ctx.dark_theme);
}

}  // namespace

std::unique_ptr<Panel> make_cube_panel() {
    return std::make_unique<CubePanel>();
}

}  // namespace ll::gui
