// The command-line front-end: `layoutlab <command> [options]`.
//
// Each command lives in its own file (app/cli/<name>_cmd.cpp) and is listed
// once in the table in commands.cpp. A command adds its options to the CLI11
// subcommand it is given and returns the function to run once parsing
// succeeded. That function returns the process exit code; bad input is
// reported by throwing ll::UsageError (printed as "error: ...", exit 2).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <vector>

namespace ll::cli {

using Runner = std::function<int()>;
using Setup = Runner (*)(CLI::App& sub);

struct CommandEntry {
    const char* name;
    const char* summary;
    Setup setup;
};

// The table of commands, in the order `layoutlab --help` lists them.
const std::vector<CommandEntry>& commands();

}  // namespace ll::cli
