// The Cube: fractal MACs against a plain triple loop, layouts, step counts,
// fp16 rounding.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/error.hpp"
#include "core/exec/cube.hpp"
#include "core/exec/half.hpp"

using namespace ll;
using namespace ll::exec;

TEST(Half, RoundsToNearestEven) {
    EXPECT_EQ(float_to_half(1.0f), 0x3C00);
    EXPECT_EQ(round_to_half(0.1f), 0.0999755859375f);
    EXPECT_EQ(round_to_half(2049.0f), 2048.0f);
    EXPECT_EQ(round_to_half(2051.0f), 2052.0f);
    EXPECT_TRUE(std::isinf(round_to_half(65520.0f)));
    EXPECT_EQ(round_to_half(65504.0f), 65504.0f);
    EXPECT_EQ(round_to_half(std::ldexp(1.0f, -24)), std::ldexp(1.0f, -24));  // smallest subnormal
    EXPECT_EQ(round_to_half(std::ldexp(1.0f, -26)), 0.0f);
    EXPECT_TRUE(std::isnan(round_to_half(NAN)));
    // Every half bit pattern (finite) survives a round trip.
    for (uint32_t h = 0; h < 0x10000; ++h) {
        if (((h >> 10) & 0x1f) == 0x1f) continue;
        ASSERT_EQ(float_to_half(half_to_float(uint16_t(h))), h) << h;
    }
}

TEST(Cube, Shapes) {
    EXPECT_EQ(cube_shape(DType::fp16).k0, 16);
    EXPECT_EQ(cube_shape(DType::int8).k0, 32);
    EXPECT_THROW(cube_shape(DType::fp32), UsageError);
}

TEST(Cube, WorkedExampleOneStep) {
    std::vector<float> a(256, 1.0f), b(256, 2.0f), c(256, 0.0f);
    EXPECT_EQ(mmad(a.data(), b.data(), c.data(), 1, 1, 1, 16), 1);
    for (float v : c) EXPECT_EQ(v, 32.0f);
}

namespace {

// Reference: logical matrices A[M][K], B[K][N] read out of the fractal
// layouts by index arithmetic, multiplied by a plain loop.
template <class T, class Acc>
void check_mmad(int64_t m1, int64_t k1, int64_t n1, int64_t k0, std::mt19937& rng) {
    std::uniform_int_distribution<int> d(-8, 8);
    std::vector<T> a(size_t(m1 * k1 * 16 * k0)), b(size_t(k1 * n1 * 16 * k0));
    for (auto& v : a) v = T(d(rng));
    for (auto& v : b) v = T(d(rng));
    std::vector<Acc> c(size_t(n1 * m1 * 256), Acc(0));
    EXPECT_EQ(mmad(a.data(), b.data(), c.data(), m1, k1, n1, k0), m1 * k1 * n1);
    const int64_t M = m1 * 16, K = k1 * k0, N = n1 * 16;
    for (int64_t m = 0; m < M; ++m)
        for (int64_t n = 0; n < N; ++n) {
            int64_t want = 0;
            for (int64_t k = 0; k < K; ++k) {
                T av = a[size_t(((m / 16 * k1 + k / k0) * 16 + m % 16) * k0 + k % k0)];  // ZZ
                T bv = b[size_t(((k / k0 * n1 + n / 16) * 16 + n % 16) * k0 + k % k0)];  // ZN
                want += int64_t(av) * int64_t(bv);
            }
            Acc got = c[size_t(((n / 16 * m1 + m / 16) * 16 + m % 16) * 16 + n % 16)];  // NZ
            ASSERT_EQ(int64_t(got), want) << "m " << m << " n " << n;
        }
}

}  // namespace

TEST(Cube, Fp16MatchesTripleLoop) {
    std::mt19937 rng(11);
    check_mmad<float, float>(3, 2, 2, 16, rng);  // small integers: exact in fp32
    check_mmad<float, float>(1, 5, 3, 16, rng);
}

TEST(Cube, Int8MatchesTripleLoopExactly) {
    std::mt19937 rng(12);
    check_mmad<int8_t, int32_t>(2, 3, 2, 32, rng);
}

TEST(Cube, Int8ExtremesDoNotOverflow) {
    std::vector<int8_t> a(512, -128), b(512, -128);
    std::vector<int32_t> c(256, 0);
    mmad(a.data(), b.data(), c.data(), 1, 1, 1, 32);
    for (int32_t v : c) EXPECT_EQ(v, 32 * 128 * 128);
}

TEST(Cube, AccumulatesAcrossCalls) {
    std::vector<float> a(256, 0.5f), b(256, 0.25f), c(256, 1.0f);
    mmad_fractal(a.data(), transpose_b_fractal(b.data(), 16).data(), c.data(), 16);
    for (float v : c) EXPECT_EQ(v, 1.0f + 16 * 0.125f);
}
