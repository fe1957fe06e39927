// `layoutlab img2col`: the documents' 3x3 / 2x2 example, implicit lookups,
// bad parameters.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/process.hpp"

using ll::test::run_layoutlab;
using nlohmann::json;

TEST(CliImg2col, DocumentExample) {
    auto r = run_layoutlab({"img2col", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    json j = json::parse(r.out);
    EXPECT_EQ(j["input_elements"], 9);
    EXPECT_EQ(j["matrix_elements"], 16);
    EXPECT_EQ(j["max_reuse"], 4);
    EXPECT_EQ(j["reuse"][4], 4);
    EXPECT_EQ(j["matrix"], json({0, 1, 3, 4, 1, 2, 4, 5, 3, 4, 6, 7, 4, 5, 7, 8}));
}

TEST(CliImg2col, ImplicitMatchesExplicit) {
    std::vector<std::string> base = {"img2col", "--c",      "2",   "--h",        "5",  "--w",
                                     "4",       "--kh",     "3",   "--kw",       "2",  "--pad",
                                     "1,0,0,1", "--stride", "2,1", "--dilation", "1,2"};
    auto args = base;
    args.push_back("--json");
    auto r = run_layoutlab(args);
    ASSERT_EQ(r.code, 0) << r.err;
    json j = json::parse(r.out);
    int64_t rows = j["matrix_shape"][0], cols = j["matrix_shape"][1];
    for (int64_t row = 0; row < rows; row += 3)
        for (int64_t col = 0; col < cols; col += 5) {
            auto q = base;
            q.insert(q.end(), {"--at", std::to_string(row) + "," + std::to_string(col), "--json"});
            auto a = run_layoutlab(q);
            ASSERT_EQ(a.code, 0) << a.err;
            EXPECT_EQ(json::parse(a.out)["source"], j["matrix"][size_t(row * cols + col)]);
        }
}

TEST(CliImg2col, BadParametersExit2) {
    for (auto args : std::vector<std::vector<std::string>>{{"img2col", "--stride", "0"},
                                                           {"img2col", "--kh", "4"},
                                                           {"img2col", "--at", "4,0"},
                                                           {"img2col", "--pad", "-1"}}) {
        auto r = run_layoutlab(args);
        EXPECT_EQ(r.code, 2) << args[1];
        EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
    }
}
