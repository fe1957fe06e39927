#include "core/compare.hpp"

#include <algorithm>
#include <cstdio>

namespace ll {

namespace {

// Per source element, the cell holding it (-1 none).
std::vector<int64_t> cells_by_source(const Plan& p) {
    std::vector<int64_t> out(size_t(numel(p.src_shape)), -1);
    for (size_t i = 0; i < p.src.size(); ++i)
        if (p.src[i] >= 0 && size_t(p.src[i]) < out.size()) out[size_t(p.src[i])] = int64_t(i);
    return out;
}

}  // namespace

LayoutDiff compare_layouts(const Plan& a, const Plan& b) {
    LayoutDiff d;
    if (!a.stages.empty()) d.bytes_a = bytes_for(a.dtype, numel(a.stages.back().shape));
    if (!b.stages.empty()) d.bytes_b = bytes_for(b.dtype, numel(b.stages.back().shape));
    d.same_source = a.src_shape == b.src_shape && !a.stages.empty() && !b.stages.empty();
    if (!d.same_source) return d;
    std::vector<int64_t> ca = cells_by_source(a), cb = cells_by_source(b);
    std::vector<int64_t> oa = a.offsets(a.stages.size() - 1), ob = b.offsets(b.stages.size() - 1);
    int ba = bits(a.dtype), bb = bits(b.dtype);
    for (size_t e = 0; e < ca.size(); ++e) {
        if (ca[e] < 0 || cb[e] < 0) continue;
        int64_t x = oa[size_t(ca[e])], y = ob[size_t(cb[e])];
        if (x < 0 || y < 0) continue;
        ++d.compared;
        if (x != y) {
            ++d.offset_differs;
            d.cells_a.push_back(ca[e]);
            d.cells_b.push_back(cb[e]);
        }
        if (x * ba / 8 != y * bb / 8) ++d.byte_differs;
    }
    std::sort(d.cells_a.begin(), d.cells_a.end());
    std::sort(d.cells_b.begin(), d.cells_b.end());
    return d;
}

void mark_differences(Plan& a, Plan& b, const LayoutDiff& d) {
    if (!a.stages.empty()) a.stages.back().highlight = d.cells_a;
    if (!b.stages.empty()) b.stages.back().highlight = d.cells_b;
}

std::string LayoutDiff::summary() const {
    char buf[200];
    if (!same_source) {
        std::snprintf(buf, sizeof buf,
                      "different source shapes: nothing to compare; A %lld B, B %lld B",
                      (long long)bytes_a, (long long)bytes_b);
        return buf;
    }
    std::snprintf(buf, sizeof buf,
                  "%lld of %lld elements sit at different offsets (%lld at different bytes); "
                  "A %lld B, B %lld B",
                  (long long)offset_differs, (long long)compared, (long long)byte_differs,
                  (long long)bytes_a, (long long)bytes_b);
    return buf;
}

}  // namespace ll
