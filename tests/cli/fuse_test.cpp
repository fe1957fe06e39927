// `layoutlab fuse`: JSON fields, the document's chains, error exits.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/cli.hpp"
#include "tests/support/process.hpp"

using ll::test::run_layoutlab;
using nlohmann::json;

namespace {

json fuse_json(const std::vector<std::string>& args) {
    return ll::test::command_json("fuse", args);
}

}  // namespace

TEST(CliFuse, NchwNhwcNchwIsIdentity) {
    json j =
        fuse_json({"--shape", "1,64,56,56", "--op", "permute:0,2,3,1", "--op", "permute:0,3,1,2"});
    EXPECT_EQ(j["identity"], true);
    EXPECT_EQ(j["permutation"], json({0, 1, 2, 3}));
    EXPECT_EQ(j["moved_bytes"], 0);
    EXPECT_EQ(j["unfused_moved_bytes"], 4 * 200704 * 4);
    ASSERT_EQ(j["steps"].size(), 2u);
    EXPECT_EQ(j["steps"][0]["category"], "bijective");
}

TEST(CliFuse, ReshapeTransposeIsOneStridedCopy) {
    json j =
        fuse_json({"--shape", "1,64,56,56", "--op", "reshape:1,64,3136", "--op", "transpose:1,2"});
    EXPECT_EQ(j["fused"], "(1,3136,64):(200704,1,3136)");
    EXPECT_EQ(j["identity"], false);
    EXPECT_TRUE(j["permutation"].is_null());
    EXPECT_EQ(j["moved_bytes"], 2 * 200704 * 4);
    EXPECT_EQ(j["unfused_moved_bytes"], 2 * 200704 * 4);  // the reshape is free unfused too
    json h = fuse_json({"--shape", "1,64,56,56", "--dtype", "fp16", "--op", "permute:0,2,3,1"});
    EXPECT_EQ(h["permutation"], json({0, 2, 3, 1}));
    EXPECT_EQ(h["moved_bytes"], 2 * 200704 * 2);
}

TEST(CliFuse, ClassifiesSteps) {
    json j = fuse_json(
        {"--shape", "4,6", "--op", "slice:0:4:2,:", "--op", "expand:3,2,6", "--op", "squeeze"});
    EXPECT_EQ(j["steps"][0]["category"], "selecting");
    EXPECT_EQ(j["steps"][1]["category"], "expanding");
    EXPECT_EQ(j["steps"][2]["category"], "selecting");
    EXPECT_EQ(j["fused"], "(3,2,6):(0,12,1)");
}

// The expanding and selecting transforms: im2col fuses as overlapping
// strides, a gather as an index array (a composite map).
TEST(CliFuse, Im2colAndGather) {
    json j = fuse_json({"--shape", "1,3,6,6", "--op", "im2col:3,3", "--op", "transpose:0,1"});
    EXPECT_EQ(j["steps"][0]["category"], "expanding");
    EXPECT_EQ(j["steps"][0]["out_shape"], json({16, 27}));
    EXPECT_EQ(j["composite"], false);
    EXPECT_EQ(j["distinct_reads"], 3 * 36);
    EXPECT_EQ(j["moved_bytes"], (108 + 432) * 4);
    EXPECT_EQ(j["unfused_moved_bytes"], (108 + 3 * 432) * 4);
    json g = fuse_json({"--shape", "4,6", "--op", "gather:1:5,0,0", "--op", "transpose:0,1"});
    EXPECT_EQ(g["steps"][0]["category"], "selecting");
    EXPECT_EQ(g["composite"], true);
    EXPECT_EQ(g["distinct_reads"], 8);
    EXPECT_EQ(g["moved_bytes"], (8 + 12) * 4);
    auto h = run_layoutlab({"fuse", "--help"});
    EXPECT_NE(h.out.find("gather:d:i,j"), std::string::npos);
    EXPECT_NE(h.out.find("im2col:kh,kw"), std::string::npos);
}

TEST(CliFuse, InvalidOpsExit2) {
    for (const char* op : {"permute:0,0", "reshape:7", "slice:0:9", "expand:2,5", "bogus",
                           "transpose:0", "gather:1:3", "gather:1", "im2col:3,3", "im2col:1"}) {
        auto r = run_layoutlab({"fuse", "--shape", "2,3", "--op", op});
        EXPECT_EQ(r.code, 2) << op;
        EXPECT_NE(r.err.find(op), std::string::npos) << r.err;
        EXPECT_TRUE(r.out.empty());
    }
    EXPECT_EQ(run_layoutlab({"fuse", "--shape", "2,3"}).code, 2);  // no --op
}
