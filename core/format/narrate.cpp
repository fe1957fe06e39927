#include "core/format/narrate.hpp"

#include <cstdio>

namespace ll {

namespace {

// An inner fractal axis: a plain name ending in 0 (M0, N0, K0, C0), not a
// merged one such as "M1*M0" (the padded matrix before the reshape).
bool ends_in_zero(const std::string& s) {
    return !s.empty() && s.back() == '0' && s.find('*') == std::string::npos;
}

std::string tuple(const Coord& c, size_t from, size_t to) {
    std::string out = "(";
    for (size_t i = from; i < to; ++i) {
        if (i > from) out += ",";
        out += std::to_string(c[i]);
    }
    return out + ")";
}

std::string names(const std::vector<std::string>& a) {
    std::string out = "(";
    for (size_t i = 0; i < a.size(); ++i) out += (i ? "," : "") + a[i];
    return out + ")";
}

}  // namespace

int64_t offset_at_stage(const Plan& p, size_t k, int64_t cell) {
    if (cell < 0 || cell >= p.cell_count || k >= p.stages.size()) return -1;
    if (p.offset_of) return p.offset_of(k, cell);
    return p.offsets(k)[size_t(cell)];
}

std::string where_at(const Plan& p, size_t k, int64_t cell) {
    int64_t o = offset_at_stage(p, k, cell);
    if (o < 0) return "not there yet (padding added later)";
    const Stage& st = p.stages[k];
    char buf[96];
    if (st.grid.linear) {
        int b = bits(p.dtype);
        int64_t bit = o * b;
        if (b < 8)
            std::snprintf(buf, sizeof buf, "offset %lld, byte 0x%llx (%s nibble)", (long long)o,
                          (long long)(bit / 8), bit % 8 ? "high" : "low");
        else
            std::snprintf(buf, sizeof buf, "offset %lld, byte 0x%llx", (long long)o,
                          (long long)(bit / 8));
        return buf;
    }
    const Shape& s = st.shape;
    Coord c = unravel(o, s);
    size_t r = s.size();
    if (r == 1) return "index " + std::to_string(c[0]);
    std::string rc = "row " + std::to_string(c[r - 2]) + ", column " + std::to_string(c[r - 1]);
    if (r == 2) return rc;
    const std::vector<std::string>& ax = st.axes;
    if (ax.size() == r && ends_in_zero(ax[r - 1]) && ends_in_zero(ax[r - 2]))
        return "fractal " + tuple(c, 0, r - 2) + ", " + rc;
    std::string t = tuple(c, 0, r);
    return ax.size() == r ? names(ax) + " " + t : t;
}

std::string narrate_step(const Plan& p, size_t k, int64_t cell) {
    if (k >= p.stages.size() || cell < 0 || cell >= p.cell_count) return "";
    bool pad = p.src[size_t(cell)] < 0;
    std::string head = (pad ? "padding element, " : "") + p.stages[k].label + ": ";
    std::string now = where_at(p, k, cell);
    if (k == 0) return head + now;
    std::string before = where_at(p, k - 1, cell);
    if (offset_at_stage(p, k - 1, cell) < 0 && offset_at_stage(p, k, cell) >= 0)
        return head + "appears at " + now;
    if (before == now) return head + "stays at " + now;
    return head + before + " -> " + now;
}

std::string narration(const Plan& p, int64_t cell) {
    if (cell < 0 || cell >= p.cell_count) return "";
    std::string out = p.src[size_t(cell)] < 0 ? "padding" : "";
    std::string last;
    for (size_t k = 0; k < p.stages.size(); ++k) {
        if (offset_at_stage(p, k, cell) < 0) continue;
        std::string w = where_at(p, k, cell);
        if (w == last) continue;
        if (!out.empty()) out += " -> ";
        out += w;
        last = w;
    }
    return out;
}

int64_t cell_of_source(const Plan& p, int64_t src) {
    if (src < 0 || src >= numel(p.src_shape)) return -1;
    for (size_t i = 0; i < p.src.size(); ++i)
        if (p.src[i] == src) return int64_t(i);
    return -1;
}

}  // namespace ll
