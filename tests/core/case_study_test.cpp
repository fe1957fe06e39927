// Document 004's case study as the lecture tells it (golden shapes), and its
// multiplication count (the 38,880 example) for any geometry.
#include <gtest/gtest.h>

#include "core/exec/conv.hpp"
#include "core/format/format.hpp"

using namespace ll;
using namespace ll::exec;

TEST(CaseStudy, StartsFromNhwcThroughTheSplitIntermediate) {
    const ConvShapes s = conv_shapes(conv_case_study());
    EXPECT_EQ(s.at("input_nhwc"), (Shape{10, 28, 28, 32}));
    EXPECT_EQ(s.at("input_nhwc_split"), (Shape{10, 28, 28, 2, 16}));
    EXPECT_EQ(s.at("input_5hd"), (Shape{10, 2, 28, 28, 16}));
    EXPECT_EQ(s.at("input_nchw"), (Shape{10, 32, 28, 28}));  // still available
    EXPECT_EQ(s.at("img2col"), (Shape{10, 784, 288}));
    EXPECT_EQ(s.at("weight_slice"), (Shape{144, 64}));
    EXPECT_EQ(s.at("weight_matrix"), (Shape{288, 64}));
    // The stages come in the lecture's order: NHWC, split, ..., slice before whole.
    auto pos = [&](const char* k) {
        for (size_t i = 0; i < s.stages.size(); ++i)
            if (s.stages[i].key == k) return i;
        return s.stages.size();
    };
    EXPECT_LT(pos("input_nhwc"), pos("input_nhwc_split"));
    EXPECT_LT(pos("input_nhwc_split"), pos("input_5hd"));
    EXPECT_LT(pos("weight_slice"), pos("weight_matrix"));
    // The format engine's NHWC -> NC1HWC0 passes through the same intermediate.
    ConvertSpec c;
    c.from = Format::NHWC;
    c.to = Format::NC1HWC0;
    c.shape = Shape{10, 28, 28, 32};
    const Pipeline p = make_pipeline(c);
    EXPECT_EQ(stage_shape(p, 2), (Shape{10, 28, 28, 2, 16}));
    EXPECT_EQ(p.dst_shape, (Shape{10, 2, 28, 28, 16}));
}

TEST(CaseStudy, LectureMultiplicationCount) {
    // The lecture's example: kernel 3x3, 3 channels, 4 kernels, 6x6 output, 10 images.
    ConvParams p = conv_case_study();
    p.n = 10;
    p.cin = 3;
    p.cout = 4;
    p.h = p.w = 8;
    p.win.kh = p.win.kw = 3;
    p.win.pad_top = p.win.pad_bottom = p.win.pad_left = p.win.pad_right = 0;
    EXPECT_EQ(p.out_h(), 6);
    EXPECT_EQ(lecture_multiplications(p), 38880);
    // Any geometry: the case study counts every MAC the Cube does on real data.
    const ConvParams q = conv_case_study();
    EXPECT_EQ(lecture_multiplications(q), int64_t(3) * 3 * 28 * 28 * 32 * 64 * 10);
    p.win.stride_h = p.win.stride_w = 2;  // 3x3 output
    EXPECT_EQ(lecture_multiplications(p), 3 * 3 * 3 * 3 * 3 * 4 * 10);
}
