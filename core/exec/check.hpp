// Parameter checks shared by the execution engine. Every failure is a
// UsageError that carries the parameter's key and whose text names the
// parameter and its valid range, e.g.
//   check_range("repeatTimes", 0, 1, 255) throws
//   "repeatTimes = 0 is out of range; expected 1..255"
// with key() == "repeatTimes" (the name before " (") and detail()
// "0 is out of range; expected 1..255".
#pragma once

#include <cstdint>
#include <string>

#include "core/error.hpp"

namespace ll::exec {

// "sid (reserved)" -> "sid": the key a front-end maps.
inline std::string param_key(const std::string& param) {
    const size_t cut = param.find(" (");
    return cut == std::string::npos ? param : param.substr(0, cut);
}

[[noreturn]] inline void fail_range(const std::string& param, int64_t v,
                                    const std::string& expected) {
    const std::string detail = std::to_string(v) + " is out of range; expected " + expected;
    throw UsageError(param_key(param), detail,
                     param + " = " + std::to_string(v) + " is out of range; expected " + expected);
}

// An error about parameter `key` whose message is "<key> <rest>", e.g.
// param_error("mStep", "= 3 with transpose ...; expected a multiple of 2").
inline UsageError param_error(const std::string& key, const std::string& rest) {
    return UsageError(key, rest, key + " " + rest);
}

inline void check_range(const std::string& param, int64_t v, int64_t lo, int64_t hi) {
    if (v < lo || v > hi) fail_range(param, v, std::to_string(lo) + ".." + std::to_string(hi));
}

inline void check_min(const std::string& param, int64_t v, int64_t lo) {
    if (v < lo) fail_range(param, v, ">= " + std::to_string(lo));
}

}  // namespace ll::exec
