// Translating text the engine (core/) built: stage labels and formulas,
// picture captions, box and arrow labels, planning rules, error messages.
// Core stays English (the CLI prints it and scripts parse it); the window
// translates at its edge, where it shows such a string:
//
//   dl->AddText(p, col, tr_text(label.text).c_str());
//
// Lookup, in Chinese: an exact entry of assets/i18n/zh_core.json first, then
// its templates, entries whose English holds placeholders {0}, {1}, ...:
//   "source {0}"  ->  "源 {0}"      matches "source FRACTAL_NZ"
// A placeholder matches any non-empty text; the text it matched is itself
// looked up (exact entries and templates, a few levels deep), so
// "(M, N) -> pad -> (M1*M0, N)" becomes "(M, N) -> 补齐 -> (M1*M0, N)".
// Templates with more fixed text are tried first. Text nothing matches stays
// English, unchanged. In English tr_text returns its argument.
// Results are cached (the renderer asks for the same labels every frame).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace ll::i18n {

std::string tr_text(const std::string& en);

// A text core wrapped into lines (a caption drawn as several labels): the
// lines joined with spaces are translated as one text, and the translation is
// cut back into as many lines of about equal length (after a Chinese comma or
// a space where one is near). Untranslated, each line goes through tr_text.
std::vector<std::string> tr_lines(const std::vector<std::string>& lines);

// assets/i18n/zh_core.json as parsed: (English, Chinese) pairs, exact
// entries and templates, for the catalog test and the font's glyph list.
const std::vector<std::pair<std::string, std::string>>& zh_core_entries();

// With LAYOUTLAB_TR_MISSES=<file> set, every core text the window shows in
// Chinese that nothing translated is appended to that file once (a
// translator's to-do list; see docs/GLOSSARY.md).
void note_miss(const std::string& en);

}  // namespace ll::i18n

using ll::i18n::tr_text;
