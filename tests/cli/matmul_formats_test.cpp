// `convert` with the Matmul formats and `formats` as a class runs them:
// the CLI conventions, the JSON, and the bad-input messages.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/process.hpp"

using ll::test::run_layoutlab;

TEST(CliMatmulFormats, BsngdToBmnkIsTheBatchOfMatrices) {
    auto r = run_layoutlab({"convert", "--from", "BSNGD", "--to", "BMNK", "--shape", "2,3,2,1,4",
                            "--dtype", "fp16", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["dst_shape"], (std::vector<int64_t>{4, 3, 4}));
    EXPECT_EQ(j["steps"][0]["caption"], "(B, S, N, G, D) -> transpose -> (B, N, G, S, D)");
    // Matrix (b=0, n=1) row 0 is source (b=0, s=0, n=1): element 4.
    EXPECT_EQ(j["src_of_dst"][12], 4);
}

TEST(CliMatmulFormats, HeadsSplitBshAndMoveNothing) {
    auto r = run_layoutlab({"convert", "--from", "BSH", "--to", "BSNGD", "--shape", "2,3,8",
                            "--heads", "2", "--groups", "2", "--dtype", "int8", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["dst_shape"], (std::vector<int64_t>{2, 3, 2, 2, 2}));
    ASSERT_EQ(j["steps"].size(), 1u);
    EXPECT_EQ(j["steps"][0]["kind"], "reshape");
    for (size_t i = 0; i < j["src_of_dst"].size(); ++i) EXPECT_EQ(j["src_of_dst"][i], i);
}

TEST(CliMatmulFormats, BatchMatricesToNzAndTheL0cToL1Resize) {
    auto r = run_layoutlab({"convert", "--from", "SBNGD", "--to", "FRACTAL_NZ", "--shape",
                            "3,2,2,1,4", "--dtype", "fp16"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("(S, B, N, G, D) -> transpose -> (B, N, G, S, D)"), std::string::npos);
    EXPECT_NE(r.out.find("destination: (4,1,1,16,16)"), std::string::npos) << r.out;
    r = run_layoutlab({"convert", "--from", "FRACTAL_NZ", "--to", "FRACTAL_NZ", "--shape", "20,20",
                       "--dtype", "fp32", "--src-fractal", "16x16", "--fractal", "16x8"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("FRACTAL_NZ: M0=16 x N0=16 (1024 bytes); FRACTAL_NZ: M0=16 x N0=8 (512 "
                         "bytes)"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("destination: (3,2,16,8)"), std::string::npos) << r.out;
}

TEST(CliMatmulFormats, NdAlignInt32SevenToEight) {
    auto r = run_layoutlab(
        {"convert", "--from", "ND", "--to", "ND_ALIGN", "--shape", "2,7", "--dtype", "int32"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("[ 0 1 2 3 4 5 6 0]"), std::string::npos) << r.out;
}

TEST(CliMatmulFormats, BadInputSaysWhatIsExpected) {
    struct Case {
        std::vector<std::string> args;
        std::string says;
    };
    const Case cases[] = {
        {{"--from", "BSH", "--to", "BSNGD", "--shape", "2,3,8"}, "--heads: missing"},
        {{"--from", "BSH", "--to", "BSNGD", "--shape", "2,3,8", "--heads", "3"},
         "not a multiple of heads x groups"},
        {{"--from", "BSH", "--to", "SBH", "--shape", "2,3,8", "--heads", "2"}, "--heads/--groups"},
        {{"--from", "BSNGD", "--to", "BMNK", "--shape", "2,3"}, "--shape"},
        {{"--from", "BSH", "--to", "NCHW", "--shape", "2,3,4"}, "no conversion from BSH to NCHW"},
        {{"--from", "ND", "--to", "FRACTAL_NZ", "--shape", "4,4", "--src-fractal", "16x16"},
         "--src-fractal"},
        {{"--from", "NZ", "--to", "NZ", "--shape", "4,4", "--src-fractal", "16"}, "--src-fractal"},
    };
    for (const Case& c : cases) {
        std::vector<std::string> a = {"convert", "--dtype", "fp16"};
        a.insert(a.end(), c.args.begin(), c.args.end());
        auto r = run_layoutlab(a);
        EXPECT_EQ(r.code, 2) << c.says;
        EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
        EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    }
}

TEST(CliFormats, ListsEveryFormatWithAxesFormulaAndDtypes) {
    auto r = run_layoutlab({"formats", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["formats"].size(), 23u);  // with the blocked NCHW16C and NCHW8H8W
    bool saw_nz = false, saw_bsngd = false;
    for (const auto& f : j["formats"]) {
        EXPECT_FALSE(f["axes"].empty()) << f["name"];
        EXPECT_FALSE(f["formula"].get<std::string>().empty()) << f["name"];
        EXPECT_EQ(f["dtypes"].size(), j["dtypes"].size()) << f["name"];
        if (f["name"] == "FRACTAL_NZ") {
            saw_nz = true;
            EXPECT_EQ(f["dtypes"][1]["name"], "int8");
            EXPECT_EQ(f["dtypes"][1]["size"], "16x32");
        }
        if (f["name"] == "BSNGD") {
            saw_bsngd = true;
            EXPECT_EQ(f["formula"],
                      "BSNGD -> BMNK: (B, S, N, G, D) -> transpose -> (B, N, G, S, D) -> reshape "
                      "-> (B*N*G, M, K)");
        }
    }
    EXPECT_TRUE(saw_nz && saw_bsngd);
    r = run_layoutlab({"formats"});
    ASSERT_EQ(r.code, 0);
    EXPECT_NE(r.out.find("ND -> FRACTAL_NZ: (..., B, M, N) -> pad"), std::string::npos);
    EXPECT_NE(r.out.find("VECTOR -> FRACTAL_NZ: (K) -> reshape -> (1, K)"), std::string::npos);
    EXPECT_NE(r.out.find("NCHW -> NCHW16C: (N, C, H, W) -> pad"), std::string::npos) << r.out;
}
