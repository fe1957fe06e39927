#include "core/shape.hpp"

#include <gtest/gtest.h>

#include "core/dtype.hpp"
#include "core/error.hpp"

namespace ll {

TEST(Shape, RowMajorStridesAndRavelAreInverse) {
    Shape s{2, 3, 4};
    EXPECT_EQ(row_major_strides(s), (Shape{12, 4, 1}));
    for (int64_t i = 0; i < numel(s); ++i) EXPECT_EQ(ravel(unravel(i, s), s), i);
    EXPECT_EQ(unravel(17, s), (Coord{1, 1, 1}));
    EXPECT_EQ(to_string(s), "(2,3,4)");
}

TEST(Shape, ParseRejectsBadText) {
    EXPECT_EQ(parse_shape(" 2, 3,4"), (Shape{2, 3, 4}));
    for (const char* bad : {"", "2,,3", "2,x", "2,-3", "0,4", "2.5", "99999999999999999999"})
        EXPECT_THROW(parse_shape(bad), UsageError) << bad;
    EXPECT_THROW(parse_shape("1048576,1048576,1048576"), UsageError);
}

TEST(DType, NamesBitsAndFractalRow) {
    EXPECT_EQ(dtype_from_name("fp16"), DType::fp16);
    EXPECT_EQ(dtype_from_name("float32"), DType::fp32);
    EXPECT_THROW(dtype_from_name("fp64"), UsageError);
    EXPECT_EQ(elems_per_32b(DType::int4), 64);
    EXPECT_EQ(elems_per_32b(DType::int8), 32);
    EXPECT_EQ(elems_per_32b(DType::fp16), 16);
    EXPECT_EQ(elems_per_32b(DType::fp32), 8);
    EXPECT_EQ(bytes_for(DType::int4, 3), 2);
}

}  // namespace ll
