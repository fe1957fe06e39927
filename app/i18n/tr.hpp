// The window's message catalog: every string the window shows is written in
// English at its call site and looked up here when the language is Chinese.
//
//   ImGui::TextUnformatted(tr("Colour"));        text: the translation
//   ImGui::Button(tr_id("Play"));                widget: translation + "###Play"
//   const char* title = trn("Explorer");         a key kept for a later tr(title)
//
// tr_id keeps the widget's ImGui ID the English text, so switching language at
// run time keeps every slider, combo and window where it was. A label with an
// ID suffix ("Stage##slider") is translated on its visible part only.
// The catalog is assets/i18n/zh.json (English -> Chinese), compiled into the
// binary; tests/app/catalog_test.cpp checks that every tr/tr_id/trn literal in
// app/ has a non-empty entry and that the catalog has no unused one.
// Printf formats ("UI scale %.0f%%") are keys too: a translation keeps the
// same conversions in the same order (the test checks that as well).
// The CLI never calls these: it stays English.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace ll::i18n {

enum class Lang { en, zh };

// "en" / "zh"; false for anything else.
bool parse_lang(const std::string& name, Lang& out);
const char* lang_name(Lang l);

void set_language(Lang l);
Lang language();

// The catalog's translation of `en`, or `en` itself (English, or no entry).
const char* tr(const char* en);
std::string tr(const std::string& en);
// For widgets: "<translation>###<en>", so the ID does not depend on the language.
const char* tr_id(const char* en);
// Marks a literal as a catalog key without translating it (tables of titles).
constexpr const char* trn(const char* en) {
    return en;
}

// The Chinese catalog as parsed: (English, Chinese) pairs sorted by English.
const std::vector<std::pair<std::string, std::string>>& zh_entries();

}  // namespace ll::i18n

// Call sites write tr(...) without the namespace.
using ll::i18n::tr;
using ll::i18n::tr_id;
using ll::i18n::trn;
