// The window's font atlas: DejaVu Sans for Latin text, with WenQuanYi Micro
// Hei (fonts-wqy-microhei) merged in for exactly the CJK characters needed:
// the catalog's text in the current language, plus whatever the window has
// been asked to show since (want_glyphs: scene and lesson strings, file
// names, typed input). A full CJK font bakes ~28 000 glyphs; this bakes a few
// hundred, so start-up time and memory stay close to the Latin-only window.
// English with no CJK text wanted does not open the CJK font at all.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

namespace ll::i18n {

// UTF-8 to code points; a malformed byte becomes U+FFFD.
std::vector<uint32_t> code_points(std::string_view utf8);

// Text the window will show: code points the atlas lacks are remembered and
// the atlas is rebuilt before the next frame (see glyphs_pending).
void want_glyphs(std::string_view utf8);
void want_glyph(uint32_t code_point);
// Every string inside a scene or lesson (values and keys, nested).
void want_glyphs_in(const nlohmann::json& j);
// True when want_glyphs met a character the atlas lacks.
bool glyphs_pending();

// Clears ImGui's atlas and adds the fonts at this UI scale (16 px * scale);
// the caller builds it and uploads the texture. Call between frames.
void add_fonts(float scale);

// The platform reports how long the last atlas build and upload took.
void note_atlas_build_ms(double ms);

// For tests and --dump-fonts: the language, what was baked, and which
// characters of the catalog (current language) and of the wanted text the
// live font lacks (ImFont::FindGlyphNoFallback == null). ImGui must be live.
nlohmann::json font_report();

}  // namespace ll::i18n
