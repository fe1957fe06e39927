#include "app/render/palette.hpp"

#include <algorithm>
#include <cmath>

namespace ll::render {

namespace {

// Surfaces: ImGui's own window and menu-bar colours of each theme (window
// blended over the clear colour), and the canvas PlanView fills.
const Palette kDark = {
    {{
        {225, 228, 235, 255},  // text
        {170, 175, 185, 255},  // dim
        {255, 200, 80, 255},   // accent
        {130, 200, 255, 255},  // info
        {255, 107, 97, 255},   // error
        {255, 210, 120, 255},  // status
        {245, 245, 250, 255},  // path
        {255, 200, 40, 255},   // marker
        {110, 220, 140, 255},  // done
        {255, 110, 230, 255},  // pinned
    }},
    {{
        {16, 16, 17, 255},  // window
        {22, 24, 28, 255},  // canvas
        {36, 36, 36, 255},  // menu
    }},
};

const Palette kLight = {
    {{
        {30, 32, 38, 255},   // text
        {80, 83, 92, 255},   // dim
        {160, 56, 0, 255},   // accent
        {10, 75, 140, 255},  // info
        {175, 25, 20, 255},  // error
        {140, 50, 0, 255},   // status
        {20, 20, 24, 255},   // path
        {150, 50, 0, 255},   // marker
        {0, 110, 55, 255},   // done
        {170, 0, 140, 255},  // pinned
    }},
    {{
        {240, 240, 240, 255},  // window
        {250, 250, 250, 255},  // canvas
        {219, 219, 219, 255},  // menu
    }},
};

double channel(uint8_t v) {
    double c = v / 255.0;
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

}  // namespace

const char* role_name(Role r) {
    static const char* names[] = {"text",   "dim",  "accent", "info", "error",
                                  "status", "path", "marker", "done", "pinned"};
    return int(r) < kRoleCount ? names[int(r)] : "?";
}

const char* surface_name(Surface s) {
    static const char* names[] = {"window", "canvas", "menu"};
    return int(s) < kSurfaceCount ? names[int(s)] : "?";
}

const Palette& palette(bool dark) {
    return dark ? kDark : kLight;
}

double relative_luminance(const Colour& c) {
    return 0.2126 * channel(c[0]) + 0.7152 * channel(c[1]) + 0.0722 * channel(c[2]);
}

double contrast_ratio(const Colour& a, const Colour& b) {
    double la = relative_luminance(a), lb = relative_luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

Colour text_on(const Colour& bg) {
    const Colour black{0, 0, 0, 255}, white{255, 255, 255, 255};
    return contrast_ratio(black, bg) >= contrast_ratio(white, bg) ? black : white;
}

}  // namespace ll::render
