// The CPU blocked layouts of document 003 section 5.2 as formats of the same
// engine: nChw16c (NCHW16C) and NCHW tiled 8x8 (NCHW8H8W), from NCHW and
// NHWC, on random shapes and every dtype, against closed-form index
// formulas written here: ElementMap, the literal step walk, the Executor
// (forward, padding, and the inverse bringing every element back).
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "core/error.hpp"
#include "core/format/format.hpp"
#include "tests/core/format_reference.hpp"

using namespace ll;

namespace {

// Index of (n, c, h, w) in the plain source.
int64_t plain_index(Format f, const Shape& s, int64_t n, int64_t c, int64_t h, int64_t w) {
    if (f == Format::NCHW) return ((n * s[1] + c) * s[2] + h) * s[3] + w;
    // NHWC: s = (N, H, W, C)
    return ((n * s[1] + h) * s[2] + w) * s[3] + c;
}

// For every destination element (row-major), its source index or -1 (padding).
std::vector<int64_t> expected(Format from, Format to, const Shape& s) {
    const bool nchw = from == Format::NCHW;
    const int64_t N = s[0], C = nchw ? s[1] : s[3], H = nchw ? s[2] : s[1], W = nchw ? s[3] : s[2];
    auto cd = [](int64_t a, int64_t b) { return (a + b - 1) / b; };
    std::vector<int64_t> m;
    if (to == Format::NCHW16C) {  // (N, C1, H, W, 16)
        for (int64_t n = 0; n < N; ++n)
            for (int64_t c1 = 0; c1 < cd(C, 16); ++c1)
                for (int64_t h = 0; h < H; ++h)
                    for (int64_t w = 0; w < W; ++w)
                        for (int64_t c0 = 0; c0 < 16; ++c0) {
                            const int64_t c = c1 * 16 + c0;
                            m.push_back(c < C ? plain_index(from, s, n, c, h, w) : -1);
                        }
    } else {  // (N, C, H1, W1, 8, 8)
        for (int64_t n = 0; n < N; ++n)
            for (int64_t c = 0; c < C; ++c)
                for (int64_t h1 = 0; h1 < cd(H, 8); ++h1)
                    for (int64_t w1 = 0; w1 < cd(W, 8); ++w1)
                        for (int64_t h0 = 0; h0 < 8; ++h0)
                            for (int64_t w0 = 0; w0 < 8; ++w0) {
                                const int64_t h = h1 * 8 + h0, w = w1 * 8 + w0;
                                m.push_back(h < H && w < W ? plain_index(from, s, n, c, h, w) : -1);
                            }
    }
    return m;
}

uint64_t raw(DType t, const std::vector<uint8_t>& buf, int64_t i) {
    if (bits(t) == 4) return (buf[static_cast<size_t>(i / 2)] >> (4 * (i % 2))) & 0xF;
    uint64_t v = 0;
    std::memcpy(&v, buf.data() + i * (bits(t) / 8), static_cast<size_t>(bits(t) / 8));
    return v;
}

}  // namespace

TEST(BlockedFormats, EveryDtypeMatchesTheIndexFormulas) {
    std::mt19937 rng(7);
    std::uniform_int_distribution<int64_t> d(1, 5), c(1, 40), hw(1, 19);
    for (DType t : all_dtypes())
        for (Format from : {Format::NCHW, Format::NHWC})
            for (Format to : {Format::NCHW16C, Format::NCHW8H8W}) {
                const int64_t N = d(rng), C = c(rng), H = hw(rng), W = hw(rng);
                const Shape s = from == Format::NCHW ? Shape{N, C, H, W} : Shape{N, H, W, C};
                ConvertSpec spec{from, to, s, t};
                spec.pad_value = is_float(t) ? -1.5 : (int_min(t) < 0 ? -1 : 3);
                const Pipeline p = make_pipeline(spec);
                const std::string what = std::string(name(t)) + " " + name(from) + " -> " +
                                         name(to) + " " + to_string(s);
                const std::vector<int64_t> want = expected(from, to, s);
                ASSERT_EQ(element_map(p), want) << what;
                ASSERT_EQ(ref::literal_stage(p, p.steps.size()), want) << what;
                Executor ex(p);
                std::vector<uint8_t> src(size_t(ex.src_bytes()));
                for (auto& b : src) b = uint8_t(rng());
                if (bits(t) == 4 && numel(p.src_shape) % 2) src.back() &= 0x0F;
                const std::vector<uint8_t> dst = ex.run(src);
                std::vector<uint8_t> padbuf(8, 0);
                store_element(t, padbuf.data(), 0, p.pad_value);
                for (size_t i = 0; i < want.size(); ++i)
                    ASSERT_EQ(raw(t, dst, int64_t(i)),
                              want[i] < 0 ? raw(t, padbuf, 0) : raw(t, src, want[i]))
                        << what << " dst " << i;
                const std::vector<uint8_t> back = Executor(inverse(p)).run(dst);
                for (int64_t j : want) {
                    if (j >= 0) {
                        ASSERT_EQ(raw(t, back, j), raw(t, src, j)) << what << " back";
                    }
                }
            }
}

TEST(BlockedFormats, StepsAndNames) {
    ConvertSpec s{Format::NCHW, format_from_name("nChw16c"), {1, 20, 2, 2}, DType::fp32};
    Pipeline p = make_pipeline(s);
    // C0 is 16 elements whatever the dtype (NC1HWC0's C0 would be 8 for fp32).
    EXPECT_EQ(to_string(p),
              "(1,20,2,2) -> pad -> (1,32,2,2) -> reshape -> (1,2,16,2,2) -> "
              "transpose(0,1,3,4,2) -> (1,2,2,2,16)");
    s.to = format_from_name("NCHW8h8w");
    s.shape = {1, 2, 10, 12};
    p = make_pipeline(s);
    EXPECT_EQ(p.dst_shape, (Shape{1, 2, 2, 2, 8, 8}));
    EXPECT_EQ(p.steps.size(), 3u);
    EXPECT_THROW(make_pipeline({Format::ND, Format::NCHW16C, {4, 4}, DType::fp16}), UsageError);
}
