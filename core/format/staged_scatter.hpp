// Internal to core/format: copy scatters whose plain rows sit off the line
// grid, written through a staging buffer (docs/PERFORMANCE.md, finding 25).
//
// FRACTAL_NZ (fp16, N = 4095) -> ND writes plain rows of 8,190 bytes, so
// no plain row starts on a 16-byte boundary and neither of the streamed
// scatter walks applies (widen_scatter_rows and plain_order need whole
// lines): every plain line was written in 32-byte pieces with normal
// stores, each line paying a read for ownership. The same holds for
// NC1HWC0 -> NHWC with C = 56 (112-byte plain rows).
//
// Here the levels are cut in two. The top levels, in plain order, nest
// into one flat index f whose step is a contiguous piece of the plain
// tensor (NC1HWC0 -> NHWC: one (n, h), W * C elements). The inner levels,
// ordered for the blocked side, write a buffer that stays in L1, which
// then goes to the plain tensor with streaming stores in whole aligned
// lines (stream_bytes) whatever the rows' alignment. Two ways:
// * image: the buffer is the plain piece of `per_chunk` consecutive f,
//   streamed as one block;
// * windows, where one f is larger than the buffer (NZ -> ND: f is a
//   16-row strip, M1, of 16 * N elements) and the inner levels are
//   X (blocked-outermost, continuing the run along the plain row: N1),
//   R (the rows: M0) and the run (N0): `win` steps of X at a time, the
//   buffer holding R rows of win * X.src_stride elements, each row's
//   piece streamed on its own. Each fractal is then read front to back;
//   staging a whole 128 KiB strip instead (the buffer in L2) measured no
//   faster than the normal stores, its 32-byte stores to 16 rows 8 KiB
//   apart being the slow part (finding 25).
// The next f's (or chunk's) source is prefetched while the current one is
// copied (`ahead`, in blocked elements).
//
// Why a step is a contiguous plain piece: the top levels nest (each one's
// plain stride is the next one's stride times its size), so f's pieces
// start at f * step; the inner levels reach at most step - 1 past that
// (bounded per axis, padding excluded), and every plain element is written
// once, so f's piece is exactly [f * step, (f + 1) * step) clipped to the
// tensor.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/format/gather.hpp"

namespace ll::detail {

struct StagedPlan {
    Gather g;               // levels: the top ones (plain order), then the inner ones
    int top = 0;            // how many leading levels make f
    int64_t step = 0;       // plain elements per f
    int64_t fs = 0;         // how many f (the product of the top sizes)
    int64_t per_chunk = 1;  // image: f per staged chunk
    int64_t win = 0;        // windows: X steps per window (0: image)
    int64_t row_len = 0;    // windows: the plain elements of one row (R's valid row)
    int64_t ahead = 0;      // blocked elements from one chunk's (or f's) source to the next one's
};

// The staging buffer's size: in L1 (48 KiB per core on both machines
// measured) with room for the lines passing through.
constexpr int64_t kStageBytes = int64_t(32) << 10;
// Below this many plain bytes per f the walk's own steps per f (decoding
// f, one call per inner level) cost more than the copy (NC1HWC0 -> NHWC
// with C = 56 cut after W: 4 runs of 32 bytes per f).
constexpr int64_t kStageMinStep = 1024;

// The inner levels' furthest valid plain element from f's start: each
// padded axis with no top piece counted once (its last valid coordinate),
// every other level by its size.
inline int64_t staged_reach(const Gather& g, const std::vector<Level>& lv, size_t top,
                            const Level& run) {
    int64_t reach = 0;
    std::vector<int> whole_axes;
    for (size_t i = top; i <= lv.size(); ++i) {
        const Level& l = i < lv.size() ? lv[i] : run;
        bool shared = false;
        for (size_t t = 0; t < top; ++t) shared = shared || (l.axis >= 0 && lv[t].axis == l.axis);
        if (l.axis < 0 || shared || l.axis_stride <= 0 || l.src_stride % l.axis_stride != 0) {
            reach += (l.size - 1) * l.src_stride;
            continue;
        }
        if (std::find(whole_axes.begin(), whole_axes.end(), l.axis) != whole_axes.end()) continue;
        whole_axes.push_back(l.axis);
        reach += (g.limit[static_cast<size_t>(l.axis)] - 1) * (l.src_stride / l.axis_stride);
    }
    return reach;
}

// The window pattern: inner levels (blocked order) exactly X, R, run, with
// X continuing the run along the plain row, R's rows back to back in the
// blocked piece (R.dst_stride == run), and a plain row exactly covered by
// X (its valid length R.src_stride). Sets win and row_len.
inline bool staged_windows(const Gather& g, const Level& x, const Level& r, const Level& run,
                           int64_t esz, StagedPlan& p) {
    if (x.src_stride != run.size || r.dst_stride != run.size || x.dst_stride <= r.dst_stride)
        return false;
    int64_t row = x.size * x.src_stride;  // the plain row X covers, padding included
    if (x.axis >= 0 && x.axis == run.axis && x.axis_stride == run.size && run.axis_stride == 1 &&
        x.src_stride % x.axis_stride == 0)
        row = std::min(row, g.limit[static_cast<size_t>(x.axis)] * (x.src_stride / x.axis_stride));
    else if (x.axis >= 0 || run.axis >= 0)
        return false;
    if (row != r.src_stride) return false;
    const int64_t win = kStageBytes / (r.size * x.src_stride * esz);
    if (win < 4) return false;  // pieces of under four runs per row
    p.win = std::min(win, x.size);
    p.row_len = row;
    return true;
}

// Whether g (a copy scatter: innermost level contiguous on both sides, not
// tiled) can be staged, and its plan. esz: element bytes.
inline bool plan_staged(const Gather& g, int64_t esz, StagedPlan& p) {
    const size_t n = g.levels.size();
    if (g.tiled || n < 2) return false;
    const Level& run = g.levels.back();
    if (run.src_stride != 1 || run.dst_stride != 1) return false;
    std::vector<Level> lv(g.levels.begin(), g.levels.end() - 1);
    std::stable_sort(lv.begin(), lv.end(),
                     [](const Level& a, const Level& b) { return a.src_stride > b.src_stride; });
    const auto by_blocked = [](const Level& a, const Level& b) {
        return a.dst_stride > b.dst_stride;
    };
    p = StagedPlan{};
    // The cut: the fewest top levels whose step fits the buffer, or whose
    // inner levels make windows; the top levels must nest.
    for (size_t top = 1; top < lv.size() && top <= 16; ++top) {
        if (top > 1 && lv[top - 2].src_stride != lv[top - 1].src_stride * lv[top - 1].size) break;
        const int64_t step = lv[top - 1].src_stride;
        if (step * esz < kStageMinStep) break;
        if (staged_reach(g, lv, top, run) >= step) continue;
        std::vector<Level> inner(lv.begin() + static_cast<std::ptrdiff_t>(top), lv.end());
        std::stable_sort(inner.begin(), inner.end(), by_blocked);
        const bool image = step * esz <= kStageBytes;
        if (!image && !(inner.size() == 2 && staged_windows(g, inner[0], inner[1], run, esz, p)))
            continue;
        p.g = g;
        p.g.levels.assign(lv.begin(), lv.begin() + static_cast<std::ptrdiff_t>(top));
        p.g.levels.insert(p.g.levels.end(), inner.begin(), inner.end());
        p.g.levels.push_back(run);
        set_inner_max(p.g.levels);
        p.top = static_cast<int>(top);
        p.step = step;
        p.fs = 1;
        for (size_t t = 0; t < top; ++t) p.fs *= lv[t].size;
        p.per_chunk = image ? std::max<int64_t>(1, kStageBytes / (step * esz)) : 1;
        p.ahead = p.per_chunk * lv[top - 1].dst_stride;
        return true;
    }
    return false;
}

}  // namespace ll::detail
