// The Cube scene: a row of A fractals meets a column of B fractals and
// accumulates into one C fractal, one 16x16x16 (fp16) or 16x32x16 (int8)
// multiply per step, in the lecture's loop order K -> N -> M. Drawn with
// ImDrawList: A (ZZ, M1 x K1), B (ZN, K1 x N1), C (NZ, shown as M1 x N1);
// a C fractal brightens with every k it has accumulated. At the left the
// loop nest with the current indices, and the step counter.
//
// Sections: [settings] scene file in/out, [draw] controls, loop nest, the
// three matrices of fractals.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "app/panels/compute_widgets.hpp"
#include "app/panels/panel.hpp"
#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core/exec/conv.hpp"
#include "core/exec/cube.hpp"
#include "core/exec/plans.hpp"

namespace ll::gui {

namespace {

using compute::labelled_int;
using compute::rect_json;

const ImU32 kHot = IM_COL32(255, 200, 40, 255);

// Real numbers through the Cube: A and B fractals filled with small integers
// (exact in fp16 and int8), C accumulated step by step with the core's own
// fractal kernel (exec::mmad_fractal), so the panel shows the values a C
// fractal holds before and after the current step. Stepping forward applies
// only the new steps; stepping back replays from zero.
// A fixed pseudo-random integer per index (Knuth's multiplicative hash).
inline uint64_t mix(uint64_t i) {
    return (i * 2654435761u) >> 7;
}

template <class T, class Acc>
struct CubeValues {
    int64_t m1 = 0, k1 = 0, n1 = 0, k0 = 16, applied = 0;
    std::vector<T> a, bt;  // A fractals [m][k]; B fractals [k][n] transposed to [K0][16]
    std::vector<Acc> c;    // C fractals [n][m], 16x16 each
    void reset(int64_t m, int64_t k, int64_t n, int64_t kk) {
        m1 = m, k1 = k, n1 = n, k0 = kk, applied = 0;
        const int64_t fa = 16 * k0;
        a.resize(size_t(m1 * k1 * fa));
        for (size_t i = 0; i < a.size(); ++i) a[i] = T(int64_t(mix(i) % 7) - 3);
        bt.resize(size_t(k1 * n1 * fa));
        std::vector<T> b(static_cast<size_t>(fa), T(0));
        for (int64_t f = 0; f < k1 * n1; ++f) {
            for (int64_t e = 0; e < fa; ++e)
                b[size_t(e)] = T(int64_t(mix(uint64_t(f * fa + e) + 12345) % 5) - 2);
            auto t = exec::transpose_b_fractal(b.data(), k0);
            std::copy(t.begin(), t.end(), bt.begin() + f * fa);
        }
        c.assign(size_t(n1 * m1 * 256), Acc(0));
    }
    void step(const exec::CubeStep& s, Acc* out) const {
        exec::mmad_fractal(&a[size_t(s.a * 16 * k0)], &bt[size_t(s.b * 16 * k0)], out, k0);
    }
    // Brings C to the state after `n` steps of `sched`.
    void advance(const std::vector<exec::CubeStep>& sched, int64_t n) {
        if (n < applied) {
            std::fill(c.begin(), c.end(), Acc(0));
            applied = 0;
        }
        for (; applied < n; ++applied) {
            const auto& s = sched[size_t(applied)];
            step(s, &c[size_t(s.c * 256)]);
        }
    }
};

class CubePanel : public Panel {
  public:
    CubePanel() { rebuild(); }
    const char* title() const override { return "Cube"; }
    bool busy() const override { return playing_; }
    Timeline timeline() const override { return {0, double(steps_.size()), rate_, "step"}; }
    void seek(double t) override {
        step_ = std::clamp(t, 0.0, double(steps_.size()));
        playing_ = false;
    }
    void update(double dt) override {
        if (!playing_) return;
        step_ += dt * rate_;
        if (step_ >= double(steps_.size())) {
            step_ = double(steps_.size());
            playing_ = false;
        }
    }
    void draw(AppContext& ctx) override;
    nlohmann::json save_settings() const override {
        return {{"m1", m1_},        {"k1", k1_},
                {"n1", n1_},        {"int8", int8_},
                {"step", done()},   {"steps", int64_t(steps_.size())},
                {"rate", rate_},    {"values", shown_values_},
                {"screen", screen_}};
    }
    void load_settings(const nlohmann::json& j) override {
        compute::SceneReader r(j, "Cube");
        r.only(
            {"m1", "k1", "n1", "int8", "step", "steps", "rate", "playing", "case_study", "values"});
        bool cs = false;
        r.get("case_study", cs);
        if (cs) case_study();
        r.get("m1", m1_, 1, 4096);
        r.get("k1", k1_, 1, 4096);
        r.get("n1", n1_, 1, 4096);
        r.get("int8", int8_);
        rebuild();
        int64_t s = 0;
        r.get("step", s, 0, int64_t(steps_.size()));
        step_ = double(s);
        float rate = float(rate_);
        r.get("rate", rate, 0.5f, 5000.0f);
        rate_ = rate;
        r.get("playing", playing_);
    }

  private:
    int64_t done() const { return int64_t(std::floor(step_)); }
    void rebuild() {
        steps_ = exec::cube_schedule(m1_, k1_, n1_);
        step_ = 0;
        playing_ = false;
        // Values for problems up to the case study's size (about 10 MB).
        values_ = int64_t(m1_) * k1_ + int64_t(k1_) * n1_ + int64_t(n1_) * m1_ <= 20000;
        if (!values_) return;
        if (int8_)
            vi_.reset(m1_, k1_, n1_, 32);
        else
            vf_.reset(m1_, k1_, n1_, 16);
    }
    void values();
    void case_study() {
        // The lecture's convolution: M1 = N*ceil(HoWo/16), K1 = C1*Kh*Kw, N1 = ceil(Cout/16).
        const exec::ConvShapes s = exec::conv_shapes(exec::conv_case_study());
        m1_ = int(s.m1);
        k1_ = int(s.k1);
        n1_ = int(s.n1);
        int8_ = false;
        rate_ = 2000;
    }
    void controls();
    void loop_nest();

    int m1_ = 4, k1_ = 3, n1_ = 2;
    bool int8_ = false;
    std::vector<exec::CubeStep> steps_;
    CubeValues<float, float> vf_;     // fp16 data (small integers), fp32 accumulation
    CubeValues<int8_t, int32_t> vi_;  // int8 data, int32 accumulation
    bool values_ = false;
    nlohmann::json shown_values_ = nullptr;  // for --dump-view
    double step_ = 0, rate_ = 4;
    bool playing_ = false;
    nlohmann::json screen_ = nlohmann::json::object();
};

void CubePanel::controls() {
    bool ch = false;
    auto field = [&](const char* label, int& v) {
        int64_t x = v;
        if (labelled_int(label, x, 90)) {
            v = int(std::clamp<int64_t>(x, 1, 4096));
            ch = true;
        }
    };
    field("M1 (A fractal rows)", m1_);
    ImGui::SameLine(0, 16);
    field("K1", k1_);
    ImGui::SameLine(0, 16);
    field("N1 (B fractal columns)", n1_);
    ImGui::SameLine(0, 16);
    ch |= ImGui::Checkbox("int8 (16x32x16 per step)", &int8_);
    ImGui::SameLine(0, 16);
    if (ImGui::Button("Case study (490 x 18 x 4)")) {
        case_study();
        ch = true;
    }
    ImGui::SameLine();
    if (ImGui::Button("Small example")) {
        m1_ = 4;
        k1_ = 3;
        n1_ = 2;
        rate_ = 4;
        ch = true;
    }
    if (ch) rebuild();

    const auto total = int64_t(steps_.size());
    if (ImGui::Button(playing_ ? "Pause" : "Play")) {
        if (!playing_ && step_ >= double(total)) step_ = 0;
        playing_ = !playing_;
    }
    ImGui::SameLine();
    if (ImGui::Button("Step")) step_ = std::min(double(total), std::floor(step_) + 1);
    ImGui::SameLine();
    if (ImGui::Button("Reset")) step_ = 0;
    ImGui::SameLine(0, 16);
    float r = float(rate_);
    if (compute::labelled_float("steps/s", r, 0.5f, 5000, "%.1f", 160)) rate_ = r;
}

void CubePanel::loop_nest() {
    const auto total = int64_t(steps_.size());
    const int64_t d = done();
    const exec::CubeShape cs = exec::cube_shape(int8_ ? DType::int8 : DType::fp16);
    ImGui::Text("step %lld / %lld", (long long)d, (long long)total);
    ImGui::Text("%lld MACs so far", (long long)(d * cs.m0 * cs.k0 * cs.n0));
    ImGui::Text("(%lldx%lldx%lld per step)", (long long)cs.m0, (long long)cs.k0, (long long)cs.n0);
    ImGui::Separator();
    ImGui::TextUnformatted("loop order K -> N -> M:");
    const bool live = d < total;
    const exec::CubeStep s = live ? steps_[size_t(d)] : exec::CubeStep{};
    const ImVec4 on(1.0f, 0.78f, 0.16f, 1.0f);
    auto line = [&](const char* fmt, long long v, long long n) {
        if (live)
            ImGui::TextColored(on, fmt, v, n);
        else
            ImGui::TextDisabled(fmt, v, n);
    };
    line("for k = %lld  (of %lld)", (long long)s.k, (long long)k1_);
    line("  for n = %lld  (of %lld)", (long long)s.n, (long long)n1_);
    line("    for m = %lld  (of %lld)", (long long)s.m, (long long)m1_);
    if (live) {
        ImGui::Text("      C[n%lld][m%lld] %s", (long long)s.n, (long long)s.m,
                    s.first_k ? "=" : "+=");
        ImGui::Text("        A[m%lld][k%lld] x B[k%lld][n%lld]", (long long)s.m, (long long)s.k,
                    (long long)s.k, (long long)s.n);
        ImGui::Separator();
        ImGui::TextWrapped(
            "A fractal %lld (ZZ), B fractal %lld (ZN) -> C fractal %lld (NZ), "
            "%lld of %d partial products summed after this step",
            (long long)s.a, (long long)s.b, (long long)s.c, (long long)(s.k + 1), k1_);
    } else {
        ImGui::TextWrapped("done: every C fractal holds the sum over all K1 fractal products");
    }
    values();
    ImGui::Separator();
    ImGui::TextDisabled("space play/pause, left/right step, Home/End");
    ImGui::TextWrapped(
        "K outermost: B[k][n] stays in L0B while m sweeps A's column k; each C "
        "fractal is revisited once per k and stays in L0C until k ends.");
}

// The current C fractal's first row before and after this step, on real
// numbers computed by the core's fractal kernel.
void CubePanel::values() {
    shown_values_ = nullptr;
    const int64_t d = done(), total = int64_t(steps_.size());
    if (!values_ || d >= total) return;
    const exec::CubeStep& s = steps_[size_t(d)];
    std::vector<double> before(16), after(16);
    auto take = [&](auto& v) {
        v.advance(steps_, d);
        using Acc = typename std::decay_t<decltype(v.c)>::value_type;
        std::vector<Acc> c(v.c.begin() + s.c * 256, v.c.begin() + (s.c + 1) * 256);
        for (int i = 0; i < 16; ++i) before[size_t(i)] = double(c[size_t(i)]);
        v.step(s, c.data());
        for (int i = 0; i < 16; ++i) after[size_t(i)] = double(c[size_t(i)]);
    };
    if (int8_)
        take(vi_);
    else
        take(vf_);
    ImGui::Separator();
    ImGui::TextWrapped("real values (small integers in A and B), C[n%lld][m%lld] row 0:",
                       (long long)s.n, (long long)s.m);
    auto row = [&](const char* what, const std::vector<double>& v) {
        std::string t;
        for (int i = 0; i < 6; ++i) t += std::to_string(std::lround(v[size_t(i)])) + " ";
        ImGui::Text("%-7s %s...", what, t.c_str());
    };
    row("before", before);
    row("after", after);
    shown_values_ = {{"c_fractal", s.c}, {"before", before}, {"after", after}};
}

void CubePanel::draw(AppContext& ctx) {
    // space play/pause, left/right one step, Home/End first/last step.
    for (Key k : ctx.keys) {
        const auto total = double(steps_.size());
        if (k == Key::space) {
            if (!playing_ && step_ >= total) step_ = 0;
            playing_ = !playing_;
        } else {
            playing_ = false;
            step_ = k == Key::left    ? std::max(0.0, std::floor(step_) - 1)
                    : k == Key::right ? std::min(total, std::floor(step_) + 1)
                    : k == Key::home  ? 0.0
                                      : total;
        }
    }
    controls();
    const auto total = int64_t(steps_.size());
    const int64_t done = this->done();
    const ImVec2 avail0 = ImGui::GetContentRegionAvail();
    const float side = std::min(360.0f, avail0.x * 0.3f);
    ImGui::BeginChild("loops", ImVec2(side, avail0.y), true);
    loop_nest();
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginGroup();
    // Layout: A at the left (M1 x K1), B above C (K1 x N1), C at the right (M1 x N1).
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float label_h = ImGui::GetTextLineHeightWithSpacing();
    const ImVec2 o0 = ImGui::GetCursorScreenPos(), avail = ImGui::GetContentRegionAvail();
    const ImVec2 o(o0.x, o0.y + label_h);
    const float gap = 24;
    // One size `cw` for k and n (A's columns, B's rows and columns, C's
    // columns), another `ch` for m (rows of A and C), so a tall problem like
    // the case study (M1 = 490) keeps readable K and N.
    const float avail_h = avail.y - label_h - gap * 2;
    const float cw = std::max(1.0f, std::min({(avail.x - gap * 2 - 130) / float(k1_ + n1_),
                                              avail_h * 0.4f / float(k1_), 48.0f}));
    const float ch = std::max(0.5f, std::min(cw, (avail_h - float(k1_) * cw) / float(m1_)));
    const float ax = o.x, ay = o.y + float(k1_) * cw + gap;
    const float bx = o.x + float(k1_) * cw + gap, by = o.y;
    const float cx = bx, cy = ay;
    const ImU32 grid = ctx.dark_theme ? IM_COL32(90, 90, 100, 255) : IM_COL32(170, 170, 180, 255);
    const ImU32 text = ctx.dark_theme ? IM_COL32(220, 220, 225, 255) : IM_COL32(30, 30, 40, 255);
    const bool lines = ch >= 4;
    // Accumulated k per C fractal, from the schedule (k outermost: all C fractals
    // with (n, m) visited at k < current k are complete for that k).
    auto acc = [&](int64_t n, int64_t m) {
        if (done >= total) return int64_t(k1_);
        const exec::CubeStep& s = steps_[size_t(done)];
        int64_t k = s.k;
        if (n < s.n || (n == s.n && m < s.m)) ++k;
        return k;
    };
    auto cell = [&](float x, float y, float w, float h, ImU32 fill) {
        dl->AddRectFilled(ImVec2(x, y), ImVec2(x + w, y + h), fill);
        if (lines) dl->AddRect(ImVec2(x, y), ImVec2(x + w, y + h), grid);
    };
    for (int m = 0; m < m1_; ++m)
        for (int k = 0; k < k1_; ++k)
            cell(ax + float(k) * cw, ay + float(m) * ch, cw, ch, IM_COL32(70, 130, 200, 255));
    for (int k = 0; k < k1_; ++k)
        for (int n = 0; n < n1_; ++n)
            cell(bx + float(n) * cw, by + float(k) * cw, cw, cw, IM_COL32(80, 170, 110, 255));
    for (int m = 0; m < m1_; ++m)
        for (int n = 0; n < n1_; ++n) {
            const auto v = int(40 + 200 * float(acc(n, m)) / float(k1_));
            cell(cx + float(n) * cw, cy + float(m) * ch, cw, ch, IM_COL32(v, v / 3, v / 2, 255));
        }
    if (!lines && cw >= 4) {  // rows too thin for a grid: still show the fractal columns
        for (int k = 0; k <= k1_; ++k)
            dl->AddLine(ImVec2(ax + float(k) * cw, ay),
                        ImVec2(ax + float(k) * cw, cy + float(m1_) * ch), grid);
        for (int n = 0; n <= n1_; ++n)
            dl->AddLine(ImVec2(cx + float(n) * cw, cy),
                        ImVec2(cx + float(n) * cw, cy + float(m1_) * ch), grid);
    }
    screen_ = {
        {"cell_w", cw},
        {"cell_h", ch},
        {"a", rect_json(ImVec2(ax, ay), ImVec2(ax + float(k1_) * cw, ay + float(m1_) * ch))},
        {"b", rect_json(ImVec2(bx, by), ImVec2(bx + float(n1_) * cw, by + float(k1_) * cw))},
        {"c", rect_json(ImVec2(cx, cy), ImVec2(cx + float(n1_) * cw, cy + float(m1_) * ch))}};
    if (done < total) {
        const exec::CubeStep& s = steps_[size_t(done)];
        const float th = std::max(2.0f, std::min(cw, ch) * 0.12f);
        auto box = [&](const char* key, float x, float y, float w, float h) {
            dl->AddRect(ImVec2(x, y), ImVec2(x + w, y + h), kHot, 0, 0, th);
            if (key) screen_[key] = rect_json(ImVec2(x, y), ImVec2(x + w, y + h));
        };
        const float hh = std::max(ch, 3.0f);  // a 1-pixel row still shows its frame
        box("a_row", ax, ay + float(s.m) * ch, float(k1_) * cw, hh);
        box("b_column", bx + float(s.n) * cw, by, cw, float(k1_) * cw);
        box(nullptr, ax + float(s.k) * cw, ay + float(s.m) * ch, cw, hh);
        box(nullptr, bx + float(s.n) * cw, by + float(s.k) * cw, cw, cw);
        box("c_fractal", cx + float(s.n) * cw, cy + float(s.m) * ch, cw, hh);
    }
    dl->AddText(ImVec2(ax, ay - label_h), text, "A (ZZ): M1 x K1");
    dl->AddText(ImVec2(bx, o0.y), text, "B (ZN): K1 x N1");
    const float tx = cx + float(n1_) * cw + 6;
    dl->AddText(ImVec2(tx, cy), text, "C (NZ): M1 x N1");
    dl->AddText(ImVec2(tx, cy + label_h), text, "brighter =");
    dl->AddText(ImVec2(tx, cy + 2 * label_h), text, "more k summed");
    ImGui::Dummy(ImVec2(avail.x, float(k1_) * cw + float(m1_) * ch + gap + label_h));
    ImGui::EndGroup();
}

}  // namespace

std::unique_ptr<Panel> make_cube_panel() {
    return std::make_unique<CubePanel>();
}

}  // namespace ll::gui
