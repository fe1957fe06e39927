// The img2col scene. Left, explicit: the materialised matrix, one row per
// window position, filling up as the window slides (rows not yet written are
// dimmed, the current row is framed). Right, implicit: the padded input with
// the kernel window at its current position (one frame per channel) and the
// gather formula that computes a matrix element's address without the matrix
// existing. Input elements that an earlier window already copied are marked
// as duplicates on both sides, and the counter (written / repeats / padding)
// rises with the window. Cells share a colour when they hold the same input
// element.
//
// Sections: [settings] scene file in/out, [model] rebuild and per-window
// counts, [draw] controls, explicit view, implicit view.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "app/i18n/tr.hpp"
#include "app/panels/compact.hpp"
#include "app/panels/compute_widgets.hpp"
#include "app/panels/img2col_settings.hpp"
#include "app/panels/panel.hpp"
#include "app/panels/playhead.hpp"
#include "app/panels/present.hpp"
#include "app/render/grid_labels.hpp"
#include "app/render/palette.hpp"
#include "app/render/plan_view.hpp"
#include "app/render/present.hpp"
#include "core/error.hpp"
#include "core/exec/img2col.hpp"
#include "core/exec/plans.hpp"

namespace ll::gui {

namespace {

// Channels the panel accepts: the case study's 32 and more (the matrix is
// still bounded to 4M elements in rebuild()).
constexpr int64_t kMaxC = Img2colSettings::kMaxC;

using compute::labelled_int;
using compute::rect_json;

// The window and its row: the palette's marker colour (readable on both themes).
ImU32 window_col(bool dark) {
    return render::ink(render::Role::marker, dark);
}
// A repeated input element: the palette's magenta (pinned), readable on both themes.
ImU32 dup_col(bool dark) {
    return render::ink(render::Role::pinned, dark);
}

class Img2colPanel : public Panel {
  public:
    Img2colPanel() {
        const Img2colSettings s = Img2colSettings::initial();
        spec_ = s.spec;
        stage_.speed = 3;
        stage_.seek(s.stage);
        rebuild();
    }
    const char* title() const override { return "img2col"; }
    bool busy() const override { return pos_.busy() || stage_.busy(); }
    // The sliding window, row by row (the explicit/implicit glide is a control).
    Timeline timeline() const override { return timeline_of(pos_, "window"); }
    void seek(double t) override {
        seek_at_rest(pos_, t);
        seek_at_rest(stage_, stage_.target);
    }
    void update(double dt) override {
        pos_.update(dt);
        stage_.update(dt);
    }
    void draw(AppContext& ctx) override;
    nlohmann::json save_settings() const override;
    nlohmann::json probe() const override;
    void load_settings(const nlohmann::json& j) override;

  private:
    int64_t rows() const { return shown_.rows(); }
    int64_t window() const { return std::clamp<int64_t>(pos_.whole(), 0, rows() - 1); }
    Img2colSettings settings() const;  // what a scene file holds, from the state
    void rebuild();
    // Rebuilds the plan when the input pane's shape (width / height) moved
    // away from the one its images were wrapped for. Called before any view
    // of the frame draws (they share the GPU copy).
    void fit_input(ImVec2 pane) {
        const float a = pane.x / std::max(1.f, pane.y);
        if (input_aspect_ > 0 && std::fabs(std::log(a / input_aspect_)) < 0.15f) return;
        input_aspect_ = a;
        rebuild();
    }
    void controls();
    void draw_explicit(ImDrawList* dl, ImVec2 size, bool dark);
    void draw_present(AppContext& ctx);
    void draw_implicit(ImDrawList* dl, ImVec2 size, bool dark);
    void formula();

    exec::Img2colSpec spec_, shown_;  // as edited; as last built (drawn)
    exec::Img2colExpansion exp_;
    std::vector<int64_t> first_use_;  // per input element: first matrix index reading it
    std::vector<int64_t> repeats_;    // per row r: repeated copies in rows 0..r
    std::vector<int64_t> padding_;    // per row r: padding entries in rows 0..r
    std::shared_ptr<Plan> plan_;
    render::PlanGpu gpu_;
    render::PlanView explicit_, input_;
    std::string error_;
    Playhead pos_{0, 0};      // the window position, 1.5 windows per second
    Playhead stage_{0, 2};    // the matrix view: 0 input, 1 padded, 2 matrix
    float input_aspect_ = 0;  // of the input pane the plan's input grids suit (0: not yet)
    nlohmann::json screen_ = nlohmann::json::object();  // rectangles of the last draw
};

// ---- [settings] ----------------------------------------------------------------

nlohmann::json Img2colPanel::save_settings() const {
    return settings().to_json();
}

Img2colSettings Img2colPanel::settings() const {
    Img2colSettings s;
    s.spec = spec_;
    s.position = window();
    s.stage = stage_.target;
    s.playing = pos_.playing;
    return s;
}

nlohmann::json Img2colPanel::probe() const {
    return {{"counter",
             {{"written", (window() + 1) * spec_.cols()},
              {"repeats", repeats_.empty() ? 0 : repeats_[size_t(window())]},
              {"padding", padding_.empty() ? 0 : padding_[size_t(window())]},
              {"matrix_elements", exp_.matrix_elements},
              {"input_elements", exp_.input_elements}}},
            {"screen", screen_}};
}

void Img2colPanel::load_settings(const nlohmann::json& j) {
    Img2colSettings s = settings();
    s.read(SceneReader(j, "img2col"));
    spec_ = s.spec;
    rebuild();
    if (!error_.empty()) throw UsageError("img2col scene: " + error_);
    pos_.seek(double(s.position));
    pos_.playing = s.playing;
    stage_.seek(s.stage);
}

// ---- [model] -------------------------------------------------------------------

void Img2colPanel::rebuild() {
    try {
        spec_.validate();
        if (spec_.rows() * spec_.cols() > (int64_t(1) << 22))
            throw UsageError("matrix of " + std::to_string(spec_.rows() * spec_.cols()) +
                             " elements; expected at most 4M for the scene");
        exp_ = exec::img2col_expansion(spec_);
        plan_ = std::make_shared<Plan>(exec::img2col_plan(spec_, input_aspect_));
        // Per window: how many of its copies repeat an element already copied.
        const std::vector<int64_t>& src = plan_->src;
        const int64_t rows = spec_.rows(), cols = spec_.cols();
        first_use_.assign(size_t(exp_.input_elements), -1);
        repeats_.assign(size_t(rows), 0);
        padding_.assign(size_t(rows), 0);
        int64_t rep = 0, pad = 0;
        for (int64_t i = 0; i < rows * cols; ++i) {
            const int64_t s = src[size_t(i)];
            if (s < 0)
                ++pad;
            else if (first_use_[size_t(s)] < 0)
                first_use_[size_t(s)] = i;
            else
                ++rep;
            if (i % cols == cols - 1) {
                repeats_[size_t(i / cols)] = rep;
                padding_[size_t(i / cols)] = pad;
            }
        }
        gpu_.set_plan(plan_);
        gpu_.set_colours(ColourMode::source_index);
        explicit_.request_fit(2, 2);
        input_.request_fit(1, 1);
        pos_.set_range(0, double(rows - 1));
        shown_ = spec_;
        error_.clear();
    } catch (const UsageError& e) {
        error_ = e.what();
    }
}

// ---- [draw] --------------------------------------------------------------------

void Img2colPanel::controls() {
    exec::Window2d& w = spec_.win;
    bool ch = false;
    auto field = [&](const char* label, int64_t& v, int64_t lo, int64_t hi) {
        if (labelled_int(label, v, 80)) {
            v = std::clamp(v, lo, hi);
            ch = true;
        }
    };
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(tr("input"));
    ImGui::SameLine();
    field("N", spec_.n, 1, 4);
    ImGui::SameLine();
    field("C", spec_.c, 1, kMaxC);
    ImGui::SameLine();
    field("H", spec_.h, 1, 64);
    ImGui::SameLine();
    field("W", spec_.w, 1, 64);
    ImGui::SameLine(0, 24);
    ImGui::TextUnformatted(tr("kernel"));
    ImGui::SameLine();
    field("Kh", w.kh, 1, 9);
    ImGui::SameLine();
    field("Kw", w.kw, 1, 9);
    field(trn("stride h"), w.stride_h, 1, 8);
    ImGui::SameLine();
    field(trn("stride w"), w.stride_w, 1, 8);
    ImGui::SameLine(0, 16);
    field(trn("dilation h"), w.dil_h, 1, 4);
    ImGui::SameLine();
    field(trn("dilation w"), w.dil_w, 1, 4);
    ImGui::SameLine(0, 16);
    field(trn("pad top"), w.pad_top, 0, 4);
    ImGui::SameLine();
    field(trn("bottom"), w.pad_bottom, 0, 4);
    ImGui::SameLine();
    field(trn("left"), w.pad_left, 0, 4);
    ImGui::SameLine();
    field(trn("right"), w.pad_right, 0, 4);
    if (ch) rebuild();
}

// Presentation mode: the matrix (explicit) and the input with its window
// (implicit) share the slide; the caption names the window.
void Img2colPanel::draw_present(AppContext& ctx) {
    if (!plan_) return;
    caption_from_stage(
        ctx, *plan_, stage_.value,
        "window " + std::to_string(window() + 1) + " of " + std::to_string(shown_.rows()) + "   ");
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float lw = std::floor(avail.x * 0.58f);
    const ImVec2 right(avail.x - lw - ImGui::GetStyle().ItemSpacing.x, avail.y);
    fit_input(right);
    screen_ = nlohmann::json::object();
    draw_explicit(dl, ImVec2(lw, avail.y), ctx.dark_theme);
    ImGui::SameLine();
    draw_implicit(dl, right, ctx.dark_theme);
}

void Img2colPanel::draw(AppContext& ctx) {
    // space play/pause, left/right one window, Home/End first/last window.
    // Steps jump (a window is a whole position); playing moves on its own.
    if (apply_keys(pos_, ctx.keys) && !pos_.playing) pos_.seek(pos_.target);
    if (ctx.present) {
        draw_present(ctx);
        return;
    }
    // On a short window (the projector) the geometry folds under a header
    // that states it, so the two pictures keep the height.
    if (!compact_layout()) {
        controls();
    } else {
        const exec::Window2d& w = spec_.win;
        char sum[200];
        std::snprintf(sum, sizeof sum,
                      tr("input (%lld,%lld,%lld,%lld)  kernel %lldx%lld  stride %lld,%lld  "
                         "dilation %lld,%lld  pad %lld,%lld,%lld,%lld"),
                      (long long)spec_.n, (long long)spec_.c, (long long)spec_.h,
                      (long long)spec_.w, (long long)w.kh, (long long)w.kw, (long long)w.stride_h,
                      (long long)w.stride_w, (long long)w.dil_h, (long long)w.dil_w,
                      (long long)w.pad_top, (long long)w.pad_bottom, (long long)w.pad_left,
                      (long long)w.pad_right);
        if (compact_header(std::string(tr("edit: ")) + sum, "img2col_geometry")) controls();
    }
    // A bad geometry is reported inline; the last valid one stays on screen.
    if (!error_.empty())
        ImGui::TextColored(compute::err_colour(), tr("%s (showing the last valid geometry)"),
                           error_.c_str());
    if (!plan_) return;
    const int64_t rows = shown_.rows(), cols = shown_.cols();
    if (ImGui::Button(pos_.playing ? tr_id("Pause") : tr_id("Play"))) pos_.toggle();
    ImGui::SameLine();
    int p = int(window());
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(tr("window position"));
    ImGui::SameLine();
    ImGui::SetNextItemWidth(220);
    if (ImGui::SliderInt("##pos", &p, 0, int(rows - 1))) {
        pos_.playing = false;
        pos_.seek(double(p));
    }
    ImGui::SameLine(0, 20);
    float t = float(stage_.target);
    if (compute::labelled_float(trn("matrix view"), t, 0, 2,
                                t < 0.5f   ? tr("input %.2f")
                                : t < 1.5f ? tr("padded %.2f")
                                           : tr("matrix %.2f")))
        stage_.go(t);
    const int64_t win = window();
    ImGui::PushTextWrapPos(0.0f);  // the counters wrap instead of running off
    ImGui::TextWrapped(tr("window %lld of %lld: matrix %lld / %lld elements written, %lld of them "
                          "repeat an input already copied, %lld padding"),
                       (long long)(win + 1), (long long)rows, (long long)((win + 1) * cols),
                       (long long)exp_.matrix_elements, (long long)repeats_[size_t(win)],
                       (long long)padding_[size_t(win)]);
    ImGui::TextWrapped(tr("whole matrix: %lld elements from %lld inputs (x%.2f), most reused "
                          "input %lld times"),
                       (long long)exp_.matrix_elements, (long long)exp_.input_elements,
                       exp_.ratio(), (long long)exp_.max_reuse);
    ImGui::PopTextWrapPos();

    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float lw = avail.x * 0.58f, h = std::max(120.0f, avail.y - 4);
    screen_ = nlohmann::json::object();
    // Each column's heading wraps within the column (on the projector the
    // implicit one ran off the window), and the input picture takes what
    // the formula lines under it leave (they ran below the window's edge).
    const float rw = avail.x - lw - 8, line = ImGui::GetTextLineHeightWithSpacing();
    const char* heads[2] = {tr("explicit: the matrix is materialised (every copy stored)"),
                            tr("implicit: the address is generated on demand")};
    const float head = std::max(ImGui::CalcTextSize(heads[0], nullptr, false, lw).y,
                                ImGui::CalcTextSize(heads[1], nullptr, false, rw).y) +
                       ImGui::GetStyle().ItemSpacing.y;
    // formula(): 8 lines (element, row, col, ih, iw, input, two keys) and the
    // keys hint, wrapped.
    const float hint =
        ImGui::CalcTextSize(tr("space play/pause, left/right move the window, Home/End"), nullptr,
                            false, rw)
            .y;
    const ImVec2 input_pane(rw, std::max(100.f, h - head - 8 * line - hint - 6));
    fit_input(input_pane);
    const float top = ImGui::GetCursorPosY();
    ImGui::BeginGroup();
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + lw);
    ImGui::TextWrapped("%s", heads[0]);
    ImGui::PopTextWrapPos();
    ImGui::SetCursorPosY(top + head);
    draw_explicit(dl, ImVec2(lw, h - head), ctx.dark_theme);
    ImGui::EndGroup();
    ImGui::SameLine();
    ImGui::BeginGroup();
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + rw);
    ImGui::TextWrapped("%s", heads[1]);
    ImGui::PopTextWrapPos();
    ImGui::SetCursorPosY(top + head);
    draw_implicit(dl, input_pane, ctx.dark_theme);
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + rw);
    formula();
    ImGui::PopTextWrapPos();
    ImGui::EndGroup();
}

void Img2colPanel::draw_explicit(ImDrawList* dl, ImVec2 size, bool dark) {
    render::ViewStyle vs;
    vs.dark = dark;
    vs.highlight = input_.hovered();
    explicit_.draw(gpu_, float(stage_.value), size, vs);
    if (stage_.value < 1.999) return;  // the overlay describes the matrix stage
    const int64_t cols = shown_.cols(), rows = shown_.rows(), win = window();
    const ImVec2 o = explicit_.origin();
    dl->PushClipRect(o, ImVec2(o.x + size.x, o.y + size.y), true);
    auto at = [&](float x, float y) { return explicit_.to_screen(x, y); };
    // Rows not written yet: dimmed.
    if (win + 1 < rows)
        dl->AddRectFilled(at(0, float(win + 1)), at(float(cols), float(rows)),
                          dark ? IM_COL32(20, 20, 26, 190) : IM_COL32(240, 240, 242, 190));
    // Repeated copies in the rows written so far.
    const float zoom = at(1, 0).x - at(0, 0).x;
    if (zoom >= 5 && (win + 1) * cols <= 20000) {
        for (int64_t i = 0; i < (win + 1) * cols; ++i) {
            const int64_t s = plan_->src[size_t(i)];
            if (s < 0 || first_use_[size_t(s)] == i) continue;
            const float x = float(i % cols), y = float(i / cols);
            dl->AddRect(at(x + 0.12f, y + 0.12f), at(x + 0.88f, y + 0.88f), dup_col(dark), 0, 0,
                        std::max(1.5f, zoom * 0.08f));
        }
    }
    const ImVec2 a = at(0, float(win)), b = at(float(cols), float(win + 1));
    dl->AddRect(a, b, window_col(dark), 0, 0, 3.0f);
    dl->PopClipRect();
    screen_["row_box"] = rect_json(a, b);
    screen_["matrix"] = {{"origin", {o.x, o.y}},
                         {"size", {size.x, size.y}},
                         {"zoom", zoom},
                         {"labels", render::labels_json(explicit_.drawn_labels())}};
}

void Img2colPanel::draw_implicit(ImDrawList* dl, ImVec2 size, bool dark) {
    render::ViewStyle vs;
    vs.dark = dark;
    vs.highlight = explicit_.hovered();
    input_.draw(gpu_, 1.0f, size, vs);
    const exec::Window2d& w = shown_.win;
    const int64_t win = window(), cols = shown_.cols();
    const Grid& g = plan_->stages[1].grid;  // the padded input
    const ImVec2 o = input_.origin();
    dl->PushClipRect(o, ImVec2(o.x + size.x, o.y + size.y), true);
    const float zoom = input_.to_screen(1, 0).x - input_.to_screen(0, 0).x;
    for (int64_t c = 0; c < shown_.c; ++c) {
        // The taps (dilation spreads them), at the padded-input cells core
        // names (exec::img2col_tap); repeats get the duplicate mark.
        const int64_t first_col = c * w.kh * w.kw;
        for (int64_t q = first_col; q < first_col + w.kh * w.kw; ++q) {
            const int64_t i = win * cols + q;
            const int64_t s = plan_->src[size_t(i)];
            const Place p = cell_place(g, exec::img2col_tap(shown_, win, q).padded);
            const ImVec2 a = input_.to_screen(p.x, p.y), b = input_.to_screen(p.x + 1, p.y + 1);
            if (s >= 0 && first_use_[size_t(s)] < i)
                dl->AddRect(ImVec2(a.x + zoom * 0.12f, a.y + zoom * 0.12f),
                            ImVec2(b.x - zoom * 0.12f, b.y - zoom * 0.12f), dup_col(dark), 0, 0,
                            std::max(1.5f, zoom * 0.08f));
            else
                dl->AddRect(a, b, window_col(dark), 0, 0, 1.0f);
        }
        // The window: from its first tap to its last.
        const Place p0 = cell_place(g, exec::img2col_tap(shown_, win, first_col).padded);
        const Place p1 =
            cell_place(g, exec::img2col_tap(shown_, win, first_col + w.kh * w.kw - 1).padded);
        const ImVec2 a = input_.to_screen(p0.x, p0.y), b = input_.to_screen(p1.x + 1, p1.y + 1);
        dl->AddRect(a, b, window_col(dark), 0, 0, 3.0f);
        if (c == 0) screen_["window_box"] = rect_json(a, b);
    }
    dl->PopClipRect();
    screen_["input"] = {{"origin", {o.x, o.y}},
                        {"size", {size.x, size.y}},
                        {"zoom", zoom},
                        {"labels", render::labels_json(input_.drawn_labels())}};
}

void Img2colPanel::formula() {
    const exec::Window2d& w = shown_.win;
    const int64_t cols = shown_.cols();
    int64_t cell = explicit_.hovered() >= 0 ? explicit_.hovered() : input_.hovered();
    const bool hovered = cell >= 0 && cell < plan_->cell_count;
    if (!hovered) cell = window() * cols;                // the current window's first element
    const int64_t row = cell / cols, col = cell % cols;  // the matrix is rows x cols
    const exec::Img2colTap t = exec::img2col_tap(shown_, row, col);
    const int64_t n = t.n, oh = t.oh, ow = t.ow, c = t.c, kh = t.kh, kw = t.kw, ih = t.ih,
                  iw = t.iw, src = t.source;
    ImGui::Text("%s M[%lld][%lld]", hovered ? tr("hovered") : tr("window's first element"),
                (long long)row, (long long)col);
    ImGui::Text(tr("row %lld -> (n %lld, oh %lld, ow %lld)"), (long long)row, (long long)n,
                (long long)oh, (long long)ow);
    ImGui::Text(tr("col %lld -> (c %lld, kh %lld, kw %lld)"), (long long)col, (long long)c,
                (long long)kh, (long long)kw);
    ImGui::Text(tr("ih = oh*%lld - %lld + kh*%lld = %lld"), (long long)w.stride_h,
                (long long)w.pad_top, (long long)w.dil_h, (long long)ih);
    ImGui::Text(tr("iw = ow*%lld - %lld + kw*%lld = %lld"), (long long)w.stride_w,
                (long long)w.pad_left, (long long)w.dil_w, (long long)iw);
    if (src < 0)
        ImGui::TextUnformatted(tr("outside the input: the pad value"));
    else
        ImGui::Text(tr("input element %lld, copied %lld times in all"), (long long)src,
                    (long long)exp_.reuse[size_t(src)]);
    // The key: a swatch in the colour the picture uses (the theme's, so no
    // colour is named: "yellow" was dark orange on the light theme).
    const bool dark = render::display().dark;
    auto key = [](ImU32 ink, const char* text) {
        const float s = ImGui::GetTextLineHeight();
        const ImVec2 p = ImGui::GetCursorScreenPos();
        ImGui::GetWindowDrawList()->AddRect(ImVec2(p.x + 2, p.y + 2),
                                            ImVec2(p.x + s - 2, p.y + s - 2), ink, 0, 0, 3.f);
        ImGui::Dummy(ImVec2(s, s));
        ImGui::SameLine();
        ImGui::TextUnformatted(text);
    };
    key(window_col(dark), tr("the window and its row"));
    key(dup_col(dark), tr("a repeat of an input already copied"));
    ImGui::TextDisabled("%s", tr("space play/pause, left/right move the window, Home/End"));
}

}  // namespace

std::unique_ptr<Panel> make_img2col_panel() {
    return std::make_unique<Img2colPanel>();
}

}  // namespace ll::gui
