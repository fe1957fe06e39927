#include "core/plan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <thread>

#include "core/error.hpp"

namespace ll {

namespace {

// Per-axis steps of a tensor grid (see the contract in plan.hpp): axis a's
// coordinate c moves a cell by (c % cols[a]) * sx[a] right and
// (c / cols[a]) * sy[a] down, and the picture is the sum over the axes.
struct TensorSteps {
    std::vector<float> sx, sy;
    std::vector<int64_t> cols;
    Extent ext;
    Place of(size_t a, int64_t c) const {
        int64_t row = c / cols[a];
        return {float(c - row * cols[a]) * sx[a], float(row) * sy[a]};
    }
};

// wrap: per axis blocks per row (see Grid::wrap); empty = alternate.
TensorSteps tensor_steps(const Shape& d, const std::vector<int64_t>& wrap) {
    size_t r = d.size();
    TensorSteps t;
    t.sx.assign(r, 0.f);
    t.sy.assign(r, 0.f);
    t.cols.assign(r, 1);
    if (r == 0) {
        t.ext = {1, 1};
        return t;
    }
    t.sx[r - 1] = 1;
    t.cols[r - 1] = std::max<int64_t>(1, d[r - 1]);
    float w = float(d[r - 1]), h = 1;
    if (r >= 2) {
        t.sy[r - 2] = 1;
        h = float(d[r - 2]);
    }
    for (size_t k = 2; k < r; ++k) {
        size_t i = r - 1 - k;
        float gap = float(k - 1);
        int64_t n = std::max<int64_t>(1, d[i]);
        int64_t cols = k % 2 == 0 ? 1 : n;  // axis -3, -5, ...: downwards
        if (wrap.size() == r && wrap[i] > 0) cols = std::min(wrap[i], n);
        int64_t rows = ceil_div(n, cols);
        t.cols[i] = cols;
        t.sx[i] = w + gap;
        t.sy[i] = h + gap;
        w = float(cols) * w + float(cols - 1) * gap;
        h = float(rows) * h + float(rows - 1) * gap;
    }
    t.ext = {w, h};
    return t;
}

TensorSteps tensor_steps(const Grid& g) {
    return tensor_steps(g.shape, g.wrap);
}

}  // namespace

Grid fitted_tensor_grid(const Shape& s, float aspect) {
    Grid g = tensor_grid(s);
    auto off_by = [&](Extent e) { return std::abs(std::log(e.w / e.h / aspect)); };
    size_t r = s.size();
    const float classic = off_by(tensor_steps(g).ext);
    if (r < 3 || classic <= std::log(3.f)) return g;
    Grid classic_grid = g;
    // Inner axes first: each takes the blocks-per-row that brings the
    // picture closest to the aspect.
    g.wrap.assign(r, 0);
    float w = float(s[r - 1]), h = float(s[r - 2]);
    for (size_t k = 2; k < r; ++k) {
        size_t i = r - 1 - k;
        float gap = float(k - 1);
        int64_t n = std::max<int64_t>(1, s[i]), best = 1;
        float best_off = 1e30f;
        for (int64_t cols = 1; cols <= n; ++cols) {
            int64_t rows = ceil_div(n, cols);
            if (cols > 1 && ceil_div(n, cols - 1) == rows) continue;  // same rows, wider
            Extent e{float(cols) * w + float(cols - 1) * gap,
                     float(rows) * h + float(rows - 1) * gap};
            if (off_by(e) < best_off) best_off = off_by(e), best = cols;
        }
        g.wrap[i] = best;
        int64_t rows = ceil_div(n, best);
        w = float(best) * w + float(best - 1) * gap;
        h = float(rows) * h + float(rows - 1) * gap;
    }
    return off_by(tensor_steps(g).ext) < classic ? g : classic_grid;
}

Grid stage_grid(const Shape& s, float aspect) {
    size_t r = s.size();
    if (r >= 4 && s[r - 1] >= 2 && s[r - 1] <= 4 && s[r - 2] >= 8) {
        Shape merged(s.begin(), s.end() - 1);
        merged.back() *= s[r - 1];
        return fitted_tensor_grid(merged, aspect);
    }
    return fitted_tensor_grid(s, aspect);
}

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
    TensorSteps t = tensor_steps(g);
    Place p;
    for (size_t i = g.shape.size(); i-- > 0;) {
        int64_t c = offset % g.shape[i];
        offset /= g.shape[i];
        Place q = t.of(i, c);
        p.x += q.x;
        p.y += q.y;
    }
    return p;
}

int64_t offset_at(const Grid& g, float x, float y) {
    if (!(x >= 0 && y >= 0)) return -1;  // also NaN
    auto ix = int64_t(std::floor(x)), iy = int64_t(std::floor(y));
    if (g.linear) {
        int64_t n = g.shape.empty() ? 0 : g.shape[0];
        int64_t band = g.band_rows > 0 ? ix / (g.row_elems + 2) : 0;
        int64_t col = ix - band * (g.row_elems + 2);
        if (col >= g.row_elems || (g.band_rows > 0 && iy >= g.band_rows)) return -1;
        int64_t o = ((g.band_rows > 0 ? band * g.band_rows : 0) + iy) * g.row_elems + col;
        return o < n ? o : -1;
    }
    // Outermost axis first: which of its blocks holds the point, then inside it.
    TensorSteps t = tensor_steps(g);
    const Shape& d = g.shape;
    size_t r = d.size();
    if (r == 0) return ix == 0 && iy == 0 ? 0 : -1;
    int64_t o = 0;
    for (size_t a = 0; a < r; ++a) {
        int64_t c = 0;
        if (a + 1 == r) {
            c = ix, ix = 0;
        } else if (a + 2 == r) {
            c = iy, iy = 0;
        } else {
            auto bx = int64_t(t.sx[a]), by = int64_t(t.sy[a]);
            int64_t col = ix / bx, row = iy / by;
            if (col >= t.cols[a]) return -1;
            c = row * t.cols[a] + col;
            ix -= col * bx;
            iy -= row * by;
            // The gap after each block is (level) cells: outside the inner extent.
            int64_t gap = int64_t(r - 1 - a) - 1;
            if (ix >= bx - gap || iy >= by - gap) return -1;
        }
        if (c >= d[a]) return -1;
        o = o * d[a] + c;
    }
    return ix == 0 && iy == 0 ? o : -1;
}

Extent grid_extent(const Grid& g) {
    if (g.linear) {
        int64_t n = g.shape.empty() ? 0 : g.shape[0];
        int64_t rows = ceil_div(n, g.row_elems);
        if (g.band_rows <= 0 || rows <= g.band_rows) return {float(g.row_elems), float(rows)};
        int64_t bands = ceil_div(rows, g.band_rows);
        return {float(bands * (g.row_elems + 2) - 2), float(g.band_rows)};
    }
    return tensor_steps(g).ext;
}

namespace {

// q = o / d for 0 <= o < 2^52 without a hardware divide: a double reciprocal
// guess, corrected by one step either way.
struct Divider {
    int64_t d = 1;
    double inv = 1;
    explicit Divider(int64_t d_) : d(d_), inv(1.0 / double(d_)) {}
    int64_t div(int64_t o) const {
        auto q = int64_t(double(o) * inv);
        if (q * d > o) --q;
        if ((q + 1) * d <= o) ++q;
        return q;
    }
};

// Runs f(lo, hi) over [0, n) on two threads when n is large (the two halves
// write disjoint parts of the output).
template <class F>
void split2(int64_t n, F&& f) {
    if (n < (int64_t(1) << 18)) {
        f(int64_t(0), n);
        return;
    }
    int64_t mid = n / 2;
    std::thread t([&] { f(mid, n); });
    f(int64_t(0), mid);
    t.join();
}

// Places of a tensor grid as lo-table + hi-table: the trailing axes whose
// product L stays small give place_lo[o % L], the leading ones place_hi[o / L];
// a place is a sum over axes, so place(o) = hi + lo.
struct PlaceTables {
    Divider split{1};
    std::vector<float> lo, hi;  // x, y pairs
};

void axis_table(const Shape& d, const TensorSteps& t, size_t a0, size_t a1,
                std::vector<float>& out) {
    int64_t n = 1;
    for (size_t a = a0; a < a1; ++a) n *= d[a];
    out.assign(size_t(2 * n), 0.f);
    for (int64_t o = 0; o < n; ++o) {
        int64_t r = o;
        float x = 0, y = 0;
        for (size_t a = a1; a-- > a0;) {
            int64_t c = r % d[a];
            r /= d[a];
            Place q = t.of(a, c);
            x += q.x;
            y += q.y;
        }
        out[size_t(2 * o)] = x;
        out[size_t(2 * o + 1)] = y;
    }
}

PlaceTables place_tables(const Grid& g) {
    const Shape& d = g.shape;
    TensorSteps t = tensor_steps(g);
    PlaceTables pt;
    size_t r = d.size();
    if (r == 0) {
        pt.lo = {0, 0};
        pt.hi = {0, 0};
        return pt;
    }
    // Take trailing axes while the low table stays within ~64K entries (the
    // last axis always), so both tables stay small next to n.
    size_t a = r - 1;
    int64_t L = d[a];
    while (a > 0 && L * d[a - 1] <= (int64_t(1) << 16)) L *= d[--a];
    axis_table(d, t, a, r, pt.lo);
    axis_table(d, t, 0, a, pt.hi);
    pt.split = Divider(L);
    return pt;
}

}  // namespace

void stage_places(const Plan& p, size_t k, std::vector<float>& xy) {
    std::vector<int64_t> off = p.offsets(k);
    places_of_offsets(p.stages.at(k).grid, off.data(), int64_t(off.size()), xy);
}

void places_of_offsets(const Grid& g, const int64_t* off, int64_t n, std::vector<float>& xy) {
    xy.resize(size_t(n) * 2);
    float* out = xy.data();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    if (g.linear) {
        const Divider row(g.row_elems);
        const Divider band(g.band_rows > 0 ? g.band_rows : int64_t(1) << 50);
        const float band_w = float(g.row_elems + 2);
        split2(n, [&](int64_t lo, int64_t hi) {
            for (int64_t i = lo; i < hi; ++i) {
                int64_t o = off[i];
                if (o < 0) {
                    out[2 * i] = out[2 * i + 1] = nan;
                    continue;
                }
                int64_t r = row.div(o), b = band.div(r);
                out[2 * i] = float(b) * band_w + float(o - r * g.row_elems);
                out[2 * i + 1] = float(r - b * band.d);
            }
        });
        return;
    }
    const PlaceTables t = place_tables(g);
    split2(n, [&](int64_t lo, int64_t hi) {
        for (int64_t i = lo; i < hi; ++i) {
            int64_t o = off[i];
            if (o < 0) {
                out[2 * i] = out[2 * i + 1] = nan;
                continue;
            }
            int64_t h = t.split.div(o), l = o - h * t.split.d;
            out[2 * i] = t.hi[size_t(2 * h)] + t.lo[size_t(2 * l)];
            out[2 * i + 1] = t.hi[size_t(2 * h + 1)] + t.lo[size_t(2 * l + 1)];
        }
    });
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

const char* name(CellSet::Role r) {
    switch (r) {
        case CellSet::current:
            return "current";
        case CellSet::done:
            return "done";
        case CellSet::pinned:
            return "pinned";
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

void cell_colours(const Plan& p, ColourMode m, int64_t fractal_elems_, Rgba8* out) {
    const int64_t n = p.cell_count;
    const Shape& d = p.src_shape;
    const int r = int(d.size());
    // The colour map sampled finely enough that a lookup equals colour_map(t)
    // to within one step of the 8-bit output.
    constexpr int kLut = 1 << 16;
    static const std::vector<Rgba8> lut = [] {
        std::vector<Rgba8> v(kLut);
        for (int i = 0; i < kLut; ++i) v[size_t(i)] = colour_map(float(i) / float(kLut - 1));
        return v;
    }();
    auto from_t = [&](double t) { return lut[size_t(std::lround(t * (kLut - 1)))]; };
    const Rgba8 pad = {70, 70, 76, 0};
    bool generic = m == ColourMode::value || m == ColourMode::fractal;
    if (generic) {  // per fractal or per picture value: cheap enough cell by cell
        split2(n, [&](int64_t lo, int64_t hi) {
            for (int64_t i = lo; i < hi; ++i) out[i] = cell_colour(p, m, i, fractal_elems_);
        });
        return;
    }
    int axis = m == ColourMode::row       ? r - 2
               : m == ColourMode::column  ? r - 1
               : m == ColourMode::channel ? p.channel_axis
                                          : -1;
    int64_t stride = 1, dim = 1;
    double scale = 0;
    if (m == ColourMode::source_index) {
        scale = 1.0 / double(std::max<int64_t>(1, numel(d) - 1));
    } else if (axis >= 0 && axis < r) {
        for (int i = axis + 1; i < r; ++i) stride *= d[size_t(i)];
        dim = d[size_t(axis)];
        scale = dim > 1 ? 1.0 / double(dim - 1) : 0.0;
    }
    const Divider sd(stride), dd(dim);
    const int64_t* src = p.src.data();
    split2(n, [&](int64_t lo, int64_t hi) {
        for (int64_t i = lo; i < hi; ++i) {
            int64_t s = src[i];
            if (s < 0) {
                out[i] = pad;
                continue;
            }
            if (m != ColourMode::source_index) {
                int64_t q = sd.div(s);
                s = q - dd.div(q) * dim;
            }
            out[i] = from_t(double(s) * scale);
        }
    });
}
}  // namespace ll
