// Helpers shared by the execution-engine panels (img2col, LoadData, Cube,
// convolution): labelled input fields (the label BEFORE the field, so a row
// of controls reads "N [1]  Cin [3]  Cout [4]"), a red frame on the field an
// engine error names, reading scene files key by key with errors that name
// the key, and screen rectangles for --dump-view.
//
// Scene readers throw UsageError "<panel> scene: <key> = <value>; expected
// <what>", e.g. `"repeat": "x"` in a LoadData scene gives
//   LoadData scene: v1.repeat = "x"; expected an integer in 1..255
#pragma once

#include <imgui.h>

#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>

namespace ll::gui::compute {

extern const ImVec4 kErrColour;

// After ImGui::SameLine(): moves to a new line when less than `width` pixels
// remain, so rows of controls wrap in a narrow window instead of running off.
void wrap_for(float width);

// "label [field]" on the current line (wrapping when it does not fit);
// returns true when edited. `bad`
// frames the field in red (the engine's message names this parameter).
bool labelled_int(const char* label, int64_t& v, float width = 90, bool bad = false);
bool labelled_float(const char* label, float& v, float lo, float hi, const char* fmt,
                    float width = 160);

// True when the engine's error message `err` is about `param` (it starts
// with the parameter's name, as core/exec/check.hpp writes them).
bool names(const std::string& err, const char* param);

// Scene readers. Absent keys leave the value alone. `key` is the full path
// shown in messages (e.g. "v1.repeat"), `leaf` the key inside `j`.
class SceneReader {
  public:
    SceneReader(const nlohmann::json& j, std::string panel, std::string prefix = "");
    // Throws when `j` is not an object or holds a key not in `known` (the
    // app's own "panel", "window" and "screen" keys are always allowed).
    void only(std::initializer_list<const char*> known) const;
    void get(const char* key, int64_t& v, int64_t lo, int64_t hi) const;
    void get(const char* key, int& v, int lo, int hi) const;
    void get(const char* key, float& v, float lo, float hi) const;
    void get(const char* key, bool& v) const;
    void get(const char* key, std::string& v) const;
    // A pair [a, b] of integers, or one integer for both.
    void get_pair(const char* key, int64_t& a, int64_t& b, int64_t lo, int64_t hi) const;
    // The nested object under `key` (an empty object when absent).
    SceneReader sub(const char* key) const;
    bool has(const char* key) const { return j_.is_object() && j_.contains(key); }
    [[noreturn]] void fail(const char* key, const nlohmann::json& v,
                           const std::string& expected) const;

  private:
    const nlohmann::json& j_;
    std::string panel_, prefix_;
};

// [x0, y0, x1, y1] in window pixels.
nlohmann::json rect_json(ImVec2 a, ImVec2 b);

}  // namespace ll::gui::compute
