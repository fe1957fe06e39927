// Fitting a Plan's memory (linear) stages to the view they are drawn in: a
// buffer drawn as one band of 64 rows of 16 cells is a narrow strip in a
// square pane; folded into bands of whole 512-byte fractals side by side, the
// same buffer gets cells twice as large. Offsets do not change (a linear
// grid's cell_place depends on band_rows only), so trails, picks and
// highlights by cell id stay right.
// Example: 1024 fp16 elements (4 fractals of 16 rows of 16) in a view of
// aspect 1.0: one band is 22 x 67 cells with the label room, two bands of 32
// rows 40 x 35: the cells grow from 1/67 to 1/40 of the height.
#pragma once

#include <cstdint>

#include "core/plan.hpp"

namespace ll {

// Sets g.band_rows (a whole number of `frac_rows`-row fractals) to the value
// that gives the largest cells in a view of width/height `aspect`; room is
// kept for the address column at the left (about 6 cells) and the tick rows
// above (about 3). aspect <= 0 or frac_rows <= 0 leaves g as it is.
void fit_bands(Grid& g, int64_t frac_rows, float aspect);

// fit_bands for every linear stage of p that carries no boxes, its fractal
// rows from the element size (512 bytes / the row's bytes), and its labels
// rebuilt (add_grid_labels): for plans whose memory stages carry only grid
// labels, such as format_plan's. Returns how many stages changed.
int fit_memory_stages(Plan& p, float aspect);

}  // namespace ll
