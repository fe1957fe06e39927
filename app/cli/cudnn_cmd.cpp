// `layoutlab cudnn`: document 004's cuDNN time-share table (Volta, CUDA Core vs
// Tensor Core, im2col + GEMM vs Winograd) with every share computed from the
// kernel times, and the plot the GPU panel draws (--svg, --png, --csv).
#include <cstdio>
#include <iostream>

#include "app/cli/command.hpp"
#include "app/plot/gpu_plots.hpp"
#include "core/gpu/time_share.hpp"

namespace ll::cli {

namespace {

struct CudnnArgs {
    bool json = false;
    std::string svg, png, csv;
    int width = 900, height = 560;
};

}  // namespace

Runner setup_cudnn(CLI::App& sub) {
    auto a = std::make_shared<CudnnArgs>();
    sub.add_flag("--json", a->json, "print JSON instead of text");
    sub.add_option("--svg", a->svg, "write the time-share plot as SVG");
    sub.add_option("--png", a->png, "write the time-share plot as PNG");
    sub.add_option("--csv", a->csv, "write the plot's data as CSV");
    sub.add_option("--width", a->width, "plot width, px")->capture_default_str();
    sub.add_option("--height", a->height, "plot height, px")->capture_default_str();
    return [a]() {
        for (const std::string* f : {&a->svg, &a->png, &a->csv})
            if (!f->empty()) plot::check_writable(*f);
        const std::vector<gpu::ShareRun> runs = gpu::cudnn_time_share();
        if (!a->svg.empty() || !a->png.empty() || !a->csv.empty()) {
            const plot::TimeSharePlot tp(runs);
            if (!a->svg.empty()) plot::write_svg(tp.spec, a->svg, a->width, a->height);
            if (!a->png.empty()) plot::write_png(tp.spec, a->png, a->width, a->height);
            if (!a->csv.empty()) plot::write_csv(tp.spec, a->csv);
        }
        if (a->json) {
            std::cout << gpu::time_share_to_json(runs).dump(2) << "\n";
            return 0;
        }
        std::cout << "cuDNN convolution on NVIDIA Volta, time per kernel (document 004; shares "
                     "computed from the times)\n\n";
        std::cout << "| hardware    | method        | function              | role                 "
                     "          |     time |  share | lecture |\n"
                     "|-------------|---------------|-----------------------|----------------------"
                     "----------|----------|--------|---------|\n";
        for (const gpu::ShareRun& r : runs)
            for (size_t i = 0; i < r.kernels.size(); ++i) {
                const gpu::Kernel& k = r.kernels[i];
                char t[256];
                std::snprintf(t, sizeof t,
                              "| %-11s | %-13s | %-21s | %-30s | %8.2f | %5.1f%% | %6d%% |\n",
                              r.hardware.c_str(), r.method.c_str(), k.function.c_str(),
                              gpu::role_name(k.role), k.time, 100 * r.share(i), k.doc_percent);
                std::cout << t;
            }
        std::cout << "\n";
        for (const gpu::ShareRun& r : runs) {
            char t[200];
            std::snprintf(t, sizeof t, "%-26s total %8.2f, layout transform %4.1f%%\n",
                          r.name().c_str(), r.total(),
                          100 * r.role_share(gpu::KernelRole::layout_transform));
            std::cout << t;
        }
        std::cout << "\nOnly the Tensor Core GEMM run converts NCHW <-> NHWC: its kernels want "
                     "NHWC, the framework hands NCHW, and the conversion costs more than im2col.\n";
        return 0;
    };
}

}  // namespace ll::cli
