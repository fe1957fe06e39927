// `layoutlab convert --stages`: the explorer's picture as data. Every stage
// the window draws, with the offset of every cell, checked against the
// element map `convert --json` prints and against the documents' example.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/cli.hpp"
#include "tests/support/process.hpp"

using ll::test::command_json;
using ll::test::run_layoutlab;

TEST(CliConvertStages, NzExampleStagesMatchTheElementMap) {
    const std::vector<std::string> spec = {"--from",  "ND",     "--to",    "FRACTAL_NZ",
                                           "--shape", "2,2,28", "--dtype", "fp16"};
    std::vector<std::string> st = spec;
    st.push_back("--stages");
    nlohmann::json j = command_json("convert", st);
    ASSERT_TRUE(j.is_object());
    ASSERT_EQ(j["stages"].size(), 5u);
    const std::vector<std::string> labels = {"source ND", "pad", "reshape", "transpose(0,3,1,2,4)",
                                             "memory FRACTAL_NZ"};
    for (size_t k = 0; k < labels.size(); ++k) {
        EXPECT_EQ(j["stages"][k]["label"], labels[k]);
        EXPECT_EQ(j["stages"][k]["offsets"].size(), 1024u);
    }
    EXPECT_EQ(j["stages"][3]["axes"], nlohmann::json({"B", "N1", "M1", "M0", "N0"}));
    EXPECT_EQ(j["stages"][0]["shape"], nlohmann::json({2, 2, 28}));
    // Cell c of the final buffer holds source element src_of_dst[c]; at the
    // source stage that cell sits at exactly that offset (or is hidden when
    // it is padding).
    nlohmann::json conv = command_json("convert", spec);
    const auto& src_of_dst = conv["src_of_dst"];
    ASSERT_EQ(src_of_dst.size(), 1024u);
    for (size_t c = 0; c < 1024; ++c) {
        EXPECT_EQ(j["stages"][0]["offsets"][c], src_of_dst[c]) << c;
        EXPECT_EQ(j["stages"][4]["offsets"][c], int64_t(c)) << c;
    }
    // The documents' example: source (0,1,3) = element 31 lands at offset 19.
    EXPECT_EQ(src_of_dst[19], 31);
}

TEST(CliConvertStages, ViaChainNamesEveryStage) {
    nlohmann::json j =
        command_json("convert", {"--from", "NCHW", "--via", "NHWC", "--to", "NC1HWC0", "--shape",
                                 "1,3,2,2", "--dtype", "fp16", "--stages"});
    ASSERT_TRUE(j.is_object());
    EXPECT_EQ(j["title"], "NCHW -> NHWC -> NC1HWC0");
    ASSERT_EQ(j["stages"].size(), 7u);
    EXPECT_EQ(j["stages"][2]["label"], "memory NHWC");
    EXPECT_EQ(j["stages"][5]["axes"], nlohmann::json({"N", "C1", "H", "W", "C0"}));
    // Channel 1 of pixel (0,0) is NCHW element 4; in NHWC memory it is at
    // offset 1, in NC1HWC0 memory at offset 1 too (C0 lane 1 of pixel 0).
    const auto& src0 = j["stages"][0]["offsets"];
    size_t cell = 0;
    for (size_t c = 0; c < src0.size(); ++c)
        if (src0[c] == 4) cell = c;
    EXPECT_EQ(j["stages"][2]["offsets"][cell], 1);
    EXPECT_EQ(j["stages"][6]["offsets"][cell], 1);
}

TEST(CliConvertStages, LargePlansSayTheyOmitOffsets) {
    nlohmann::json j = command_json("convert", {"--from", "ND", "--to", "FRACTAL_NZ", "--shape",
                                                "512,512", "--dtype", "fp16", "--stages"});
    ASSERT_TRUE(j.is_object());
    EXPECT_FALSE(j["stages"][0].contains("offsets"));
    EXPECT_NE(j["offsets_omitted"].get<std::string>().find("65536"), std::string::npos);
}

TEST(CliConvertStages, BadUseIsExit2) {
    auto r = run_layoutlab({"convert", "--from", "NCHW", "--via", "NC1HWC0", "--to", "NHWC",
                            "--shape", "1,3,2,2", "--dtype", "fp16", "--stages"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("error: --via: 'NC1HWC0' is not a plain format"), std::string::npos)
        << r.err;
    r = run_layoutlab({"convert", "--from", "NCHW", "--via", "NHWC", "--to", "NC1HWC0", "--shape",
                       "1,3,2,2", "--dtype", "fp16"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("error: --via:"), std::string::npos) << r.err;
    r = run_layoutlab({"convert", "--from", "ND", "--to", "FRACTAL_NZ", "--shape", "2,2,28",
                       "--dtype", "fp16", "--stages", "--bench"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("error: --stages:"), std::string::npos) << r.err;
}
