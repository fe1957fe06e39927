// conversion_chain and the picture tensor (core/format/chain.hpp).
#include "core/format/chain.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"

using namespace ll;

TEST(Chain, ViaAPlainFormatGivesTwoConnectedPipelines) {
    ConvertSpec s;
    s.from = Format::NCHW;
    s.to = Format::NC1HWC0;
    s.shape = {1, 3, 4, 4};
    s.dtype = DType::fp16;
    auto c = conversion_chain(s, Format::NHWC);
    ASSERT_EQ(c.size(), 2u);
    EXPECT_EQ(c[0].dst_shape, (Shape{1, 4, 4, 3}));
    EXPECT_EQ(c[1].src_shape, c[0].dst_shape);
    EXPECT_EQ(c[1].dst_shape, (Shape{1, 1, 4, 4, 16}));
    EXPECT_EQ(conversion_chain(s, std::nullopt).size(), 1u);
    try {
        conversion_chain(s, Format::FRACTAL_NZ);
        FAIL() << "a fractal format is no stop on the way";
    } catch (const UsageError& e) {
        EXPECT_EQ(e.key(), "via");
    }
}

TEST(Chain, PictureValuesInTheFormatsOwnOrder) {
    // 2 rows x 3 columns, pixel (y, x) = (10y + x, 100 + 10y + x, 200 + 10y + x).
    std::vector<uint8_t> rgb;
    for (int y = 0; y < 2; ++y)
        for (int x = 0; x < 3; ++x)
            for (int c = 0; c < 3; ++c) rgb.push_back(uint8_t(100 * c + 10 * y + x));
    EXPECT_EQ(image_tensor_shape(Format::NCHW, 2, 3), (Shape{1, 3, 2, 3}));
    EXPECT_EQ(image_tensor_shape(Format::NHWC, 2, 3), (Shape{1, 2, 3, 3}));
    auto nchw = image_tensor_values(Format::NCHW, rgb.data(), 2, 3);
    auto nhwc = image_tensor_values(Format::NHWC, rgb.data(), 2, 3);
    for (int c = 0; c < 3; ++c)
        for (int y = 0; y < 2; ++y)
            for (int x = 0; x < 3; ++x) {
                uint8_t v = uint8_t(100 * c + 10 * y + x);
                EXPECT_EQ(nchw[size_t((c * 2 + y) * 3 + x)], v);
                EXPECT_EQ(nhwc[size_t((y * 3 + x) * 3 + c)], v);
            }
    EXPECT_THROW(image_tensor_shape(Format::ND, 2, 3), UsageError);
}
