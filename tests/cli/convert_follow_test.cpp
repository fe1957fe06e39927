// `layoutlab convert --stages --follow K`: the explorer's narration of one
// pinned element as text and JSON, checked against the documents' example
// and against the offsets `convert --stages` prints.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/cli.hpp"
#include "tests/support/process.hpp"

using ll::test::command_json;
using ll::test::run_layoutlab;

namespace {
const std::vector<std::string> kSpec = {"--from", "ND",      "--to", "FRACTAL_NZ", "--shape",
                                        "2,2,28", "--dtype", "fp16", "--stages"};
}

// Source (0,1,3) = element 31 sits at fractal (0,0,0), row 1, column 3:
// offset 19, byte 0x26 (the documents' example); every stage's offset is
// the one --stages prints for its cell.
TEST(CliConvertFollow, NarratesTheDocumentsExample) {
    std::vector<std::string> a = kSpec;
    a.insert(a.end(), {"--follow", "31"});
    nlohmann::json j = command_json("convert", a);
    ASSERT_TRUE(j.is_object());
    EXPECT_EQ(j["cell"], 19);
    EXPECT_EQ(j["narration"],
              "(B,M,N) (0,1,3) -> (B,M1*M0,N1*N0) (0,1,3) -> (B,M1,M0,N1,N0) (0,0,1,0,3) -> "
              "fractal (0,0,0), row 1, column 3 -> offset 19, byte 0x26");
    nlohmann::json st = command_json("convert", kSpec);
    ASSERT_EQ(j["stages"].size(), st["stages"].size());
    for (size_t k = 0; k < j["stages"].size(); ++k)
        EXPECT_EQ(j["stages"][k]["offset"], st["stages"][k]["offsets"][19]) << k;
    EXPECT_EQ(j["stages"][4]["where"], "offset 19, byte 0x26");
    // Text: one line per stage, then the whole journey.
    auto r = run_layoutlab({"convert", "--from", "ND", "--to", "FRACTAL_NZ", "--shape", "2,2,28",
                            "--dtype", "fp16", "--stages", "--follow", "31"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("  4 memory FRACTAL_NZ: fractal (0,0,0), row 1, column 3 -> offset 19, "
                         "byte 0x26\n"),
              std::string::npos)
        << r.out;
}

TEST(CliConvertFollow, BadElementIsExit2) {
    for (const char* k : {"112", "-1", "x"}) {
        std::vector<std::string> a = {"convert"};
        a.insert(a.end(), kSpec.begin(), kSpec.end());
        a.insert(a.end(), {"--follow", k});
        auto r = run_layoutlab(a);
        EXPECT_EQ(r.code, 2) << k;
        EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << k << ": " << r.err;
    }
    auto r = run_layoutlab({"convert", "--from", "ND", "--to", "FRACTAL_NZ", "--shape", "2,28",
                            "--dtype", "fp16", "--follow", "3"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("error: --follow:"), std::string::npos) << r.err;
}
