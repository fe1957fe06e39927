// Internal to core/format: a pipeline segment compiled into one strided
// gather, and the loop nest that runs it.
//
// A forward segment (an optional pad first, then reshapes and transposes)
// sends every destination element to one element of the padded source. The
// composition of those index maps is a list of levels, each a destination
// axis (or a piece of one) with the stride it moves in the unpadded source
// and in the destination, plus which padded source axis it walks (to tell
// padding apart). An inverse segment (reshapes, transposes, then a crop) is
// the same gather read backwards, i.e. a scatter.
//
// Contract, for ND (2,2,28) fp16 -> FRACTAL_NZ (steps pad, reshape, transpose):
//   compile_gather({2,2,28}, steps, 2) has levels (traversal order, sizes)
//   B 2, N1 2, M0 16, N0 16 (M1 is 1 and dropped); N0 has src stride 1,
//   dst stride 1; N1 has src stride 16 and walks padded axis 2 (28 -> 32).
#pragma once

#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

#include "core/format/format.hpp"

namespace ll::detail {

struct Level {
    int64_t size = 1;
    int64_t src_stride = 0;   // elements, unpadded row-major source
    int64_t dst_stride = 0;   // elements, row-major destination
    int axis = -1;            // padded-axis id (index into Gather::limit), -1: never padding
    int64_t axis_stride = 0;  // coordinate step along that padded axis
    int64_t inner_max = 0;    // largest coordinate the inner levels add on the same axis
};

// Sets every level's inner_max for the walk order lv is in (call again
// after reordering or splitting levels).
void set_inner_max(std::vector<Level>& lv);

struct Gather {
    Shape src, dst;              // unpadded source shape, destination shape
    std::vector<Level> levels;   // traversal order, outermost first
    std::vector<int64_t> limit;  // per padded-axis id: the unpadded size
    uint32_t mask = 0;           // padded-axis ids that may hold padding
    int64_t src_numel = 0, dst_numel = 0;
    // Tiled order: the last two levels are Y (source stride 1) and X
    // (destination stride 1, source stride > 1, a different source axis),
    // to be moved as one 2-D transpose (Policy::tile) rather than level by
    // level; the outer levels go by decreasing source stride.
    bool tiled = false;
    // int4 only: the levels count bytes (pairs of nibbles) instead of
    // elements, see compile_gather's `nibbles`.
    bool nibble_pairs = false;
};

// steps: optional pad as the first step, then only reshape/transpose.
// esize: element bytes, used to pick how many innermost levels stay in
// destination order (the rest are reordered for source locality).
// allow_tile: use the tiled order (see Gather::tiled) when the innermost
// destination axis is strided in the source (C0 of NCHW -> NC1HWC0, K0 of
// ZN, C of NCHW -> NHWC); only for policies that implement tile().
// nibbles (int4): when every stride is even except the unit strides of the
// innermost level, whose size is even, and padding starts at an even
// coordinate of that level's axis, the gather is rewritten on bytes (each
// byte a pair of neighbouring nibbles that stay together) and nibble_pairs
// is set; otherwise the levels stay in nibbles.
Gather compile_gather(const Shape& src, const std::vector<Step>& steps, int esize,
                      bool allow_tile = false, bool nibbles = false);

// Blocked -> blocked without the plain tensor between: a_steps take `plain`
// to the source format, b_steps to the destination (both forward, optional
// pad first). The result gathers the destination straight from the blocked
// source (src strides count source elements); destination padding is
// filled, source padding never read. nullopt when the two blockings do not
// nest (a piece of one is not a whole number of pieces of the other).
std::optional<Gather> compile_composed(const Shape& plain, const std::vector<Step>& a_steps,
                                       const std::vector<Step>& b_steps, int esize,
                                       bool allow_tile = false, bool nibbles = false);

// A pipeline cut into segments: forward ones (gather) and inverse ones
// (scatter; `steps` hold the forward steps they undo).
struct Segment {
    bool inverse = false;
    Shape plain;                  // forward source shape (the plain side)
    std::vector<Step> steps;      // forward steps
    size_t first = 0, count = 0;  // which steps of the pipeline it covers
};
std::vector<Segment> segments(const Pipeline& p);

// A blocked -> blocked pipeline (inverse segment, then forward) that the
// Executor runs slab by slab through a small buffer: the plain elements (int4
// moving in pairs: bytes) per slab; 0 when it takes two full passes instead.
// slab_bytes <= 0: the Executor's own slab size (256 KiB).
int64_t fused_slab(const Pipeline& p, int64_t slab_bytes = 0);
// Runs p that way with slabs of about slab_bytes (tests use tiny slabs to
// cross many slab edges); false, and nothing written, when p does not fuse.
bool run_fused(const Pipeline& p, const void* src, void* dst, int threads, int64_t slab_bytes);

// Runs `policy` over a gather. Policy has
//   void block(const Level* lv, int n, int64_t s, int64_t d)  // no padding inside
//   void fill(const Level* lv, int n, int64_t d)               // all padding
// where lv[0..n) are the remaining levels, and, for a tiled gather,
//   static constexpr bool kTiles = true;
//   void tile(const Level& y, const Level& x, int64_t s, int64_t d,
//             int64_t valid_y, int64_t valid_x)  // may hold padding
// called for the last two levels (block() then sees n >= 2 only) with the
// number of leading non-padding entries along each of them; otherwise
//   void partial(const Level& l, int64_t valid, int64_t s, int64_t d)
// for an innermost level whose first `valid` entries are data, the rest
// padding (one call instead of one walk step per element), and optionally
//   void partial_rows(const Level& rows, const Level& l, int64_t valid,
//                     int64_t s, int64_t d)
// for partial() on each entry of `rows` (a level of another axis).
// [begin, end) restricts the outermost level (end < 0: all of it), so that
// threads can share a gather: ranges that do not overlap write disjoint
// destination elements. s0 is subtracted from every source (plain) index,
// so that a range whose plain elements start at s0 can read or write a
// buffer that holds only those (fractal -> fractal in slabs).
template <class Policy>
void walk(const Gather& g, Policy& pol, int64_t begin = 0, int64_t end = -1, int64_t s0 = 0);

}  // namespace ll::detail

// ---- walk: template body ------------------------------------------------------

namespace ll::detail {

// How many leading entries of level l are not padding, given the outer
// coordinates in acc (l must be the only remaining level on its axis).
inline int64_t valid_count(const Gather& g, const Level& l, const int64_t* acc, uint32_t mask) {
    if (l.axis < 0 || (mask & (1u << l.axis)) == 0) return l.size;
    const int64_t left = g.limit[static_cast<size_t>(l.axis)] - acc[l.axis];
    if (left <= 0) return 0;
    const int64_t v = (left + l.axis_stride - 1) / l.axis_stride;
    return v < l.size ? v : l.size;
}

// Whether Policy has partial_rows(const Level& rows, const Level& l,
// int64_t valid, int64_t s, int64_t d): partial() for each of the rows.
template <class P, class = void>
struct has_partial_rows : std::false_type {};
template <class P>
struct has_partial_rows<P, std::void_t<decltype(&P::partial_rows)>> : std::true_type {};

template <class Policy>
void walk_level(const Gather& g, Policy& pol, size_t level, int64_t s, int64_t d, int64_t* acc,
                uint32_t mask) {
    const Level* lv = g.levels.data() + level;
    const int n = static_cast<int>(g.levels.size() - level);
    if (mask == 0 || n == 0) {
        pol.block(lv, n, s, d);
        return;
    }
    if constexpr (Policy::kTiles) {
        if (n == 2 && g.tiled) {
            pol.tile(lv[0], lv[1], s, d, valid_count(g, lv[0], acc, mask),
                     valid_count(g, lv[1], acc, mask));
            return;
        }
    }
    const Level& l = lv[0];
    const uint32_t bit = l.axis < 0 ? 0u : (1u << l.axis);
    if constexpr (!Policy::kTiles) {
        if (n == 1 && (mask & bit) != 0) {
            pol.partial(l, valid_count(g, l, acc, mask), s, d);
            return;
        }
        // Rows of a padded innermost level (C = 3 or 56 into C0): the rows'
        // level walks another axis, so every row has the same valid count,
        // taken once; one step of this walk per row (and its division in
        // valid_count) cost more than the row's own copy.
        if (n == 2 && (mask & bit) == 0 && lv[1].axis >= 0 && lv[1].axis != l.axis &&
            (mask & (1u << lv[1].axis)) != 0) {
            const int64_t v = valid_count(g, lv[1], acc, mask);
            if constexpr (has_partial_rows<Policy>::value) {
                pol.partial_rows(l, lv[1], v, s, d);
            } else {
                for (int64_t i = 0; i < l.size; ++i)
                    pol.partial(lv[1], v, s + i * l.src_stride, d + i * l.dst_stride);
            }
            return;
        }
    }
    if ((mask & bit) == 0) {
        for (int64_t i = 0; i < l.size; ++i)
            walk_level(g, pol, level + 1, s + i * l.src_stride, d + i * l.dst_stride, acc, mask);
        return;
    }
    const int64_t c = acc[l.axis], lim = g.limit[static_cast<size_t>(l.axis)];
    for (int64_t i = 0; i < l.size; ++i) {
        const int64_t lo = c + i * l.axis_stride;
        if (lo >= lim) {
            for (int64_t j = i; j < l.size; ++j) pol.fill(lv + 1, n - 1, d + j * l.dst_stride);
            break;
        }
        acc[l.axis] = lo;
        const uint32_t m = lo + l.inner_max < lim ? (mask & ~bit) : mask;
        walk_level(g, pol, level + 1, s + i * l.src_stride, d + i * l.dst_stride, acc, m);
    }
    acc[l.axis] = c;
}

template <class Policy>
void walk(const Gather& g, Policy& pol, int64_t begin, int64_t end, int64_t s0) {
    int64_t acc[32] = {};
    if (g.levels.empty() || (begin == 0 && (end < 0 || end == g.levels[0].size))) {
        walk_level(g, pol, 0, -s0, 0, acc, g.mask);
        return;
    }
    Gather part = g;
    Level& l = part.levels[0];
    l.size = end - begin;
    if (l.axis >= 0) acc[l.axis] = begin * l.axis_stride;
    walk_level(part, pol, 0, begin * l.src_stride - s0, begin * l.dst_stride, acc, g.mask);
}

}  // namespace ll::detail
