// The text twins of the compute pictures: `conv --occupancy` prints the conv
// panel's buffer occupancy, `cube --step --plan` the Cube panel's picture.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/process.hpp"

using ll::test::run_layoutlab;
using nlohmann::json;

// The case study (fp16): per buffer capacity, the bytes the whole problem
// needs there and whether it must be tiled, by hand from the shapes:
//   A1 = 10*2*28*28*16*2, B1 = B2 = 18*4*16*16*2, A2 = 10*49*18*16*16*2,
//   CO1 = 4*490*16*16*4 (32-bit accumulators).
TEST(CliTwins, ConvOccupancyJson) {
    auto r = run_layoutlab({"conv", "--occupancy", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const json occ = json::parse(r.out).at("occupancy");
    ASSERT_EQ(occ.size(), 5u);
    const struct {
        const char* name;
        int64_t cap, need;
        bool tile;
    } want[] = {{"A1", 1 << 20, 501760, false},
                {"B1", 1 << 20, 36864, false},
                {"A2", 64 << 10, 4515840, true},
                {"B2", 64 << 10, 36864, false},
                {"CO1", 256 << 10, 2007040, true}};
    for (size_t i = 0; i < 5; ++i) {
        EXPECT_EQ(occ[i]["buffer"], want[i].name);
        EXPECT_EQ(occ[i]["capacity_bytes"], want[i].cap) << want[i].name;
        EXPECT_EQ(occ[i]["need_bytes"], want[i].need) << want[i].name;
        EXPECT_EQ(occ[i]["must_tile"], want[i].tile) << want[i].name;
    }
}

TEST(CliTwins, ConvOccupancyTextAndInt8) {
    auto r = run_layoutlab({"conv", "--occupancy"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("A2   L0A  A fractals                  65536      4515840"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("must be tiled"), std::string::npos);
    // int8: one byte per element, C0 = 32 (A fractals 10*49*9*16*32).
    auto i8 = run_layoutlab({"conv", "--occupancy", "--json", "--dtype", "int8"});
    ASSERT_EQ(i8.code, 0) << i8.err;
    const json occ = json::parse(i8.out).at("occupancy");
    EXPECT_EQ(occ[2]["need_bytes"], 10 * 49 * 9 * 16 * 32);
    EXPECT_EQ(occ[4]["need_bytes"], 4 * 490 * 16 * 16 * 4);
    // The small example fits everywhere.
    auto s = run_layoutlab({"conv", "--occupancy", "--json", "--n", "1", "--cin", "3", "--cout",
                            "4", "--h", "6", "--w", "6"});
    ASSERT_EQ(s.code, 0) << s.err;
    // Keep the parsed document alive: a range-for over .at() of a temporary
    // would iterate freed memory.
    const json small = json::parse(s.out);
    for (const json& b : small.at("occupancy")) EXPECT_FALSE(b["must_tile"]) << b;
}

// Step 13 of M1 4 x K1 3 x N1 2 is k 1, n 1, m 1: A fractal 4, B 3, C 5.
TEST(CliTwins, CubeStepAndPlan) {
    auto r = run_layoutlab({"cube", "--step", "13", "--plan", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["steps"], 24);
    EXPECT_EQ(j["macs"], 13 * 4096);
    EXPECT_EQ(j["current"]["k"], 1);
    EXPECT_EQ(j["current"]["a_fractal"], 4);
    EXPECT_EQ(j["current"]["b_fractal"], 3);
    EXPECT_EQ(j["current"]["c_fractal"], 5);
    ASSERT_EQ(j["values"]["before"].size(), 16u);
    EXPECT_EQ(j["plan"]["cell_count"], 12 + 6 + 8);
    // B's 3 rows, 3 free rows (A's header and k ticks), A's and C's 4 rows.
    EXPECT_EQ(j["plan"]["stages"][0]["shape"], json({10, 6}));
    auto t = run_layoutlab({"cube", "--step", "13"});
    ASSERT_EQ(t.code, 0) << t.err;
    EXPECT_NE(t.out.find("C[n1][m1] += A[m1][k1] x B[k1][n1]"), std::string::npos) << t.out;
}

TEST(CliTwins, CubeBadInputIsAUsageError) {
    for (auto args : {std::vector<std::string>{"cube", "--m1", "0"},
                      std::vector<std::string>{"cube", "--step", "25"},
                      std::vector<std::string>{"cube", "--dtype", "fp32"}}) {
        auto r = run_layoutlab(args);
        EXPECT_EQ(r.code, 2) << args[1];
        EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
    }
}
