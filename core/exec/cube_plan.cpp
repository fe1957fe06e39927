#include "core/exec/cube_plan.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/error.hpp"
#include "core/exec/check.hpp"
#include "core/exec/conv.hpp"

namespace ll::exec {

void CubeScene::validate() const {
    check_range("m1", m1, 1, 4096);
    check_range("k1", k1, 1, 4096);
    check_range("n1", n1, 1, 4096);
    if (dtype != DType::fp16 && dtype != DType::int8)
        throw UsageError("dtype", std::string(name(dtype)) + "; expected fp16 or int8");
}

CubeScene cube_case_study() {
    const ConvShapes s = conv_shapes(conv_case_study());
    CubeScene c;
    c.m1 = s.m1;
    c.k1 = s.k1;
    c.n1 = s.n1;
    return c;
}

CubeLayout cube_layout(const CubeScene& s, float aspect) {
    s.validate();
    CubeLayout l;
    l.fw = s.dtype == DType::int8 ? 2 : 1;
    // B (k1*fw rows; its n ticks stand above its top edge), three free rows
    // (A's header and k ticks, the B -> C arrow).
    l.top = s.k1 * l.fw + 3;
    l.stride = s.k1 * l.fw + 1 + s.n1 + 2;  // A, a gap, C, two free columns
    const auto off = [&](int64_t strips) {
        const int64_t rows = ceil_div(s.m1, strips);
        const double w = double(strips * l.stride - 2), h = double(l.top + rows);
        return std::abs(std::log(w / h / double(aspect)));
    };
    // Unfolded when within 2.5x of the aspect (the classic picture), else
    // the number of strips that comes closest (the small example folds in
    // two on a 1600x1000 slide, where its cells grow from 86 to 110 px).
    int64_t best = 1;
    for (int64_t k = 2; k <= s.m1 && off(1) > std::log(2.5); ++k) {
        if (ceil_div(s.m1, k) == ceil_div(s.m1, k - 1)) continue;  // same rows, wider
        if (off(k) < off(best)) best = k;
    }
    l.strips = best;
    l.rows = ceil_div(s.m1, best);
    l.strips = ceil_div(s.m1, l.rows);  // no empty strip
    l.width = l.strips * l.stride - 2;
    l.height = l.top + l.rows;
    return l;
}

CubeState cube_state(const CubeScene& s, int64_t step) {
    s.validate();
    check_range("step", step, 0, s.steps());
    CubeState st;
    st.step = step;
    st.steps = s.steps();
    st.done = step >= st.steps;
    st.shape = cube_shape(s.dtype);
    st.macs = step * st.shape.m0 * st.shape.k0 * st.shape.n0;
    if (!st.done) {
        // cube_schedule's order: k outermost, then n, then m.
        const int64_t k = step / (s.n1 * s.m1), n = step / s.m1 % s.n1, m = step % s.m1;
        st.current = {k, n, m, m * s.k1 + k, k * s.n1 + n, n * s.m1 + m, k == 0};
    }
    return st;
}

int64_t cube_summed(const CubeScene& s, int64_t step, int64_t n, int64_t m) {
    if (step >= s.steps()) return s.k1;
    // Every full k pass adds one product to each C fractal; in the current
    // pass (k = step / (N1*M1)) the (n, m) visited before `step` have one more.
    const int64_t per_k = s.n1 * s.m1, k = step / per_k, in_pass = step % per_k;
    return k + (n * s.m1 + m < in_pass ? 1 : 0);
}

Plan cube_plan(const CubeScene& s, int64_t step, float aspect) {
    const CubeState st = cube_state(s, step);
    const CubeLayout l = cube_layout(s, aspect);
    const int64_t na = s.m1 * s.k1 * l.fw, nb = s.k1 * s.n1 * l.fw, nc = s.n1 * s.m1;
    const int64_t cells = na + nb + nc;
    if (cells > kCubePlanCells)
        throw UsageError("cube", std::to_string(cells) + " cells to draw (M1*K1 + K1*N1 + M1*N1 " +
                                     "blocks of 16x16); expected at most " +
                                     std::to_string(kCubePlanCells));
    Plan p;
    p.title = "Cube: A row x B column -> C fractal";
    p.dtype = s.dtype;
    p.cell_count = cells;
    // Colour planes: red (C), green (B), blue (A); each cell's brightness in values.
    p.src_shape = {3, cells};
    p.channel_axis = 0;
    p.src.resize(size_t(cells));
    p.values.assign(size_t(3 * cells), 0);
    std::vector<int64_t> off(size_t(cells), -1);
    const auto at = [&](float x, float y) { return int64_t(y) * l.width + int64_t(x); };
    const auto put = [&](int64_t cell, int plane, uint8_t v, float x, float y) {
        p.src[size_t(cell)] = plane * cells + cell;
        p.values[size_t(plane * cells + cell)] = v;
        off[size_t(cell)] = at(x, y);
    };
    for (int64_t m = 0; m < s.m1; ++m)
        for (int64_t k = 0; k < s.k1; ++k)
            for (int64_t j = 0; j < l.fw; ++j)
                put((m * s.k1 + k) * l.fw + j, 2, 215, l.a_x(m) + float(k * l.fw + j), l.row_y(m));
    for (int64_t k = 0; k < s.k1; ++k)
        for (int64_t n = 0; n < s.n1; ++n)
            for (int64_t j = 0; j < l.fw; ++j)
                put(na + (k * s.n1 + n) * l.fw + j, 1, 175, l.b_x(s.k1) + float(n),
                    l.b_y() + float(k * l.fw + j));
    for (int64_t n = 0; n < s.n1; ++n)
        for (int64_t m = 0; m < s.m1; ++m) {
            const double t = double(cube_summed(s, step, n, m)) / double(s.k1);
            put(na + nb + n * s.m1 + m, 0, uint8_t(std::lround(55 + 200 * t)),
                l.c_x(m, s.k1) + float(n), l.row_y(m));
        }

    const Shape canvas = {l.height, l.width};
    Stage g = stage("cube", "C[n][m] += A[m][k] x B[k][n], loop K -> N -> M", canvas,
                    tensor_grid(canvas));
    g.axes = {"y", "x"};
    const float fw = float(l.fw), k1w = float(s.k1) * fw, n1 = float(s.n1);
    // Headers and the matrices' outlines (one pair per strip for A and C).
    // A's header stands just above its k ticks, both in screen pixels over
    // the strip's top edge (at a fixed cell offset it floated ~170 px above
    // the ticks on the desk slide); C's stands right of C's first row, as
    // B's does right of B: above C it sat in the B -> C arrow's path.
    auto label = [&](Label::Kind kind, Label::Side side, Label::Align align, uint8_t lane, float x,
                     float y, std::string t) {
        Label lb;
        lb.x = x, lb.y = y, lb.text = std::move(t), lb.kind = kind;
        lb.side = side, lb.align = align, lb.lane = lane;
        g.labels.push_back(std::move(lb));
    };
    const float top = float(l.top);
    for (int64_t strip = 0; strip < l.strips; ++strip) {
        const int64_t m0 = strip * l.rows, rows = std::min(l.rows, s.m1 - m0);
        const float ax = l.a_x(m0), cx = l.c_x(m0, s.k1);
        g.boxes.push_back({ax, l.row_y(m0), k1w, float(rows), Box::outline, ""});
        g.boxes.push_back({cx, l.row_y(m0), n1, float(rows), Box::outline, ""});
        // Every strip is an A | C pair of its own with the same headers and
        // k ticks; n ticks over every C but the first (under B's).
        label(Label::caption, Label::above, Label::left, 1, ax, top, "A (ZZ)");
        label(Label::caption, Label::at, Label::left, 0, cx + n1 + 0.2f, top + 0.5f, "C (NZ)");
        for (int64_t k = 0; k < s.k1; ++k)
            label(Label::tick, Label::above, Label::centre, 0, ax + float(k) * fw + fw / 2, top,
                  "k" + std::to_string(k));
        if (strip > 0)
            for (int64_t n = 0; n < s.n1; ++n)
                label(Label::tick, Label::above, Label::centre, 0, cx + float(n) + 0.5f, top,
                      "n" + std::to_string(n));
        // A's (and C's) fractal rows, left of A's edge in pixels (drawn
        // "at" the cells they were left out where cells are smaller than text).
        for (int64_t m = m0; m < m0 + rows; ++m)
            label(Label::tick, Label::left_of, Label::right, 0, l.a_x(m), l.row_y(m) + 0.5f,
                  "m" + std::to_string(m));
    }
    g.boxes.push_back({l.b_x(s.k1), l.b_y(), n1, k1w, Box::outline, ""});
    label(Label::caption, Label::at, Label::left, 0, l.b_x(s.k1) + n1 + 0.6f, l.b_y() + 0.5f,
          "B (ZN)");
    for (int64_t n = 0; n < s.n1; ++n)  // n over B's columns
        label(Label::tick, Label::above, Label::centre, 0, l.b_x(s.k1) + float(n) + 0.5f, l.b_y(),
              "n" + std::to_string(n));
    if (!st.done) {
        const CubeStep& c = st.current;
        const float y = l.row_y(c.m);
        g.boxes.push_back({l.a_x(c.m), y, k1w, 1, Box::tile, ""});
        g.boxes.push_back({l.b_x(s.k1) + float(c.n), l.b_y(), 1, k1w, Box::tile, ""});
        g.boxes.push_back({l.a_x(c.m) + float(c.k) * fw, y, fw, 1, Box::highlight, ""});
        g.boxes.push_back(
            {l.b_x(s.k1) + float(c.n), l.b_y() + float(c.k) * fw, 1, fw, Box::highlight, ""});
        g.boxes.push_back({l.c_x(c.m, s.k1) + float(c.n), y, 1, 1, Box::highlight, ""});
        for (int64_t j = 0; j < l.fw; ++j) {
            g.highlight.push_back(c.a * l.fw + j);
            g.highlight.push_back(na + c.b * l.fw + j);
        }
        g.highlight.push_back(na + nb + c.c);
        const float cx = l.c_x(c.m, s.k1) + float(c.n) + 0.5f;
        g.arrows.push_back({l.a_x(c.m) + float(c.k) * fw + fw, y + 0.5f, cx - 0.5f, y + 0.5f, ""});
        g.arrows.push_back(
            {l.b_x(s.k1) + float(c.n) + 0.5f, l.b_y() + float(c.k) * fw + fw, cx, y, ""});
    }
    p.stages = {g};
    auto o = std::make_shared<std::vector<int64_t>>(std::move(off));
    p.offsets = [o](size_t) { return *o; };
    p.offset_of = [o](size_t, int64_t cell) { return (*o)[size_t(cell)]; };
    return p;
}

// ---- values ----------------------------------------------------------------------

namespace {

// A fixed pseudo-random integer per index (Knuth's multiplicative hash).
inline uint64_t mix(uint64_t i) {
    return (i * 2654435761u) >> 7;
}

template <class T, class Acc>
struct Run {
    int64_t m1 = 0, k1 = 0, n1 = 0, k0 = 16, applied = 0;
    std::vector<T> a, bt;  // A fractals [m][k]; B fractals [k][n] transposed to [K0][16]
    std::vector<Acc> c;    // C fractals [n][m], 16x16 each
    void reset(const CubeScene& s, int64_t kk) {
        m1 = s.m1, k1 = s.k1, n1 = s.n1, k0 = kk, applied = 0;
        const int64_t fa = 16 * k0;
        a.resize(size_t(m1 * k1 * fa));
        for (size_t i = 0; i < a.size(); ++i) a[i] = T(int64_t(mix(i) % 7) - 3);
        bt.resize(size_t(k1 * n1 * fa));
        std::vector<T> b(static_cast<size_t>(fa), T(0));
        for (int64_t f = 0; f < k1 * n1; ++f) {
            for (int64_t e = 0; e < fa; ++e)
                b[size_t(e)] = T(int64_t(mix(uint64_t(f * fa + e) + 12345) % 5) - 2);
            auto t = transpose_b_fractal(b.data(), k0);
            std::copy(t.begin(), t.end(), bt.begin() + f * fa);
        }
        c.assign(size_t(n1 * m1 * 256), Acc(0));
    }
    void step(const CubeStep& s, Acc* out) const {
        mmad_fractal(&a[size_t(s.a * 16 * k0)], &bt[size_t(s.b * 16 * k0)], out, k0);
    }
    CubeValues values(const CubeScene& sc, int64_t n) {
        if (n < applied) {
            std::fill(c.begin(), c.end(), Acc(0));
            applied = 0;
        }
        for (; applied < n; ++applied) {
            const CubeStep s = cube_state(sc, applied).current;
            step(s, &c[size_t(s.c * 256)]);
        }
        CubeValues v;
        const CubeStep s = cube_state(sc, n).current;
        std::vector<Acc> cur(c.begin() + s.c * 256, c.begin() + (s.c + 1) * 256);
        v.c_fractal = s.c;
        for (int i = 0; i < 16; ++i) v.before.push_back(double(cur[size_t(i)]));
        step(s, cur.data());
        for (int i = 0; i < 16; ++i) v.after.push_back(double(cur[size_t(i)]));
        return v;
    }
};

}  // namespace

struct CubeRun::Impl {
    CubeScene scene;
    bool on = false;
    Run<float, float> f;     // fp16 data (small integers), fp32 accumulation
    Run<int8_t, int32_t> i;  // int8 data, int32 accumulation
};

CubeRun::CubeRun(const CubeScene& s) : impl_(std::make_unique<Impl>()) {
    s.validate();
    impl_->scene = s;
    impl_->on = s.m1 * s.k1 + s.k1 * s.n1 + s.n1 * s.m1 <= kMaxFractals;
    if (!impl_->on) return;
    if (s.dtype == DType::int8)
        impl_->i.reset(s, 32);
    else
        impl_->f.reset(s, 16);
}

CubeRun::~CubeRun() = default;

bool CubeRun::has_values() const {
    return impl_->on;
}

CubeValues CubeRun::values(int64_t step) {
    const CubeScene& s = impl_->scene;
    if (!impl_->on || step < 0 || step >= s.steps()) return {};
    return s.dtype == DType::int8 ? impl_->i.values(s, step) : impl_->f.values(s, step);
}

// ---- printable forms --------------------------------------------------------------

nlohmann::json cube_state_json(const CubeScene& s, const CubeState& st, const CubeValues& v) {
    nlohmann::json j = {
        {"m1", s.m1},      {"k1", s.k1},        {"n1", s.n1},      {"dtype", name(s.dtype)},
        {"step", st.step}, {"steps", st.steps}, {"macs", st.macs}, {"done", st.done}};
    if (!st.done) {
        const CubeStep& c = st.current;
        j["current"] = {{"k", c.k},
                        {"n", c.n},
                        {"m", c.m},
                        {"a_fractal", c.a},
                        {"b_fractal", c.b},
                        {"c_fractal", c.c},
                        {"first_k", c.first_k}};
    }
    if (v.c_fractal >= 0)
        j["values"] = {{"c_fractal", v.c_fractal}, {"before", v.before}, {"after", v.after}};
    return j;
}

std::string cube_state_text(const CubeScene& s, const CubeState& st, const CubeValues& v) {
    std::ostringstream o;
    o << "Cube " << name(s.dtype) << ": M1 " << s.m1 << " x K1 " << s.k1 << " x N1 " << s.n1 << ", "
      << st.shape.m0 << "x" << st.shape.k0 << "x" << st.shape.n0 << " per step\n";
    o << "step " << st.step << " / " << st.steps << ", " << st.macs << " MACs so far\n";
    if (st.done) {
        o << "done: every C fractal holds the sum over all K1 fractal products\n";
    } else {
        const CubeStep& c = st.current;
        o << "k " << c.k << ", n " << c.n << ", m " << c.m << ": C[n" << c.n << "][m" << c.m << "] "
          << (c.first_k ? "=" : "+=") << " A[m" << c.m << "][k" << c.k << "] x B[k" << c.k << "][n"
          << c.n << "]  (fractals A " << c.a << ", B " << c.b << ", C " << c.c << ")\n";
    }
    if (v.c_fractal >= 0) {
        auto row = [&](const char* what, const std::vector<double>& r) {
            o << what;
            for (double x : r) o << " " << std::lround(x);
            o << "\n";
        };
        o << "C fractal " << v.c_fractal << " row 0 on small integers:\n";
        row("  before", v.before);
        row("  after ", v.after);
    }
    return o.str();
}

}  // namespace ll::exec
