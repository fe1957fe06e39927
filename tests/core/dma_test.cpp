// DMA with two AGUs: a layout-changing copy in one pass.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "core/error.hpp"
#include "core/view/agu.hpp"

namespace ll::view {

// The document's memory_copy_fused configuration for (1,64,56,56).
TEST(Dma, DocumentNchwToNhwc) {
    Shape s{1, 64, 56, 56};
    Dma d = make_dma(layout_from_name("NCHW", s), layout_from_name("NHWC", s), 32);
    EXPECT_EQ(d.read.strides, (std::vector<int64_t>{200704, 3136, 56, 1}));
    EXPECT_EQ(d.write.strides, (std::vector<int64_t>{200704, 1, 3584, 64}));
    EXPECT_EQ(to_string(d),
              "read  base=0x0 bounds=(1,64,56,56) strides=(200704,3136,56,1) elem=4B\n"
              "write base=0x0 bounds=(1,64,56,56) strides=(200704,1,3584,64) elem=4B");
    int64_t k = ravel({0, 32, 28, 28}, s);
    auto ev = stream(d, k, 1);
    ASSERT_EQ(ev.size(), 1u);
    EXPECT_EQ(ev[0].read, 101948 * 4);
    EXPECT_EQ(ev[0].write, 102176 * 4);
}

// Simulated memory: after the DMA runs, the destination read through its own
// layout holds the same tensor as the source read through its layout.
TEST(Dma, CopyPreservesEveryElement) {
    Shape s{2, 8, 4, 6};
    const char* names[] = {"NCHW", "NHWC", "CHWN", "nChw4c", "nChw8c", "NCHW2h2w", "HWCN"};
    for (const char* a : names)
        for (const char* b : names) {
            Layout src = layout_from_name(a, s), dst = layout_from_name(b, s);
            Dma d = make_dma(src, dst, 8, 0, 0);
            std::vector<int64_t> mem_src(size_t(src.size())), mem_dst(size_t(dst.size()), -1);
            for (int64_t i = 0; i < src.size(); ++i) mem_src[size_t(src(unravel(i, s)))] = i;
            for (const auto& e : stream(d, 0, d.count()))
                mem_dst[size_t(e.write)] = mem_src[size_t(e.read)];
            for (int64_t i = 0; i < dst.size(); ++i)
                ASSERT_EQ(mem_dst[size_t(dst(unravel(i, s)))], i) << a << " -> " << b;
        }
}

TEST(Dma, IncompatibleInputsAreRejected) {
    EXPECT_THROW(make_dma(row_major({2, 3}), row_major({3, 2}), 8), UsageError);
    Layout a = layout_from_name("NCHW2h2w", {1, 1, 6, 4});
    Layout b = layout_from_name("NCHW3h2w", {1, 1, 6, 4});
    EXPECT_THROW(make_dma(a, b, 8), UsageError);  // H blocked (3,2) vs (2,3)
}

}  // namespace ll::view
