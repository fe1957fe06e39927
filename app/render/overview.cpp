#include "app/render/overview.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/render/palette.hpp"

namespace ll::render {

namespace {

// The colour of the cell at grid place (x, y) of stage k; alpha 0: no cell
// there, 1: padding.
Colour colour_at(PlanGpu& gpu, int k, float x, float y) {
    const Plan& p = *gpu.plan();
    int64_t off = offset_at(p.stages[size_t(k)].grid, x, y);
    if (off < 0) return {0, 0, 0, 0};
    int64_t cell = gpu.cell_at(size_t(k), off);
    if (cell < 0 || cell >= p.cell_count) return {0, 0, 0, 0};
    if (p.src[size_t(cell)] < 0) return {0, 0, 0, 1};
    Rgba8 c = cell_colour(p, gpu.colour_mode(), cell, fractal_elems(p.dtype));
    return {c[0], c[1], c[2], 255};
}

Colour pad_colour(bool dark) {
    return dark ? Colour{51, 51, 59, 255} : Colour{204, 204, 209, 255};
}

}  // namespace

bool draw_overview(PlanView& view, PlanGpu& gpu, int k, bool dark) {
    const Plan* p = gpu.plan();
    if (!p || k < 0 || size_t(k) >= p->stages.size()) return false;
    const Extent e = grid_extent(p->stages[size_t(k)].grid);
    const Camera& cam = view.camera();
    const ImVec2 o = view.origin(), sz = view.canvas_size();
    const float vx0 = cam.pan_x, vy0 = cam.pan_y;
    const float vx1 = vx0 + sz.x / cam.zoom, vy1 = vy0 + sz.y / cam.zoom;
    // Shown only when part of the stage is out of view.
    if (vx0 <= 0 && vy0 <= 0 && vx1 >= e.w && vy1 >= e.h) return false;
    if (e.w <= 0 || e.h <= 0 || sz.x < 120 || sz.y < 120) return false;
    const float box = std::min(sz.x, sz.y) * 0.26f;
    const float s = box / std::max(e.w, e.h);
    const ImVec2 mm(e.w * s, e.h * s);
    const float pad = 8;
    const ImVec2 a(o.x + sz.x - mm.x - pad, o.y + sz.y - mm.y - pad), b(a.x + mm.x, a.y + mm.y);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->PushClipRect(o, ImVec2(o.x + sz.x, o.y + sz.y), true);
    const Palette& pal = palette(dark);
    dl->AddRectFilled(ImVec2(a.x - 3, a.y - 3), ImVec2(b.x + 3, b.y + 3),
                      packed(pal[Surface::canvas], 0.92f));
    // A thumbnail of up to 64 x 64 samples: cheap enough for every frame
    // (4K lookups) and enough to recognise the layout's structure.
    const int nx = std::max(1, std::min(64, int(mm.x))), ny = std::max(1, std::min(64, int(mm.y)));
    const float cw = mm.x / float(nx), ch = mm.y / float(ny);
    for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
            Colour c = colour_at(gpu, k, (float(i) + 0.5f) * e.w / float(nx),
                                 (float(j) + 0.5f) * e.h / float(ny));
            if (c[3] == 0) continue;
            if (c[3] == 1) c = pad_colour(dark);
            ImVec2 q(a.x + float(i) * cw, a.y + float(j) * ch);
            dl->AddRectFilled(q, ImVec2(q.x + cw + 0.5f, q.y + ch + 0.5f), packed(c));
        }
    dl->AddRect(ImVec2(a.x - 3, a.y - 3), ImVec2(b.x + 3, b.y + 3), ink(Role::dim, dark));
    // The part in view.
    ImVec2 r0(a.x + std::clamp(vx0, 0.f, e.w) * s, a.y + std::clamp(vy0, 0.f, e.h) * s);
    ImVec2 r1(a.x + std::clamp(vx1, 0.f, e.w) * s, a.y + std::clamp(vy1, 0.f, e.h) * s);
    r1 = ImVec2(std::max(r1.x, r0.x + 2), std::max(r1.y, r0.y + 2));
    dl->AddRect(r0, r1, ink(Role::marker, dark), 0, 0, 2.f);
    dl->PopClipRect();
    // Press or drag inside: centre the view on that place.
    const ImVec2 m = ImGui::GetIO().MousePos;
    const bool inside = m.x >= a.x && m.x <= b.x && m.y >= a.y && m.y <= b.y;
    if (!inside || !ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows)) return false;
    if (ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
        Camera c = view.camera();
        c.pan_x = (m.x - a.x) / s - sz.x / (2 * c.zoom);
        c.pan_y = (m.y - a.y) / s - sz.y / (2 * c.zoom);
        view.set_camera(c);
    }
    return true;
}

bool draw_magnifier(PlanView& view, PlanGpu& gpu, int k, bool dark) {
    const Plan* p = gpu.plan();
    if (!p || k < 0 || size_t(k) >= p->stages.size()) return false;
    const Camera& cam = view.camera();
    const ImVec2 o = view.origin(), sz = view.canvas_size();
    const ImVec2 m = ImGui::GetIO().MousePos;
    const float fs = ImGui::GetFontSize();
    // For large tensors: cells under 8 px, where no number can ever be
    // printed (larger cells of small plans print their own numbers).
    if (cam.zoom >= 8.f) return false;
    if (m.x < o.x || m.y < o.y || m.x >= o.x + sz.x || m.y >= o.y + sz.y) return false;
    if (!ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows)) return false;
    const float cx = std::floor(cam.pan_x + (m.x - o.x) / cam.zoom);
    const float cy = std::floor(cam.pan_y + (m.y - o.y) / cam.zoom);
    const int half = 3, n = 2 * half + 1;
    char buf[24];
    std::snprintf(buf, sizeof buf, "%lld", (long long)std::max<int64_t>(p->cell_count, 100));
    const float cell = std::max(2.2f * fs, ImGui::CalcTextSize(buf).x + 0.6f * fs);
    const float lens = cell * float(n);
    // Beside the cursor, flipped to stay inside the canvas.
    ImVec2 a(m.x + 24, m.y + 24);
    if (a.x + lens > o.x + sz.x) a.x = m.x - 24 - lens;
    if (a.y + lens > o.y + sz.y) a.y = m.y - 24 - lens;
    a.x = std::max(a.x, o.x), a.y = std::max(a.y, o.y);
    ImDrawList* dl = ImGui::GetForegroundDrawList();
    const Palette& pal = palette(dark);
    dl->AddRectFilled(ImVec2(a.x - 4, a.y - 4), ImVec2(a.x + lens + 4, a.y + lens + 4),
                      packed(pal[Surface::canvas]));
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            const float gx = cx + float(i - half), gy = cy + float(j - half);
            const ImVec2 q(a.x + float(i) * cell, a.y + float(j) * cell);
            const ImVec2 q1(q.x + cell - 1, q.y + cell - 1);
            Colour c = colour_at(gpu, k, gx + 0.5f, gy + 0.5f);
            if (c[3] == 0) continue;
            const bool padding = c[3] == 1;
            if (padding) c = pad_colour(dark);
            dl->AddRectFilled(q, q1, packed(c));
            if (padding) {
                std::snprintf(buf, sizeof buf, "pad");
            } else {
                int64_t off = offset_at(p->stages[size_t(k)].grid, gx + 0.5f, gy + 0.5f);
                int64_t id = gpu.cell_at(size_t(k), off);
                std::snprintf(buf, sizeof buf, "%lld", (long long)p->src[size_t(id)]);
            }
            const ImVec2 ts = ImGui::CalcTextSize(buf);
            dl->AddText(ImVec2(q.x + (cell - ts.x) / 2, q.y + (cell - ts.y) / 2),
                        padding ? ink(Role::text, dark) : packed(text_on(c)), buf);
        }
    // The cell under the cursor, in the middle.
    const ImVec2 mid(a.x + float(half) * cell, a.y + float(half) * cell);
    dl->AddRect(mid, ImVec2(mid.x + cell - 1, mid.y + cell - 1), ink(Role::marker, dark), 0, 0,
                3.f);
    dl->AddRect(ImVec2(a.x - 4, a.y - 4), ImVec2(a.x + lens + 4, a.y + lens + 4),
                ink(Role::marker, dark), 0, 0, 2.f);
    return true;
}

}  // namespace ll::render
