#include "app/plot/gpu_plots.hpp"

#include <cstdio>

namespace ll::plot {

TimeSharePlot::TimeSharePlot(const std::vector<gpu::ShareRun>& runs) {
    using gpu::KernelRole;
    PlotBuilder b("cuDNN on Volta: share of each run per kernel role");
    std::vector<std::string> cats;
    for (const gpu::ShareRun& r : runs)
        cats.push_back(r.hardware + (r.method == "Winograd" ? " Winograd" : " GEMM"));
    b.x_categories(cats).setup_y("share of the run", "%").y_range(0, 100);
    const KernelRole roles[] = {KernelRole::compute, KernelRole::im2col,
                                KernelRole::winograd_transform, KernelRole::layout_transform};
    percent.assign(4, {});
    for (int i = 0; i < 4; ++i) {
        for (const gpu::ShareRun& r : runs)
            percent[size_t(i)].push_back(100.0 * r.role_share(roles[i]));
        Series& s = b.bars(gpu::role_name(roles[i]), Data::of(percent[size_t(i)]));
        s.color = palette(i == 3 ? 5 : i);
    }
    // The lecture's point in the title: which run converts layouts, and how much.
    for (size_t j = 0; j < runs.size(); ++j) {
        const double lt = percent[3][j];
        if (lt <= 0) continue;
        char t[160];
        std::snprintf(t, sizeof t, " - %s spends %.1f%% in NCHW<->NHWC", cats[j].c_str(), lt);
        b.spec().title += t;
    }
    spec = b.spec();
}

}  // namespace ll::plot
