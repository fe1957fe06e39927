// The tiling explorer's plots, built once here and used by the CLI
// (tiling / sweep --svg --png --csv) and by the tiling panel.
// Each struct owns the arrays its PlotSpec points at, so it is not copyable;
// build it where it will be painted (or hold it in a unique_ptr).
#pragma once

#include <string>
#include <vector>

#include "app/plot/plot.hpp"
#include "core/tiling/sweep.hpp"
#include "core/tiling/tiling.hpp"

namespace ll::plot {

struct NoCopy {
    NoCopy() = default;
    NoCopy(const NoCopy&) = delete;
    NoCopy& operator=(const NoCopy&) = delete;
};

// Total time over L1 order (rows) x L2 order (columns) for one configuration.
struct OrderHeatmap : NoCopy {
    explicit OrderHeatmap(const tiling::Config& c);
    std::vector<double> values;
    PlotSpec spec;
};

// Efficiency and time per level (grouped bars): this configuration next to
// the same tiles with the layout's matched orders.
struct LevelBars : NoCopy {
    explicit LevelBars(const tiling::Config& c);
    std::vector<double> eff_cfg, eff_matched, time_cfg, time_matched;
    PlotSpec efficiency, time;
};

// Total time vs the L1 tile size along one dimension (every candidate size of
// that dimension, the other two as configured; sub-tile clipped to the tile),
// one line per L1 order.
struct TileSizeLines : NoCopy {
    TileSizeLines(const tiling::Config& c, tiling::Dim dim);
    std::vector<double> sizes;
    std::vector<std::vector<double>> times;  // per order in all_orders()
    PlotSpec spec;
};

// Sweep: time vs on-chip footprint, a sample of all configurations, the
// Pareto front highlighted and the best configuration labelled.
struct SweepScatter : NoCopy {
    SweepScatter(const tiling::SweepResult& r, size_t max_points = 4000);
    std::vector<double> all_x, all_y, front_x, front_y;
    PlotSpec spec;
};

// "(64,56,56)/(32,8,56) W_H_C+W_H_C"
std::string describe_row(const tiling::SweepRow& r);

}  // namespace ll::plot
