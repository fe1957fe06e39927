// Errors the engine reports to its front-ends.
#pragma once

#include <stdexcept>
#include <string>

namespace ll {

// Bad input from a user: a value out of range, a malformed file, a shape that
// does not fit. Front-ends print "error: <what()>" and (CLI) exit with code 2.
// The message names what is wrong and what is expected, e.g.
//   "dtype: unknown dtype 'fp64'; expected one of int4, int8, ..."
//
// An error about one named parameter carries its key (the engine's own name,
// e.g. "shape", "l1_tile", "repeatTimes"): what() reads "<key>: <detail>"
// (or "<key> = 0 is ..." with the three-argument form), and a front-end maps
// the key to its own name for it (the CLI to its flag, app/cli/flags.hpp; a
// panel to the field it frames) without parsing the text. Core messages
// never quote a CLI flag (tests/core/core_messages_test.cpp checks).
class UsageError : public std::runtime_error {
  public:
    explicit UsageError(const std::string& msg) : std::runtime_error(msg) {}
    UsageError(std::string key, const std::string& detail)
        : std::runtime_error(key + ": " + detail), key_(std::move(key)), detail_(detail) {}
    // The same with the whole message written out (it names the parameter in
    // its own words, e.g. "repeatTimes = 0 is out of range; expected 1..255").
    UsageError(std::string key, const std::string& detail, const std::string& message)
        : std::runtime_error(message), key_(std::move(key)), detail_(detail) {}
    // The parameter this error is about; empty when it names none.
    const std::string& key() const { return key_; }
    // The message without the key (what() when there is no key).
    std::string detail() const { return key_.empty() ? what() : detail_; }

  private:
    std::string key_, detail_;
};

}  // namespace ll
