// `layoutlab tiling --traverse`: the text twin of the tiling panel's traversal
// picture (golden text), its JSON, and the addresses checked against the
// layout's definition.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/process.hpp"

using ll::test::run_layoutlab;

namespace {

nlohmann::json traverse_json(std::vector<std::string> args) {
    args.insert(args.begin(), {"tiling", "--traverse", "--json"});
    const auto r = run_layoutlab(args);
    EXPECT_EQ(r.code, 0) << r.err;
    return nlohmann::json::parse(r.out);
}

}  // namespace

TEST(CliTilingTraverse, GoldenTextNc1hwc0) {
    const auto r = run_layoutlab({"tiling", "--shape", "1,20,6,8", "--layout", "NC1HWC0", "--dtype",
                                  "fp16", "--l1-tile", "16,4,8", "--l2-tile", "8,2,4", "--l1-order",
                                  "W_H_C", "--l2-order", "C_W_H", "--traverse"});
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string golden = ll::test::read_file(std::string(LAYOUTLAB_SOURCE_DIR) +
                                                   "/tests/cli/golden/tiling_traverse_nc1hwc0.txt");
    ASSERT_FALSE(golden.empty());
    EXPECT_EQ(r.out, golden);
}

TEST(CliTilingTraverse, DocumentExampleJson) {
    // Section 15.4.1's shape: 64 tiles of (16,14,14); NCHW vs NHWC addresses.
    for (const char* layout : {"NCHW", "NHWC"}) {
        const auto j = traverse_json({"--layout", layout});
        ASSERT_EQ(j["l1_visits"].size(), 64u);
        ASSERT_EQ(j["l2_visits"].size(), 16u);
        const bool nchw = std::string(layout) == "NCHW";
        // Every visit: origin and the address of its first access, by hand.
        for (const auto& v : j["l1_visits"]) {
            const int64_t c = v["origin"][0], h = v["origin"][1], w = v["origin"][2];
            const int64_t want = nchw ? (c * 56 + h) * 56 + w : (h * 56 + w) * 64 + c;
            EXPECT_EQ(v["offset"].get<int64_t>(), want) << layout;
        }
        // In the first tile (16,14,14), as stored in SRAM.
        for (const auto& v : j["l2_visits"]) {
            const int64_t c = v["origin"][0], h = v["origin"][1], w = v["origin"][2];
            const int64_t want = nchw ? (c * 14 + h) * 14 + w : (h * 14 + w) * 16 + c;
            EXPECT_EQ(v["offset"].get<int64_t>(), want) << layout;
        }
        // W_H_C visits W first: tile 2 sits 14 columns on.
        EXPECT_EQ(j["l1_visits"][1]["origin"], nlohmann::json::array({0, 0, 14}));
        EXPECT_EQ(j["l1_visits"][1]["jump"].get<int64_t>(), nchw ? 14 : 14 * 64);
    }
}

TEST(CliTilingTraverse, OrderChangesTheSequence) {
    const auto w = traverse_json({"--l1-order", "W_H_C"});
    const auto c = traverse_json({"--l1-order", "C_W_H"});
    EXPECT_EQ(w["l1_visits"][1]["origin"], nlohmann::json::array({0, 0, 14}));
    EXPECT_EQ(c["l1_visits"][1]["origin"], nlohmann::json::array({16, 0, 0}));
    EXPECT_EQ(c["l1_visits"][1]["offset"].get<int64_t>(), 16 * 3136);
    // The first tile's inner walk in C_W_H steps C: 3136 elements in NCHW,
    // the stride behind the document's 0.06 efficiency.
    EXPECT_EQ(c["l1_inner"][1].get<int64_t>() - c["l1_inner"][0].get<int64_t>(), 3136);
}

TEST(CliTilingTraverse, BadInputIsExit2) {
    const auto r = run_layoutlab({"tiling", "--traverse", "--layout", "CHWN"});
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find("--layout"), std::string::npos) << r.err;
    const auto t = run_layoutlab({"tiling", "--traverse", "--l1-tile", "0,1,1"});
    EXPECT_EQ(t.code, 2);
}
