#include "core/exec/plans.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

#include "core/plan_fit.hpp"
#include "core/plan_labels.hpp"

namespace ll::exec {

namespace {

// `format`: the fractal's own format as document 001 writes it for the buffer
// (ZZ, ZN, NZ), each box's tag; empty for none.
void add_fractal_boxes(Stage& st, int64_t elems, int64_t fractal_elems,
                       const std::string& format = "") {
    for (int64_t f = 0; f * fractal_elems < elems; ++f) {
        Place p = cell_place(st.grid, f * fractal_elems);
        Box b;
        b.x = p.x;
        b.y = p.y;
        b.w = float(st.grid.row_elems);
        b.h = float(fractal_elems / st.grid.row_elems);
        b.kind = Box::fractal;  // named by the fractal's address label (plan_labels)
        st.boxes.push_back(b);
        // The fractals' format (ZZ) once per band, above its right end, one
        // lane over the band's address: a tag over each fractal stood on the
        // last row of the fractal before it.
        if (format.empty() || p.y != 0.f) continue;
        Label l;
        l.x = p.x + b.w;
        l.y = 0;
        l.text = format;
        l.kind = Label::axis;
        l.side = Label::above;
        l.align = Label::right;
        l.lane = 2;
        l.room = b.w;
        st.labels.push_back(l);
    }
}

// The A fractals [N, M1/N, K1, 16, C0] as the Cube sees them: fractal rows m
// downwards and fractal columns k across (the Cube scene's A, M1 x K1), each
// image's block of rows beside the next when that suits the view better.
Stage a_fractal_stage(const Shape& sh, float aspect) {
    Stage g = stage("a_fractal", "16 x C0 fractals, big Z small Z: M1 down, K1 across", sh,
                    tensor_grid(sh));
    g.axes = {"N", "HoWo/16", "K1", "M0", "K0"};
    const int64_t n = sh[0];
    int64_t best = 1;
    float best_off = 1e30f;
    for (int64_t cols = 1; cols <= n; ++cols) {
        if (cols > 1 && ceil_div(n, cols - 1) == ceil_div(n, cols)) continue;
        Grid t = g.grid;
        t.wrap = {cols, 1, sh[2], 0, 0};
        const Extent e = grid_extent(t);
        const float off = std::abs(std::log(e.w / e.h / aspect));
        if (off < best_off) best_off = off, best = cols;
    }
    g.grid.wrap = {best, 1, sh[2], 0, 0};
    return g;
}

}  // namespace

Plan img2col_plan(const Img2colSpec& s, float input_aspect) {
    s.validate();
    Plan p;
    p.title = "img2col";
    p.dtype = DType::fp32;
    p.src_shape = {s.n, s.c, s.h, s.w};
    p.channel_axis = 1;
    p.src = img2col_index_map(s);
    p.cell_count = int64_t(p.src.size());
    const int64_t ph = s.h + s.win.pad_top + s.win.pad_bottom;
    const int64_t pw = s.w + s.win.pad_left + s.win.pad_right;
    // The input's (n, c) images wrap into rows that suit the view (32
    // channels of 7x7 stacked downwards drew a line 3 px wide).
    const auto grid = [&](const Shape& sh) {
        return input_aspect > 0 ? fitted_tensor_grid(sh, input_aspect) : tensor_grid(sh);
    };
    Stage in = stage("input", "X[n][c][h][w]", p.src_shape, grid(p.src_shape));
    Shape padded = {s.n, s.c, ph, pw};
    Stage pad = stage("pad", "pad top/bottom/left/right", padded, grid(padded));
    Shape m = {s.rows(), s.cols()};
    Stage mat = stage("img2col", "M[(n,oh,ow)][(c,kh,kw)] = X[n][c][oh*s+kh*d-p][ow*s+kw*d-p]", m,
                      tensor_grid(m));
    // The padded frame of every (n, c) image, so padding no window reads (the
    // bottom/right rows at stride 2) is drawn too, and the image inside it.
    if (s.n * s.c <= 1024)
        for (int64_t b = 0; b < s.n * s.c; ++b) {
            const Place o = cell_place(pad.grid, b * ph * pw);
            pad.boxes.push_back({o.x, o.y, float(pw), float(ph), Box::outline, ""});
            pad.boxes.push_back({o.x + float(s.win.pad_left), o.y + float(s.win.pad_top),
                                 float(s.w), float(s.h), Box::tile, ""});
        }
    in.axes = pad.axes = {"N", "C", "H", "W"};
    mat.axes = {"(n,oh,ow)", "(c,kh,kw)"};  // the matrix's row and column headers
    p.stages = {in, pad, mat};
    add_grid_labels(p);
    auto sp = std::make_shared<Img2colSpec>(s);
    auto src = std::make_shared<std::vector<int64_t>>(p.src);
    p.offsets = [sp, src, ph, pw](size_t k) {
        const Img2colSpec& q = *sp;
        std::vector<int64_t> off(src->size());
        if (k == 0) return *src;
        if (k >= 2) {
            for (size_t i = 0; i < off.size(); ++i) off[i] = int64_t(i);
            return off;
        }
        const int64_t ho = q.out_h(), wo = q.out_w(), cols = q.cols();
        for (size_t i = 0; i < off.size(); ++i) {
            int64_t row = int64_t(i) / cols, col = int64_t(i) % cols;
            int64_t ow = row % wo, oh = row / wo % ho, n = row / (wo * ho);
            int64_t kw = col % q.win.kw, kh = col / q.win.kw % q.win.kh,
                    c = col / (q.win.kw * q.win.kh);
            int64_t y = oh * q.win.stride_h + kh * q.win.dil_h,
                    x = ow * q.win.stride_w + kw * q.win.dil_w;
            off[i] = ((n * q.c + c) * ph + y) * pw + x;
        }
        return off;
    };
    return p;
}

Plan load_plan(const LoadResult& r, int64_t src_elems, DType t, const std::string& title,
               const std::string& src_name, const std::string& dst_name, float src_aspect,
               float dst_aspect) {
    Plan p;
    p.title = title;
    p.dtype = t;
    p.src_shape = {src_elems};
    p.src = r.dst_of;
    p.cell_count = int64_t(r.dst_of.size());
    const int64_t fe = r.geom.elems();
    p.number_period = fe;  // cells print their place in the source fractal
    Stage a = stage(src_name,
                    "source buffer, fractals of " + std::to_string(r.geom.rows) + "x" +
                        std::to_string(r.geom.cols),
                    {src_elems}, memory_grid(src_elems, t));
    a.grid.row_elems = r.geom.cols;  // one drawn row = one fractal row (32 bytes)
    fit_bands(a.grid, r.geom.rows, src_aspect);
    add_fractal_boxes(a, src_elems, fe);
    const std::string dst_fractal =
        r.dst_format.empty()
            ? ""
            : r.dst_format + " " + std::to_string(r.dst_rows) + "x" + std::to_string(r.dst_cols);
    Stage b = stage(dst_name,
                    dst_fractal.empty() ? "destination buffer"
                                        : "destination buffer, " + dst_fractal + " fractals",
                    {p.cell_count}, memory_grid(p.cell_count, t));
    b.grid.row_elems = r.geom.cols;
    fit_bands(b.grid, r.geom.rows, dst_aspect);
    add_fractal_boxes(b, p.cell_count, fe, r.dst_format);
    p.stages = {a, b};
    add_grid_labels(p);
    auto src = std::make_shared<std::vector<int64_t>>(r.dst_of);
    p.offsets = [src](size_t k) {
        if (k == 0) return *src;
        std::vector<int64_t> off(src->size());
        for (size_t i = 0; i < off.size(); ++i) off[i] = int64_t(i);
        return off;
    };
    return p;
}

Plan conv_a_plan(const ConvParams& cp, float aspect) {
    ConvShapes s = conv_shapes(cp);
    const int64_t c0 = cp.c0(), c1 = ceil_div(cp.cin, c0), ho = cp.out_h(), wo = cp.out_w();
    const int64_t howo = ho * wo, mf = ceil_div(howo, 16), k1 = s.k1, kk = cp.win.kh * cp.win.kw;
    Plan p;
    p.title = "conv: feature map to A fractals";
    p.dtype = cp.dtype;
    p.src_shape = {cp.n, cp.cin, cp.h, cp.w};
    p.channel_axis = 1;
    p.cell_count = cp.n * mf * k1 * 16 * c0;
    // Cells in the order (n, k, c0, output pixel): each run of consecutive
    // cells is one channel's pixels, near each other in every stage, so the
    // renderer's coarse level of detail (blocks of consecutive cells) stays
    // a faithful picture of the channels at any size. Per cell its place in
    // each stage: NC1HWC0 element, img2col element, A fractal element.
    p.src.assign(size_t(p.cell_count), -1);
    std::vector<int64_t> off5(size_t(p.cell_count), -1), offm(size_t(p.cell_count), -1),
        offa(size_t(p.cell_count), -1);
    int64_t i = 0;
    for (int64_t n = 0; n < cp.n; ++n)
        for (int64_t k = 0; k < k1; ++k)
            for (int64_t c = 0; c < c0; ++c)
                for (int64_t pos = 0; pos < mf * 16; ++pos, ++i) {
                    const int64_t mb = pos / 16, m0 = pos % 16;
                    offa[size_t(i)] = (((n * mf + mb) * k1 + k) * 16 + m0) * c0 + c;
                    if (pos >= howo) continue;
                    const int64_t cc = k / kk, y = k % kk / cp.win.kw, x = k % cp.win.kw;
                    const int64_t oh = pos / wo, ow = pos % wo;
                    offm[size_t(i)] = (n * howo + pos) * (k1 * c0) + k * c0 + c;
                    const int64_t ih = oh * cp.win.stride_h - cp.win.pad_top + y * cp.win.dil_h;
                    const int64_t iw = ow * cp.win.stride_w - cp.win.pad_left + x * cp.win.dil_w;
                    if (ih < 0 || ih >= cp.h || iw < 0 || iw >= cp.w) continue;
                    off5[size_t(i)] = (((n * c1 + cc) * cp.h + ih) * cp.w + iw) * c0 + c;
                    const int64_t ch = cc * c0 + c;
                    if (ch >= cp.cin) continue;
                    p.src[size_t(i)] = ((n * cp.cin + ch) * cp.h + ih) * cp.w + iw;
                }
    // The feature map's stages get the grid the explorer gives any tensor
    // (stage_grid, fitted to the view's shape), so a real size such as the
    // case study keeps every element its own place at a readable cell size.
    auto st = [&](const std::string& key, const std::string& formula,
                  std::vector<std::string> axes) {
        const Shape& sh = s.at(key);
        Stage g = stage(key, formula, sh, stage_grid(sh, aspect));
        g.axes = std::move(axes);
        return g;
    };
    p.stages = {st("input_nchw", "X[n][c][h][w]", {"N", "C", "H", "W"}),
                st("input_5hd", "C split into C1 x C0", {"N", "C1", "H", "W", "C0"}),
                st("img2col", "one row per output pixel", {"N", "HoWo", "C1*Kh*Kw*C0"}),
                a_fractal_stage(s.at("a_fractal"), aspect)};
    add_grid_labels(p);
    auto a = std::make_shared<std::vector<int64_t>>(p.src);
    auto b = std::make_shared<std::vector<int64_t>>(std::move(off5));
    auto c = std::make_shared<std::vector<int64_t>>(std::move(offm));
    auto d = std::make_shared<std::vector<int64_t>>(std::move(offa));
    p.offsets = [a, b, c, d](size_t k) {
        if (k == 0) return *a;
        if (k == 1) return *b;
        if (k == 2) return *c;
        return *d;
    };
    p.offset_of = [a, b, c, d](size_t k, int64_t cell) {
        const auto& v = k == 0 ? *a : k == 1 ? *b : k == 2 ? *c : *d;
        return v[size_t(cell)];
    };
    return p;
}

std::vector<CubeStep> cube_schedule(int64_t m1, int64_t k1, int64_t n1) {
    std::vector<CubeStep> v;
    v.reserve(size_t(m1 * k1 * n1));
    for (int64_t k = 0; k < k1; ++k)
        for (int64_t n = 0; n < n1; ++n)
            for (int64_t m = 0; m < m1; ++m)
                v.push_back({k, n, m, m * k1 + k, k * n1 + n, n * m1 + m, k == 0});
    return v;
}

}  // namespace ll::exec
