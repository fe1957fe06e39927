// Reading JSON from users (graphs, scenes, settings): one bounded parse and
// checked getters, so a hostile document is refused with a message naming
// the key, never a crash, a stack overflow or a silent conversion.
//
// Contract:
//   parse_json_bounded(text, "--graph") refuses nesting deeper than
//     kMaxJsonDepth (checked while parsing, before any value is built deeper),
//     numbers that overflow a double (1e400) and malformed text, all as
//     UsageError "--graph: ...".
//   json_int(j, "\"c0\"", 0, 64): an integer, or a float that is exactly one
//     (16.0), within [0, 64]; 16.5, 1e32, "16", true are refused.
//   json_float(j, "\"speed\"", 0, 100): a finite number within the range.
//   reject_unknown_keys(obj, {"from","to"}, "--scene") names the first key
//     not in the list.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>

namespace ll {

// Deepest nesting accepted: far beyond any real graph or scene (they need 4).
constexpr int kMaxJsonDepth = 64;

nlohmann::json parse_json_bounded(const std::string& text, const std::string& what,
                                  int max_depth = kMaxJsonDepth);
// A regular file of at most max_bytes, parsed bounded.
nlohmann::json read_json_file(const std::string& path, const std::string& what, int64_t max_bytes);

int64_t json_int(const nlohmann::json& v, const std::string& what, int64_t lo, int64_t hi);
double json_float(const nlohmann::json& v, const std::string& what, double lo, double hi);
std::string json_string(const nlohmann::json& v, const std::string& what);
bool json_bool(const nlohmann::json& v, const std::string& what);

// UsageError naming the first key of `obj` not in `known`.
void reject_unknown_keys(const nlohmann::json& obj, std::initializer_list<const char*> known,
                         const std::string& what);

// Short description of a JSON value's type for messages ("a string", "an array").
std::string json_kind(const nlohmann::json& v);

}  // namespace ll
