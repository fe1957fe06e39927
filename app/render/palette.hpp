// The app's text and highlight colours, per theme, in one table.
//
// Every colour that carries text (or a thin highlight line a student must
// see) has a role here, and each role keeps a contrast ratio of at least
// 4.5:1 (WCAG 2 "AA" for body text) against every background it is drawn
// on in its theme: the window, the cell canvas and the menu bar. The unit
// test (tests/app/palette_test.cpp) checks that for all roles of both themes,
// so a colour picked by eye that reads badly on a projector fails the build's
// tests instead of the lecture.
//
// Worked example: contrast_ratio({255,255,255,255}, {0,0,0,255}) == 21;
// yellow (255,210,120) on the light window (240,240,240) is about 1.4, which
// is why the status line used to vanish on the light theme.
//
// No ImGui include: the test links this file alone. packed() gives ImGui's
// IM_COL32 layout (R in the low byte).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace ll::render {

using Colour = std::array<uint8_t, 4>;  // r, g, b, a (0..255)

// What a colour is used for. Text roles first; `count` last.
enum class Role : uint8_t {
    text,    // body text, cell numbers on the canvas, captions
    dim,     // secondary text: past rows of a trace, hints
    accent,  // the current step, row or fractal; addresses at fractal lines
    info,    // explanations in a cool colour (views, notes)
    error,   // error text
    status,  // the status line in the menu bar
    path,    // the highlighted element's path and its step numbers
    marker,  // a window or lens outline over the cells (img2col window, magnifier)
    done,    // cells already visited or computed (outlines, CellSet::done)
    pinned,  // the cell a user pinned and follows across stages (CellSet::pinned)
    count
};
constexpr int kRoleCount = int(Role::count);
const char* role_name(Role r);

// The surfaces text sits on in one theme.
enum class Surface : uint8_t { window, canvas, menu, count };
constexpr int kSurfaceCount = int(Surface::count);
const char* surface_name(Surface s);

struct Palette {
    std::array<Colour, kRoleCount> role;
    std::array<Colour, kSurfaceCount> surface;
    const Colour& operator[](Role r) const { return role[std::size_t(r)]; }
    const Colour& operator[](Surface s) const { return surface[std::size_t(s)]; }
};

// The palette of one theme (the table lives in palette.cpp).
const Palette& palette(bool dark);

// WCAG 2 relative luminance of an sRGB colour, 0 (black) .. 1 (white).
double relative_luminance(const Colour& c);
// (L1 + 0.05) / (L2 + 0.05) with L1 the lighter: 1 .. 21, symmetric.
double contrast_ratio(const Colour& a, const Colour& b);
// Black or white, whichever reads better on `bg` (cell numbers on cells).
Colour text_on(const Colour& bg);

// ImGui's packed colour (IM_COL32 byte order), alpha scaled by `alpha`.
inline uint32_t packed(const Colour& c, float alpha = 1.f) {
    uint32_t a = uint32_t(float(c[3]) * (alpha < 0 ? 0.f : alpha > 1 ? 1.f : alpha) + 0.5f);
    return uint32_t(c[0]) | uint32_t(c[1]) << 8 | uint32_t(c[2]) << 16 | a << 24;
}
// The colour of a role in a theme, packed.
inline uint32_t ink(Role r, bool dark, float alpha = 1.f) {
    return packed(palette(dark)[r], alpha);
}

}  // namespace ll::render
