// Sections: [board] layout of strips and grids on one tensor grid, [views],
// [fusion], [dma + gather].
#include "core/view/view_plans.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <unordered_map>

#include "core/error.hpp"
#include "core/plan_labels.hpp"

namespace ll::view {

namespace {

DType dtype_of_bits(int bits) {
    return bits <= 8 ? DType::int8 : bits <= 16 ? DType::fp16 : DType::fp32;
}

// ---- [board] -------------------------------------------------------------------

// The name of a strip's margin column (its rows' first addresses).
const char* const kAddressAxis = "address";

std::string hex(int64_t v) {
    char b[32];
    std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
    return b;
}

// What one picture holds, described before any cell is placed, so the width
// can be chosen for the canvas: strips (n cells wrapped to the width) and
// grids (fixed columns), each under a caption.
struct Region {
    bool grid = false;
    int64_t n = 0;               // strip: cells
    int64_t rows = 0, cols = 0;  // grid: rows and columns (blocks of `block` rows)
    int64_t block = 0;           // grid: rows per block (0: one block)
    size_t label_chars = 0;      // the longest margin label
    int64_t gap_before = 0;      // blank rows above the caption
    std::string caption;
};

struct Layout2 {
    int64_t width = 1, margin = 1, caption_rows = 1;
    float zoom = 1;  // expected pixels per cell
    float font = 13;
    float canvas_w = 1200;  // the picture is centred on a canvas this wide
};

int64_t grid_rows(const Region& r) {
    int64_t blocks = r.block > 0 ? ceil_div(r.rows, r.block) : 1;
    return r.rows + (blocks - 1) + 1;  // block gaps and the tick row
}

// Text wrapped at spaces into lines of at most `fit` characters (a longer
// word gets a line of its own).
std::vector<std::string> wrap(const std::string& text, size_t fit) {
    std::vector<std::string> lines{""};
    size_t i = 0;
    while (i < text.size()) {
        size_t j = text.find(' ', i);
        if (j == std::string::npos) j = text.size();
        std::string word = text.substr(i, j - i);
        if (!lines.back().empty() && lines.back().size() + 1 + word.size() > fit)
            lines.push_back("");
        lines.back() += (lines.back().empty() ? "" : " ") + word;
        i = j + 1;
    }
    return lines;
}

// Characters of caption text that fit on screen from the board's left edge
// to the canvas's right edge (the board is centred on the canvas).
size_t caption_fit(const Layout2& l) {
    const float board = float(l.margin + l.width) * l.zoom;
    const float px = std::max(board, board + (l.canvas_w - 24 - board) / 2);
    return size_t(std::max(16.f, px / (0.58f * l.font)));
}

int64_t board_rows(const std::vector<Region>& regions, const Layout2& l) {
    int64_t rows = 0;
    const size_t fit = caption_fit(l);
    bool first_strip = true;
    for (const Region& r : regions) {
        rows += r.gap_before + l.caption_rows * int64_t(wrap(r.caption, fit).size()) +
                (r.grid ? grid_rows(r) - 1 : ceil_div(r.n, l.width));
        // Tick rows, as tall as a line of text: the grid's, and the first
        // strip's (every strip has the board's width: one row of ticks serves all).
        if (r.grid || first_strip) rows += l.caption_rows;
        if (!r.grid) first_strip = false;
    }
    return rows;
}

// The strip width that makes cells largest on the canvas (ties: the wider).
Layout2 choose_layout(const std::vector<Region>& regions, const Canvas& c, int64_t step = 1) {
    int64_t longest = 1, min_width = 1;
    size_t chars = 1;
    for (const Region& r : regions) {
        if (r.grid)
            min_width = std::max(min_width, r.cols);
        else
            longest = std::max(longest, r.n);
        chars = std::max(chars, r.label_chars);
    }
    const float label_px = float(chars) * 0.6f * c.font + 8;
    const float w = std::max(c.w - 24, 32.f), h = std::max(c.h - 24, 32.f);
    Layout2 best;
    best.zoom = -1;
    float best_score = -1;
    best.font = c.font;
    best.canvas_w = c.w;
    for (int64_t width = step; width <= std::max(longest, step); width += step) {
        Layout2 l;
        l.font = c.font;
        l.canvas_w = c.w;
        l.width = std::max(width, min_width);
        l.zoom = std::min(w / float(l.width + 1), 80.f);
        for (int it = 0; it < 4; ++it) {  // margin and caption rows depend on the cell size
            int64_t rows = board_rows(regions, l);
            l.zoom = std::min(w / float(l.width + l.margin), h / float(rows));
            l.zoom = std::min(l.zoom, 80.f);
            l.margin = std::max<int64_t>(1, int64_t(std::ceil(label_px / l.zoom)));
            l.caption_rows = std::max<int64_t>(1, int64_t(std::ceil(1.3f * c.font / l.zoom)));
        }
        int64_t rows = board_rows(regions, l);
        l.zoom = std::min({w / float(l.width + l.margin), h / float(rows), 80.f});
        // A width that fills every strip's rows (48 cells as 24 + 24, not
        // 22 + 22 + 4) wins over one with cells up to 5% larger.
        bool whole = true;
        for (const Region& r : regions)
            if (!r.grid && r.n > l.width && r.n % l.width != 0) whole = false;
        const float score = l.zoom * (whole ? 1.f : 0.95f);
        if (score >= best_score) best = l, best_score = score;
    }
    return best;
}

// Places cells and overlays on the board, top to bottom.
class Board {
  public:
    explicit Board(const Layout2& l) : l_(l) {}
    int64_t width() const { return l_.width; }
    int64_t row() const { return row_; }
    Stage& stage() { return st_; }
    int64_t cells() const { return int64_t(src_.size()); }

    void gap(int64_t rows) { row_ += rows; }
    // A caption from the board's left edge, wrapped at spaces into lines
    // that fit the board's expected width on screen.
    void caption(const std::string& text) {
        for (const std::string& t : wrap(text, caption_fit(l_))) {
            Label lb;
            lb.x = 0;
            lb.y = float(row_) + float(l_.caption_rows) * 0.5f;
            lb.text = t;
            lb.kind = Label::caption;
            st_.labels.push_back(lb);
            row_ += l_.caption_rows;
        }
    }
    int64_t add(int64_t r, int64_t c, int64_t src) {
        src_.push_back(src);
        off_.push_back(r * (l_.margin + l_.width) + l_.margin + c);
        return int64_t(src_.size()) - 1;
    }
    Place place(int64_t r, int64_t c) const { return {float(l_.margin + c), float(r)}; }
    Place place_of(int64_t cell) const {
        int64_t o = off_[size_t(cell)], w = l_.margin + l_.width;
        return {float(o % w), float(o / w)};
    }
    void margin_label(int64_t r, const std::string& text, Label::Kind kind) {
        Label lb;
        lb.x = float(l_.margin) - 0.15f;
        lb.y = float(r) + 0.5f;
        lb.text = text;
        lb.kind = kind;
        lb.align = Label::right;
        st_.labels.push_back(lb);
    }
    // A row of column ticks 0 .. cols-1 (every k-th, k = 1, 2, 5, 10, ...,
    // so that at the expected cell size no two touch) with `name` in the
    // margin: above every strip (name "address", the margin's addresses
    // below it) and every grid (its axis names). The row is as tall as a
    // caption line; the ticks stand above the cells below it (the renderer
    // thins them further when cells are smaller than expected).
    void column_ticks(int64_t cols, const std::string& name) {
        if (name == kAddressAxis) {  // strips share the board's columns: tick the first only
            if (strip_ticked_) return;
            strip_ticked_ = true;
        }
        const float px =
            float(std::to_string(std::max<int64_t>(cols - 1, 0)).size()) * 0.6f * l_.font + 6;
        const int64_t fit = std::max<int64_t>(1, int64_t(float(cols) * l_.zoom / px));
        const int64_t every = tick_step(cols, fit);
        const float below = float(row_ + l_.caption_rows);
        for (int64_t c = 0; c < cols; c += every) {
            Label t;
            t.x = place(row_, c).x + 0.5f;
            t.y = below;
            t.text = std::to_string(c);
            t.kind = Label::tick;
            t.align = Label::centre;
            t.side = Label::above;
            t.room = float(every);
            st_.labels.push_back(t);
        }
        margin_label(row_, name, Label::axis);
        st_.labels.back().y = float(row_) + float(l_.caption_rows) * 0.5f;
        row_ += l_.caption_rows;
    }
    // A row's ticks at the grid's left edge (thinned like column ticks).
    void row_tick(int64_t r, const std::string& text) {
        Label t;
        t.x = float(l_.margin);
        t.y = float(r) + 0.5f;
        t.text = text;
        t.kind = Label::tick;
        t.align = Label::right;
        t.side = Label::left_of;
        t.room = 1;
        st_.labels.push_back(t);
    }
    // A strip of n cells; src(i) is cell i's colour key; row r is labelled
    // addr(r) (empty: none). Returns the first cell.
    template <class Src, class Addr>
    int64_t strip(int64_t n, Src src, Addr addr) {
        int64_t first = cells();
        for (int64_t i = 0; i < n; ++i) add(row_ + i / l_.width, i % l_.width, src(i));
        int64_t rows = ceil_div(n, l_.width);
        for (int64_t r = 0; r < rows; ++r) {
            std::string a = addr(r);
            if (a.empty()) continue;
            // At the strip's left edge, from the row's top down (never up
            // into the ticks or the caption above when rows are small).
            Label lb;
            lb.x = float(l_.margin);
            lb.y = float(row_ + r) + 0.5f;
            lb.text = a;
            lb.kind = Label::address;
            lb.align = Label::right;
            lb.side = Label::left_of;
            st_.labels.push_back(lb);
        }
        row_ += rows;
        return first;
    }
    // The row on which strip cell i (of a strip starting at row r0) sits.
    int64_t strip_row(int64_t r0, int64_t i) const { return r0 + i / l_.width; }

    Plan finish(std::string title, int64_t colour_count, std::string label, std::string formula) {
        Plan p;
        p.title = std::move(title);
        p.cell_count = cells();
        p.src_shape = {std::max<int64_t>(1, colour_count)};
        p.src = src_;
        Shape shape{std::max<int64_t>(row_, 1), l_.margin + l_.width};
        Stage s = std::move(st_);
        s.label = std::move(label);
        s.formula = std::move(formula);
        s.shape = shape;
        s.grid = tensor_grid(shape);
        p.stages.push_back(std::move(s));
        auto table = std::make_shared<std::vector<std::vector<int64_t>>>(1, off_);
        set_offsets(p, table);
        return p;
    }
    std::vector<int64_t>& offsets() { return off_; }

    static void set_offsets(Plan& p, std::shared_ptr<std::vector<std::vector<int64_t>>> t) {
        p.offsets = [t](size_t k) { return (*t)[k]; };
        p.offset_of = [t](size_t k, int64_t cell) { return (*t)[k][size_t(cell)]; };
    }

  private:
    Layout2 l_;
    int64_t row_ = 0;
    bool strip_ticked_ = false;
    std::vector<int64_t> src_, off_;
    Stage st_;
};

std::string coord_text(const Coord& c) {
    std::string s;
    for (size_t i = 0; i < c.size(); ++i) s += (i ? "," : "") + std::to_string(c[i]);
    return s;
}

// The axis names of a view's grid: rows are indexed by all dims but the
// last, columns by the last, e.g. "i0,i1 \\ i2" for rank 3.
std::string axis_names(const Shape& s) {
    if (s.empty()) return "scalar";
    std::string rows;
    for (size_t d = 0; d + 1 < s.size(); ++d) rows += (d ? "," : "") + ("i" + std::to_string(d));
    return (rows.empty() ? "" : rows + " \\ ") + "i" + std::to_string(s.size() - 1);
}

// Boxes around the maximal runs of `mask` cells on each row of a strip.
void run_boxes(Board& b, int64_t first, const std::vector<bool>& mask, Box::Kind kind) {
    const Place p0 = b.place_of(first);
    int64_t n = int64_t(mask.size()), w = b.width();
    for (int64_t i = 0; i < n;) {
        if (!mask[size_t(i)]) {
            ++i;
            continue;
        }
        int64_t j = i;
        while (j < n && mask[size_t(j)] && j / w == i / w) ++j;
        Box bx;
        bx.x = p0.x + float(i % w);
        bx.y = p0.y + float(i / w);
        bx.w = float(j - i);
        bx.h = 1;
        bx.kind = kind;
        b.stage().boxes.push_back(bx);
        i = j;
    }
}

}  // namespace

// ---- [views] ---------------------------------------------------------------------

Chain apply_chain(const View& input, const std::vector<Op>& ops, ReshapeRule rule) {
    Chain c{{input}, {false}};
    for (size_t i = 0; i < ops.size(); ++i) {
        try {
            Applied a = apply(c.views.back(), ops[i], rule);
            c.views.push_back(a.view);
            c.copied.push_back(a.copied);
        } catch (const UsageError& e) {
            throw UsageError("ops[" + std::to_string(i) + "]", e.what());
        }
    }
    return c;
}

std::pair<std::string, std::string> address_formula(const View& v, const Coord& c) {
    std::string f = "index " + ll::to_string(c) + ":  address = base + (offset";
    std::string nums = hex(v.base) + " + (" + std::to_string(v.layout.offset);
    for (size_t i = 0; i < c.size(); ++i) {
        const auto& m = v.layout.modes[i];
        f += " + i" + std::to_string(i) + "*s" + std::to_string(i);
        nums += m.flat() ? " + " + std::to_string(c[i]) + "*" + std::to_string(m.subs[0].stride)
                         : " + " + std::to_string(m(c[i]));
    }
    f += ") * elem_size";
    nums += ") * " + std::to_string(v.elem_bits / 8) + " = " + hex(v.address(c)) + "   (element " +
            std::to_string(v.element_offset(c)) + " of storage " + std::to_string(v.storage) +
            (v.storage ? ", storage-0 element " + std::to_string(resolve(v, c)) : "") + ")";
    return {f, nums};
}

namespace {

// The storages v depends on: storage 0, then each copy in order; chain[k]
// lives on storage k and was filled from chain[k-1].
std::vector<const View*> storages(const View& v) {
    std::vector<const View*> chain;
    for (const View* p = &v; p; p = p->source.get()) chain.push_back(p);
    std::reverse(chain.begin(), chain.end());
    return chain;
}

// What the picture of view v holds: a strip per storage, then the grid.
std::vector<Region> view_regions(const View& v) {
    const std::vector<const View*> chain = storages(v);
    const int64_t nv = v.layout.size();
    for (const View* p : chain)
        if (p->storage_elems > kMaxViewCells || nv > kMaxViewCells)
            throw UsageError(
                "too many elements to draw (" + std::to_string(std::max(p->storage_elems, nv)) +
                "); expected at most " + std::to_string(kMaxViewCells) + " per storage and view");
    const Shape s = v.shape();
    const int eb = std::max(1, v.elem_bits / 8);
    std::vector<Region> regions;
    for (size_t k = 0; k < chain.size(); ++k) {
        Region r;
        r.n = chain[k]->storage_elems;
        r.label_chars = std::max(hex(chain[k]->base + r.n * eb).size(), size_t(7));
        r.gap_before = k ? 1 : 0;
        const View& sv = *chain[k];
        r.caption = k == 0 ? "storage 0 (never moves), " + std::to_string(eb) + " B per element"
                           : "storage " + std::to_string(k) +
                                 (sv.gather   ? " (gathered through an index array)"
                                  : sv.im2col ? " (the im2col matrix, window by window)"
                                              : " (a row-major copy)");
        regions.push_back(r);
    }
    Region g;
    g.caption = "view " + ll::to_string(s) + " strides " +
                (v.layout.flat() ? ll::to_string(v.layout.strides()) : to_string(v.layout)) +
                " offset " + std::to_string(v.layout.offset) +
                ": each cell shows the storage-0 element it reads";
    g.grid = true;
    g.cols = s.empty() ? 1 : s.back();
    g.rows = std::max<int64_t>(1, nv / std::max<int64_t>(g.cols, 1));
    g.block = s.size() >= 3 ? s[s.size() - 2] : 0;
    g.gap_before = 1;
    g.label_chars = std::max(axis_names(s).size(),
                             s.size() >= 2 ? coord_text(Coord(s.begin(), s.end() - 1)).size() : 1);
    regions.push_back(g);
    return regions;
}

}  // namespace

ViewsScene views_scene(const Chain& ch, size_t step, const Canvas& canvas) {
    if (ch.views.empty()) throw UsageError("no views to draw");
    step = std::min(step, ch.views.size() - 1);
    const View& v = ch.views[step];
    // One layout for every step (the strips of the last step's storages,
    // the largest grid), so stepping never moves storage 0 on screen.
    std::vector<Region> envelope = view_regions(ch.views.back());
    Region& eg = envelope.back();
    for (const View& w : ch.views) {
        Region g = view_regions(w).back();
        eg.rows = std::max(eg.rows, grid_rows(g) - 1);  // its block gaps included
        eg.cols = std::max(eg.cols, g.cols);
        eg.label_chars = std::max(eg.label_chars, g.label_chars);
        if (g.caption.size() > eg.caption.size()) eg.caption = g.caption;
    }
    eg.block = 0;
    const std::vector<Region> regions = view_regions(v);
    const std::vector<const View*> chain = storages(v);
    const int64_t n0 = chain.front()->storage_elems, nv = v.layout.size();
    const Shape s = v.shape();
    const int64_t cols = regions.back().cols, rows = regions.back().rows;
    const int64_t block = regions.back().block;
    const int eb = std::max(1, v.elem_bits / 8);
    const Layout2 layout = choose_layout(envelope, canvas);
    Board b(layout);

    ViewsScene sc;
    std::vector<int64_t> strip_row0;
    for (size_t k = 0; k < chain.size(); ++k) {
        const View& sv = *chain[k];
        if (k) b.gap(1);
        b.caption(regions[k].caption);
        // What each element of this storage holds, as an element of storage 0.
        auto origin = [&](int64_t e) {
            return k == 0 ? e : resolve(*sv.source, source_coord(sv, e));
        };
        const int64_t base = sv.base, w = b.width();
        b.column_ticks(w, kAddressAxis);
        strip_row0.push_back(b.row());
        sc.strip_first.push_back(
            b.strip(sv.storage_elems, origin, [&](int64_t r) { return hex(base + r * w * eb); }));
    }
    // The grid: index ticks above, the leading coordinates of each row on the left.
    b.gap(1);
    b.caption(regions.back().caption);
    b.column_ticks(cols, axis_names(s));
    sc.grid_first = b.cells();
    const int64_t grid_row0 = b.row();
    std::vector<int64_t> row_of(static_cast<size_t>(rows));
    for (int64_t r = 0, y = grid_row0; r < rows; ++r, ++y) {
        if (block > 0 && r > 0 && r % block == 0) ++y;
        row_of[size_t(r)] = y;
        if (s.size() >= 2) {
            Coord lead = unravel(r * cols, s);
            lead.pop_back();
            b.row_tick(y, coord_text(lead));
        }
    }
    for (int64_t i = 0; i < nv; ++i)
        b.add(row_of[size_t(i / cols)], i % cols, resolve(v, unravel(i, s)));
    b.gap(row_of.back() - grid_row0 + 1);
    // Which storage cells the view reads; hover links both ways.
    const size_t last = chain.size() - 1;
    const int64_t n_last = v.storage_elems;
    std::vector<bool> read_own(size_t(n_last), false), read0(size_t(n0), false);
    sc.links.assign(size_t(b.cells()), {});
    for (int64_t i = 0; i < nv; ++i) {
        Coord c = unravel(i, s);
        int64_t off = v.element_offset(c), e0 = resolve(v, c), cell = sc.grid_first + i;
        if (off >= 0 && off < n_last) {
            read_own[size_t(off)] = true;
            int64_t sc_cell = sc.strip_first[last] + off;
            sc.links[size_t(cell)].push_back(sc_cell);
            sc.links[size_t(sc_cell)].push_back(cell);
        }
        if (e0 >= 0 && e0 < n0) {
            read0[size_t(e0)] = true;
            int64_t s0 = sc.strip_first[0] + e0;
            if (last != 0) {
                sc.links[size_t(cell)].push_back(s0);
                sc.links[size_t(s0)].push_back(cell);
            }
        }
    }
    sc.read = int64_t(std::count(read_own.begin(), read_own.end(), true));
    // A view that reads part of a storage: its runs are tinted on that strip.
    if (sc.read < n_last) run_boxes(b, sc.strip_first[last], read_own, Box::highlight);
    if (last != 0 && std::count(read0.begin(), read0.end(), true) < n0)
        run_boxes(b, sc.strip_first[0], read0, Box::highlight);
    b.gap(std::max<int64_t>(0, board_rows(envelope, layout) - b.row()));
    sc.plan = b.finish("views", n0, "view " + ll::to_string(s),
                       "address = base + (offset + sum i_d * s_d) * elem_size");
    sc.plan.dtype = dtype_of_bits(v.elem_bits);
    return sc;
}

// ---- [fusion] ----------------------------------------------------------------------

FusionScene fusion_scene(const Fused& f, const Canvas& canvas) {
    const int64_t n0 = f.input.storage_elems;
    struct Buf {
        std::string caption;
        const View* map;  // nullptr: the input as it lies
        int64_t n;
        int64_t gap;
    };
    const int bits = f.input.elem_bits;
    auto bytes = [&](int64_t n) { return (n * bits + 7) / 8; };
    std::vector<Buf> bufs;
    bufs.push_back({"UNFUSED: input", nullptr, n0, 0});
    for (size_t k = 0; k < f.steps.size(); ++k) {
        const auto& s = f.steps[k];
        std::string cost = s.writes == 0 ? "free, a view of the buffer before"
                                         : std::to_string(bytes(s.reads)) + " B read, " +
                                               std::to_string(bytes(s.writes)) + " B written";
        bufs.push_back({"step " + std::to_string(k + 1) + " " + s.op.text + ": " + cost, &s.map,
                        numel(s.out_shape), 0});
    }
    bufs.push_back({std::string("FUSED: input, read once through the fused map") +
                        (f.distinct_reads >= n0 ? "" : " (tinted: read; the rest is never read)"),
                    nullptr, n0, 1});
    bufs.push_back({"output: " + std::to_string(f.moved_bytes) + " B in one pass", &f.result,
                    f.result.layout.size(), 0});
    std::vector<Region> regions;
    for (const Buf& b : bufs) {
        if (b.n > kMaxFusionCells)
            throw UsageError("too many elements to draw (" + std::to_string(b.n) +
                             "); expected at most " + std::to_string(kMaxFusionCells) +
                             " per buffer");
        Region r;
        r.n = b.n;
        r.gap_before = b.gap;
        r.label_chars = std::max(("+" + std::to_string(bytes(b.n))).size(), size_t(7));
        r.caption = b.caption;
        regions.push_back(r);
    }
    Board board(choose_layout(regions, canvas));
    FusionScene sc;
    std::unordered_map<int64_t, std::vector<int64_t>> holders;  // element -> cells
    std::vector<bool> fused_reads(size_t(n0), false);
    for (const Buf& bf : bufs) {
        board.gap(bf.gap);
        board.caption(bf.caption);
        auto element = [&](int64_t i) {
            return bf.map ? resolve(*bf.map, unravel(i, bf.map->shape())) : i;
        };
        const int64_t w = board.width();
        board.column_ticks(w, kAddressAxis);
        int64_t first = board.strip(bf.n, element,
                                    [&](int64_t r) { return "+" + std::to_string(bytes(r * w)); });
        sc.buffer_first.push_back(first);
        sc.buffer_size.push_back(bf.n);
        for (int64_t i = 0; i < bf.n; ++i) {
            int64_t e = element(i);
            holders[e].push_back(first + i);
            if (&bf == &bufs.back() && e >= 0 && e < n0) fused_reads[size_t(e)] = true;
        }
    }
    if (std::count(fused_reads.begin(), fused_reads.end(), true) < n0)
        run_boxes(board, sc.buffer_first[bufs.size() - 2], fused_reads, Box::highlight);
    sc.links.assign(size_t(board.cells()), {});
    for (auto& [e, cells] : holders)
        for (int64_t c : cells) sc.links[size_t(c)] = cells;
    sc.plan = board.finish("fusion", n0, "buffers", "fused map " + map_string(f.result));
    sc.plan.dtype = dtype_of_bits(bits);
    return sc;
}

// ---- [dma + gather] --------------------------------------------------------------

std::vector<DmaRow> dma_rows(const Dma& d, const Shape& logical, int64_t first, int64_t last) {
    std::vector<DmaRow> rows;
    first = std::max<int64_t>(0, first);
    last = std::min(last, d.count() - 1);
    if (last < first) return rows;
    int64_t from = std::max<int64_t>(0, first - 1);
    auto ev = stream(d, from, last - from + 1);
    for (size_t i = size_t(first - from); i < ev.size(); ++i) {
        DmaRow r;
        r.step = ev[i].step;
        r.element = unravel(ev[i].step, logical);
        r.read = ev[i].read;
        r.write = ev[i].write;
        r.read_delta = i ? ev[i].read - ev[i - 1].read : 0;
        r.write_delta = i ? ev[i].write - ev[i - 1].write : 0;
        rows.push_back(r);
    }
    return rows;
}

DmaScene dma_scene(const Dma& d, int64_t k, const Canvas& canvas) {
    const int64_t n = d.count();
    if (n > kMaxDmaCells)
        throw UsageError("too many elements to draw (" + std::to_string(n) +
                         "); expected at most " + std::to_string(kMaxDmaCells));
    k = std::clamp<int64_t>(k, 0, n);
    const int64_t eb = std::max(1, d.read.elem_bits / 8);
    std::vector<Region> regions(2);
    regions[0].n = regions[1].n = n;
    regions[1].gap_before = 1;
    regions[0].label_chars = std::max(hex(d.read.base + n * eb).size(), size_t(7));
    regions[1].label_chars = std::max(hex(d.write.base + n * eb).size(), size_t(7));
    regions[0].caption = "source memory, read AGU: " + to_string(d.read);
    regions[1].caption = "destination memory, write AGU: " + to_string(d.write);
    Board b(choose_layout(regions, canvas));
    const auto ev = stream(d, 0, n);
    std::vector<int64_t> src_elem(size_t(n), -1), dst_elem(size_t(n), -1);
    for (const auto& e : ev) {
        src_elem[size_t((e.read - d.read.base) / eb)] = e.step;
        dst_elem[size_t((e.write - d.write.base) / eb)] = e.step;
    }
    const int64_t w = b.width();
    b.caption(regions[0].caption);
    DmaScene sc;
    sc.per_row = w;
    b.column_ticks(w, kAddressAxis);
    sc.src_first = b.strip(
        n, [&](int64_t c) { return src_elem[size_t(c)]; },
        [&](int64_t r) { return hex(d.read.base + r * w * eb); });
    b.gap(1);
    b.caption(regions[1].caption);
    const int64_t dst_row0 = b.row();
    sc.dst_first = b.strip(
        n, [&](int64_t c) { return dst_elem[size_t(c)]; },
        [&](int64_t r) { return hex(d.write.base + r * w * eb); });
    // Empty destination slots stay visible as row outlines.
    for (int64_t r = 0; r < ceil_div(n, w); ++r) {
        Box bx;
        bx.x = b.place(dst_row0 + r, 0).x;
        bx.y = float(dst_row0 + r);
        bx.w = float(std::min(w, n - r * w));
        bx.h = 1;
        bx.kind = Box::row;
        b.stage().boxes.push_back(bx);
    }
    // Stage "before": destination cells of steps < k written, step k's
    // element still on its source cell; "after": it is written too.
    std::vector<int64_t> before = b.offsets(), after = b.offsets();
    for (int64_t c = 0; c < n; ++c) {
        int64_t st = dst_elem[size_t(c)];
        if (st > k) before[size_t(sc.dst_first + c)] = after[size_t(sc.dst_first + c)] = -1;
        if (st == k) before[size_t(sc.dst_first + c)] = -1;
    }
    Plan p = b.finish("dma", n, "before step " + std::to_string(k), "");
    p.stages[0].formula = "step " + std::to_string(k) + " of " + std::to_string(n);
    if (k < n) {
        const auto& e = ev[size_t(k)];
        int64_t rc = sc.src_first + (e.read - d.read.base) / eb;
        int64_t wc = sc.dst_first + (e.write - d.write.base) / eb;
        sc.read_cell = rc;
        sc.read_place = b.place_of(rc);
        sc.write_place = b.place_of(wc);
        // The element flies from its source cell to its destination.
        before[size_t(wc)] = b.offsets()[size_t(rc)];
        Stage& s0 = p.stages[0];
        s0.highlight = {rc};
        Box slot;
        slot.x = sc.write_place.x;
        slot.y = sc.write_place.y;
        slot.w = slot.h = 1;
        slot.kind = Box::highlight;
        s0.boxes.push_back(slot);
        s0.arrows.push_back({sc.read_place.x + 0.5f, sc.read_place.y + 1.f, sc.write_place.x + 0.5f,
                             sc.write_place.y, hex(e.read) + " -> " + hex(e.write)});
        Stage s1 = p.stages[0];
        s1.label = "after step " + std::to_string(k);
        s1.highlight = {wc};
        s1.arrows.clear();
        s1.boxes.pop_back();
        p.stages.push_back(std::move(s1));
    }
    auto table = std::make_shared<std::vector<std::vector<int64_t>>>();
    table->push_back(before);
    if (k < n) table->push_back(after);
    Board::set_offsets(p, table);
    p.dtype = dtype_of_bits(d.read.elem_bits);
    sc.plan = std::move(p);
    return sc;
}

GatherScene gather_scene(const GatherReport& g, const ScatterGather& sg, int64_t k,
                         const Canvas& canvas) {
    const int64_t eb = std::max(1, sg.elem_bits / 8);
    int64_t hi = 0;
    for (const auto& q : g.requests)
        for (int64_t a : q.addresses) hi = std::max(hi, (a - sg.base) / eb + 1);
    if (hi > kMaxGatherCells)
        throw UsageError("indices too large to draw (" + std::to_string(hi) +
                         " elements of memory); expected at most " +
                         std::to_string(kMaxGatherCells));
    const int64_t nreq = int64_t(g.requests.size());
    k = std::clamp<int64_t>(k, 0, nreq);
    std::vector<int64_t> req_of(size_t(hi), -1);
    for (int64_t r = 0; r < nreq; ++r)
        for (int64_t a : g.requests[size_t(r)].addresses) req_of[size_t((a - sg.base) / eb)] = r;
    const int64_t per_burst = std::max<int64_t>(1, sg.burst_bytes / eb);
    std::vector<Region> regions(1);
    regions[0].n = std::max<int64_t>(hi, 1);
    regions[0].label_chars = std::max(hex(sg.base + hi * eb).size(), size_t(7));
    regions[0].caption =
        "memory: each element read coloured by the request that reads it (the "
        "number), hatched: never read, empty: read later; boxes are " +
        std::to_string(sg.burst_bytes) + " B bursts";
    Board b(choose_layout(regions, canvas, per_burst));
    const int64_t w = b.width();
    b.caption(regions[0].caption);
    b.column_ticks(w, kAddressAxis);
    const int64_t row0 = b.row();
    GatherScene sc;
    int64_t first = b.strip(
        std::max<int64_t>(hi, 1), [&](int64_t c) { return c < hi ? req_of[size_t(c)] : -1; },
        [&](int64_t r) { return hex(sg.base + r * w * eb); });
    // Burst segments (the width is a multiple of the burst, so none wraps).
    for (int64_t c = 0; c < hi; c += per_burst) {
        Box bx;
        bx.x = b.place(row0 + c / w, c % w).x;
        bx.y = float(row0 + c / w);
        bx.w = float(std::min(per_burst, hi - c));
        bx.h = 1;
        bx.kind = Box::row;
        b.stage().boxes.push_back(bx);
    }
    for (int64_t c = 0; c < hi; ++c)
        if (req_of[size_t(c)] > k) b.offsets()[size_t(first + c)] = -1;
    for (int64_t c = 0; c < hi; ++c)
        if (req_of[size_t(c)] == k) sc.request_cells.push_back(first + c);
    b.stage().highlight = sc.request_cells;
    sc.plan = b.finish("gather", nreq, "request " + std::to_string(k),
                       std::to_string(nreq) + " requests of width " + std::to_string(sg.width));
    sc.plan.dtype = dtype_of_bits(sg.elem_bits);
    return sc;
}

}  // namespace ll::view
