// The img2col scene: the window slides over the (padded) input and every
// position becomes a matrix row; duplicated input elements share a colour,
// the expansion counter rises as the matrix fills. Explicit (the animated
// matrix, left) next to implicit (the gather formula for the hovered matrix
// element, evaluated on the spot, right).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "app/panels/panel.hpp"
#include "app/render/plan_view.hpp"
#include "core/error.hpp"
#include "core/exec/img2col.hpp"
#include "core/exec/plans.hpp"

namespace ll::gui {

namespace {

const ImVec4 kErr(1.0f, 0.42f, 0.38f, 1.0f);

class Img2colPanel : public Panel {
  public:
    Img2colPanel() {
        spec_.h = spec_.w = 3;
        spec_.win.kh = spec_.win.kw = 2;
        rebuild();
    }
    const char* title() const override { return "img2col"; }
    bool busy() const override { return playing_ || std::fabs(stage_ - target_) > 1e-4f; }
    void update(double dt) override {
        if (playing_) {
            target_ = std::min(2.0f, target_ + float(dt) * speed_);
            if (target_ >= 2.0f) playing_ = false;
        }
        float d = target_ - stage_, step = float(dt) * 3.0f;
        stage_ = std::fabs(d) <= step ? target_ : stage_ + std::copysign(step, d);
    }
    void draw(AppContext& ctx) override;
    nlohmann::json save_settings() const override {
        return {
            {"n", spec_.n},
            {"c", spec_.c},
            {"h", spec_.h},
            {"w", spec_.w},
            {"kh", spec_.win.kh},
            {"kw", spec_.win.kw},
            {"stride", {spec_.win.stride_h, spec_.win.stride_w}},
            {"dilation", {spec_.win.dil_h, spec_.win.dil_w}},
            {"pad",
             {spec_.win.pad_top, spec_.win.pad_bottom, spec_.win.pad_left, spec_.win.pad_right}}};
    }
    void load_settings(const nlohmann::json& j) override {
        exec::Img2colSpec s = spec_;
        try {
            s.n = j.value("n", s.n);
            s.c = j.value("c", s.c);
            s.h = j.value("h", s.h);
            s.w = j.value("w", s.w);
            s.win.kh = j.value("kh", s.win.kh);
            s.win.kw = j.value("kw", s.win.kw);
            if (j.contains("stride")) {
                s.win.stride_h = j["stride"].at(0);
                s.win.stride_w = j["stride"].at(1);
            }
            if (j.contains("dilation")) {
                s.win.dil_h = j["dilation"].at(0);
                s.win.dil_w = j["dilation"].at(1);
            }
            if (j.contains("pad")) {
                s.win.pad_top = j["pad"].at(0);
                s.win.pad_bottom = j["pad"].at(1);
                s.win.pad_left = j["pad"].at(2);
                s.win.pad_right = j["pad"].at(3);
            }
        } catch (const nlohmann::json::exception& e) {
            throw UsageError(std::string("img2col scene: ") + e.what() + "; expected integers");
        }
        s.validate();
        spec_ = s;
        rebuild();
    }

  private:
    void rebuild();
    bool edit(const char* label, int64_t& v, int lo, int hi);

    exec::Img2colSpec spec_;
    exec::Img2colExpansion exp_;
    std::shared_ptr<Plan> plan_;
    render::PlanGpu gpu_;
    render::PlanView explicit_, input_;
    std::string error_;
    float stage_ = 0, target_ = 0, speed_ = 0.6f;
    bool playing_ = false;
};

void Img2colPanel::rebuild() {
    try {
        spec_.validate();
        if (spec_.rows() * spec_.cols() > (int64_t(1) << 22))
            throw UsageError("matrix of " + std::to_string(spec_.rows() * spec_.cols()) +
                             " elements; expected at most 4M for the scene");
        exp_ = exec::img2col_expansion(spec_);
        plan_ = std::make_shared<Plan>(exec::img2col_plan(spec_));
        gpu_.set_plan(plan_);
        gpu_.set_colours(ColourMode::source_index);
        explicit_.request_fit(0, -1);
        input_.request_fit(0, 0);
        error_.clear();
    } catch (const UsageError& e) {
        error_ = e.what();
    }
}

bool Img2colPanel::edit(const char* label, int64_t& v, int lo, int hi) {
    int x = int(v);
    ImGui::SetNextItemWidth(90 * ImGui::GetIO().FontGlobalScale);
    if (!ImGui::InputInt(label, &x)) return false;
    v = std::clamp(x, lo, hi);
    return true;
}

void Img2colPanel::draw(AppContext& ctx) {
    bool changed = false;
    changed |= edit("N", spec_.n, 1, 4);
    ImGui::SameLine();
    changed |= edit("C", spec_.c, 1, 8);
    ImGui::SameLine();
    changed |= edit("H", spec_.h, 1, 64);
    ImGui::SameLine();
    changed |= edit("W", spec_.w, 1, 64);
    changed |= edit("Kh", spec_.win.kh, 1, 9);
    ImGui::SameLine();
    changed |= edit("Kw", spec_.win.kw, 1, 9);
    ImGui::SameLine();
    changed |= edit("stride h", spec_.win.stride_h, 0, 8);
    ImGui::SameLine();
    changed |= edit("stride w", spec_.win.stride_w, 0, 8);
    changed |= edit("dil h", spec_.win.dil_h, 0, 4);
    ImGui::SameLine();
    changed |= edit("dil w", spec_.win.dil_w, 0, 4);
    ImGui::SameLine();
    changed |= edit("pad t", spec_.win.pad_top, 0, 4);
    ImGui::SameLine();
    changed |= edit("pad b", spec_.win.pad_bottom, 0, 4);
    ImGui::SameLine();
    changed |= edit("pad l", spec_.win.pad_left, 0, 4);
    ImGui::SameLine();
    changed |= edit("pad r", spec_.win.pad_right, 0, 4);
    if (changed) rebuild();
    if (!error_.empty()) {
        ImGui::TextColored(kErr, "%s", error_.c_str());
        return;
    }
    if (ImGui::Button(playing_ ? "Pause" : "Play")) {
        if (!playing_ && target_ >= 2.0f) stage_ = target_ = 0;
        playing_ = !playing_;
    }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(220);
    if (ImGui::SliderFloat("stage", &target_, 0, 2,
                           target_ < 0.5f   ? "input %.2f"
                           : target_ < 1.5f ? "padded %.2f"
                                            : "matrix %.2f"))
        playing_ = false;
    // The counter rises with the animation from stage 1 (padded) to 2 (matrix).
    const float f = std::clamp(stage_ - 1.0f, 0.0f, 1.0f);
    const auto filled = int64_t(std::floor(f * float(exp_.matrix_elements)));
    ImGui::SameLine();
    ImGui::Text(
        "matrix %lld / %lld elements from %lld inputs (x%.2f), %lld padding, max reuse %lld",
        (long long)filled, (long long)exp_.matrix_elements, (long long)exp_.input_elements,
        exp_.ratio(), (long long)exp_.padding_elements, (long long)exp_.max_reuse);

    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float lw = avail.x * 0.62f, h = std::max(120.0f, avail.y - 4);
    render::ViewStyle vs;
    vs.dark = ctx.dark_theme;
    vs.highlight = input_.hovered();
    ImGui::BeginGroup();
    ImGui::TextUnformatted("explicit: the matrix is materialised (copies)");
    explicit_.draw(gpu_, stage_, ImVec2(lw, h - ImGui::GetTextLineHeightWithSpacing()), vs);
    ImGui::EndGroup();
    ImGui::SameLine();
    ImGui::BeginGroup();
    ImGui::TextUnformatted("implicit: address generated on demand");
    vs.highlight = explicit_.hovered();
    input_.draw(gpu_, 0.0f, ImVec2(avail.x - lw - 8, h * 0.6f), vs);
    const int64_t cell = explicit_.hovered() >= 0 ? explicit_.hovered() : input_.hovered();
    if (cell >= 0 && cell < plan_->cell_count) {
        const int64_t row = cell / spec_.cols(), col = cell % spec_.cols();
        const int64_t ho = spec_.out_h(), wo = spec_.out_w();
        const int64_t ow = row % wo, oh = row / wo % ho, n = row / (wo * ho);
        const int64_t kw = col % spec_.win.kw, kh = col / spec_.win.kw % spec_.win.kh,
                      c = col / (spec_.win.kw * spec_.win.kh);
        const int64_t ih = oh * spec_.win.stride_h - spec_.win.pad_top + kh * spec_.win.dil_h;
        const int64_t iw = ow * spec_.win.stride_w - spec_.win.pad_left + kw * spec_.win.dil_w;
        const int64_t src = exec::img2col_source(spec_, row, col);
        ImGui::Text("M[%lld][%lld]: row -> (n %lld, oh %lld, ow %lld)", (long long)row,
                    (long long)col, (long long)n, (long long)oh, (long long)ow);
        ImGui::Text("col -> (c %lld, kh %lld, kw %lld)", (long long)c, (long long)kh,
                    (long long)kw);
        ImGui::Text("ih = %lld*%lld - %lld + %lld*%lld = %lld", (long long)oh,
                    (long long)spec_.win.stride_h, (long long)spec_.win.pad_top, (long long)kh,
                    (long long)spec_.win.dil_h, (long long)ih);
        ImGui::Text("iw = %lld*%lld - %lld + %lld*%lld = %lld", (long long)ow,
                    (long long)spec_.win.stride_w, (long long)spec_.win.pad_left, (long long)kw,
                    (long long)spec_.win.dil_w, (long long)iw);
        if (src < 0)
            ImGui::TextUnformatted("outside the input: the pad value");
        else
            ImGui::Text("input element %lld, used %lld times", (long long)src,
                        (long long)exp_.reuse[size_t(src)]);
    } else {
        ImGui::TextWrapped(
            "Hover a matrix element: its source is computed from (row, col) "
            "without the matrix existing. Same colour = same input element.");
    }
    ImGui::EndGroup();
}

}  // namespace

std::unique_ptr<Panel> make_img2col_panel() {
    return std::make_unique<Img2colPanel>();
}

}  // namespace ll::gui
