// The convolution pipeline overview: the lecture's case study (or any
// geometry) as a data-flow diagram of the AI Core's buffers (GM -> A1/B1 ->
// A2/B2 -> Cube -> CO1 -> GM), each with how much of it the whole problem
// would occupy (so the need for tiling is visible), every stage's shape, the
// feature map travelling NCHW -> NC1HWC0 -> img2col -> A fractals, and the
// case study run on real numbers against a direct convolution.
//
// Core builds everything drawn here: the stage shapes (conv_shapes), the
// buffers' capacities and occupancy (conv_buffers.hpp) and the feature map's
// Plan (conv_a_plan, drawn by the cell renderer). The panel keeps its
// settings, the playhead and the last real run.
//
// Sections: [settings] scene file in/out, [model] rebuild and the real run,
// [draw] controls, stage table, buffer diagram, feature-map animation.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "app/i18n/tr.hpp"
#include "app/i18n/tr_text.hpp"
#include "app/panels/compact.hpp"
#include "app/panels/compute_widgets.hpp"
#include "app/panels/panel.hpp"
#include "app/panels/playhead_panel.hpp"
#include "app/panels/present.hpp"
#include "app/render/plan_view.hpp"
#include "core/error.hpp"
#include "core/exec/conv.hpp"
#include "core/exec/conv_buffers.hpp"
#include "core/exec/conv_check.hpp"
#include "core/exec/plans.hpp"

namespace ll::gui {

namespace {

using compute::labelled_int;
using compute::rect_json;

// What a scene file holds (save_settings / load_settings).
struct ConvSettings {
    exec::ConvParams p;
    double stage = 0;  // feature map: 0 NCHW, 1 NC1HWC0, 2 img2col, 3 A fractals
    bool playing = false;
    int64_t select = -1;  // the feature map's pinned cell (-1 none), followed across stages

    ConvSettings() {
        p.n = 1;
        p.cin = 3;
        p.cout = 4;
        p.h = p.w = 6;
    }
    nlohmann::json to_json() const {
        return {{"n", p.n},
                {"cin", p.cin},
                {"cout", p.cout},
                {"h", p.h},
                {"w", p.w},
                {"kh", p.win.kh},
                {"kw", p.win.kw},
                {"stride", p.win.stride_h},
                {"dilation", p.win.dil_h},
                {"pad", p.win.pad_top},
                {"dtype", name(p.dtype)},
                {"stage", stage},
                {"playing", playing},
                {"select", select}};
    }
    // Keys absent from the file keep their values; `run` asks for a real run.
    void read(const SceneReader& r, bool& run) {
        // "shapes", "cube_ops" and "result" were written by older versions; ignored.
        r.only({"n", "cin", "cout", "h", "w", "kh", "kw", "stride", "dilation", "pad", "dtype",
                "stage", "playing", "case_study", "run", "shapes", "cube_ops", "result", "select"});
        bool cs = false;
        r.get("case_study", cs);
        if (cs) p = exec::conv_case_study();
        r.get("n", p.n, 1, 64);
        r.get("cin", p.cin, 1, 4096);
        r.get("cout", p.cout, 1, 4096);
        r.get("h", p.h, 1, 4096);
        r.get("w", p.w, 1, 4096);
        r.get("kh", p.win.kh, 1, 15);
        r.get("kw", p.win.kw, 1, 15);
        r.get("stride", p.win.stride_h, 1, 16);
        r.get("dilation", p.win.dil_h, 1, 16);
        r.get("pad", p.win.pad_top, 0, 16);
        square_window(p);
        std::string d = name(p.dtype);
        r.get_choice("dtype", d, {"fp16", "int8"});
        p.dtype = d == "int8" ? DType::int8 : DType::fp16;
        try {
            p.validate();
        } catch (const UsageError& e) {
            r.rethrow(e);
        }
        r.get("stage", stage, 0.0, 3.0);
        r.get("playing", playing);
        r.get("select", select, int64_t(-1), int64_t(1) << 40);
        r.get("run", run);
    }
    // The panel edits one stride, dilation and pad for both directions.
    static void square_window(exec::ConvParams& q) {
        q.win.stride_w = q.win.stride_h;
        q.win.dil_w = q.win.dil_h;
        q.win.pad_bottom = q.win.pad_left = q.win.pad_right = q.win.pad_top;
    }
};

class ConvPanel : public PlayheadPanel {
  public:
    ConvPanel() : PlayheadPanel("stage", Playhead(0, 3)) {
        play_.speed = 1.0;
        rebuild();
    }
    const char* title() const override { return "Conv pipeline"; }
    void draw(AppContext& ctx) override;
    nlohmann::json save_settings() const override;
    nlohmann::json probe() const override;
    void load_settings(const nlohmann::json& j) override;

  private:
    void rebuild();
    void run_case();
    void controls();
    void stage_table();
    void buffer_diagram(ImVec2 size, bool dark);
    void feature_map(ImVec2 size, bool dark);
    void draw_present(AppContext& ctx);
    // Follow one element (issue 13): a click on the feature map pins a cell
    // (a click on none unpins); the view marks it at every stage.
    render::ViewStyle pin_style(bool dark) const;
    void take_click();
    void probe_pin();

    ConvSettings set_;
    exec::ConvShapes shapes_;
    int64_t lecture_mults_ = 0;  // document 004's multiplication count
    std::vector<exec::BufferUse> buffers_;
    std::shared_ptr<Plan> plan_;
    render::PlanGpu gpu_;
    render::PlanView view_;
    std::string error_, error_key_, run_msg_;
    nlohmann::json run_ = nullptr;                     // the last real run
    nlohmann::json probe_ = nlohmann::json::object();  // --dump-view: what the last frame drew
};

// ---- [settings] ----------------------------------------------------------------

nlohmann::json ConvPanel::save_settings() const {
    ConvSettings s = set_;
    s.stage = play_.target;
    s.playing = play_.playing;
    return s.to_json();
}

nlohmann::json ConvPanel::probe() const {
    nlohmann::json screen = probe_;
    nlohmann::json shapes = nlohmann::json::object();
    for (const auto& st : shapes_.stages) shapes[st.key] = st.shape;
    screen["shapes"] = shapes;
    screen["cube_ops"] = shapes_.cube_ops;
    screen["result"] = run_;
    screen["occupancy"] = exec::occupancy_json(buffers_);
    return {{"screen", screen}};
}

void ConvPanel::load_settings(const nlohmann::json& j) {
    ConvSettings s = set_;
    bool run = false;
    const SceneReader r(j, "conv");
    s.read(r, run);
    set_ = s;
    rebuild();
    if (!error_.empty()) throw UsageError("conv scene: " + error_);
    play_.seek(s.stage);
    play_.playing = s.playing;
    if (run) run_case();
}

// ---- [model] -------------------------------------------------------------------

void ConvPanel::rebuild() {
    try {
        shapes_ = exec::conv_shapes(set_.p);
        lecture_mults_ = exec::lecture_multiplications(set_.p);
        buffers_ = exec::conv_occupancy(set_.p, shapes_);
        if (numel(shapes_.at("a_fractal")) > (int64_t(1) << 22)) {
            plan_.reset();  // too many cells to animate; the table still shows
        } else {
            plan_ = std::make_shared<Plan>(exec::conv_a_plan(set_.p));
            gpu_.set_plan(plan_, ColourMode::channel);
            view_.set_follow(true);
            view_.request_fit(0, -1);
        }
        error_.clear();
        error_key_.clear();
    } catch (const UsageError& e) {
        error_ = e.what();
        error_key_ = e.key();
    }
    run_msg_.clear();
    run_ = nullptr;
}

void ConvPanel::run_case() {
    try {
        const exec::ConvCheck c = exec::conv_check(set_.p);
        const bool int8 = set_.p.dtype == DType::int8;
        char buf[256];
        std::snprintf(buf, sizeof buf,
                      "ran on random %s data: pipeline %.1f ms, direct convolution %.1f ms, "
                      "max |difference| %.2g%s, %lld Cube steps",
                      name(set_.p.dtype), c.pipeline_s * 1e3, c.direct_s * 1e3, c.max_abs_diff,
                      int8 ? " (int32, exact)" : "", (long long)c.cube_ops);
        run_msg_ = buf;
        run_ = {{"dtype", name(set_.p.dtype)},
                {"pipeline_ms", c.pipeline_s * 1e3},
                {"direct_ms", c.direct_s * 1e3},
                {"max_abs_diff", c.max_abs_diff},
                {"cube_ops", c.cube_ops}};
    } catch (const UsageError& e) {
        run_msg_ = e.what();
        run_ = {{"error", e.what()}};
    }
}

// ---- [draw] --------------------------------------------------------------------

void ConvPanel::controls() {
    exec::ConvParams& p = set_.p;
    bool ch = false;
    // `key`: the engine's name for the field (UsageError::key()); its field
    // is framed in red while the engine rejects the value.
    auto field = [&](const char* label, int64_t& v, const char* key = nullptr) {
        if (labelled_int(label, v, 80, !error_key_.empty() && error_key_ == (key ? key : label)))
            ch = true;
    };
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(tr("input"));
    ImGui::SameLine();
    field("N", p.n);
    ImGui::SameLine();
    field("Cin", p.cin);
    ImGui::SameLine();
    field("H", p.h);
    ImGui::SameLine();
    field("W", p.w);
    ImGui::SameLine(0, 20);
    ImGui::TextUnformatted(tr("weights"));
    ImGui::SameLine();
    field(trn("Cout"), p.cout);
    ImGui::SameLine();
    field("Kh", p.win.kh, "kernel height");
    ImGui::SameLine();
    field("Kw", p.win.kw, "kernel width");
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(tr("window"));
    ImGui::SameLine();
    field(trn("stride"), p.win.stride_h, "stride_h");
    ImGui::SameLine();
    field(trn("dilation"), p.win.dil_h, "dilation_h");
    ImGui::SameLine();
    field(trn("pad"), p.win.pad_top, "pad_top");
    ConvSettings::square_window(p);
    ImGui::SameLine(0, 20);
    bool int8 = p.dtype == DType::int8;
    if (ImGui::Checkbox(tr_id("int8 (else fp16)"), &int8)) {
        p.dtype = int8 ? DType::int8 : DType::fp16;
        ch = true;
    }
    ImGui::SameLine(0, 20);
    compute::wrap_for(ImGui::CalcTextSize(tr("Case study (N10 Cin32 Cout64 28x28 3x3)")).x + 20);
    if (ImGui::Button(tr_id("Case study (N10 Cin32 Cout64 28x28 3x3)"))) {
        p = exec::conv_case_study();
        ch = true;
    }
    ImGui::SameLine();
    compute::wrap_for(ImGui::CalcTextSize(tr("Small example")).x + 20);
    if (ImGui::Button(tr_id("Small example"))) {
        p = ConvSettings().p;
        ch = true;
    }
    if (ch) rebuild();
}

void ConvPanel::stage_table() {
    // The shape column is as wide as its widest shape; the stage names wrap
    // in what is left (a projector's narrow column cut them: "input NC1HWC(").
    float shape_w = ImGui::CalcTextSize(tr("shape")).x;
    for (const auto& s : shapes_.stages)
        shape_w = std::max(shape_w, ImGui::CalcTextSize(to_string(s.shape).c_str()).x);
    if (ImGui::BeginTable("pipeline", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
        ImGui::TableSetupColumn(tr("stage"), ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableSetupColumn(tr("shape"), ImGuiTableColumnFlags_WidthFixed, shape_w);
        ImGui::TableHeadersRow();
        for (const auto& s : shapes_.stages) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::PushTextWrapPos(0.f);
            ImGui::TextUnformatted(tr_text(s.title).c_str());
            ImGui::PopTextWrapPos();
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr_text(s.note).c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(to_string(s.shape).c_str());
        }
        ImGui::EndTable();
    }
    ImGui::TextWrapped(tr("Cube loop K -> N -> M: K1 %lld x N1 %lld x M1 %lld = %lld fractal "
                          "multiplications"),
                       (long long)shapes_.k1, (long long)shapes_.n1, (long long)shapes_.m1,
                       (long long)shapes_.cube_ops);
    ImGui::TextWrapped(
        tr("Multiplications (document 004): Kh x Kw x Ho x Wo x Cin x Cout x N = %lld"),
        (long long)lecture_mults_);
}

// GM -> A1 -> A2 -> Cube -> CO1 -> GM, and B1 -> B2 -> Cube; each buffer box
// filled to the share of it the whole problem would need (red when over).
void ConvPanel::buffer_diagram(ImVec2 size, bool dark) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const ImU32 text = dark ? IM_COL32(225, 225, 230, 255) : IM_COL32(25, 25, 35, 255);
    const ImU32 edge = dark ? IM_COL32(150, 150, 165, 255) : IM_COL32(110, 110, 125, 255);
    const ImU32 ok = IM_COL32(70, 170, 110, 255), over = IM_COL32(215, 75, 65, 255);
    const float lh = ImGui::GetTextLineHeight();
    const float bw = std::clamp((size.x - 5 * 30) / 6, 70.0f, 150.0f);
    // The diagram's boxes: grid place, title, contents, buffer filled.
    struct Box {
        int col, row;
        const char *title, *sub;
        int cap;  // index of its buffer in buffers_ (A1 B1 A2 B2 CO1), -1 none
    };
    static const Box kBoxes[] = {
        {0, 0, "GM", trn("input NCHW"), -1},          {1, 0, "A1 (L1)", "NC1HWC0", 0},
        {2, 0, "A2 (L0A)", trn("A fractals ZZ"), 2},  {3, 0, "Cube", "Mmad K>N>M", -1},
        {4, 0, "CO1 (L0C)", trn("C fractals NZ"), 4}, {5, 0, "GM", trn("output NCHW"), -1},
        {0, 1, "GM", trn("weights OIHW"), -1},        {1, 1, "B1 (L1)", "FRACTAL_Z", 1},
        {2, 1, "B2 (L0B)", trn("B fractals ZN"), 3}};
    // A narrow window wraps a box's second line at its space ("input" /
    // "NCHW") and makes every box one line taller, instead of cutting it.
    bool wrap = false;
    for (const Box& b : kBoxes) wrap |= ImGui::CalcTextSize(tr(b.sub)).x > bw - 10;
    const float bh = (wrap ? 4 : 3) * lh + 12;
    const float gx = std::max(12.0f, (size.x - 6 * bw) / 5), row2 = bh + 22;
    auto at = [&](int col, int row) {
        return ImVec2(o.x + float(col) * (bw + gx), o.y + float(row) * row2);
    };
    nlohmann::json boxes = nlohmann::json::object();
    auto arrow = [&](ImVec2 a, ImVec2 b, const char* label) {
        dl->AddLine(a, b, edge, 2);
        const float dx = b.x - a.x, dy = b.y - a.y, len = std::sqrt(dx * dx + dy * dy);
        const ImVec2 u(dx / len, dy / len), nrm(-u.y, u.x);
        dl->AddTriangleFilled(b, ImVec2(b.x - u.x * 8 + nrm.x * 4, b.y - u.y * 8 + nrm.y * 4),
                              ImVec2(b.x - u.x * 8 - nrm.x * 4, b.y - u.y * 8 - nrm.y * 4), edge);
        const float tw = label ? ImGui::CalcTextSize(label).x : 0;
        if (label && tw < std::fabs(b.x - a.x) - 4)
            dl->AddText(ImVec2((a.x + b.x - tw) / 2, (a.y + b.y) / 2 + 3), text, label);
    };
    auto box = [&](int col, int row, const char* title, const char* sub, int cap) {
        const ImVec2 a = at(col, row), b(a.x + bw, a.y + bh);
        if (cap >= 0) {
            const exec::BufferUse& u = buffers_[size_t(cap)];
            const double frac = u.occupancy();
            const float f = float(std::min(1.0, frac));
            dl->AddRectFilled(ImVec2(a.x, b.y - (bh - 2) * f), b, frac > 1 ? over : ok);
            char line[64];
            std::snprintf(line, sizeof line, "%.0f%%%s", frac * 100,
                          frac > 1 ? tr(" tile it") : "");
            const ImVec4 clip(a.x, a.y, b.x - 3, b.y);
            dl->AddText(nullptr, 0, ImVec2(a.x + 6, a.y + 4 + (wrap ? 3 : 2) * lh), text, line,
                        nullptr, 0, &clip);
            boxes[u.name + " (" + u.level + ")"] = {{"rect", rect_json(a, b)}, {"occupancy", frac}};
        }
        dl->AddRect(a, b, edge, 4, 0, 2);
        const ImVec4 clip(a.x, a.y, b.x - 3, b.y);  // narrow boxes cut their text
        dl->AddText(nullptr, 0, ImVec2(a.x + 6, a.y + 4), text, title, nullptr, 0, &clip);
        const char* cut = wrap ? std::strrchr(sub, ' ') : nullptr;
        if (cut && ImGui::CalcTextSize(sub).x > bw - 10) {
            dl->AddText(nullptr, 0, ImVec2(a.x + 6, a.y + 4 + lh), text, sub, cut, 0, &clip);
            dl->AddText(nullptr, 0, ImVec2(a.x + 6, a.y + 4 + 2 * lh), text, cut + 1, nullptr, 0,
                        &clip);
        } else {
            dl->AddText(nullptr, 0, ImVec2(a.x + 6, a.y + 4 + lh), text, sub, nullptr, 0, &clip);
        }
    };
    for (const Box& b : kBoxes) box(b.col, b.row, b.title, tr(b.sub), b.cap);
    const float my = bh / 2;
    for (int c = 0; c < 5; ++c) {
        static const char* kLabels[] = {"5HD", "Load3D", "", "", "unpad"};
        arrow(ImVec2(at(c, 0).x + bw, at(c, 0).y + my), ImVec2(at(c + 1, 0).x, at(c + 1, 0).y + my),
              kLabels[c]);
    }
    arrow(ImVec2(at(0, 1).x + bw, at(0, 1).y + my), ImVec2(at(1, 1).x, at(1, 1).y + my), "FZ");
    arrow(ImVec2(at(1, 1).x + bw, at(1, 1).y + my), ImVec2(at(2, 1).x, at(2, 1).y + my), "Load2D");
    arrow(ImVec2(at(2, 1).x + bw, at(2, 1).y + my), ImVec2(at(3, 0).x + bw / 2, at(3, 0).y + bh),
          nullptr);
    dl->AddText(ImVec2(at(3, 1).x, at(3, 1).y + 4), text, tr("fill = share of the buffer the"));
    dl->AddText(ImVec2(at(3, 1).x, at(3, 1).y + 4 + lh), text, tr("whole problem needs at once"));
    probe_["buffers"] = boxes;
    ImGui::Dummy(ImVec2(size.x, 2 * row2));
}

// The feature map travelling NCHW -> NC1HWC0 -> img2col -> A fractals, as
// core's Plan; the line above the picture names the stage and its axes.
void ConvPanel::feature_map(ImVec2 size, bool dark) {
    if (ImGui::Button(play_.playing ? tr_id("Pause") : tr_id("Play"))) play_.toggle();
    ImGui::SameLine();
    const char* names[] = {"NCHW %.2f", "NC1HWC0 %.2f", "img2col %.2f", trn("A fractals %.2f")};
    const float top = ImGui::GetCursorScreenPos().y;
    float t = float(play_.target);
    if (compute::labelled_float(trn("feature map"), t, 0, 3,
                                tr(names[std::clamp(int(t + 0.5f), 0, 3)]), 220)) {
        play_.playing = false;
        play_.go(t);
    }
    const size_t k = size_t(std::clamp<long long>(std::llround(play_.value), 0, 3));
    const Stage& st = plan_->stages[k];
    std::string axes;
    for (const std::string& a : st.axes) axes += (axes.empty() ? "" : ", ") + a;
    ImGui::TextWrapped(tr("%s %s, axes (%s): %s"), tr_text(st.label).c_str(),
                       to_string(st.shape).c_str(), axes.c_str(), tr_text(st.formula).c_str());
    render::ViewStyle vs = pin_style(dark);
    // What the slider and the (possibly wrapped) line above took.
    const float used = ImGui::GetCursorScreenPos().y - top;
    const ImVec2 vsize(size.x, std::max(120.0f, size.y - used - 4));
    view_.draw(gpu_, float(play_.value), vsize, vs);
    take_click();
    const ImVec2 o = view_.origin();
    probe_["feature_map"] = {{"stage", k},
                             {"origin", {o.x, o.y}},
                             {"size", {vsize.x, vsize.y}},
                             {"zoom", view_.camera().zoom},
                             {"lod", view_.lod_active()},
                             {"labels", render::labels_json(view_.drawn_labels())},
                             {"numbers", view_.drawn_numbers()}};
    probe_pin();
}

render::ViewStyle ConvPanel::pin_style(bool dark) const {
    render::ViewStyle vs;
    vs.dark = dark;
    const int64_t cells = plan_ ? plan_->cell_count : 0;
    vs.pinned = set_.select < cells ? set_.select : -1;
    vs.highlight = view_.hovered() >= 0 ? view_.hovered() : vs.pinned;
    vs.show_path = vs.pinned >= 0;
    return vs;
}

void ConvPanel::take_click() {
    if (view_.clicked()) set_.select = view_.hovered();
}

// --dump-view: the pinned cell and where the view marked it (screen pixels).
void ConvPanel::probe_pin() {
    const ImVec2 m = view_.pin_screen();
    probe_["feature_map"]["pinned"] = set_.select;
    probe_["feature_map"]["camera"] = {view_.camera().pan_x, view_.camera().pan_y};
    if (!std::isnan(m.x)) probe_["feature_map"]["marker"] = {m.x, m.y};
    const ImVec4 g = view_.ghost_label();
    if (!std::isnan(g.x)) probe_["feature_map"]["ghost_label"] = {g.x, g.y, g.z, g.w};
}

// Presentation mode: the feature map's journey alone fills the slide.
void ConvPanel::draw_present(AppContext& ctx) {
    if (!error_.empty() || !plan_) {
        ImGui::TextWrapped("%s", !error_.empty()
                                     ? tr_text(error_).c_str()
                                     : tr("The feature-map animation is off above 4M cells; "
                                          "leave presentation mode (F5)."));
        return;
    }
    caption_from_stage(ctx, *plan_, play_.value, "feature map   ");
    view_.draw(gpu_, float(play_.value), ImGui::GetContentRegionAvail(), pin_style(ctx.dark_theme));
    take_click();
}

void ConvPanel::draw(AppContext& ctx) {
    // space play/pause, left/right one feature-map stage, Home/End first/last.
    apply_keys(play_, ctx.keys);
    if (ctx.present) {
        draw_present(ctx);
        return;
    }
    // On a short window (a projector) the geometry fields and the run button
    // fold under a header that names the geometry, and the buffer diagram
    // under another, so the feature map keeps most of the height.
    const bool compact = compact_layout();
    const exec::ConvParams& cp = set_.p;
    char summary[192];
    std::snprintf(
        summary, sizeof summary,
        tr("input N%lld Cin%lld %lldx%lld, Cout%lld %lldx%lld, stride %lld, pad %lld, %s"),
        (long long)cp.n, (long long)cp.cin, (long long)cp.h, (long long)cp.w, (long long)cp.cout,
        (long long)cp.win.kh, (long long)cp.win.kw, (long long)cp.win.stride_h,
        (long long)cp.win.pad_top, cp.dtype == DType::int8 ? "int8" : "fp16");
    const bool open = !compact || !error_.empty() || compact_header(summary, "conv_geometry");
    if (open) controls();
    probe_ = nlohmann::json::object();
    if (!error_.empty()) {
        ImGui::TextColored(compute::err_colour(), "%s", tr_text(error_).c_str());
        return;
    }
    if (open) {
        if (ImGui::Button(tr_id("Run on real numbers"))) run_case();
        ImGui::SameLine();
        ImGui::TextWrapped("%s", run_msg_.empty()
                                     ? tr("(runs the pipeline on random data and compares "
                                          "it with a direct convolution)")
                                     : run_msg_.c_str());
    }

    const ImVec2 avail = ImGui::GetContentRegionAvail();
    // The stage column takes a third of the width, more (up to 45%) when its
    // table's longest row needs it.
    float table_w = 0;
    for (const auto& s : shapes_.stages)
        table_w = std::max(table_w, ImGui::CalcTextSize(tr_text(s.title).c_str()).x +
                                        ImGui::CalcTextSize(to_string(s.shape).c_str()).x);
    table_w += 4 * ImGui::GetStyle().CellPadding.x + 2 * ImGui::GetStyle().WindowPadding.x +
               ImGui::GetStyle().ScrollbarSize + 2;
    const float stages_w = std::clamp(table_w, avail.x * 0.34f, avail.x * 0.45f);
    ImGui::BeginChild("stages", ImVec2(stages_w, avail.y), true);
    stage_table();
    ImGui::Separator();
    ImGui::TextWrapped("%s", tr("buffer occupancy (whole problem at once):"));
    for (const exec::BufferUse& u : buffers_) {
        char label[96];
        std::snprintf(label, sizeof label, "%s / %s%s", exec::human_bytes(double(u.need)).c_str(),
                      exec::human_bytes(double(u.capacity)).c_str(),
                      u.must_tile() ? tr("  -> tile it") : "");
        const std::string title = u.name + " (" + u.level + ")";
        ImGui::Text("%-10s %s", title.c_str(), tr_text(u.holds).c_str());
        ImGui::ProgressBar(float(std::min(1.0, u.occupancy())), ImVec2(-1, 0), label);
    }
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginGroup();
    if (!compact || compact_header(tr("buffers GM -> L1 -> L0 -> Cube"), "conv_buffers")) {
        buffer_diagram(ImVec2(ImGui::GetContentRegionAvail().x, 0), ctx.dark_theme);
        ImGui::Separator();
    }
    if (!plan_)
        ImGui::TextWrapped("%s",
                           tr("The feature-map animation is off above 4M cells; use a smaller "
                              "geometry to watch the elements move."));
    else
        feature_map(ImGui::GetContentRegionAvail(), ctx.dark_theme);
    ImGui::EndGroup();
}

}  // namespace

std::unique_ptr<Panel> make_conv_panel() {
    return std::make_unique<ConvPanel>();
}

}  // namespace ll::gui
