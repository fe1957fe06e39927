#include "core/io/json_input.hpp"

#include <cmath>

#include "core/checked.hpp"
#include "core/error.hpp"
#include "core/io/input_file.hpp"

namespace ll {

namespace {

struct TooDeep {};

}  // namespace

nlohmann::json parse_json_bounded(const std::string& text, const std::string& what, int max_depth) {
    // The callback sees every value as it is parsed, with the nesting depth
    // of the container it opens; refusing there keeps the document (and any
    // later copy or walk of it) at most max_depth deep.
    auto cb = [max_depth](int depth, nlohmann::json::parse_event_t ev, nlohmann::json&) {
        if ((ev == nlohmann::json::parse_event_t::object_start ||
             ev == nlohmann::json::parse_event_t::array_start) &&
            depth >= max_depth)
            throw TooDeep{};
        return true;
    };
    try {
        return nlohmann::json::parse(text, cb);
    } catch (const TooDeep&) {
        throw UsageError(what + ": JSON nested more than " + std::to_string(max_depth) +
                         " levels deep; expected at most " + std::to_string(max_depth));
    } catch (const nlohmann::json::exception& e) {
        // parse_error (malformed) and out_of_range (a number like 1e400 that
        // no double holds) alike.
        std::string m = e.what();
        const size_t p = m.find("] ");
        if (p != std::string::npos) m = m.substr(p + 2);
        throw UsageError(what + ": bad JSON (" + m + "); expected a valid JSON document");
    }
}

nlohmann::json read_json_file(const std::string& path, const std::string& what, int64_t max_bytes) {
    return parse_json_bounded(read_input_file(path, what, max_bytes), what);
}

std::string json_kind(const nlohmann::json& v) {
    switch (v.type()) {
        case nlohmann::json::value_t::null:
            return "null";
        case nlohmann::json::value_t::object:
            return "an object";
        case nlohmann::json::value_t::array:
            return "an array";
        case nlohmann::json::value_t::string:
            return "a string";
        case nlohmann::json::value_t::boolean:
            return "a boolean";
        case nlohmann::json::value_t::binary:
            return "binary data";
        case nlohmann::json::value_t::discarded:
            return "a discarded value";
        default:
            return "a number";
    }
}

int64_t json_int(const nlohmann::json& v, const std::string& what, int64_t lo, int64_t hi) {
    const std::string range = std::to_string(lo) + ".." + std::to_string(hi);
    if (v.is_number_unsigned()) {
        const uint64_t u = v.get<uint64_t>();
        if (u > uint64_t(INT64_MAX) || int64_t(u) > hi || int64_t(u) < lo)
            throw UsageError(what + ": " + std::to_string(u) +
                             " is out of range; expected an integer " + range);
        return int64_t(u);
    }
    if (v.is_number_integer()) {
        const int64_t i = v.get<int64_t>();
        if (i < lo || i > hi)
            throw UsageError(what + ": " + std::to_string(i) +
                             " is out of range; expected an integer " + range);
        return i;
    }
    if (v.is_number_float()) return exact_integer(v.get<double>(), what, lo, hi);
    throw UsageError(what + ": " + json_kind(v) + " (" + v.dump().substr(0, 40) +
                     "); expected an integer " + range);
}

double json_float(const nlohmann::json& v, const std::string& what, double lo, double hi) {
    if (!v.is_number())
        throw UsageError(what + ": " + json_kind(v) + " (" + v.dump().substr(0, 40) +
                         "); expected a number " + number_text(lo) + ".." + number_text(hi));
    return checked_float(v.get<double>(), what, lo, hi);
}

std::string json_string(const nlohmann::json& v, const std::string& what) {
    if (!v.is_string())
        throw UsageError(what + ": " + json_kind(v) + " (" + v.dump().substr(0, 40) +
                         "); expected a string");
    return v.get<std::string>();
}

bool json_bool(const nlohmann::json& v, const std::string& what) {
    if (!v.is_boolean())
        throw UsageError(what + ": " + json_kind(v) + " (" + v.dump().substr(0, 40) +
                         "); expected true or false");
    return v.get<bool>();
}

void reject_unknown_keys(const nlohmann::json& obj, std::initializer_list<const char*> known,
                         const std::string& what) {
    if (!obj.is_object()) return;
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        bool ok = false;
        for (const char* k : known)
            if (it.key() == k) ok = true;
        if (!ok) {
            std::string list;
            for (const char* k : known) list += std::string(list.empty() ? "" : ", ") + k;
            throw UsageError(what + ": unknown key \"" + it.key().substr(0, 60) +
                             "\"; expected one of " + list);
        }
    }
}

}  // namespace ll
