// gather (an index list along one dim) and im2col (windows of the last two
// dims) as view ops: when they stay views, the layouts they give, when they
// copy, and every element against the copying reference.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "core/view/view.hpp"
#include "tests/core/view_reference.hpp"

namespace ll::view {

namespace {

Applied run(const View& v, const char* op, ReshapeRule rule = ReshapeRule::strided) {
    return apply(v, parse_op(op), rule);
}

}  // namespace

TEST(Gather, ArithmeticIndicesStayAView) {
    View x = make_view(row_major({4, 6}));
    Applied a = run(x, "gather:1:1,3,5");
    EXPECT_FALSE(a.copied);
    EXPECT_EQ(to_string(a.view.layout), "(4,3):(6,2)+1");
    Applied b = run(x, "gather:0:2,2,2");  // one row read three times: stride 0
    EXPECT_FALSE(b.copied);
    EXPECT_EQ(to_string(b.view.layout), "(3,6):(0,1)+12");
    EXPECT_TRUE(
        ref::same_elements(b.view, ref::apply(ref::from_view(x), parse_op("gather:0:2,2,2"))));
}

TEST(Gather, AnyOtherListIsAnIndexArray) {
    View x = make_view(row_major({4, 6}));
    Op op = parse_op("gather:1:5,0,0,3");
    Applied a = apply(x, op);
    EXPECT_TRUE(a.copied);
    ASSERT_TRUE(a.view.gather);
    EXPECT_EQ(a.view.gather->dim, 1u);
    EXPECT_EQ(a.view.shape(), (Shape{4, 4}));
    EXPECT_EQ(a.view.storage, 1);
    EXPECT_EQ(resolve(a.view, {2, 0}), 17);  // x[2, 5]
    EXPECT_EQ(resolve(a.view, {2, 3}), 15);  // x[2, 3]
    EXPECT_TRUE(ref::same_elements(a.view, ref::apply(ref::from_view(x), op)));
    // Ops after the gather read through the index array too.
    Applied t = run(a.view, "transpose:0,1");
    EXPECT_EQ(resolve(t.view, {0, 2}), 17);
}

TEST(Gather, BadIndicesAreNamed) {
    View x = make_view(row_major({4, 6}));
    for (const char* bad : {"gather:1:0,6", "gather:2:0", "gather:1", "gather:1:", "gather:x:1"}) {
        try {
            run(x, bad);
            ADD_FAILURE() << bad;
        } catch (const UsageError& e) {
            EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
        }
    }
}

// (1,4,4) with a 3x3 window: 4 output pixels x 9 patch elements, one
// overlapping-stride layout over the same storage.
TEST(Im2col, OverlappingStridesOverTheSameStorage) {
    View x = make_view(row_major({1, 4, 4}));
    Applied a = run(x, "im2col:3,3", ReshapeRule::hierarchical);
    EXPECT_FALSE(a.copied);
    EXPECT_EQ(a.view.storage, 0);
    EXPECT_EQ(to_string(a.view.layout), "((2,2),(3,3)):((4,1),(4,1))");
    EXPECT_EQ(a.view.layout({3, 4}), 5 + 5);  // pixel (1,1), kernel (1,1): x[0,2,2]
    // A framework's view rule cannot hold two strides per dim: it copies.
    Applied s = run(x, "im2col:3,3");
    EXPECT_TRUE(s.copied);
    EXPECT_TRUE(ref::same_elements(s.view, ref::apply(ref::from_view(x), parse_op("im2col:3,3"))));
}

TEST(Im2col, StrideDilationChannelsAndLayouts) {
    for (const char* layout : {"NCHW", "NHWC", "nChw2c", "NCHW2h2w"}) {
        View x = make_view(layout_from_name(layout, {1, 4, 6, 8}));
        for (const char* op : {"im2col:3,3", "im2col:2,3,2,2", "im2col:3,3,1,2,2,3"}) {
            Op o = parse_op(op);
            Shape in = x.shape();
            Im2col p = im2col_params(o, in);
            ref::Dense want = ref::apply(ref::from_view(x), o);
            Applied h = apply(x, o, ReshapeRule::hierarchical);
            EXPECT_EQ(h.view.shape(), (Shape{p.oh * p.ow, p.channels * p.kh * p.kw}));
            EXPECT_TRUE(ref::same_elements(h.view, want)) << layout << " " << op;
            EXPECT_TRUE(ref::same_elements(apply(x, o).view, want)) << layout << " " << op;
        }
    }
}

TEST(Im2col, WindowMustFit) {
    View x = make_view(row_major({3, 4, 4}));
    for (const char* bad :
         {"im2col:5,3", "im2col:3,3,1,1,2,2", "im2col:0,3", "im2col:3", "im2col:3,3,1"}) {
        try {
            run(x, bad);
            ADD_FAILURE() << bad;
        } catch (const UsageError& e) {
            EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
        }
    }
    EXPECT_THROW(run(make_view(row_major({8})), "im2col:2,2"), UsageError);
}

}  // namespace ll::view
