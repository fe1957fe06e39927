// The GPU side of document 004 from the command line: `winograd` (counts,
// tile, check, keyed errors) and `cudnn` (the time-share table and its plot).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/process.hpp"

using ll::test::run_layoutlab;

TEST(CliWinograd, TextNamesTheCountsAndTheCheck) {
    auto r = run_layoutlab({"winograd"});
    ASSERT_EQ(r.code, 0) << r.err;
    for (const char* s :
         {"Winograd 16 ((2+3-1)^2), direct 36 (2^2 x 3^2)",
          "Winograd 64, direct 144, im2col + GEMM 144 (2.25x fewer", "im2col matrix: 16 x 9",
          "data 32 additions per tile", "max |Winograd - direct| = 0 -> equal", "U = G g G^T"})
        EXPECT_NE(r.out.find(s), std::string::npos) << s << "\n" << r.out;
}

TEST(CliWinograd, JsonOnRealValues) {
    auto r =
        run_layoutlab({"winograd", "--height", "9", "--width", "7", "--channels", "3", "--filters",
                       "2", "--reals", "--seed", "5", "--tile-row", "3", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["output"]["height"], 7);
    EXPECT_EQ(j["tiles"]["count"], 4 * 3);
    EXPECT_EQ(j["multiplications"]["winograd"], 12 * 16 * 6);
    EXPECT_EQ(j["multiplications"]["direct"], 7 * 5 * 9 * 6);
    EXPECT_TRUE(j["check"]["equal"].get<bool>());
    EXPECT_LT(j["check"]["max_abs_diff"].get<double>(), 1e-12);
    for (int i = 0; i < 2; ++i)
        for (int k = 0; k < 2; ++k)
            EXPECT_NEAR(j["tile"]["Y"][i][k].get<double>(),
                        j["tile"]["Y_direct"][i][k].get<double>(), 1e-12);
    EXPECT_EQ(j["values"], "reals");
}

TEST(CliWinograd, BadInputNamesTheFlag) {
    auto r = run_layoutlab({"winograd", "--tile-col", "9"});
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err.rfind("error: --tile-col: 9 is out of range", 0), 0u) << r.err;
    r = run_layoutlab({"winograd", "--height", "2"});
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err.rfind("error: --height:", 0), 0u) << r.err;
}

TEST(CliCudnn, TableJsonAndPlot) {
    auto r = run_layoutlab({"cudnn"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("| Tensor Core | im2col + GEMM | nchwToNhwc/nhwcToNchw"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("|    79.27 |  11.0% |     11% |"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Tensor Core, im2col + GEMM total   720.10, layout transform 11.0%"),
              std::string::npos)
        << r.out;
    r = run_layoutlab({"cudnn", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["runs"].size(), 4u);
    EXPECT_NEAR(j["runs"][2]["layout_transform_share"].get<double>(), 0.1101, 1e-4);
    const std::string dir = ll::test::make_temp_dir();
    r = run_layoutlab(
        {"cudnn", "--svg", dir + "/t.svg", "--png", dir + "/t.png", "--csv", dir + "/t.csv"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(ll::test::read_file(dir + "/t.svg").find("<svg"), std::string::npos);
    EXPECT_EQ(ll::test::read_file(dir + "/t.png").substr(1, 3), "PNG");
    const std::string csv = ll::test::read_file(dir + "/t.csv");
    EXPECT_NE(csv.find("layout transform (NCHW<->NHWC)"), std::string::npos) << csv;
    r = run_layoutlab({"cudnn", "--png", "/nonexistent-dir/x.png"});
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
}

TEST(CliSystolic, SummaryStateAndPlan) {
    auto r = run_layoutlab({"systolic"});
    ASSERT_EQ(r.code, 0) << r.err;
    for (const char* s : {"systolic array: 16 cycles (4 loading weights, 12 streaming), 96 MACs, "
                          "utilisation 37.5%",
                          "Cube (fp16, 16x16x16 a cycle): 1 x 1 x 1 = 1 fractal steps = 1 cycles, "
                          "utilisation 2.3%",
                          "register simulation equals the direct product; last sum left the array "
                          "in cycle 15"})
        EXPECT_NE(r.out.find(s), std::string::npos) << s << "\n" << r.out;
    r = run_layoutlab({"systolic", "--cycle", "7", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    // Cycle 7 = streaming cycle 3: PE(i, j) busy when 0 <= 3 - i - j < 6.
    EXPECT_EQ(j["state"]["active_pes"], 10);
    EXPECT_EQ(j["state"]["pe_rows_m"][0], 3);
    EXPECT_TRUE(j["check"]["equal"].get<bool>());
    r = run_layoutlab(
        {"systolic", "--m", "3", "--k", "2", "--n", "2", "--rows", "2", "--cols", "2", "--plan"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("loading weights"), std::string::npos) << r.out;
    r = run_layoutlab({"systolic", "--rows", "0"});
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err.rfind("error: --rows: 0 is out of range", 0), 0u) << r.err;
    r = run_layoutlab({"systolic", "--cycle", "99"});
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err.rfind("error: --cycle:", 0), 0u) << r.err;
}

TEST(CliTensorCore, TileAndCounts) {
    auto r = run_layoutlab({"tensorcore"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("check: D equals the direct product"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("64 Tensor Core operations (utilisation 100.0%) against 1 Cube steps"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("a 4x4 operand spans 4 fractal rows"), std::string::npos) << r.out;
    r = run_layoutlab({"tensorcore", "--m", "100", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["tensor_core"]["ops"], 25 * 4 * 4);
    EXPECT_EQ(j["cube"]["steps"], 7);
    r = run_layoutlab({"tensorcore", "--k", "0"});
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err.rfind("error: --k:", 0), 0u) << r.err;
}

TEST(CliHardware, TablesLinkToPanelsAndCommandsThatWork) {
    auto r = run_layoutlab({"hardware"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("Intel CPU (MKL-DNN)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("all matched vs all mismatched: 9.60x (document: 9.6x)"),
              std::string::npos)
        << r.out;
    r = run_layoutlab({"hardware", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["tables"].size(), 3u);
    int commands = 0;
    for (const auto& t : j["tables"])
        for (const auto& row : t["rows"]) {
            // Every linked command runs: "layoutlab a b c" -> run_layoutlab({a, b, c}).
            std::string cli = row["cli"].get<std::string>();
            ASSERT_EQ(cli.rfind("layoutlab ", 0), 0u) << cli;
            std::vector<std::string> args;
            size_t p = 10;
            while (p < cli.size()) {
                const size_t q = cli.find(' ', p);
                args.push_back(cli.substr(p, q == std::string::npos ? std::string::npos : q - p));
                p = q == std::string::npos ? cli.size() : q + 1;
            }
            auto rr = run_layoutlab(args);
            EXPECT_EQ(rr.code, 0) << cli << "\n" << rr.err;
            ++commands;
        }
    EXPECT_EQ(commands, 12);
    EXPECT_EQ(j["tables"][2]["rows"][1]["panel"], "tiling");
    EXPECT_EQ(j["tables"][2]["rows"][1]["settings"]["l1_order"], "C_W_H");
    r = run_layoutlab({"hardware", "--table", "9.9"});
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err.rfind("error: --table:", 0), 0u) << r.err;
}

TEST(CliScatter, ConflictsAndPartialBursts) {
    auto r = run_layoutlab({"scatter", "--indices", "0,1,2,3,8,8", "--width", "4"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find(" runs, 2 bursts, 2 partial (masked write"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("index 8 written by source 4 5 -> holds 5"), std::string::npos) << r.out;
    r = run_layoutlab({"scatter", "--indices", "0,1,x"});
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err.rfind("error: --indices: 'x'", 0), 0u) << r.err;
    r = run_layoutlab({"scatter", "--indices", "3,2,1,0", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["dst"], nlohmann::json::parse("[3,2,1,0]"));
    r = run_layoutlab({"scatter", "--indices", "0,1,2,3,8,8", "--width", "4", "--plan", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const auto plan = nlohmann::json::parse(r.out)["plan"];
    ASSERT_EQ(plan["stages"].size(), 2u);
    EXPECT_EQ(plan["stages"][1]["label"], "memory");
}
