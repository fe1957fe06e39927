// The Pipeline view's plots, built from core/aicore results and used by the
// CLI (pipeline --svg --png) and the Pipeline panel's export. Each struct owns
// the arrays its PlotSpec points at (not copyable, see tiling_plots.hpp).
#pragma once

#include <vector>

#include "app/plot/plot.hpp"
#include "app/plot/tiling_plots.hpp"
#include "core/aicore/schedule.hpp"
#include "core/aicore/sweep.hpp"

namespace ll::plot {

// The timeline as a Gantt chart: one row per unit that ran anything, one thick
// segment per instruction (x in cycles); even and odd output blocks in two
// shades of the unit's colour so tile boundaries show.
struct TimelinePlot : NoCopy {
    explicit TimelinePlot(const aicore::Schedule& s);
    std::vector<std::vector<double>> xs, ys;  // per series
    PlotSpec spec;
};

// Total cycles against baseM, baseN and baseK (one line each, the others as
// set); the current tiling marked at (current_size, current_cycles) of baseM.
struct SizeCurvePlot : NoCopy {
    SizeCurvePlot(const std::vector<aicore::SizePoint> (&curves)[3], int64_t current_size,
                  int64_t current_cycles);
    std::vector<double> x[3], y[3];
    PlotSpec spec;
};

// Sweep: total cycles vs L1 footprint, every tiling and the Pareto front.
struct PipelinePareto : NoCopy {
    explicit PipelinePareto(const aicore::SweepResult& r);
    std::vector<double> all_x, all_y, front_x, front_y;
    PlotSpec spec;
};

// The colour of a unit's lane (also used by the panel).
Color unit_color(aicore::Unit u, bool light_shade);

}  // namespace ll::plot
