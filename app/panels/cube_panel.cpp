// The Cube scene: a row of A fractals meets a column of B fractals and
// accumulates into one C fractal, one 16x16x16 (fp16) or 16x32x16 (int8)
// multiply per step, in the lecture's loop order K -> N -> M. Drawn with
// ImDrawList: A (ZZ, M1 x K1), B (ZN, K1 x N1), C (NZ, shown as M1 x N1);
// a C fractal darkens with every k it has accumulated.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "app/panels/panel.hpp"
#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core/exec/conv.hpp"
#include "core/exec/cube.hpp"
#include "core/exec/plans.hpp"

namespace ll::gui {

namespace {

class CubePanel : public Panel {
  public:
    CubePanel() { rebuild(); }
    const char* title() const override { return "Cube"; }
    bool busy() const override { return playing_; }
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
        return {{"m1", m1_}, {"k1", k1_}, {"n1", n1_}, {"int8", int8_}};
    }
    void load_settings(const nlohmann::json& j) override {
        auto get = [&](const char* key, int& v, int lo, int hi) {
            auto it = j.find(key);
            if (it == j.end()) return;
            if (!it->is_number_integer() || it->get<int>() < lo || it->get<int>() > hi)
                throw UsageError(std::string("Cube scene ") + key + " = " + it->dump() +
                                 "; expected " + std::to_string(lo) + ".." + std::to_string(hi));
            v = it->get<int>();
        };
        get("m1", m1_, 1, 4096);
        get("k1", k1_, 1, 4096);
        get("n1", n1_, 1, 4096);
        auto b = j.find("int8");
        if (b != j.end() && b->is_boolean()) int8_ = b->get<bool>();
        rebuild();
    }

  private:
    void rebuild() {
        steps_ = exec::cube_schedule(m1_, k1_, n1_);
        step_ = 0;
        playing_ = false;
    }

    int m1_ = 4, k1_ = 3, n1_ = 2;
    bool int8_ = false;
    std::vector<exec::CubeStep> steps_;
    double step_ = 0, rate_ = 4;
    bool playing_ = false;
};

void CubePanel::draw(AppContext& ctx) {
    bool ch = false;
    ImGui::SetNextItemWidth(100);
    ch |= ImGui::InputInt("M1 (A rows of fractals)", &m1_);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(100);
    ch |= ImGui::InputInt("K1", &k1_);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(100);
    ch |= ImGui::InputInt("N1", &n1_);
    ImGui::SameLine();
    ch |= ImGui::Checkbox("int8 (16x32x16)", &int8_);
    ImGui::SameLine();
    if (ImGui::Button("case study (490, 18, 4)")) {
        m1_ = 490;
        k1_ = 18;
        n1_ = 4;
        int8_ = false;
        ch = true;
        rate_ = 2000;
    }
    m1_ = std::clamp(m1_, 1, 4096);
    k1_ = std::clamp(k1_, 1, 4096);
    n1_ = std::clamp(n1_, 1, 4096);
    if (ch) rebuild();

    const auto total = int64_t(steps_.size());
    if (ImGui::Button(playing_ ? "Pause" : "Play")) {
        if (!playing_ && step_ >= double(total)) step_ = 0;
        playing_ = !playing_;
    }
    ImGui::SameLine();
    if (ImGui::Button("Step")) step_ = std::min(double(total), std::floor(step_) + 1);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(160);
    float r = float(rate_);
    if (ImGui::SliderFloat("steps/s", &r, 0.5f, 5000, "%.1f", ImGuiSliderFlags_Logarithmic))
        rate_ = r;
    const auto done = int64_t(std::floor(step_));
    const exec::CubeShape cs = exec::cube_shape(int8_ ? DType::int8 : DType::fp16);
    ImGui::SameLine();
    ImGui::Text("step %lld / %lld  (%lld MACs so far, %lldx%lldx%lld each)", (long long)done,
                (long long)total, (long long)(done * cs.m0 * cs.k0 * cs.n0), (long long)cs.m0,
                (long long)cs.k0, (long long)cs.n0);
    if (done < total) {
        const exec::CubeStep& s = steps_[size_t(done)];
        ImGui::Text(
            "for k = %lld (of %d)  ->  for n = %lld (of %d)  ->  for m = %lld (of %d):   "
            "C[n%lld][m%lld] %s A[m%lld][k%lld] x B[k%lld][n%lld]",
            (long long)s.k, k1_, (long long)s.n, n1_, (long long)s.m, m1_, (long long)s.n,
            (long long)s.m, s.first_k ? "=" : "+=", (long long)s.m, (long long)s.k, (long long)s.k,
            (long long)s.n);
    } else {
        ImGui::TextUnformatted("done: every C fractal holds the sum over all K1 fractal products");
    }

    // Layout: A at the left (M1 x K1), B above C (K1 x N1), C at the right (M1 x N1).
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 o = ImGui::GetCursorScreenPos(), avail = ImGui::GetContentRegionAvail();
    const float gap = 24;
    const float cols = float(k1_ + n1_), rows = float(k1_ + m1_);
    const float cell =
        std::max(0.5f, std::min((avail.x - gap * 2) / cols, (avail.y - gap * 2) / rows));
    const float ax = o.x, ay = o.y + float(k1_) * cell + gap;
    const float bx = o.x + float(k1_) * cell + gap, by = o.y;
    const float cx = bx, cy = ay;
    const ImU32 grid = ctx.dark_theme ? IM_COL32(90, 90, 100, 255) : IM_COL32(170, 170, 180, 255);
    const ImU32 hot = IM_COL32(255, 190, 60, 255);
    const bool lines = cell >= 4;
    // Accumulated k per C fractal, from the schedule (k outermost: all C fractals
    // with (n, m) visited at k < current k are complete for that k).
    auto acc = [&](int64_t n, int64_t m) {
        if (done >= total) return int64_t(k1_);
        const exec::CubeStep& s = steps_[size_t(done)];
        int64_t k = s.k;
        if (n < s.n || (n == s.n && m < s.m)) ++k;
        return k;
    };
    for (int m = 0; m < m1_; ++m)
        for (int k = 0; k < k1_; ++k) {
            ImVec2 a(ax + float(k) * cell, ay + float(m) * cell);
            dl->AddRectFilled(a, ImVec2(a.x + cell, a.y + cell), IM_COL32(70, 130, 200, 200));
            if (lines) dl->AddRect(a, ImVec2(a.x + cell, a.y + cell), grid);
        }
    for (int k = 0; k < k1_; ++k)
        for (int n = 0; n < n1_; ++n) {
            ImVec2 b(bx + float(n) * cell, by + float(k) * cell);
            dl->AddRectFilled(b, ImVec2(b.x + cell, b.y + cell), IM_COL32(80, 170, 110, 200));
            if (lines) dl->AddRect(b, ImVec2(b.x + cell, b.y + cell), grid);
        }
    for (int m = 0; m < m1_; ++m)
        for (int n = 0; n < n1_; ++n) {
            ImVec2 c(cx + float(n) * cell, cy + float(m) * cell);
            float t = float(acc(n, m)) / float(k1_);
            auto v = int(40 + 200 * t);
            dl->AddRectFilled(c, ImVec2(c.x + cell, c.y + cell), IM_COL32(v, v / 3, v / 2, 255));
            if (lines) dl->AddRect(c, ImVec2(c.x + cell, c.y + cell), grid);
        }
    if (done < total) {
        const exec::CubeStep& s = steps_[size_t(done)];
        auto box = [&](float x, float y, float w, float h) {
            dl->AddRect(ImVec2(x, y), ImVec2(x + w, y + h), hot, 0, 0,
                        std::max(1.5f, cell * 0.12f));
        };
        box(ax, ay + float(s.m) * cell, float(k1_) * cell, cell);  // the row of A
        box(bx + float(s.n) * cell, by, cell, float(k1_) * cell);  // the column of B
        box(ax + float(s.k) * cell, ay + float(s.m) * cell, cell, cell);
        box(bx + float(s.n) * cell, by + float(s.k) * cell, cell, cell);
        box(cx + float(s.n) * cell, cy + float(s.m) * cell, cell, cell);
    }
    dl->AddText(ImVec2(ax, ay - ImGui::GetTextLineHeight() - 2), grid, "A (ZZ): M1 x K1");
    dl->AddText(ImVec2(o.x, o.y), grid, "B (ZN): K1 x N1 ->");
    dl->AddText(ImVec2(cx + float(n1_) * cell + 6, cy), grid, "C (NZ)");
    ImGui::Dummy(ImVec2(avail.x, float(k1_ + m1_) * cell + gap));
}

}  // namespace

std::unique_ptr<Panel> make_cube_panel() {
    return std::make_unique<CubePanel>();
}

}  // namespace ll::gui
