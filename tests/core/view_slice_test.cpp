// slice: offset moves, strides scale by the step, storage stays.
#include <gtest/gtest.h>

#include <random>

#include "core/error.hpp"
#include "tests/core/view_reference.hpp"

namespace ll::view {

// The document: x(10,20)[2:8, 5:15] -> (6,10):(20,1), storage offset 45 = 2*20 + 5.
TEST(ViewSlice, DocumentSliceGolden) {
    View x = make_view(row_major({10, 20}));
    Applied y = apply(x, parse_op("slice:2:8,5:15"));
    EXPECT_EQ(to_string(y.view.layout), "(6,10):(20,1)+45");
    EXPECT_EQ(y.view.layout.offset, 45);
    EXPECT_FALSE(y.copied);
    EXPECT_EQ(y.view.storage, 0);
    EXPECT_TRUE(
        ref::same_elements(y.view, ref::apply(ref::from_view(x), parse_op("slice:2:8,5:15"))));
}

TEST(ViewSlice, StepsAndDefaults) {
    View x = make_view(row_major({10, 20}));
    Applied y = apply(x, parse_op("slice:0:10:2,:"));
    EXPECT_EQ(to_string(y.view.layout), "(5,20):(40,1)");
    Applied z = apply(x, parse_op("slice:::3"));
    EXPECT_EQ(to_string(z.view.layout), "(4,20):(60,1)");
    Applied w = apply(x, parse_op("slice:1:2,3:20:4"));
    EXPECT_EQ(to_string(w.view.layout), "(1,5):(20,4)+23");
}

// A slice across the blocks of nChw4c keeps (outer, inner) sub-modes when it
// is block aligned and becomes one stride when it stays inside a block.
TEST(ViewSlice, BlockedModes) {
    View x = make_view(layout_from_name("nChw4c", {1, 8, 2, 2}));
    Applied inside = apply(x, parse_op("slice::,1:3"));
    EXPECT_FALSE(inside.copied);
    EXPECT_TRUE(inside.view.layout.flat());
    Applied aligned = apply(x, parse_op("slice::,4:8"));
    EXPECT_FALSE(aligned.copied);
    Applied across = apply(x, parse_op("slice::,2:7"));
    EXPECT_TRUE(across.copied);
    for (const char* t : {"slice::,1:3", "slice::,4:8", "slice::,2:7", "slice::,0:8:3"}) {
        Applied a = apply(x, parse_op(t));
        EXPECT_TRUE(ref::same_elements(a.view, ref::apply(ref::from_view(x), parse_op(t)))) << t;
    }
}

TEST(ViewSlice, RandomSlicesReadLikeTheReference) {
    std::mt19937 g(11);
    for (int trial = 0; trial < 300; ++trial) {
        View x = ref::random_view(g);
        std::string t;
        do t = ref::random_op(g, x.shape());
        while (t.rfind("slice:", 0) != 0);
        Op op = parse_op(t);
        Applied y = apply(x, op);
        EXPECT_TRUE(ref::same_elements(y.view, ref::apply(ref::from_view(x), op))) << t;
    }
}

// select drops a dim: x[:, 5] of (10,20) is (10,):(20,) at offset 5.
TEST(ViewSlice, SelectDropsADim) {
    View x = make_view(row_major({10, 20}));
    Applied y = apply(x, parse_op("select:1,5"));
    EXPECT_EQ(to_string(y.view.layout), "(10):(20)+5");
    EXPECT_FALSE(y.copied);
    View b = make_view(layout_from_name("nChw4c", {1, 8, 2, 2}));
    for (const char* t : {"select:1,5", "select:3,1", "select:0,0"}) {
        Applied a = apply(b, parse_op(t));
        EXPECT_TRUE(ref::same_elements(a.view, ref::apply(ref::from_view(b), parse_op(t)))) << t;
    }
    for (const char* bad : {"select:1,20", "select:2,0", "select:1", "select:1,-1"})
        EXPECT_THROW(apply(x, parse_op(bad)), UsageError) << bad;
}

TEST(ViewSlice, BadSlicesAreRejected) {
    View x = make_view(row_major({10, 20}));
    for (const char* bad :
         {"slice:2:11", "slice:5:5", "slice:8:2", "slice:0:5,0:21", "slice:1,2", "slice:0:5:0",
          "slice:-1:5", "slice:a:b", "slice:", "slice:0:1,0:1,0:1", "slice:1:2:3:4"}) {
        try {
            apply(x, parse_op(bad));
            ADD_FAILURE() << bad << " was accepted";
        } catch (const UsageError& e) {
            EXPECT_NE(std::string(e.what()).find("op '" + std::string(bad) + "'"),
                      std::string::npos)
                << e.what();
        }
    }
}

}  // namespace ll::view
