// `layoutlab agu`: AGU, DMA (--to) and scatter-gather (--gather) streams.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/process.hpp"

using ll::test::run_layoutlab;
using nlohmann::json;

TEST(CliAgu, DmaDocumentConfiguration) {
    auto r = run_layoutlab(
        {"agu", "--shape", "1,64,56,56", "--layout", "NCHW", "--to", "NHWC", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    json j = json::parse(r.out);
    EXPECT_EQ(j["read"]["strides"], json({200704, 3136, 56, 1}));
    EXPECT_EQ(j["write"]["strides"], json({200704, 1, 3584, 64}));
    EXPECT_EQ(j["read_stats"]["runs"], 1);
    EXPECT_EQ(j["write_stats"]["runs"], 200704);
    EXPECT_EQ(j["stream"].size(), 16u);
    EXPECT_EQ(j["stream"][1], json({1, 4, 64 * 4}));
}

TEST(CliAgu, RawAguAndGather) {
    auto r =
        run_layoutlab({"agu", "--bounds", "2,3", "--strides", "1,2", "--base", "0x100", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    json j = json::parse(r.out);
    EXPECT_EQ(j["stream"][3], json({3, 0x100 + 4}));
    auto g = run_layoutlab(
        {"agu", "--gather", "0,1,2,3,16,17,40", "--width", "4", "--burst", "32", "--json"});
    ASSERT_EQ(g.code, 0) << g.err;
    json k = json::parse(g.out);
    EXPECT_EQ(k["requests"], 2);
    EXPECT_EQ(k["runs"], 3);
    EXPECT_EQ(k["bursts"], 3);
}

TEST(CliAgu, BadInputExit2) {
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"agu"},
             {"agu", "--bounds", "2,3"},
             {"agu", "--bounds", "2,3", "--strides", "1"},
             {"agu", "--gather", "1,x"},
             {"agu", "--gather", "1,2", "--width", "0"},
             {"agu", "--shape", "2,3", "--layout", "ab", "--to", "abc"}}) {
        auto r = run_layoutlab(args);
        EXPECT_EQ(r.code, 2) << r.err;
        EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
    }
}
