// Layout: a small value type mapping a logical coordinate to an element
// offset, in the spirit of CuTe's Layout(shape, stride).
//
// Each logical mode (dimension) holds one or more (size, stride) sub-modes.
// A mode's index is split over its sub-modes ROW-MAJOR (first sub-mode is the
// outermost; CuTe splits colexicographically, we follow the row-major order
// used everywhere else in LayoutLab). A plain strided layout has one sub-mode
// per mode; a blocked layout such as nChw16c splits C into (C/16, 16) with two
// strides. Strides are in elements; stride 0 means broadcast.
//
// Contract: L(c) = offset + sum_m mode_m(c_m),
//           mode(i) = sum_k digit_k(i) * stride_k, digits of i in the sub-mode sizes.
// Worked example:
//   make_layout({2,3,4}, {12,4,1})            prints "(2,3,4):(12,4,1)", L(1,2,3) = 23
//   layout_from_name("nChw16c", {1,32,2,2})   prints "(1,(2,16),2,2):(128,(64,1),32,16)"
//     C index 17 -> digits (1,1) -> 1*64 + 1*1 = 65.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/shape.hpp"

namespace ll::view {

struct SubMode {
    int64_t size = 1;
    int64_t stride = 0;
    bool operator==(const SubMode& o) const { return size == o.size && stride == o.stride; }
};

struct Mode {
    std::vector<SubMode> subs;  // outermost first; never empty
    int64_t size() const;
    int64_t operator()(int64_t i) const;  // offset contributed by index i (0 <= i < size())
    bool flat() const { return subs.size() == 1; }
};

struct Layout {
    std::vector<Mode> modes;
    int64_t offset = 0;  // storage offset (elements) of coordinate (0,...,0)

    size_t rank() const { return modes.size(); }
    Shape shape() const;
    int64_t size() const;  // number of coordinates (product of the shape)
    int64_t operator()(const Coord& c) const;
    // True when every mode has a single (size, stride): a plain strided layout.
    bool flat() const;
    // Strides of a flat layout; for a hierarchical mode, its innermost stride.
    std::vector<int64_t> strides() const;
};

// Plain strided layout; throws UsageError when ranks differ.
Layout make_layout(const Shape& shape, const std::vector<int64_t>& strides, int64_t offset = 0);
Layout row_major(const Shape& shape);

// Layout whose memory order is `order`: order[k] is the logical dim stored at
// memory position k (outermost first). {0,2,3,1} on (N,C,H,W) is NHWC.
Layout layout_from_order(const Shape& logical, const std::vector<int64_t>& order);

// Named layouts. The shape is always given in the logical axis order
// (N,C,[D],H,W; O,I,[D],H,W for weights; a,b,c,... for plain tags); the name
// gives the memory order, outermost first: "NHWC", "CHWN", "NDHWC", "ba".
// Blocked tags follow oneDNN: a number before a lowercase letter is an inner
// block of that dim, the uppercase letter marks where its outer part sits:
//   "nChw16c"  = n, C/16, h, w, c%16        "NCHW8h8w" = NCHW tiled 8x8 on H,W
// Blocks must divide the dim. Throws UsageError naming the tag otherwise.
Layout layout_from_name(const std::string& name, const Shape& logical);

// A layout given either way: "0,2,3,1" (a memory order, see
// layout_from_order) or a name / blocked tag (layout_from_name).
Layout layout_from_spec(const std::string& spec, const Shape& logical);

// Every sub-mode in logical row-major order: iterating it row-major visits
// the coordinates in the same order as iterating the layout.
std::vector<SubMode> flatten(const Layout& l);
// Merges neighbours (outer (s1,d1), inner (s2,d2)) into (s1*s2, d2) when
// d1 == s2*d2, drops size-1 sub-modes; keeps at least one entry ({1,0} when all vanish).
std::vector<SubMode> coalesce(std::vector<SubMode> subs);
Mode coalesce(const Mode& m);
// Same map on every coordinate (shape equal and coalesced sub-modes equal).
bool same_map(const Layout& a, const Layout& b);

// Row-major contiguous from its offset: sizes-1 modes ignored, as PyTorch does.
bool is_contiguous(const Layout& l);
// Distinct offsets the layout reaches (stride-0 sub-modes repeat elements);
// exact for layouts whose non-zero-stride sub-modes are injective.
int64_t distinct_offsets(const Layout& l);

std::string to_string(const Layout& l);  // "(2,3,4):(12,4,1)" and "+45" for an offset
// Offsets as small grids (last two dims as rows x columns, one block per
// leading index); "" when the layout has more than max_cells coordinates.
std::string grid_string(const Layout& l, int64_t max_cells = 256);

}  // namespace ll::view
