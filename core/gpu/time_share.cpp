#include "core/gpu/time_share.hpp"

namespace ll::gpu {

const char* role_name(KernelRole r) {
    switch (r) {
        case KernelRole::compute:
            return "compute";
        case KernelRole::im2col:
            return "im2col";
        case KernelRole::winograd_transform:
            return "Winograd transform";
        case KernelRole::layout_transform:
            return "layout transform (NCHW<->NHWC)";
    }
    return "?";
}

double ShareRun::total() const {
    double t = 0;
    for (const Kernel& k : kernels) t += k.time;
    return t;
}

double ShareRun::share(size_t kernel) const {
    const double t = total();
    return t > 0 ? kernels[kernel].time / t : 0;
}

double ShareRun::role_share(KernelRole r) const {
    double s = 0;
    for (size_t i = 0; i < kernels.size(); ++i)
        if (kernels[i].role == r) s += share(i);
    return s;
}

std::vector<ShareRun> cudnn_time_share() {
    using R = KernelRole;
    // Document 004's table, one row per called function.
    return {
        {"CUDA Core",
         "im2col + GEMM",
         {{"scudnn_128x64", "GEMM", R::compute, 3722.66, 98},
          {"computeOffsets", "Im2col", R::im2col, 75.97, 2}}},
        {"CUDA Core",
         "Winograd",
         {{"winograd_128x128", "Winograd Index", R::compute, 2941.87, 85},
          {"generateWinograd", "Winograd Index", R::winograd_transform, 519.15, 15}}},
        {"Tensor Core",
         "im2col + GEMM",
         {{"s884cudnn_fp16", "GEMM", R::compute, 619.22, 86},
          {"nchwToNhwc/nhwcToNchw", "Data Transform", R::layout_transform, 79.27, 11},
          {"computeOffsets", "Im2col", R::im2col, 21.61, 3}}},
        {"Tensor Core",
         "Winograd",
         {{"winograd_128x128", "Winograd Index", R::compute, 546.44, 70},
          {"generateWinograd", "Winograd Index", R::winograd_transform, 234.19, 30}}},
    };
}

nlohmann::json time_share_to_json(const std::vector<ShareRun>& runs) {
    nlohmann::json out = nlohmann::json::array();
    for (const ShareRun& r : runs) {
        nlohmann::json ks = nlohmann::json::array();
        for (size_t i = 0; i < r.kernels.size(); ++i) {
            const Kernel& k = r.kernels[i];
            ks.push_back({{"function", k.function},
                          {"algorithm", k.algorithm},
                          {"role", role_name(k.role)},
                          {"time", k.time},
                          {"share", r.share(i)},
                          {"document_percent", k.doc_percent}});
        }
        out.push_back({{"hardware", r.hardware},
                       {"method", r.method},
                       {"total", r.total()},
                       {"layout_transform_share", r.role_share(KernelRole::layout_transform)},
                       {"kernels", ks}});
    }
    return {{"source", "document 004, cuDNN time share on NVIDIA Volta"}, {"runs", out}};
}

}  // namespace ll::gpu
