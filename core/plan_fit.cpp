#include "core/plan_fit.hpp"

#include <algorithm>

#include "core/plan_labels.hpp"

namespace ll {

void fit_bands(Grid& g, int64_t frac_rows, float aspect) {
    if (aspect <= 0 || frac_rows <= 0 || g.shape.empty() || g.row_elems <= 0) return;
    const int64_t rows = (g.shape[0] + g.row_elems - 1) / g.row_elems;
    const int64_t fractals = std::max<int64_t>(1, (rows + frac_rows - 1) / frac_rows);
    double best = -1;
    int64_t best_rows = g.band_rows;
    for (int64_t k = 1; k <= fractals; ++k) {
        Grid t = g;
        t.band_rows = k * frac_rows;
        const Extent e = grid_extent(t);
        const double cell = std::min(double(aspect) / (e.w + 6), 1.0 / (e.h + 3));
        if (cell > best * 1.0001) {
            best = cell;
            best_rows = t.band_rows;
        }
    }
    g.band_rows = best_rows;
}

int fit_memory_stages(Plan& p, float aspect) {
    int changed = 0;
    const int elem_bits = bits(p.dtype);
    for (Stage& s : p.stages) {
        if (!s.grid.linear || !s.boxes.empty() || s.grid.row_elems <= 0) continue;
        const int64_t row_bytes = std::max<int64_t>(1, s.grid.row_elems * elem_bits / 8);
        const int64_t before = s.grid.band_rows;
        fit_bands(s.grid, std::max<int64_t>(1, 512 / row_bytes), aspect);
        if (s.grid.band_rows == before) continue;
        s.labels.clear();
        add_grid_labels(s, elem_bits);
        ++changed;
    }
    return changed;
}

}  // namespace ll
