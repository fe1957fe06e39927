// `layoutlab plan` and `layoutlab noc` as a user runs them.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/support/process.hpp"

using ll::test::run_layoutlab;

namespace {

bool has(const std::string& text, const std::string& line) {
    return text.find(line) != std::string::npos;
}

std::string write_temp(const std::string& name, const std::string& body) {
    std::string path = ll::test::make_temp_dir() + "/" + name;
    std::ofstream(path) << body;
    return path;
}

}  // namespace

TEST(CliPlan, SectionSixteenExampleText) {
    auto r = run_layoutlab({"plan", "--example", "conv-relu-conv"});
    ASSERT_EQ(r.code, 0) << r.err;
    for (const char* line :
         {"scene: conv1 -> conv2", "tensor shape: (1, 64, 56, 56)", "data size: 784.0 KB",
          "layout mismatch: True", "source layout (NCHW): (0, 1, 2, 3)",
          "target layout (NHWC): (0, 2, 3, 1)", "selected strategy: memory_copy_fused",
          "strategy: memory_copy_fused", "dma_read_strides: (200704, 3136, 56, 1)",
          "dma_write_strides: (200704, 1, 3584, 64)",
          "producer_write_strides: (200704, 3136, 56, 1)",
          "consumer_read_strides: (200704, 1, 3584, 64)",
          "test index (n=0, c=32, h=28, w=28):", "NCHW offset: 101948"})
        EXPECT_TRUE(has(r.out, line)) << line << "\n" << r.out;
}

TEST(CliPlan, SectionSixteenExampleJson) {
    auto r = run_layoutlab({"plan", "--example", "conv-relu-conv", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["strategy"], "memory_copy_fused");
    EXPECT_EQ(j["dma_read_strides"], nlohmann::json({200704, 3136, 56, 1}));
    EXPECT_EQ(j["dma_write_strides"], nlohmann::json({200704, 1, 3584, 64}));
    ASSERT_EQ(j["decisions"].size(), 1u);
    EXPECT_EQ(j["decisions"][0]["consumer_read_strides"], nlohmann::json({200704, 1, 3584, 64}));
    EXPECT_EQ(j["decisions"][0]["address_example"]["source_offset"], 101948);
    EXPECT_EQ(j["mismatch"], true);
}

TEST(CliPlan, GraphFilesFromAssets) {
    std::string dir = std::string(LAYOUTLAB_SOURCE_DIR) + "/assets/graphs/";
    auto r = run_layoutlab({"plan", "--graph", dir + "one_producer_many_consumers.json", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["decisions"].size(), 3u);
    // Section 13.1's write-once rule loses to 3 fused copies in the model: the cost decides.
    for (const auto& d : j["decisions"]) EXPECT_EQ(d["strategy"], "memory_copy_fused");
    EXPECT_FALSE(j.contains("strategy"));  // only single-mismatch graphs carry it on top
    r = run_layoutlab({"plan", "--graph", dir + "many_producers.json", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["strategy"], "consumer_read");
}

TEST(CliPlan, NoDmaFallsBackToStandalone) {
    auto r = run_layoutlab({"plan", "--example", "conv-relu-conv", "--no-dma", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["strategy"], "standalone_transform");
}

TEST(CliPlan, MalformedGraphsExit2NamingTheNode) {
    struct Bad {
        const char* body;
        const char* expect;
    } bad[] = {
        {R"({"nodes":[{"name":"zap","op":"Frobnicate"}]})", "'zap'"},
        {R"({"nodes":[{"name":"x","op":"Input","shape":[1,2,3,4]},
            {"name":"r","op":"ReLU","inputs":["nowhere"]}]})",
         "'r'"},
        {R"({"nodes":[{"name":"x","op":"Input","shape":[4]},
            {"name":"a","op":"Add","inputs":["x","b"]},{"name":"b","op":"ReLU","inputs":["a"]}]})",
         "' is part of a cycle"},
        {R"({"nodes":[{"name":"x","op":"Input","shape":[4,4]},
            {"name":"conv7","op":"Conv","inputs":["x"]}]})",
         "'conv7'"},
        {R"({"nodes":[{"name":"x","op":"Input", )", "bad JSON"},
    };
    for (const auto& b : bad) {
        std::string path = write_temp("g.json", b.body);
        auto r = run_layoutlab({"plan", "--graph", path});
        EXPECT_EQ(r.code, 2) << b.body;
        EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
        EXPECT_TRUE(has(r.err, b.expect)) << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
    }
    auto r = run_layoutlab({"plan"});
    EXPECT_EQ(r.code, 2);
    r = run_layoutlab({"plan", "--example", "nope"});
    EXPECT_EQ(r.code, 2);
    r = run_layoutlab({"plan", "--graph", "/nonexistent/g.json"});
    EXPECT_EQ(r.code, 2);
}

TEST(CliPlan, DecisionsFeedBackIntoPropagation) {
    // conv-chain: the write-time decision at relu1 also settles conv3's edge.
    auto r = run_layoutlab({"plan", "--example", "conv-chain", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["initial_mismatches"], 2);
    ASSERT_EQ(j["decisions"].size(), 1u);
    EXPECT_EQ(j["strategy"], "producer_write");
    r = run_layoutlab({"plan", "--example", "conv-chain"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(has(r.out, "relu2 -> conv3")) << r.out;
    EXPECT_TRUE(has(r.out, "fixed by an earlier decision")) << r.out;
    EXPECT_TRUE(has(r.out, "(NCHW before the decisions)")) << r.out;
    // Picking a read-time transform there leaves conv3's mismatch for round 2.
    r = run_layoutlab(
        {"plan", "--example", "conv-chain", "--pick", "relu1->conv2=consumer_read", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["decisions"].size(), 2u);
    EXPECT_EQ(j["decisions"][0]["strategy"], "consumer_read");
    EXPECT_EQ(j["decisions"][0]["picked"], true);
    EXPECT_EQ(j["decisions"][1]["consumer"], "conv3");
    EXPECT_EQ(j["decisions"][1]["round"], 2);
    for (const char* bad : {"relu1->convX=consumer_read", "relu1->conv2=teleport", "relu1"}) {
        r = run_layoutlab({"plan", "--example", "conv-chain", "--pick", bad});
        EXPECT_EQ(r.code, 2) << bad;
        EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
        EXPECT_TRUE(has(r.err, "--pick")) << r.err;
    }
}

TEST(CliPlan, NocJsonConservesBytes) {
    auto r = run_layoutlab({"noc", "--pes", "4", "--shape", "8,8", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    int64_t sent = 0, recv = 0;
    for (auto v : j["sent"]) sent += v.get<int64_t>();
    for (auto v : j["received"]) recv += v.get<int64_t>();
    EXPECT_EQ(sent, recv);
    EXPECT_EQ(sent + j["local_bytes"].get<int64_t>(), 8 * 8 * 4);
    EXPECT_EQ(j["mesh"], nlohmann::json({2, 2}));
    r = run_layoutlab({"noc", "--pes", "4", "--shape", "8,8"});
    EXPECT_EQ(r.code, 0);
    EXPECT_TRUE(has(r.out, "max link load"));
    r = run_layoutlab({"noc", "--pes", "6", "--mesh-cols", "4"});
    EXPECT_EQ(r.code, 2);
    r = run_layoutlab({"noc", "--shape", "8,8,8"});
    EXPECT_EQ(r.code, 2);
}
