// ElementMap and stage offsets: the pipeline's composed index maps, computed
// with the same strided loop nest as the Executor (no per-element coordinates).
#include <numeric>
#include <stdexcept>

#include "core/format/format.hpp"
#include "core/format/gather.hpp"

namespace ll {

namespace {

using detail::Gather;
using detail::Level;

// Writes, for every destination element, its source index (or -1).
struct MapPolicy {
    static constexpr bool kTiles = false;
    int64_t* out;
    void block(const Level* lv, int n, int64_t s, int64_t d) {
        if (n == 0) {
            out[d] = s;
            return;
        }
        if (n == 1) {
            const Level& l = lv[0];
            for (int64_t i = 0; i < l.size; ++i) out[d + i * l.dst_stride] = s + i * l.src_stride;
            return;
        }
        for (int64_t i = 0; i < lv[0].size; ++i)
            block(lv + 1, n - 1, s + i * lv[0].src_stride, d + i * lv[0].dst_stride);
    }
    void fill(const Level* lv, int n, int64_t d) {
        if (n == 0) {
            out[d] = -1;
            return;
        }
        for (int64_t i = 0; i < lv[0].size; ++i) fill(lv + 1, n - 1, d + i * lv[0].dst_stride);
    }
    void partial(const Level& l, int64_t valid, int64_t s, int64_t d) {
        for (int64_t i = 0; i < l.size; ++i)
            out[d + i * l.dst_stride] = i < valid ? s + i * l.src_stride : -1;
    }
};

std::vector<int64_t> gather_map(const Gather& g) {
    std::vector<int64_t> out(static_cast<size_t>(g.dst_numel));
    MapPolicy pol{out.data()};
    detail::walk(g, pol);
    return out;
}

std::vector<int64_t> iota(int64_t n) {
    std::vector<int64_t> v(static_cast<size_t>(n));
    std::iota(v.begin(), v.end(), int64_t(0));
    return v;
}

// Map of one segment: segment-dst element -> segment-src element (or -1).
std::vector<int64_t> segment_map(const detail::Segment& s) {
    Gather g = detail::compile_gather(s.plain, s.steps, 8);
    std::vector<int64_t> fwd = gather_map(g);
    if (!s.inverse) return fwd;
    // Inverse: plain element j was forward element e, which now is the source.
    std::vector<int64_t> inv(static_cast<size_t>(g.src_numel), -1);
    for (size_t e = 0; e < fwd.size(); ++e)
        if (fwd[e] >= 0) inv[static_cast<size_t>(fwd[e])] = static_cast<int64_t>(e);
    return inv;
}

// Offsets, for every segment-dst element, inside the tensor after local step k.
std::vector<int64_t> segment_stage(const detail::Segment& s, size_t k) {
    const size_t m = s.steps.size();
    if (!s.inverse) {
        if (k == 0) return gather_map(detail::compile_gather(s.plain, s.steps, 8));
        if (k == m) return iota(numel(s.steps.back().after));
        std::vector<Step> rest(s.steps.begin() + static_cast<std::ptrdiff_t>(k), s.steps.end());
        return gather_map(detail::compile_gather(s.steps[k - 1].after, rest, 8));
    }
    // Inverse segment: its tensor after step k is the forward tensor m - k.
    Gather g = detail::compile_gather(s.plain, s.steps, 8);
    std::vector<int64_t> fwd = gather_map(g);
    const size_t fk = m - k;
    std::vector<int64_t> fo;
    if (fk == m) {
        fo = iota(g.dst_numel);
    } else if (fk == 0) {
        return iota(g.src_numel);
    } else {
        std::vector<Step> rest(s.steps.begin() + static_cast<std::ptrdiff_t>(fk), s.steps.end());
        fo = gather_map(detail::compile_gather(s.steps[fk - 1].after, rest, 8));
    }
    std::vector<int64_t> out(static_cast<size_t>(g.src_numel), -1);
    for (size_t e = 0; e < fwd.size(); ++e)
        if (fwd[e] >= 0) out[static_cast<size_t>(fwd[e])] = fo[e];
    return out;
}

void compose(std::vector<int64_t>& idx, const std::vector<int64_t>& map) {
    for (auto& v : idx)
        if (v >= 0) v = map[static_cast<size_t>(v)];
}

}  // namespace

ElementMap element_map(const Pipeline& p) {
    auto segs = detail::segments(p);
    if (segs.empty()) return iota(numel(p.dst_shape));
    std::vector<int64_t> m = segment_map(segs.back());
    for (size_t i = segs.size() - 1; i-- > 0;) compose(m, segment_map(segs[i]));
    return m;
}

int64_t data_elements(const Pipeline& p) {
    // A forward segment is injective: it adds padding and drops nothing. An
    // inverse one writes each element from a distinct element it reads, so
    // when what it reads is all data, so is all it writes. segments() ends a
    // forward segment only at a pad, so inverse segments come first and read
    // padding-free tensors; the map is only a fallback for other pipelines.
    int64_t data = numel(p.src_shape);
    for (const auto& s : detail::segments(p)) {
        if (!s.inverse) continue;
        const int64_t in = numel(s.steps.back().after), out = numel(s.plain);
        if (data != in) {
            int64_t n = 0;
            for (int64_t v : element_map(p)) n += v >= 0;
            return n;
        }
        data = out;
    }
    return data;
}

std::vector<int64_t> stage_offsets(const Pipeline& p, size_t k) {
    if (k > p.steps.size()) throw std::out_of_range("stage_offsets: k past the last step");
    auto segs = detail::segments(p);
    if (segs.empty()) return iota(numel(p.dst_shape));
    // The segment that holds tensor k (a boundary tensor belongs to the later one).
    size_t j = 0;
    while (j + 1 < segs.size() && k >= segs[j + 1].first) ++j;
    std::vector<int64_t> idx;
    if (j + 1 == segs.size()) {
        idx = segment_stage(segs[j], k - segs[j].first);
        return idx;
    }
    idx = segment_map(segs.back());
    for (size_t i = segs.size() - 1; i-- > j + 1;) compose(idx, segment_map(segs[i]));
    compose(idx, segment_stage(segs[j], k - segs[j].first));
    return idx;
}

}  // namespace ll
