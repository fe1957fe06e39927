// The visiting order of a two-level tiling and the address of every access:
// what the tiling panel animates and `layoutlab tiling --traverse` prints.
//
// Model (one image, n = 0; every image repeats it at its own base address):
//   * L1 tiles cut the tensor (C,H,W) into blocks of l1_tile extents, edge
//     blocks cut short; they are visited in l1_order, innermost first
//     ("W_H_C": W fastest, C slowest). The k-th visit's block index is the
//     mixed-radix digits of k over the block counts, innermost first.
//   * L2 sub-tiles cut one L1 tile, as it sits in SRAM, the same way (l2_tile,
//     l2_order).
//   * An element's address is its offset in the buffer read: the tensor in
//     DRAM for L1 (stored in c.layout over the tensor), the tile in SRAM for
//     L2 (the same layout over the tile's extents: frame_layout()). A block's
//     first access is its origin element, so a visit's `offset` is the
//     address of its origin and `jump` the step from the previous visit's.
//   * Elements inside a block are read in the level's order too: that walk's
//     address steps are the strides the cost model's efficiency comes from.
//
// Example: (1,64,56,56) fp32 NCHW, tile (16,14,14) W_H_C: 64 tiles; step 1
//   (0-based) is at (c,h,w) = (0,0,14), offset 14; step 4 at (0,14,0), offset
//   784; step 16 at (16,0,0), offset 50176. In NHWC: 896, 50176 and 16.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/plan.hpp"
#include "core/tiling/tiling.hpp"

namespace ll::tiling {

struct Index3 {
    int64_t c = 0, h = 0, w = 0;
    int64_t operator[](Dim d) const { return d == Dim::C ? c : d == Dim::H ? h : w; }
    bool operator==(const Index3& o) const { return c == o.c && h == o.h && w == o.w; }
};
std::string to_string(const Index3& i);  // "(0,14,0)"

// Blocks of `block` extents covering `frame` (edge blocks cut short).
struct BlockGrid {
    Extent3 frame, block;
    Extent3 counts() const;  // blocks per dimension, rounded up
    int64_t size() const;    // number of blocks
    // The block visited k-th in order o (0 <= k < size()): its block index.
    Index3 visit(const Order& o, int64_t k) const;
    // Inverse of visit(): when block `index` is visited in order o.
    int64_t rank(const Order& o, const Index3& index) const;
    Index3 origin(const Index3& index) const;   // its first element
    Extent3 extent(const Index3& index) const;  // its extents (edge blocks smaller)
};

// Element offset of (c,h,w) in a buffer of `frame` extents stored in c.layout.
int64_t element_offset(const Config& c, const Extent3& frame, const Index3& at);
// Addresses of the first `n` elements of the block at `origin` with extents
// `block`, read in order o from a buffer of `frame` extents.
std::vector<int64_t> access_offsets(const Config& c, const Extent3& frame, const Index3& origin,
                                    const Extent3& block, const Order& o, int64_t n);

struct Visit {
    int64_t step = 0;  // 0-based visit number
    Index3 index;      // block index
    Index3 origin;     // first element, in the frame
    Extent3 extent;
    int64_t offset = 0;  // address of the first access in the frame
    int64_t jump = 0;    // offset minus the previous visit's (0 for the first)
};

BlockGrid l1_grid(const Config& c);                   // tiles of the tensor
BlockGrid l2_grid(const Config& c, int64_t l1_step);  // sub-tiles of one tile
// Every L1 tile of one image in c.l1_order, offsets in the tensor (the first
// kMaxVisits of them: a one-element tile over a large tensor has millions).
constexpr int64_t kMaxVisits = 65536;
std::vector<Visit> l1_visits(const Config& c);
// Every sub-tile of the L1 tile visited at `l1_step`, in c.l2_order, offsets
// in that tile as stored in SRAM (at most kMaxVisits).
std::vector<Visit> l2_visits(const Config& c, int64_t l1_step);
// The animation's clock: one step per sub-tile slot, every L1 tile given the
// slots of a full tile (BlockGrid{l1_tile, l2_tile}.size()), so step =
// tile * slots + sub. An edge tile has fewer sub-tiles: its slots past the
// last show the last one (`sub` is clamped); steps past the end show the last
// tile. Example: tensor (64,56,56), tiles (16,14,14), sub-tiles (4,7,7): 64
// tiles x 16 slots = 1024 steps; step 17 is tile 1, sub-tile 1.
struct TraversalStep {
    int64_t tile = 0;  // L1 visit number
    int64_t sub = 0;   // L2 visit number inside that tile
};
int64_t traversal_steps(const Config& c);  // L1 tiles x slots per tile, at least 1
TraversalStep traversal_step(const Config& c, int64_t step);

// One visit without building the list (the panel's animation).
Visit l1_visit(const Config& c, int64_t step);
Visit l2_visit(const Config& c, int64_t l1_step, int64_t step);

// {"layout", "tensor", "l1_tile", "l2_tile", "l1_order", "l2_order",
//  "l1_tiles", "l2_subtiles": the counts (lists stop at kMaxVisits),
//  "l1_visits": [{"step", "origin": [c,h,w], "extent": [c,h,w], "offset", "jump"}],
//  "l2_visits": the same for the first L1 tile, offsets in the tile,
//  "l1_inner", "l2_inner": the first element offsets inside the first block}
nlohmann::json traversal_json(const Config& c);
// The same for people: one line per visit.
std::string traversal_text(const Config& c);

// The pictures, as Plans over the buffers in memory.
//   tensor_plan: cells = the elements of one image; stage 0 "tensor (C,H,W)"
//   (one H x W grid per channel, every L1 tile boxed on each of its channels,
//   boxes in visit order, unlabelled: a tile's number is its place in the
//   list, and numbers above boxes would cover the tiles above them), stage 1
//   "DRAM" (each element at its
//   address in c.layout, rows of 32 bytes). A cell's src is when the element
//   is read (tiles in visit order, each tile's elements in the same order), so
//   ColourMode::source_index colours the visiting order.
//   tile_plan: the same for the L1 tile visited at l1_step, as stored in SRAM,
//   with its sub-tiles.
// `aspect` (width / height) shapes stage 0 to suit the window. Frames of more
// than kMaxPlanCells elements are UsageErrors (the numbers still hold; the
// picture would need gigabytes).
constexpr int64_t kMaxPlanCells = int64_t(1) << 23;
Plan tensor_plan(const Config& c, float aspect = 1.5f);
Plan tile_plan(const Config& c, int64_t l1_step, float aspect = 1.5f);
// One moment of the traversal, as overlays over stage 0 of those plans (the
// plans stay fixed while the traversal plays): the block read now (a
// Box::highlight per channel it spans) and, when `before` is given, an arrow
// from the previous block's first element to this one's, labelled with the
// jump of their first addresses ("+784"). Only boxes and arrows are filled.
Stage visit_overlay(const Grid& g, const Visit& now, const Visit* before);
// Rectangles (cell units, stage 0 of those plans) covering the block at
// `origin` with `extent`: one per channel of the block.
std::vector<Box> block_boxes(const Grid& g, const Index3& origin, const Extent3& extent,
                             Box::Kind kind, const std::string& label);

}  // namespace ll::tiling
