#include "app/render/present.hpp"

#include <algorithm>

namespace ll::render {

namespace {
// One window, one frame at a time: the UI thread alone reads and writes these.
Display g_display;
bool g_any = false;
ImVec2 g_min, g_max;
}  // namespace

Display& display() {
    return g_display;
}

ImVec4 theme_colour(Role r) {
    const Colour& c = palette(g_display.dark)[r];
    return ImVec4(float(c[0]) / 255.f, float(c[1]) / 255.f, float(c[2]) / 255.f,
                  float(c[3]) / 255.f);
}

void diagram_reset() {
    g_any = false;
}

void diagram_note(ImVec2 a, ImVec2 b) {
    if (!(b.x > a.x && b.y > a.y)) return;
    if (!g_any) {
        g_min = a, g_max = b, g_any = true;
        return;
    }
    g_min = ImVec2(std::min(g_min.x, a.x), std::min(g_min.y, a.y));
    g_max = ImVec2(std::max(g_max.x, b.x), std::max(g_max.y, b.y));
}

bool diagram_bounds(ImVec2& a, ImVec2& b) {
    a = g_min, b = g_max;
    return g_any;
}

}  // namespace ll::render
