// Errors the engine reports to its front-ends.
#pragma once

#include <stdexcept>
#include <string>

namespace ll {

// Bad input from a user: a value out of range, a malformed file, a shape that
// does not fit. Front-ends print "error: <what()>" and (CLI) exit with code 2.
// The message names what is wrong and what is expected, e.g.
//   "--dtype: unknown dtype 'fp64'; expected one of int4, int8, ..."
class UsageError : public std::runtime_error {
public:
    explicit UsageError(const std::string& msg) : std::runtime_error(msg) {}
};

}  // namespace ll
