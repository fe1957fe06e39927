// Scatter-gather: width elements per request; runs and bursts per request.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "core/view/agu.hpp"

namespace ll::view {

TEST(ScatterGather, ContiguousIndicesAreOneRunPerRequest) {
    std::vector<int64_t> idx;
    for (int64_t i = 0; i < 40; ++i) idx.push_back(i);
    GatherReport r = gather({16, 32, 0, 64}, idx);
    EXPECT_EQ(r.requests.size(), 3u);  // 16 + 16 + 8
    EXPECT_EQ(r.runs, 3);
    EXPECT_EQ(r.bursts, 1 + 1 + 1);  // 64 B = 16 fp32 elements per burst, aligned
    EXPECT_EQ(r.requests[2].addresses.size(), 8u);
    EXPECT_EQ(r.requests[1].addresses.front(), 64);
}

TEST(ScatterGather, StridedIndicesSplitIntoRunsAndBursts) {
    std::vector<int64_t> idx;
    for (int64_t i = 0; i < 8; ++i) idx.push_back(i * 16);  // one element per 64-B line
    GatherReport r = gather({4, 32, 0x100, 64}, idx);
    EXPECT_EQ(r.requests.size(), 2u);
    EXPECT_EQ(r.runs, 8);
    EXPECT_EQ(r.bursts, 8);
    EXPECT_EQ(r.requests[0].addresses[1], 0x100 + 64);
    // The same indices reversed: same counts, runs do not merge backwards.
    std::vector<int64_t> rev(idx.rbegin(), idx.rend());
    EXPECT_EQ(gather({4, 32, 0, 64}, rev).runs, 8);
}

TEST(ScatterGather, BadConfigurationIsRejected) {
    EXPECT_THROW(gather({0, 32, 0, 64}, {1, 2}), UsageError);
    EXPECT_THROW(gather({4, 32, 0, 0}, {1, 2}), UsageError);
    EXPECT_THROW(gather({4, 32, 0, 64}, {1, -2}), UsageError);
}

}  // namespace ll::view
