#include "app/cli/dispatch.hpp"

#include <iostream>
#include <map>
#include <new>
#include <string>

#include "app/cli/command.hpp"
#include "app/gui/gui.hpp"
#include "core/error.hpp"
#include "core/validate_only.hpp"

namespace ll::cli {

namespace {

int report(const std::string& msg, int code) {
    std::cerr << "error: " << msg << "\n";
    return code;
}

// Runs f, turning every escape into a message and an exit code.
template <class F>
int guarded(F&& f) {
    try {
        return f();
    } catch (const ValidatedOnly&) {
        return 0;  // a validate-only run stopped where the work starts
    } catch (const UsageError& e) {
        return report(e.what(), 2);
    } catch (const CLI::Error& e) {
        return report(e.what(), 2);
    } catch (const std::bad_alloc&) {
        return report("out of memory; expected a smaller tensor", 2);
    } catch (const std::exception& e) {
        return report(std::string("internal: ") + e.what(), 1);
    }
}

}  // namespace

int dispatch(int argc, char** argv) {
    CLI::App app{
        "LayoutLab: see how tensors are laid out in memory on AI accelerators.\n"
        "Run without a command to open the window; with a command to work headless."};
    app.set_version_flag("--version", std::string("layoutlab ") + LAYOUTLAB_VERSION);
    app.require_subcommand(0, 1);

    gui::Options gui_options;
    gui::add_options(app, gui_options);

    // `layoutlab CMD ...` builds only CMD's parser: building all of them
    // costs about 1 ms, more than parsing and checking most command lines
    // (the CLI fuzz target runs this thousands of times a second). Any other
    // first argument (--help, a window flag) builds every command's parser.
    const std::string first = argc > 1 ? argv[1] : "";
    bool named = false;
    for (const auto& c : commands()) named = named || first == c.name;
    std::map<const CLI::App*, Runner> runners;
    for (const auto& c : commands()) {
        if (named && first != c.name) continue;
        CLI::App* sub = app.add_subcommand(c.name, c.summary);
        runners[sub] = c.setup(*sub);
    }

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        return report(std::string(e.what()) + " (see 'layoutlab --help')", 2);
    }

    for (auto& [sub, run] : runners)
        if (sub->parsed()) return guarded(run);
    return guarded([&] { return gui::run(gui_options); });
}

}  // namespace ll::cli
