// The window in Chinese (issue 14, section 3): every panel renders with
// --lang zh, differs from English, and the live ImGui font holds every
// character of the catalog (FindGlyphNoFallback, reported by --dump-fonts), so
// nothing shows as ImGui's '?' fallback. English does not load the CJK font
// unless Chinese text (a file name, a scene's strings) asks for it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/gui.hpp"

using ll::test::Image;
using ll::test::load_png;
using ll::test::run_app;
using ll::test::shell_quote;

namespace {

const char* kPanels[] = {"explorer", "views",    "fusion", "agu",  "planning", "tiling",
                         "img2col",  "loaddata", "cube",   "conv", "pipeline"};

struct Shot {
    Image image;
    nlohmann::json fonts;
    std::string err;
};

Shot shoot(const std::string& dir, const std::string& name, const std::string& args) {
    Shot s;
    const std::string png = dir + "/" + name + ".png", js = dir + "/" + name + ".json";
    auto r =
        run_app(args + " --screenshot " + shell_quote(png) + " --dump-fonts " + shell_quote(js));
    s.err = r.err;
    if (r.code != 0) return s;
    s.image = load_png(png);
    s.fonts = nlohmann::json::parse(ll::test::read_file(js), nullptr, false);
    return s;
}

}  // namespace

TEST(GuiChinese, EveryPanelRendersItsCatalogWithoutFallbackGlyphs) {
    const std::string dir = ll::test::make_temp_dir();
    for (const char* id : kPanels) {
        const std::string base = std::string("--panel ") + id + " --size 1024x700";
        Shot en = shoot(dir, std::string(id) + "-en", base + " --lang en");
        Shot zh = shoot(dir, std::string(id) + "-zh", base + " --lang zh");
        ASSERT_FALSE(en.image.empty()) << id << ": " << en.err;
        ASSERT_FALSE(zh.image.empty()) << id << ": " << zh.err;
        // The labels changed: the pictures differ (the menu bar alone is ~0.3%).
        EXPECT_GT(ll::test::difference(en.image, zh.image), 0.002) << id;
        ASSERT_TRUE(zh.fonts.is_object()) << id;
        EXPECT_EQ(zh.fonts["lang"], "zh");
        EXPECT_TRUE(zh.fonts["cjk_font_loaded"].get<bool>()) << id;
        EXPECT_GT(zh.fonts["catalog_cjk_chars"].get<int>(), 100) << id;
        EXPECT_TRUE(zh.fonts["catalog_missing"].empty()) << id << ": " << zh.fonts.dump();
        // English bakes no CJK font: start-up stays as before.
        EXPECT_EQ(en.fonts["lang"], "en");
        EXPECT_FALSE(en.fonts["cjk_font_loaded"].get<bool>()) << id;
        EXPECT_TRUE(en.fonts["catalog_missing"].empty()) << id << ": " << en.fonts.dump();
    }
}

TEST(GuiChinese, ChineseFileNameAndSceneTextGetTheirGlyphsInEitherLanguage) {
    const std::string dir = ll::test::make_temp_dir();
    // A picture with a Chinese file name: the explorer shows the path in its
    // "file" field (it used to read "??.png").
    const std::string pic = dir + "/笑脸图片.png";
    ll::test::run_shell("cp " +
                        shell_quote(std::string(LAYOUTLAB_SOURCE_DIR) + "/assets/smiley.png") +
                        " " + shell_quote(pic));
    const std::string scene = dir + "/场景.json";
    ll::test::run_shell("cat > " + shell_quote(scene) + " <<'EOF'\n{\"from\": \"NCHW\", \"to\": " +
                        "\"NC1HWC0\", \"via\": \"NHWC\", \"image\": \"" + pic +
                        "\", \"colour\": \"value\"}\nEOF\n");
    for (const char* lang : {"en", "zh"}) {
        Shot s = shoot(dir, std::string("pic-") + lang,
                       "--size 1024x700 --scene " + shell_quote(scene) + " --lang " + lang);
        ASSERT_FALSE(s.image.empty()) << lang << ": " << s.err;
        ASSERT_TRUE(s.fonts.is_object());
        EXPECT_TRUE(s.fonts["cjk_font_loaded"].get<bool>()) << lang;
        EXPECT_GE(s.fonts["wanted_chars"].get<int>(), 4) << lang;  // 笑脸图片
        EXPECT_TRUE(s.fonts["wanted_missing"].empty()) << lang << ": " << s.fonts.dump();
    }
}

TEST(GuiChinese, UnknownLanguageIsAUsageError) {
    const std::string dir = ll::test::make_temp_dir();
    auto r = run_app("--lang fr --screenshot " + dir + "/x.png");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("error: --lang: 'fr' is unknown; expected en or zh"), std::string::npos)
        << r.err;
    auto d = run_app("--dump-fonts " + dir + "/f.json");
    EXPECT_EQ(d.code, 2);
    EXPECT_NE(d.err.find("--dump-fonts: needs --screenshot"), std::string::npos) << d.err;
}

TEST(GuiChinese, SwitchingLanguageAtRunTimeRebuildsTheFontAndKeepsDrawing) {
    // Settings > Language > English in a window started in Chinese. The menu
    // positions are those of the Chinese menu bar at 800x600 (设置 at x 70,
    // 语言 the last item, its submenu to the right). The result must look like
    // a window started in English: the atlas was rebuilt for the other
    // language and ImGui still draws (an earlier rebuild left it blank).
    const std::string dir = ll::test::make_temp_dir();
    auto d = ll::test::drive_app(dir, "--size 800x600 --lang zh", R"SH(
shoot 0
xdotool mousemove --window $wid 70 11 click 1; sleep 0.7
xdotool mousemove --window $wid 70 166; sleep 0.7
xdotool mousemove --window $wid 150 166; sleep 0.3
xdotool mousemove --window $wid 200 166; sleep 0.7
xdotool click 1; sleep 0.5
xdotool mousemove --window $wid 790 590; sleep 0.8
shoot 1
)SH",
                                 2);
    ASSERT_FALSE(d.shots[0].empty()) << d.run.err;
    ASSERT_FALSE(d.shots[1].empty()) << d.run.err;
    Shot en = shoot(dir, "en", "--size 800x600 --lang en");
    Shot zh = shoot(dir, "zh", "--size 800x600 --lang zh");
    ASSERT_FALSE(en.image.empty()) << en.err;
    // Before: the Chinese window; after: the English one.
    EXPECT_LT(ll::test::difference(d.shots[0], zh.image), 0.01);
    EXPECT_GT(ll::test::difference(d.shots[1], zh.image), 0.01);
    EXPECT_LT(ll::test::difference(d.shots[1], en.image), 0.01);
}
