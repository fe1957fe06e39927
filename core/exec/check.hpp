// Parameter checks shared by the execution engine. Every failure is a
// UsageError whose text names the parameter and its valid range, e.g.
//   check_range("repeatTimes", 0, 1, 255) throws
//   "repeatTimes = 0 is out of range; expected 1..255"
#pragma once

#include <cstdint>
#include <string>

#include "core/error.hpp"

namespace ll::exec {

inline void check_range(const std::string& param, int64_t v, int64_t lo, int64_t hi) {
    if (v < lo || v > hi)
        throw UsageError(param + " = " + std::to_string(v) + " is out of range; expected " +
                         std::to_string(lo) + ".." + std::to_string(hi));
}

inline void check_min(const std::string& param, int64_t v, int64_t lo) {
    if (v < lo)
        throw UsageError(param + " = " + std::to_string(v) +
                         " is out of range; expected >= " + std::to_string(lo));
}

}  // namespace ll::exec
