#include "app/plot/gpu_plots.hpp"

#include <cstdio>

namespace ll::plot {

TimeSharePlot::TimeSharePlot(const std::vector<gpu::ShareRun>& runs) {
    using gpu::KernelRole;
    PlotBuilder b("cuDNN convolution: share of time per kernel role (document 004, Volta)");
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
    for (size_t j = 0; j < runs.size(); ++j) {
        const double lt = percent[3][j];
        if (lt <= 0) continue;
        char t[64];
        std::snprintf(t, sizeof t, "NCHW<->NHWC: %.1f%%", lt);
        b.annotate(double(j) + 0.5, lt + 12, t);  // category j is centred at j + 0.5
    }
    spec = b.spec();
}

}  // namespace ll::plot
