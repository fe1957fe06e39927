// Address-generation hardware as models that emit address streams.
//
// Agu: nested loop counters (bounds, outermost first) with one stride per
// loop; element k of the stream is the row-major counter state k and
//   address(k) = base + sum_d counter_d * stride_d * elem_bytes.
// Dma: two AGUs stepping in lock-step over the same loop nest, a read AGU
// over the source layout and a write AGU over the destination layout, so
// one pass performs a layout-changing copy.
// ScatterGather: gathers `width` elements per request from an index list and
// counts requests, bursts (aligned burst_bytes segments touched per request)
// and contiguous runs.
//
// Worked example (the seed document's NCHW -> NHWC copy of (1,64,56,56)):
//   make_dma(layout_from_name("NCHW", s), layout_from_name("NHWC", s), 32)
//   read  bounds=(1,64,56,56) strides=(200704,3136,56,1)
//   write bounds=(1,64,56,56) strides=(200704,1,3584,64)
//   element (0,32,28,28): read offset 101948, write offset 102176.
// Streams are plain data (step, element, addresses) for renderers to animate.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/view/layout.hpp"

namespace ll::view {

struct Agu {
    int64_t base = 0;              // bytes
    Shape bounds;                  // loop trip counts, outermost first
    std::vector<int64_t> strides;  // elements per counter step
    int elem_bits = 8;

    int64_t count() const;  // addresses in one full stream
    int64_t address(const Coord& counters) const;
    int64_t address_at(int64_t k) const;  // k-th address of the stream
};

// One loop per sub-mode of the layout (a blocked layout gets more loops).
Agu agu_from_layout(const Layout& l, int elem_bits, int64_t base = 0);
std::string to_string(const Agu& a);  // "base=0x0 bounds=(2,3) strides=(3,1) elem=4B"

struct AddressEvent {
    int64_t step;     // position in the stream
    int64_t element;  // row-major logical element index
    int64_t address;
};
// Events first .. first+count-1 (clipped to the stream).
std::vector<AddressEvent> stream(const Agu& a, int64_t first, int64_t count);

struct Dma {
    Agu read;
    Agu write;
    int64_t count() const { return read.count(); }
};
// Both layouts over the same logical shape; their modes are split to a common
// loop nest (UsageError when the two blockings have none, e.g. (2,3) vs (3,2)).
Dma make_dma(const Layout& src, const Layout& dst, int elem_bits, int64_t src_base = 0,
             int64_t dst_base = 0);
std::string to_string(const Dma& d);  // two lines: "read  ..." and "write ..."

struct DmaEvent {
    int64_t step;
    int64_t read;
    int64_t write;
};
std::vector<DmaEvent> stream(const Dma& d, int64_t first, int64_t count);

// Pattern of an address stream: how many maximal runs of consecutive
// addresses (each next address = previous + elem_bytes), the longest run, and
// the first distinct address deltas in order of appearance.
struct StreamStats {
    int64_t count = 0;       // addresses examined
    bool truncated = false;  // the stream is longer than the limit examined
    int64_t runs = 0;
    int64_t longest_run = 0;
    std::vector<int64_t> deltas;
};
StreamStats stream_stats(const std::vector<int64_t>& addresses, int64_t elem_bytes,
                         size_t max_deltas = 8);
// Stats of an AGU's stream without storing it, over its first `limit`
// addresses (2^26 by default, well under a second; truncated says when cut).
StreamStats stream_stats(const Agu& a, size_t max_deltas = 8, int64_t limit = int64_t(1) << 26);

struct ScatterGather {
    int64_t width = 16;  // elements per request
    int elem_bits = 32;
    int64_t base = 0;
    int64_t burst_bytes = 64;
};
struct GatherRequest {
    int64_t first = 0;  // position of its first index in the list
    std::vector<int64_t> addresses;
    int64_t runs = 0;    // contiguous runs inside the request
    int64_t bursts = 0;  // aligned burst_bytes segments touched
};
struct GatherReport {
    std::vector<GatherRequest> requests;
    int64_t elements = 0, runs = 0, bursts = 0;
};
// Throws UsageError for a width < 1, a burst size < 1 or a negative index.
GatherReport gather(const ScatterGather& sg, const std::vector<int64_t>& indices);

}  // namespace ll::view
