// The LoadData scene: fractals travel from L1 (A1/B1) or GM to L0 (A2/B2).
// Every parameter of Load2D v1, Load2Dv2 and Load3D is editable (label before
// the field, the document's name for it); the plan is rebuilt on each edit so
// its effect (start, stride, gap, transpose, decrement, steps, img2col
// windows) is visible at once, and the address formula with the current
// numbers is printed above the picture. A bad value frames its field in red
// and shows the engine's own "<parameter> ...; expected <range>" message
// inline, while the last valid load stays on screen.
//
// Sections: [settings] scene file in/out, [model] rebuild, [draw] controls,
// the formula line, the picture and the list of moves.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "app/i18n/tr.hpp"
#include "app/i18n/tr_text.hpp"
#include "app/panels/compact.hpp"
#include "app/panels/compute_widgets.hpp"
#include "app/panels/loaddata_settings.hpp"
#include "app/panels/panel.hpp"
#include "app/panels/playhead_panel.hpp"
#include "app/render/plan_view.hpp"
#include "core/error.hpp"
#include "core/exec/load2d.hpp"
#include "core/exec/load3d.hpp"
#include "core/exec/plans.hpp"
#include "core/exec/product.hpp"

namespace ll::gui {

namespace {

using compute::labelled_int;
const char* kModes[] = {"Load2D (v1)", "Load2Dv2", "Load3D (img2col)"};
const auto& kModeKeys = LoadDataSettings::kModeKeys;
const auto& kPaths = LoadDataSettings::kPaths;

// "A2" -> "A2 (L0A)": the buffer and the memory it lives in.
std::string level(const std::string& b) {
    static const char* const kLevels[][2] = {{"A1", "L1"},  {"B1", "L1"},  {"A2", "L0A"},
                                             {"B2", "L0B"}, {"GM", "HBM"}, {"CO1", "L0C"}};
    for (const auto& l : kLevels)
        if (b == l[0]) return b + " (" + l[1] + ")";
    return b;
}

class LoadDataPanel : public PlayheadPanel {
  public:
    LoadDataPanel() : PlayheadPanel("stage", Playhead(0, 1)), set_(LoadDataSettings::initial()) {
        rebuild();
        play_.seek(1);  // source and destination side by side from the first frame
    }
    const char* title() const override { return "LoadData"; }
    void draw(AppContext& ctx) override;
    void draw_present(AppContext& ctx);
    nlohmann::json save_settings() const override;
    nlohmann::json probe() const override;
    void load_settings(const nlohmann::json& j) override;

  private:
    void rebuild();
    void controls();
    void formula_line();
    // `param`: the engine's name for the field when the label differs.
    bool field(const char* label, int64_t& v, const char* param = nullptr) {
        const bool ch = labelled_int(label, v, 90,
                                     !error_key_.empty() && error_key_ == (param ? param : label));
        fields_[label] = compute::rect_json(ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
        return ch;
    }

    // The instruction, product, dtype, path and each instruction's
    // parameters, as edited (stage and playing live in play_).
    LoadDataSettings set_;
    exec::LoadResult result_;  // of the last valid load (drawn)
    int shown_mode_ = 0;
    std::shared_ptr<Plan> plan_;
    render::PlanGpu gpu_;
    render::PlanView view_;
    // Source and destination side by side: src_view_ rests on the source
    // buffer (stage 0) while view_ moves the cells into the destination.
    render::PlanView src_view_;
    void draw_views(AppContext& ctx, float w, float h);
    // Width / height of the source and destination views the plan's memory
    // bands were fitted to (0 before the first draw); a view that drifts
    // from it rebuilds the plan (draw_views).
    float fit_[2] = {0, 0};
    std::string error_, error_key_;  // the engine's message and its parameter
    nlohmann::json screen_ = nlohmann::json::object();
    nlohmann::json fields_ = nlohmann::json::object();  // input rectangles by label
};

// ---- [settings] ----------------------------------------------------------------

nlohmann::json LoadDataPanel::save_settings() const {
    LoadDataSettings s = set_;
    s.stage = play_.target;
    s.playing = play_.playing;
    return s.to_json();
}

nlohmann::json LoadDataPanel::probe() const {
    return {{"moves", int64_t(result_.fractals.size())},
            {"error", error_},
            {"screen", screen_},
            {"fields", fields_}};
}

void LoadDataPanel::load_settings(const nlohmann::json& j) {
    LoadDataSettings s = set_;
    s.stage = play_.target;
    s.read(SceneReader(j, "LoadData"));
    set_ = s;
    rebuild();
    // A scene holds a load that runs: the engine's message names the parameter.
    if (!error_.empty()) {
        const std::string msg =
            std::string("LoadData scene (") + kModeKeys[set_.mode] + "): " + error_;
        if (error_key_.empty()) throw UsageError(msg);
        throw UsageError(error_key_, msg, msg);
    }
    play_.seek(s.stage);
    play_.playing = s.playing;
}

// ---- [model] -------------------------------------------------------------------

void LoadDataPanel::rebuild() {
    try {
        DType t = dtype_from_name(set_.dtype);
        exec::Path p = exec::parse_path(kPaths[set_.path], exec::Op::load2d);
        int64_t src_elems = 0;
        std::string title;
        exec::LoadResult r;
        if (set_.mode == 0) {
            set_.v1.dtype = t;
            set_.v1.product = set_.product;
            set_.v1.src = p.src;
            set_.v1.dst = p.dst;
            r = exec::load2d(set_.v1);
            src_elems = set_.v1.src_fractals * r.geom.elems();
            title = "Load2D";
        } else if (set_.mode == 1) {
            set_.v2.dtype = t;
            set_.v2.product = set_.product;
            set_.v2.src = p.src;
            set_.v2.dst = p.dst;
            r = exec::load2d_v2(set_.v2);
            src_elems = set_.v2.src_fractals * r.geom.elems();
            title = "Load2Dv2";
        } else {
            set_.v3.dtype = t;
            r = exec::load3d(set_.v3);
            src_elems = set_.v3.c1 * set_.v3.h * set_.v3.w * set_.v3.c0();
            title = "Load3D";
        }
        if (r.dst_of.empty())
            throw UsageError("nothing is moved (a step of 0); expected at least one fractal");
        const bool l3 = set_.mode == 2;
        auto plan = std::make_shared<Plan>(
            exec::load_plan(r, src_elems, t, title, l3 ? "A1 [C1][H][W][C0]" : name(p.src),
                            l3 ? "A2" : name(p.dst), fit_[0], fit_[1]));
        result_ = std::move(r);
        shown_mode_ = set_.mode;
        plan_ = std::move(plan);
        gpu_.set_plan(plan_);
        gpu_.set_colours(ColourMode::source_index);
        view_.request_fit(0, -1);
        src_view_.request_fit(0, 0);
        error_.clear();
        error_key_.clear();
    } catch (const UsageError& e) {
        error_ = e.what();
        error_key_ = e.key();
    }
}

// ---- [draw] --------------------------------------------------------------------

void LoadDataPanel::controls() {
    bool ch = false;
    fields_ = nlohmann::json::object();
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(tr("instruction"));
    ImGui::SameLine();
    ImGui::SetNextItemWidth(170);
    ch |= ImGui::Combo("##instruction", &set_.mode, kModes, 3);
    // A red frame on a combo the engine's error is about (its key).
    auto frame_if = [&](const char* key) {
        if (error_key_ != key) return;
        ImGui::GetWindowDrawList()->AddRect(ImGui::GetItemRectMin(), ImGui::GetItemRectMax(),
                                            ImGui::GetColorU32(compute::err_colour()), 0, 0, 2);
    };
    if (set_.mode != 2) {
        ImGui::SameLine(0, 16);
        compute::wrap_for(260);
        ImGui::TextUnformatted(tr("product"));
        ImGui::SameLine();
        const float arrow = ImGui::GetFrameHeight() * 1.5f;
        ImGui::SetNextItemWidth(
            ImGui::CalcTextSize(tr_text(exec::product_name(set_.product)).c_str()).x + arrow);
        if (ImGui::BeginCombo("##product", tr_text(exec::product_name(set_.product)).c_str())) {
            for (exec::Product q : exec::all_products())
                if (ImGui::Selectable(
                        (tr_text(exec::product_name(q)) + "###" + exec::product_name(q)).c_str(),
                        q == set_.product)) {
                    set_.product = q;
                    ch = true;
                }
            ImGui::EndCombo();
        }
        frame_if("product");
    }
    ImGui::SameLine(0, 16);
    compute::wrap_for(140);
    ImGui::TextUnformatted(tr("dtype"));
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::CalcTextSize(tr("fp4x2_e2m1")).x +
                            ImGui::GetFrameHeight() * 1.5f);
    if (ImGui::BeginCombo("##dtype", set_.dtype.c_str())) {
        for (DType t : all_dtypes())
            if (ImGui::Selectable(name(t), set_.dtype == name(t))) {
                set_.dtype = name(t);
                ch = true;
            }
        ImGui::EndCombo();
    }
    frame_if("dtype");
    if (set_.mode != 2) {
        ImGui::SameLine(0, 16);
        compute::wrap_for(150);
        ImGui::TextUnformatted(tr("path"));
        ImGui::SameLine();
        ImGui::SetNextItemWidth(ImGui::CalcTextSize(tr("GM->A2")).x +
                                ImGui::GetFrameHeight() * 1.5f);
        ch |= ImGui::Combo("##path", &set_.path, kPaths, 6);
        frame_if("path");
    }
    // A short window (a projector) folds the instruction's numbers under a
    // header that lists them (open while the engine reports an error).
    if (compact_layout()) {
        auto n = [](int64_t v) { return std::to_string(v); };
        std::string sum = tr("parameters: ");
        if (set_.mode == 0)
            sum += "startIndex " + n(set_.v1.start_index) + ", repeatTimes " + n(set_.v1.repeat) +
                   ", srcStride " + n(set_.v1.src_stride) + ", dstGap " + n(set_.v1.dst_gap);
        else if (set_.mode == 1)
            sum += "mStart " + n(set_.v2.m_start) + ", kStart " + n(set_.v2.k_start) + ", mStep " +
                   n(set_.v2.m_step) + ", kStep " + n(set_.v2.k_step) + ", srcStride " +
                   n(set_.v2.src_stride) + ", dstStride " + n(set_.v2.dst_stride);
        else
            sum += "C1 H W " + n(set_.v3.c1) + "x" + n(set_.v3.h) + "x" + n(set_.v3.w) +
                   ", filter " + n(set_.v3.kh) + "x" + n(set_.v3.kw) + ", stride " +
                   n(set_.v3.stride_h) + "x" + n(set_.v3.stride_w);
        if (!error_.empty()) ImGui::SetNextItemOpen(true);
        if (!compact_header(sum, "loaddata_params")) {
            if (ch) rebuild();
            return;
        }
    }
    if (set_.mode == 0) {
        ch |= field(trn("source size (fractals)"), set_.v1.src_fractals, "source size");
        ImGui::SameLine(0, 16);
        ch |= field("startIndex", set_.v1.start_index);
        ImGui::SameLine(0, 16);
        ch |= field("repeatTimes", set_.v1.repeat);
        ch |= field("srcStride", set_.v1.src_stride);
        ImGui::SameLine(0, 16);
        ch |= field("dstGap", set_.v1.dst_gap);
        ImGui::SameLine(0, 16);
        ch |= ImGui::Checkbox(tr_id("ifTranspose"), &set_.v1.transpose);
        ImGui::SameLine(0, 16);
        ch |= ImGui::Checkbox(tr_id("addrMode decrement"), &set_.v1.decrement);
    } else if (set_.mode == 1) {
        ch |= field(trn("source size (fractals)"), set_.v2.src_fractals, "source size");
        ImGui::SameLine(0, 16);
        ch |= field("mStartPosition", set_.v2.m_start);
        ImGui::SameLine(0, 16);
        ch |= field("kStartPosition", set_.v2.k_start);
        ch |= field("mStep", set_.v2.m_step);
        ImGui::SameLine(0, 16);
        ch |= field("kStep", set_.v2.k_step);
        ImGui::SameLine(0, 16);
        ch |= field("srcStride", set_.v2.src_stride);
        ImGui::SameLine(0, 16);
        ch |= field("dstStride", set_.v2.dst_stride);
        ImGui::SameLine(0, 16);
        ch |= ImGui::Checkbox(tr_id("ifTranspose"), &set_.v2.transpose);
    } else {
        ch |= field("C1", set_.v3.c1);
        ImGui::SameLine();
        ch |= field("H", set_.v3.h);
        ImGui::SameLine();
        ch |= field("W", set_.v3.w);
        ImGui::SameLine(0, 16);
        ch |= field(trn("c1Index"), set_.v3.c1_index);
        ImGui::SameLine(0, 16);
        ch |= field("filterH", set_.v3.kh, "filterH");
        ImGui::SameLine();
        ch |= field("filterW", set_.v3.kw);
        ch |= field("padList left", set_.v3.pad_left);
        ImGui::SameLine();
        ch |= field(trn("right"), set_.v3.pad_right, "padList right");
        ImGui::SameLine();
        ch |= field(trn("top"), set_.v3.pad_top, "padList top");
        ImGui::SameLine();
        ch |= field(trn("bottom"), set_.v3.pad_bottom, "padList bottom");
        ImGui::SameLine(0, 16);
        ch |= field("leftTopH", set_.v3.left_top_h);
        ImGui::SameLine();
        ch |= field("leftTopW", set_.v3.left_top_w);
        ch |= field("strideH", set_.v3.stride_h);
        ImGui::SameLine();
        ch |= field("strideW", set_.v3.stride_w);
        ImGui::SameLine(0, 16);
        ch |= field("dilationFilterH", set_.v3.dil_h);
        ImGui::SameLine();
        ch |= field("dilationFilterW", set_.v3.dil_w);
        ImGui::SameLine(0, 16);
        ch |= field("fetchFilterH", set_.v3.fetch_filter_h);
        ImGui::SameLine();
        ch |= field("fetchFilterW", set_.v3.fetch_filter_w);
        ch |= field("jumpStride", set_.v3.jump_stride);
        ImGui::SameLine(0, 16);
        ch |= field("repeatMode", set_.v3.repeat_mode);
        ImGui::SameLine(0, 16);
        ch |= field("repeatTime", set_.v3.repeat);
        ImGui::SameLine(0, 16);
        if (ImGui::Button(tr_id("document 001 example"))) {
            set_.v3 = exec::load3d_doc_example();
            ch = true;
        }
    }
    if (ch) rebuild();
}

// The address formula of the instruction with the current numbers.
void LoadDataPanel::formula_line() {
    auto list = [&](auto f) {
        std::string s;
        const size_t n = std::min<size_t>(result_.fractals.size(), 8);
        for (size_t i = 0; i < n; ++i)
            s += (i ? ", " : "") + std::to_string(f(result_.fractals[i]));
        if (result_.fractals.size() > n) s += ", ...";
        return s;
    };
    auto src = list([](const exec::FractalMove& m) { return m.src_fractal; });
    auto dst = list([](const exec::FractalMove& m) { return m.dst_fractal; });
    if (shown_mode_ == 0) {
        ImGui::Text(
            tr("source fractal = startIndex %s i*srcStride = %s;   destination = i*(1+dstGap) "
               "= %s%s"),
            set_.v1.decrement ? "-" : "+", src.c_str(), dst.c_str(),
            set_.v1.transpose ? tr(";   each fractal transposed") : "");
    } else if (shown_mode_ == 1) {
        ImGui::Text(tr("source (i,j) = (kStart+j)*srcStride + mStart+i = %s;   destination = "
                       "j*dstStride + i = %s%s"),
                    src.c_str(), dst.c_str(), set_.v2.transpose ? tr(";   transposed blocks") : "");
    } else {
        ImGui::Text(tr("repeat r reads kernel position %s into destination fractal %s"),
                    src.c_str(), dst.c_str());
    }
}

// Presentation mode: the buffer in view fills the slide; the caption says
// which buffer it is and the move's formula.
void LoadDataPanel::draw_present(AppContext& ctx) {
    if (!plan_) return;
    const Stage& st = plan_->stages[play_.value < 0.5 ? 0 : 1];
    ctx.caption.title =
        std::string(play_.value < 0.5 ? "source: " : "destination: ") + level(st.label);
    ctx.caption.formula = st.formula;
    // Source and destination side by side, as in the window (issue 13: the
    // class sees where each cell came from and where it lands).
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    draw_views(ctx, avail.x, avail.y);
}

void LoadDataPanel::draw(AppContext& ctx) {
    // space play/pause, left/Home: the source, right/End: the destination.
    apply_keys(play_, ctx.keys);
    if (ctx.present) {
        draw_present(ctx);
        return;
    }
    const bool compact = compact_layout();
    controls();
    if (!error_.empty())
        ImGui::TextColored(compute::err_colour(), tr("%s  (showing the last valid load)"),
                           error_.c_str());
    if (!plan_) return;
    if (ImGui::Button(play_.playing ? tr_id("Pause") : tr_id("Play"))) play_.toggle();
    ImGui::SameLine();
    float t = float(play_.target);
    if (compute::labelled_float(trn("L1 -> L0"), t, 0, 1,
                                t < 0.5f ? tr("source %.2f") : tr("destination %.2f"), 200)) {
        play_.playing = false;
        play_.go(t);
    }
    ImGui::SameLine(0, 16);
    int64_t written = 0, padded = 0;
    for (int64_t s : result_.dst_of) written += s >= 0;
    for (uint8_t b : result_.padded) padded += b;
    ImGui::Text(tr("%zu fractal copies, %lld of %zu destination elements written"),
                result_.fractals.size(), (long long)written, result_.dst_of.size());
    if (!result_.padded.empty()) {
        ImGui::SameLine(0, 8);
        ImGui::Text(tr("+ %lld padding (padValue)"), (long long)padded);
    }
    if (!result_.dst_format.empty()) {
        // The destination fractal as document 001 writes it for this buffer.
        ImGui::SameLine(0, 16);
        compute::wrap_for(260);
        ImGui::Text(tr("destination fractals %s %lld x %lld%s"), result_.dst_format.c_str(),
                    (long long)result_.dst_rows, (long long)result_.dst_cols,
                    result_.dst_format == "ZN" ? " (32 B / sizeof x 16)" : " (16 x 32 B / sizeof)");
    }
    formula_line();
    // The right-hand picture: where the cells are on their way (0 source, 1 destination).
    // (In a short window the pictures' own headings say it.)
    if (!compact) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextWrapped(tr("left: the source at rest; right: %s (Play replays the move)"),
                           play_.value < 0.5 ? tr("the cells still at their source places")
                                             : tr("the cells in the destination"));
        ImGui::PopStyleColor();
    }
    // The list of copies takes the width of its widest line (at most a
    // quarter of the window): a fixed quarter left the pictures 74% of the
    // width and the list mostly empty.
    const char* what = shown_mode_ == 2 ? tr("kernel pos") : tr("src fractal");
    std::vector<std::string> moves;
    float widest = ImGui::CalcTextSize(tr("not written (gap / padding)")).x;
    for (const auto& f : result_.fractals) {
        char buf[160];
        std::snprintf(buf, sizeof buf, tr("#%lld: %s %lld -> dst %lld%s"), (long long)f.iteration,
                      what, (long long)f.src_fractal, (long long)f.dst_fractal,
                      f.transposed ? " (T)" : "");
        moves.emplace_back(buf);
        if (moves.size() <= 256) widest = std::max(widest, ImGui::CalcTextSize(buf).x);
    }
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const ImGuiStyle& style = ImGui::GetStyle();
    const float list_w = std::min(avail.x * 0.26f, widest + 2 * style.WindowPadding.x +
                                                       style.ScrollbarSize + style.ItemSpacing.x);
    const float lw = avail.x - list_w, h = std::max(120.0f, avail.y - 4);
    draw_views(ctx, lw, h);
    ImGui::SameLine();
    ImGui::BeginChild("moves", ImVec2(0, h), true);
    for (const std::string& m : moves) ImGui::TextUnformatted(m.c_str());
    const int64_t hov = view_.hovered() >= 0 ? view_.hovered() : src_view_.hovered();
    if (hov >= 0 && hov < int64_t(result_.dst_of.size())) {
        ImGui::Separator();
        int64_t c = hov;
        int64_t src = result_.dst_of[size_t(c)];
        ImGui::Text(tr("dst element %lld (fractal %lld)"), (long long)c,
                    (long long)(c / result_.geom.elems()));
        if (src >= 0)
            ImGui::Text(tr("<- src element %lld"), (long long)src);
        else
            ImGui::TextUnformatted(tr("not written (gap / padding)"));
    }
    ImGui::EndChild();
}

// The source buffer (left, at rest) and the destination (right, where the
// cells travel to); hovering a cell on one side outlines it on the other.
void LoadDataPanel::draw_views(AppContext& ctx, float w, float h) {
    const float gap = 8 * ctx.ui_scale, head = ImGui::GetTextLineHeightWithSpacing();
    const float sw = std::floor((w - gap) * 0.45f), dw = w - gap - sw;
    // Bands fitted to the panes: a default Load2D of 8 fractals drew 5-fractal
    // columns of 10 px cells in a third of the width.
    const float want[2] = {sw / std::max(1.f, h - head), dw / std::max(1.f, h - head)};
    bool refit = false;
    for (int i = 0; i < 2; ++i)
        if (fit_[i] <= 0 || std::fabs(std::log(want[i] / fit_[i])) > 0.15f) refit = true;
    if (refit && error_.empty()) {
        fit_[0] = want[0];
        fit_[1] = want[1];
        rebuild();
        if (!plan_) return;
    }
    render::ViewStyle vs;
    vs.dark = ctx.dark_theme;
    ImGui::BeginGroup();
    ImGui::Text(tr("source: %s"), tr_text(level(plan_->stages[0].label)).c_str());
    vs.highlight = view_.hovered();
    src_view_.draw(gpu_, 0.f, ImVec2(sw, h - head), vs);
    ImGui::EndGroup();
    ImGui::SameLine(0, gap);
    ImGui::BeginGroup();
    ImGui::Text(play_.value < 0.5 ? tr("destination: %s  (cells move from the source)")
                                  : tr("destination: %s  (cells move into place)"),
                tr_text(level(plan_->stages[1].label)).c_str());
    vs.highlight = src_view_.hovered();
    view_.draw(gpu_, float(play_.value), ImVec2(dw, h - head), vs);
    ImGui::EndGroup();
    const ImVec2 o = view_.origin(), so = src_view_.origin();
    screen_ = {{"view",
                {{"origin", {o.x, o.y}},
                 {"size", {dw, h - head}},
                 {"zoom", view_.camera().zoom},
                 {"pan", {view_.camera().pan_x, view_.camera().pan_y}},
                 {"labels", render::labels_json(view_.drawn_labels())},
                 {"numbers", view_.drawn_numbers()},
                 {"number_sample", view_.drawn_number_sample()}}},
               {"source_view",
                {{"origin", {so.x, so.y}},
                 {"size", {sw, h - head}},
                 {"zoom", src_view_.camera().zoom},
                 {"pan", {src_view_.camera().pan_x, src_view_.camera().pan_y}},
                 {"labels", render::labels_json(src_view_.drawn_labels())},
                 {"numbers", src_view_.drawn_numbers()},
                 {"number_sample", src_view_.drawn_number_sample()}}}};
}

}  // namespace

std::unique_ptr<Panel> make_loaddata_panel() {
    return std::make_unique<LoadDataPanel>();
}

}  // namespace ll::gui
