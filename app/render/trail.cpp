#include "app/render/trail.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/i18n/tr.hpp"
#include "app/i18n/tr_text.hpp"
#include "core/format/narrate.hpp"

namespace ll::render {

namespace {

// Pin colours: 4.5:1 or better against each theme's canvas (#16181c dark,
// #fafafa light); the ring is drawn twice (dark under light) so it reads on
// any cell colour.
ImU32 pin_col(bool dark) {
    return dark ? IM_COL32(255, 255, 255, 255) : IM_COL32(10, 10, 10, 255);
}
ImU32 pin_under(bool dark) {
    return dark ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 255);
}
ImU32 ghost_col(bool dark, int a) {
    return dark ? IM_COL32(190, 200, 255, a) : IM_COL32(40, 60, 160, a);
}

void arrow(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 col, float th) {
    dl->AddLine(a, b, col, th);
    float dx = b.x - a.x, dy = b.y - a.y, len = std::sqrt(dx * dx + dy * dy);
    if (len < 2.f) return;
    float ux = dx / len, uy = dy / len, h = std::min(10.f, len * 0.4f);
    dl->AddTriangleFilled(b, ImVec2(b.x - ux * h - uy * h * 0.5f, b.y - uy * h + ux * h * 0.5f),
                          ImVec2(b.x - ux * h + uy * h * 0.5f, b.y - uy * h - ux * h * 0.5f), col);
}

void dashed_rect(ImDrawList* dl, ImVec2 a, ImVec2 c, ImU32 col, float th) {
    const float dash = 5.f;
    auto line = [&](ImVec2 p, ImVec2 q) {
        float dx = q.x - p.x, dy = q.y - p.y, len = std::sqrt(dx * dx + dy * dy);
        int n = std::max(1, int(len / (2 * dash)));
        for (int i = 0; i < n; ++i) {
            float s0 = float(2 * i) / float(2 * n), s1 = float(2 * i + 1) / float(2 * n);
            dl->AddLine(ImVec2(p.x + dx * s0, p.y + dy * s0), ImVec2(p.x + dx * s1, p.y + dy * s1),
                        col, th);
        }
    };
    line(a, ImVec2(c.x, a.y));
    line(ImVec2(c.x, a.y), c);
    line(c, ImVec2(a.x, c.y));
    line(ImVec2(a.x, c.y), a);
}

}  // namespace

ImVec2 draw_pinned(PlanGpu& gpu, int64_t cell, const PinFrame& f) {
    const Plan* p = gpu.plan();
    ImVec2 none(NAN, NAN);
    if (!p || cell < 0 || cell >= p->cell_count) return none;
    Place a = gpu.place(size_t(f.ka), cell), b = gpu.place(size_t(f.kb), cell);
    if (std::isnan(a.x) && std::isnan(b.x)) return none;
    if (std::isnan(a.x)) a = b;
    if (std::isnan(b.x)) b = a;
    float x = a.x + (b.x - a.x) * f.tt, y = a.y + (b.y - a.y) * f.tt;
    // Ghost of the stage before the one in view: at rest on stage k it is
    // stage k-1; while gliding k -> k+1 it is stage k (where cells leave).
    int kg = f.ka == f.kb ? f.ka - 1 : f.ka;
    const float fs = ImGui::GetFontSize();
    ImVec2 now0 = f.at(x, y), now1 = f.at(x + 1, y + 1);
    ImVec2 now((now0.x + now1.x) / 2, (now0.y + now1.y) / 2);
    if (kg >= 0) {
        const Stage& gs = p->stages[size_t(kg)];
        Extent e = grid_extent(gs.grid);
        ImVec2 g0 = f.at(0, 0), g1 = f.at(e.w, e.h);
        f.dl->AddRect(g0, g1, ghost_col(f.dark, 110), 0, 0, 1.5f);
        char buf[96];
        std::snprintf(buf, sizeof buf, tr("ghost: stage %d %s"), kg, tr_text(gs.label).c_str());
        const ImVec2 ts = ImGui::CalcTextSize(buf);
        // Under the outline (its left end, else its right), else over it:
        // wherever no grid label stands (under the left end it covered the
        // next block's tag in the conv map); nowhere free, no label.
        auto free_at = [&](ImVec2 q) {
            if (!f.avoid) return true;
            for (const DrawnLabel& l : *f.avoid)
                if (q.x - 2 < l.x + l.w && l.x < q.x + ts.x + 2 && q.y - 1 < l.y + l.h &&
                    l.y < q.y + ts.y + 1)
                    return false;
            return true;
        };
        if (f.ghost_label) *f.ghost_label = ImVec4(NAN, NAN, NAN, NAN);
        for (ImVec2 tp : {ImVec2(g0.x, g1.y + 2), ImVec2(g1.x - ts.x, g1.y + 2),
                          ImVec2(g0.x, g0.y - ts.y - 2), ImVec2(g1.x - ts.x, g0.y - ts.y - 2)}) {
            if (!free_at(tp)) continue;
            f.dl->AddRectFilled(ImVec2(tp.x - 2, tp.y - 1),
                                ImVec2(tp.x + ts.x + 2, tp.y + ts.y + 1),
                                pin_under(f.dark) & 0xD0FFFFFF, 3.f);
            f.dl->AddText(tp, ghost_col(f.dark, 255), buf);
            if (f.ghost_label) *f.ghost_label = ImVec4(tp.x, tp.y, tp.x + ts.x, tp.y + ts.y);
            break;
        }
        Place g = gpu.place(size_t(kg), cell);
        if (!std::isnan(g.x)) {
            ImVec2 q0 = f.at(g.x, g.y), q1 = f.at(g.x + 1, g.y + 1);
            dashed_rect(f.dl, q0, q1, ghost_col(f.dark, 230), 2.f);
            ImVec2 from((q0.x + q1.x) / 2, (q0.y + q1.y) / 2);
            float dx = now.x - from.x, dy = now.y - from.y;
            if (dx * dx + dy * dy > f.zoom * f.zoom)
                arrow(f.dl, from, now, ghost_col(f.dark, 200), 2.f);
        }
    }
    float r = std::max(f.zoom * 0.5f + 3.f, 6.f);
    f.dl->AddCircle(now, r, pin_under(f.dark), 0, 5.f);
    f.dl->AddCircle(now, r, pin_col(f.dark), 0, 2.5f);
    // The tag beside the ring, on a plate so it reads over any cell.
    const char* tag = p->src[size_t(cell)] >= 0 ? tr("pinned") : tr("pinned (padding)");
    ImVec2 ts = ImGui::CalcTextSize(tag), tp(now.x + r + 4, now.y - fs / 2);
    f.dl->AddRectFilled(ImVec2(tp.x - 2, tp.y - 1), ImVec2(tp.x + ts.x + 2, tp.y + ts.y + 1),
                        pin_under(f.dark) & 0xD0FFFFFF, 3.f);
    f.dl->AddText(tp, pin_col(f.dark), tag);
    return now;
}

std::vector<TrailMark> draw_trail_strip(PlanGpu& gpu, int64_t cell, float stage, ImVec2 size,
                                        bool dark) {
    std::vector<TrailMark> out;
    const Plan* p = gpu.plan();
    ImVec2 o = ImGui::GetCursorScreenPos();
    ImGui::Dummy(size);
    if (!p || p->stages.empty() || cell < 0 || cell >= p->cell_count) return out;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const size_t n = p->stages.size();
    const float fs = ImGui::GetFontSize(), gap = std::max(14.f, fs);
    const float fw = (size.x - gap * float(n - 1)) / float(n);
    const float fh = size.y - fs - 6;
    if (fw < 8 || fh < 8) return out;
    const auto& cols = gpu.small_colours();
    const bool cells = !cols.empty() && p->cell_count <= 8192;
    const int here = int(std::lround(stage));
    ImU32 frame_col = dark ? IM_COL32(120, 124, 135, 255) : IM_COL32(110, 112, 120, 255);
    ImU32 ink = dark ? IM_COL32(225, 228, 235, 255) : IM_COL32(30, 32, 38, 255);
    ImU32 accent = dark ? IM_COL32(255, 200, 80, 255) : IM_COL32(170, 60, 0, 255);
    for (size_t k = 0; k < n; ++k) {
        const Stage& st = p->stages[k];
        TrailMark m;
        m.stage = int(k);
        m.frame_min = ImVec2(o.x + float(k) * (fw + gap), o.y);
        m.frame_max = ImVec2(m.frame_min.x + fw, o.y + fh);
        bool cur = int(k) == here;
        dl->AddRectFilled(m.frame_min, m.frame_max,
                          dark ? IM_COL32(30, 32, 38, 255) : IM_COL32(242, 242, 244, 255));
        dl->AddRect(m.frame_min, m.frame_max, cur ? accent : frame_col, 0, 0, cur ? 2.5f : 1.f);
        Extent e = grid_extent(st.grid);
        float pad = 4;
        m.scale =
            std::min((fw - 2 * pad) / std::max(e.w, 1.f), (fh - 2 * pad) / std::max(e.h, 1.f));
        m.grid_origin = ImVec2(m.frame_min.x + (fw - e.w * m.scale) / 2,
                               m.frame_min.y + (fh - e.h * m.scale) / 2);
        auto at = [&](float x, float y) {
            return ImVec2(m.grid_origin.x + x * m.scale, m.grid_origin.y + y * m.scale);
        };
        dl->PushClipRect(m.frame_min, m.frame_max, true);
        if (cells) {  // the stage's cells in their colours, small
            for (int64_t i = 0; i < p->cell_count; ++i) {
                Place q = gpu.place(k, i);
                if (std::isnan(q.x)) continue;
                const Rgba8& c = cols[size_t(i)];
                ImU32 col = c[3] == 0
                                ? (dark ? IM_COL32(60, 60, 68, 255) : IM_COL32(200, 200, 205, 255))
                                : IM_COL32(c[0], c[1], c[2], 255);
                dl->AddRectFilled(at(q.x, q.y), at(q.x + 1, q.y + 1), col);
            }
        } else {
            dl->AddRect(at(0, 0), at(e.w, e.h), frame_col);
        }
        m.offset = offset_at_stage(*p, k, cell);
        m.place = gpu.place(k, cell);
        ImVec2 c(NAN, NAN);
        if (!std::isnan(m.place.x)) {
            ImVec2 a = at(m.place.x, m.place.y), b = at(m.place.x + 1, m.place.y + 1);
            c = ImVec2((a.x + b.x) / 2, (a.y + b.y) / 2);
            // Crosshair from the frame's edges to the ring (the cell itself stays
            // visible), so row and column read off at a glance.
            float r = std::max(4.f, m.scale * 0.5f + 2.f);
            ImU32 hair = dark ? IM_COL32(255, 255, 255, 110) : IM_COL32(0, 0, 0, 110);
            dl->AddLine(ImVec2(m.frame_min.x, c.y), ImVec2(c.x - r, c.y), hair);
            dl->AddLine(ImVec2(c.x + r, c.y), ImVec2(m.frame_max.x, c.y), hair);
            dl->AddLine(ImVec2(c.x, m.frame_min.y), ImVec2(c.x, c.y - r), hair);
            dl->AddLine(ImVec2(c.x, c.y + r), ImVec2(c.x, m.frame_max.y), hair);
            dl->AddCircle(c, r, pin_under(dark), 0, 4.f);
            dl->AddCircle(c, r, pin_col(dark), 0, 2.f);
        }
        dl->PopClipRect();
        char buf[80];
        std::snprintf(buf, sizeof buf, "%zu %s", k, tr_text(st.label).c_str());
        ImVec2 ts = ImGui::CalcTextSize(buf);
        float tx = m.frame_min.x + std::max(0.f, (fw - ts.x) / 2);
        dl->PushClipRect(ImVec2(m.frame_min.x, o.y), ImVec2(m.frame_max.x, o.y + size.y), true);
        dl->AddText(ImVec2(tx, m.frame_max.y + 3), cur ? accent : ink, buf);
        dl->PopClipRect();
        if (k > 0) {  // an arrow from one frame to the next
            float y = o.y + fh / 2;
            arrow(dl, ImVec2(m.frame_min.x - gap + 2, y), ImVec2(m.frame_min.x - 2, y), ink, 1.5f);
        }
        out.push_back(m);
    }
    return out;
}

}  // namespace ll::render
