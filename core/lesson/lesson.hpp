// Lessons: a prepared sequence of scenes shown as a lecture.
//
// A lesson file is a JSON object:
//   {
//     "lesson": {"en": "FRACTAL_NZ step by step", "zh": "..."},   // or a plain string
//     "hold": 4,                          // optional: seconds a still slide is recorded
//     "slides": [
//       {
//         "title": {"en": "...", "zh": "..."},                    // or a plain string
//         "scene": {"panel": "explorer", ...},                     // what --dump-view writes
//         "notes": {"en": "...", "zh": "..."},                     // one language at least
//         "play": "0..4",                  // optional: the stages recorded / played
//         "hold": 3,                       // optional: this slide's hold
//         "facts": [ {"quote": "9.6x", "check": {...}} ]          // optional, for tests
//       }, ...
//     ]
//   }
// "scene" is one panel's settings as LayoutLab saves them (`--dump-view`,
// scene files): the panel's id under "panel" (default: the explorer) and the
// rest handed to that panel. The reader checks the lesson's own structure;
// the scene's keys are checked by the panel that loads them, and its error
// is framed with the slide (lesson_slide_error).
//
// "facts" tie a number the notes quote to the engine: "check" holds the CLI
// arguments that compute it ("args", run with --json), a JSON pointer into
// the output ("pointer") and the value ("equals": a number or a list of
// numbers such as a shape; optional "tolerance"). The
// reader checks their shape; tests/cli/lesson_facts_test.cpp runs them.
//
// Every error is a UsageError "<what>: slide N ("title"): <key>: <detail>".
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ll::lesson {

// Text in one or more languages, keyed by a language tag ("en", "zh").
using Texts = std::map<std::string, std::string>;

// The text for `lang`, else English, else the first language; "" when empty.
std::string pick(const Texts& t, const std::string& lang);

struct Fact {
    std::string quote;              // as the notes write it, e.g. "9.6x"
    std::vector<std::string> args;  // the CLI command computing it (without --json)
    std::string pointer;            // JSON pointer into its --json output
    // The value: one number, or (a shape) a list; the quote's numbers must
    // read the same (one number: the quote's last; a list: all of them).
    std::vector<double> equals;
    bool list = false;
    double tolerance = 0;
};

struct Slide {
    Texts title, notes;
    std::string panel;     // registry id ("" = the explorer, the registry's first)
    nlohmann::json scene;  // the panel's settings, without "panel"
    // Auto-play range in the panel's timeline units ("A..B", B may be
    // "last": play_to empty); has_play false = a still slide.
    bool has_play = false;
    double play_from = 0;
    std::optional<double> play_to;
    double hold = 0;  // 0 = the lesson's hold
    std::vector<Fact> facts;
};

struct Lesson {
    Texts title;
    double hold = 4;  // seconds a still slide lasts in a recording
    std::vector<Slide> slides;
};

// Bounds: far beyond a real lecture, small enough that a hostile file cannot
// make the window build thousands of scenes.
constexpr size_t kMaxSlides = 500;
constexpr size_t kMaxTextBytes = 64 * 1024;
constexpr int64_t kMaxLessonFileBytes = 16 << 20;

// Parses and validates a lesson document. `what` prefixes errors ("--lesson").
Lesson parse_lesson(const std::string& text, const std::string& what);
// The same from a file (regular, at most kMaxLessonFileBytes).
Lesson read_lesson_file(const std::string& path, const std::string& what);

// "slide 3 (\"Title\")" for messages: 1-based, the English title.
std::string slide_name(const Lesson& l, size_t index);

}  // namespace ll::lesson
