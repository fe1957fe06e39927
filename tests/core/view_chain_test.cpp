// Random chains of view ops: every index of the final view (following any
// copies back to the original storage) reads what a reference that copies
// at every step holds there. Address = base + offset * element size.
#include <gtest/gtest.h>

#include <random>

#include "tests/core/view_reference.hpp"

namespace ll::view {

TEST(ViewChain, RandomChainsReadLikeTheReference) {
    std::mt19937 g(2024);
    for (int trial = 0; trial < 400; ++trial) {
        View v = ref::random_view(g);
        ref::Dense d = ref::from_view(v);
        std::string chain;
        for (int k = 0; k < 6; ++k) {
            Op op = parse_op(ref::random_op(g, v.shape()));
            chain += " " + op.text;
            Applied a = apply(v, op);
            d = ref::apply(d, op);
            ASSERT_TRUE(ref::same_elements(a.view, d)) << chain;
            // The strided rule never creates sub-modes (blocked inputs may keep theirs).
            if (v.layout.flat()) {
                EXPECT_TRUE(a.view.layout.flat()) << chain;
            }
            EXPECT_EQ(a.view.storage, v.storage + (a.copied ? 1 : 0)) << chain;
            v = a.view;
        }
    }
}

TEST(ViewChain, ByteAddresses) {
    View x = make_view(row_major({10, 20}), 32, 0x1000);
    View y = apply(x, parse_op("slice:2:8,5:15")).view;
    EXPECT_EQ(y.element_offset({1, 2}), 45 + 20 + 2);
    EXPECT_EQ(y.address({1, 2}), 0x1000 + 67 * 4);
    View h = make_view(row_major({4}), 16, 0x10);
    EXPECT_EQ(h.address({3}), 0x10 + 6);
    View q = make_view(row_major({4}), 4, 0);  // int4: two elements per byte
    EXPECT_EQ(q.address({3}), 1);
}

}  // namespace ll::view
