// Plan: the animation data every engine produces and the app draws.
//
// A Plan follows `cell_count` cells (one per element of the final tensor,
// padding included) through an ordered list of Stages. In stage k every cell
// sits at a row-major *offset* inside that stage's tensor (or is hidden, -1),
// and the stage's Grid turns an offset into a 2D place in cell units. The app
// only interpolates cell places between consecutive stages; it never changes
// the Plan, so scrubbing backwards is free.
//
// Memory: a Plan for 16M cells keeps one int64 per cell (`src`) plus, per
// stage, only a shape and a Grid. Offsets are produced on demand by
// `offsets(k)`, so a renderer holds float places for just the two stages it
// interpolates.
//
// Grid contract (cell units, x to the right, y down):
//   - tensor grid: the last axis runs along x, the one before along y; the
//     axes before them tile the blocks as small multiples, alternately
//     downwards (axis -3), rightwards (axis -4), downwards (-5), ..., with a
//     gap of `level` cells between blocks at nesting level `level` (1, 2, ...).
//     Example: shape (2,3,4) draws 2 blocks of 3x4 stacked vertically with a
//     1-cell gap: cell_place(g, 13) == {1, 4}  (coord (1,0,1): y = 1*(3+1)+0).
//   - linear grid (a memory buffer): offset o sits in byte row
//     r = o / row_elems at column o % row_elems; rows wrap into bands of
//     `band_rows` rows placed left to right with a 2-cell gap.
//     Example: row_elems 16, band_rows 32: cell_place(g, 600) == {18+8, 5}
//     (row 37 -> band 1, row 5 in it; column 8).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "core/shape.hpp"

namespace ll {

struct Grid {
    Shape shape;             // the tensor drawn (tensor grid) or {n} (linear)
    bool linear = false;     // draw as a memory buffer in rows of row_elems
    int64_t row_elems = 16;  // linear: elements per drawn row (32 bytes)
    int64_t band_rows = 0;   // linear: rows per band; 0 = all rows in one band
    // Tensor grid: per axis, how many of its blocks sit side by side before
    // wrapping to the next block row (1 = downwards, size = rightwards); only
    // the axes before the last two count. Empty: the alternation described
    // above. fitted_tensor_grid() fills it to suit a window.
    std::vector<int64_t> wrap;
};

struct Place {
    float x = 0, y = 0;
    bool operator==(const Place& o) const { return x == o.x && y == o.y; }
};
struct Extent {
    float w = 0, h = 0;
};

// Top-left corner of the cell at row-major `offset` of g.shape (see contract).
Place cell_place(const Grid& g, int64_t offset);
// The offset whose cell covers point (x, y) of grid g (cell units), or -1 in
// a gap or outside: the inverse of cell_place.
int64_t offset_at(const Grid& g, float x, float y);
// Width and height of the whole grid in cell units.
Extent grid_extent(const Grid& g);
// A linear grid for a buffer of n elements of type t, rows of 32 bytes and
// bands of a multiple of 16 rows (one 512-byte fractal) chosen so the picture
// is roughly square.
Grid memory_grid(int64_t n, DType t);
// The default tensor grid for shape s.
Grid tensor_grid(const Shape& s);
// A tensor grid for shape s whose picture is roughly `aspect` (width/height):
// the classic alternation when it is within 3x of that, else every leading
// axis wraps its blocks into rows (a tall stack of 32 blocks becomes 6 x 6).
Grid fitted_tensor_grid(const Shape& s, float aspect);

// The grid a pipeline stage of shape s is drawn with: fitted_tensor_grid,
// except that a channels-last tensor (rank >= 4, last axis of 2..4 after a
// wider one, e.g. NHWC (1,32,32,3)) is drawn with its last two axes as one
// row, (1,32,96): each row of pixels reads R G B R G B ..., the interleaved
// picture of NHWC. Same row-major offsets, so places and picks agree.
Grid stage_grid(const Shape& s, float aspect);

// ---- Overlays: what a stage shows over its cells -----------------------------
// Everything below is in the cell units of the stage's grid (see the Grid
// contract), so the renderer places it with the same camera as the cells and a
// test can check it as text. Core builds overlays; the app only draws them.

// A labelled rectangle: a buffer, a 32-byte row, a 512-byte fractal, a tile,
// a highlighted region.
struct Box {
    enum Kind : uint8_t { outline, row, fractal, tile, highlight, buffer };
    float x = 0, y = 0, w = 0, h = 0;
    Kind kind = outline;
    std::string label;  // may be empty; drawn above the box's top-left corner
};

// An arrow from (x0, y0) to (x1, y1): data moving, a visiting order, "A row
// meets B column".
struct Arrow {
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    std::string label;  // may be empty; drawn at the middle
};

// A text placed at (x, y): an axis name, an index tick, a fractal tag, an
// address, a caption. `align` says which point of the text sits at (x, y).
struct Label {
    enum Kind : uint8_t { axis, tick, tag, address, caption };
    enum Align : uint8_t { left, centre, right };  // horizontally; vertically centred
    // Where the text sits next to (x, y), in screen pixels so it stays
    // readable at any zoom: `at` (centred on the point as `align` says),
    // `above` a grid's top edge, `left_of` its left edge (vertically centred),
    // `inside` a block with its top-left corner at the point (a tag chip).
    // `lane` pushes above/left_of text one line (or one column of the widest
    // text in the lane before) further out. See core/plan_labels.hpp.
    enum Side : uint8_t { at, above, left_of, inside };
    float x = 0, y = 0;
    std::string text;
    Kind kind = caption;
    Align align = left;
    Side side = at;
    uint8_t lane = 0;
    // Room the text may take along the grid edge, in cell units (the spacing
    // of ticks, a block's width, the gap between memory bands); 0 = any.
    float room = 0;
};

// A set of cells marked at a stage; its role picks the colour, so sets of
// different meaning read apart (the tile being visited vs the tiles already
// visited vs a cell the user pinned). The renderer outlines each cell.
struct CellSet {
    enum Role : uint8_t {
        current,  // what this step works on (the accent colour; = Stage::highlight)
        done,     // already visited or computed (a calm green)
        pinned,   // chosen by the user and followed across stages (magenta)
    };
    Role role = current;
    std::vector<int64_t> cells;  // cell ids, any order
};

// Build with stage(label, formula, shape, grid) and then fill the overlays.
struct Stage {
    std::string label;    // "pad", "reshape", "transpose", "memory"
    std::string formula;  // caption, e.g. "(M,N) -> (M1*M0, N1*N0)"
    Shape shape;          // the tensor after this step
    Grid grid;            // how the stage is drawn
    // Names of shape's axes, e.g. {"N", "C1", "H", "W", "C0"}; empty when
    // the stage has none (a memory buffer is one axis, "offset").
    std::vector<std::string> axes;
    std::vector<Box> boxes;
    std::vector<Arrow> arrows;
    std::vector<Label> labels;
    // Cells drawn highlighted at this stage (the tile being visited, the
    // active fractal's elements): a set of cell ids, any order. The role
    // `current`; further sets in other roles go in `marks`.
    std::vector<int64_t> highlight;
    std::vector<CellSet> marks;  // drawn after `highlight`, in this order
    // Cells drawn dimmed at this stage, their colour faded towards the canvas
    // (padding, or cells not yet visited): cell ids, any order. Dimming glides
    // with the cells between two stages.
    std::vector<int64_t> dim;
};

inline Stage stage(std::string label, std::string formula, Shape shape, Grid grid) {
    Stage s;
    s.label = std::move(label);
    s.formula = std::move(formula);
    s.shape = std::move(shape);
    s.grid = std::move(grid);
    return s;
}

struct Plan {
    std::string title;
    int64_t cell_count = 0;
    DType dtype = DType::fp16;
    Shape src_shape;           // the source tensor (colour keys refer to it)
    std::vector<int64_t> src;  // per cell: source linear index, -1 = padding
    int channel_axis = -1;     // axis of src_shape called "channel", -1 none
    // Optional real values per source element (0..255), e.g. picture pixels.
    std::vector<uint8_t> values;
    // The number a big enough cell prints: its source index modulo this (0:
    // the index itself). LoadData's plans print the element's place inside
    // its source fractal (0..255 for 16x16), so a transposing load reads as
    // a fractal's rows becoming columns.
    int64_t number_period = 0;
    std::vector<Stage> stages;
    // Per cell, its row-major offset inside stages[k].shape, -1 = hidden.
    // Computed on demand (see the memory note above); must be safe to call
    // repeatedly and from one thread at a time.
    std::function<std::vector<int64_t>(size_t k)> offsets;
    // The same for one cell (offsets(k)[cell]) without the full pass; may be
    // empty for plans that do not provide it.
    std::function<int64_t(size_t k, int64_t cell)> offset_of;
};

// Per cell 2 floats (x, y) of stage k; hidden cells get NaN. Table lookups
// instead of per-axis divisions, two threads for large plans.
void stage_places(const Plan& p, size_t k, std::vector<float>& xy);
// The same for n offsets into grid g (off[i] < 0: hidden).
void places_of_offsets(const Grid& g, const int64_t* off, int64_t n, std::vector<float>& xy);

// How cells are coloured; every mode is a pure function of the plan and cell.
enum class ColourMode : uint8_t { source_index, row, column, channel, fractal, value };
const char* name(ColourMode m);
const char* name(CellSet::Role r);  // "current", "done", "pinned"
const std::vector<ColourMode>& all_colour_modes();
ColourMode colour_mode_from_name(const std::string& s);  // throws UsageError

using Rgba8 = std::array<uint8_t, 4>;
// Perceptual colour map (turbo-like, blue -> green -> red) for t in [0,1].
Rgba8 colour_map(float t);
// Colour of one cell. Padding cells get alpha 0 (the renderer hatches them).
// `fractal_elems` groups destination cells for ColourMode::fractal.
Rgba8 cell_colour(const Plan& p, ColourMode m, int64_t cell, int64_t fractal_elems);
// cell_colour for every cell into out[0 .. cell_count) (a sampled colour map,
// within one 8-bit step of cell_colour; two threads for large plans).
void cell_colours(const Plan& p, ColourMode m, int64_t fractal_elems, Rgba8* out);

// Elements of one 512-byte fractal for dtype t (256 for fp16).
inline int64_t fractal_elems(DType t) {
    return 512 * 8 / bits(t);
}

}  // namespace ll
