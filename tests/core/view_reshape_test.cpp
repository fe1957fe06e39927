// reshape: zero-copy when the strides allow it (PyTorch's view rule), a
// reported copy into new storage otherwise.
#include <gtest/gtest.h>

#include <random>

#include "core/error.hpp"
#include "tests/core/view_reference.hpp"

namespace ll::view {

// The document: a contiguous reshape only changes metadata; the transposed
// view reshaped to (6,4) copies.
TEST(ViewReshape, DocumentGolden) {
    View x = make_view(row_major({2, 3, 4}));
    Applied y = apply(x, parse_op("reshape:6,4"));
    EXPECT_FALSE(y.copied);
    EXPECT_EQ(to_string(y.view.layout), "(6,4):(4,1)");
    Applied t = apply(x, parse_op("transpose:1,2"));
    EXPECT_FALSE(is_contiguous(t.view.layout));
    Applied c = apply(t.view, parse_op("reshape:6,4"));
    EXPECT_TRUE(c.copied);
    EXPECT_EQ(c.view.storage, 1);
    EXPECT_EQ(to_string(c.view.layout), "(6,4):(4,1)");
    EXPECT_TRUE(is_contiguous(c.view.layout));
    EXPECT_TRUE(
        ref::same_elements(c.view, ref::apply(ref::from_view(t.view), parse_op("reshape:6,4"))));
}

TEST(ViewReshape, MergesAndSplitsCompatibleDims) {
    // (1,64,56,56) permuted to NHWC order: H and W still merge.
    View x = make_view(row_major({1, 64, 56, 56}));
    View p = apply(x, parse_op("permute:0,2,3,1")).view;
    Applied r = apply(p, parse_op("reshape:1,3136,64"));
    EXPECT_FALSE(r.copied);
    EXPECT_EQ(to_string(r.view.layout), "(1,3136,64):(200704,1,3136)");
    // Splitting a strided dim keeps its stride pattern.
    View s = apply(make_view(row_major({4, 6})), parse_op("slice::,::2")).view;  // (4,3):(6,2)
    Applied sp = apply(s, parse_op("reshape:2,2,3"));
    EXPECT_FALSE(sp.copied);
    EXPECT_EQ(to_string(sp.view.layout), "(2,2,3):(12,6,2)");
    EXPECT_EQ(to_string(apply(x, parse_op("reshape:-1,56")).view.layout), "(3584,56):(56,1)");
}

// Under the hierarchical rule (fusion) a reshape that merges dims whose
// strides do not chain keeps two sub-modes instead of copying.
TEST(ViewReshape, HierarchicalKeepsSubModes) {
    View t = apply(make_view(row_major({2, 3, 4})), parse_op("transpose:1,2")).view;
    EXPECT_TRUE(apply(t, parse_op("reshape:8,3")).copied);
    Applied h = apply(t, parse_op("reshape:8,3"), ReshapeRule::hierarchical);
    EXPECT_FALSE(h.copied);
    EXPECT_EQ(to_string(h.view.layout), "((2,4),3):((12,1),4)");
    EXPECT_TRUE(ref::same_elements(h.view, ref::apply(ref::from_view(t), parse_op("reshape:8,3"))));
    // (6,4) cuts the rows of 3 (the document's copying reshape): no factor fits.
    EXPECT_TRUE(apply(t, parse_op("reshape:6,4"), ReshapeRule::hierarchical).copied);
    // (3,4):(1,3) to (2,6) falls on no factor: even sub-modes need a copy.
    View f = make_view(make_layout({3, 4}, {1, 3}));
    EXPECT_TRUE(apply(f, parse_op("reshape:2,6"), ReshapeRule::hierarchical).copied);
}

TEST(ViewReshape, RandomReshapesReadLikeTheReference) {
    std::mt19937 g(3);
    for (int trial = 0; trial < 300; ++trial) {
        View x = ref::random_view(g);
        if (trial % 2) x = apply(x, parse_op(ref::random_op(g, x.shape()))).view;
        std::string t;
        do t = ref::random_op(g, x.shape());
        while (t.rfind("reshape:", 0) != 0);
        Op op = parse_op(t);
        for (auto rule : {ReshapeRule::strided, ReshapeRule::hierarchical}) {
            Applied y = apply(x, op, rule);
            EXPECT_TRUE(ref::same_elements(y.view, ref::apply(ref::from_view(x), op))) << t;
            if (rule == ReshapeRule::strided && x.layout.flat()) {
                EXPECT_TRUE(y.view.layout.flat()) << t;
            }
            // A contiguous input always reshapes without a copy.
            if (is_contiguous(x.layout)) {
                EXPECT_FALSE(y.copied) << t;
            }
        }
    }
}

TEST(ViewReshape, CountChangeIsRejected) {
    View x = make_view(row_major({2, 3, 4}));
    for (const char* bad :
         {"reshape:5,5", "reshape:25", "reshape:-1,5", "reshape:-1,-1", "reshape:0,24",
          "reshape:999999999999999999,999999999999999999", "reshape:x"}) {
        try {
            apply(x, parse_op(bad));
            ADD_FAILURE() << bad << " was accepted";
        } catch (const UsageError& e) {
            EXPECT_NE(std::string(e.what()).find("op '"), std::string::npos) << e.what();
        }
    }
}

}  // namespace ll::view
