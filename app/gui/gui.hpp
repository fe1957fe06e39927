// The window front-end. Options are the top-level flags of `layoutlab`
// (no subcommand): they choose the scene and, for headless capture, a
// screenshot path.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace ll::gui {

struct Options {
    std::string screenshot;  // write a PNG of the first frames and exit
    std::string size = "1280x800";
};

void add_options(CLI::App& app, Options& o);

// Opens the window and runs until it is closed. Returns the exit code.
int run(const Options& o);

}  // namespace ll::gui
