// The binary as a newcomer meets it: help, version, unknown commands.
#include <gtest/gtest.h>

#include "tests/support/process.hpp"

using ll::test::run_layoutlab;

TEST(CliBasics, HelpListsCommands) {
    auto r = run_layoutlab({"--help"});
    EXPECT_EQ(r.code, 0);
    EXPECT_NE(r.out.find("formats"), std::string::npos);
}

TEST(CliBasics, UnknownCommandIsExit2WithMessage) {
    auto r = run_layoutlab({"frobnicate"});
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
}

TEST(CliBasics, FormatsJson) {
    auto r = run_layoutlab({"formats", "--json"});
    EXPECT_EQ(r.code, 0);
    EXPECT_NE(r.out.find("\"fp16\""), std::string::npos);
}
