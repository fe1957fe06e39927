// fp16 / bf16 encodings and load/store of every dtype, including int4 nibbles.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "core/format/format.hpp"
#include "core/format/scalar.hpp"

using namespace ll;

TEST(Scalar, HalfKnownPatterns) {
    EXPECT_EQ(float_to_half(1.0f), 0x3C00);
    EXPECT_EQ(float_to_half(-2.0f), 0xC000);
    EXPECT_EQ(float_to_half(65504.0f), 0x7BFF);
    EXPECT_EQ(float_to_half(1e6f), 0x7C00);                // overflow -> inf
    EXPECT_EQ(float_to_half(5.9604645e-8f), 0x0001);       // smallest subnormal
    EXPECT_EQ(float_to_half(1.0f + 1.0f / 2048), 0x3C00);  // tie -> even
    EXPECT_EQ(float_to_half(1.0f + 3.0f / 2048), 0x3C02);  // tie -> even (up)
    EXPECT_TRUE(std::isnan(half_to_float(float_to_half(NAN))));
}

TEST(Scalar, HalfRoundTripsEveryFiniteValue) {
    for (uint32_t h = 0; h < 0x10000; ++h) {
        if ((h & 0x7C00) == 0x7C00) continue;  // inf / NaN
        const float f = half_to_float(static_cast<uint16_t>(h));
        ASSERT_EQ(float_to_half(f), h) << std::hex << h;
    }
}

TEST(Scalar, Bf16) {
    EXPECT_EQ(float_to_bf16(1.0f), 0x3F80);
    EXPECT_EQ(bf16_to_float(0x3F80), 1.0f);
    EXPECT_EQ(float_to_bf16(1.0f + 1.0f / 256), 0x3F80);  // tie -> even
    for (uint32_t b = 0; b < 0x10000; ++b) {
        if ((b & 0x7F80) == 0x7F80) continue;
        ASSERT_EQ(float_to_bf16(bf16_to_float(static_cast<uint16_t>(b))), b);
    }
}

TEST(Scalar, LoadStoreEveryDtype) {
    for (DType t : all_dtypes()) {
        std::vector<uint8_t> buf(static_cast<size_t>(bytes_for(t, 5)), 0);
        const double vals[] = {1, -2, 3, 7, 0};
        // Unsigned and storage-only types (bit codes) hold no negatives.
        const bool no_neg = !is_float(t) && int_min(t) == 0;
        for (int i = 0; i < 5; ++i) store_element(t, buf.data(), i, no_neg ? i : vals[i]);
        for (int i = 0; i < 5; ++i)
            EXPECT_EQ(load_element(t, buf.data(), i), no_neg ? i : vals[i]) << name(t);
    }
    // int4: two per byte, low nibble first
    uint8_t b[1] = {0};
    store_element(DType::int4, b, 0, 3);
    store_element(DType::int4, b, 1, -1);
    EXPECT_EQ(b[0], 0xF3);
}
