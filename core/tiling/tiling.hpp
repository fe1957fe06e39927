// Two-level tiling cost model: how well an L1 tile order (DRAM -> SRAM) and
// an L2 sub-tile order (SRAM -> registers) meet a data layout
// (document 003, section 15; the derivation is in docs/TILING.md).
//
// Model, per level k (L1: DRAM -> SRAM moving tiles; L2: SRAM -> registers
// moving sub-tiles):
//   * every block (tile or sub-tile, edge blocks included) is moved once
//     (L2: `l2_passes` times, on-chip re-reads; 4 is fitted to the table);
//   * the block is visited in the level's order; the innermost dimension that
//     actually steps (extent > 1 in the block) gives the access stride, read
//     from the buffer the level reads (StrideBasis::source, the default:
//     L1 the tensor in DRAM, L2 the tile in SRAM, as section 15.2 prints
//     3136 and 196) or the buffer it writes (StrideBasis::destination: the
//     tile, the sub-tile);
//   * efficiency, formula (8) bounded by the source memory's access unit g
//     (MemLevel::access_bytes, DRAM 64 B burst, SRAM 16 B word):
//       eta = 0.9                                  stride 1
//       eta = max(1/stride, element_size / g)      stride > 1 (capped at 0.9)
//     a strided access can waste at most the rest of one access unit per
//     element; g = 0 gives formula (8) literally, eta = 1/stride;
//   * time = sum over blocks of bytes / (bandwidth * eta), with bandwidth the
//     slower of the two memories of the level; energy = bytes/eta * source pJ/B
//     + bytes * destination pJ/B; plus an optional setup time per block (0 by
//     default). Total = L1 + L2 (no overlap).
//
// Worked example (the document's table):
//   shape (1,64,56,56) fp32, tile (16,14,14), sub-tile (4,7,7), l2_passes 4
//   NCHW + W_H_C + W_H_C: strides 1 / 1 -> eta 0.9 / 0.9,
//     L1 802816 B / (100 GB/s * 0.9) = 8.92 us, L2 4*802816 B / (500 GB/s * 0.9)
//     = 7.14 us, total 16.06 us (document: 16.1 us).
//   NHWC + W_H_C + W_H_C: W stride 64 in the tensor (256 B > 64 B burst) and 16
//     in the tile (64 B > 16 B word) -> eta 4/64 = 0.0625 / 4/16 = 0.25
//     (document: 0.06 / 0.25), total 128.45 + 25.69 = 154.14 us.
//   NCHW + C_W_H + C_W_H: strides 3136 / 196 -> the same 0.0625 / 0.25, 154.14 us.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "core/memory/access.hpp"
#include "core/shape.hpp"
#include "core/view/layout.hpp"

namespace ll::tiling {

// Re-reads of a tile from SRAM per L1 tile (--l2-passes): 4 fits the
// document; past a million the byte totals stop being meaningful.
constexpr int64_t kMaxL2Passes = 1'000'000;

// The tensor's layout is a view layout (core/view/layout.hpp) named over the
// logical (N, C, H, W): "NCHW", "NHWC", any other dimension order with N
// outermost ("NHCW"), or the Ascend "NC1HWC0", which is view's blocked
// "nChw<C0>c" with C0 = 32 bytes / element (8 for fp32, 16 for fp16) and C
// padded up to whole C0 groups. Every buffer of the model (the tensor, a tile
// in SRAM, a sub-tile in registers) is that layout over its own extents, made
// by frame_layout(). The names the panels offer:
const std::vector<std::string>& offered_layouts();  // NCHW, NHWC, NC1HWC0
// The canonical spelling of `s` ("nhwc" -> "NHWC"); throws UsageError for a
// name that is not a 4-D view layout with N outermost, naming `what`.
std::string check_layout(const std::string& s, const std::string& what = "layout");

enum class Dim : uint8_t { C = 0, H = 1, W = 2 };
char dim_char(Dim d);

// A visiting order, innermost first: "W_H_C" steps W fastest, C slowest.
struct Order {
    std::array<Dim, 3> inner_to_outer{Dim::W, Dim::H, Dim::C};
    bool operator==(const Order& o) const { return inner_to_outer == o.inner_to_outer; }
};
std::string to_string(const Order& o);  // "W_H_C"
// Throws UsageError for an unknown letter or a non-permutation, naming `what`.
Order parse_order(const std::string& s, const std::string& what = "order");
// The six permutations in a fixed order (W_H_C, W_C_H, H_W_C, H_C_W, C_W_H, C_H_W).
const std::vector<Order>& all_orders();

// Extents in (C, H, W).
struct Extent3 {
    int64_t c = 1, h = 1, w = 1;
    int64_t operator[](Dim d) const { return d == Dim::C ? c : d == Dim::H ? h : w; }
    bool operator==(const Extent3& o) const { return c == o.c && h == o.h && w == o.w; }
};
std::string to_string(const Extent3& e);  // "(16,14,14)"
// Parses "C,H,W"; zero or negative values are UsageErrors naming `what`.
Extent3 parse_extent(const std::string& s, const std::string& what);

struct MemLevel {
    std::string name;
    int64_t capacity_bytes = 0;
    double bandwidth_gbps = 0;  // GB/s, 1 GB = 1e9 B
    double pj_per_byte = 0;     // access energy
    // Fixed cost per block moved OUT of this memory (DMA descriptor, issue):
    // not in the document's model, so 0 by default; the sweep sets it (see
    // docs/TILING.md) because without it every tile size costs the same.
    double setup_ns = 0;
    // Smallest unit this memory delivers to a non-contiguous reader (DRAM
    // burst / cache line, SRAM word), bytes; bounds the efficiency of strided
    // reads FROM this memory (see ll::access_efficiency). 0 = no bound (formula
    // (8) literally).
    int64_t access_bytes = 0;
};
// Document 003, 15.1: DRAM 100 GB/s (GB-level, high energy), SRAM 500 GB/s
// (KB-MB level), registers TB/s (KB level, low energy). Numbers the document
// leaves qualitative are filled in and sourced in docs/TILING.md.
struct Hierarchy {
    MemLevel dram{"DRAM", int64_t(8) << 30, 100.0, 160.0, 0.0, 64};
    MemLevel sram{"SRAM", int64_t(1) << 20, 500.0, 1.25, 0.0, 16};
    MemLevel reg{"Registers", int64_t(64) << 10, 2000.0, 0.1, 0.0, 4};
};

enum class StrideBasis : uint8_t { destination, source };
const char* name(StrideBasis b);
StrideBasis stride_basis_from_name(const std::string& s);

struct Config {
    Shape shape{1, 64, 56, 56};   // logical (N, C, H, W)
    std::string layout = "NCHW";  // a view layout name, see check_layout
    DType dtype = DType::fp32;
    Extent3 l1_tile{16, 14, 14};
    Extent3 l2_tile{4, 7, 7};
    Order l1_order;  // W_H_C
    Order l2_order;  // W_H_C
    Hierarchy mem;
    // How often each L1 tile is streamed from SRAM into registers. 4 is what
    // the document's table implies (see docs/TILING.md); 1 = no re-reads.
    int64_t l2_passes = 4;
    StrideBasis basis = StrideBasis::source;
};

// The layout of a compact buffer of `frame` extents (one image, shape
// (1, C, H, W), C padded up to whole C0 groups for NC1HWC0) stored in
// `layout`. Offsets of (0, c, h, w) are the element addresses the model reads.
view::Layout frame_layout(const std::string& layout, DType dtype, const Extent3& frame);
// Elements such a buffer occupies (padding included).
int64_t frame_elems(const std::string& layout, DType dtype, const Extent3& frame);
// Stride of each of C, H, W (in elements) in that buffer; a blocked C reports
// its stride inside a C0 group (1). Cached: the sweep asks for the same few
// frames millions of times.
std::array<int64_t, 3> frame_strides(const std::string& layout, DType dtype, const Extent3& frame);

// The order that walks a buffer of `frame` extents stored in `layout` as
// contiguously as possible: C, H, W by ascending stride (ties: W, H, C).
// NCHW -> W_H_C; NHWC and NC1HWC0 -> C_W_H.
Order matched_order(const std::string& layout, DType dtype, const Extent3& frame);

// eta of a read with this stride from memory `m` (ll::access_efficiency with
// the element size of `dtype` and m's access unit).
inline double read_efficiency(int64_t stride, DType dtype, const MemLevel& m) {
    return access_efficiency(stride, double(bits(dtype)) / 8.0, m.access_bytes);
}

struct LevelResult {
    std::string name;  // "L1 DRAM->SRAM"
    Order order;
    Dim innermost = Dim::W;                   // first dim of the order that steps
    std::array<int64_t, 3> source_strides{};  // C,H,W strides in the source buffer
    std::array<int64_t, 3> dest_strides{};    // C,H,W strides in the destination
    int64_t stride = 1;                       // the stride that sets eta (first full block)
    int64_t access_bytes = 0;                 // access unit of the memory read (0: none)
    double efficiency = 0;                    // byte-weighted over all blocks (edge blocks too)
    std::string reasoning;                    // why eta is what it is, in words
    int64_t blocks = 0;                       // blocks moved (per pass)
    int64_t bytes = 0;                        // bytes moved, all passes
    double bandwidth_gbps = 0;                // slower of the two memories
    double time_us = 0;                       // transfer time / eta + setup
    double setup_us = 0;                      // part of time_us paid per block
    double energy_uj = 0;
};

struct Result {
    LevelResult l1, l2;
    double total_us = 0;
    double total_energy_uj = 0;
    int64_t tile_bytes = 0;     // one full L1 tile in SRAM
    int64_t subtile_bytes = 0;  // one full L2 sub-tile in registers
    bool fits_sram = false;
    bool fits_registers = false;
};

// Throws UsageError for a shape that is not 4-D, a zero tile, a tile larger
// than the tensor, a sub-tile larger than the tile, a non-positive bandwidth,
// negative energy/capacity, or l2_passes < 1.
void validate(const Config& c);
Result evaluate(const Config& c);

// The numbers only, no strings: the sweep's inner loop. Same figures as
// evaluate() (which calls it). Assumes validate() passed.
struct Fast {
    double l1_us = 0, l2_us = 0;
    double l1_eff = 0, l2_eff = 0;
    double l1_uj = 0, l2_uj = 0;
};
Fast evaluate_fast(const Config& c);
// One level alone: L1 depends only on the tile and the L1 order, L2 on the
// tile, the sub-tile and the L2 order (the sweep reuses them across orders).
struct LevelFast {
    double us = 0, eff = 0, uj = 0;
};
LevelFast evaluate_l1_fast(const Config& c);
LevelFast evaluate_l2_fast(const Config& c);
// The same for all six orders (all_orders()) at once: strides and bytes are
// shared, only the stepping dimension differs.
void evaluate_l1_all_orders_fast(const Config& c, LevelFast l1[6]);
void evaluate_l2_all_orders_fast(const Config& c, LevelFast l2[6]);
// Bytes one block of these extents occupies in c.layout (NC1HWC0: whole C0 groups).
int64_t block_footprint(const Config& c, const Extent3& block);

}  // namespace ll::tiling
