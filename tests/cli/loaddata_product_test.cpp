// `load2d` / `load2dv2 --product`: document 001's Table 1 per product, as a
// user meets it: "error: <parameter>, <what this product supports>", exit 2.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/process.hpp"

using ll::test::run_layoutlab;

TEST(CliLoadDataProduct, UnsupportedCombinationsNameTheParameterAndTheProduct) {
    struct Case {
        std::vector<std::string> args;
        std::string starts;
    };
    const Case cases[] = {
        {{"load2d", "--src-fractals", "2", "--product", "training", "--dtype", "fp32"},
         "error: --dtype: fp32, Atlas training series supports for Load2D on A1->A2: uint8, int8, "
         "uint16, int16, fp16"},
        {{"load2d", "--src-fractals", "2", "--product", "training", "--dst-gap", "1"},
         "error: --dst-gap: 1, Atlas training series does not enable dstGap"},
        {{"load2d", "--src-fractals", "2", "--product", "200i-500-a2", "--dtype", "int4"},
         "error: --dtype: int4, Atlas 200I/500 A2 inference product supports"},
        {{"load2d", "--src-fractals", "2", "--product", "350", "--path", "GM->B2"},
         "error: --path: GM->B2, Atlas 350 accelerator card supports Load2D on GM->A1, GM->B1, "
         "A1->A2, B1->B2"},
        {{"load2dv2", "--src-fractals", "2", "--path", "GM->A2"}, "error: --path: GM->A2,"},
        {{"load2dv2", "--src-fractals", "2", "--product", "a2"}, "error: --product: a2,"},
        {{"load2d", "--src-fractals", "2", "--product", "vector-core"},
         "error: --product: vector-core,"},
        {{"load2d", "--src-fractals", "2", "--product", "nope"}, "error: --product: unknown"},
    };
    for (const Case& c : cases) {
        auto r = run_layoutlab(c.args);
        EXPECT_EQ(r.code, 2) << c.starts;
        EXPECT_EQ(r.err.rfind(c.starts, 0), 0u) << r.err;
    }
}

TEST(CliLoadDataProduct, Atlas350RunsLoad2dV2WithItsStorageTypes) {
    auto r = run_layoutlab({"load2dv2", "--src-fractals", "8", "--product", "350", "--dtype",
                            "hifloat8", "--path", "B1->B2", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["params"]["product"], "350");
    EXPECT_EQ(j["dst_fractal"]["format"], "ZN");
    EXPECT_EQ(j["dst_fractal"]["rows"], 32);  // (32 B / sizeof) x 16
    EXPECT_EQ(j["dst_fractal"]["cols"], 16);
    r = run_layoutlab({"load3d", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_FALSE(nlohmann::json::parse(r.out)["padded"].empty());
}
