// Transform fusion: a chain composed into one read map; fused == unfused on
// every element; classification and bytes moved.
#include "core/view/fuse.hpp"

#include <gtest/gtest.h>

#include <random>

#include "core/error.hpp"
#include "tests/core/view_reference.hpp"

namespace ll::view {

namespace {

std::vector<Op> ops(std::initializer_list<const char*> texts) {
    std::vector<Op> v;
    for (const char* t : texts) v.push_back(parse_op(t));
    return v;
}

}  // namespace

// The document: NCHW -> NHWC -> NCHW is the identity and moves nothing.
TEST(Fuse, TwoTransposesCancel) {
    View x = make_view(row_major({1, 64, 56, 56}), 32);
    Fused f = fuse(x, ops({"permute:0,2,3,1", "permute:0,3,1,2"}));
    EXPECT_TRUE(f.identity);
    EXPECT_TRUE(f.moves_nothing);
    EXPECT_EQ(f.moved_bytes, 0);
    ASSERT_TRUE(f.permutation.has_value());
    EXPECT_EQ(*f.permutation, (std::vector<int64_t>{0, 1, 2, 3}));
    int64_t bytes = 64 * 56 * 56 * 4;
    EXPECT_EQ(f.unfused_moved_bytes, 2 * 2 * bytes);  // two materialised steps, read + write each
    for (const auto& s : f.steps) EXPECT_EQ(s.category, Category::bijective);
}

// The document: (1,64,56,56) reshape to (1,64,3136) then transpose to
// (1,3136,64) is one strided copy with the composed map.
TEST(Fuse, ReshapeTransposeIsOneStridedCopy) {
    View x = make_view(row_major({1, 64, 56, 56}), 32);
    Fused f = fuse(x, ops({"reshape:1,64,3136", "transpose:1,2"}));
    EXPECT_FALSE(f.composite);
    EXPECT_EQ(to_string(f.result.layout), "(1,3136,64):(200704,1,3136)");
    EXPECT_FALSE(f.identity);
    EXPECT_FALSE(f.permutation.has_value());  // ranks differ
    int64_t bytes = 64 * 56 * 56 * 4;
    EXPECT_EQ(f.moved_bytes, 2 * bytes);
    // Unfused the reshape of the contiguous input is free too (its buffer is
    // the input's), as the views panel says; only the transpose copies.
    EXPECT_EQ(f.steps[0].reads + f.steps[0].writes, 0);
    EXPECT_EQ(f.unfused_moved_bytes, 2 * bytes);
    // Two transposes are two copies unfused, one fused.
    Fused t = fuse(x, ops({"transpose:1,2", "transpose:2,3"}));
    EXPECT_EQ(t.unfused_moved_bytes, 4 * bytes);
    EXPECT_EQ(t.moved_bytes, 2 * bytes);
    // The document's fused address pair: dst (h*56+w)*64 + c reads src c*3136 + h*56 + w.
    for (int64_t c : {0, 17, 63})
        for (int64_t h : {0, 28, 55})
            for (int64_t w : {0, 9, 55})
                EXPECT_EQ(f.result.layout({0, h * 56 + w, c}), c * 3136 + h * 56 + w);
}

TEST(Fuse, PermutationIsReported) {
    View x = make_view(row_major({2, 3, 4, 5}));
    Fused f = fuse(x, ops({"transpose:1,3", "transpose:2,3"}));
    ASSERT_TRUE(f.permutation.has_value());
    EXPECT_EQ(*f.permutation, (std::vector<int64_t>{0, 3, 1, 2}));
    EXPECT_FALSE(f.identity);
    EXPECT_FALSE(f.moves_nothing);
    Fused r = fuse(x, ops({"reshape:6,20"}));
    EXPECT_TRUE(r.moves_nothing);  // a contiguous reshape is metadata only
    EXPECT_EQ(r.unfused_moved_bytes, 0);
    EXPECT_FALSE(r.permutation.has_value());
    // A slice of the leading dim is a contiguous run: nothing moves either way.
    Fused l = fuse(x, ops({"slice:1:2"}));
    EXPECT_TRUE(l.moves_nothing);
    EXPECT_EQ(l.moved_bytes, 0);
    EXPECT_EQ(l.unfused_moved_bytes, 0);
}

TEST(Fuse, ClassifiesAndCountsEachStep) {
    View x = make_view(row_major({4, 6}), 16);
    Fused f =
        fuse(x, ops({"slice:0:4:2,:", "expand:3,2,6", "transpose:0,2", "squeeze", "repeat:1,2,1"}));
    ASSERT_EQ(f.steps.size(), 5u);
    EXPECT_EQ(f.steps[0].category, Category::selecting);
    EXPECT_EQ(f.steps[0].reads, 12);
    EXPECT_EQ(f.steps[0].writes, 12);
    EXPECT_EQ(f.steps[1].category, Category::expanding);
    EXPECT_EQ(f.steps[1].reads, 12);
    EXPECT_EQ(f.steps[1].writes, 36);
    EXPECT_EQ(f.steps[2].category, Category::bijective);
    EXPECT_EQ(f.steps[3].category, Category::selecting);
    EXPECT_EQ(f.steps[4].category, Category::expanding);
    EXPECT_EQ(f.distinct_reads, 12);  // every output element comes from the 12 kept inputs
    EXPECT_EQ(f.moved_bytes, (12 + f.result.layout.size()) * 2);
}

// im2col of the document's (1,64,56,56) with a 3x3 window: one overlapping
// read map; the fused pass reads each input element once and writes the
// 9x-ish larger matrix, the unfused one also writes and rereads it.
TEST(Fuse, Im2colIsAnOverlappingReadMap) {
    View x = make_view(row_major({1, 64, 56, 56}), 32);
    Fused f = fuse(x, ops({"im2col:3,3", "transpose:0,1"}));
    EXPECT_FALSE(f.composite);
    EXPECT_EQ(f.steps[0].category, Category::expanding);
    EXPECT_EQ(f.steps[0].out_shape, (Shape{54 * 54, 64 * 9}));
    EXPECT_EQ(to_string(f.result.layout), "((64,3,3),(54,54)):((3136,56,1),(56,1))");
    int64_t in = 64 * 56 * 56, out = 54 * 54 * 64 * 9;
    EXPECT_EQ(f.distinct_reads, in);
    EXPECT_EQ(f.moved_bytes, (in + out) * 4);
    EXPECT_EQ(f.unfused_moved_bytes, (in + out + out + out) * 4);
    // With stride 3 the 3x3 windows tile 54x54 of the 56x56 input: 2 rows and
    // columns are never read.
    Fused g = fuse(x, ops({"im2col:3,3,3,3"}));
    EXPECT_EQ(g.distinct_reads, 64 * 54 * 54);
    EXPECT_EQ(g.moved_bytes, 2 * 64 * 54 * 54 * 4);
}

// A gather that is not an arithmetic run composes as an index array: the
// fused map reads through it and never writes the gathered buffer.
TEST(Fuse, GatherComposesAsAnIndexArray) {
    View x = make_view(row_major({8, 16}), 16);
    Fused f = fuse(x, ops({"transpose:0,1", "gather:1:7,0,3,3", "slice:0:16:2,:"}));
    EXPECT_TRUE(f.composite);
    EXPECT_EQ(f.steps[1].category, Category::selecting);
    EXPECT_TRUE(f.steps[1].copied);
    EXPECT_EQ(f.result.shape(), (Shape{8, 4}));
    EXPECT_EQ(resolve(f.result, {1, 0}), 7 * 16 + 2);  // out[1,0] = x[7, 2]
    EXPECT_EQ(resolve(f.result, {3, 3}), 3 * 16 + 6);  // out[3,3] = x[3, 6]
    EXPECT_EQ(f.distinct_reads, 8 * 3);                // rows 7, 0, 3; columns 0,2,..,14
    EXPECT_EQ(f.moved_bytes, (24 + 32) * 2);
    // unfused: transpose 128+128, gather 64+64, slice 32+32 elements
    EXPECT_EQ(f.unfused_moved_bytes, (256 + 128 + 64) * 2);
    // An arithmetic run of indices is a slice: still one layout.
    Fused s = fuse(x, ops({"gather:1:1,4,7,10"}));
    EXPECT_FALSE(s.composite);
    EXPECT_EQ(to_string(s.result.layout), "(8,4):(16,3)+1");
}

// The property: for random inputs and random chains, the fused map reads on
// every index what step-by-step materialisation puts there.
TEST(Fuse, FusedEqualsUnfusedOnEveryElement) {
    std::mt19937 g(99);
    int composite = 0, hierarchical = 0, gathers = 0, im2cols = 0;
    for (int trial = 0; trial < 400; ++trial) {
        View x = ref::random_view(g);
        ref::Dense d = ref::from_view(x);
        std::vector<Op> chain;
        Shape s = x.shape();
        for (int k = 0; k < 5; ++k) {
            chain.push_back(parse_op(ref::random_op(g, s)));
            gathers += chain.back().kind == OpKind::gather;
            im2cols += chain.back().kind == OpKind::im2col;
            d = ref::apply(d, chain.back());
            s = d.shape;
        }
        Fused f = fuse(x, chain);
        ASSERT_TRUE(ref::same_elements(f.result, d)) << trial;
        EXPECT_LE(f.moved_bytes, f.unfused_moved_bytes) << trial;
        composite += f.composite;
        hierarchical += !f.result.layout.flat();
        if (!f.composite) {
            EXPECT_EQ(f.result.storage, x.storage);
        }
    }
    EXPECT_GT(hierarchical, 0);  // the generator does reach sub-mode maps
    EXPECT_GT(composite, 0);     // and maps no layout expresses
    EXPECT_GT(gathers, 20);      // index arrays and overlapping windows are in the chains
    EXPECT_GT(im2cols, 20);
}

TEST(Fuse, BadOpIsNamed) {
    View x = make_view(row_major({2, 3}));
    try {
        fuse(x, ops({"transpose:0,1", "reshape:7"}));
        ADD_FAILURE();
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("reshape:7"), std::string::npos) << e.what();
    }
}

}  // namespace ll::view

namespace ll::view {

// What the views panel prints for a copying step: elements and bytes, int4
// rounded up to whole bytes.
TEST(Fuse, StepCostCountsBytes) {
    const View x = make_view(row_major({2, 3, 4}), 16);
    const StepCost c = step_cost(x, parse_op("permute:0,2,1"), true);
    EXPECT_TRUE(c.moves);
    EXPECT_EQ(c.reads, 24);
    EXPECT_EQ(c.read_bytes, 48);
    EXPECT_EQ(c.write_bytes, 48);
    const View y = make_view(row_major({3, 5}), 4);
    const StepCost d = step_cost(y, parse_op("permute:1,0"), true);
    EXPECT_EQ(d.reads, 15);
    EXPECT_EQ(d.read_bytes, 8);
    EXPECT_EQ(d.write_bytes, 8);
    EXPECT_EQ(step_cost(x, parse_op("permute:0,2,1")).read_bytes, 0);  // a view: nothing moves
}

}  // namespace ll::view
