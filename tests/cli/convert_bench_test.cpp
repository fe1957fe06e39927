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
    // ... and, where the last-level cache is known and larger than half of
    // the rows' two tensors (always, at 1 MiB), a note line first
    const bool note =
        r.out.find("\nnote: this machine's last-level cache is ") != std::string::npos;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 6 + (note ? 1 : 0)) << r.out;
}

TEST(CliConvertBench, SaysWhenTheRowsFitTheLastLevelCache) {
    const std::vector<std::string> base = {
        "convert", "--bench-all", "--bench-mb", "0.25",   "--repeat",
        "1",       "--threads",   "1",          "--only", "ND -> FRACTAL_NZ,fp16"};
    auto js = base;
    js.push_back("--json");
    auto rj = run_layoutlab(js);
    ASSERT_EQ(rj.code, 0) << rj.err;
    const auto j = nlohmann::json::parse(rj.out);
    const auto llc = j["last_level_cache_bytes"].get<int64_t>();
    const auto smallest = j["smallest_row_bytes"].get<int64_t>();
    const bool past = j["past_last_level_cache"].get<bool>();
    EXPECT_GE(llc, 0);
    int64_t sum = INT64_MAX;
    for (const auto& row : j["rows"])
        sum = std::min(sum, row["src_bytes"].get<int64_t>() + row["dst_bytes"].get<int64_t>());
    EXPECT_EQ(smallest, sum);
    EXPECT_EQ(past, llc == 0 || smallest >= 2 * llc);

    auto rt = run_layoutlab(base);
    ASSERT_EQ(rt.code, 0) << rt.err;
    const std::string mib = std::to_string(llc >> 20) + " MiB";
    if (past) {
        EXPECT_EQ(rt.out.find("note: "), std::string::npos) << rt.out;
    } else {
        EXPECT_NE(rt.out.find("\nnote: this machine's last-level cache is " + mib + ";"),
                  std::string::npos)
            << rt.out;
        EXPECT_NE(rt.out.find("--bench-mb " + std::to_string(std::max<int64_t>(1, llc >> 20))),
                  std::string::npos)
            << rt.out;
    }
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

// --list times nothing: at --bench-mb 1024 the C = 3 rows into C0 = 64
// (int4, 21x the source) would pass the engine's 2^32 elements and are
// grown less; the rows with C = 64 keep the size asked for.
TEST(CliConvertBench, ListShowsRowsCappedAtTheElementLimit) {
    auto r = run_layoutlab({"convert", "--bench-all", "--bench-mb", "1024", "--list", "--json",
                            "--only", "NCHW -> NC1HWC0, int4"});
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["rows"].size(), 2u) << r.out;  // C=64 and C=3
    int64_t most = 0;
    for (const auto& row : j["rows"]) {
        const auto src = row["src_bytes"].get<int64_t>(), dst = row["dst_bytes"].get<int64_t>();
        const bool c3 = row["note"].get<std::string>().find("C=3") != std::string::npos;
        const bool capped = row["note"].get<std::string>().find("2^32 cap") != std::string::npos;
        EXPECT_EQ(capped, c3) << row.dump();
        EXPECT_LE(dst * 2, int64_t(1) << 32) << row.dump();  // int4: two per byte
        if (capped)
            EXPECT_GT(dst * 2, (int64_t(1) << 32) * 7 / 8 * 7 / 8) << row.dump();  // not far under
        else
            EXPECT_GE(src, int64_t(1024) << 20) << row.dump();
        EXPECT_EQ(row["memory_bytes"].get<int64_t>(), src + dst + 2 * std::max(src, dst));
        most = std::max(most, row["memory_bytes"].get<int64_t>());
    }
    EXPECT_EQ(j["most_memory_bytes"].get<int64_t>(), most);

    auto t = run_layoutlab(
        {"convert", "--bench-all", "--bench-mb", "1", "--list", "--only", "NCHW -> NC1HWC0, int4"});
    ASSERT_EQ(t.code, 0) << t.err;
    EXPECT_NE(t.out.find("| memory MiB |"), std::string::npos) << t.out;
    EXPECT_NE(t.out.find("2 rows; the largest takes "), std::string::npos) << t.out;
    EXPECT_EQ(t.out.find("cap"), std::string::npos) << t.out;
}

// Huge pages: asked for on every buffer of 4 MiB or more unless
// --no-huge-pages, said on the line, in the table's header and in the JSON.
TEST(CliConvertBench, SaysHowTheBuffersArePaged) {
    const std::vector<std::string> big = {"convert",    "--from",  "ND",        "--to",
                                          "FRACTAL_NZ", "--shape", "2048,1024", "--dtype",
                                          "fp16",       "--bench", "--threads", "1"};
    auto r = run_layoutlab(big);
    ASSERT_EQ(r.code, 0) << r.err;
    // on where the kernel took the advice, else refused with the mode named
    const bool on = r.out.find(" huge_pages=on\n") != std::string::npos;
    const bool refused = r.out.find(" huge_pages=refused (THP ") != std::string::npos;
    EXPECT_TRUE(on || refused) << r.out;
    auto off = big;
    off.push_back("--no-huge-pages");
    r = run_layoutlab(off);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find(" huge_pages=off\n"), std::string::npos) << r.out;
    r = run_layoutlab({"convert", "--from", "ND", "--to", "FRACTAL_NZ", "--shape", "64,64",
                       "--dtype", "fp16", "--bench", "--threads", "1"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find(" huge_pages=small\n"), std::string::npos) << r.out;

    const std::vector<std::string> all = {
        "convert", "--bench-all", "--bench-mb", "1",      "--repeat",
        "1",       "--threads",   "1",          "--only", "ND -> FRACTAL_NZ,fp16"};
    r = run_layoutlab(all);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("; buffers (all four) with huge pages asked for, the kernel's "
                         "transparent huge pages: "),
              std::string::npos)
        << r.out;
    auto js = all;
    js.push_back("--json");
    js.push_back("--no-huge-pages");
    r = run_layoutlab(js);
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_FALSE(j["huge_pages"].get<bool>());
    EXPECT_FALSE(j["transparent_huge_pages"].get<std::string>().empty());
}
