#include "core/plan_legend.hpp"

#include <algorithm>

namespace ll {

ColourLegend colour_legend(const Plan& p, ColourMode m) {
    ColourLegend l;
    const Shape& d = p.src_shape;
    auto dim = [&](int axis) -> int64_t {
        return axis >= 0 && size_t(axis) < d.size() ? d[size_t(axis)] : 1;
    };
    l.lo = "0";
    switch (m) {
        case ColourMode::source_index:
            l.what = "source linear index (row-major)";
            l.hi = std::to_string(numel(d) - 1);
            break;
        case ColourMode::row:
            l.what = "source row (axis -2)";
            l.hi = std::to_string(dim(int(d.size()) - 2) - 1);
            break;
        case ColourMode::column:
            l.what = "source column (last axis)";
            l.hi = std::to_string(dim(int(d.size()) - 1) - 1);
            break;
        case ColourMode::channel:
            l.what = p.channel_axis >= 0 ? "source channel (C axis)" : "no C axis: all 0";
            l.hi = std::to_string(dim(p.channel_axis) - 1);
            break;
        case ColourMode::fractal:
            l.what = "destination 512-byte fractal (hues cycle)";
            l.lo.clear();
            break;
        case ColourMode::value:
            if (p.values.empty()) {  // cell_colour falls back to the source index
                l.what = "no picture: source index";
                l.hi = std::to_string(numel(d) - 1);
                break;
            }
            {
                auto mm = std::minmax_element(p.values.begin(), p.values.end());
                l.grey = true;
                l.grey_lo = *mm.first;
                l.grey_hi = *mm.second;
                l.lo = std::to_string(l.grey_lo);
                l.hi = std::to_string(l.grey_hi);
                l.what = "pixel value, R/G/B channel";  // the range: lo .. hi
            }
            break;
    }
    return l;
}

}  // namespace ll
