#include "app/render/overlays.hpp"

#include "app/render/grid_labels.hpp"
#include "app/render/palette.hpp"

#include <algorithm>
#include <cmath>

#include "app/i18n/tr_text.hpp"

namespace ll::render {

namespace {

ImU32 with_alpha(ImU32 c, float a) {
    unsigned al = unsigned(float((c >> IM_COL32_A_SHIFT) & 0xFF) * std::clamp(a, 0.f, 1.f));
    return (c & ~IM_COL32_A_MASK) | (al << IM_COL32_A_SHIFT);
}

// Colours from the palette (app/render/palette.hpp), whose test keeps each
// at 4.5:1 or more against both themes' window, canvas and menu bar.
ImU32 accent(bool dark) {
    return ink(Role::accent, dark);
}
ImU32 muted(bool dark) {
    return ink(Role::dim, dark);
}
// The canvas behind the cells (plan_view.cpp paints it), for label plates.
ImU32 canvas(bool dark) {
    return packed(palette(dark)[Surface::canvas]);
}
// Marked cell sets by role: current in the accent, done and pinned in their own roles.
ImU32 role_colour(CellSet::Role r, bool dark) {
    switch (r) {
        case CellSet::done:
            return ink(Role::done, dark);
        case CellSet::pinned:
            return ink(Role::pinned, dark);
        case CellSet::current:
            break;
    }
    return accent(dark);
}

bool outside(const OverlayFrame& f, ImVec2 a, ImVec2 b) {
    return b.x < f.clip_min.x || a.x > f.clip_max.x || b.y < f.clip_min.y || a.y > f.clip_max.y;
}

// The line a-b with a gap wherever it crosses a drawn label (2 px around
// it): an arrow from a source cell down to its destination ran through the
// caption between the two strips and struck out its words.
void line_around_labels(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 col, float width,
                        const std::vector<DrawnLabel>& labels, size_t first) {
    std::vector<std::pair<float, float>> cut;  // parameter intervals inside a label
    const float dx = b.x - a.x, dy = b.y - a.y;
    for (size_t i = first; i < labels.size(); ++i) {
        const DrawnLabel& l = labels[i];
        float t0 = 0, t1 = 1;  // Liang-Barsky clip of the segment to the padded rectangle
        const float p[4] = {-dx, dx, -dy, dy};
        const float q[4] = {a.x - (l.x - 2), (l.x + l.w + 2) - a.x, a.y - (l.y - 2),
                            (l.y + l.h + 2) - a.y};
        bool in = true;
        for (int k = 0; k < 4 && in; ++k) {
            if (p[k] == 0) {
                in = q[k] >= 0;
            } else {
                const float r = q[k] / p[k];
                if (p[k] < 0)
                    t0 = std::max(t0, r);
                else
                    t1 = std::min(t1, r);
                in = t0 < t1;
            }
        }
        if (in) cut.push_back({t0, t1});
    }
    std::sort(cut.begin(), cut.end());
    float t = 0;
    auto at = [&](float s) { return ImVec2(a.x + dx * s, a.y + dy * s); };
    for (const auto& c : cut) {
        if (c.first > t) dl->AddLine(at(t), at(c.first), col, width);
        t = std::max(t, c.second);
    }
    if (t < 1) dl->AddLine(at(t), b, col, width);
}

}  // namespace

void draw_overlays(const OverlayFrame& f, const Stage& st) {
    ImDrawList* dl = f.dl;
    const float fs = ImGui::GetFontSize();
    // The grid labels first: a box's label that would cover one (a fractal
    // tag over a column tick) is left out; the stage's caption names it too.
    std::vector<DrawnLabel> local;
    std::vector<DrawnLabel>* drawn = f.drawn ? f.drawn : &local;
    const size_t first_label = drawn->size();
    draw_labels(f, st, drawn);
    auto covers_label = [&](ImVec2 p, ImVec2 ts) {
        for (size_t i = first_label; i < drawn->size(); ++i) {
            const DrawnLabel& d = (*drawn)[i];
            if (p.x < d.x + d.w && d.x < p.x + ts.x && p.y < d.y + d.h && d.y < p.y + ts.y)
                return true;
        }
        return false;
    };
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
        if (label.empty()) continue;
        const ImVec2 ts = ImGui::CalcTextSize(label.c_str()), tp(a.x, a.y - fs - 1);
        if ((c.x - a.x) >= ts.x * 0.5f && !covers_label(tp, ts))
            dl->AddText(tp, col, label.c_str());
    }
    for (const Arrow& ar : st.arrows) {
        ImVec2 a = f.at(ar.x0, ar.y0), b = f.at(ar.x1, ar.y1);
        ImU32 col = with_alpha(accent(f.dark), f.alpha);
        line_around_labels(dl, a, b, col, 2.f, *drawn, first_label);
        float dx = b.x - a.x, dy = b.y - a.y, len = std::sqrt(dx * dx + dy * dy);
        if (len > 1.f) {
            float ux = dx / len, uy = dy / len, h = std::min(10.f, len * 0.4f);
            dl->AddTriangleFilled(
                b, ImVec2(b.x - ux * h - uy * h * 0.5f, b.y - uy * h + ux * h * 0.5f),
                ImVec2(b.x - ux * h + uy * h * 0.5f, b.y - uy * h - ux * h * 0.5f), col);
        }
        if (!ar.label.empty()) {
            // On a plate: over cells of any colour the text stays readable.
            const std::string text = tr_text(ar.label);
            ImVec2 ts = ImGui::CalcTextSize(text.c_str());
            ImVec2 tp((a.x + b.x) / 2 + 4, (a.y + b.y) / 2 - fs);
            ImVec2 p0(tp.x - 3, tp.y - 1), p1(tp.x + ts.x + 3, tp.y + ts.y + 1);
            dl->AddRectFilled(p0, p1, with_alpha(canvas(f.dark), f.alpha * 0.88f), 3.f);
            dl->AddRect(p0, p1, with_alpha(col, 0.5f), 3.f);
            dl->AddText(tp, col, text.c_str());
        }
    }
}

namespace {

void outline_cells(const OverlayFrame& f, const std::vector<int64_t>& cells,
                   const std::function<Place(int64_t)>& place, size_t cap, ImU32 colour) {
    ImU32 col = with_alpha(colour, f.alpha);
    float th = f.zoom >= 6 ? 2.f : 1.f;
    for (size_t i = 0; i < cells.size() && i < cap; ++i) {
        Place q = place(cells[i]);
        if (std::isnan(q.x)) continue;
        ImVec2 a = f.at(q.x, q.y), c = f.at(q.x + 1, q.y + 1);
        if (outside(f, a, c)) continue;
        f.dl->AddRect(a, c, col, 0, 0, th);
    }
}

}  // namespace

void draw_highlight(const OverlayFrame& f, const std::vector<int64_t>& cells,
                    const std::function<Place(int64_t)>& place, size_t cap) {
    outline_cells(f, cells, place, cap, accent(f.dark));
}

void draw_cell_set(const OverlayFrame& f, const CellSet& set,
                   const std::function<Place(int64_t)>& place, size_t cap) {
    outline_cells(f, set.cells, place, cap, role_colour(set.role, f.dark));
}

}  // namespace ll::render
