// Layout propagation rules (section 6.2) on hand-built graphs.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "core/netplan/examples.hpp"
#include "core/netplan/propagate.hpp"

using namespace ll::netplan;

namespace {

Propagation run(const std::string& text) {
    return propagate(parse_graph_text(text));
}

const NodeLayout& node(const std::string& text, const Propagation& p, const std::string& n) {
    return p.nodes[size_t(parse_graph_text(text).index_of(n))];
}

std::string error_of(const std::string& text) {
    try {
        run(text);
    } catch (const ll::UsageError& e) {
        return e.what();
    }
    return "";
}

const char* kChain = R"({"nodes":[
    {"name":"x","op":"Input","shape":[1,8,4,4],"layout":"NHWC"},
    {"name":"r","op":"ReLU","inputs":["x"]},
    {"name":"m","op":"Mul","inputs":["r","x"]},
    {"name":"c","op":"Conv","inputs":["m"],"input_layouts":["NHWC"],"shape":[1,16,4,4]}]})";

}  // namespace

TEST(NetplanPropagation, OrderNamesAndStrides) {
    EXPECT_EQ(order_from_name("NHWC", 4, "t"), (Order{0, 2, 3, 1}));
    EXPECT_EQ(order_name({0, 2, 3, 1}), "NHWC");
    EXPECT_EQ(order_name({1, 0}), "(1,0)");
    EXPECT_EQ(order_name({0, 1}), "ND");
    EXPECT_THROW(order_from_name("NHWX", 4, "t"), ll::UsageError);
    EXPECT_THROW(order_from_name("NHW", 4, "t"), ll::UsageError);
    // Every layout is a bijection onto 0..numel-1 (packed).
    ll::Shape s{2, 3, 4, 5};
    for (const char* n : {"NCHW", "NHWC", "CHWN", "WHCN"}) {
        auto st = order_strides(s, order_from_name(n, 4, "t"));
        std::vector<int> hits(120, 0);
        for (int64_t i = 0; i < 120; ++i) ++hits[size_t(offset_of(ll::unravel(i, s), st))];
        for (int h : hits) EXPECT_EQ(h, 1) << n;
    }
}

TEST(NetplanPropagation, ElementwiseIsIdentityAndConvKeepsWhatItReads) {
    Propagation p = run(kChain);
    EXPECT_EQ(order_name(node(kChain, p, "r").layout), "NHWC");
    EXPECT_EQ(order_name(node(kChain, p, "m").layout), "NHWC");
    EXPECT_EQ(order_name(node(kChain, p, "c").layout), "NHWC");
    EXPECT_EQ(node(kChain, p, "c").shape, (ll::Shape{1, 16, 4, 4}));
    EXPECT_TRUE(p.mismatches.empty());
}

TEST(NetplanPropagation, SecondElementwiseInputMustFollowTheFirst) {
    const char* g = R"({"nodes":[
        {"name":"a","op":"Input","shape":[1,8,4,4]},
        {"name":"b","op":"Input","shape":[1,8,4,4],"layout":"NHWC"},
        {"name":"s","op":"Add","inputs":["a","b"]}]})";
    Propagation p = run(g);
    ASSERT_EQ(p.mismatches.size(), 1u);
    const Edge& e = p.edges[p.mismatches[0]];
    EXPECT_EQ(e.slot, 1);
    EXPECT_EQ(order_name(e.produced), "NHWC");
    EXPECT_EQ(order_name(*e.expected), "NCHW");
}

TEST(NetplanPropagation, TransposeIsZeroCopyOnEveryElement) {
    const char* g = R"({"nodes":[
        {"name":"x","op":"Input","shape":[2,3,4,5],"layout":"NHWC"},
        {"name":"t","op":"Transpose","inputs":["x"],"perm":[3,1,0,2]}]})";
    Propagation p = run(g);
    const NodeLayout& x = p.nodes[0];
    const NodeLayout& t = p.nodes[1];
    EXPECT_EQ(t.shape, (ll::Shape{5, 3, 2, 4}));
    const Order perm{3, 1, 0, 2};
    auto sx = order_strides(x.shape, x.layout);
    auto st = order_strides(t.shape, t.layout);
    // out[c] is in[c permuted back]: both must sit at the same offset.
    for (int64_t i = 0; i < ll::numel(t.shape); ++i) {
        ll::Coord c = ll::unravel(i, t.shape), ci(4);
        for (size_t k = 0; k < 4; ++k) ci[size_t(perm[k])] = c[k];
        EXPECT_EQ(offset_of(c, st), offset_of(ci, sx)) << i;
    }
}

TEST(NetplanPropagation, TransposeThenConvCanMatchWithoutAnyCopy) {
    // An NCHW tensor viewed through perm (0,2,3,1) is (N,H,W,C) logically;
    // transposing back by (0,3,1,2) returns the NCHW order unchanged.
    const char* g = R"({"nodes":[
        {"name":"x","op":"Input","shape":[1,8,6,6]},
        {"name":"t1","op":"Transpose","inputs":["x"],"perm":[0,2,3,1]},
        {"name":"t2","op":"Transpose","inputs":["t1"],"perm":[0,3,1,2]},
        {"name":"c","op":"Conv","inputs":["t2"]}]})";
    Propagation p = run(g);
    EXPECT_EQ(p.nodes[2].layout, (Order{0, 1, 2, 3}));
    EXPECT_EQ(p.nodes[1].layout, (Order{0, 3, 1, 2}));
    EXPECT_TRUE(p.mismatches.empty());
}

TEST(NetplanPropagation, ReshapeForcesContiguity) {
    const char* g = R"({"nodes":[
        {"name":"x","op":"Input","shape":[1,8,4,4],"layout":"NHWC"},
        {"name":"flat","op":"Reshape","inputs":["x"],"shape":[1,128]}]})";
    Propagation p = run(g);
    ASSERT_EQ(p.mismatches.size(), 1u);
    EXPECT_EQ(order_name(*p.edges[p.mismatches[0]].expected), "NCHW");
    EXPECT_EQ(order_name(p.nodes[1].layout), "ND");
    // From a row-major producer the reshape is free.
    const char* ok = R"({"nodes":[
        {"name":"x","op":"Input","shape":[1,8,4,4]},
        {"name":"flat","op":"Reshape","inputs":["x"],"shape":[8,16]}]})";
    EXPECT_TRUE(run(ok).mismatches.empty());
}

TEST(NetplanPropagation, ConcatWantsOneLayout) {
    const char* g = R"({"nodes":[
        {"name":"a","op":"Input","shape":[1,8,4,4],"layout":"NHWC"},
        {"name":"b","op":"Input","shape":[1,4,4,4]},
        {"name":"cat","op":"Concat","inputs":["a","b"],"axis":1}]})";
    Propagation p = run(g);
    EXPECT_EQ(p.nodes[2].shape, (ll::Shape{1, 12, 4, 4}));
    EXPECT_EQ(order_name(p.nodes[2].layout), "NHWC");
    ASSERT_EQ(p.mismatches.size(), 1u);
    EXPECT_EQ(p.edges[p.mismatches[0]].producer, 1);
}

TEST(NetplanPropagation, MatMulShapesAndOperandLayouts) {
    const char* g = R"({"nodes":[
        {"name":"a","op":"Input","shape":[16,32]},
        {"name":"w","op":"Weight","shape":[32,8],"layout":[1,0]},
        {"name":"mm","op":"MatMul","inputs":["a","w"]}]})";
    Propagation p = run(g);
    EXPECT_EQ(p.nodes[2].shape, (ll::Shape{16, 8}));
    ASSERT_EQ(p.mismatches.size(), 1u);
    EXPECT_EQ(p.edges[p.mismatches[0]].slot, 1);
}

TEST(NetplanPropagation, SectionSixteenSceneHasOneMismatchFromConv1) {
    Graph g = example_graph("conv-relu-conv");
    Propagation p = propagate(g);
    ASSERT_EQ(p.mismatches.size(), 1u);
    const Edge& e = p.edges[p.mismatches[0]];
    EXPECT_EQ(g.nodes[size_t(e.producer)].name, "relu");
    EXPECT_EQ(g.nodes[size_t(e.consumer)].name, "conv2");
    EXPECT_EQ(e.origin, "conv1");
    EXPECT_EQ(e.produced, (Order{0, 1, 2, 3}));
    EXPECT_EQ(*e.expected, (Order{0, 2, 3, 1}));
}

TEST(NetplanPropagation, RankMismatchesNameTheNode) {
    std::string e = error_of(R"({"nodes":[{"name":"x","op":"Input","shape":[8,8]},
        {"name":"conv9","op":"Conv","inputs":["x"]}]})");
    EXPECT_NE(e.find("'conv9'"), std::string::npos) << e;
    EXPECT_NE(e.find("rank"), std::string::npos) << e;
    e = error_of(R"({"nodes":[{"name":"x","op":"Input","shape":[2,3]},
        {"name":"y","op":"Input","shape":[2,3,1]},{"name":"s","op":"Add","inputs":["x","y"]}]})");
    EXPECT_NE(e.find("'s'"), std::string::npos) << e;
    e = error_of(R"({"nodes":[{"name":"x","op":"Input","shape":[2,3]},
        {"name":"t","op":"Transpose","inputs":["x"],"perm":[0,1,2]}]})");
    EXPECT_NE(e.find("'t'"), std::string::npos) << e;
    e = error_of(R"({"nodes":[{"name":"x","op":"Input","shape":[2,3],"layout":"NHWC"}]})");
    EXPECT_NE(e.find("'x'"), std::string::npos) << e;
    e = error_of(R"({"nodes":[{"name":"x","op":"Input","shape":[2,3]},
        {"name":"rs","op":"Reshape","inputs":["x"],"shape":[7]}]})");
    EXPECT_NE(e.find("'rs'"), std::string::npos) << e;
}
