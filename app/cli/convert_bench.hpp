// Conversion throughput against memcpy, measured in the same process:
// `convert --bench` (one conversion, one line) and `convert --bench-all`
// (every format pair the engine converts x every dtype, forward and inverse,
// one table).
//
// The reference is memcpy of the larger of the two buffers (source or
// destination): a conversion must read one and write the other, so when
// padding makes the destination larger (C=3 into C0=16 writes 5.3x the
// source) memcpy of the source bytes would not be the physical limit. Both
// are timed interleaved, medians, in thread CPU time with one thread and in
// wall time with more; GB/s counts those same bytes. --only matches words as
// substrings of a row's text ("int8" also matches uint8; " int8" does not).
// Every buffer (source, destination, memcpy's two) is a TensorBuffer: huge
// pages asked for unless --no-huge-pages, the same for both sides.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/format/format.hpp"

namespace ll::cli {

struct BenchOptions {
    int threads = 0;     // <= 0: all cores
    int repeat = 3;      // --bench-all: passes over the whole matrix
    double min_mb = 64;  // --bench-all: smallest source, MiB
    std::string only;    // --bench-all: comma-separated words a row must contain
    bool json = false;
    bool list = false;       // --bench-all: the rows and their memory, not timed
    bool huge_pages = true;  // false: --no-huge-pages, 4 KiB pages for every buffer
};

// One line: convert_gbps=... memcpy_gbps=... ratio=... threads=N
int run_bench_one(const Pipeline& p, const std::vector<uint8_t>& src, const BenchOptions& o);

// The matrix; prints one table (or JSON) to stdout.
int run_bench_all(const BenchOptions& o);

}  // namespace ll::cli
