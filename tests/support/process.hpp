// Helpers for tests that run the layoutlab binary the way a user would.
#pragma once

#include <string>
#include <vector>

namespace ll::test {

struct RunResult {
    int code = -1;    // exit status; 128 + signal when killed by a signal
    std::string out;  // stdout
    std::string err;  // stderr
};

// Runs a shell command line, capturing stdout and stderr separately.
RunResult run_shell(const std::string& command_line);

// Runs the layoutlab executable under test with the given arguments
// (each argument is shell-quoted).
RunResult run_layoutlab(const std::vector<std::string>& args);

// Quotes one argument for /bin/sh.
std::string shell_quote(const std::string& arg);

// A fresh empty directory under the system temp folder, unique per call.
std::string make_temp_dir();

// Whole file as bytes; empty string when missing.
std::string read_file(const std::string& path);
bool file_exists(const std::string& path);

}  // namespace ll::test
