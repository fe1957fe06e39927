// Work budgets of the commands: how much a command may compute or allocate
// before it refuses, checked before the work starts (core/checked.hpp,
// check_work). Every budget has a flag that raises it; --help shows the
// default, and the refusal names the flag.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace ll::cli {

// Memory for tensors and maps a command builds (convert, conv): 1 GiB.
constexpr int64_t kDefaultMaxBytes = int64_t(1) << 30;
// Model steps (multiply-adds of a reference check, route hops, addresses
// listed, ...): about a second of work.
constexpr int64_t kDefaultMaxSteps = 200'000'000;

// A whole number of at least 1 (CLI::PositiveNumber's own message prints
// its range as doubles: "0.000000 to 1797693..."). Text that is not a whole
// number passes here and is refused by the conversion to the option's type.
inline CLI::Validator positive_whole() {
    return CLI::Validator(
        [](std::string& s) -> std::string {
            long long v = 0;
            size_t used = 0;
            try {
                v = std::stoll(s, &used);
            } catch (const std::out_of_range&) {
                return s + " is too large; expected a whole number below 2^63";
            } catch (const std::exception&) {
                return "";
            }
            if (used != s.size() || v >= 1) return "";
            return s + " is not positive; expected a whole number of at least 1";
        },
        "POSITIVE");
}

inline void add_max_bytes(CLI::App& sub, int64_t& v, const std::string& what) {
    v = kDefaultMaxBytes;
    sub.add_option("--max-bytes", v, "refuse to allocate more than this many bytes for " + what)
        ->capture_default_str()
        ->check(positive_whole());
}

inline void add_max_steps(CLI::App& sub, int64_t& v, int64_t dflt, const std::string& what) {
    v = dflt;
    sub.add_option("--max-steps", v, "refuse " + what + " needing more steps than this")
        ->capture_default_str()
        ->check(positive_whole());
}

}  // namespace ll::cli
