// Helpers for CLI tests that read a command's --json output.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/process.hpp"

namespace ll::test {

// Runs `layoutlab <command> <args...> --json`; expects exit 0 and returns the
// parsed JSON (null after a failed run, with the failure recorded).
inline nlohmann::json command_json(const std::string& command,
                                   const std::vector<std::string>& args) {
    std::vector<std::string> a{command};
    a.insert(a.end(), args.begin(), args.end());
    a.push_back("--json");
    RunResult r = run_layoutlab(a);
    EXPECT_EQ(r.code, 0) << r.err;
    return r.code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json();
}

}  // namespace ll::test
