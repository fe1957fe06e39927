// The Matmul formats (BSH, SBH, BSNGD, SBNGD, BNGS1S2, BMNK, ND_ALIGN, VECTOR)
// against an independent reference: closed-form (b, n, g, s, d) index
// formulas written from document 000's descriptions, on random shapes and
// every dtype: ElementMap, the literal step walk, the Executor (forward and
// inverse) and the L0C -> L1 fractal resize.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "core/error.hpp"
#include "core/format/format.hpp"
#include "tests/core/format_reference.hpp"

using namespace ll;

namespace {

const Format kMM[] = {Format::BSH,   Format::SBH,     Format::BSNGD,
                      Format::SBNGD, Format::BNGS1S2, Format::BMNK};

bool five(Format f) {
    return f == Format::BSNGD || f == Format::SBNGD || f == Format::BNGS1S2;
}

struct Dims {
    int64_t B, S, N, G, D;
};

// Row-major index of element (b, n, g, s, d) in format f, written out per
// format from the documents' axis orders (H = N*G*D, BMNK's batch = B*N*G).
int64_t index_in(Format f, const Dims& z, int64_t b, int64_t n, int64_t g, int64_t s, int64_t d) {
    const int64_t h = (n * z.G + g) * z.D + d, H = z.N * z.G * z.D;
    switch (f) {
        case Format::BSH:
        case Format::BSNGD:
            return (b * z.S + s) * H + h;
        case Format::SBH:
        case Format::SBNGD:
            return (s * z.B + b) * H + h;
        default:  // BNGS1S2, BMNK
            return (((b * z.N + n) * z.G + g) * z.S + s) * z.D + d;
    }
}

Shape logical(Format f, const Dims& z) {
    switch (f) {
        case Format::BSH:
            return {z.B, z.S, z.N * z.G * z.D};
        case Format::SBH:
            return {z.S, z.B, z.N * z.G * z.D};
        case Format::BSNGD:
            return {z.B, z.S, z.N, z.G, z.D};
        case Format::SBNGD:
            return {z.S, z.B, z.N, z.G, z.D};
        case Format::BNGS1S2:
            return {z.B, z.N, z.G, z.S, z.D};
        default:
            return {z.B * z.N * z.G, z.S, z.D};
    }
}

// Expected map X -> Y: for each destination element (row-major in Y), the
// source index in X.
std::vector<int64_t> expected_mm(Format x, Format y, const Dims& z) {
    std::vector<int64_t> m(static_cast<size_t>(z.B * z.S * z.N * z.G * z.D));
    for (int64_t b = 0; b < z.B; ++b)
        for (int64_t n = 0; n < z.N; ++n)
            for (int64_t g = 0; g < z.G; ++g)
                for (int64_t s = 0; s < z.S; ++s)
                    for (int64_t d = 0; d < z.D; ++d)
                        m[static_cast<size_t>(index_in(y, z, b, n, g, s, d))] =
                            index_in(x, z, b, n, g, s, d);
    return m;
}

// Raw bits of element i (int4: a nibble).
uint64_t raw(DType t, const std::vector<uint8_t>& buf, int64_t i) {
    if (bits(t) == 4) return (buf[static_cast<size_t>(i / 2)] >> (4 * (i % 2))) & 0xF;
    uint64_t v = 0;
    const int nb = bits(t) / 8;
    std::memcpy(&v, buf.data() + i * nb, static_cast<size_t>(nb));
    return v;
}

std::vector<uint8_t> random_bytes(std::mt19937& rng, int64_t n) {
    std::vector<uint8_t> v(static_cast<size_t>(n));
    for (auto& b : v) b = static_cast<uint8_t>(rng());
    return v;
}

// ElementMap == expected, the literal walk == expected, the Executor moves
// the bytes the map says (padding = the pad value), and the inverse brings
// every real element back.
void check(const Pipeline& p, const std::vector<int64_t>& want, std::mt19937& rng,
           const std::string& what) {
    const ElementMap m = element_map(p);
    ASSERT_EQ(m, want) << what;
    ASSERT_EQ(ref::literal_stage(p, p.steps.size()), want) << what;
    Executor ex(p);
    const std::vector<uint8_t> src = random_bytes(rng, ex.src_bytes());
    std::vector<uint8_t> tail = src;
    if (bits(p.dtype) == 4 && numel(p.src_shape) % 2) tail.back() &= 0x0F;  // unused nibble
    const std::vector<uint8_t> dst = ex.run(tail);
    std::vector<uint8_t> padbuf(8, 0);
    store_element(p.dtype, padbuf.data(), 0, p.pad_value);
    const uint64_t pad = raw(p.dtype, padbuf, 0);
    for (size_t i = 0; i < m.size(); ++i) {
        const uint64_t got = raw(p.dtype, dst, static_cast<int64_t>(i));
        const uint64_t exp = m[i] < 0 ? pad : raw(p.dtype, tail, m[i]);
        ASSERT_EQ(got, exp) << what << " dst " << i;
    }
    const std::vector<uint8_t> back = Executor(inverse(p)).run(dst);
    for (int64_t j : m) {
        if (j >= 0) {
            ASSERT_EQ(raw(p.dtype, back, j), raw(p.dtype, tail, j)) << what << " back";
        }
    }
}

Dims random_dims(std::mt19937& rng, bool with_heads) {
    std::uniform_int_distribution<int64_t> d(1, 6), h(1, 3);
    Dims z{d(rng), d(rng), 1, 1, d(rng)};
    if (with_heads) {
        z.N = h(rng);
        z.G = h(rng);
    }
    return z;
}

double pad_of(DType t) {
    return is_float(t) ? -1.5 : (int_min(t) < 0 ? -1 : 3);
}

}  // namespace

TEST(MatmulFormats, EveryPairEveryDtypeMatchesTheIndexFormulas) {
    std::mt19937 rng(15);
    for (Format x : kMM)
        for (Format y : kMM)
            for (DType t : all_dtypes())
                for (int trial = 0; trial < 2; ++trial) {
                    const bool f5 = five(x) || five(y);
                    const Dims z = random_dims(rng, f5);
                    ConvertSpec s;
                    s.from = x;
                    s.to = y;
                    s.dtype = t;
                    s.shape = logical(f5 ? (five(x) ? x : y) : x, z);
                    const Pipeline p = make_pipeline(s);
                    const std::string what = std::string(name(x)) + "->" + name(y) + " " + name(t) +
                                             " " + to_string(s.shape);
                    EXPECT_EQ(p.src_shape, logical(x, z)) << what;
                    EXPECT_EQ(p.dst_shape, logical(y, z)) << what;
                    check(p, expected_mm(x, y, z), rng, what);
                }
}

TEST(MatmulFormats, HeadsAndGroupsSplitAThreeAxisShape) {
    std::mt19937 rng(7);
    for (int trial = 0; trial < 20; ++trial) {
        const Dims z = random_dims(rng, true);
        for (auto [x, y] :
             {std::pair{Format::BSH, Format::BSNGD}, std::pair{Format::SBH, Format::SBNGD},
              std::pair{Format::BMNK, Format::BNGS1S2}, std::pair{Format::BSH, Format::BNGS1S2}}) {
            ConvertSpec s;
            s.from = x;
            s.to = y;
            s.dtype = DType::fp16;
            s.shape = logical(x, z);
            s.heads = z.N;
            s.groups = z.G;
            const Pipeline p = make_pipeline(s);
            check(p, expected_mm(x, y, z), rng, std::string(name(x)) + "->" + name(y));
            if (x == Format::BSH && y == Format::BSNGD) {  // moves nothing: one reshape
                ASSERT_EQ(p.steps.size(), 1u);
                EXPECT_EQ(p.steps[0].kind, StepKind::reshape);
            }
        }
    }
}

TEST(MatmulFormats, IssueConventions) {
    // --from BSNGD --to BMNK --shape B,S,N,G,D: (B*N*G, S, D) in (b, n, g) order.
    ConvertSpec s;
    s.from = Format::BSNGD;
    s.to = Format::BMNK;
    s.shape = Shape{2, 5, 3, 2, 4};
    Pipeline p = make_pipeline(s);
    EXPECT_EQ(p.dst_shape, (Shape{12, 5, 4}));
    EXPECT_EQ(to_string(p),
              "(2,5,3,2,4) -> transpose(0,2,3,1,4) -> (2,3,2,5,4) -> reshape -> (12,5,4)");
    EXPECT_EQ(p.steps[0].caption, "(B, S, N, G, D) -> transpose -> (B, N, G, S, D)");
    s.from = Format::SBNGD;
    s.shape = Shape{5, 2, 3, 2, 4};
    EXPECT_EQ(make_pipeline(s).dst_shape, (Shape{12, 5, 4}));
    // BSH -> BSNGD with --heads 4 --groups 2 and H = 64: D = 8, nothing moves.
    s = ConvertSpec{};
    s.from = Format::BSH;
    s.to = Format::BSNGD;
    s.shape = Shape{2, 3, 64};
    s.heads = 4;
    s.groups = 2;
    p = make_pipeline(s);
    EXPECT_EQ(p.dst_shape, (Shape{2, 3, 4, 2, 8}));
    // H not a multiple of N*G, heads missing, heads where there is no N axis.
    s.heads = 5;
    EXPECT_THROW(make_pipeline(s), UsageError);
    s.heads = 0;
    s.groups = 0;
    EXPECT_THROW(make_pipeline(s), UsageError);
    s.to = Format::SBH;
    s.heads = 2;
    EXPECT_THROW(make_pipeline(s), UsageError);
    // Not a Matmul pair.
    s = ConvertSpec{};
    s.from = Format::BSH;
    s.to = Format::NCHW;
    s.shape = Shape{2, 3, 4};
    EXPECT_THROW(make_pipeline(s), UsageError);
    EXPECT_EQ(format_from_name("normal"), Format::BMNK);
}

TEST(MatmulFormats, ToAndFromEveryMatrixFractalEveryDtype) {
    std::mt19937 rng(21);
    const Format fr[] = {Format::FRACTAL_NZ, Format::FRACTAL_ZZ, Format::FRACTAL_ZN};
    for (Format x : kMM)
        for (Format f : fr)
            for (DType t : all_dtypes()) {
                const Dims z = random_dims(rng, five(x));
                ConvertSpec s;
                s.from = x;
                s.to = f;
                s.dtype = t;
                s.shape = logical(x, z);
                s.pad_value = pad_of(t);
                const Pipeline p = make_pipeline(s);
                // Reference: x -> BMNK by the index formulas, then BMNK -> f by
                // the matrix-fractal formulas of format_reference.hpp.
                const Shape bm = logical(Format::BMNK, z);
                const int64_t w = ref::side(t);
                const int64_t rows = f == Format::FRACTAL_ZN ? w : 16;
                const int64_t cols = f == Format::FRACTAL_ZN ? 16 : w;
                const std::vector<int64_t> to_bm = expected_mm(x, Format::BMNK, z);
                const std::vector<int64_t> fm =
                    ref::expected_map(ref::forward(Format::ND, f, bm, rows, cols, 0), bm);
                std::vector<int64_t> want(fm.size());
                for (size_t i = 0; i < fm.size(); ++i)
                    want[i] = fm[i] < 0 ? -1 : to_bm[static_cast<size_t>(fm[i])];
                const std::string what = std::string(name(x)) + "->" + name(f) + " " + name(t);
                check(p, want, rng, what);
                // The backward conversion keeps every element.
                ConvertSpec b = s;
                std::swap(b.from, b.to);
                const ElementMap bmap = element_map(make_pipeline(b));
                for (size_t i = 0; i < want.size(); ++i) {
                    if (want[i] >= 0) {
                        ASSERT_EQ(bmap[static_cast<size_t>(want[i])], static_cast<int64_t>(i))
                            << what;
                    }
                }
            }
}

TEST(MatmulFormats, VectorIsOneRowTheCubePadsTo16) {
    std::mt19937 rng(5);
    for (DType t : all_dtypes())
        for (int64_t k : {1, 7, 33, 100}) {
            ConvertSpec s;
            s.from = Format::VECTOR;
            s.to = Format::FRACTAL_NZ;
            s.dtype = t;
            s.shape = Shape{k};
            const Pipeline p = make_pipeline(s);
            const int64_t w = ref::side(t);
            const std::vector<int64_t> want = ref::expected_map(
                ref::forward(Format::ND, Format::FRACTAL_NZ, {1, k}, 16, w, 0), {1, k});
            check(p, want, rng, std::string("VECTOR ") + name(t));
            EXPECT_EQ(p.dst_shape, (Shape{(k + w - 1) / w, 1, 16, w}));
        }
}

TEST(MatmulFormats, NdAlignPadsTheLastAxisTo32Bytes) {
    std::mt19937 rng(9);
    // Document 000's example: int32 C with N = 7 -> 8.
    ConvertSpec s;
    s.from = Format::ND;
    s.to = Format::ND_ALIGN;
    s.dtype = DType::int32;
    s.shape = Shape{3, 7};
    EXPECT_EQ(make_pipeline(s).dst_shape, (Shape{3, 8}));
    for (DType t : all_dtypes())
        for (int trial = 0; trial < 3; ++trial) {
            const Shape sh = ref::random_shape(rng, 1 + trial, 40);
            s.dtype = t;
            s.shape = sh;
            const Pipeline p = make_pipeline(s);
            const int64_t w = ref::side(t), n = sh.back(), np = (n + w - 1) / w * w;
            ASSERT_EQ(p.dst_shape.back(), np);
            std::vector<int64_t> want;
            for (int64_t r = 0; r < numel(sh) / n; ++r)
                for (int64_t c = 0; c < np; ++c) want.push_back(c < n ? r * n + c : -1);
            check(p, want, rng, std::string("ND_ALIGN ") + name(t));
        }
}

TEST(MatmulFormats, FractalResizeL0cToL1) {
    // fp32 NZ 16x16 (L0C) -> NZ 16x8 (L1): every element keeps its (m, n).
    std::mt19937 rng(11);
    for (int trial = 0; trial < 10; ++trial) {
        const Shape sh = ref::random_shape(rng, 2 + trial % 2, 40);
        ConvertSpec s;
        s.from = Format::FRACTAL_NZ;
        s.to = Format::FRACTAL_NZ;
        s.dtype = DType::fp32;
        s.shape = sh;
        s.src_fractal_rows = 16;
        s.src_fractal_cols = 16;
        s.fractal_rows = 16;
        s.fractal_cols = 8;
        const Pipeline p = make_pipeline(s);
        ASSERT_EQ(p.fractals.size(), 2u);
        EXPECT_EQ(p.fractals[0].cols, 16);
        EXPECT_EQ(p.fractals[1].cols, 8);
        // Reference: logical -> source slot (16x16), and destination slot -> logical (16x8).
        const auto src_of =
            ref::expected_map(ref::forward(Format::ND, Format::FRACTAL_NZ, sh, 16, 16, 0), sh);
        const auto dst_of =
            ref::expected_map(ref::forward(Format::ND, Format::FRACTAL_NZ, sh, 16, 8, 0), sh);
        std::vector<int64_t> slot(static_cast<size_t>(numel(sh)));
        for (size_t i = 0; i < src_of.size(); ++i)
            if (src_of[i] >= 0) slot[static_cast<size_t>(src_of[i])] = static_cast<int64_t>(i);
        std::vector<int64_t> want(dst_of.size());
        for (size_t i = 0; i < dst_of.size(); ++i)
            want[i] = dst_of[i] < 0 ? -1 : slot[static_cast<size_t>(dst_of[i])];
        check(p, want, rng, "NZ 16x16 -> 16x8 " + to_string(sh));
    }
    // Without --src-fractal the same sizes stay an identity.
    ConvertSpec s;
    s.from = s.to = Format::FRACTAL_NZ;
    s.dtype = DType::fp32;
    s.shape = Shape{20, 20};
    EXPECT_TRUE(make_pipeline(s).steps.empty());
}

TEST(MatmulFormats, FormatsListingHasAFormulaForEveryFormat) {
    for (Format f : all_formats()) {
        const std::string formula = pipeline_formula(f);
        EXPECT_FALSE(formula.empty()) << name(f);
        EXPECT_FALSE(axis_names(f).empty()) << name(f);
    }
    EXPECT_EQ(pipeline_formula(Format::FRACTAL_NZ),
              "ND -> FRACTAL_NZ: (..., B, M, N) -> pad -> (..., B, M1*M0, N1*N0) -> reshape -> "
              "(..., B, M1, M0, N1, N0) -> transpose -> (..., B, N1, M1, M0, N0)");
    EXPECT_EQ(pipeline_formula(Format::BSNGD),
              "BSNGD -> BMNK: (B, S, N, G, D) -> transpose -> (B, N, G, S, D) -> reshape -> "
              "(B*N*G, M, K)");
}
