// The convolution pipeline overview: the lecture's case study (or any
// geometry) as a data-flow diagram of the AI Core's buffers (GM -> A1/B1 ->
// A2/B2 -> Cube -> CO1 -> GM), each with how much of it the whole problem
// would occupy (so the need for tiling is visible), every stage's shape, the
// feature map travelling NCHW -> NC1HWC0 -> img2col -> A fractals, and the
// case study run on real numbers against a direct convolution.
//
// Sections: [settings] scene file in/out, [model] rebuild and the real run,
// [draw] controls, stage table, buffer diagram, feature-map animation.
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <string>

#include "app/panels/compute_widgets.hpp"
#include "app/panels/panel.hpp"
#include "app/render/plan_view.hpp"
#include "core/error.hpp"
#include "core/exec/conv.hpp"
#include "core/exec/half.hpp"
#include "core/exec/plans.hpp"

namespace ll::gui {

namespace {

using compute::labelled_int;
using compute::rect_json;

// Buffer sizes of an Ascend 910-class AI Core, for the occupancy bars only.
struct BufferCap {
    const char* name;
    const char* holds;
    const char* key;  // the ConvShapes stage it holds
    int64_t bytes;
};
constexpr BufferCap kCaps[] = {
    {"A1 (L1)", "input NC1HWC0", "input_5hd", 1 << 20},
    {"B1 (L1)", "weights FRACTAL_Z", "b_fractal", 1 << 20},
    {"A2 (L0A)", "A fractals", "a_fractal", 64 << 10},
    {"B2 (L0B)", "B fractals", "b_fractal", 64 << 10},
    {"CO1 (L0C)", "C fractals (fp32)", "c_fractal", 256 << 10},
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
    Timeline timeline() const override { return {0, 3, kPlayRate, "stage"}; }
    void seek(double t) override {
        stage_ = target_ = std::clamp(float(t), 0.f, 3.f);
        playing_ = false;
    }
    void update(double dt) override {
        if (playing_) {
            target_ = std::min(3.0f, target_ + float(dt) * kPlayRate);
            if (target_ >= 3.0f) playing_ = false;
        }
        float d = target_ - stage_, step = float(dt) * 2.0f;
        stage_ = std::fabs(d) <= step ? target_ : stage_ + std::copysign(step, d);
    }
    void draw(AppContext& ctx) override;
    nlohmann::json save_settings() const override;
    void load_settings(const nlohmann::json& j) override;

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
    void controls();
    void stage_table();
    void buffer_diagram(ImVec2 size, bool dark);
    int64_t need_bytes(size_t i) const {
        const int64_t eb = kCaps[i].key == std::string("c_fractal") ? 4
                           : p_.dtype == DType::int8                ? 1
                                                                    : 2;
        return numel(shapes_.at(kCaps[i].key)) * eb;
    }

    exec::ConvParams p_;
    exec::ConvShapes shapes_;
    std::shared_ptr<Plan> plan_;
    render::PlanGpu gpu_;
    render::PlanView view_;
    std::string error_, run_msg_;
    nlohmann::json run_ = nullptr;            // the last real run, for --dump-view
    static constexpr float kPlayRate = 0.5f;  // stages per second while playing
    float stage_ = 0, target_ = 0;
    bool playing_ = false;
    nlohmann::json screen_ = nlohmann::json::object();
};

// ---- [settings] ----------------------------------------------------------------

nlohmann::json ConvPanel::save_settings() const {
    nlohmann::json shapes = nlohmann::json::object();
    for (const auto& s : shapes_.stages) shapes[s.key] = s.shape;
    return {{"n", p_.n},
            {"cin", p_.cin},
            {"cout", p_.cout},
            {"h", p_.h},
            {"w", p_.w},
            {"kh", p_.win.kh},
            {"kw", p_.win.kw},
            {"stride", p_.win.stride_h},
            {"dilation", p_.win.dil_h},
            {"pad", p_.win.pad_top},
            {"dtype", name(p_.dtype)},
            {"stage", target_},
            {"shapes", shapes},
            {"cube_ops", shapes_.cube_ops},
            {"result", run_},
            {"screen", screen_}};
}

void ConvPanel::load_settings(const nlohmann::json& j) {
    compute::SceneReader r(j, "conv");
    r.only({"n", "cin", "cout", "h", "w", "kh", "kw", "stride", "dilation", "pad", "dtype", "stage",
            "playing", "case_study", "run", "shapes", "cube_ops", "result"});
    bool cs = false, run = false;
    r.get("case_study", cs);
    exec::ConvParams p = cs ? exec::conv_case_study() : p_;
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
    p.win.stride_w = p.win.stride_h;
    p.win.dil_w = p.win.dil_h;
    p.win.pad_bottom = p.win.pad_left = p.win.pad_right = p.win.pad_top;
    if (r.has("dtype")) {
        std::string d;
        r.get("dtype", d);
        if (d != "fp16" && d != "int8") r.fail("dtype", j.at("dtype"), "\"fp16\" or \"int8\"");
        p.dtype = d == "int8" ? DType::int8 : DType::fp16;
    }
    try {
        p.validate();
    } catch (const UsageError& e) {
        throw UsageError(std::string("conv scene: ") + e.what());
    }
    p_ = p;
    rebuild();
    if (!error_.empty()) throw UsageError("conv scene: " + error_);
    r.get("stage", target_, 0.0f, 3.0f);
    stage_ = target_;
    r.get("playing", playing_);
    r.get("run", run);
    if (run) run_case();
}

// ---- [model] -------------------------------------------------------------------

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
    run_msg_.clear();
    run_ = nullptr;
}

void ConvPanel::run_case() {
    using clock = std::chrono::steady_clock;
    auto ms = [](clock::time_point a, clock::time_point b) {
        return std::chrono::duration<double, std::milli>(b - a).count();
    };
    try {
        exec::check_runnable(p_);
        std::mt19937 rng(1);
        const size_t nx = size_t(p_.n * p_.cin * p_.h * p_.w),
                     nw = size_t(p_.cout * p_.cin * p_.win.kh * p_.win.kw);
        double ms_pipe = 0, ms_direct = 0, err = 0;
        int64_t cube_ops = 0;
        if (p_.dtype == DType::int8) {
            std::uniform_int_distribution<int> d(-128, 127);
            std::vector<int8_t> x(nx), w(nw);
            for (auto& v : x) v = int8_t(d(rng));
            for (auto& v : w) v = int8_t(d(rng));
            const auto t0 = clock::now();
            exec::ConvResultI r = exec::conv_int8(p_, x, w);
            const auto t1 = clock::now();
            std::vector<int32_t> ref = exec::direct_conv_int8(p_, x, w);
            const auto t2 = clock::now();
            for (size_t i = 0; i < ref.size(); ++i)
                err = std::max(err, std::fabs(double(r.output[i]) - double(ref[i])));
            ms_pipe = ms(t0, t1);
            ms_direct = ms(t1, t2);
            cube_ops = r.shapes.cube_ops;
        } else {
            std::uniform_real_distribution<float> d(-1, 1);
            std::vector<float> x(nx), w(nw);
            for (auto& v : x) v = exec::round_to_half(d(rng));
            for (auto& v : w) v = exec::round_to_half(d(rng));
            const auto t0 = clock::now();
            exec::ConvResultF r = exec::conv_fp16(p_, x, w);
            const auto t1 = clock::now();
            std::vector<float> ref = exec::direct_conv(p_, x, w);
            const auto t2 = clock::now();
            for (size_t i = 0; i < ref.size(); ++i)
                err = std::max(err, double(std::fabs(r.output[i] - ref[i])));
            ms_pipe = ms(t0, t1);
            ms_direct = ms(t1, t2);
            cube_ops = r.shapes.cube_ops;
        }
        char buf[256];
        std::snprintf(buf, sizeof buf,
                      "ran on random %s data: pipeline %.1f ms, direct convolution %.1f ms, "
                      "max |difference| %.2g%s, %lld Cube steps",
                      name(p_.dtype), ms_pipe, ms_direct, err,
                      p_.dtype == DType::int8 ? " (int32, exact)" : "", (long long)cube_ops);
        run_msg_ = buf;
        run_ = {{"dtype", name(p_.dtype)},
                {"pipeline_ms", ms_pipe},
                {"direct_ms", ms_direct},
                {"max_abs_diff", err},
                {"cube_ops", cube_ops}};
    } catch (const UsageError& e) {
        run_msg_ = e.what();
        run_ = {{"error", e.what()}};
    }
}

// ---- [draw] --------------------------------------------------------------------

void ConvPanel::controls() {
    bool ch = false;
    auto field = [&](const char* label, int64_t& v) {
        if (labelled_int(label, v, 80)) ch = true;
    };
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("input");
    ImGui::SameLine();
    field("N", p_.n);
    ImGui::SameLine();
    field("Cin", p_.cin);
    ImGui::SameLine();
    field("H", p_.h);
    ImGui::SameLine();
    field("W", p_.w);
    ImGui::SameLine(0, 20);
    ImGui::TextUnformatted("weights");
    ImGui::SameLine();
    field("Cout", p_.cout);
    ImGui::SameLine();
    field("Kh", p_.win.kh);
    ImGui::SameLine();
    field("Kw", p_.win.kw);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("window");
    ImGui::SameLine();
    field("stride", p_.win.stride_h);
    ImGui::SameLine();
    field("dilation", p_.win.dil_h);
    ImGui::SameLine();
    field("pad", p_.win.pad_top);
    p_.win.stride_w = p_.win.stride_h;
    p_.win.dil_w = p_.win.dil_h;
    p_.win.pad_bottom = p_.win.pad_left = p_.win.pad_right = p_.win.pad_top;
    ImGui::SameLine(0, 20);
    bool int8 = p_.dtype == DType::int8;
    if (ImGui::Checkbox("int8 (else fp16)", &int8)) {
        p_.dtype = int8 ? DType::int8 : DType::fp16;
        ch = true;
    }
    ImGui::SameLine(0, 20);
    compute::wrap_for(ImGui::CalcTextSize("Case study (N10 Cin32 Cout64 28x28 3x3)").x + 20);
    if (ImGui::Button("Case study (N10 Cin32 Cout64 28x28 3x3)")) {
        p_ = exec::conv_case_study();
        ch = true;
    }
    ImGui::SameLine();
    compute::wrap_for(ImGui::CalcTextSize("Small example").x + 20);
    if (ImGui::Button("Small example")) {
        small();
        ch = true;
    }
    if (ch) rebuild();
}

void ConvPanel::stage_table() {
    if (ImGui::BeginTable("pipeline", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
        ImGui::TableSetupColumn("stage");
        ImGui::TableSetupColumn("shape");
        ImGui::TableHeadersRow();
        for (const auto& s : shapes_.stages) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(s.title.c_str());
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", s.note.c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(to_string(s.shape).c_str());
        }
        ImGui::EndTable();
    }
    ImGui::TextWrapped(
        "Cube loop K -> N -> M: K1 %lld x N1 %lld x M1 %lld = %lld fractal "
        "multiplications",
        (long long)shapes_.k1, (long long)shapes_.n1, (long long)shapes_.m1,
        (long long)shapes_.cube_ops);
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
        int cap;  // kCaps index of its buffer, -1 none
    };
    static const Box kBoxes[] = {
        {0, 0, "GM", "input NCHW", -1},          {1, 0, "A1 (L1)", "NC1HWC0", 0},
        {2, 0, "A2 (L0A)", "A fractals ZZ", 2},  {3, 0, "Cube", "Mmad K>N>M", -1},
        {4, 0, "CO1 (L0C)", "C fractals NZ", 4}, {5, 0, "GM", "output NCHW", -1},
        {0, 1, "GM", "weights OIHW", -1},        {1, 1, "B1 (L1)", "FRACTAL_Z", 1},
        {2, 1, "B2 (L0B)", "B fractals ZN", 3}};
    // A narrow window wraps a box's second line at its space ("input" /
    // "NCHW") and makes every box one line taller, instead of cutting it.
    bool wrap = false;
    for (const Box& b : kBoxes) wrap |= ImGui::CalcTextSize(b.sub).x > bw - 10;
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
            const double frac = double(need_bytes(size_t(cap))) / double(kCaps[cap].bytes);
            const float f = float(std::min(1.0, frac));
            dl->AddRectFilled(ImVec2(a.x, b.y - (bh - 2) * f), b, frac > 1 ? over : ok);
            char line[64];
            std::snprintf(line, sizeof line, "%.0f%%%s", frac * 100, frac > 1 ? " tile it" : "");
            const ImVec4 clip(a.x, a.y, b.x - 3, b.y);
            dl->AddText(nullptr, 0, ImVec2(a.x + 6, a.y + 4 + (wrap ? 3 : 2) * lh), text, line,
                        nullptr, 0, &clip);
            boxes[kCaps[cap].name] = {{"rect", rect_json(a, b)}, {"occupancy", frac}};
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
    for (const Box& b : kBoxes) box(b.col, b.row, b.title, b.sub, b.cap);
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
    dl->AddText(ImVec2(at(3, 1).x, at(3, 1).y + 4), text, "fill = share of the buffer the");
    dl->AddText(ImVec2(at(3, 1).x, at(3, 1).y + 4 + lh), text, "whole problem needs at once");
    screen_["buffers"] = boxes;
    ImGui::Dummy(ImVec2(size.x, 2 * row2));
}

void ConvPanel::draw(AppContext& ctx) {
    // space play/pause, left/right one feature-map stage, Home/End first/last.
    for (Key k : ctx.keys) {
        if (k == Key::space) {
            if (!playing_ && target_ >= 3.0f) stage_ = target_ = 0;
            playing_ = !playing_;
        } else {
            playing_ = false;
            target_ = k == Key::left    ? std::max(0.0f, std::ceil(target_) - 1)
                      : k == Key::right ? std::min(3.0f, std::floor(target_) + 1)
                      : k == Key::home  ? 0.0f
                                        : 3.0f;
        }
    }
    controls();
    screen_ = nlohmann::json::object();
    if (!error_.empty()) {
        ImGui::TextColored(compute::kErrColour, "%s", error_.c_str());
        return;
    }
    if (ImGui::Button("Run on real numbers")) run_case();
    ImGui::SameLine();
    ImGui::TextUnformatted(run_msg_.empty() ? "(runs the pipeline on random data and compares "
                                              "it with a direct convolution)"
                                            : run_msg_.c_str());

    const ImVec2 avail = ImGui::GetContentRegionAvail();
    ImGui::BeginChild("stages", ImVec2(avail.x * 0.34f, avail.y), true);
    stage_table();
    ImGui::Separator();
    ImGui::TextUnformatted("buffer occupancy (whole problem at once):");
    for (size_t i = 0; i < 5; ++i) {
        const double frac = double(need_bytes(i)) / double(kCaps[i].bytes);
        char label[96];
        std::snprintf(label, sizeof label, "%s / %s%s", human(double(need_bytes(i))).c_str(),
                      human(double(kCaps[i].bytes)).c_str(), frac > 1 ? "  -> tile it" : "");
        ImGui::Text("%-10s %s", kCaps[i].name, kCaps[i].holds);
        ImGui::ProgressBar(float(std::min(1.0, frac)), ImVec2(-1, 0), label);
    }
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginGroup();
    buffer_diagram(ImVec2(ImGui::GetContentRegionAvail().x, 0), ctx.dark_theme);
    ImGui::Separator();
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
        const char* names[] = {"NCHW %.2f", "NC1HWC0 %.2f", "img2col %.2f", "A fractals %.2f"};
        if (compute::labelled_float("feature map", target_, 0, 3,
                                    names[std::clamp(int(target_ + 0.5f), 0, 3)], 220))
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
