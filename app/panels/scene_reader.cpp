#include "app/panels/scene_reader.hpp"

#include <cmath>
#include <cstdio>

#include "core/checked.hpp"
#include "core/error.hpp"

namespace ll::gui {

SceneReader::SceneReader(const nlohmann::json& j, std::string panel, std::string prefix)
    : j_(j), panel_(std::move(panel)), prefix_(std::move(prefix)) {}

void SceneReader::fail(const char* key, const nlohmann::json& v,
                       const std::string& expected) const {
    std::string shown = v.dump();
    if (shown.size() > 80) shown = shown.substr(0, 77) + "...";
    const std::string msg =
        panel_ + " scene: " + prefix_ + key + " = " + shown + "; expected " + expected;
    throw UsageError(prefix_ + key, msg, msg);
}

void SceneReader::rethrow(const std::exception& e) const {
    if (const auto* u = dynamic_cast<const UsageError*>(&e); u && !u->key().empty()) {
        // "shape: ..." under reader "a." reads "compare scene: a.shape: ...".
        const std::string what = u->what();
        const bool keyed = what.compare(0, u->key().size(), u->key()) == 0;
        const std::string msg = panel_ + " scene: " + (keyed ? prefix_ : "") + what;
        throw UsageError(prefix_ + u->key(), msg, msg);
    }
    throw UsageError(panel_ + " scene: " + e.what());
}

void SceneReader::only(std::initializer_list<const char*> known) const {
    if (!j_.is_object())
        throw UsageError(panel_ + " scene: " + (prefix_.empty() ? "the file" : prefix_) + " is " +
                         j_.dump().substr(0, 80) + "; expected a JSON object");
    for (auto it = j_.begin(); it != j_.end(); ++it) {
        const std::string& k = it.key();
        // Report keys --dump-view writes beside the settings (the panel's
        // probe, the window, presentation mode's rectangles) load back ignored.
        bool ok =
            prefix_.empty() && (k == "panel" || k == "window" || k == "screen" || k == "probe" ||
                                k == "present" || k == "diagram" || k == "slide");
        for (const char* q : known) ok = ok || k == q;
        if (ok) continue;
        std::string list;
        for (const char* q : known) list += std::string(list.empty() ? "" : ", ") + q;
        const std::string msg =
            panel_ + " scene: unknown key " + prefix_ + k + "; expected one of " + list;
        throw UsageError(prefix_ + k, msg, msg);
    }
}

void SceneReader::get(const char* key, int64_t& v, int64_t lo, int64_t hi) const {
    if (!has(key)) return;
    const auto& x = j_.at(key);
    const std::string range = "an integer in " + std::to_string(lo) + ".." + std::to_string(hi);
    if (x.is_number_float()) {  // 16.0 is 16; 16.5, 1e32 and nan are refused
        try {
            v = exact_integer(x.get<double>(), key, lo, hi);
        } catch (const UsageError&) {
            fail(key, x, range);
        }
        return;
    }
    if (!x.is_number_integer()) fail(key, x, range);
    // Unsigned JSON integers above INT64_MAX read as negative through get<int64_t>.
    if (x.is_number_unsigned() && x.get<uint64_t>() > uint64_t(INT64_MAX)) fail(key, x, range);
    const auto y = x.get<int64_t>();
    if (y < lo || y > hi) fail(key, x, range);
    v = y;
}

void SceneReader::get(const char* key, int& v, int lo, int hi) const {
    int64_t w = v;
    get(key, w, lo, hi);
    v = int(w);
}

void SceneReader::get(const char* key, double& v, double lo, double hi) const {
    if (!has(key)) return;
    const auto& x = j_.at(key);
    char range[96];
    std::snprintf(range, sizeof range, "a number in %g..%g", lo, hi);
    if (!x.is_number()) fail(key, x, range);
    const auto y = x.get<double>();
    if (!std::isfinite(y) || !(y >= lo && y <= hi)) fail(key, x, range);
    v = y;
}

void SceneReader::get(const char* key, float& v, float lo, float hi) const {
    double d = v;
    get(key, d, double(lo), double(hi));
    v = float(d);
}

void SceneReader::get(const char* key, bool& v) const {
    if (!has(key)) return;
    const auto& x = j_.at(key);
    if (!x.is_boolean()) fail(key, x, "true or false");
    v = x.get<bool>();
}

void SceneReader::get(const char* key, std::string& v) const {
    if (!has(key)) return;
    const auto& x = j_.at(key);
    if (!x.is_string()) fail(key, x, "a string");
    v = x.get<std::string>();
}

void SceneReader::get_choice(const char* key, std::string& v,
                             const std::vector<std::string>& choices) const {
    if (!has(key)) return;
    const auto& x = j_.at(key);
    std::string list;
    for (const std::string& c : choices) list += (list.empty() ? "" : ", ") + c;
    if (!x.is_string()) fail(key, x, "one of " + list);
    for (const std::string& c : choices)
        if (x.get<std::string>() == c) {
            v = c;
            return;
        }
    fail(key, x, "one of " + list);
}

void SceneReader::get_pair(const char* key, int64_t& a, int64_t& b, int64_t lo, int64_t hi) const {
    if (!has(key)) return;
    const auto& x = j_.at(key);
    const std::string what = "an integer or a pair [h, w] of integers in " + std::to_string(lo) +
                             ".." + std::to_string(hi);
    auto ok = [&](const nlohmann::json& e) {
        return e.is_number_integer() &&
               !(e.is_number_unsigned() && e.get<uint64_t>() > uint64_t(INT64_MAX)) &&
               e.get<int64_t>() >= lo && e.get<int64_t>() <= hi;
    };
    if (ok(x)) {
        a = b = x.get<int64_t>();
    } else if (x.is_array() && x.size() == 2 && ok(x[0]) && ok(x[1])) {
        a = x[0].get<int64_t>();
        b = x[1].get<int64_t>();
    } else {
        fail(key, x, what);
    }
}

void SceneReader::get_list(const char* key, std::vector<int64_t>& v, size_t max_n, int64_t lo,
                           int64_t hi) const {
    if (!has(key)) return;
    const auto& x = j_.at(key);
    const std::string what = "a list of 1.." + std::to_string(max_n) + " integers in " +
                             std::to_string(lo) + ".." + std::to_string(hi);
    if (!x.is_array() || x.empty() || x.size() > max_n) fail(key, x, what);
    std::vector<int64_t> out(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
        const std::string k = std::string(key) + "[" + std::to_string(i) + "]";
        const nlohmann::json one = {{k, x[i]}};
        SceneReader(one, panel_, prefix_).get(k.c_str(), out[i], lo, hi);
    }
    v = std::move(out);
}

SceneReader SceneReader::item(const char* key, size_t i) const {
    return SceneReader(j_.at(key).at(i), panel_, prefix_ + key + "[" + std::to_string(i) + "].");
}

SceneReader SceneReader::sub(const char* key) const {
    static const nlohmann::json empty = nlohmann::json::object();
    if (!has(key)) return SceneReader(empty, panel_, prefix_ + key + ".");
    return SceneReader(j_.at(key), panel_, prefix_ + key + ".");
}

}  // namespace ll::gui
