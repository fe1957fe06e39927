#include "app/plot/pipeline_plots.hpp"

#include <cmath>
#include <limits>

namespace ll::plot {

using aicore::kUnitCount;
using aicore::Unit;

Color unit_color(Unit u, bool light_shade) {
    Color c = palette(int(u));
    if (light_shade) {
        c.r = uint8_t(c.r + (255 - c.r) / 2);
        c.g = uint8_t(c.g + (255 - c.g) / 2);
        c.b = uint8_t(c.b + (255 - c.b) / 2);
    }
    return c;
}

TimelinePlot::TimelinePlot(const aicore::Schedule& s) {
    PlotBuilder b("Timeline: " + s.problem.describe());
    int lane_of[kUnitCount];
    std::vector<std::string> cats;
    for (int u = 0; u < kUnitCount; ++u) {
        lane_of[u] = -1;
        if (s.units[u].count == 0) continue;
        lane_of[u] = int(cats.size());
        cats.push_back(aicore::name(Unit(u)));
    }
    const double n = double(cats.size());
    b.setup_x("time", "cycles").y_categories(cats);
    xs.assign(size_t(2 * kUnitCount), {});
    ys.assign(size_t(2 * kUnitCount), {});
    const double gap = std::numeric_limits<double>::quiet_NaN();
    for (const aicore::Instr& in : s.instrs) {
        const size_t k = size_t(2 * int(in.unit) + (in.block & 1));
        const double y = n - lane_of[int(in.unit)] - 0.5;  // category 0 on top
        xs[k].insert(xs[k].end(), {double(in.start), double(in.end), double(in.end)});
        ys[k].insert(ys[k].end(), {y, y, gap});
    }
    for (int u = 0; u < kUnitCount; ++u)
        for (int shade = 0; shade < 2; ++shade) {
            const size_t k = size_t(2 * u + shade);
            if (xs[k].empty()) continue;
            Series& se = b.line(std::string(aicore::name(Unit(u))) + (shade ? " (odd blocks)" : ""),
                                Data::of(xs[k]), Data::of(ys[k]));
            se.color = unit_color(Unit(u), shade == 1);
            se.size = 12;
            se.in_legend = shade == 0;
        }
    spec = b.spec();
}

SizeCurvePlot::SizeCurvePlot(const std::vector<aicore::SizePoint> (&curves)[3],
                             int64_t current_size, int64_t current_cycles) {
    PlotBuilder b("Total time vs tile size");
    b.setup_x("base size", "elements", true).setup_y("total", "cycles");
    const char* names[3] = {"baseM", "baseN", "baseK"};
    for (int i = 0; i < 3; ++i) {
        for (const aicore::SizePoint& p : curves[i]) {
            x[i].push_back(double(p.size));
            y[i].push_back(double(p.total_cycles));
        }
        if (x[i].empty()) continue;
        Series& se = b.line(names[i], Data::of(x[i]), Data::of(y[i]));
        se.markers = true;
        se.color = palette(i);
    }
    if (current_size > 0)
        b.annotate(double(current_size), double(current_cycles),
                   "now: " + std::to_string(current_cycles) + " cycles");
    spec = b.spec();
}

PipelinePareto::PipelinePareto(const aicore::SweepResult& r) {
    PlotBuilder b("Sweep: time vs L1 footprint");
    b.setup_x("L1 footprint", "KiB").setup_y("total", "cycles", true);
    for (const aicore::SweepRow& row : r.rows) {
        all_x.push_back(double(row.l1_bytes) / 1024);
        all_y.push_back(double(row.total_cycles));
    }
    for (size_t i : r.pareto) {
        front_x.push_back(double(r.rows[i].l1_bytes) / 1024);
        front_y.push_back(double(r.rows[i].total_cycles));
    }
    Series& a = b.scatter("tilings", Data::of(all_x), Data::of(all_y));
    a.color = Color{150, 150, 150, 200};
    a.size = 2.5f;
    Series& f = b.line("Pareto front", Data::of(front_x), Data::of(front_y));
    f.markers = true;
    f.color = palette(5);
    if (!r.rows.empty()) {
        const aicore::Tiling& t = r.rows[0].tiling;
        b.annotate(all_x[0], all_y[0],
                   "best " + std::to_string(t.base_m) + "x" + std::to_string(t.base_n) + "x" +
                       std::to_string(t.base_k) + " step " + std::to_string(t.step_ka) + " " +
                       aicore::name(t.order));
    }
    spec = b.spec();
}

}  // namespace ll::plot
