// Operator graphs: parsing, validation (each malformed case names the node),
// topological order, round trips, and the shipped example files.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "core/netplan/examples.hpp"
#include "core/netplan/graph.hpp"

using namespace ll::netplan;

namespace {

std::string error_of(const std::string& text) {
    try {
        parse_graph_text(text);
    } catch (const ll::UsageError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(NetplanGraph, ParsesAndSortsTopologically) {
    Graph g = parse_graph_text(R"({"name":"t","nodes":[
        {"name":"b","op":"ReLU","inputs":["a"]},
        {"name":"a","op":"Input","shape":[2,3]},
        {"name":"c","op":"Add","inputs":["a","b"]}]})");
    ASSERT_EQ(g.nodes.size(), 3u);
    EXPECT_EQ(g.nodes[0].name, "a");
    EXPECT_EQ(g.nodes[1].name, "b");
    EXPECT_EQ(g.nodes[2].name, "c");
    EXPECT_EQ(g.nodes[2].op, OpKind::Add);
    // Every input is defined before its user.
    for (size_t i = 0; i < g.nodes.size(); ++i)
        for (const auto& in : g.nodes[i].inputs) EXPECT_LT(g.index_of(in), int(i));
}

TEST(NetplanGraph, RoundTripsThroughJson) {
    for (const auto& name : example_names()) {
        Graph g = example_graph(name);
        Graph back = parse_graph(graph_to_json(g));
        EXPECT_EQ(graph_to_json(back), graph_to_json(g)) << name;
    }
}

TEST(NetplanGraph, UnknownOpNamesTheNode) {
    std::string e = error_of(R"({"nodes":[{"name":"frob","op":"Softmax2"}]})");
    EXPECT_NE(e.find("'frob'"), std::string::npos) << e;
    EXPECT_NE(e.find("unknown op 'Softmax2'"), std::string::npos) << e;
}

TEST(NetplanGraph, DanglingEdgeNamesTheNode) {
    std::string e = error_of(R"({"nodes":[{"name":"x","op":"Input","shape":[4]},
        {"name":"r","op":"ReLU","inputs":["ghost"]}]})");
    EXPECT_NE(e.find("'r'"), std::string::npos) << e;
    EXPECT_NE(e.find("ghost"), std::string::npos) << e;
    EXPECT_NE(e.find("dangling"), std::string::npos) << e;
}

TEST(NetplanGraph, CycleNamesANodeOnIt) {
    std::string e = error_of(R"({"nodes":[{"name":"x","op":"Input","shape":[4]},
        {"name":"p","op":"Add","inputs":["x","q"]},
        {"name":"q","op":"ReLU","inputs":["p"]}]})");
    EXPECT_NE(e.find("cycle"), std::string::npos) << e;
    EXPECT_TRUE(e.find("'p'") != std::string::npos || e.find("'q'") != std::string::npos) << e;
}

TEST(NetplanGraph, OtherMalformedGraphs) {
    EXPECT_NE(error_of("{\"nodes\": [").find("bad JSON"), std::string::npos);
    EXPECT_NE(error_of(R"({"nodes":[{"name":"a","op":"Input","shape":[2]},
        {"name":"a","op":"Input","shape":[2]}]})")
                  .find("twice"),
              std::string::npos);
    EXPECT_NE(error_of(R"({"nodes":[{"name":"a","op":"Input","shape":[2]},
        {"name":"m","op":"MatMul","inputs":["a"]}]})")
                  .find("'m'"),
              std::string::npos);
    EXPECT_NE(error_of(R"({"nodes":[{"name":"in","op":"Input"}]})").find("'in'"),
              std::string::npos);
    EXPECT_NE(error_of(R"({"nodes":[{"name":"in","op":"Input","shape":[0,2]}]})").find("'in'"),
              std::string::npos);
    EXPECT_NE(error_of(R"({"graph":[]})").find("nodes"), std::string::npos);
}

TEST(NetplanGraph, ShippedAssetsMatchBuiltInExamples) {
    const char* files[] = {"conv_relu_conv", "one_producer_many_consumers", "many_producers",
                           "conv_chain"};
    const auto names = example_names();
    ASSERT_EQ(names.size(), 4u);
    for (size_t i = 0; i < 4; ++i) {
        Graph file = load_graph_file(std::string(LAYOUTLAB_SOURCE_DIR) + "/assets/graphs/" +
                                     files[i] + ".json");
        EXPECT_EQ(graph_to_json(file), graph_to_json(example_graph(names[i]))) << files[i];
    }
    EXPECT_THROW(example_graph("nope"), ll::UsageError);
}
