// The pictures of the stride-algebra panels (views, fusion, AGU / DMA /
// scatter-gather) as Plans, built here so the app only draws them and a test
// can print them (core/plan_text.hpp).
//
// Every picture is one "board": a rank-2 tensor grid (rows, margin + width)
// on which labelled regions sit one under the other: memory strips (a run of
// cells wrapped into rows of `width`, the byte address of each row in the
// left margin) and view grids (rows = all dims but the last, a blank row
// between the blocks of the dim before the last, index ticks on both sides).
// A cell's colour key (Plan::src) is the storage-0 element it holds, so an
// element keeps its colour wherever a view or a copy puts it; cells print it.
//
// The width is chosen for a canvas of w x h pixels with text of `font`
// pixels so that cells come out as large as possible (the picture fills the
// canvas); the layout is presentation, the cells' contents are engine facts.
//
// Example: views_scene of the chain {x} with x = (2,3) row-major, fp32, base 0x1000, on a wide
// canvas: caption row, one strip row "0x1000 | 0 1 2 3 4 5", caption row,
// tick row "0 1 2", grid rows "0 | 0 1 2" and "1 | 3 4 5".
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/plan.hpp"
#include "core/view/agu.hpp"
#include "core/view/fuse.hpp"
#include "core/view/view.hpp"

namespace ll::view {

// The canvas a picture is laid out for, in pixels.
struct Canvas {
    float w = 1200, h = 700;
    float font = 13;  // text height: captions and labels get room for it
};

// Per cell, the cells that belong with it when it is hovered or selected.
using Links = std::vector<std::vector<int64_t>>;

// ---- Views -------------------------------------------------------------------

// A chain of views: views[k] after k ops (views[0] the input), copied[k]
// whether op k-1 had to copy. Throws UsageError naming the op ("'ops'[k]").
struct Chain {
    std::vector<View> views;
    std::vector<bool> copied;
};
// (fusion composes with ReshapeRule::hierarchical; the same errors name the op).
Chain apply_chain(const View& input, const std::vector<Op>& ops,
                  ReshapeRule rule = ReshapeRule::strided);

// The address of index c of v, written out twice: in symbols, then with v's
// numbers, e.g. "index (0,1,2):  address = base + (offset + i0*s0 + ...) *
// elem_size" and "0x1000 + (0 + 0*12 + 1*4 + 2*1) * 4 = 0x1018   (element 6
// of storage 0)".
std::pair<std::string, std::string> address_formula(const View& v, const Coord& c);

struct ViewsScene {
    Plan plan;  // one stage: storage 0, each copy, then the view grid
    // Grid cell -> the storage cells it reads (its own storage's cell and,
    // through copies, storage 0's); storage-0 cell and last-storage cell ->
    // every grid cell that reads it.
    Links links;
    std::vector<int64_t> strip_first;  // cell of element 0 of each storage, storage 0 first
    int64_t grid_first = 0;            // view index i (row-major) is cell grid_first + i
    int64_t read = 0;                  // storage elements the view reads (of its own storage)
};
// Views with more than kMaxViewCells elements (view or any storage) are not
// drawn: throws UsageError.
constexpr int64_t kMaxViewCells = 4096;
// The picture of chain.views[step]; laid out for the whole chain, so that
// storage 0 sits at the same place at every step.
ViewsScene views_scene(const Chain& chain, size_t step, const Canvas& canvas);

// ---- Fusion -------------------------------------------------------------------

struct FusionScene {
    Plan plan;    // one stage: unfused input, one buffer per step, fused input, output
    Links links;  // every cell -> every cell that holds the same input element
    std::vector<int64_t> buffer_first;  // first cell of each buffer, in drawing order
    std::vector<int64_t> buffer_size;
};
constexpr int64_t kMaxFusionCells = 2048;  // per buffer; above it views_scene throws
FusionScene fusion_scene(const Fused& f, const Canvas& canvas);

// ---- DMA and scatter-gather ----------------------------------------------------

// One line of the address-stream table: the step, its logical element, both
// addresses and their deltas from the step before (the AGU's current stride).
struct DmaRow {
    int64_t step = 0;
    Coord element;
    int64_t read = 0, write = 0, read_delta = 0, write_delta = 0;
};
// Steps [first, last] of the stream (the first row's deltas are from the
// step before it, 0 at step 0).
std::vector<DmaRow> dma_rows(const Dma& d, const Shape& logical, int64_t first, int64_t last);

// The DMA at step k (k elements moved) as two stages: "before" (the element
// of step k still at its source cell, an arrow to where it is written) and
// "after" (it sits at its destination). Source and destination memory are
// strips with their byte addresses; unwritten destination cells are empty.
struct DmaScene {
    Plan plan;
    int64_t read_cell = -1;                // the source cell read at step k (-1: k == count)
    Place read_place, write_place;         // cell units: the cells read and written at step k
    int64_t src_first = 0, dst_first = 0;  // cells of source / destination memory
    int64_t per_row = 1;                   // memory cells per drawn row
};
constexpr int64_t kMaxDmaCells = 4096;
DmaScene dma_scene(const Dma& d, int64_t k, const Canvas& canvas);

// Scatter-gather at request k: memory up to the highest index, each element
// read by requests 0..k coloured by (and printing) its request; request k
// highlighted; burst segments outlined.
struct GatherScene {
    Plan plan;
    std::vector<int64_t> request_cells;  // cells read by request k
};
constexpr int64_t kMaxGatherCells = 4096;
GatherScene gather_scene(const GatherReport& g, const ScatterGather& sg, int64_t k,
                         const Canvas& canvas);

}  // namespace ll::view
