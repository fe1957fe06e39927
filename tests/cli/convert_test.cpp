// `layoutlab convert` as a user runs it: the document's worked example as
// golden text, JSON fields, .npy files through the binary, and every class
// of bad input (exit 2, "error: ", no output file).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/format/format.hpp"
#include "core/io/npy.hpp"
#include "tests/support/process.hpp"

using ll::test::run_layoutlab;

namespace {

std::vector<std::string> nz_example() {
    return {"convert", "--from", "ND",      "--to", "FRACTAL_NZ",
            "--shape", "2,2,28", "--dtype", "fp16"};
}

}  // namespace

// The document's (2,2,28) example without its all-padding fractal (M1 = 1).
TEST(CliConvert, GoldenNzExample) {
    auto r = run_layoutlab(nz_example());
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string golden = ll::test::read_file(std::string(LAYOUTLAB_SOURCE_DIR) +
                                                   "/tests/cli/golden/convert_nz_2x2x28.txt");
    ASSERT_FALSE(golden.empty());
    EXPECT_EQ(r.out, golden);
    EXPECT_NE(r.out.find("[ 28. 29. 30. 31. 32. 33. 34. 35. 36. 37. 38. 39. 40. 41. 42. 43.]"),
              std::string::npos);
    EXPECT_NE(
        r.out.find("[100. 101. 102. 103. 104. 105. 106. 107. 108. 109. 110. 111. 0. 0. 0. 0.]"),
        std::string::npos);
}

TEST(CliConvert, JsonFieldsAndElementMap) {
    auto args = nz_example();
    args.push_back("--json");
    auto r = run_layoutlab(args);
    ASSERT_EQ(r.code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["from"], "ND");
    EXPECT_EQ(j["to"], "FRACTAL_NZ");
    EXPECT_EQ(j["dtype"], "fp16");
    EXPECT_EQ(j["src_shape"], nlohmann::json({2, 2, 28}));
    EXPECT_EQ(j["dst_shape"], nlohmann::json({2, 2, 1, 16, 16}));
    ASSERT_EQ(j["steps"].size(), 3u);
    EXPECT_EQ(j["steps"][2]["kind"], "transpose");
    EXPECT_EQ(j["steps"][2]["perm"], nlohmann::json({0, 3, 1, 2, 4}));
    EXPECT_EQ(j["steps"][0]["amounts"], nlohmann::json({0, 14, 4}));
    EXPECT_EQ(j["steps"][1]["caption"],
              "(..., B, M1*M0, N1*N0) -> reshape -> (..., B, M1, M0, N1, N0)");
    EXPECT_EQ(j["fractal"][0]["M0"], 16);
    EXPECT_EQ(j["fractal"][0]["N0"], 16);
    const auto& m = j["src_of_dst"];
    ASSERT_EQ(m.size(), 1024u);
    EXPECT_EQ(m[16], 28);
    EXPECT_EQ(m[32], -1);
    EXPECT_EQ(m[256 + 11], 27);
    EXPECT_EQ(m[256 + 12], -1);
}

TEST(CliConvert, C0AndFractalOverrides) {
    auto r = run_layoutlab({"convert", "--from", "NCHW", "--to", "NC1HWC0", "--shape", "1,20,2,2",
                            "--dtype", "fp32", "--c0", "16", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["dst_shape"], nlohmann::json({1, 2, 2, 2, 16}));
    EXPECT_EQ(j["c0"], 16);
    r = run_layoutlab({"convert", "--from", "ND", "--to", "NZ", "--shape", "20,20", "--dtype",
                       "fp32", "--fractal", "16x16", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["dst_shape"], nlohmann::json({2, 2, 16, 16}));
}

TEST(CliConvert, NpyRoundTripThroughTheBinary) {
    const std::string dir = ll::test::make_temp_dir();
    const ll::Shape s = {3, 37, 21};
    std::vector<float> v(3 * 37 * 21);
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i) * 0.5f - 100.0f;
    ll::write_npy(dir + "/a.npy", ll::DType::fp32, s, v.data(), v.size() * 4);

    // --shape omitted: taken from the input
    auto r = run_layoutlab({"convert", "--from", "ND", "--to", "FRACTAL_NZ", "--dtype", "fp32",
                            "--pad-value", "-7", "--input", dir + "/a.npy", "--output",
                            dir + "/nz.npy"});
    ASSERT_EQ(r.code, 0) << r.err;
    ll::NpyArray nz = ll::read_npy(dir + "/nz.npy");
    ll::ConvertSpec spec;
    spec.from = ll::Format::ND;
    spec.to = ll::Format::FRACTAL_NZ;
    spec.shape = s;
    spec.dtype = ll::DType::fp32;
    spec.pad_value = -7;
    const ll::Pipeline p = ll::make_pipeline(spec);
    EXPECT_EQ(nz.shape, p.dst_shape);
    std::vector<uint8_t> raw(reinterpret_cast<uint8_t*>(v.data()),
                             reinterpret_cast<uint8_t*>(v.data()) + v.size() * 4);
    EXPECT_EQ(nz.data, ll::Executor(p).run(raw));

    r = run_layoutlab({"convert", "--from", "FRACTAL_NZ", "--to", "ND", "--shape", "3,37,21",
                       "--dtype", "fp32", "--input", dir + "/nz.npy", "--output", dir + "/b.npy"});
    ASSERT_EQ(r.code, 0) << r.err;
    ll::NpyArray back = ll::read_npy(dir + "/b.npy");
    EXPECT_EQ(back.shape, s);
    EXPECT_EQ(back.data, raw);
}

// A non-plain source is shown holding the logical tensor 0, 1, 2, ...
TEST(CliConvert, FractalSourceDemoGoesBackToPlain) {
    auto r = run_layoutlab(
        {"convert", "--from", "NC1HWC0", "--to", "NHWC", "--shape", "1,2,2,3", "--dtype", "int8"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("result:\n[[[[ 0 1 2]\n[ 3 4 5]]\n[[ 6 7 8]\n[ 9 10 11]]]]"),
              std::string::npos)
        << r.out;
    r = run_layoutlab(
        {"convert", "--from", "NZ", "--to", "ZZ", "--shape", "2,20", "--dtype", "fp32", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["steps"].size(), 6u);
}

TEST(CliConvert, BenchPrintsOneLine) {
    auto r = run_layoutlab({"convert", "--from", "ND", "--to", "FRACTAL_NZ", "--shape", "64,64",
                            "--dtype", "fp16", "--bench"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out.rfind("convert_gbps=", 0), 0u) << r.out;
    EXPECT_NE(r.out.find(" memcpy_gbps="), std::string::npos);
    EXPECT_NE(r.out.find(" ratio="), std::string::npos);
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1);
}

// Every class of bad input: exit 2, one "error: " line naming the problem,
// and no output file.
TEST(CliConvert, BadInputIsExit2WithoutOutput) {
    const std::string dir = ll::test::make_temp_dir();
    int8_t d[6] = {1, 2, 3, 4, 5, 6};
    ll::write_npy(dir + "/i8.npy", ll::DType::int8, {2, 3}, d, 6);
    std::string bad_npy = ll::test::read_file(dir + "/i8.npy");
    {
        std::string trunc = bad_npy.substr(0, bad_npy.size() - 2);
        FILE* f = std::fopen((dir + "/trunc.npy").c_str(), "wb");
        std::fwrite(trunc.data(), 1, trunc.size(), f);
        std::fclose(f);
        f = std::fopen((dir + "/junk.npy").c_str(), "wb");
        std::fputs("not a numpy file at all", f);
        std::fclose(f);
    }
    const std::string out = dir + "/out.npy";
    struct Case {
        std::vector<std::string> args;
        std::string needle;
    };
    const std::vector<Case> cases = {
        {{"--from", "ND", "--to", "FRACTAL_XX", "--shape", "2,2", "--dtype", "fp16"}, "--to"},
        {{"--from", "ND", "--to", "NZ", "--shape", "2,2", "--dtype", "fp64"}, "--dtype"},
        {{"--from", "NCHW", "--to", "NC1HWC0", "--shape", "2,2,2", "--dtype", "fp16"}, "rank"},
        {{"--from", "ND", "--to", "NZ", "--shape", "2,-2", "--dtype", "fp16"}, "--shape"},
        {{"--from", "ND", "--to", "NZ", "--shape", "2,,2", "--dtype", "fp16"}, "--shape"},
        {{"--from", "ND", "--to", "NZ", "--shape", "2,x", "--dtype", "fp16"}, "--shape"},
        {{"--from", "ND", "--to", "NZ", "--shape", "", "--dtype", "fp16"}, "--shape"},
        {{"--from", "ND", "--to", "NZ", "--shape", "99999999999,99999999999", "--dtype", "fp16"},
         "--shape"},
        {{"--from", "ND", "--to", "NZ", "--shape", "70000,70000", "--dtype", "fp16"}, "2^32"},
        {{"--from", "NCHW", "--to", "FRACTAL_NZ", "--shape", "1,2,3,4", "--dtype", "fp16"},
         "expected one of"},
        {{"--from", "ND", "--to", "NZ", "--shape", "4,4", "--dtype", "fp16", "--c0", "0"}, "--c0"},
        {{"--from", "ND", "--to", "NZ", "--shape", "4,4", "--dtype", "fp16", "--fractal", "16"},
         "--fractal"},
        {{"--from", "ND", "--to", "NZ", "--shape", "4,4", "--dtype", "int8", "--pad-value", "1000"},
         "--pad-value"},
        {{"--from", "ND", "--to", "NZ", "--dtype", "int8", "--input", dir + "/junk.npy"}, "magic"},
        {{"--from", "ND", "--to", "NZ", "--dtype", "int8", "--input", dir + "/trunc.npy"},
         "truncated"},
        {{"--from", "ND", "--to", "NZ", "--shape", "3,2", "--dtype", "int8", "--input",
          dir + "/i8.npy"},
         "shape"},
        {{"--from", "ND", "--to", "NZ", "--dtype", "fp16", "--input", dir + "/i8.npy"}, "dtype"},
        {{"--from", "ND", "--to", "NZ", "--dtype", "int4", "--input", dir + "/i8.npy"}, "NumPy"},
        {{"--from", "NZ", "--to", "ND", "--dtype", "int8", "--input", dir + "/i8.npy"}, "--shape"},
        {{"--from", "ND", "--to", "NZ", "--dtype", "int8", "--input", dir + "/missing.npy"},
         "missing.npy"},
        {{"--from", "ND", "--to", "NZ", "--shape", "4,4", "--dtype", "bf16"}, ""},  // fine w/o npy
    };
    for (const Case& c : cases) {
        std::vector<std::string> args = {"convert"};
        args.insert(args.end(), c.args.begin(), c.args.end());
        args.push_back("--output");
        args.push_back(out);
        auto r = run_layoutlab(args);
        std::string what;
        for (const auto& a : c.args) what += a + " ";
        if (c.needle.empty()) {  // bf16 cannot be written as .npy either
            EXPECT_EQ(r.code, 2) << what;
            EXPECT_NE(r.err.find("NumPy"), std::string::npos) << what << r.err;
        } else {
            EXPECT_EQ(r.code, 2) << what << "\n" << r.err;
            EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << what << r.err;
            EXPECT_NE(r.err.find(c.needle), std::string::npos) << what << r.err;
        }
        EXPECT_TRUE(r.out.empty()) << what << r.out;
        EXPECT_FALSE(ll::test::file_exists(out)) << what;
    }
    auto r = run_layoutlab({"convert", "--from", "ND", "--to", "NZ", "--dtype", "int8", "--input",
                            dir + "/i8.npy", "--output", "/nonexistent-dir-h1/o.npy"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("cannot write"), std::string::npos) << r.err;
}

// The summary counts data and padding from the pipeline, not from an element
// map (8 bytes a destination element): a 268-million-element conversion is
// summarised under the default 1 GiB --max-bytes, and its counts are the
// hand-worked ones. 16385 = 1024 x 16 + 1 pads to 1025 fractals each way.
TEST(CliConvert, SummaryOfAHugeConversionCountsPaddingWithoutTheMap) {
    auto r = run_layoutlab({"convert", "--from", "ND", "--to", "FRACTAL_NZ", "--shape",
                            "16385,16385", "--dtype", "fp16"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("destination: (1025,1025,16,16), 268960000 elements (268468225 data, "
                         "491775 padding), 537920000 bytes"),
              std::string::npos)
        << r.out;
    // Back from FRACTAL_NZ every destination element is data.
    r = run_layoutlab({"convert", "--from", "FRACTAL_NZ", "--to", "ND", "--shape", "16385,16385",
                       "--dtype", "fp16"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("268468225 elements (268468225 data, 0 padding)"), std::string::npos)
        << r.out;
    // --json still lists src_of_dst, so it still needs the map's memory.
    r = run_layoutlab({"convert", "--from", "ND", "--to", "FRACTAL_NZ", "--shape", "16385,16385",
                       "--dtype", "fp16", "--json"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--max-bytes"), std::string::npos) << r.err;
}

// Without --input a fractal source is made up from the plain 0,1,2,...: the
// real slots hold their logical index and the padding the pad value.
TEST(CliConvert, MadeUpFractalSourceHoldsTheIndicesAndThePadValue) {
    auto r = run_layoutlab({"convert", "--from", "FRACTAL_NZ", "--to", "ND", "--shape", "2,3",
                            "--dtype", "fp16", "--pad-value", "7"});
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string src = r.out.substr(r.out.find("source:"));
    EXPECT_EQ(src.find("[[[[0. 1. 2. 7. 7. 7. 7. 7. 7. 7. 7. 7. 7. 7. 7. 7.]\n"
                       "[3. 4. 5. 7. 7. 7. 7. 7. 7. 7. 7. 7. 7. 7. 7. 7.]\n"
                       "[7. 7. 7."),
              size_t{8})
        << src;
    // and the conversion back gives the plain tensor without the padding
    EXPECT_NE(r.out.find("result:\n[[0. 1. 2.]\n[3. 4. 5.]]"), std::string::npos) << r.out;
}
