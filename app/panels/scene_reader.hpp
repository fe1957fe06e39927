// The one reader of scene files (and lesson slides) for every panel: reads a
// panel's settings key by key, leaves absent keys alone, and throws a
// UsageError that carries the key, e.g. `"repeat": "x"` in a LoadData scene:
//   LoadData scene: load2d.repeat = "x"; expected an integer in 1..255
// (key() == "load2d.repeat"). Unknown keys are errors naming the key and the
// keys the panel knows. Numbers pass core's checks (core/checked.hpp): an
// integer may be written 16 or 16.0 (16.5, 1e32 are refused), floats are
// finite and in range; nesting is bounded when the file is parsed
// (core/io/json_input.hpp).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ll::gui {

class SceneReader {
  public:
    SceneReader(const nlohmann::json& j, std::string panel, std::string prefix = "");
    // Throws when `j` is not an object or holds a key not in `known` (the
    // app's own "panel", "window" keys and a --dump-view's "probe" (and
    // "screen" of older dumps) are always allowed).
    void only(std::initializer_list<const char*> known) const;
    void get(const char* key, int64_t& v, int64_t lo, int64_t hi) const;
    void get(const char* key, int& v, int lo, int hi) const;
    void get(const char* key, float& v, float lo, float hi) const;
    void get(const char* key, double& v, double lo, double hi) const;
    void get(const char* key, bool& v) const;
    void get(const char* key, std::string& v) const;
    // One of `choices` (exact match).
    void get_choice(const char* key, std::string& v, const std::vector<std::string>& choices) const;
    // A pair [a, b] of integers, or one integer for both.
    void get_pair(const char* key, int64_t& a, int64_t& b, int64_t lo, int64_t hi) const;
    // A list of 1..max_n integers, each in lo..hi, e.g. a shape [2, 16, 28].
    void get_list(const char* key, std::vector<int64_t>& v, size_t max_n, int64_t lo,
                  int64_t hi) const;
    // The nested object under `key` (an empty object when absent).
    SceneReader sub(const char* key) const;
    // Element i of the list under `key`; its keys read "key[i].name".
    SceneReader item(const char* key, size_t i) const;
    bool has(const char* key) const { return j_.is_object() && j_.contains(key); }
    const nlohmann::json& at(const char* key) const { return j_.at(key); }
    [[noreturn]] void fail(const char* key, const nlohmann::json& v,
                           const std::string& expected) const;
    // Rethrows an engine error about this scene with the panel's name in
    // front, keeping the engine's key (under this reader's prefix).
    [[noreturn]] void rethrow(const std::exception& e) const;

  private:
    const nlohmann::json& j_;
    std::string panel_, prefix_;
};

}  // namespace ll::gui
