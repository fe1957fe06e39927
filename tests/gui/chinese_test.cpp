// The window in Chinese (issue 14, section 3): every panel renders with
// --lang zh, differs from English, and the live ImGui font holds every
// character of the catalog (FindGlyphNoFallback, reported by --dump-fonts), so
// nothing shows as ImGui's '?' fallback. English does not load the CJK font
// unless Chinese text (a file name, a scene's strings) asks for it.
#include <gtest/gtest.h>

#include <cctype>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/gui.hpp"

using ll::test::Image;
using ll::test::load_png;
using ll::test::run_app;
using ll::test::shell_quote;

namespace {

const char* kPanels[] = {"explorer", "views",    "fusion",  "agu",    "planning", "tiling",
                         "img2col",  "loaddata", "cube",    "conv",   "pipeline", "gpu",
                         "systolic", "tables",   "scatter", "compare"};

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

// ---- Nothing English in the Chinese window ---------------------------------------
//
// --dump-text (app/i18n/text_audit.hpp) records what a frame drew: every
// widget's text as ImGui's log sees it (labels, text, tables, tabs, menus),
// the text drawn straight into draw lists that reports itself (presentation
// captions, plot labels), and every catalog lookup that found no Chinese.
// In Chinese none of it may hold an English word, except the names the
// glossary keeps (docs/GLOSSARY.md). A panel added later is covered at once:
// the list comes from --help.

namespace {

// Names that stay English in the Chinese window (docs/GLOSSARY.md): product,
// unit and algorithm names, functions and keywords in formulas and loop
// pseudo-code, key names; and the node names of the planning panel's example
// network (data, like the layer names in a model file).
const std::set<std::string> kKeptNames = {
    "Winograd", "Tensor", "Core",    "Cube",   "Volta",  "Intel", "Ascend", "Atlas",
    "Pareto",   "Tiling", "Scatter", "Vector", "Scalar", "Mmad",  "Cin",    "Cout",
    "eta",      "ceil",   "floor",   "min",    "max",    "sum",   "sizeof", "for",
    "Home",     "End",    "trace",   "Input",  "Conv",   "relu",  "conv"};

// The English words in `text`: runs of letters, all lower case or capitalised,
// three or more long ("pad", "Scatter"), not kept names. Identifiers are not
// words: FRACTAL_NZ, fp16, startIndex, NC1HWC0, M1*M0. Skipped as well: text
// in backquotes (a CLI command, which stays English), "scatter-gather" (as
// document 003 writes it), paths and file names, assignments in formulas
// ("howo/16=0", "strides=(48,12,4,1)") and op specs ("reshape:1,4,6").
std::vector<std::string> english_words(const std::string& text) {
    std::string s;
    bool quoted = false;
    for (char c : text) {
        if (c == '`') quoted = !quoted;
        s += quoted || c == '`' ? ' ' : c;
    }
    for (size_t at; (at = s.find("scatter-gather")) != std::string::npos;) s.replace(at, 14, " ");
    std::vector<std::string> out;
    std::istringstream chunks(s);
    for (std::string chunk; chunks >> chunk;) {
        if (chunk[0] == '/' || chunk.find('=') != std::string::npos) continue;
        const size_t dot = chunk.rfind('.');
        if (dot != std::string::npos && dot + 3 <= chunk.size() && chunk.size() - dot <= 5 &&
            std::islower(static_cast<unsigned char>(chunk[dot + 1])))
            continue;  // a file name: scene.json
        std::string tok;
        auto flush = [&](char next) {
            bool word = tok.size() >= 3 && !(next == ':');  // "reshape:1,4,6"
            for (size_t i = 0; word && i < tok.size(); ++i)
                word =
                    (tok[i] >= 'a' && tok[i] <= 'z') || (i == 0 && tok[i] >= 'A' && tok[i] <= 'Z');
            if (word && !kKeptNames.count(tok)) out.push_back(tok);
            tok.clear();
        };
        for (size_t i = 0; i < chunk.size(); ++i) {
            const char c = chunk[i];
            const bool ident = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                               (c >= '0' && c <= '9') || c == '_';
            if (ident)
                tok += c;
            else
                flush(c == ':' && i + 1 < chunk.size() &&
                              std::isdigit(static_cast<unsigned char>(chunk[i + 1]))
                          ? ':'
                          : ' ');
        }
        flush(' ');
    }
    return out;
}

// The panel ids `layoutlab --help` lists after "--panel".
std::vector<std::string> panel_ids() {
    const auto r = run_app("--help");
    const std::string key = "panel shown full-window:";
    std::string help = r.out;
    for (char& c : help)
        if (c == '\n') c = ' ';
    std::vector<std::string> ids;
    const size_t at = help.find(key);
    if (at == std::string::npos) return ids;
    std::istringstream in(help.substr(at + key.size()));
    for (std::string w; in >> w;) {
        const bool more = !w.empty() && w.back() == ',';
        if (more) w.pop_back();
        ids.push_back(w);
        if (!more) break;
    }
    return ids;
}

// Every English word one run drew or looked up, as "where: 'text'".
void check_drawn_text(const std::string& dir, const std::string& name, const std::string& args,
                      std::vector<std::string>& problems, size_t& texts) {
    const std::string png = dir + "/" + name + ".png", js = dir + "/" + name + ".json";
    const auto r = run_app(args + " --lang zh --screenshot " + shell_quote(png) + " --dump-text " +
                           shell_quote(js));
    if (r.code != 0) {
        problems.push_back(name + ": exit " + std::to_string(r.code) + ": " + r.err);
        return;
    }
    const nlohmann::json j = nlohmann::json::parse(ll::test::read_file(js), nullptr, false);
    if (!j.is_object()) {
        problems.push_back(name + ": --dump-text wrote no JSON");
        return;
    }
    for (const char* part : {"lines", "drawn", "misses"})
        for (const auto& t : j[part]) {
            ++texts;
            const auto words = english_words(t.get<std::string>());
            if (!words.empty())
                problems.push_back(name + " (" + part + ", \"" + words[0] + "\"): '" +
                                   t.get<std::string>() + "'");
        }
}

}  // namespace

TEST(GuiChinese, EnglishWordsAreFoundByTheAudit) {
    // The rule the next test applies, on known text.
    EXPECT_EQ(english_words("pad -> reshape"), (std::vector<std::string>{"pad", "reshape"}));
    EXPECT_EQ(english_words("Back to source"), (std::vector<std::string>{"Back", "source"}));
    EXPECT_TRUE(english_words("填充 FRACTAL_NZ fp16 (M1*M0, N) startIndex NC1HWC0").empty());
    EXPECT_TRUE(english_words("Winograd F(2x2, 3x3)：ceil(28/16)").empty());
    EXPECT_TRUE(english_words("打印（`layoutlab hardware --json`） /tmp/cudnn_time_share").empty());
    EXPECT_TRUE(english_words("reshape:1,4,6 x transpose:2,3 n=0 howo/16=0 scene.json").empty());
    EXPECT_EQ(english_words("transpose: row 1"), (std::vector<std::string>{"transpose", "row"}));
    EXPECT_TRUE(english_words("DMA（两个 AGU） scatter-gather（分散-聚集）").empty());
}

TEST(GuiChinese, EveryPanelDrawsOnlyChineseText) {
    const std::string dir = ll::test::make_temp_dir();
    const std::vector<std::string> ids = panel_ids();
    ASSERT_GE(ids.size(), 16u) << "--help lists no panels?";
    std::vector<std::string> problems;
    size_t texts = 0;
    for (const std::string& id : ids) {
        check_drawn_text(dir, id, "--panel " + id + " --size 1600x1000", problems, texts);
        check_drawn_text(dir, id + "-present", "--panel " + id + " --size 1600x1000 --present",
                         problems, texts);
    }
    // What a default panel does not show: the GPU side's other tabs, a pinned
    // element's narration (its sentences: tests/app/core_text_test.cpp), a
    // lesson slide.
    auto scene = [&](const std::string& name, const std::string& json) {
        const std::string f = dir + "/" + name + ".scene.json";
        ll::test::run_shell("cat > " + shell_quote(f) + " <<'EOF'\n" + json + "\nEOF\n");
        return "--scene " + shell_quote(f) + " --size 1600x1000";
    };
    for (const char* tab : {"tensorcore", "cudnn"})
        check_drawn_text(dir, std::string("gpu-") + tab,
                         scene(std::string("gpu-") + tab,
                               std::string(R"({"panel": "gpu", "tab": ")") + tab + "\"}"),
                         problems, texts);
    check_drawn_text(dir, "explorer-follow",
                     scene("follow", R"({"panel": "explorer", "from": "ND", "to": "FRACTAL_NZ",
                                        "shape": "2,28", "dtype": "fp16", "stage": "last",
                                        "select": 19})"),
                     problems, texts);
    check_drawn_text(dir, "lesson",
                     "--lesson " +
                         shell_quote(std::string(LAYOUTLAB_SOURCE_DIR) +
                                     "/assets/lessons/conv_case_study.json") +
                         " --slide 2 --size 1600x1000",
                     problems, texts);
    EXPECT_GT(texts, 500u) << "the audit recorded almost no text: is --dump-text broken?";
    for (const std::string& p : problems) ADD_FAILURE() << p;
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
