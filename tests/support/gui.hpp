// Helpers for GUI tests: run the app headless under its own Xvfb, and compare
// screenshots. Every run is bounded by `timeout`.
#pragma once

#include <string>
#include <vector>

#include "tests/support/png.hpp"
#include "tests/support/process.hpp"

namespace ll::test {

// The xvfb-run prefix (with a 60 s timeout) for a command line.
extern const char* const kXvfb;
// The same with a bound of `seconds`.
std::string xvfb(int seconds);

// The app under test, shell-quoted.
std::string app_exe();

// Runs `layoutlab --no-config <args>` under its own Xvfb.
RunResult run_app(const std::string& args);

// Renders `--panel <id>` with a settings file (JSON object, may be empty or
// "") into <dir>/<name>.png and returns the image (empty on failure; the
// run's stderr is in *err when given).
Image panel_screenshot(const std::string& dir, const std::string& id, const std::string& settings,
                       const std::string& name, const std::string& size = "1280x800",
                       std::string* err = nullptr);

// Drives the real window: starts `layoutlab --no-config <app_args>
// --screenshot-on-signal <dir>` under its own Xvfb, waits for the window and
// focuses it, then runs `steps` (sh) in which $wid is the window and
// `shoot N` writes <dir>/shot-N.png (e.g. "xdotool key End; sleep 0.6;
// shoot 1"). Afterwards the app is stopped. shots[i] is shot-i.png, empty
// when it was not written.
struct Driven {
    RunResult run;
    std::vector<Image> shots;
};
Driven drive_app(const std::string& dir, const std::string& app_args, const std::string& steps,
                 int shots);

// How many different colours a sparse sample of the image holds: a blank or
// single-colour frame gives a handful, a real picture dozens.
int distinct_colours(const Image& im);

// The fraction of pixels that differ (1.0 when the sizes differ).
double difference(const Image& a, const Image& b);

}  // namespace ll::test
