// make_pipeline: names, accepted conversions, shapes and captions of every
// step, the documents' worked examples (with the known mistakes corrected),
// and the validation messages.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "core/format/format.hpp"

using namespace ll;

namespace {

Pipeline mk(Format f, Format t, Shape s, DType d = DType::fp16, int64_t c0 = 0) {
    ConvertSpec sp;
    sp.from = f;
    sp.to = t;
    sp.shape = std::move(s);
    sp.dtype = d;
    sp.c0 = c0;
    return make_pipeline(sp);
}

std::string usage_error(const ConvertSpec& s) {
    try {
        make_pipeline(s);
    } catch (const UsageError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(FormatNames, RoundTripAndAliases) {
    for (Format f : all_formats()) EXPECT_EQ(format_from_name(name(f)), f);
    EXPECT_EQ(format_from_name("nz"), Format::FRACTAL_NZ);
    EXPECT_EQ(format_from_name("fractal_zn"), Format::FRACTAL_ZN);
    try {
        format_from_name("NCWH");
        FAIL();
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("FRACTAL_Z_3D"), std::string::npos) << e.what();
    }
}

TEST(FormatNames, PlainRanks) {
    EXPECT_TRUE(is_plain(Format::ND));
    EXPECT_FALSE(is_plain(Format::NC1HWC0));
    EXPECT_EQ(plain_rank(Format::HWCN), 4);
    EXPECT_EQ(plain_rank(Format::NDHWC), 5);
    EXPECT_EQ(plain_rank(Format::FRACTAL_Z), -1);
}

// Document 000's example, with M1 = ceil(2/16) = 1 (known mistake 1).
TEST(FormatPipeline, NzWorkedExample) {
    Pipeline p = mk(Format::ND, Format::FRACTAL_NZ, {2, 2, 28});
    EXPECT_EQ(to_string(p),
              "(2,2,28) -> pad -> (2,16,32) -> reshape -> (2,1,16,2,16) -> "
              "transpose(0,3,1,2,4) -> (2,2,1,16,16)");
    ASSERT_EQ(p.steps.size(), 3u);
    EXPECT_EQ(p.steps[0].caption, "(..., B, M, N) -> pad -> (..., B, M1*M0, N1*N0)");
    EXPECT_EQ(p.steps[1].caption, "(..., B, M1*M0, N1*N0) -> reshape -> (..., B, M1, M0, N1, N0)");
    EXPECT_EQ(p.steps[2].caption,
              "(..., B, M1, M0, N1, N0) -> transpose -> (..., B, N1, M1, M0, N0)");
    EXPECT_EQ(p.steps[0].amounts, (std::vector<int64_t>{0, 14, 4}));
    ASSERT_EQ(p.fractals.size(), 1u);
    EXPECT_EQ(p.fractals[0].rows, 16);
    EXPECT_EQ(p.fractals[0].cols, 16);
}

TEST(FormatPipeline, MatrixFractalCaptionsFollowTheDocuments) {
    Pipeline zz = mk(Format::ND, Format::FRACTAL_ZZ, {3, 40, 70}, DType::int8);
    EXPECT_EQ(zz.steps[2].caption,
              "(..., B, M1, M0, K1, K0) -> transpose -> (..., B, M1, K1, M0, K0)");
    EXPECT_EQ(zz.dst_shape, (Shape{3, 3, 3, 16, 32}));
    Pipeline zn = mk(Format::ND, Format::FRACTAL_ZN, {40, 70}, DType::int8);
    EXPECT_EQ(zn.steps[2].caption, "(K1, K0, N1, N0) -> transpose -> (K1, N1, N0, K0)");
    // ZN: K0 = 32 B / sizeof = 32 for int8, N0 = 16 (known mistake 3).
    EXPECT_EQ(zn.dst_shape, (Shape{2, 5, 16, 32}));
    EXPECT_EQ(zn.fractals[0].row_name, "K0");
    EXPECT_EQ(zn.fractals[0].rows, 32);
    EXPECT_EQ(zn.fractals[0].cols, 16);
}

TEST(FormatPipeline, FractalSidesFromDtype) {
    const std::pair<DType, int64_t> cases[] = {
        {DType::int4, 64}, {DType::int8, 32},  {DType::uint8, 32}, {DType::fp16, 16},
        {DType::bf16, 16}, {DType::int16, 16}, {DType::fp32, 8},   {DType::int32, 8}};
    for (auto [t, w] : cases) {
        Pipeline nz = mk(Format::ND, Format::FRACTAL_NZ, {64, 128}, t);
        EXPECT_EQ(nz.fractals[0].rows, 16) << name(t);
        EXPECT_EQ(nz.fractals[0].cols, w) << name(t);
        // every fractal is 512 bytes
        EXPECT_EQ(nz.fractals[0].rows * nz.fractals[0].cols * bits(t), 512 * 8) << name(t);
        Pipeline hd = mk(Format::NCHW, Format::NC1HWC0, {1, 3, 2, 2}, t);
        EXPECT_EQ(hd.c0, w) << name(t);
        EXPECT_EQ(hd.dst_shape, (Shape{1, 1, 2, 2, w})) << name(t);
    }
}

TEST(FormatPipeline, OverridesC0AndFractal) {
    Pipeline p = mk(Format::NCHW, Format::NC1HWC0, {1, 40, 2, 2}, DType::fp32, 16);
    EXPECT_EQ(p.dst_shape, (Shape{1, 3, 2, 2, 16}));
    ConvertSpec s;
    s.from = Format::ND;
    s.to = Format::FRACTAL_NZ;
    s.shape = {20, 20};
    s.dtype = DType::fp32;
    s.fractal_rows = 16;
    s.fractal_cols = 16;  // the L0C 16x16 NZ
    EXPECT_EQ(make_pipeline(s).dst_shape, (Shape{2, 2, 16, 16}));
}

// NC1HWC0 formulas from the documents, with the C padding they omit.
TEST(FormatPipeline, Nc1hwc0Formulas) {
    Pipeline a = mk(Format::NHWC, Format::NC1HWC0, {2, 3, 5, 20});
    ASSERT_EQ(a.steps.size(), 3u);
    EXPECT_EQ(a.steps[0].after, (Shape{2, 3, 5, 32}));
    EXPECT_EQ(a.steps[1].after, (Shape{2, 3, 5, 2, 16}));
    EXPECT_EQ(a.steps[2].perm, (std::vector<int64_t>{0, 3, 1, 2, 4}));
    Pipeline b = mk(Format::NCHW, Format::NC1HWC0, {2, 20, 3, 5});
    EXPECT_EQ(b.steps[1].after, (Shape{2, 2, 16, 3, 5}));
    EXPECT_EQ(b.steps[2].perm, (std::vector<int64_t>{0, 1, 3, 4, 2}));
    EXPECT_EQ(b.dst_shape, (Shape{2, 2, 3, 5, 16}));
}

TEST(FormatPipeline, FractalZFormulas) {
    Pipeline h = mk(Format::HWCN, Format::FRACTAL_Z, {2, 2, 32, 32});
    EXPECT_EQ(h.dst_shape, (Shape{8, 2, 16, 16}));
    EXPECT_EQ(h.steps[1].after, (Shape{2, 2, 2, 16, 2, 16}));
    EXPECT_EQ(h.steps[2].perm, (std::vector<int64_t>{2, 0, 1, 4, 5, 3}));
    EXPECT_EQ(h.steps[3].caption, "(C1, H, W, N1, N0, C0) -> reshape -> (C1*H*W, N1, N0, C0)");
    Pipeline n = mk(Format::NCHW, Format::FRACTAL_Z, {32, 32, 2, 2});
    EXPECT_EQ(n.steps[1].after, (Shape{2, 16, 2, 16, 2, 2}));
    EXPECT_EQ(n.steps[2].perm, (std::vector<int64_t>{2, 4, 5, 0, 1, 3}));
    EXPECT_EQ(n.dst_shape, (Shape{8, 2, 16, 16}));
}

TEST(FormatPipeline, FractalZ3dExample) {
    Pipeline p = mk(Format::NDHWC, Format::FRACTAL_Z_3D, {48, 3, 3, 2, 32});
    EXPECT_EQ(p.steps[1].after, (Shape{3, 16, 3, 3, 2, 2, 16}));
    EXPECT_EQ(p.steps[2].after, (Shape{3, 2, 3, 2, 3, 16, 16}));
    EXPECT_EQ(p.dst_shape, (Shape{36, 3, 16, 16}));
    Pipeline q = mk(Format::NDHWC, Format::NDC1HWC0, {2, 3, 4, 5, 20});
    EXPECT_EQ(q.dst_shape, (Shape{2, 3, 2, 4, 5, 16}));
}

TEST(FormatPipeline, NdToNzSevenByTwoFractals) {
    Pipeline p = mk(Format::ND, Format::FRACTAL_NZ, {8, 100, 30});
    EXPECT_EQ(p.dst_shape, (Shape{8, 2, 7, 16, 16}));  // per batch: M1 = 7, N1 = 2
}

TEST(FormatPipeline, InverseUndoesStepsInReverse) {
    Pipeline p = mk(Format::FRACTAL_NZ, Format::ND, {2, 2, 28});
    EXPECT_EQ(to_string(p),
              "(2,2,1,16,16) -> transpose(0,2,3,1,4) -> (2,1,16,2,16) -> reshape -> "
              "(2,16,32) -> crop -> (2,2,28)");
    EXPECT_EQ(p.steps.back().caption, "(..., B, M1*M0, N1*N0) -> crop -> (..., B, M, N)");
    Pipeline q = inverse(mk(Format::ND, Format::FRACTAL_NZ, {2, 2, 28}));
    EXPECT_EQ(to_string(q), to_string(p));
}

TEST(FormatPipeline, FractalToFractalGoesThroughPlain) {
    Pipeline p = mk(Format::FRACTAL_NZ, Format::FRACTAL_ZZ, {40, 50}, DType::int8);
    ASSERT_EQ(p.steps.size(), 6u);
    EXPECT_EQ(p.steps[2].kind, StepKind::crop);
    EXPECT_EQ(p.steps[3].kind, StepKind::pad);
    EXPECT_EQ(p.src_shape, (Shape{2, 3, 16, 32}));
    EXPECT_EQ(p.dst_shape, (Shape{3, 2, 16, 32}));
    EXPECT_EQ(p.fractals.size(), 2u);
    Pipeline z = mk(Format::NC1HWC0, Format::FRACTAL_Z, {17, 20, 3, 3});
    EXPECT_EQ(z.src_shape, (Shape{17, 2, 3, 3, 16}));
    EXPECT_EQ(z.dst_shape, (Shape{18, 2, 16, 16}));
}

TEST(FormatPipeline, PlainToPlain) {
    Pipeline p = mk(Format::NCHW, Format::NHWC, {2, 3, 4, 5});
    EXPECT_EQ(to_string(p), "(2,3,4,5) -> transpose(0,2,3,1) -> (2,4,5,3)");
    EXPECT_EQ(p.steps[0].caption, "(N, C, H, W) -> transpose -> (N, H, W, C)");
    Pipeline h = mk(Format::NHWC, Format::HWCN, {2, 3, 4, 5});
    EXPECT_EQ(h.dst_shape, (Shape{3, 4, 5, 2}));
    Pipeline nd = mk(Format::ND, Format::NCHW, {2, 3, 4, 5});
    EXPECT_TRUE(nd.steps.empty());
    EXPECT_EQ(to_string(nd), "(2,3,4,5)");
}

// The 2^32-element limit is one error type on every builder (the plain and
// fractal formats, and the Matmul ones), so callers such as --bench-all can
// tell it from other bad input without reading the message.
TEST(FormatPipeline, ElementLimitIsOneErrorOnEveryBuilder) {
    auto limit_error = [](const ConvertSpec& s) -> std::string {
        try {
            (void)make_pipeline(s);
        } catch (const ElementLimitError& e) {
            EXPECT_EQ(e.key(), "shape");
            return e.what();
        } catch (const std::exception& e) {
            return std::string("other error: ") + e.what();
        }
        return "no error";
    };
    ConvertSpec s;
    s.from = Format::ND;
    s.to = Format::FRACTAL_NZ;
    s.dtype = DType::fp16;
    s.shape = {65536, 65536};  // exactly 2^32 and already in whole 16x16 fractals
    EXPECT_TRUE(within_element_limit(s));
    s.shape = {65537, 65536};  // logical shape one row past 2^32
    EXPECT_FALSE(within_element_limit(s));
    EXPECT_NE(limit_error(s).find("logical shape"), std::string::npos) << limit_error(s);

    // Within the limit as given, past it once padded: 65,521 columns pad to 65,536.
    s.shape = {65537, 65521};
    ASSERT_LE(numel(s.shape), kMaxConvertElements);
    EXPECT_FALSE(within_element_limit(s));
    EXPECT_NE(limit_error(s).find("padded shape"), std::string::npos) << limit_error(s);

    // NCHW -> NC1HWC0 with C = 3: the padded tensor is C0 / 3 times the logical one.
    ConvertSpec c;
    c.from = Format::NCHW;
    c.to = Format::NC1HWC0;
    c.dtype = DType::int8;  // C0 = 32
    c.shape = {1000, 3, 224, 224};
    EXPECT_TRUE(within_element_limit(c));
    c.shape = {3000, 3, 224, 224};  // 4.5e8 elements, 4.8e9 once padded
    EXPECT_FALSE(within_element_limit(c));

    // A Matmul format's builder: ND -> ND_ALIGN pads the last axis.
    ConvertSpec m;
    m.from = Format::ND;
    m.to = Format::ND_ALIGN;
    m.dtype = DType::fp16;
    m.shape = {65537, 65521};
    EXPECT_FALSE(within_element_limit(m));
    EXPECT_NE(limit_error(m).find("padded shape"), std::string::npos) << limit_error(m);
    m.shape = {1024, 65521};
    EXPECT_TRUE(within_element_limit(m));

    // Other bad input is not the limit: the predicate passes it on.
    s.shape = {0, 3};
    EXPECT_THROW((void)within_element_limit(s), UsageError);
    EXPECT_EQ(limit_error(s).rfind("other error: shape: ", 0), 0u) << limit_error(s);
}

TEST(FormatPipeline, RejectsBadSpecsNamingTheParameter) {
    ConvertSpec s;
    s.from = Format::NCHW;
    s.to = Format::FRACTAL_NZ;
    s.shape = {1, 2, 3, 4};
    std::string m = usage_error(s);
    EXPECT_NE(m.find("ND -> FRACTAL_NZ"), std::string::npos) << m;  // lists what is accepted

    s.from = Format::NCHW;
    s.to = Format::NC1HWC0;
    s.shape = {2, 3, 4};
    m = usage_error(s);
    EXPECT_EQ(m.rfind("shape: ", 0), 0u) << m;
    EXPECT_NE(m.find("rank 4"), std::string::npos) << m;

    s.shape = {2, 3, 4, 5};
    s.c0 = -3;
    EXPECT_EQ(usage_error(s).rfind("c0: ", 0), 0u);
    s.c0 = 0;
    s.fractal_rows = 16;
    EXPECT_EQ(usage_error(s).rfind("fractal: ", 0), 0u);

    ConvertSpec z;
    z.from = Format::ND;
    z.to = Format::FRACTAL_NZ;
    z.shape = {7};
    EXPECT_NE(usage_error(z).find("rank >= 2"), std::string::npos);
    z.shape = {0, 3};
    EXPECT_EQ(usage_error(z).rfind("shape: ", 0), 0u);
    z.shape = {100000, 100000};  // 10^10 elements > 2^32
    EXPECT_NE(usage_error(z).find("2^32"), std::string::npos);
    z.shape = {3, 3};
    z.dtype = DType::int8;
    z.pad_value = 300;
    EXPECT_EQ(usage_error(z).rfind("pad_value: ", 0), 0u);

    ConvertSpec x;
    x.from = Format::FRACTAL_NZ;
    x.to = Format::FRACTAL_Z;
    x.shape = {2, 3, 4, 5};
    EXPECT_NE(usage_error(x).find("expected one of"), std::string::npos);
}
