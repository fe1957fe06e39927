// Helpers shared by the execution-engine panels (img2col, LoadData, Cube,
// convolution): labelled input fields (the label BEFORE the field, so a row
// of controls reads "N [1]  Cin [3]  Cout [4]"), a red frame on the field an
// engine error is about (its UsageError::key()), the scene reader, and
// screen rectangles for --dump-view.
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

// Error text and borders: the palette's error colour of the current theme.
ImVec4 err_colour();

// After ImGui::SameLine(): moves to a new line when less than `width` pixels
// remain, so rows of controls wrap in a narrow window instead of running off.
void wrap_for(float width);

// "label [field]" on the current line (wrapping when it does not fit);
// returns true when edited. `bad`
// frames the field in red (the engine's message names this parameter).
bool labelled_int(const char* label, int64_t& v, float width = 90, bool bad = false);
bool labelled_float(const char* label, float& v, float lo, float hi, const char* fmt,
                    float width = 160);

// The one scene reader (app/panels/scene_reader.hpp), under its old name here.
using ll::gui::SceneReader;

// [x0, y0, x1, y1] in window pixels.
nlohmann::json rect_json(ImVec2 a, ImVec2 b);

}  // namespace ll::gui::compute
