// Random chains of view ops: every index of the final view (following any
// copies back to the original storage) reads what a reference that copies
// at every step holds there. Address = base + offset * element size.
#include <gtest/gtest.h>

#include <random>

#include "core/view/view_plans.hpp"
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

// Each storage has addresses of its own (issue 13: the views panel drew a
// copy at storage 0's base): a copy starts at the first 32-byte boundary
// past the storage it was filled from, and the next copy past that one.
TEST(ViewChain, EachCopyGetsItsOwnBase) {
    Chain ch = apply_chain(make_view(row_major({2, 3, 4}), 32, 0x1000),
                           {parse_op("transpose:1,2"), parse_op("reshape:6,4"),
                            parse_op("transpose:0,1"), parse_op("reshape:24")});
    ASSERT_EQ(ch.views.size(), 5u);
    EXPECT_EQ(ch.views[1].base, 0x1000);  // a view: same storage, same base
    EXPECT_EQ(ch.views[2].storage, 1);
    EXPECT_EQ(ch.views[2].base, 0x1000 + 96);  // 24 fp32 = 96 B, already 32-aligned
    EXPECT_EQ(ch.views[2].address({0, 1}), 0x1060 + 4);
    EXPECT_EQ(ch.views[4].storage, 2);
    EXPECT_EQ(ch.views[4].base, 0x1060 + 96);
    // An odd size rounds up to the next 32-byte boundary: 6 fp16 = 12 B.
    Chain odd = apply_chain(make_view(row_major({2, 3}), 16, 0x40),
                            {parse_op("transpose:0,1"), parse_op("reshape:6")});
    EXPECT_EQ(odd.views.back().storage, 1);
    EXPECT_EQ(odd.views.back().base, 0x60);
}

}  // namespace ll::view
