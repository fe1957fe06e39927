// Access efficiency of a strided memory stream: the one formula that the
// tiling model (core/tiling) and the network planner (core/netplan) share.
//
// Model (document 003, formula (8), bounded by the memory's access unit):
//   eta = contiguous                                 |stride| <= 1
//   eta = min(contiguous, max(1/|stride|, e / g))    otherwise
// with e the element size in bytes and g the access unit of the memory read
// (DRAM burst, SRAM word) in bytes: a strided read fetches at most one unit
// per element, so it never falls below e / g. g = 0 means no unit: formula
// (8) as printed, eta = 1/|stride|. `contiguous` is the efficiency of a
// stride-1 stream, 0.9 in section 15.4.
//
// Examples: fp32 (4 B), stride 3136, 64 B burst -> max(1/3136, 4/64) = 0.0625;
//           stride 2 -> 0.5; stride 1 -> 0.9; stride 7 with g = 0 -> 1/7.
#pragma once

#include <cstdint>

namespace ll {

constexpr double kContiguousEfficiency = 0.9;  // formula (8), stride 1

inline double access_efficiency(int64_t stride_elems, double element_bytes, int64_t access_bytes,
                                double contiguous = kContiguousEfficiency) {
    const int64_t s = stride_elems < 0 ? -stride_elems : stride_elems;
    if (s <= 1) return contiguous;
    double eta = 1.0 / double(s);
    if (access_bytes > 0) {
        const double unit_floor = element_bytes / double(access_bytes);
        if (unit_floor > eta) eta = unit_floor;
    }
    return eta < contiguous ? eta : contiguous;
}

}  // namespace ll
