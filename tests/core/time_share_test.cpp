// The cuDNN time-share table: every share computed from the kernel times
// rounds to the lecture's printed percentage, and only the Tensor Core GEMM
// run spends time converting NCHW <-> NHWC.
#include <gtest/gtest.h>

#include <cmath>

#include "core/gpu/time_share.hpp"

using namespace ll::gpu;

TEST(TimeShare, SharesRoundToTheLecture) {
    const std::vector<ShareRun> runs = cudnn_time_share();
    ASSERT_EQ(runs.size(), 4u);
    int kernels = 0;
    for (const ShareRun& r : runs) {
        double sum = 0;
        for (size_t i = 0; i < r.kernels.size(); ++i) {
            EXPECT_EQ(std::lround(100 * r.share(i)), r.kernels[i].doc_percent)
                << r.name() << " " << r.kernels[i].function;
            sum += r.share(i);
            ++kernels;
        }
        EXPECT_NEAR(sum, 1.0, 1e-12);
    }
    EXPECT_EQ(kernels, 9);
}

TEST(TimeShare, OnlyTensorCoreGemmTransformsLayouts) {
    const std::vector<ShareRun> runs = cudnn_time_share();
    for (const ShareRun& r : runs) {
        const double lt = r.role_share(KernelRole::layout_transform);
        if (r.hardware == "Tensor Core" && r.method == "im2col + GEMM")
            EXPECT_NEAR(lt, 79.27 / (619.22 + 79.27 + 21.61), 1e-12);
        else
            EXPECT_EQ(lt, 0.0) << r.name();
    }
    // The layout transform costs more than im2col on the Tensor Core.
    EXPECT_GT(runs[2].role_share(KernelRole::layout_transform),
              runs[2].role_share(KernelRole::im2col));
    const auto j = time_share_to_json(runs);
    EXPECT_EQ(j["runs"].size(), 4u);
    EXPECT_NEAR(j["runs"][2]["total"].get<double>(), 720.10, 1e-9);
}
