// The cuDNN time-share table of document 004 ("GPU做卷积"): where a
// convolution's time goes on a Volta GPU, per hardware (CUDA Core, Tensor
// Core) and algorithm (im2col + GEMM, Winograd), kernel by kernel.
//
// The kernel times are the lecture's measurements (its units); every share is
// computed here as time / total of its run, so a wrong printed percentage
// would show (all nine agree with the lecture when rounded to whole percent).
// The lecture's point: only the Tensor Core GEMM run calls
// nchwToNhwc/nhwcToNchw, because Tensor Core kernels want NHWC while the
// framework hands over NCHW, and that layout transform alone is 11% of the run.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ll::gpu {

// What a kernel does for its run.
enum class KernelRole { compute, im2col, winograd_transform, layout_transform };
const char* role_name(KernelRole r);

struct Kernel {
    std::string function;   // e.g. "scudnn_128x64"
    std::string algorithm;  // the lecture's "Applied Algorithm" column
    KernelRole role = KernelRole::compute;
    double time = 0;      // the lecture's execution time
    int doc_percent = 0;  // the lecture's printed ratio
};

// One convolution run: hardware + algorithm, its kernels.
struct ShareRun {
    std::string hardware;  // "CUDA Core", "Tensor Core"
    std::string method;    // "im2col + GEMM", "Winograd"
    std::vector<Kernel> kernels;
    double total() const;
    double share(size_t kernel) const;      // 0..1 of total()
    double role_share(KernelRole r) const;  // summed over kernels of that role
    std::string name() const { return hardware + ", " + method; }
};

// The lecture's four runs in its order.
std::vector<ShareRun> cudnn_time_share();

nlohmann::json time_share_to_json(const std::vector<ShareRun>& runs);

}  // namespace ll::gpu
