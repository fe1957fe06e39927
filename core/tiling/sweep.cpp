#include "core/tiling/sweep.hpp"

#include <algorithm>
#include <limits>

#include "core/checked.hpp"
#include "core/error.hpp"

namespace ll::tiling {

std::vector<int64_t> divisors_of(int64_t n) {
    std::vector<int64_t> d;
    for (int64_t i = 1; i * i <= n; ++i)
        if (n % i == 0) {
            d.push_back(i);
            if (i != n / i) d.push_back(n / i);
        }
    std::sort(d.begin(), d.end());
    return d;
}

namespace {

// Row indices sorted by (time, footprint, index) or (footprint, time, index):
// keys are copied out once so the sort touches a dense array.
std::vector<uint32_t> sorted_by(const std::vector<SweepRow>& rows, bool time_first) {
    struct Key {
        double t;
        int64_t f;
        uint32_t i;
    };
    std::vector<Key> k(rows.size());
    for (uint32_t i = 0; i < k.size(); ++i) k[i] = {rows[i].total_us(), rows[i].footprint, i};
    std::sort(k.begin(), k.end(), [time_first](const Key& a, const Key& b) {
        if (time_first) {
            if (a.t != b.t) return a.t < b.t;
            if (a.f != b.f) return a.f < b.f;
        } else {
            if (a.f != b.f) return a.f < b.f;
            if (a.t != b.t) return a.t < b.t;
        }
        return a.i < b.i;
    });
    std::vector<uint32_t> idx(k.size());
    for (size_t i = 0; i < k.size(); ++i) idx[i] = k[i].i;
    return idx;
}

// Given indices sorted by (footprint, time, index), keeps each row strictly
// faster than every row before it: nothing with a smaller or equal footprint
// is as fast, so nothing dominates it.
std::vector<uint32_t> scan_front(const std::vector<SweepRow>& rows,
                                 const std::vector<uint32_t>& idx) {
    std::vector<uint32_t> front;
    double best = std::numeric_limits<double>::infinity();
    for (uint32_t i : idx)
        if (rows[i].total_us() < best) {
            front.push_back(i);
            best = rows[i].total_us();
        }
    return front;
}

}  // namespace

std::vector<uint32_t> pareto_front(const std::vector<SweepRow>& rows) {
    const std::vector<uint32_t> idx = sorted_by(rows, false);
    return scan_front(rows, idx);
}

SweepResult sweep(const SweepSpec& spec) {
    Config c = spec.base;
    if (c.shape.size() != 4) validate(c);  // reports the shape error
    const Extent3 tensor{c.shape[1], c.shape[2], c.shape[3]};
    // Validate everything but the tiles with a trivially valid tile.
    c.l1_tile = tensor;
    c.l2_tile = {1, 1, 1};
    validate(c);

    std::array<std::vector<int64_t>, 3> cand;
    const char* names[3] = {"C", "H", "W"};
    for (int i = 0; i < 3; ++i) {
        const int64_t ext = tensor[Dim(i)];
        cand[i] = spec.candidates[i].empty() ? divisors_of(ext) : spec.candidates[i];
        std::sort(cand[i].begin(), cand[i].end());
        cand[i].erase(std::unique(cand[i].begin(), cand[i].end()), cand[i].end());
        for (int64_t v : cand[i])
            if (v <= 0 || v > ext)
                throw UsageError(std::string("sweep: candidate ") + names[i] + " size " +
                                 std::to_string(v) + " is outside 1.." + std::to_string(ext) +
                                 "; expected sizes within the tensor");
    }

    // Count first, so the guard fires before any allocation.
    auto upto = [&](int i, int64_t t) {
        return int64_t(std::upper_bound(cand[i].begin(), cand[i].end(), t) - cand[i].begin());
    };
    // (tile, sub-tile) pairs with sub <= tile in every dimension: the
    // dimensions are independent, so the count is a product of per-dimension
    // sums, k(k+1)/2 for k sorted distinct candidates (no triple loop).
    std::vector<int64_t> per_dim;
    for (int i = 0; i < 3; ++i) {
        const int64_t k = int64_t(cand[i].size());
        per_dim.push_back(k * (k + 1) / 2);
    }
    const int64_t n_orders = int64_t(all_orders().size());
    per_dim.push_back(n_orders * n_orders);
    const double configs =
        double(per_dim[0]) * double(per_dim[1]) * double(per_dim[2]) * double(per_dim[3]);
    check_work(configs, spec.max_configs, "sweep", "configurations", "max_configs");
    const int64_t pairs = per_dim[0] * per_dim[1] * per_dim[2];

    SweepResult res;
    res.rows.reserve(size_t(pairs * n_orders * n_orders));
    LevelFast l1[6], l2[6];
    for (int64_t tc : cand[0])
        for (int64_t th : cand[1])
            for (int64_t tw : cand[2]) {
                c.l1_tile = {tc, th, tw};
                const int64_t tile_b = block_footprint(c, c.l1_tile);
                const int64_t n_sub = upto(0, tc) * upto(1, th) * upto(2, tw);
                if (tile_b > c.mem.sram.capacity_bytes) {
                    res.skipped_capacity += n_sub;
                    continue;
                }
                evaluate_l1_all_orders_fast(c, l1);
                for (int64_t sc = 0; sc < upto(0, tc); ++sc)
                    for (int64_t sh = 0; sh < upto(1, th); ++sh)
                        for (int64_t sw = 0; sw < upto(2, tw); ++sw) {
                            c.l2_tile = {cand[0][size_t(sc)], cand[1][size_t(sh)],
                                         cand[2][size_t(sw)]};
                            const int64_t sub_b = block_footprint(c, c.l2_tile);
                            if (sub_b > c.mem.reg.capacity_bytes) {
                                ++res.skipped_capacity;
                                continue;
                            }
                            evaluate_l2_all_orders_fast(c, l2);
                            SweepRow r;
                            r.tile = c.l1_tile;
                            r.sub = c.l2_tile;
                            r.footprint = tile_b + sub_b;
                            for (int64_t a = 0; a < n_orders; ++a)
                                for (int64_t b = 0; b < n_orders; ++b) {
                                    r.l1_order = uint8_t(a);
                                    r.l2_order = uint8_t(b);
                                    r.l1_eff = float(l1[a].eff);
                                    r.l2_eff = float(l2[b].eff);
                                    r.l1_us = l1[a].us;
                                    r.l2_us = l2[b].us;
                                    res.rows.push_back(r);
                                }
                        }
            }

    res.ranking = sorted_by(res.rows, true);
    // Rows of one (tile, sub-tile) pair share a footprint, so only the fastest
    // of each pair (the first, on ties) can be on the front: sort those alone.
    std::vector<SweepRow> best;
    std::vector<uint32_t> best_index;
    const size_t group = size_t(n_orders * n_orders);
    for (size_t g = 0; g < res.rows.size(); g += group) {
        size_t m = g;
        for (size_t i = g + 1; i < g + group; ++i)
            if (res.rows[i].total_us() < res.rows[m].total_us()) m = i;
        best.push_back(res.rows[m]);
        best_index.push_back(uint32_t(m));
    }
    for (uint32_t i : scan_front(best, sorted_by(best, false))) res.pareto.push_back(best_index[i]);
    return res;
}

}  // namespace ll::tiling
