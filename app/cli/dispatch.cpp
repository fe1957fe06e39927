#include "app/cli/dispatch.hpp"

#include <iostream>
#include <map>
#include <new>
#include <string>

#include "app/cli/command.hpp"
#include "app/cli/flags.hpp"
#include "app/gui/gui.hpp"
#include "core/error.hpp"
#include "core/validate_only.hpp"

namespace ll::cli {

namespace {

// CLI11 says "Could not convert: --threads = 1.5": name the flag first, as
// every other message does, and say what its type takes.
std::string conversion_message(CLI::App& app, const std::string& what) {
    const std::string lead = "Could not convert: ", eq = " = ";
    const size_t at = what.find(eq);
    if (what.rfind(lead, 0) != 0 || at == std::string::npos)
        return what + " (see 'layoutlab --help')";
    const std::string flag = what.substr(lead.size(), at - lead.size());
    const std::string value = what.substr(at + eq.size());
    std::string type;
    auto find = [&](CLI::App* a) {
        const CLI::Option* o = a->get_option_no_throw(flag);
        if (o && type.empty()) type = o->get_type_name();
    };
    for (CLI::App* sub : app.get_subcommands()) find(sub);
    find(&app);
    // (a checked option's type reads e.g. "INT:POSITIVE")
    auto is = [&type](const char* t) { return type.rfind(t, 0) == 0; };
    if (is("INT") || is("UINT"))
        return flag + ": '" + value + "' is not a whole number; expected one such as 4";
    if (is("FLOAT")) return flag + ": '" + value + "' is not a number; expected one such as 0.5";
    return flag + ": '" + value + "' could not be read; expected a value as --help shows it";
}

int report(const std::string& msg, int code) {
    std::cerr << "error: " << msg << "\n";
    return code;
}

// True when `cmd` has the flag "--x" (each of "--x/--y").
bool has_flag(const CLI::App& cmd, const std::string& flag) {
    size_t i = 0;
    while (i < flag.size()) {
        size_t j = flag.find('/', i);
        if (j == std::string::npos) j = flag.size();
        if (!cmd.get_option_no_throw(flag.substr(i, j - i))) return false;
        i = j + 1;
    }
    return true;
}

// Runs f, turning every escape into a message and an exit code; an engine
// error about a parameter names `cmd`'s flag for it.
template <class F>
int guarded(const CLI::App& cmd, F&& f) {
    try {
        return f();
    } catch (const ValidatedOnly&) {
        return 0;  // a validate-only run stopped where the work starts
    } catch (const UsageError& e) {
        return report(cli_message(e, [&](const std::string& fl) { return has_flag(cmd, fl); }), 2);
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

    // `layoutlab CMD ...` builds only CMD's parser: building all of them
    // costs about 1 ms, more than parsing and checking most command lines
    // (the CLI fuzz target runs this thousands of times a second). Any other
    // first argument (--help, a window flag) builds every command's parser.
    // The window's options are added only then too: after a command they
    // are rejected either way (no fallthrough), and registering them was
    // half of each fuzzed command line's time (CLI11 checks every new name
    // against all earlier ones).
    const std::string first = argc > 1 ? argv[1] : "";
    bool named = false;
    for (const auto& c : commands()) named = named || first == c.name;
    gui::Options gui_options;
    if (!named) gui::add_options(app, gui_options);
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
    } catch (const CLI::ConversionError& e) {
        return report(conversion_message(app, e.what()), 2);
    } catch (const CLI::ParseError& e) {
        return report(std::string(e.what()) + " (see 'layoutlab --help')", 2);
    }

    for (auto& [sub, run] : runners)
        if (sub->parsed()) return guarded(*sub, run);
    return guarded(app, [&] { return gui::run(gui_options); });
}

}  // namespace ll::cli
