// `convert --bench-all` and `--threads`: the table's shape (one row per
// selected pair and dtype, forward and inverse, a summary line), its JSON,
// bad values rejected with exit 2, and the same bytes for any thread count.
#include <gtest/gtest.h>

#include "core/dtype.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/io/npy.hpp"
#include "tests/support/process.hpp"

using ll::test::run_layoutlab;

TEST(CliConvertBench, BenchAllPrintsOneTable) {
    auto r = run_layoutlab({"convert", "--bench-all", "--bench-mb", "1", "--repeat", "2",
                            "--threads", "1", "--only", "NCHW -> NC1HWC0,fp16"});
    ASSERT_EQ(r.code, 0) << r.err;
    // header, rule, two rows (C=64 and C=3), summary
    EXPECT_NE(r.out.find("| conversion"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("NCHW -> NC1HWC0 (3,64,56,56) fp16"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("(C=3)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("2 rows, "), std::string::npos) << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 6) << r.out;
}

TEST(CliConvertBench, BenchAllJsonHasEveryDtypeBothWays) {
    auto r = run_layoutlab({"convert", "--bench-all", "--bench-mb", "0.25", "--repeat", "1",
                            "--threads", "1", "--only", "FRACTAL_NZ", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    int fwd = 0, inv = 0;
    for (const auto& row : j["rows"]) {
        EXPECT_GT(row["ratio"].get<double>(), 0);
        EXPECT_LE(row["ratio_min"].get<double>(), row["ratio_max"].get<double>());
        if (row["from"] == "ND" && row["to"] == "FRACTAL_NZ") ++fwd;
        if (row["from"] == "FRACTAL_NZ" && row["to"] == "ND") ++inv;
    }
    // Two shapes x every dtype the engine has.
    const int want = 2 * int(ll::all_dtypes().size());
    EXPECT_EQ(fwd, want);
    EXPECT_EQ(inv, want);
}

TEST(CliConvertBench, BadValuesAreExit2) {
    for (auto args : std::vector<std::vector<std::string>>{
             {"convert", "--bench-all", "--repeat", "0"},
             {"convert", "--bench-all", "--bench-mb", "-1"},
             {"convert", "--bench-all", "--only", "NO_SUCH_FORMAT"},
             {"convert", "--to", "NZ", "--shape", "2,2", "--dtype", "fp16"},
             {"convert", "--from", "ND", "--to", "NZ", "--shape", "2,2", "--dtype", "fp16",
              "--threads", "-2"}}) {
        auto r = run_layoutlab(args);
        EXPECT_EQ(r.code, 2) << args.back();
        EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
    }
}

TEST(CliConvertBench, ThreadsWriteTheSameFile) {
    const std::string dir = ll::test::make_temp_dir();
    std::vector<float> v(3 * 37 * 29 * 11);
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i);
    ll::write_npy(dir + "/in.npy", ll::DType::fp32, {3, 37, 29, 11}, v.data(),
                  v.size() * sizeof(float));
    std::string outs[3];
    int k = 0;
    for (const char* t : {"1", "2", "5"}) {
        const std::string out = dir + "/out" + t + ".npy";
        auto r = run_layoutlab({"convert", "--from", "NCHW", "--to", "NC1HWC0", "--input",
                                dir + "/in.npy", "--output", out, "--threads", t});
        ASSERT_EQ(r.code, 0) << r.err;
        outs[k++] = ll::test::read_file(out);
    }
    EXPECT_FALSE(outs[0].empty());
    EXPECT_EQ(outs[0], outs[1]);
    EXPECT_EQ(outs[0], outs[2]);
}
