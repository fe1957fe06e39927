#include "core/plan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.hpp"

namespace ll {

namespace {

// Per-axis step of x and y in cell units for a tensor grid (see the contract
// in plan.hpp): the picture is a sum of coordinate * step.
struct TensorSteps {
    std::vector<float> sx, sy;
    Extent ext;
};

TensorSteps tensor_steps(const Shape& d) {
    size_t r = d.size();
    TensorSteps t;
    t.sx.assign(r, 0.f);
    t.sy.assign(r, 0.f);
    if (r == 0) {
        t.ext = {1, 1};
        return t;
    }
    t.sx[r - 1] = 1;
    float w = float(d[r - 1]), h = 1;
    if (r >= 2) {
        t.sy[r - 2] = 1;
        h = float(d[r - 2]);
    }
    for (size_t k = 2; k < r; ++k) {
        size_t i = r - 1 - k;
        float gap = float(k - 1);
        float n = float(d[i]);
        if (k % 2 == 0) {  // axis -3, -5, ...: downwards
            t.sy[i] = h + gap;
            h = n * h + (n - 1) * gap;
        } else {
            t.sx[i] = w + gap;
            w = n * w + (n - 1) * gap;
        }
    }
    t.ext = {w, h};
    return t;
}

}  // namespace

Grid tensor_grid(const Shape& s) {
    Grid g;
    g.shape = s;
    return g;
}

Grid memory_grid(int64_t n, DType t) {
    Grid g;
    g.shape = {n};
    g.linear = true;
    g.row_elems = elems_per_32b(t);
    int64_t rows = ceil_div(n, g.row_elems);
    auto want = int64_t(std::ceil(std::sqrt(double(rows) * double(g.row_elems + 2))));
    int64_t band = round_up(std::max<int64_t>(want, 16), 16);
    g.band_rows = band >= rows ? 0 : band;
    return g;
}

Place cell_place(const Grid& g, int64_t offset) {
    if (g.linear) {
        int64_t row = offset / g.row_elems, col = offset % g.row_elems;
        if (g.band_rows <= 0) return {float(col), float(row)};
        int64_t band = row / g.band_rows;
        return {float(band * (g.row_elems + 2) + col), float(row % g.band_rows)};
    }
    TensorSteps t = tensor_steps(g.shape);
    Place p;
    for (size_t i = g.shape.size(); i-- > 0;) {
        int64_t c = offset % g.shape[i];
        offset /= g.shape[i];
        p.x += float(c) * t.sx[i];
        p.y += float(c) * t.sy[i];
    }
    return p;
}

Extent grid_extent(const Grid& g) {
    if (g.linear) {
        int64_t n = g.shape.empty() ? 0 : g.shape[0];
        int64_t rows = ceil_div(n, g.row_elems);
        if (g.band_rows <= 0 || rows <= g.band_rows) return {float(g.row_elems), float(rows)};
        int64_t bands = ceil_div(rows, g.band_rows);
        return {float(bands * (g.row_elems + 2) - 2), float(g.band_rows)};
    }
    return tensor_steps(g.shape).ext;
}

void stage_places(const Plan& p, size_t k, std::vector<float>& xy) {
    const Grid& g = p.stages.at(k).grid;
    std::vector<int64_t> off = p.offsets(k);
    xy.resize(size_t(p.cell_count) * 2);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    if (g.linear) {
        for (size_t i = 0; i < off.size(); ++i) {
            if (off[i] < 0) {
                xy[2 * i] = xy[2 * i + 1] = nan;
                continue;
            }
            Place q = cell_place(g, off[i]);
            xy[2 * i] = q.x;
            xy[2 * i + 1] = q.y;
        }
        return;
    }
    // Tensor grid: hoist the per-axis steps out of the per-cell loop.
    TensorSteps t = tensor_steps(g.shape);
    const Shape& d = g.shape;
    for (size_t i = 0; i < off.size(); ++i) {
        int64_t o = off[i];
        if (o < 0) {
            xy[2 * i] = xy[2 * i + 1] = nan;
            continue;
        }
        float x = 0, y = 0;
        for (size_t a = d.size(); a-- > 0;) {
            int64_t c = o % d[a];
            o /= d[a];
            x += float(c) * t.sx[a];
            y += float(c) * t.sy[a];
        }
        xy[2 * i] = x;
        xy[2 * i + 1] = y;
    }
}

const char* name(ColourMode m) {
    switch (m) {
        case ColourMode::source_index:
            return "source-index";
        case ColourMode::row:
            return "row";
        case ColourMode::column:
            return "column";
        case ColourMode::channel:
            return "channel";
        case ColourMode::fractal:
            return "fractal";
        case ColourMode::value:
            return "value";
    }
    return "?";
}

const std::vector<ColourMode>& all_colour_modes() {
    static const std::vector<ColourMode> v = {ColourMode::source_index, ColourMode::row,
                                              ColourMode::column,       ColourMode::channel,
                                              ColourMode::fractal,      ColourMode::value};
    return v;
}

ColourMode colour_mode_from_name(const std::string& s) {
    std::string names;
    for (ColourMode m : all_colour_modes()) {
        if (s == name(m)) return m;
        names += std::string(names.empty() ? "" : ", ") + name(m);
    }
    throw UsageError("unknown colour mode '" + s + "'; expected one of " + names);
}

Rgba8 colour_map(float t) {
    t = std::clamp(t, 0.f, 1.f);
    // Polynomial fit of Google's Turbo map (Mikhailov, 2019).
    float r =
        0.13572138f +
        t * (4.61539260f +
             t * (-42.66032258f + t * (132.13108234f + t * (-152.94239396f + t * 59.28637943f))));
    float g = 0.09140261f +
              t * (2.19418839f +
                   t * (4.84296658f + t * (-14.18503333f + t * (4.27729857f + t * 2.82956604f))));
    float b =
        0.10667330f +
        t * (12.64194608f +
             t * (-60.58204836f + t * (110.36276771f + t * (-89.90310912f + t * 27.34824973f))));
    auto q = [](float v) { return uint8_t(std::lround(std::clamp(v, 0.f, 1.f) * 255.f)); };
    return {q(r), q(g), q(b), 255};
}

Rgba8 cell_colour(const Plan& p, ColourMode m, int64_t cell, int64_t fractal_elems_) {
    int64_t s = p.src[size_t(cell)];
    if (s < 0) return {70, 70, 76, 0};
    const Shape& d = p.src_shape;
    auto axis_t = [&](int axis) -> float {
        if (axis < 0 || size_t(axis) >= d.size()) return 0.f;
        int64_t stride = 1;
        for (size_t i = size_t(axis) + 1; i < d.size(); ++i) stride *= d[i];
        int64_t c = (s / stride) % d[size_t(axis)];
        return d[size_t(axis)] > 1 ? float(c) / float(d[size_t(axis)] - 1) : 0.f;
    };
    int r = int(d.size());
    switch (m) {
        case ColourMode::source_index: {
            int64_t n = std::max<int64_t>(1, numel(d) - 1);
            return colour_map(float(double(s) / double(n)));
        }
        case ColourMode::row:
            return colour_map(axis_t(r - 2));
        case ColourMode::column:
            return colour_map(axis_t(r - 1));
        case ColourMode::channel:
            return colour_map(axis_t(p.channel_axis));
        case ColourMode::fractal: {
            int64_t f = cell / std::max<int64_t>(1, fractal_elems_);
            double t = std::fmod(double(f) * 0.6180339887, 1.0);
            return colour_map(0.1f + 0.8f * float(t));
        }
        case ColourMode::value: {
            if (p.values.empty()) return colour_map(float(double(s) / double(numel(d))));
            uint8_t v = p.values[size_t(s)];
            if (p.channel_axis >= 0 && size_t(p.channel_axis) < d.size() &&
                d[size_t(p.channel_axis)] == 3) {
                int64_t stride = 1;
                for (size_t i = size_t(p.channel_axis) + 1; i < d.size(); ++i) stride *= d[i];
                int64_t c = (s / stride) % 3;
                Rgba8 out{0, 0, 0, 255};
                out[size_t(c)] = v;
                return out;
            }
            return {v, v, v, 255};
        }
    }
    return {255, 0, 255, 255};
}

}  // namespace ll
