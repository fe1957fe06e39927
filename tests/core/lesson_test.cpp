// The lesson reader (core/lesson): the bundled lessons parse, and bad files
// are refused with a message naming the slide and the key.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "core/error.hpp"
#include "core/lesson/lesson.hpp"

using ll::UsageError;
using ll::lesson::Lesson;
using ll::lesson::parse_lesson;

namespace {

// The message of parsing `text`, "" when it parses.
std::string error_of(const std::string& text) {
    try {
        parse_lesson(text, "--lesson");
    } catch (const UsageError& e) {
        return e.what();
    }
    return "";
}

const char* kGood = R"J({
  "lesson": {"en": "L", "zh": "课"},
  "hold": 3,
  "slides": [
    {"title": {"en": "One", "zh": "一"}, "notes": {"en": "first", "zh": "第一"},
     "scene": {"panel": "explorer", "from": "ND", "to": "FRACTAL_NZ", "window": [1, 2]},
     "play": "0..4"},
    {"title": "Two", "notes": "second", "scene": {}, "play": "1..last", "hold": 2,
     "facts": [{"quote": "9.6x", "check": {"args": ["tiling", "--table"], "pointer": "/ratio",
                "equals": 9.6, "tolerance": 0.05}},
               {"quote": "(2,2,1,16,16)", "check": {"args": ["convert"], "pointer": "/dst_shape",
                "equals": [2, 2, 1, 16, 16]}}]}
  ]
})J";

}  // namespace

TEST(Lesson, ReadsSlidesTextsRangesAndFacts) {
    const Lesson l = parse_lesson(kGood, "--lesson");
    ASSERT_EQ(l.slides.size(), 2u);
    EXPECT_EQ(l.hold, 3);
    EXPECT_EQ(ll::lesson::pick(l.title, "zh"), "课");
    const auto& a = l.slides[0];
    EXPECT_EQ(a.panel, "explorer");
    EXPECT_FALSE(a.scene.contains("panel"));
    EXPECT_FALSE(a.scene.contains("window"));  // --dump-view's, dropped
    EXPECT_EQ(a.scene["to"], "FRACTAL_NZ");
    EXPECT_TRUE(a.has_play);
    EXPECT_EQ(a.play_from, 0);
    ASSERT_TRUE(a.play_to.has_value());
    EXPECT_EQ(*a.play_to, 4);
    const auto& b = l.slides[1];
    EXPECT_EQ(b.panel, "");                                // the default panel
    EXPECT_EQ(ll::lesson::pick(b.notes, "zh"), "second");  // falls back to English
    EXPECT_FALSE(b.play_to.has_value());                   // "last"
    EXPECT_EQ(b.hold, 2);
    ASSERT_EQ(b.facts.size(), 2u);
    EXPECT_EQ(b.facts[0].equals.size(), 1u);
    EXPECT_FALSE(b.facts[0].list);
    EXPECT_TRUE(b.facts[1].list);
    EXPECT_EQ(b.facts[1].equals.size(), 5u);
    EXPECT_EQ(ll::lesson::slide_name(l, 1), "slide 2 (\"Two\")");
}

TEST(Lesson, BadFilesNameTheSlideAndTheKey) {
    struct Case {
        const char* text;
        const char* expect;  // a part of the message
    };
    const Case cases[] = {
        {"[]", "expected an object with \"slides\""},
        {"{}", "slides: missing or empty"},
        {R"({"slides": []})", "slides: missing or empty"},
        {R"({"slides": [1]})", "slide 1: slide: is a number"},
        {R"({"slides": [{"notes": "n", "scene": {}}]})", "slide 1: title: missing"},
        {R"({"slides": [{"title": "T", "scene": {}}]})", "slide 1 (\"T\"): notes: missing"},
        {R"({"slides": [{"title": "T", "notes": {"en": ""}, "scene": {}}]})",
         "slide 1 (\"T\"): notes: is empty"},
        {R"({"slides": [{"title": "T", "notes": {"en": 3}, "scene": {}}]})",
         "notes.en: is a number"},
        {R"({"slides": [{"title": "T", "notes": {"e n": "x"}, "scene": {}}]})",
         "is not a language tag"},
        {R"({"slides": [{"title": "T", "notes": "n"}]})", "slide 1 (\"T\"): scene: missing"},
        {R"({"slides": [{"title": "T", "notes": "n", "scene": []}]})", "scene: is an array"},
        {R"({"slides": [{"title": "T", "notes": "n", "scene": {"panel": 3}}]})",
         "scene.panel: expected a panel id"},
        {R"({"slides": [{"title": "A", "notes": "n", "scene": {}},
                        {"title": "B", "notes": "n", "scene": {}, "play": "4..1"}]})",
         "slide 2 (\"B\"): play: '4..1' ends before it starts"},
        {R"({"slides": [{"title": "T", "notes": "n", "scene": {}, "play": "x..2"}]})",
         "play: 'x' is not a position"},
        {R"({"slides": [{"title": "T", "notes": "n", "scene": {}, "play": "3"}]})", "has no '..'"},
        {R"({"slides": [{"title": "T", "notes": "n", "scene": {}, "play": 3}]})",
         "play: is a number"},
        {R"({"slides": [{"title": "T", "notes": "n", "scene": {}, "hold": 0}]})",
         "hold: is out of range"},
        {R"({"hold": 1e300, "slides": [{"title": "T", "notes": "n", "scene": {}}]})",
         "hold: is out of range"},
        {R"({"slides": [{"title": "T", "notes": "n", "scene": {}, "extra": 1}]})", "extra"},
        {R"({"slidez": []})", "slidez"},
        {R"({"slides": [{"title": "T", "notes": "n", "scene": {}, "facts": [{"quote": "1"}]}]})",
         "facts[0].check: missing"},
        {R"({"slides": [{"title": "T", "notes": "n", "scene": {}, "facts": [{"quote": "1",
             "check": {"args": ["x"], "pointer": "rows", "equals": 1}}]}]})",
         "facts[0].check.pointer: 'rows' is not a JSON pointer"},
        {R"({"slides": [{"title": "T", "notes": "n", "scene": {}, "facts": [{"quote": "1",
             "check": {"args": ["x"], "pointer": "/a", "equals": "1"}}]}]})",
         "facts[0].check.equals"},
        {R"({"slides": [{"title": "T", "notes": "n", "scene": {}, "facts": [{"quote": "1",
             "check": {"args": [], "pointer": "/a", "equals": 1}}]}]})",
         "facts[0].check.args"},
        {"{\"slides\": [", "bad JSON"},
    };
    for (const Case& c : cases) {
        const std::string m = error_of(c.text);
        EXPECT_NE(m.find(c.expect), std::string::npos) << c.text << "\n -> " << m;
        EXPECT_EQ(m.rfind("--lesson", 0), 0u) << m;
    }
}

TEST(Lesson, DepthAndSizeLimits) {
    // Nesting beyond the JSON readers' limit is refused while parsing.
    std::string deep = R"({"slides": [{"title": "T", "notes": "n", "scene": {"x": )";
    for (int i = 0; i < 100; ++i) deep += "[";
    for (int i = 0; i < 100; ++i) deep += "]";
    deep += "}}]}";
    EXPECT_NE(error_of(deep).find("nested more than"), std::string::npos) << error_of(deep);
    // More slides than a lecture could hold.
    std::string many = R"({"slides": [)";
    for (size_t i = 0; i <= ll::lesson::kMaxSlides; ++i)
        many += std::string(i ? "," : "") + R"({"title": "T", "notes": "n", "scene": {}})";
    many += "]}";
    EXPECT_NE(error_of(many).find("expected at most"), std::string::npos);
    // Notes longer than a slide could show.
    std::string long_notes = R"({"slides": [{"title": "T", "notes": ")" +
                             std::string(ll::lesson::kMaxTextBytes + 1, 'x') +
                             R"(", "scene": {}}]})";
    EXPECT_NE(error_of(long_notes).find("longer than"), std::string::npos);
    // A file that is not there, and one that is not a regular file.
    EXPECT_THROW(ll::lesson::read_lesson_file("/nonexistent/l.json", "--lesson"), UsageError);
    EXPECT_THROW(ll::lesson::read_lesson_file("/dev/zero", "--lesson"), UsageError);
}

TEST(Lesson, BundledLessonsParse) {
    const std::string dir = std::string(LAYOUTLAB_SOURCE_DIR) + "/assets/lessons";
    int n = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        if (e.path().extension() != ".json") continue;
        const Lesson l = ll::lesson::read_lesson_file(e.path().string(), "--lesson");
        EXPECT_GE(l.slides.size(), 4u) << e.path();
        for (const auto& s : l.slides) {
            // Both languages on every slide: the notes and the title.
            EXPECT_TRUE(s.notes.count("en") && s.notes.count("zh")) << e.path();
            EXPECT_TRUE(s.title.count("en") && s.title.count("zh")) << e.path();
        }
        ++n;
    }
    EXPECT_EQ(n, 3);
}
