// What a colour mode's legend says for a plan: the quantity the colours
// encode and the values at the two ends of the ramp, from the plan itself
// (a picture's value legend spans the values it holds, e.g. 0..111, not the
// 0..255 a byte could hold).
#pragma once

#include <string>

#include "core/plan.hpp"

namespace ll {

struct ColourLegend {
    std::string what;    // e.g. "source row (axis -2)"
    std::string lo, hi;  // end labels; both empty when the colours cycle
    // The ramp: grey from grey_lo to grey_hi (picture values), else the
    // colour map (or cycling hues for the fractal mode).
    bool grey = false;
    int grey_lo = 0, grey_hi = 255;
};

ColourLegend colour_legend(const Plan& p, ColourMode m);

}  // namespace ll
