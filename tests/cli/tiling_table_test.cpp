// `tiling --table`: document 003's table 15.4.1 as one table, exported, with
// the fitted settings named and the formula-(8)-only reading one flag away.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/process.hpp"

using ll::test::run_layoutlab;

TEST(CliTilingTable, FourRowsAndTheRatio) {
    auto r = run_layoutlab({"tiling", "--table"});
    ASSERT_EQ(r.code, 0) << r.err;
    for (const char* row : {"| NCHW + W_H_C + W_H_C   | 0.9000  | 0.9000  | 16.06 us",
                            "| NCHW + C_W_H + C_W_H   | 0.0625  | 0.2500  | 154.14 us",
                            "| NHWC + C_W_H + C_W_H   | 0.9000  | 0.9000  | 16.06 us",
                            "| NHWC + W_H_C + W_H_C   | 0.0625  | 0.2500  | 154.14 us"})
        EXPECT_NE(r.out.find(row), std::string::npos) << row << "\n" << r.out;
    EXPECT_NE(r.out.find("9.60x (document: 9.6x)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("access units: DRAM 64 B, SRAM 16 B"), std::string::npos);
    EXPECT_NE(r.out.find("L2 passes: 4"), std::string::npos);
    EXPECT_NE(r.out.find("--formula-only"), std::string::npos);
}

TEST(CliTilingTable, FormulaOnlyJsonAndCsv) {
    auto r = run_layoutlab({"tiling", "--table", "--formula-only", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_TRUE(j["formula_only"].get<bool>());
    EXPECT_EQ(j["fitted_settings"]["l2_passes"], 1);
    ASSERT_EQ(j["rows"].size(), 4u);
    EXPECT_GT(j["ratio"].get<double>(), 100.0);  // formula (8) alone is far from 9.6x
    const std::string dir = ll::test::make_temp_dir();
    r = run_layoutlab({"tiling", "--table", "--csv", dir + "/t.csv"});
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string csv = ll::test::read_file(dir + "/t.csv");
    EXPECT_NE(csv.find("NHWC + W_H_C + W_H_C,0.0625,0.2500,154.14,0.06,0.25,154.1"),
              std::string::npos)
        << csv;
    EXPECT_NE(csv.find("ratio,9.60"), std::string::npos) << csv;
    r = run_layoutlab({"tiling", "--table", "--svg", dir + "/t.svg"});
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
}
