// The pieces every walk of the Executor shares (executor.cpp and the int4
// walks of executor_int4.cpp): tile_levels for the tiled policies, thread
// ranges and their grain, the destination size past which stores stream,
// and walk_threads (the prefetch hint is in prefetch.hpp). Internal to
// core/format.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <thread>
#include <vector>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "core/format/gather.hpp"
#include "core/format/prefetch.hpp"

namespace ll::detail {

// block() of the tiled policies: the outer levels in turn, then the last
// two as one pol.tile (the valid counts are whole: no padding inside).
template <class P>
void tile_levels(P& pol, const Level* lv, int n, int64_t s, int64_t d) {
    if (n == 2) {
        pol.tile(lv[0], lv[1], s, d, lv[0].size, lv[1].size);
        return;
    }
    if (n < 2) throw std::logic_error("a tiled gather ends in two levels");
    for (int64_t i = 0; i < lv[0].size; ++i)
        tile_levels(pol, lv + 1, n - 1, s + i * lv[0].src_stride, d + i * lv[0].dst_stride);
}

// Runs f(begin, end) over [0, n) cut into `threads` ranges, the last on the
// calling thread; every cut a multiple of `grain` (fewer ranges where n
// holds fewer grains).
template <class F>
void parallel_ranges(int64_t n, int threads, const F& f, int64_t grain = 1) {
    const int64_t units = n / grain;
    const int64_t t = std::max<int64_t>(1, std::min<int64_t>(threads, units));
    if (t == 1) {
        f(int64_t{0}, n);
        return;
    }
    const auto cut = [units, t, grain](int64_t k) { return units * k / t * grain; };
    std::vector<std::thread> pool;
    for (int64_t k = 0; k + 1 < t; ++k) pool.emplace_back([&f, &cut, k] { f(cut(k), cut(k + 1)); });
    f(cut(t - 1), n);
    for (auto& th : pool) th.join();
}

// The grain of a thread split of level l, elements of `bits` each: the
// fewest steps after which both sides move a multiple of 64 bytes. Cut
// anywhere, a split of a level with a unit stride (the only level left of
// a small tiled gather, Y, plain stride 1) started a thread mid-line: the
// fp16/fp32 tiled scatter then streamed 16-byte stores to unaligned
// addresses (NC1HWC0 -> NCHW fp16 (1,16,512,512), 3 threads: a crash), and
// an int4 nibble transpose started mid-byte.
inline int64_t split_grain(const Level& l, int bits) {
    int64_t grain = 1;
    for (const int64_t stride : {l.src_stride, l.dst_stride}) {
        int64_t k = 1;
        while (k < 512 && (k * stride * bits) % 512 != 0) k *= 2;
        grain = std::max(grain, k);
    }
    return grain;
}

// Destinations from this size on are written with non-temporal stores: past
// the last-level cache a normal store first reads the line it fills (read
// for ownership), so a conversion would move 3 bytes per byte where memcpy,
// which streams at this size, moves 2.
constexpr int64_t kStreamBytes = int64_t(8) << 20;

// Where a gather runs: split across `threads` (each thread fences its own
// streaming stores), or, for one slab of a fused fractal -> fractal
// conversion, the outermost-level range [begin, end) on the calling thread
// with plain indices relative to s0 (the caller fences). plain_stream: the
// plain side may take streaming stores (not when it is a slab buffer that
// the next step reads back from cache).
struct Range {
    int threads = 1;
    bool part = false;
    int64_t begin = 0, end = -1, s0 = 0;
    bool plain_stream = true;
};

// Walks g with one policy copy per thread (each its own streaming fence).
template <class P>
void walk_threads(const detail::Gather& g, const P& proto, const Range& r, bool stream) {
    if (r.part) {
        P pol = proto;
        detail::walk(g, pol, r.begin, r.end, r.s0);
        return;
    }
    const int64_t n = g.levels.empty() ? 1 : g.levels[0].size;
    const int64_t grain = g.levels.empty() ? 1 : split_grain(g.levels[0], P::kBits);
    parallel_ranges(
        n, r.threads,
        [&](int64_t b, int64_t e) {
            P pol = proto;
            detail::walk(g, pol, b, e);
#ifdef __SSE2__
            if (stream) _mm_sfence();
#endif
        },
        grain);
    (void)stream;
}

}  // namespace ll::detail
