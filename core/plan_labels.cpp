#include "core/plan_labels.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace ll {

namespace {

Label make(float x, float y, std::string text, Label::Kind kind, Label::Side side,
           Label::Align align, uint8_t lane, float room) {
    Label l;
    l.x = x;
    l.y = y;
    l.text = std::move(text);
    l.kind = kind;
    l.side = side;
    l.align = align;
    l.lane = lane;
    l.room = room;
    return l;
}

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// A byte address; at a 512-byte boundary also the fractal it starts ("f3 0x600").
std::string address(int64_t v) {
    char buf[48];
    if (v % 512 == 0)
        std::snprintf(buf, sizeof buf, "f%lld 0x%llx", static_cast<long long>(v / 512),
                      static_cast<unsigned long long>(v));
    else
        std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

// Column ticks 0..n-1 over the grid: cell i's centre is at `i * pitch +
// pitch / 2` across.
void add_col_ticks(Stage& s, int64_t n, float pitch, uint8_t lane = 0) {
    const int64_t step = tick_step(n, kMaxTicks);
    for (int64_t i = 0; i < n; i += step)
        s.labels.push_back(make((float(i) + 0.5f) * pitch, 0, std::to_string(i), Label::tick,
                                Label::above, Label::centre, lane, pitch * float(step)));
}

// Row ticks of axis -2 (n rows): beside the first block, and beside every
// block on the grid's left edge when there are at most kRowTickBlocks of
// them and their ticks stay within kMaxTicks (a student following row m of
// block b=1 needs its numbers there too; 32 blocks of 2 rows each read as a
// column of zeros). Grids of more than kMaxTags blocks are not searched.
void add_row_ticks(Stage& s, int64_t n) {
    const Grid& g = s.grid;
    const Shape& d = g.shape;
    const size_t r = d.size();
    const int64_t step = tick_step(n, kMaxTicks);
    std::vector<float> tops{0.f};
    if (r >= 3) {
        const int64_t inner = d[r - 1] * d[r - 2];
        int64_t blocks = 1;
        for (size_t a = 0; a + 2 < r; ++a) blocks *= d[a];
        std::vector<float> left;
        for (int64_t b = 0;
             b < blocks && blocks <= kMaxTags && int64_t(left.size()) <= kRowTickBlocks; ++b) {
            const Place p = cell_place(g, b * inner);
            if (p.x == 0) left.push_back(p.y);
        }
        const int64_t per = ceil_div(n, step);
        if (!left.empty() && int64_t(left.size()) <= kRowTickBlocks &&
            int64_t(left.size()) * per <= kMaxTicks)
            tops = left;
    }
    for (float top : tops)
        for (int64_t i = 0; i < n; i += step)
            s.labels.push_back(make(0, top + float(i) + 0.5f, std::to_string(i), Label::tick,
                                    Label::left_of, Label::right, 0, float(step)));
}

// Tags of the blocks the axes before the last two make (see the header).
void add_block_tags(Stage& s, const std::vector<std::string>& names) {
    const Grid& g = s.grid;
    const Shape& d = g.shape;
    const size_t r = d.size();
    if (r < 3) return;
    const size_t outer = r - 2;
    const int64_t inner = d[r - 1] * d[r - 2];
    int64_t blocks = 1;
    for (size_t a = 0; a < outer; ++a) blocks *= d[a];
    const float room = float(d[r - 1]);
    auto text = [&](const std::vector<int64_t>& c, size_t only) {
        std::string t;
        if (names.empty()) {
            t = "[";
            for (size_t a = 0; a < outer; ++a)
                if (only == outer || a == only)
                    t += (t.size() > 1 ? "," : "") + std::to_string(c[a]);
            return t + "]";
        }
        for (size_t a = 0; a < outer; ++a)
            if (only == outer || a == only)
                t += (t.empty() ? "" : " ") + lower(names[a]) + "=" + std::to_string(c[a]);
        return t;
    };
    auto tag_at = [&](int64_t block, const std::vector<int64_t>& c, size_t only) {
        const Place p = cell_place(g, block * inner);
        s.labels.push_back(
            make(p.x, p.y, text(c, only), Label::tag, Label::above, Label::left, 0, room));
    };
    if (blocks <= kMaxTags) {
        std::vector<int64_t> c(outer, 0);
        for (int64_t b = 0; b < blocks; ++b) {
            int64_t rest = b;
            for (size_t a = outer; a-- > 0;) {
                c[a] = rest % d[a];
                rest /= d[a];
            }
            tag_at(b, c, outer);
        }
        return;
    }
    // Too many blocks to tag each: tag each outer axis along its own blocks
    // (the other outer coordinates 0), thinned to a readable count.
    for (size_t a = 0; a < outer; ++a) {
        int64_t stride = 1;
        for (size_t b = a + 1; b < outer; ++b) stride *= d[b];
        const int64_t step = tick_step(d[a], kMaxTicks / 2);
        std::vector<int64_t> c(outer, 0);
        for (int64_t i = 0; i < d[a]; i += step) {
            c[a] = i;
            tag_at(i * stride, c, a);
        }
    }
}

void add_tensor_labels(Stage& s) {
    const Grid& g = s.grid;
    const Shape& d = g.shape;
    const size_t r = d.size();
    if (r == 0) return;
    const bool named = s.axes.size() == s.shape.size();
    // stage_grid draws a channels-last stage with its last two axes as one row.
    const bool merged = s.shape.size() == r + 1;
    std::vector<std::string> names;
    if (named) names = s.axes;
    if (merged && named) {
        names.pop_back();
        names.back() = s.axes[r - 1] + " x " + s.axes[r];
    }
    const float w0 = float(d[r - 1]);
    // With block tags (above each block, lane 0) the first block's column
    // ticks and axis name move one lane further out.
    const auto lane = uint8_t(r >= 3 ? 1 : 0);
    if (merged) {
        const int64_t c = s.shape.back();
        add_col_ticks(s, d[r - 1] / c, float(c), lane);
    } else {
        add_col_ticks(s, d[r - 1], 1.f, lane);
    }
    if (!names.empty())
        s.labels.push_back(make(w0 / 2, 0, names[r - 1], Label::axis, Label::above, Label::centre,
                                uint8_t(lane + 1), 0));
    if (r >= 2) {
        add_row_ticks(s, d[r - 2]);
        if (!names.empty())
            // At the corner, on the line of the column axis's name (a lane
            // above the ticks, so row tick 0 and column tick 0 keep their room).
            s.labels.push_back(make(0, 0, names[r - 2], Label::axis, Label::above, Label::right,
                                    uint8_t(lane + 1), 0));
    }
    add_block_tags(s, names);
}

void add_memory_labels(Stage& s, int elem_bits) {
    const Grid& g = s.grid;
    if (g.shape.empty() || g.row_elems <= 0) return;
    const int64_t n = g.shape[0];
    const int64_t rows = ceil_div(n, g.row_elems);
    const int64_t band_rows = g.band_rows > 0 ? g.band_rows : rows;
    const int64_t bands = ceil_div(rows, std::max<int64_t>(1, band_rows));
    const int64_t row_bytes = std::max<int64_t>(1, g.row_elems * elem_bits / 8);
    const int64_t frac_rows = std::max<int64_t>(1, 512 / row_bytes);
    const float band_w = float(g.row_elems + 2);
    add_col_ticks(s, g.row_elems, 1.f);
    s.labels.push_back(make(0, 0, "address", Label::axis, Label::above, Label::right, 1, 0));
    const int64_t band_step = tick_step(bands, kMaxAddress);
    // (band 0 starts with the first fractal's address at its left)
    for (int64_t b = band_step; b < bands; b += band_step)
        s.labels.push_back(make(float(b) * band_w, 0, address(b * band_rows * row_bytes),
                                Label::address, Label::above, Label::left, 1,
                                band_w * float(band_step)));
    // One address per 512-byte fractal at the left of its first row: all
    // bands when few, else the first band only.
    const int64_t per_band = ceil_div(std::min(band_rows, rows), frac_rows);
    const int64_t all = ceil_div(rows, frac_rows);
    const int64_t shown_bands = all <= kMaxAddress ? bands : 1;
    const int64_t step = tick_step(per_band, kMaxAddress);
    for (int64_t b = 0; b < shown_bands; ++b)
        for (int64_t f = 0; f < per_band; f += step) {
            const int64_t row = b * band_rows + f * frac_rows;
            if (row >= rows || (b > 0 && f == 0)) continue;  // band starts: above
            s.labels.push_back(make(float(b) * band_w, float(f * frac_rows) + 0.5f,
                                    address(row * row_bytes), Label::address, Label::left_of,
                                    Label::right, 0, b == 0 ? 0.f : 2.f));
        }
}

}  // namespace

int64_t tick_step(int64_t n, int64_t max) {
    max = std::max<int64_t>(1, max);
    for (int64_t base = 1;; base *= 10)
        for (int64_t k : {1, 2, 5})
            if (ceil_div(n, base * k) <= max) return base * k;
}

void add_grid_labels(Stage& s, int elem_bits) {
    if (s.grid.linear)
        add_memory_labels(s, elem_bits);
    else
        add_tensor_labels(s);
}

void add_grid_labels(Plan& p) {
    for (Stage& s : p.stages) add_grid_labels(s, bits(p.dtype));
}

}  // namespace ll
