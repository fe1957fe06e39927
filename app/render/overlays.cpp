#include "app/render/overlays.hpp"

#include "app/render/grid_labels.hpp"

#include <algorithm>
#include <cmath>

#include "app/i18n/tr_text.hpp"

namespace ll::render {

namespace {

ImU32 with_alpha(ImU32 c, float a) {
    unsigned al = unsigned(float((c >> IM_COL32_A_SHIFT) & 0xFF) * std::clamp(a, 0.f, 1.f));
    return (c & ~IM_COL32_A_MASK) | (al << IM_COL32_A_SHIFT);
}

// Colours with a contrast of at least 4.5:1 against the canvas of each theme
// (dark canvas #16181c, light canvas #fafafa).
ImU32 accent(bool dark) {
    return dark ? IM_COL32(255, 200, 80, 255) : IM_COL32(170, 60, 0, 255);
}
ImU32 muted(bool dark) {
    return dark ? IM_COL32(170, 175, 185, 255) : IM_COL32(85, 88, 96, 255);
}

bool outside(const OverlayFrame& f, ImVec2 a, ImVec2 b) {
    return b.x < f.clip_min.x || a.x > f.clip_max.x || b.y < f.clip_min.y || a.y > f.clip_max.y;
}

}  // namespace

void draw_overlays(const OverlayFrame& f, const Stage& st) {
    ImDrawList* dl = f.dl;
    const float fs = ImGui::GetFontSize();
    for (const Box& b : st.boxes) {
        ImVec2 a = f.at(b.x, b.y), c = f.at(b.x + b.w, b.y + b.h);
        if (outside(f, a, c)) continue;
        bool strong = b.kind == Box::fractal || b.kind == Box::highlight || b.kind == Box::tile;
        ImU32 col =
            with_alpha(strong ? accent(f.dark) : muted(f.dark), f.alpha * (strong ? 0.9f : 0.7f));
        if (b.kind == Box::highlight)
            dl->AddRectFilled(a, c, with_alpha(accent(f.dark), f.alpha * 0.18f));
        dl->AddRect(a, c, col, 0, 0, strong ? 2.f : 1.f);
        const std::string label = tr_text(b.label);  // core's English, shown translated
        if (!label.empty() && (c.x - a.x) >= ImGui::CalcTextSize(label.c_str()).x * 0.5f)
            dl->AddText(ImVec2(a.x, a.y - fs - 1), col, label.c_str());
    }
    for (const Arrow& ar : st.arrows) {
        ImVec2 a = f.at(ar.x0, ar.y0), b = f.at(ar.x1, ar.y1);
        ImU32 col = with_alpha(accent(f.dark), f.alpha);
        dl->AddLine(a, b, col, 2.f);
        float dx = b.x - a.x, dy = b.y - a.y, len = std::sqrt(dx * dx + dy * dy);
        if (len > 1.f) {
            float ux = dx / len, uy = dy / len, h = std::min(10.f, len * 0.4f);
            dl->AddTriangleFilled(
                b, ImVec2(b.x - ux * h - uy * h * 0.5f, b.y - uy * h + ux * h * 0.5f),
                ImVec2(b.x - ux * h + uy * h * 0.5f, b.y - uy * h - ux * h * 0.5f), col);
        }
        if (!ar.label.empty())
            dl->AddText(ImVec2((a.x + b.x) / 2 + 4, (a.y + b.y) / 2 - fs), col,
                        tr_text(ar.label).c_str());
    }
    draw_labels(f, st, f.drawn);
}

void draw_highlight(const OverlayFrame& f, const std::vector<int64_t>& cells,
                    const std::function<Place(int64_t)>& place, size_t cap) {
    ImU32 col = with_alpha(accent(f.dark), f.alpha);
    float th = f.zoom >= 6 ? 2.f : 1.f;
    for (size_t i = 0; i < cells.size() && i < cap; ++i) {
        Place q = place(cells[i]);
        if (std::isnan(q.x)) continue;
        ImVec2 a = f.at(q.x, q.y), c = f.at(q.x + 1, q.y + 1);
        if (outside(f, a, c)) continue;
        f.dl->AddRect(a, c, col, 0, 0, th);
    }
}

}  // namespace ll::render
