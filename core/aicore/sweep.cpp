#include "core/aicore/sweep.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace ll::aicore {

std::vector<int64_t> base_candidates(const Problem& p, int which) {
    const int64_t q = which == 2 ? p.k0() : 16;
    const int64_t dim = which == 0 ? p.m_pad() : which == 1 ? p.n_pad() : p.k_pad();
    std::vector<int64_t> v;
    const int64_t mults[] = {1, 2, 4, 8, 16};
    for (int64_t f : mults) {
        const int64_t x = which == 2 ? q * f : 16 * f;
        if (x <= dim) v.push_back(x);
    }
    if (dim <= (which == 2 ? q * 16 : 256) && std::find(v.begin(), v.end(), dim) == v.end())
        v.push_back(dim);
    std::sort(v.begin(), v.end());
    return v;
}

namespace {
bool fits(const Problem& p, const Tiling& t, const Product& prod) {
    try {
        place(p, t, prod);
        return true;
    } catch (const UsageError&) {
        return false;
    }
}
}  // namespace

SweepRow estimate(const Problem& p, const Tiling& t, const Product& prod, const Costs& c) {
    SweepRow row;
    row.tiling = t;
    row.l1_bytes = l1_footprint(p, t);
    const int64_t mb = (p.m_pad() + t.base_m - 1) / t.base_m;
    const int64_t nb = (p.n_pad() + t.base_n - 1) / t.base_n;
    const int64_t inner = t.order == Order::m_first ? mb : nb, blocks = mb * nb;
    // The repeating unit: whole rows of the visiting order while rows are
    // short (an operand tile is reloaded at each row change), else blocks.
    const int64_t unit = inner <= 8 * kEstimateBlocks
                             ? inner * std::max<int64_t>(1, (kEstimateBlocks + inner - 1) / inner)
                             : kEstimateBlocks;
    if (blocks <= 3 * unit) {
        const Schedule s = simulate(p, t, prod, c, false);
        row.total_cycles = s.total_cycles;
        row.bound = s.bound;
        row.cube_utilisation = s.units[int(Unit::cube)].utilisation;
        return row;
    }
    // Steady state: after the first unit every unit adds the same cycles,
    // except the last (edge tiles): the first two units run whole, the middle
    // ones at the second unit's period, the last at its own period (measured
    // after the unit before it, from an idle core).
    const Schedule head = simulate(p, t, prod, c, false, 2 * unit);
    const Schedule first = simulate(p, t, prod, c, false, unit);
    const Schedule tail2 = simulate(p, t, prod, c, false, 2 * unit, blocks - 2 * unit);
    const Schedule tail1 = simulate(p, t, prod, c, false, unit, blocks - 2 * unit);
    const double period = double(head.total_cycles - first.total_cycles) / double(unit);
    const double middle = double(blocks - 3 * unit);
    row.total_cycles = head.total_cycles + int64_t(std::llround(period * middle)) +
                       (tail2.total_cycles - tail1.total_cycles);
    row.estimated = true;
    int best = 0;
    for (int u = 0; u < kUnitCount; ++u)
        if (head.units[u].busy > head.units[best].busy) best = u;
    row.bound = Unit(best);
    row.cube_utilisation = double(p.cube_steps() * c.cube_cycles_per_step) /
                           double(std::max<int64_t>(1, row.total_cycles));
    return row;
}

SweepResult sweep(const Problem& p, const Product& prod, const Costs& c, bool double_buffer) {
    p.validate();
    c.validate();
    SweepResult res;
    const std::vector<int64_t> ms = base_candidates(p, 0), ns = base_candidates(p, 1),
                               ks = base_candidates(p, 2);
    for (int64_t bm : ms)
        for (int64_t bn : ns)
            for (int64_t bk : ks)
                for (int64_t step : {1, 2, 4, 8}) {
                    if (step > 1 && (step / 2) * bk >= p.k_pad())
                        continue;  // same as a smaller step
                    for (Order o : {Order::m_first, Order::n_first}) {
                        Tiling t;
                        t.base_m = bm;
                        t.base_n = bn;
                        t.base_k = bk;
                        t.step_ka = t.step_kb = step;
                        t.order = o;
                        t.set_double_buffer(double_buffer);
                        // A C tile too large for L0C ping/pong keeps one L0C
                        // slot (L1, L0A and L0B stay double buffered).
                        if (double_buffer && !fits(p, t, prod)) t.l0c_slots = 1;
                        if (!fits(p, t, prod)) {
                            ++res.skipped;
                            continue;
                        }
                        res.rows.push_back(estimate(p, t, prod, c));
                    }
                }
    std::stable_sort(res.rows.begin(), res.rows.end(), [](const SweepRow& a, const SweepRow& b) {
        return a.total_cycles != b.total_cycles ? a.total_cycles < b.total_cycles
                                                : a.l1_bytes < b.l1_bytes;
    });
    // Pareto front: by footprint ascending, keep each row faster than all smaller ones.
    std::vector<size_t> idx(res.rows.size());
    for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
    std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) {
        const SweepRow &x = res.rows[a], &y = res.rows[b];
        return x.l1_bytes != y.l1_bytes ? x.l1_bytes < y.l1_bytes : x.total_cycles < y.total_cycles;
    });
    int64_t best = INT64_MAX;
    for (size_t i : idx)
        if (res.rows[i].total_cycles < best) {
            best = res.rows[i].total_cycles;
            res.pareto.push_back(i);
        }
    return res;
}

Tiling best_tiling(const Problem& p, const Product& prod, const Costs& c, bool double_buffer) {
    const SweepResult r = sweep(p, prod, c, double_buffer);
    if (r.rows.empty())
        throw UsageError("no tiling of " + p.describe() + " fits the buffers of " + prod.name +
                         "; expected a smaller problem");
    return r.rows.front().tiling;
}

std::vector<SizePoint> size_curve(const Problem& p, const Tiling& t, const Product& prod,
                                  const Costs& c, int which) {
    std::vector<SizePoint> out;
    for (int64_t v : base_candidates(p, which)) {
        Tiling u = t;
        (which == 0 ? u.base_m : which == 1 ? u.base_n : u.base_k) = v;
        if (!fits(p, u, prod)) continue;
        out.push_back({v, estimate(p, u, prod, c).total_cycles});
    }
    return out;
}

}  // namespace ll::aicore
