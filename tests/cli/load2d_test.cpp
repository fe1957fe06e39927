// `layoutlab load2d` / `load2dv2` / `load3d`: dst_of in JSON, the text
// summary, and every bad parameter class -> exit 2.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/process.hpp"

using ll::test::run_layoutlab;
using nlohmann::json;

TEST(CliLoad2d, DstOfListsEveryDestinationElement) {
    auto r = run_layoutlab({"load2d", "--src-fractals", "5", "--start-index", "1", "--repeat", "2",
                            "--src-stride", "2", "--dst-gap", "1", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    json j = json::parse(r.out);
    auto d = j["dst_of"];
    ASSERT_EQ(d.size(), 768u);  // 3 fractals: copy, gap, copy
    for (int i = 0; i < 256; ++i) {
        EXPECT_EQ(d[i], 256 + i);
        EXPECT_EQ(d[256 + i], -1);
        EXPECT_EQ(d[512 + i], 768 + i);
    }
}

TEST(CliLoad2d, TransposeAndDecrementText) {
    auto r =
        run_layoutlab({"load2d", "--path", "B1->B2", "--src-fractals", "4", "--start-index", "3",
                       "--repeat", "2", "--src-stride", "2", "--transpose", "--decrement"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("src fractal 3 -> dst fractal 0 (transposed)"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("src fractal 1 -> dst fractal 1 (transposed)"), std::string::npos);
}

TEST(CliLoad2d, BadParametersExit2) {
    const std::vector<std::vector<std::string>> cases = {
        {"load2d", "--src-fractals", "4", "--repeat", "0"},
        {"load2d", "--src-fractals", "4", "--repeat", "256"},
        {"load2d", "--src-fractals", "4", "--start-index", "4"},
        {"load2d", "--src-fractals", "4", "--dtype", "int8", "--transpose"},
        {"load2d", "--src-fractals", "4", "--repeat", "3", "--src-stride", "1", "--decrement"},
        {"load2d", "--src-fractals", "4", "--path", "A1->B2"},
        {"load2d", "--src-fractals", "4", "--path", "GM->A2", "--transpose"},
        {"load2dv2", "--src-fractals", "8", "--dtype", "int8", "--transpose", "--m-step", "3"},
        {"load2dv2", "--src-fractals", "8", "--m-step", "256"},
        {"load3d", "--repeat", "9"},
        {"load3d", "--stride-w", "0"},
        {"load3d", "--kh", "7"},
    };
    for (const auto& args : cases) {
        auto r = run_layoutlab(args);
        std::string all;
        for (const auto& a : args) all += a + " ";
        EXPECT_EQ(r.code, 2) << all << "\n" << r.out;
        EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << all << ": " << r.err;
        EXPECT_NE(r.err.find("expected"), std::string::npos) << all << ": " << r.err;
    }
}

TEST(CliLoad2dV2, BlockWithStrides) {
    auto r = run_layoutlab({"load2dv2", "--src-fractals", "12", "--m-start", "1", "--k-start", "1",
                            "--m-step", "2", "--k-step", "2", "--src-stride", "4", "--dst-stride",
                            "2", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    json j = json::parse(r.out);
    EXPECT_EQ(j["dst_fractals"], 4);
    EXPECT_EQ(j["fractals"][3]["src_fractal"], 10);  // (1+1)*4 + 1+1
    EXPECT_EQ(j["dst_of"][3 * 256], 10 * 256);
}

TEST(CliLoad3d, DocumentExampleByDefault) {
    auto r = run_layoutlab({"load3d", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    json j = json::parse(r.out);
    EXPECT_EQ(j["dst_fractals"], 8);
    EXPECT_EQ(j["params"]["ho"], 4);
    EXPECT_EQ(j["dst_of"][0], -1);  // the first window starts in the padding
}
