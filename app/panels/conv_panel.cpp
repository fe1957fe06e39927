// The convolution pipeline overview: every stage of the lecture's case study
// with its shape, each AI Core buffer with what the whole problem would need
// of it (so the need for tiling is visible), the feature map travelling
// NCHW -> NC1HWC0 -> img2col -> A fractals, and the case study run on real
// numbers against a direct convolution.
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <random>
#include <string>

#include "app/panels/panel.hpp"
#include "app/render/plan_view.hpp"
#include "core/error.hpp"
#include "core/exec/conv.hpp"
#include "core/exec/half.hpp"
#include "core/exec/plans.hpp"

namespace ll::gui {

namespace {

const ImVec4 kErr(1.0f, 0.42f, 0.38f, 1.0f);

// Buffer sizes of an Ascend 910-class AI Core, for the occupancy bars only.
struct BufferCap {
    const char* name;
    const char* holds;
    int64_t bytes;
};
constexpr BufferCap kCaps[] = {
    {"A1 (L1)", "input NC1HWC0", 1 << 20},  {"B1 (L1)", "weights FRACTAL_Z", 1 << 20},
    {"A2 (L0A)", "A fractals", 64 << 10},   {"B2 (L0B)", "B fractals", 64 << 10},
    {"CO1 (L0C)", "C fractals", 256 << 10},
};

std::string human(double b) {
    const char* u[] = {"B", "KB", "MB", "GB"};
    int i = 0;
    while (b >= 1024 && i < 3) {
        b /= 1024;
        ++i;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f %s", b, u[i]);
    return buf;
}

class ConvPanel : public Panel {
  public:
    ConvPanel() {
        small();
        rebuild();
    }
    const char* title() const override { return "Conv pipeline"; }
    bool busy() const override { return playing_ || std::fabs(stage_ - target_) > 1e-4f; }
    void update(double dt) override {
        if (playing_) {
            target_ = std::min(3.0f, target_ + float(dt) * 0.5f);
            if (target_ >= 3.0f) playing_ = false;
        }
        float d = target_ - stage_, step = float(dt) * 2.0f;
        stage_ = std::fabs(d) <= step ? target_ : stage_ + std::copysign(step, d);
    }
    void draw(AppContext& ctx) override;

  private:
    void small() {
        p_ = exec::ConvParams{};
        p_.n = 1;
        p_.cin = 3;
        p_.cout = 4;
        p_.h = p_.w = 6;
    }
    void rebuild();
    void run_case();
    bool edit(const char* label, int64_t& v) {
        int x = int(v);
        ImGui::SetNextItemWidth(90);
        if (!ImGui::InputInt(label, &x)) return false;
        v = x;
        return true;
    }

    exec::ConvParams p_;
    exec::ConvShapes shapes_;
    std::shared_ptr<Plan> plan_;
    render::PlanGpu gpu_;
    render::PlanView view_;
    std::string error_, run_msg_;
    float stage_ = 0, target_ = 0;
    bool playing_ = false;
};

void ConvPanel::rebuild() {
    try {
        shapes_ = exec::conv_shapes(p_);
        if (numel(shapes_.at("a_fractal")) > (int64_t(1) << 22)) {
            plan_.reset();  // too many cells to animate; the table still shows
        } else {
            plan_ = std::make_shared<Plan>(exec::conv_a_plan(p_));
            gpu_.set_plan(plan_);
            gpu_.set_colours(ColourMode::channel);
            view_.set_follow(true);
            view_.request_fit(0, -1);
        }
        error_.clear();
    } catch (const UsageError& e) {
        error_ = e.what();
    }
}

void ConvPanel::run_case() {
    try {
        exec::check_runnable(p_);
        std::mt19937 rng(1);
        std::uniform_real_distribution<float> d(-1, 1);
        std::vector<float> x(size_t(p_.n * p_.cin * p_.h * p_.w)),
            w(size_t(p_.cout * p_.cin * p_.win.kh * p_.win.kw));
        for (auto& v : x) v = exec::round_to_half(d(rng));
        for (auto& v : w) v = exec::round_to_half(d(rng));
        auto t0 = std::chrono::steady_clock::now();
        exec::ConvResultF r = exec::conv_fp16(p_, x, w);
        auto t1 = std::chrono::steady_clock::now();
        std::vector<float> ref = exec::direct_conv(p_, x, w);
        auto t2 = std::chrono::steady_clock::now();
        double err = 0;
        for (size_t i = 0; i < ref.size(); ++i)
            err = std::max(err, double(std::fabs(r.output[i] - ref[i])));
        char buf[256];
        std::snprintf(buf, sizeof buf,
                      "ran on random fp16 data: pipeline %.1f ms, direct convolution %.1f ms, "
                      "max |difference| %.2g, %lld Cube steps",
                      std::chrono::duration<double, std::milli>(t1 - t0).count(),
                      std::chrono::duration<double, std::milli>(t2 - t1).count(), err,
                      (long long)r.shapes.cube_ops);
        run_msg_ = buf;
    } catch (const UsageError& e) {
        run_msg_ = e.what();
    }
}

void ConvPanel::draw(AppContext& ctx) {
    bool ch = false;
    ch |= edit("N", p_.n);
    ImGui::SameLine();
    ch |= edit("Cin", p_.cin);
    ImGui::SameLine();
    ch |= edit("Cout", p_.cout);
    ImGui::SameLine();
    ch |= edit("H", p_.h);
    ImGui::SameLine();
    ch |= edit("W", p_.w);
    ch |= edit("Kh", p_.win.kh);
    ImGui::SameLine();
    ch |= edit("Kw", p_.win.kw);
    ImGui::SameLine();
    ch |= edit("stride", p_.win.stride_h);
    ImGui::SameLine();
    ch |= edit("dilation", p_.win.dil_h);
    ImGui::SameLine();
    ch |= edit("pad", p_.win.pad_top);
    p_.win.stride_w = p_.win.stride_h;
    p_.win.dil_w = p_.win.dil_h;
    p_.win.pad_bottom = p_.win.pad_left = p_.win.pad_right = p_.win.pad_top;
    bool int8 = p_.dtype == DType::int8;
    if (ImGui::Checkbox("int8", &int8)) {
        p_.dtype = int8 ? DType::int8 : DType::fp16;
        ch = true;
    }
    ImGui::SameLine();
    if (ImGui::Button("Case study (N10 Cin32 Cout64 28x28 3x3)")) {
        p_ = exec::conv_case_study();
        ch = true;
    }
    ImGui::SameLine();
    if (ImGui::Button("Small example")) {
        small();
        ch = true;
    }
    if (ch) {
        rebuild();
        run_msg_.clear();
    }
    if (!error_.empty()) {
        ImGui::TextColored(kErr, "%s", error_.c_str());
        return;
    }
    if (p_.dtype == DType::fp16) {
        ImGui::SameLine();
        if (ImGui::Button("Run on real numbers")) run_case();
    }
    if (!run_msg_.empty()) ImGui::TextUnformatted(run_msg_.c_str());

    const ImVec2 avail = ImGui::GetContentRegionAvail();
    ImGui::BeginChild("stages", ImVec2(avail.x * 0.42f, avail.y), true);
    if (ImGui::BeginTable("pipeline", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
        for (const auto& s : shapes_.stages) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(s.title.c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(to_string(s.shape).c_str());
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", s.note.c_str());
        }
        ImGui::EndTable();
    }
    ImGui::Text("Cube loop K -> N -> M: %lld x %lld x %lld = %lld fractal multiplications",
                (long long)shapes_.k1, (long long)shapes_.n1, (long long)shapes_.m1,
                (long long)shapes_.cube_ops);
    ImGui::Separator();
    ImGui::TextUnformatted("buffer occupancy (whole problem at once):");
    const int64_t eb = p_.dtype == DType::int8 ? 1 : 2;
    const int64_t need[] = {
        numel(shapes_.at("input_5hd")) * eb, numel(shapes_.at("b_fractal")) * eb,
        numel(shapes_.at("a_fractal")) * eb, numel(shapes_.at("b_fractal")) * eb,
        numel(shapes_.at("c_fractal")) * 4};
    for (size_t i = 0; i < 5; ++i) {
        const double frac = double(need[i]) / double(kCaps[i].bytes);
        char label[96];
        std::snprintf(label, sizeof label, "%s / %s%s", human(double(need[i])).c_str(),
                      human(double(kCaps[i].bytes)).c_str(), frac > 1 ? "  -> tile it" : "");
        ImGui::Text("%-10s %s", kCaps[i].name, kCaps[i].holds);
        ImGui::ProgressBar(float(std::min(1.0, frac)), ImVec2(-1, 0), label);
    }
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginGroup();
    if (!plan_) {
        ImGui::TextWrapped(
            "The feature-map animation is off above 4M cells; use a smaller "
            "geometry to watch the elements move.");
    } else {
        if (ImGui::Button(playing_ ? "Pause" : "Play")) {
            if (!playing_ && target_ >= 3.0f) stage_ = target_ = 0;
            playing_ = !playing_;
        }
        ImGui::SameLine();
        ImGui::SetNextItemWidth(220);
        const char* names[] = {"NCHW", "NC1HWC0", "img2col", "A fractals"};
        if (ImGui::SliderFloat("##stage", &target_, 0, 3,
                               names[std::clamp(int(target_ + 0.5f), 0, 3)]))
            playing_ = false;
        render::ViewStyle vs;
        vs.dark = ctx.dark_theme;
        const ImVec2 a2 = ImGui::GetContentRegionAvail();
        view_.draw(gpu_, stage_, ImVec2(a2.x, std::max(120.0f, a2.y - 4)), vs);
    }
    ImGui::EndGroup();
}

}  // namespace

std::unique_ptr<Panel> make_conv_panel() {
    return std::make_unique<ConvPanel>();
}

}  // namespace ll::gui
