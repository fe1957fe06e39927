#include "app/plot/tiling_plots.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ll::plot {

using namespace ll::tiling;

namespace {

std::vector<std::string> order_names() {
    std::vector<std::string> v;
    for (const Order& o : all_orders()) v.push_back(to_string(o));
    return v;
}

std::string us(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.1f us", v);
    return b;
}

}  // namespace

std::string describe_row(const SweepRow& r) {
    return to_string(r.tile) + "/" + to_string(r.sub) + " " + to_string(all_orders()[r.l1_order]) +
           "+" + to_string(all_orders()[r.l2_order]);
}

OrderHeatmap::OrderHeatmap(const Config& c) {
    Config k = c;
    for (const Order& a : all_orders())
        for (const Order& b : all_orders()) {
            k.l1_order = a;
            k.l2_order = b;
            const Fast f = evaluate_fast(k);
            values.push_back(f.l1_us + f.l2_us);
        }
    PlotBuilder p("Total time by access order, " + c.layout + " " + ll::to_string(c.shape) + " " +
                  ll::name(c.dtype));
    p.setup_x("L2 sub-tile order").setup_y("L1 tile order");
    p.x_categories(order_names()).y_categories(order_names());
    p.heatmap(6, 6, Data::of(values), "total time (us)");
    // Mark the configured pair in its cell's lower left corner, clear of the
    // value in the middle. Columns run 0..6 left to right; rows are drawn top
    // down while the y axis runs 0..6 bottom up, so row r spans [5 - r, 6 - r].
    const double n = double(all_orders().size());
    for (size_t r = 0; r < all_orders().size(); ++r)
        for (size_t q = 0; q < all_orders().size(); ++q)
            if (all_orders()[r] == c.l1_order && all_orders()[q] == c.l2_order)
                p.annotate(double(q) + 0.03, n - double(r) - 0.98, "now");
    spec = p.spec();
}

LevelBars::LevelBars(const Config& c) {
    const Result r = evaluate(c);
    Config m = c;
    m.l1_order = m.l2_order =
        matched_order(c.layout, c.dtype, Extent3{c.shape[1], c.shape[2], c.shape[3]});
    const Result rm = evaluate(m);
    eff_cfg = {r.l1.efficiency, r.l2.efficiency};
    eff_matched = {rm.l1.efficiency, rm.l2.efficiency};
    time_cfg = {r.l1.time_us, r.l2.time_us, r.total_us};
    time_matched = {rm.l1.time_us, rm.l2.time_us, rm.total_us};
    const std::string cfg = to_string(c.l1_order) + " + " + to_string(c.l2_order);
    const std::string mat = to_string(m.l1_order) + " + " + to_string(m.l2_order) + " (matched)";
    {
        PlotBuilder p("Access efficiency per level, " + c.layout);
        p.setup_x("level")
            .setup_y("efficiency", "", false)
            .x_categories({"L1 DRAM->SRAM", "L2 SRAM->Reg"});
        p.y_range(0, 1);
        p.bars(cfg, Data::of(eff_cfg));
        p.bars(mat, Data::of(eff_matched));
        efficiency = p.spec();
    }
    {
        PlotBuilder p("Time per level, " + c.layout);
        p.setup_x("level")
            .setup_y("time", "us")
            .x_categories({"L1 DRAM->SRAM", "L2 SRAM->Reg", "total"});
        p.bars(cfg, Data::of(time_cfg));
        p.bars(mat, Data::of(time_matched));
        time = p.spec();
    }
}

TileSizeLines::TileSizeLines(const Config& c, Dim dim) {
    const int64_t ext = c.shape[1 + int(dim)];
    Config k = c;
    for (int64_t s : divisors_of(ext)) sizes.push_back(double(s));
    times.assign(all_orders().size(), {});
    for (double s : sizes) {
        Extent3 t = c.l1_tile;
        (dim == Dim::C ? t.c : dim == Dim::H ? t.h : t.w) = int64_t(s);
        k.l1_tile = t;
        k.l2_tile = {std::min(c.l2_tile.c, t.c), std::min(c.l2_tile.h, t.h),
                     std::min(c.l2_tile.w, t.w)};
        for (size_t o = 0; o < all_orders().size(); ++o) {
            k.l1_order = all_orders()[o];
            const Fast f = evaluate_fast(k);
            times[o].push_back(f.l1_us + f.l2_us);
        }
    }
    const char dc = dim_char(dim);
    PlotBuilder p("Time vs L1 tile " + std::string(1, dc) + ", " + c.layout + ", L2 " +
                  to_string(c.l2_order));
    p.setup_x("L1 tile size in " + std::string(1, dc), "elements", true)
        .setup_y("total time", "us", true);
    // Orders that give the same curve (e.g. every order starting with the
    // contiguous dimension) share one line and one legend entry, so no line
    // hides under another: "L1 W_H_C = W_C_H".
    auto same = [](const std::vector<double>& x, const std::vector<double>& y) {
        for (size_t i = 0; i < x.size(); ++i)
            if (std::fabs(x[i] - y[i]) > 1e-9 * std::max(std::fabs(x[i]), std::fabs(y[i])))
                return false;
        return true;
    };
    std::vector<char> drawn(all_orders().size(), 0);
    int colour = 0;
    for (size_t o = 0; o < all_orders().size(); ++o) {
        if (drawn[o]) continue;
        std::string label = "L1 " + to_string(all_orders()[o]);
        for (size_t q = o + 1; q < all_orders().size(); ++q)
            if (!drawn[q] && same(times[o], times[q])) {
                drawn[q] = 1;
                label += " = " + to_string(all_orders()[q]);
            }
        Series& s = p.line(label, Data::of(sizes), Data::of(times[o]));
        s.color = palette(colour++);
        s.markers = true;
    }
    {
        const Fast f = evaluate_fast(c);
        char b[64];
        std::snprintf(b, sizeof b, "current: %lld, %.1f us", (long long)c.l1_tile[dim],
                      f.l1_us + f.l2_us);
        p.annotate(double(c.l1_tile[dim]), f.l1_us + f.l2_us, b);
    }
    spec = p.spec();
}

SweepScatter::SweepScatter(const SweepResult& r, size_t max_points) {
    const size_t n = r.ranking.size();
    const size_t step = std::max<size_t>(1, n / std::max<size_t>(1, max_points));
    for (size_t i = 0; i < n; i += step) {
        const SweepRow& row = r.rows[r.ranking[i]];
        all_x.push_back(double(row.footprint));
        all_y.push_back(row.total_us());
    }
    for (uint32_t i : r.pareto) {
        front_x.push_back(double(r.rows[i].footprint));
        front_y.push_back(r.rows[i].total_us());
    }
    PlotBuilder p("Tiling sweep: time vs on-chip footprint (" + std::to_string(n) +
                  " configurations)");
    p.setup_x("on-chip footprint (tile + sub-tile)", "bytes", true)
        .setup_y("total time", "us", true);
    Series& a = p.scatter(
        step > 1 ? "configurations (1 in " + std::to_string(step) + ")" : "configurations",
        Data::of(all_x), Data::of(all_y));
    a.color = {150, 170, 200, 150};
    a.size = 2.0f;
    Series& f = p.line("Pareto front", Data::of(front_x), Data::of(front_y));
    f.color = palette(5);
    f.markers = true;
    f.size = 2.0f;
    if (!r.ranking.empty()) {
        const SweepRow& best = r.rows[r.ranking[0]];
        p.annotate(double(best.footprint), best.total_us(),
                   "best: " + describe_row(best) + ", " + us(best.total_us()));
    }
    spec = p.spec();
}

}  // namespace ll::plot
