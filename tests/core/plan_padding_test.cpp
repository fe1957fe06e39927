// padding_of: the count of cells without a source element, checked against
// the documents' worked example and against a direct count over the
// element map of several conversions.
#include <gtest/gtest.h>

#include "core/format/format.hpp"
#include "core/format/format_plan.hpp"
#include "core/plan_padding.hpp"

using namespace ll;

TEST(PlanPadding, NdToNzWorkedExample) {
    Plan p =
        format_plan({make_pipeline({Format::ND, Format::FRACTAL_NZ, {2, 2, 28}, DType::fp16})});
    PaddingCount c = padding_of(p);
    EXPECT_EQ(c.total, 1024);
    EXPECT_EQ(c.padding, 1024 - 2 * 2 * 28);
    EXPECT_DOUBLE_EQ(c.ratio(), 912.0 / 1024.0);
}

TEST(PlanPadding, NoPaddingWhenShapesAreAligned) {
    Plan p = format_plan({make_pipeline({Format::ND, Format::FRACTAL_NZ, {32, 32}, DType::fp16})});
    EXPECT_EQ(padding_of(p).padding, 0);
    EXPECT_EQ(padding_of(p).ratio(), 0.0);
}

TEST(PlanPadding, MatchesTheElementMapAndTheSourceCount) {
    const ConvertSpec specs[] = {
        {Format::NCHW, Format::NC1HWC0, {1, 3, 5, 7}, DType::fp16},
        {Format::NCHW, Format::NC1HWC0, {2, 20, 3, 3}, DType::int8},
        {Format::ND, Format::FRACTAL_NZ, {3, 17, 40}, DType::fp32},
    };
    for (const ConvertSpec& s : specs) {
        Pipeline pl = make_pipeline(s);
        Plan p = format_plan({pl});
        PaddingCount c = padding_of(p);
        int64_t holes = 0;
        for (int64_t v : element_map(pl)) holes += v < 0;
        EXPECT_EQ(c.padding, holes);
        // Every source element lands in exactly one cell; the rest is padding.
        EXPECT_EQ(c.total - c.padding, numel(s.shape));
    }
}

TEST(PlanPadding, EmptyPlanHasNoRatio) {
    EXPECT_EQ(padding_of(Plan{}).ratio(), 0.0);
}
