// The GPU side's plot (document 004): the cuDNN time share of each run as
// grouped bars, one bar per kernel role, built from core/gpu/time_share and
// used by the CLI (cudnn --svg --png --csv) and the GPU panel's export.
#pragma once

#include <vector>

#include "app/plot/plot.hpp"
#include "app/plot/tiling_plots.hpp"
#include "core/gpu/time_share.hpp"

namespace ll::plot {

struct TimeSharePlot : NoCopy {
    explicit TimeSharePlot(const std::vector<gpu::ShareRun>& runs);
    std::vector<std::vector<double>> percent;  // per role, per run
    PlotSpec spec;
};

}  // namespace ll::plot
