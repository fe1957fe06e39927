// element_map and stage_offsets against independent references: the
// documents' closed-form formulas (format_reference.hpp) and a literal
// coordinate walk through the steps, over many random shapes.
#include <gtest/gtest.h>

#include <random>

#include "core/format/format.hpp"
#include "tests/core/format_reference.hpp"

using namespace ll;

namespace {

struct Pair {
    Format plain, target;
    size_t rank;
};
const Pair kPairs[] = {
    {Format::ND, Format::FRACTAL_NZ, 2},      {Format::ND, Format::FRACTAL_NZ, 3},
    {Format::ND, Format::FRACTAL_NZ, 4},      {Format::ND, Format::FRACTAL_ZZ, 2},
    {Format::ND, Format::FRACTAL_ZZ, 3},      {Format::ND, Format::FRACTAL_ZN, 2},
    {Format::ND, Format::FRACTAL_ZN, 3},      {Format::NCHW, Format::NC1HWC0, 4},
    {Format::NHWC, Format::NC1HWC0, 4},       {Format::NCHW, Format::FRACTAL_Z, 4},
    {Format::NHWC, Format::FRACTAL_Z, 4},     {Format::HWCN, Format::FRACTAL_Z, 4},
    {Format::NDHWC, Format::NDC1HWC0, 5},     {Format::NCDHW, Format::NDC1HWC0, 5},
    {Format::NDHWC, Format::FRACTAL_Z_3D, 5}, {Format::NCDHW, Format::FRACTAL_Z_3D, 5},
};

Pipeline mk(Format f, Format t, const Shape& s, DType d) {
    ConvertSpec sp;
    sp.from = f;
    sp.to = t;
    sp.shape = s;
    sp.dtype = d;
    return make_pipeline(sp);
}

ref::Expected expected(const Pipeline& p, Format plain, Format target, const Shape& s) {
    const auto& fi = p.fractals.back();
    const int64_t w = ref::side(p.dtype);
    if (target == Format::FRACTAL_NZ || target == Format::FRACTAL_ZZ)
        return ref::forward(plain, target, s, 16, w, 0);
    if (target == Format::FRACTAL_ZN) return ref::forward(plain, target, s, w, 16, 0);
    EXPECT_EQ(fi.cols, w);
    return ref::forward(plain, target, s, 0, 0, w, 16);
}

}  // namespace

TEST(ElementMap, MatchesDocumentFormulasOnRandomShapes) {
    std::mt19937 rng(1234);
    const DType dts[] = {DType::int4, DType::int8, DType::fp16, DType::fp32};
    for (const Pair& pr : kPairs) {
        for (DType t : dts) {
            for (int trial = 0; trial < 6; ++trial) {
                Shape s = ref::random_shape(rng, pr.rank,
                                            pr.rank == 5   ? 9
                                            : pr.rank == 4 ? 15
                                                           : 40);
                Pipeline p = mk(pr.plain, pr.target, s, t);
                ref::Expected e = expected(p, pr.plain, pr.target, s);
                ASSERT_EQ(p.dst_shape, e.dst) << name(pr.target) << " " << to_string(s);
                EXPECT_EQ(element_map(p), ref::expected_map(e, s))
                    << name(pr.plain) << "->" << name(pr.target) << " " << name(t) << " "
                    << to_string(s);
            }
        }
    }
}

TEST(ElementMap, DocumentExampleNz) {
    Pipeline p = mk(Format::ND, Format::FRACTAL_NZ, {2, 2, 28}, DType::fp16);
    ElementMap m = element_map(p);
    ASSERT_EQ(m.size(), 2u * 2 * 16 * 16);
    EXPECT_EQ(m[0], 0);
    EXPECT_EQ(m[15], 15);
    EXPECT_EQ(m[16], 28);  // row 1 of fractal (0,0)
    EXPECT_EQ(m[32], -1);  // rows 2..15 are padding
    EXPECT_EQ(m[256], 16);
    EXPECT_EQ(m[256 + 11], 27);
    EXPECT_EQ(m[256 + 12], -1);  // columns 28..31 are padding
    EXPECT_EQ(m[512], 56);       // second batch
    int64_t real = 0;
    for (int64_t v : m) real += v >= 0;
    EXPECT_EQ(real, 2 * 2 * 28);
}

// Inverse conversions hit every source element exactly once (no padding
// in a plain destination), and agree with the forward map.
TEST(ElementMap, InverseIsThePermutationBack) {
    std::mt19937 rng(99);
    for (const Pair& pr : kPairs) {
        Shape s = ref::random_shape(rng, pr.rank, pr.rank >= 4 ? 19 : 50);
        Pipeline f = mk(pr.plain, pr.target, s, DType::fp16);
        Pipeline b = mk(pr.target, pr.plain, s, DType::fp16);
        ASSERT_EQ(b.src_shape, f.dst_shape);
        ElementMap fm = element_map(f), bm = element_map(b);
        ASSERT_EQ(static_cast<int64_t>(bm.size()), numel(s));
        for (size_t j = 0; j < bm.size(); ++j) {
            ASSERT_GE(bm[j], 0);
            ASSERT_EQ(fm[static_cast<size_t>(bm[j])], static_cast<int64_t>(j))
                << name(pr.target) << " " << to_string(s);
        }
        EXPECT_EQ(bm, ref::literal_stage(b, b.steps.size()));
    }
}

TEST(ElementMap, CompositesAndPlainTransposesMatchLiteralWalk) {
    std::mt19937 rng(7);
    const Format trios[][2] = {{Format::FRACTAL_NZ, Format::FRACTAL_ZZ},
                               {Format::FRACTAL_ZN, Format::FRACTAL_NZ},
                               {Format::NC1HWC0, Format::FRACTAL_Z},
                               {Format::FRACTAL_Z, Format::NC1HWC0},
                               {Format::NDC1HWC0, Format::FRACTAL_Z_3D},
                               {Format::NCHW, Format::HWCN},
                               {Format::NHWC, Format::NCHW},
                               {Format::NCDHW, Format::NDHWC},
                               {Format::ND, Format::NHWC}};
    for (auto& tr : trios) {
        Format plainf = is_plain(tr[0]) ? tr[0] : Format::ND;
        size_t rank = 2 + (rng() % 2);
        if (tr[0] == Format::NC1HWC0 || tr[0] == Format::FRACTAL_Z || plainf == Format::NCHW ||
            plainf == Format::NHWC || tr[1] == Format::NHWC)
            rank = 4;
        if (tr[0] == Format::NDC1HWC0 || plainf == Format::NCDHW) rank = 5;
        for (int trial = 0; trial < 4; ++trial) {
            Shape s = ref::random_shape(rng, rank, rank >= 4 ? 13 : 60);
            Pipeline p = mk(tr[0], tr[1], s, DType::int8);
            EXPECT_EQ(element_map(p), ref::literal_stage(p, p.steps.size()))
                << name(tr[0]) << "->" << name(tr[1]) << " " << to_string(s);
        }
    }
}

// stage_offsets(k): where each destination element sits after step k,
// checked against the literal walk: the tensor after step k holds, at
// offset stage_offsets(k)[i], the same source element as destination i.
TEST(StageOffsets, AgreeWithLiteralWalkAtEveryStep) {
    std::mt19937 rng(5);
    std::vector<Pipeline> ps;
    for (const Pair& pr : kPairs) {
        Shape s = ref::random_shape(rng, pr.rank, pr.rank >= 4 ? 11 : 40);
        ps.push_back(mk(pr.plain, pr.target, s, DType::fp16));
        ps.push_back(mk(pr.target, pr.plain, s, DType::fp16));
    }
    ps.push_back(mk(Format::FRACTAL_ZN, Format::FRACTAL_ZZ, {3, 20, 45}, DType::fp32));
    ps.push_back(mk(Format::NCHW, Format::NHWC, {2, 3, 4, 5}, DType::fp32));
    for (const Pipeline& p : ps) {
        const ElementMap m = element_map(p);
        for (size_t k = 0; k <= p.steps.size(); ++k) {
            const std::vector<int64_t> off = stage_offsets(p, k);
            const std::vector<int64_t> tk = ref::literal_stage(p, k);
            ASSERT_EQ(off.size(), m.size());
            for (size_t i = 0; i < m.size(); ++i) {
                if (off[i] < 0) {
                    // only padding may be absent, and only before the pad exists
                    ASSERT_EQ(m[i], -1) << to_string(p) << " k=" << k;
                    continue;
                }
                ASSERT_LT(off[i], static_cast<int64_t>(tk.size()));
                ASSERT_EQ(tk[static_cast<size_t>(off[i])], m[i]) << to_string(p) << " k=" << k;
            }
        }
        // the last stage is the destination itself
        const auto last = stage_offsets(p, p.steps.size());
        for (size_t i = 0; i < last.size(); ++i) ASSERT_EQ(last[i], static_cast<int64_t>(i));
        EXPECT_THROW(stage_offsets(p, p.steps.size() + 1), std::out_of_range);
    }
}

TEST(StageOffsets, ReshapeKeepsOffsetsAndSourceStageMarksPadding) {
    Pipeline p = mk(Format::ND, Format::FRACTAL_NZ, {2, 2, 28}, DType::fp16);
    // steps: pad (k=1), reshape (k=2), transpose (k=3)
    EXPECT_EQ(stage_offsets(p, 1), stage_offsets(p, 2));
    EXPECT_EQ(stage_offsets(p, 0), element_map(p));
    auto s1 = stage_offsets(p, 1);
    EXPECT_EQ(s1[16], 32);  // (0,1,0) in the padded (2,16,32)
    EXPECT_EQ(s1[32], 64);  // padding exists from the pad step on
}

TEST(ElementMap, SixteenMillionElementsIsFastEnoughToRun) {
    // Not a timing test: it only has to finish and stay correct at the ends.
    Pipeline p = mk(Format::ND, Format::FRACTAL_NZ, {4096, 4096}, DType::fp16);
    ElementMap m = element_map(p);
    ASSERT_EQ(m.size(), 4096u * 4096u);
    EXPECT_EQ(m[1], 1);
    EXPECT_EQ(m[16], 4096);
    EXPECT_EQ(m.back(), 4096 * 4096 - 1);
}

// data_elements counts without the map what the map's non-negative entries
// count, on every pair of formats the engine converts (forward, inverse and
// blocked -> blocked), in every rank a plain side can take.
TEST(ElementMap, DataElementsCountsTheMapsDataWithoutBuildingIt) {
    std::mt19937 rng(31);
    const DType dts[] = {DType::int4, DType::int8, DType::fp16, DType::fp32};
    int pipelines = 0, with_padding = 0, blocked_to_blocked = 0;
    for (Format f : all_formats()) {
        for (Format t : all_formats()) {
            for (size_t rank = 1; rank <= 5; ++rank) {
                const Shape s = ref::random_shape(rng, rank, rank >= 4 ? 13 : 37);
                const DType d = dts[static_cast<size_t>(pipelines) % 4];
                Pipeline p;
                try {
                    p = mk(f, t, s, d);
                } catch (const UsageError&) {
                    continue;  // the pair does not take this rank
                }
                ++pipelines;
                int64_t want = 0;
                for (int64_t v : element_map(p)) want += v >= 0;
                ASSERT_EQ(data_elements(p), want) << to_string(p) << " " << to_string(s);
                with_padding += want < numel(p.dst_shape);
                blocked_to_blocked += !is_plain(f) && !is_plain(t);
            }
        }
    }
    // the loops really covered the matrix, padding and fractal -> fractal
    EXPECT_GT(pipelines, 150);
    EXPECT_GT(with_padding, 50);
    EXPECT_GT(blocked_to_blocked, 20);
}
