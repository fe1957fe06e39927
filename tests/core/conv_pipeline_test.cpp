// The convolution pipeline: the case study's shapes and op count, and
// numbers equal to a direct convolution for many geometries.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/error.hpp"
#include "core/exec/conv.hpp"
#include "core/exec/half.hpp"

using namespace ll;
using namespace ll::exec;

TEST(ConvPipeline, CaseStudyShapesAndOps) {
    ConvShapes s = conv_shapes(conv_case_study());
    EXPECT_EQ(s.at("input_5hd"), (Shape{10, 2, 28, 28, 16}));
    EXPECT_EQ(s.at("img2col"), (Shape{10, 784, 288}));
    EXPECT_EQ(s.at("a_fractal"), (Shape{10, 49, 18, 16, 16}));
    EXPECT_EQ(s.at("weight_matrix"), (Shape{288, 64}));
    EXPECT_EQ(s.at("b_fractal"), (Shape{18, 4, 16, 16}));
    EXPECT_EQ(s.at("c_fractal"), (Shape{4, 490, 16, 16}));
    EXPECT_EQ(s.at("c_unpadded"), (Shape{4, 10, 28, 28, 16}));
    EXPECT_EQ(s.at("output_5hd"), (Shape{10, 4, 28, 28, 16}));
    EXPECT_EQ(s.cube_ops, 35280);
}

namespace {

std::mt19937 rng(2024);

ConvParams random_params(DType t) {
    auto pick = [](int lo, int hi) {
        return int64_t(std::uniform_int_distribution<int>(lo, hi)(rng));
    };
    for (;;) {
        ConvParams p;
        p.dtype = t;
        p.n = pick(1, 2);
        p.cin = pick(1, 40);  // mostly not a multiple of C0
        p.cout = pick(1, 35);
        p.h = pick(1, 12);
        p.w = pick(1, 12);
        p.win.kh = pick(1, 4);
        p.win.kw = pick(1, 4);
        p.win.stride_h = pick(1, 3);
        p.win.stride_w = pick(1, 3);
        p.win.dil_h = pick(1, 3);
        p.win.dil_w = pick(1, 3);
        p.win.pad_top = pick(0, 2);
        p.win.pad_bottom = pick(0, 2);
        p.win.pad_left = pick(0, 2);
        p.win.pad_right = pick(0, 2);
        if (p.out_h() >= 1 && p.out_w() >= 1) return p;
    }
}

void check_fp16(const ConvParams& p) {
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    std::vector<float> x(size_t(p.n * p.cin * p.h * p.w)),
        w(size_t(p.cout * p.cin * p.win.kh * p.win.kw));
    for (auto& v : x) v = round_to_half(d(rng));
    for (auto& v : w) v = round_to_half(d(rng));
    ConvResultF r = conv_fp16(p, x, w);
    std::vector<float> ref = direct_conv(p, x, w);
    ASSERT_EQ(r.output.size(), ref.size());
    // fp32 accumulation of K = Cin*Kh*Kw terms each below 1 in magnitude.
    const double tol = 1e-6 * double(p.cin * p.win.kh * p.win.kw) + 1e-6;
    for (size_t i = 0; i < ref.size(); ++i)
        ASSERT_NEAR(r.output[i], ref[i], tol) << "element " << i;
}

}  // namespace

TEST(ConvPipeline, Fp16EqualsDirectForRandomGeometries) {
    for (int trial = 0; trial < 60; ++trial) check_fp16(random_params(DType::fp16));
}

TEST(ConvPipeline, NamedHardCases) {
    ConvParams p;
    p.n = 1;
    p.cin = 3;
    p.cout = 5;
    p.h = 9;
    p.w = 7;
    p.win = Window2d{3, 3, 2, 2, 1, 1, 1, 0, 2, 1};  // stride 2, asymmetric pads
    check_fp16(p);
    p.win = Window2d{3, 2, 1, 1, 2, 2, 0, 2, 1, 1};  // dilation 2
    check_fp16(p);
    p.cin = 17;  // one past C0
    p.cout = 16;
    check_fp16(p);
}

TEST(ConvPipeline, Int8IsExact) {
    std::uniform_int_distribution<int> d(-128, 127);
    for (int trial = 0; trial < 30; ++trial) {
        ConvParams p = random_params(DType::int8);
        std::vector<int8_t> x(size_t(p.n * p.cin * p.h * p.w)),
            w(size_t(p.cout * p.cin * p.win.kh * p.win.kw));
        for (auto& v : x) v = int8_t(d(rng));
        for (auto& v : w) v = int8_t(d(rng));
        ConvResultI r = conv_int8(p, x, w);
        EXPECT_EQ(r.output, direct_conv_int8(p, x, w)) << "trial " << trial;
        EXPECT_EQ(r.shapes.at("a_fractal").back(), 32);  // C0 = 32 for int8
    }
}

TEST(ConvPipeline, CaseStudyWithRealNumbers) {
    ConvParams p = conv_case_study();
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    std::vector<float> x(size_t(10 * 32 * 28 * 28)), w(size_t(64 * 32 * 9));
    for (auto& v : x) v = round_to_half(d(rng));
    for (auto& v : w) v = round_to_half(d(rng));
    ConvResultF r = conv_fp16(p, x, w);
    EXPECT_EQ(r.shapes.cube_ops, 35280);
    std::vector<float> ref = direct_conv(p, x, w);
    for (size_t i = 0; i < ref.size(); i += 97) ASSERT_NEAR(r.output[i], ref[i], 1e-3);
}

TEST(ConvPipeline, RoundsInputsToHalf) {
    ConvParams p;
    p.n = p.cin = p.cout = 1;
    p.h = p.w = 1;
    p.win = Window2d{};
    ConvResultF r = conv_fp16(p, {0.1f}, {1.0f});
    EXPECT_EQ(r.output[0], round_to_half(0.1f));
}

TEST(ConvPipeline, BadParameters) {
    ConvParams p = conv_case_study();
    p.win.stride_h = 0;
    EXPECT_THROW(conv_shapes(p), UsageError);
    p = conv_case_study();
    p.win.kh = 31;  // 31 > 28 + 2
    EXPECT_THROW(conv_shapes(p), UsageError);
    p = conv_case_study();
    p.dtype = DType::fp32;
    EXPECT_THROW(conv_shapes(p), UsageError);
    p = conv_case_study();
    EXPECT_THROW(conv_fp16(p, {1.0f}, {1.0f}), UsageError);  // sizes do not match
    p.cin = 0;
    EXPECT_THROW(conv_shapes(p), UsageError);
}

TEST(ConvPipeline, HugeGeometryHasShapesButDoesNotRun) {
    ConvParams p = conv_case_study();
    p.h = p.w = 4000;
    EXPECT_NO_THROW(conv_shapes(p));  // shapes alone are cheap
    EXPECT_THROW(check_runnable(p), UsageError);
    EXPECT_NO_THROW(check_runnable(conv_case_study()));
}
