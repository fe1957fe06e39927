// The font atlas of the Chinese interface (app/i18n/fonts.hpp), without GL:
// ImGui builds the atlas on the CPU. English bakes no CJK font; Chinese bakes
// every character of the catalog and nothing like a whole CJK range; text the
// window is asked to show (a file name) gets its glyphs in either language.
#include "app/i18n/fonts.hpp"

#include <gtest/gtest.h>
#include <imgui.h>

#include "app/i18n/tr.hpp"

using ll::i18n::Lang;

namespace {

// One ImGui context per test, with the atlas built for the current language.
struct Ctx {
    Ctx() {
        ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;
        io.DisplaySize = ImVec2(800, 600);
        ll::i18n::add_fonts(1.0f);
        unsigned char* px = nullptr;
        int w = 0, h = 0;
        io.Fonts->GetTexDataAsRGBA32(&px, &w, &h);
        ImGui::NewFrame();  // makes the font current (font_report reads it)
    }
    ~Ctx() {
        ImGui::EndFrame();
        ImGui::DestroyContext();
    }
};

}  // namespace

TEST(Fonts, CodePointsDecodeUtf8AndMarkBadBytes) {
    using ll::i18n::code_points;
    EXPECT_EQ(code_points("a分形"), (std::vector<uint32_t>{'a', 0x5206, 0x5F62}));
    EXPECT_EQ(code_points("\xE5\x88"), (std::vector<uint32_t>{0xFFFD, 0xFFFD}));  // cut short
    EXPECT_EQ(code_points("\xFF"
                          "b"),
              (std::vector<uint32_t>{0xFFFD, 'b'}));
    EXPECT_EQ(code_points("\xE5"
                          "ab"),
              (std::vector<uint32_t>{0xFFFD, 'a', 'b'}));  // bad tail
    EXPECT_TRUE(code_points("").empty());
}

TEST(Fonts, EnglishBakesNoCjkFont) {
    ll::i18n::set_language(Lang::en);
    Ctx c;
    const nlohmann::json r = ll::i18n::font_report();
    EXPECT_FALSE(r["cjk_font_loaded"].get<bool>());
    EXPECT_TRUE(r["catalog_missing"].empty()) << r.dump();
    EXPECT_FALSE(ll::i18n::glyphs_pending());
}

TEST(Fonts, ChineseBakesTheCatalogAndNoMore) {
    ll::i18n::set_language(Lang::zh);
    EXPECT_TRUE(ll::i18n::glyphs_pending());  // the atlas is still English
    Ctx c;
    const nlohmann::json r = ll::i18n::font_report();
    EXPECT_TRUE(r["cjk_font_loaded"].get<bool>());
    EXPECT_TRUE(r["catalog_missing"].empty()) << r.dump();
    EXPECT_GT(r["catalog_cjk_chars"].get<int>(), 300);
    // A few hundred glyphs, not the ~21 000 of ImGui's full Chinese range.
    EXPECT_LT(r["glyphs"].get<int>(), 2000);
    ImFont* f = ImGui::GetFont();
    EXPECT_NE(f->FindGlyphNoFallback(0x5206), nullptr);  // 分
    EXPECT_EQ(f->FindGlyphNoFallback(0x9F98), nullptr);  // 龘: in no catalog text
    EXPECT_FALSE(ll::i18n::glyphs_pending());
    ll::i18n::set_language(Lang::en);
}

TEST(Fonts, WantedTextGetsItsGlyphsAtTheNextBuild) {
    ll::i18n::set_language(Lang::en);
    ll::i18n::want_glyphs(std::string_view("/tmp/龘.png"));
    EXPECT_TRUE(ll::i18n::glyphs_pending());
    Ctx c;
    EXPECT_FALSE(ll::i18n::glyphs_pending());
    const nlohmann::json r = ll::i18n::font_report();
    EXPECT_TRUE(r["cjk_font_loaded"].get<bool>());  // English, but a Chinese file name
    EXPECT_TRUE(r["wanted_missing"].empty()) << r.dump();
    EXPECT_NE(ImGui::GetFont()->FindGlyphNoFallback(0x9F98), nullptr);
    // Strings inside a scene count too, keys and values, nested.
    ll::i18n::want_glyphs_in(nlohmann::json::parse(R"({"notes": {"zh": ["一课"]}})"));
    EXPECT_TRUE(ll::i18n::glyphs_pending());
    // One typed character (an IME's): the same bookkeeping.
    ll::i18n::want_glyph(0x8BFE);  // 课
    EXPECT_TRUE(ll::i18n::glyphs_pending());
}
