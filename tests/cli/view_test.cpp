// `layoutlab view`: JSON fields, the seed document's numbers, error exits.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/cli.hpp"
#include "tests/support/process.hpp"

using ll::test::run_layoutlab;
using nlohmann::json;

namespace {

json view_json(const std::vector<std::string>& args) {
    return ll::test::command_json("view", args);
}

}  // namespace

TEST(CliView, TransposeKeepsStorage) {
    json j = view_json({"--shape", "2,3,4", "--op", "transpose:1,2"});
    EXPECT_EQ(j["shape"], json({2, 4, 3}));
    EXPECT_EQ(j["strides"], json({12, 1, 4}));
    EXPECT_EQ(j["offset"], 0);
    EXPECT_EQ(j["copied"], false);
    EXPECT_EQ(j["contiguous"], false);
    EXPECT_EQ(j["input"]["strides"], json({12, 4, 1}));
    ASSERT_EQ(j["steps"].size(), 1u);
}

TEST(CliView, SliceOffsetAndAddress) {
    json j = view_json(
        {"--shape", "10,20", "--op", "slice:2:8,5:15", "--index", "1,2", "--base", "0x1000"});
    EXPECT_EQ(j["offset"], 45);
    EXPECT_EQ(j["shape"], json({6, 10}));
    EXPECT_EQ(j["strides"], json({20, 1}));
    EXPECT_EQ(j["element_offset"], 45 + 20 + 2);
    EXPECT_EQ(j["address"], 0x1000 + 67 * 4);
    json s = view_json({"--shape", "10,20", "--op", "slice:0:10:2,:"});
    EXPECT_EQ(s["strides"], json({40, 1}));
}

TEST(CliView, ReshapeOfTransposedCopies) {
    json j = view_json({"--shape", "2,3,4", "--op", "transpose:1,2", "--op", "reshape:6,4"});
    EXPECT_EQ(j["copied"], true);
    EXPECT_EQ(j["contiguous"], true);
    EXPECT_EQ(j["strides"], json({4, 1}));
    EXPECT_EQ(j["steps"][0]["copied"], false);
    EXPECT_EQ(j["steps"][1]["copied"], true);
    json c = view_json({"--shape", "2,3,4", "--op", "reshape:6,4"});
    EXPECT_EQ(c["copied"], false);
}

TEST(CliView, ExpandHasZeroStride) {
    json j = view_json({"--shape", "3", "--op", "expand:4,3"});
    EXPECT_EQ(j["strides"], json({0, 1}));
    EXPECT_EQ(j["copied"], false);
}

// The seed document's (1,64,56,56) tensor, index (0,32,28,28).
TEST(CliView, DocumentNchwNhwcOffsets) {
    json a = view_json({"--shape", "1,64,56,56", "--layout", "NCHW", "--index", "0,32,28,28"});
    EXPECT_EQ(a["element_offset"], 101948);
    json b = view_json({"--shape", "1,64,56,56", "--layout", "NHWC", "--index", "0,32,28,28"});
    EXPECT_EQ(b["strides"], json({200704, 1, 3584, 64}));
    EXPECT_EQ(b["element_offset"], 102176);  // the document prints 101920: see docs/ERRATA.md
    json p = view_json({"--shape", "1,64,56,56", "--layout", "0,2,3,1"});
    EXPECT_EQ(p["strides"], b["strides"]);
}

TEST(CliView, TextShowsStepsAndGrid) {
    auto r =
        run_layoutlab({"view", "--shape", "2,3,4", "--op", "transpose:1,2", "--op", "reshape:6,4"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("(2,4,3):(12,1,4)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("COPY"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("20 21 22 23"), std::string::npos) << r.out;
    auto h = run_layoutlab({"view", "--help"});
    EXPECT_NE(h.out.find("slice:0:10:2,:"), std::string::npos) << h.out;
}

TEST(CliView, InvalidOpsExit2) {
    const std::vector<std::vector<std::string>> bad = {
        {"--shape", "2,3,4", "--op", "permute:0,1,1"},
        {"--shape", "10,20", "--op", "slice:2:11"},
        {"--shape", "2,3,4", "--op", "reshape:5,5"},
        {"--shape", "2,3", "--op", "expand:4,3"},
        {"--shape", "2,3", "--op", "flip:0"},
        {"--shape", "2,3", "--op", "slice:1-2"},
        {"--shape", "2,3", "--index", "2,0"},
        {"--shape", "2,3", "--layout", "NCHW"},
        {"--shape", "2,3", "--dtype", "fp16", "--elem-size", "2"},
        {"--shape", "2,3", "--base", "0xzz"},
    };
    for (const auto& args : bad) {
        std::vector<std::string> a{"view"};
        a.insert(a.end(), args.begin(), args.end());
        auto r = run_layoutlab(a);
        EXPECT_EQ(r.code, 2) << args[3];
        EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
        EXPECT_NE(r.err.find("expected"), std::string::npos) << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
    }
    auto r = run_layoutlab({"view", "--shape", "2,3,4", "--op", "permute:0,1,1"});
    EXPECT_NE(r.err.find("permute:0,1,1"), std::string::npos) << r.err;
}
