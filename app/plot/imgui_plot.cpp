#include "app/plot/imgui_plot.hpp"

#include <imgui_internal.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>

#include "app/i18n/text_audit.hpp"
#include "app/i18n/tr.hpp"
#include "app/i18n/tr_text.hpp"
#include "app/plot/canvas.hpp"

namespace ll::plot {

namespace {

ImU32 col(Color c) {
    return IM_COL32(c.r, c.g, c.b, c.a);
}

// Paints in layout units scaled by `k` around the origin (ox, oy): the plot
// is laid out at size / k and drawn k times larger, so a larger UI scale
// gives the same picture with larger text (as a PNG exported bigger would).
class ImGuiCanvas : public Canvas {
  public:
    ImGuiCanvas(ImDrawList* dl, float ox, float oy, float k)
        : dl_(dl), font_(ImGui::GetFont()), ox_(ox), oy_(oy), k_(k) {}
    void fill_rect(float x0, float y0, float x1, float y1, Color c) override {
        dl_->AddRectFilled(at(x0, y0), at(x1, y1), col(c));
    }
    void stroke_rect(float x0, float y0, float x1, float y1, Color c, float w) override {
        dl_->AddRect(at(x0, y0), at(x1, y1), col(c), 0.0f, 0, w * k_);
    }
    void polyline(const std::vector<float>& xy, Color c, float w) override {
        std::vector<ImVec2> p;
        for (size_t i = 0; i + 1 < xy.size(); i += 2) p.push_back(at(xy[i], xy[i + 1]));
        dl_->AddPolyline(p.data(), int(p.size()), col(c), 0, w * k_);
    }
    void circle(float cx, float cy, float r, Color c) override {
        dl_->AddCircleFilled(at(cx, cy), r * k_, col(c), 12);
    }
    void text(float lx, float ly, const std::string& s, float lsize, Color c, Align a,
              bool vertical) override {
        i18n::audit::note(s);  // --dump-text: drawn outside ImGui's text log
        const ImVec2 p = at(lx, ly);
        const float x = p.x, y = p.y, size = lsize * k_;
        const float w = font_->CalcTextSizeA(size, FLT_MAX, 0.0f, s.c_str()).x;
        const float ascent = font_->Ascent * size / font_->FontSize;
        const float shift = a == Align::left ? 0 : a == Align::center ? w / 2 : w;
        if (!vertical) {
            dl_->AddText(font_, size, ImVec2(std::round(x - shift), std::round(y - ascent)), col(c),
                         s.c_str());
            return;
        }
        // ImGui has no rotated text: draw it flat, then turn its vertices
        // 90 degrees counter-clockwise onto the anchor. The flat copy is laid
        // out at the middle of the clip rectangle: ImGui drops glyphs outside
        // it before they are turned, which cut the start of labels drawn
        // near a window edge ("L1 tile order" lost its "L").
        const ImVec2 lo = dl_->GetClipRectMin(), hi = dl_->GetClipRectMax();
        const ImVec2 m(std::round((lo.x + hi.x) / 2), std::round((lo.y + hi.y) / 2));
        const int first = dl_->VtxBuffer.Size;
        dl_->AddText(font_, size, ImVec2(m.x - shift, m.y - ascent), col(c), s.c_str());
        for (int i = first; i < dl_->VtxBuffer.Size; ++i) {
            ImVec2& v = dl_->VtxBuffer[i].pos;
            const ImVec2 d(v.x - m.x, v.y - m.y);
            v = ImVec2(x + d.y, y - d.x);
        }
    }
    float text_width(const std::string& s, float size) override {
        return font_->CalcTextSizeA(size * k_, FLT_MAX, 0.0f, s.c_str()).x / k_;
    }
    void clip(float x0, float y0, float x1, float y1) override {
        dl_->PushClipRect(at(x0, y0), at(x1, y1), true);
    }
    void unclip() override { dl_->PopClipRect(); }

  private:
    ImVec2 at(float x, float y) const { return ImVec2(ox_ + (x - ox_) * k_, oy_ + (y - oy_) * k_); }
    ImDrawList* dl_;
    ImFont* font_;
    float ox_, oy_, k_;
};

std::string num(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.4g", v);
    return b;
}

std::string with_unit(const Axis& a, double v) {
    return (a.label.empty() ? "" : a.label + " ") + num(v) + (a.unit.empty() ? "" : " " + a.unit);
}

void tooltip(const PlotSpec& spec, const PlotFrame& f, ImVec2 m) {
    if (m.x < f.px0 || m.x > f.px1 || m.y < f.py0 || m.y > f.py1) return;
    if (spec.has_heatmap) {
        const Heatmap& h = spec.heatmap;
        const int c = int((m.x - f.px0) / (f.px1 - f.px0) * float(h.cols));
        const int r = int((m.y - f.py0) / (f.py1 - f.py0) * float(h.rows));
        if (c < 0 || r < 0 || c >= h.cols || r >= h.rows || r * h.cols + c >= h.values.count)
            return;
        const std::string rl =
            r < int(spec.y.categories.size()) ? spec.y.categories[size_t(r)] : "";
        const std::string cl =
            c < int(spec.x.categories.size()) ? spec.x.categories[size_t(c)] : "";
        ImGui::SetTooltip("%s: %s\n%s: %s\n%s: %s", spec.y.label.c_str(), rl.c_str(),
                          spec.x.label.c_str(), cl.c_str(), h.value_label.c_str(),
                          num(h.values[r * h.cols + c]).c_str());
        return;
    }
    // Bars: the slot and bar under the mouse.
    int nb = 0;
    for (const Series& s : spec.series) nb += s.kind == SeriesKind::bars;
    if (nb && !spec.x.categories.empty()) {
        const float slot = (f.px1 - f.px0) / float(spec.x.categories.size());
        const int i = int((m.x - f.px0) / slot);
        const float in = (m.x - f.px0 - slot * float(i) - slot * 0.1f) / (slot * 0.8f / float(nb));
        int k = 0;
        for (const Series& s : spec.series) {
            if (s.kind != SeriesKind::bars) continue;
            if (int(std::floor(in)) == k && i < s.y.count && i < int(spec.x.categories.size())) {
                ImGui::SetTooltip("%s\n%s\n%s", s.name.c_str(),
                                  spec.x.categories[size_t(i)].c_str(),
                                  with_unit(spec.y, s.y[i]).c_str());
                return;
            }
            ++k;
        }
        return;
    }
    // Points: the nearest within 10 px.
    const Series* best = nullptr;
    int best_i = -1;
    float best_d = 100.0f;
    for (const Series& s : spec.series) {
        if (s.kind == SeriesKind::bars) continue;
        const int n = std::min(s.x.count, s.y.count);
        for (int i = 0; i < n; ++i) {
            const float dx = f.to_px_x(s.x[i]) - m.x, dy = f.to_px_y(s.y[i]) - m.y;
            const float d = dx * dx + dy * dy;
            if (d < best_d) {
                best_d = d;
                best = &s;
                best_i = i;
            }
        }
    }
    if (best)
        ImGui::SetTooltip("%s\n%s\n%s", best->name.c_str(),
                          with_unit(spec.x, best->x[best_i]).c_str(),
                          with_unit(spec.y, best->y[best_i]).c_str());
}

// The plot as the window shows it: its titles, axis labels, units,
// categories, legend and notes through the catalog (app/i18n/tr_text.hpp).
// The files a script reads (write_png / write_svg / write_csv) stay English.
PlotSpec in_window_language(const PlotSpec& spec) {
    PlotSpec s = spec;
    s.title = tr_text(s.title);
    for (Axis* a : {&s.x, &s.y}) {
        a->label = tr_text(a->label);
        a->unit = tr_text(a->unit);
        for (std::string& c : a->categories) c = tr_text(c);
    }
    for (Series& r : s.series) r.name = tr_text(r.name);
    s.heatmap.value_label = tr_text(s.heatmap.value_label);
    for (Annotation& n : s.annotations) n.text = tr_text(n.text);
    return s;
}

}  // namespace

void show_plot(const char* id, const PlotSpec& given, ImVec2 size) {
    const bool english = i18n::language() == i18n::Lang::en;
    const PlotSpec translated = english ? PlotSpec() : in_window_language(given);
    const PlotSpec& spec = english ? given : translated;
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    if (size.x <= 0) size.x = std::max(200.0f, avail.x);
    if (size.y <= 0) size.y = 320.0f;
    const ImVec2 pos = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton(id, size);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->PushClipRect(pos, ImVec2(pos.x + size.x, pos.y + size.y), true);
    // The app's font is 16 px at UI scale 1; plots grow with it.
    const float k = std::max(1.0f, ImGui::GetFontSize() / 16.0f);
    ImGuiCanvas cv(dl, pos.x, pos.y, k);
    const PlotFrame f = paint(spec, cv, pos.x, pos.y, size.x / k, size.y / k);
    dl->PopClipRect();
    if (ImGui::IsItemHovered()) {
        const ImVec2 m = ImGui::GetIO().MousePos;  // back to layout units
        tooltip(spec, f, ImVec2(pos.x + (m.x - pos.x) / k, pos.y + (m.y - pos.y) / k));
    }
}

}  // namespace ll::plot
