// What text the window drew, for the test that keeps the Chinese window
// Chinese (tests/gui/chinese_test.cpp) and for a translator looking for what
// is left (`layoutlab --lang zh --panel X --screenshot x.png --dump-text
// x.json`).
//
// While enabled, every frame's text is read back from ImGui's draw data
// (text_audit_frame.cpp): every glyph drawn, joined into the strings as they
// sit on screen, whoever drew them (widgets, tables, menus, picture labels,
// plots). Captions and plot text also report the string they draw (note()),
// and catalog lookups that found nothing (tr() and tr_text() in Chinese) are
// recorded. Disabled (the default), every call here returns at once.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>

namespace ll::i18n::audit {

void enable();
bool enabled();

// After ImGui::Render: reads the frame's text from the draw data
// (text_audit_frame.cpp, needs ImGui).
void frame_end();
// Text read from the screen, one string per line.
void add_lines(std::string_view text);

// Text drawn outside ImGui's widgets (a draw list's AddText).
void note(std::string_view text);
// A line of text some of whose glyphs were cut by the edge (left or right)
// of the clip rectangle they were drawn in: a table column, a pane or the
// window too narrow for it (lines scrolled out at the top or bottom do not
// count; text fields that scroll their text do, when they are too narrow).
void cut(std::string_view text);
// The colour (ImGui's packed RGBA) a line of text was first drawn in, for
// tests of its contrast against the theme's window.
void ink(std::string_view text, uint32_t rgba);
// A catalog lookup in Chinese that returned its English.
void miss(std::string_view en);

// {"lines": [...], "drawn": [...], "misses": [...], "cut": [...],
//  "ink": [{"text", "rgba": [r, g, b, a]}, ...]}: each distinct text seen
// since enable(), in the order first seen.
nlohmann::json report();

}  // namespace ll::i18n::audit
