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

#include "app/panels/scene_reader.hpp"

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

// The one scene reader (app/panels/scene_reader.hpp), under its old name here.
using ll::gui::SceneReader;

// [x0, y0, x1, y1] in window pixels.
nlohmann::json rect_json(ImVec2 a, ImVec2 b);

}  // namespace ll::gui::compute
