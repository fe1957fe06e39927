// libFuzzer target: the command line of every command. The first line names
// the command, the rest is split at newlines into arguments and run through
// the real dispatcher, exactly as `layoutlab CMD ARGS`, in a validate-only run
// (core/validate_only.hpp): CLI11's parse and every check of the command's
// runner (shapes, ranks, ranges, files, work budgets) run, and the command
// stops where its work would start. That keeps one execution well under a
// millisecond, so every command's parser and checks get millions of runs.
// Options that write files (--output, --svg, --png, --csv, ...) or time
// things (--bench) are dropped. The target checks that every input ends in
// success or an "error:" (exit 2), never a crash, a sanitizer report or an
// internal error (exit 1).
//
// LAYOUTLAB_FUZZ_CLI_RUN=1 runs the commands' work too (with low work
// budgets, as this target did before): slow, about 200 runs a second, for an
// occasional deep run over the engines behind the commands.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "app/cli/command.hpp"
#include "app/cli/dispatch.hpp"
#include "core/validate_only.hpp"

namespace {

bool g_full_run = false;  // LAYOUTLAB_FUZZ_CLI_RUN: do the work too

bool dropped(const std::string& a) {
    for (const char* p : {"--output", "--svg", "--png", "--csv", "--bench", "--screenshot",
                          "--dump-view", "--help-all"})
        if (a.rfind(p, 0) == 0) return true;
    // Budgets are the fuzzer's to choose when no work runs.
    return g_full_run && a.rfind("--max-", 0) == 0;
}

// Never destroyed: std::cout and std::cerr point at it until the process ends.
std::ostringstream& sink = *new std::ostringstream;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    const char* full = std::getenv("LAYOUTLAB_FUZZ_CLI_RUN");
    g_full_run = full && *full && std::string(full) != "0";
    ll::set_validate_only(!g_full_run);
    // The commands print; keep libFuzzer's own stderr output readable.
    std::cout.rdbuf(sink.rdbuf());
    std::cerr.rdbuf(sink.rdbuf());
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const auto& cmds = ll::cli::commands();
    if (size == 0 || cmds.empty()) return 0;
    // The first line names the command; anything else picks one by its first
    // byte (so seeds stay valid when commands are added).
    size_t i = 0;
    while (i < size && data[i] != '\n') ++i;
    std::string cmd(reinterpret_cast<const char*>(data), i);
    bool known = false;
    for (const auto& c : cmds) known = known || cmd == c.name;
    if (!known) cmd = cmds[data[0] % cmds.size()].name;
    std::vector<std::string> args{"layoutlab", cmd};
    std::string cur;
    for (++i; i <= size; ++i) {
        if (i == size || data[i] == '\n') {
            if (!dropped(cur)) args.push_back(cur);
            cur.clear();
            if (args.size() > 64) break;
        } else {
            cur += char(data[i]);
        }
    }
    if (g_full_run) {
        // Low budgets: what is checked is the refusal, not the long run.
        if (cmd == "convert") args.insert(args.end(), {"--max-bytes", "67108864"});
        if (cmd == "conv" || cmd == "noc" || cmd == "agu")
            args.insert(args.end(), {"--max-steps", "20000000"});
        if (cmd == "sweep") args.insert(args.end(), {"--max-configs", "200000"});
    }
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    const int rc = ll::cli::dispatch(int(args.size()), argv.data());
    sink.str("");
    if (rc == 1) __builtin_trap();  // "internal": an escape that is not a UsageError
    return 0;
}
