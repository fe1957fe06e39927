// permute / transpose: strides swap, storage stays.
#include <gtest/gtest.h>

#include <random>

#include "core/error.hpp"
#include "tests/core/view_reference.hpp"

namespace ll::view {

// The document: x(2,3,4) strides (12,4,1); x.transpose(1,2) -> (2,4,3):(12,1,4), same storage.
TEST(ViewPermute, DocumentTransposeGolden) {
    View x = make_view(row_major({2, 3, 4}));
    Applied y = apply(x, parse_op("transpose:1,2"));
    EXPECT_EQ(to_string(y.view.layout), "(2,4,3):(12,1,4)");
    EXPECT_FALSE(y.copied);
    EXPECT_EQ(y.view.storage, x.storage);
    EXPECT_EQ(y.view.layout.offset, 0);
    EXPECT_FALSE(is_contiguous(y.view.layout));
    EXPECT_TRUE(
        ref::same_elements(y.view, ref::apply(ref::from_view(x), parse_op("transpose:1,2"))));
}

TEST(ViewPermute, NchwToNhwcIsAPermute) {
    View x = make_view(row_major({1, 64, 56, 56}));
    Applied y = apply(x, parse_op("permute:0,2,3,1"));
    EXPECT_EQ(to_string(y.view.layout), "(1,56,56,64):(200704,56,1,3136)");
    Applied back = apply(y.view, parse_op("permute:0,3,1,2"));
    EXPECT_TRUE(same_map(back.view.layout, x.layout));
}

TEST(ViewPermute, EveryPermutationReadsLikeTheReference) {
    std::mt19937 g(7);
    for (int trial = 0; trial < 200; ++trial) {
        View x = ref::random_view(g);
        std::vector<int64_t> p(x.layout.rank());
        for (size_t i = 0; i < p.size(); ++i) p[i] = int64_t(i);
        std::shuffle(p.begin(), p.end(), g);
        Op op = parse_op("permute:" + ref::join(p));
        Applied y = apply(x, op);
        EXPECT_FALSE(y.copied);
        EXPECT_TRUE(ref::same_elements(y.view, ref::apply(ref::from_view(x), op))) << op.text;
    }
}

TEST(ViewPermute, InvalidPermutationsAreRejected) {
    View x = make_view(row_major({2, 3, 4}));
    for (const char* bad : {"permute:0,1", "permute:0,1,1", "permute:0,1,3", "permute:-1,0,1",
                            "transpose:0,3", "transpose:1", "permute:", "permute:a,b,c"}) {
        try {
            apply(x, parse_op(bad));
            ADD_FAILURE() << bad << " was accepted";
        } catch (const UsageError& e) {
            EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find("expected"), std::string::npos) << e.what();
        }
    }
}

}  // namespace ll::view
