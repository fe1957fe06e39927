// expand (stride 0), repeat, squeeze / unsqueeze, contiguous.
#include <gtest/gtest.h>

#include <random>

#include "core/error.hpp"
#include "tests/core/view_reference.hpp"

namespace ll::view {

// The document: a (3,) vector expanded to (4,3) has strides (0,1) and no copy.
TEST(ViewExpand, DocumentBroadcastGolden) {
    View a = make_view(row_major({3}));
    Applied b = apply(a, parse_op("expand:4,3"));
    EXPECT_EQ(to_string(b.view.layout), "(4,3):(0,1)");
    EXPECT_FALSE(b.copied);
    for (int64_t r = 0; r < 4; ++r)
        for (int64_t c = 0; c < 3; ++c) EXPECT_EQ(b.view.element_offset({r, c}), c);
    EXPECT_EQ(distinct_offsets(b.view.layout), 3);
}

TEST(ViewExpand, UnitDimsBroadcast) {
    View a = make_view(row_major({2, 1, 3}));
    Applied b = apply(a, parse_op("expand:5,2,4,-1"));
    EXPECT_EQ(to_string(b.view.layout), "(5,2,4,3):(0,3,0,1)");
    EXPECT_TRUE(
        ref::same_elements(b.view, ref::apply(ref::from_view(a), parse_op("expand:5,2,4,-1"))));
    EXPECT_THROW(apply(a, parse_op("expand:3,1,3")), UsageError);  // dim 0 has size 2
    EXPECT_THROW(apply(a, parse_op("expand:1,3")), UsageError);    // fewer dims
    EXPECT_THROW(apply(a, parse_op("expand:0,2,1,3")), UsageError);
    EXPECT_THROW(apply(a, parse_op("expand:1099511627776,1099511627776,2,1,3")), UsageError);
}

TEST(ViewExpand, SqueezeAndUnsqueeze) {
    View a = make_view(row_major({1, 3, 1, 4}));
    EXPECT_EQ(to_string(apply(a, parse_op("squeeze:0")).view.layout), "(3,1,4):(4,4,1)");
    EXPECT_EQ(to_string(apply(a, parse_op("squeeze")).view.layout), "(3,4):(4,1)");
    EXPECT_EQ(to_string(apply(a, parse_op("unsqueeze:4")).view.layout), "(1,3,1,4,1):(12,4,4,1,1)");
    EXPECT_THROW(apply(a, parse_op("squeeze:1")), UsageError);
    EXPECT_THROW(apply(a, parse_op("squeeze:7")), UsageError);
    EXPECT_THROW(apply(a, parse_op("unsqueeze:5")), UsageError);
    EXPECT_THROW(parse_op("unsqueeze"), UsageError);
}

TEST(ViewExpand, RepeatCopiesUnlessFusing) {
    View a = make_view(row_major({2, 3}));
    Applied r = apply(a, parse_op("repeat:2,1"));
    EXPECT_TRUE(r.copied);
    EXPECT_EQ(r.view.shape(), (Shape{4, 3}));
    Applied h = apply(a, parse_op("repeat:2,1"), ReshapeRule::hierarchical);
    EXPECT_FALSE(h.copied);
    EXPECT_EQ(to_string(h.view.layout), "((2,2),3):((0,3),1)");
    for (const auto& v : {r.view, h.view})
        EXPECT_TRUE(ref::same_elements(v, ref::apply(ref::from_view(a), parse_op("repeat:2,1"))));
}

TEST(ViewExpand, ContiguousCopiesOnlyWhenNeeded) {
    View a = make_view(row_major({2, 3}));
    EXPECT_FALSE(apply(a, parse_op("contiguous")).copied);
    View t = apply(a, parse_op("transpose:0,1")).view;
    Applied c = apply(t, parse_op("contiguous"));
    EXPECT_TRUE(c.copied);
    EXPECT_TRUE(is_contiguous(c.view.layout));
    EXPECT_TRUE(ref::same_elements(c.view, ref::from_view(t)));
}

TEST(ViewExpand, UnknownOpsAreRejected) {
    for (const char* bad : {"flip:0", "", "expand", "contiguous:1", "transpose:1,2,3"})
        EXPECT_THROW(parse_op(bad), UsageError) << bad;
}

}  // namespace ll::view
