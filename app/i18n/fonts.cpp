#include "app/i18n/fonts.hpp"

#include <imgui.h>

#include <fstream>
#include <set>

#include "app/i18n/tr.hpp"
#include "app/i18n/tr_text.hpp"

namespace ll::i18n {

namespace {

const char* kLatinFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
const char* kCjkFont = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc";

// ImGui 1.86 is built with 16-bit ImWchar: characters beyond the BMP cannot
// be baked (they show as ImGui's fallback).
constexpr uint32_t kMaxCodePoint = 0xFFFF;
// From CJK radicals on (ideographs, kana, CJK punctuation, full-width forms):
// DejaVu Sans has none of them, so these decide whether the CJK font loads.
constexpr uint32_t kFirstCjk = 0x2E80;

struct FontState {
    std::set<uint32_t> wanted;  // asked for by want_glyphs, all time
    std::set<uint32_t> baked;   // in the last atlas's ranges
    bool pending = false;       // wanted has characters baked lacks
    bool cjk_loaded = false;
    double build_ms = 0;  // the last atlas: add_fonts + Build + texture upload
    int builds = 0;
    Lang baked_lang = Lang::en;
    ImVector<ImWchar> ranges;              // must outlive the atlas build
    std::vector<std::string> wanted_text;  // for font_report (bounded)
};

FontState& state() {
    static FontState s;
    return s;
}

bool readable(const char* path) {
    return bool(std::ifstream(path));
}

}  // namespace

std::vector<uint32_t> code_points(std::string_view s) {
    std::vector<uint32_t> out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        const int n = c < 0x80             ? 0
                      : (c & 0xE0) == 0xC0 ? 1
                      : (c & 0xF0) == 0xE0 ? 2
                      : (c & 0xF8) == 0xF0 ? 3
                                           : -1;
        if (n < 0 || i + size_t(n) >= s.size() + (n == 0 ? 1 : 0)) {
            out.push_back(0xFFFD);
            ++i;
            continue;
        }
        uint32_t cp = n == 0 ? c : c & (0x3Fu >> n);
        bool ok = true;
        for (int k = 1; k <= n; ++k) {
            const unsigned char t = static_cast<unsigned char>(s[i + size_t(k)]);
            ok = ok && (t & 0xC0) == 0x80;
            cp = (cp << 6) | (t & 0x3Fu);
        }
        if (!ok) {
            out.push_back(0xFFFD);
            ++i;
            continue;
        }
        out.push_back(cp);
        i += size_t(n) + 1;
    }
    return out;
}

void want_glyphs(std::string_view utf8) {
    bool ascii = true;
    for (char c : utf8) ascii = ascii && static_cast<unsigned char>(c) < 0x80;
    if (ascii) return;
    FontState& st = state();
    bool added = false;
    for (uint32_t cp : code_points(utf8)) {
        if (cp > kMaxCodePoint || cp < 0x80) continue;
        if (st.wanted.insert(cp).second) added = true;
        if (!st.baked.count(cp)) st.pending = true;
    }
    if (added && st.wanted_text.size() < 256) st.wanted_text.emplace_back(utf8);
}

void want_glyph(uint32_t cp) {
    if (cp < 0x80 || cp > kMaxCodePoint) return;
    FontState& st = state();
    st.wanted.insert(cp);
    if (!st.baked.count(cp)) st.pending = true;
}

void want_glyphs_in(const nlohmann::json& j) {
    if (j.is_string()) {
        want_glyphs(std::string_view(j.get_ref<const std::string&>()));
    } else if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it) {
            want_glyphs(std::string_view(it.key()));
            want_glyphs_in(it.value());
        }
    } else if (j.is_array()) {
        for (const auto& v : j) want_glyphs_in(v);
    }
}

bool glyphs_pending() {
    return state().pending || state().baked_lang != language();
}

void add_fonts(float scale) {
    FontState& st = state();
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();

    // The characters to bake: Latin-1, every character of the catalog text in
    // the current language (English keys hold a few symbols such as arrows),
    // and everything wanted so far.
    ImFontGlyphRangesBuilder b;
    b.AddRanges(io.Fonts->GetGlyphRangesDefault());
    std::set<uint32_t> chars;
    for (const auto& [en, zh] : zh_entries())
        for (uint32_t cp : code_points(language() == Lang::zh ? zh : en)) chars.insert(cp);
    // The engine's text as translated (tr_text.hpp): its templates' fixed text.
    for (const auto& [en, zh] : zh_core_entries())
        for (uint32_t cp : code_points(language() == Lang::zh ? zh : en)) chars.insert(cp);
    chars.insert(st.wanted.begin(), st.wanted.end());
    bool need_cjk = false;
    for (uint32_t cp : chars) {
        if (cp > kMaxCodePoint) continue;
        b.AddChar(ImWchar(cp));
        need_cjk = need_cjk || cp >= kFirstCjk;
    }
    st.ranges.clear();
    b.BuildRanges(&st.ranges);

    const float px = 16.f * scale;
    ImFont* f = readable(kLatinFont)
                    ? io.Fonts->AddFontFromFileTTF(kLatinFont, px, nullptr, st.ranges.Data)
                    : nullptr;
    if (!f) {
        ImFontConfig cfg;
        cfg.SizePixels = 13.f * scale;
        io.Fonts->AddFontDefault(&cfg);
    }
    st.cjk_loaded = false;
    if (need_cjk && readable(kCjkFont)) {
        ImFontConfig cfg;
        cfg.MergeMode = true;
        // Ideographs are dense: horizontal oversampling buys little and
        // triples their share of the atlas.
        cfg.OversampleH = 1;
        cfg.OversampleV = 1;
        cfg.PixelSnapH = true;
        st.cjk_loaded = io.Fonts->AddFontFromFileTTF(kCjkFont, px, &cfg, st.ranges.Data) != nullptr;
    }
    st.baked = std::move(chars);
    st.baked_lang = language();
    st.pending = false;
}

void note_atlas_build_ms(double ms) {
    state().build_ms = ms;
    ++state().builds;
}

nlohmann::json font_report() {
    const FontState& st = state();
    ImFont* font = ImGui::GetFont();
    ImFontAtlas* atlas = ImGui::GetIO().Fonts;
    auto missing_in = [&](std::string_view text, std::set<uint32_t>& out) {
        for (uint32_t cp : code_points(text))
            if (cp >= 0x20 && (cp > kMaxCodePoint || !font->FindGlyphNoFallback(ImWchar(cp))))
                out.insert(cp);
    };
    std::set<uint32_t> catalog_missing, wanted_missing;
    size_t catalog_chars = 0, cjk_chars = 0;
    std::set<uint32_t> seen;
    for (const auto* entries : {&zh_entries(), &zh_core_entries()})
        for (const auto& [en, zh] : *entries) {
            const std::string& text = language() == Lang::zh ? zh : en;
            missing_in(text, catalog_missing);
            for (uint32_t cp : code_points(text))
                if (seen.insert(cp).second) ++catalog_chars, cjk_chars += cp >= kFirstCjk;
        }
    for (const std::string& t : st.wanted_text) missing_in(t, wanted_missing);
    auto list = [](const std::set<uint32_t>& s) {
        nlohmann::json a = nlohmann::json::array();
        for (uint32_t cp : s) a.push_back(cp);
        return a;
    };
    return {{"lang", lang_name(language())},
            {"catalog_entries", zh_entries().size()},
            {"catalog_chars", catalog_chars},
            {"catalog_cjk_chars", cjk_chars},
            {"catalog_missing", list(catalog_missing)},
            {"wanted_chars", st.wanted.size()},
            {"wanted_missing", list(wanted_missing)},
            {"glyphs", font->Glyphs.Size},
            {"cjk_font_loaded", st.cjk_loaded},
            {"atlas_build_ms", st.build_ms},
            {"atlas_builds", st.builds},
            {"atlas", {atlas->TexWidth, atlas->TexHeight}}};
}

}  // namespace ll::i18n
