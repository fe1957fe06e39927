// `layoutlab conv` as a user runs it: the case study by default, JSON
// shapes, --check against the direct loop, and bad parameters -> exit 2.
#include <gtest/gtest.h>

#include <cstring>
#include <nlohmann/json.hpp>
#include <random>

#include "core/exec/conv.hpp"
#include "core/exec/half.hpp"
#include "core/io/npy.hpp"

#include "tests/support/process.hpp"

using ll::test::run_layoutlab;
using nlohmann::json;

TEST(CliConv, CaseStudyByDefault) {
    auto r = run_layoutlab({"conv"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("(10,49,18,16,16)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("(18,4,16,16)"), std::string::npos);
    EXPECT_NE(r.out.find("(4,490,16,16)"), std::string::npos);
    EXPECT_NE(r.out.find("(10,4,28,28,16)"), std::string::npos);
    EXPECT_NE(r.out.find("35280"), std::string::npos);
}

TEST(CliConv, JsonCarriesEveryStage) {
    auto r = run_layoutlab({"conv", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    json j = json::parse(r.out);
    EXPECT_EQ(j["input_5hd"], json({10, 2, 28, 28, 16}));
    EXPECT_EQ(j["img2col"], json({10, 784, 288}));
    EXPECT_EQ(j["a_fractal"], json({10, 49, 18, 16, 16}));
    EXPECT_EQ(j["b_fractal"], json({18, 4, 16, 16}));
    EXPECT_EQ(j["c_fractal"], json({4, 490, 16, 16}));
    EXPECT_EQ(j["output_5hd"], json({10, 4, 28, 28, 16}));
    EXPECT_EQ(j["cube_ops"], 35280);
}

TEST(CliConv, GeometryOptionsAndInt8) {
    auto r = run_layoutlab({"conv",    "--n",   "1",       "--cin",    "3",    "--cout",     "5",
                            "--h",     "9",     "--w",     "7",        "--kh", "3",          "--kw",
                            "2",       "--pad", "0,1,2,0", "--stride", "2",    "--dilation", "1,2",
                            "--dtype", "int8",  "--json",  "--check"});
    ASSERT_EQ(r.code, 0) << r.err;
    json j = json::parse(r.out);
    // Ho = (9+1-3)/2+1 = 4, Wo = (7+2-3)/2+1 = 4; C0 = 32 for int8.
    EXPECT_EQ(j["a_fractal"], json({1, 1, 6, 16, 32}));
    EXPECT_EQ(j["output_5hd"], json({1, 1, 4, 4, 16}));
    EXPECT_EQ(j["check"]["mismatches"], 0);
}

TEST(CliConv, CheckAgreesWithDirectLoop) {
    auto r = run_layoutlab({"conv", "--n", "2", "--cin", "19", "--cout", "17", "--h", "11", "--w",
                            "10", "--stride", "2", "--dilation", "2", "--json", "--check"});
    ASSERT_EQ(r.code, 0) << r.err;
    json j = json::parse(r.out);
    EXPECT_LT(j["check"]["max_abs_diff"].get<double>(), 1e-3);
}

TEST(CliConv, BadParametersExit2) {
    for (auto args :
         std::vector<std::vector<std::string>>{{"conv", "--stride", "0"},
                                               {"conv", "--kh", "40"},
                                               {"conv", "--dtype", "fp32"},
                                               {"conv", "--pad", "1,2,3"},
                                               {"conv", "--cin", "0"},
                                               {"conv", "--dilation", "0"},
                                               {"conv", "--h", "4000", "--w", "4000", "--check"}}) {
        auto r = run_layoutlab(args);
        EXPECT_EQ(r.code, 2) << args[1] << " " << args[2];
        EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
        EXPECT_NE(r.err.find("expected"), std::string::npos) << r.err;
    }
}

// ---- .npy in, .npy out ---------------------------------------------------------

namespace {

std::string write_array(const std::string& dir, const std::string& name, ll::DType t,
                        const ll::Shape& s, const void* data, size_t bytes) {
    std::string path = dir + "/" + name;
    ll::write_npy(path, t, s, data, bytes);
    return path;
}

}  // namespace

TEST(CliConv, NpyFloat16RoundTripEqualsDirect) {
    std::string dir = ll::test::make_temp_dir();
    ll::exec::ConvParams p;
    p.n = 2;
    p.cin = 5;
    p.h = 7;
    p.w = 6;
    p.cout = 3;
    p.win = ll::exec::Window2d{3, 2, 2, 1, 1, 2, 1, 0, 0, 1};
    std::mt19937 rng(9);
    std::uniform_real_distribution<float> d(-1, 1);
    std::vector<float> x(size_t(2 * 5 * 7 * 6)), w(size_t(3 * 5 * 3 * 2));
    std::vector<uint16_t> xh(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
        xh[i] = ll::exec::float_to_half(d(rng));
        x[i] = ll::exec::half_to_float(xh[i]);
    }
    for (auto& v : w) v = ll::exec::round_to_half(d(rng));
    auto xp = write_array(dir, "x.npy", ll::DType::fp16, {2, 5, 7, 6}, xh.data(), xh.size() * 2);
    auto wp = write_array(dir, "w.npy", ll::DType::fp32, {3, 5, 3, 2}, w.data(), w.size() * 4);
    auto r = run_layoutlab({"conv", "--input", xp, "--weight", wp, "--output", dir + "/y.npy",
                            "--pad", "1,0,0,1", "--stride", "2,1", "--dilation", "1,2"});
    ASSERT_EQ(r.code, 0) << r.err;
    ll::NpyArray y = ll::read_npy(dir + "/y.npy");
    EXPECT_EQ(y.dtype, ll::DType::fp32);
    std::vector<float> ref = ll::exec::direct_conv(p, x, w);
    ASSERT_EQ(y.shape, (ll::Shape{2, 3, p.out_h(), p.out_w()}));
    const float* got = reinterpret_cast<const float*>(y.data.data());
    for (size_t i = 0; i < ref.size(); ++i) EXPECT_NEAR(got[i], ref[i], 1e-4) << i;
}

TEST(CliConv, NpyInt8IsExactAndBadShapesExit2) {
    std::string dir = ll::test::make_temp_dir();
    ll::exec::ConvParams p;
    p.dtype = ll::DType::int8;
    p.n = 1;
    p.cin = 33;
    p.h = p.w = 5;
    p.cout = 17;
    p.win = ll::exec::Window2d{3, 3, 1, 1, 1, 1, 1, 1, 1, 1};
    std::mt19937 rng(10);
    std::uniform_int_distribution<int> d(-128, 127);
    std::vector<int8_t> x(size_t(33 * 25)), w(size_t(17 * 33 * 9));
    for (auto& v : x) v = int8_t(d(rng));
    for (auto& v : w) v = int8_t(d(rng));
    auto xp = write_array(dir, "x.npy", ll::DType::int8, {1, 33, 5, 5}, x.data(), x.size());
    auto wp = write_array(dir, "w.npy", ll::DType::int8, {17, 33, 3, 3}, w.data(), w.size());
    auto r = run_layoutlab({"conv", "--input", xp, "--weight", wp, "--output", dir + "/y.npy"});
    ASSERT_EQ(r.code, 0) << r.err;
    ll::NpyArray y = ll::read_npy(dir + "/y.npy");
    EXPECT_EQ(y.dtype, ll::DType::int32);
    std::vector<int32_t> ref = ll::exec::direct_conv_int8(p, x, w);
    std::vector<int32_t> got(ref.size());
    ASSERT_EQ(y.data.size(), got.size() * 4);
    std::memcpy(got.data(), y.data.data(), y.data.size());
    EXPECT_EQ(got, ref);

    // Cin of the weight does not match the input: exit 2, no output file.
    auto bad = write_array(dir, "bad.npy", ll::DType::int8, {17, 32, 3, 3}, w.data(), 17 * 32 * 9);
    auto e = run_layoutlab({"conv", "--input", xp, "--weight", bad, "--output", dir + "/z.npy"});
    EXPECT_EQ(e.code, 2);
    EXPECT_EQ(e.err.rfind("error: ", 0), 0u) << e.err;
    EXPECT_FALSE(ll::test::file_exists(dir + "/z.npy"));
    // Kinds differ (int8 input, float weight).
    std::vector<float> wf(size_t(17 * 33 * 9), 1.0f);
    auto wfp =
        write_array(dir, "wf.npy", ll::DType::fp32, {17, 33, 3, 3}, wf.data(), wf.size() * 4);
    EXPECT_EQ(run_layoutlab({"conv", "--input", xp, "--weight", wfp}).code, 2);
    EXPECT_EQ(run_layoutlab({"conv", "--output", dir + "/q.npy"}).code, 2);
}

// Document 004's multiplication count for the lecture's own geometry.
TEST(CliConv, LectureMultiplicationCountGolden) {
    auto r = ll::test::run_layoutlab(
        {"conv", "--n", "10", "--cin", "3", "--cout", "4", "--h", "8", "--w", "8", "--pad", "0"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("3 x 3 x 6 x 6 x 3 x 4 x 10 = 38880"), std::string::npos) << r.out;
    r = ll::test::run_layoutlab({"conv", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["input_nhwc_split"], nlohmann::json({10, 28, 28, 2, 16}));
    EXPECT_EQ(j["weight_slice"], nlohmann::json({144, 64}));
}
