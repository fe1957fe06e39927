#include "core/plan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "core/error.hpp"
#include "core/format/format.hpp"

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
    // Bands somewhat taller than wide suit a wide window split in two views.
    auto want = int64_t(std::ceil(1.6 * std::sqrt(double(rows) * double(g.row_elems + 2))));
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
    // Skip Turbo's darkest end so the first cells stay visible on a dark background.
    t = 0.06f + 0.94f * std::clamp(t, 0.f, 1.f);
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

// ---- format conversions as Plans ---------------------------------------------

namespace ll {

namespace {

int channel_axis_of(Format f) {
    std::string letters = axis_letters(f);
    auto pos = letters.find('C');
    return pos == std::string::npos ? -1 : int(pos);
}

}  // namespace

Plan format_plan(const std::vector<Pipeline>& chain_in) {
    if (chain_in.empty()) throw UsageError("empty conversion chain; expected at least one step");
    auto chain = std::make_shared<const std::vector<Pipeline>>(chain_in);
    const std::vector<Pipeline>& c = *chain;
    for (size_t i = 1; i < c.size(); ++i)
        if (c[i].src_shape != c[i - 1].dst_shape || c[i].from != c[i - 1].to)
            throw UsageError(std::string("cannot chain ") + name(c[i - 1].to) + " " +
                             to_string(c[i - 1].dst_shape) + " into " + name(c[i].from) + " " +
                             to_string(c[i].src_shape) + "; expected matching format and shape");
    Plan p;
    const Pipeline& first = c.front();
    const Pipeline& lastp = c.back();
    p.title = std::string(name(first.from));
    for (const Pipeline& q : c) p.title += std::string(" -> ") + name(q.to);
    p.dtype = first.dtype;
    p.src_shape = first.src_shape;
    p.channel_axis = channel_axis_of(first.from);
    p.cell_count = numel(lastp.dst_shape);

    // Composed maps: for pipeline i, the index of each cell in pipeline i's
    // destination buffer (-1 when the cell is padding added later).
    // idx_in_dst[i][cell]; the last one is the identity (kept implicit).
    auto idx = std::make_shared<std::vector<std::vector<int64_t>>>(c.size());
    std::vector<int64_t> cur;  // cell -> index in dst of pipeline i
    for (size_t i = c.size(); i-- > 0;) {
        if (i + 1 < c.size()) {
            ElementMap m = element_map(c[i + 1]);
            if (cur.empty()) {
                cur = std::move(m);
            } else {
                for (int64_t& v : cur) v = v < 0 ? -1 : m[size_t(v)];
            }
            (*idx)[i] = cur;
        }
    }
    {
        ElementMap m0 = element_map(first);
        if (c.size() == 1) {
            p.src = std::move(m0);
        } else {
            const std::vector<int64_t>& to0 = (*idx)[0];
            p.src.resize(to0.size());
            for (size_t j = 0; j < to0.size(); ++j) p.src[j] = to0[j] < 0 ? -1 : m0[size_t(to0[j])];
        }
    }

    // Stage list and, per stage, which pipeline and which step it shows.
    struct Ref {
        size_t pipe, step;  // step == steps.size() + 1: memory of the destination
    };
    auto refs = std::make_shared<std::vector<Ref>>();
    auto add = [&](Stage s, Ref r) {
        p.stages.push_back(std::move(s));
        refs->push_back(r);
    };
    {
        Stage s;
        s.label = std::string("source ") + name(first.from);
        s.formula = std::string(name(first.from)) + " " + to_string(first.src_shape) +
                    ", one cell per element";
        s.shape = first.src_shape;
        s.grid = tensor_grid(s.shape);
        add(s, {0, 0});
    }
    for (size_t i = 0; i < c.size(); ++i) {
        const Pipeline& q = c[i];
        for (size_t k = 0; k < q.steps.size(); ++k) {
            Stage s;
            s.label = q.steps[k].label();
            s.formula = q.steps[k].caption;
            s.shape = q.steps[k].after;
            s.grid = tensor_grid(s.shape);
            add(s, {i, k + 1});
        }
        Stage m;
        int64_t n = numel(q.dst_shape);
        m.label = std::string("memory ") + name(q.to);
        std::string per = bits(q.dtype) >= 8
                              ? "offset x " + std::to_string(bits(q.dtype) / 8) + " B"
                              : std::string("offset / 2 (two int4 per byte)");
        m.formula = "byte address = " + per + "; one row = 32 B, one fractal = 512 B (" +
                    std::to_string(n) + " elements, " + std::to_string(bytes_for(q.dtype, n)) +
                    " B)";
        m.shape = {n};
        m.grid = memory_grid(n, q.dtype);
        add(m, {i, q.steps.size() + 1});
    }

    p.offsets = [chain, idx, refs](size_t k) {
        const Ref& r = refs->at(k);
        const Pipeline& q = (*chain)[r.pipe];
        size_t step = std::min(r.step, q.steps.size());
        std::vector<int64_t> off = stage_offsets(q, step);
        if (r.pipe + 1 == chain->size()) return off;
        const std::vector<int64_t>& to = (*idx)[r.pipe];
        std::vector<int64_t> out(to.size());
        for (size_t j = 0; j < to.size(); ++j) out[j] = to[j] < 0 ? -1 : off[size_t(to[j])];
        return out;
    };
    return p;
}

}  // namespace ll
