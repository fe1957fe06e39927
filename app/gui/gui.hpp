// The window front-end. Options are the top-level flags of `layoutlab`
// (no subcommand): they choose the scene and, for headless capture, a
// screenshot path or a frame-time benchmark.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "app/gui/recorder.hpp"

namespace ll::gui {

struct Options {
    // Scene: a file, then single flags on top of it ("" = not given).
    std::string panel;  // registry id of the full-window panel ("" = scene's or explorer)
    std::string scene, from, to, via, shape, dtype, c0, fractal, pad_value, image, colour, stage;
    std::string screenshot;  // write a PNG of the scene and exit
    std::string dump_view;   // with --screenshot: JSON of the view cameras
    std::string size = "1280x800";
    std::string theme;       // "dark" or "light"
    std::string lang;        // "en" or "zh" ("" = remembered / $LANG / en)
    std::string dump_fonts;  // with --screenshot: JSON of the font atlas (app/i18n/fonts.hpp)
    std::string dump_text;   // with --screenshot: the text drawn (app/i18n/text_audit.hpp)
    float ui_scale = 0;      // 0 = remembered / 1
    int bench_frames = 0;    // render N animating frames, print frame times
    std::string signal_dir;  // tests: SIGUSR1 writes <dir>/shot-<n>.png
    bool no_config = false;  // neither read nor write ~/.config/layoutlab
    std::string lesson;      // a lesson file (app/gui/lesson_run.hpp)
    int slide = 0;           // with --lesson: start at slide N (1-based; 0 = the first)
    double hold = 0;         // with --lesson --record: seconds per still slide (0 = lesson's)
    bool present = false;    // start in presentation mode (F5 toggles it)
    RecordOptions rec;       // --record / --frames / --fps (app/gui/recorder.hpp)
};

void add_options(CLI::App& app, Options& o);

// Opens the window and runs until it is closed. Returns the exit code.
int run(const Options& o);

}  // namespace ll::gui
