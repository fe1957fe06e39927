#include "core/lesson/lesson.hpp"

#include <cmath>
#include <cstdlib>

#include "core/error.hpp"
#include "core/io/input_file.hpp"
#include "core/io/json_input.hpp"

namespace ll::lesson {

namespace {

// Errors inside a slide are framed "<what>: slide N ("title"): ...".
struct Ctx {
    std::string what;  // "--lesson" or "--lesson: slide 2 (\"...\")"
    [[noreturn]] void fail(const std::string& key, const std::string& detail) const {
        throw UsageError(what + ": " + key + ": " + detail);
    }
};

Texts read_texts(const nlohmann::json& v, const std::string& key, const Ctx& c, bool required) {
    Texts t;
    if (v.is_string()) {
        t["en"] = v.get<std::string>();
    } else if (v.is_object()) {
        if (v.size() > 16) c.fail(key, "more than 16 languages; expected a few, e.g. en and zh");
        for (auto it = v.begin(); it != v.end(); ++it) {
            const std::string& lang = it.key();
            bool ok = !lang.empty() && lang.size() <= 16;
            for (char ch : lang)
                ok = ok && ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '-' ||
                            ch == '_');
            if (!ok)
                c.fail(key, "'" + lang.substr(0, 32) +
                                "' is not a language tag; expected a tag such as en or zh");
            if (!it->is_string())
                c.fail(key + "." + lang, "is " + json_kind(*it) + "; expected a string");
            t[lang] = it->get<std::string>();
        }
    } else {
        c.fail(key, "is " + json_kind(v) +
                        "; expected a string or an object of languages such as "
                        "{\"en\": \"...\", \"zh\": \"...\"}");
    }
    for (const auto& [lang, text] : t)
        if (text.size() > kMaxTextBytes)
            c.fail(key, "the '" + lang + "' text is longer than " + std::to_string(kMaxTextBytes) +
                            " bytes; expected shorter notes");
    if (required) {
        bool any = false;
        for (const auto& kv : t) any = any || !kv.second.empty();
        if (!any) c.fail(key, "is empty; expected text in at least one language");
    }
    return t;
}

double read_hold(const nlohmann::json& v, const Ctx& c) {
    if (!v.is_number()) c.fail("hold", "is " + json_kind(v) + "; expected seconds, 0.5..60");
    const double h = v.get<double>();
    if (!std::isfinite(h) || h < 0.5 || h > 60)
        c.fail("hold", "is out of range; expected seconds, 0.5..60");
    return h;
}

// A range end: a finite number within [0, 1e6].
double read_end(const std::string& s, const Ctx& c) {
    char* stop = nullptr;
    const double v = std::strtod(s.c_str(), &stop);
    if (s.empty() || stop == s.c_str() || *stop || !std::isfinite(v) || v < 0 || v > 1e6)
        c.fail("play", "'" + s.substr(0, 40) +
                           "' is not a position; expected A..B with numbers, e.g. \"0..4\" or "
                           "\"1..last\"");
    return v;
}

void read_play(const nlohmann::json& v, Slide& s, const Ctx& c) {
    if (!v.is_string())
        c.fail("play", "is " + json_kind(v) + "; expected a range string such as \"0..4\"");
    const std::string r = v.get<std::string>();
    const size_t dots = r.find("..");
    if (dots == std::string::npos)
        c.fail("play", "'" + r.substr(0, 40) + "' has no '..'; expected A..B such as \"0..4\"");
    s.has_play = true;
    s.play_from = read_end(r.substr(0, dots), c);
    const std::string b = r.substr(dots + 2);
    if (b != "last") {
        s.play_to = read_end(b, c);
        if (*s.play_to < s.play_from)
            c.fail("play", "'" + r + "' ends before it starts; expected A..B with A <= B");
    }
}

Fact read_fact(const nlohmann::json& v, size_t i, const Ctx& c) {
    const std::string key = "facts[" + std::to_string(i) + "]";
    if (!v.is_object())
        c.fail(key, "is " + json_kind(v) + "; expected {\"quote\": ..., \"check\": {...}}");
    reject_unknown_keys(v, {"quote", "check"}, c.what + ": " + key);
    Fact f;
    if (!v.contains("quote") || !v["quote"].is_string() || v["quote"].get<std::string>().empty())
        c.fail(key + ".quote", "missing or not a string; expected the text the notes quote");
    f.quote = v["quote"].get<std::string>();
    if (!v.contains("check") || !v["check"].is_object())
        c.fail(key + ".check",
               "missing or not an object; expected {\"args\": [...], \"pointer\": \"/...\", "
               "\"equals\": N}");
    const auto& ch = v["check"];
    reject_unknown_keys(ch, {"args", "pointer", "equals", "tolerance"},
                        c.what + ": " + key + ".check");
    if (!ch.contains("args") || !ch["args"].is_array() || ch["args"].empty() ||
        ch["args"].size() > 64)
        c.fail(key + ".check.args", "expected a non-empty array of CLI arguments");
    for (const auto& a : ch["args"]) {
        if (!a.is_string()) c.fail(key + ".check.args", "expected strings only");
        f.args.push_back(a.get<std::string>());
    }
    if (!ch.contains("pointer") || !ch["pointer"].is_string())
        c.fail(key + ".check.pointer", "missing; expected a JSON pointer such as \"/rows/0\"");
    f.pointer = ch["pointer"].get<std::string>();
    try {
        (void)nlohmann::json::json_pointer(f.pointer);
    } catch (const nlohmann::json::exception&) {
        c.fail(key + ".check.pointer", "'" + f.pointer.substr(0, 60) +
                                           "' is not a JSON pointer; expected e.g. \"/rows/0\"");
    }
    if (!ch.contains("equals")) c.fail(key + ".check.equals", "missing; expected a number");
    const auto& eq = ch["equals"];
    if (eq.is_array()) {
        if (eq.empty() || eq.size() > 16)
            c.fail(key + ".check.equals", "expected a number or a list of 1..16 numbers");
        f.list = true;
        for (const auto& x : eq)
            f.equals.push_back(json_float(x, c.what + ": " + key + ".check.equals", -1e300, 1e300));
    } else {
        f.equals.push_back(json_float(eq, c.what + ": " + key + ".check.equals", -1e300, 1e300));
    }
    if (ch.contains("tolerance"))
        f.tolerance =
            json_float(ch["tolerance"], c.what + ": " + key + ".check.tolerance", 0, 1e300);
    return f;
}

}  // namespace

std::string pick(const Texts& t, const std::string& lang) {
    auto it = t.find(lang);
    if (it != t.end() && !it->second.empty()) return it->second;
    it = t.find("en");
    if (it != t.end() && !it->second.empty()) return it->second;
    for (const auto& kv : t)
        if (!kv.second.empty()) return kv.second;
    return {};
}

std::string slide_name(const Lesson& l, size_t index) {
    std::string n = "slide " + std::to_string(index + 1);
    if (index < l.slides.size()) {
        std::string t = pick(l.slides[index].title, "en");
        if (!t.empty()) n += " (\"" + t.substr(0, 60) + "\")";
    }
    return n;
}

Lesson parse_lesson(const std::string& text, const std::string& what) {
    const nlohmann::json j = parse_json_bounded(text, what);
    if (!j.is_object())
        throw UsageError(what + ": the document is " + json_kind(j) +
                         "; expected an object with \"slides\"");
    reject_unknown_keys(j, {"lesson", "hold", "slides"}, what);
    Lesson l;
    const Ctx top{what};
    if (j.contains("lesson")) l.title = read_texts(j["lesson"], "lesson", top, false);
    if (j.contains("hold")) l.hold = read_hold(j["hold"], top);
    if (!j.contains("slides") || !j["slides"].is_array() || j["slides"].empty())
        top.fail("slides", "missing or empty; expected an array of slides");
    const auto& arr = j["slides"];
    if (arr.size() > kMaxSlides)
        top.fail("slides", std::to_string(arr.size()) + " slides; expected at most " +
                               std::to_string(kMaxSlides));
    for (size_t i = 0; i < arr.size(); ++i) {
        const auto& v = arr[i];
        Ctx c{what + ": slide " + std::to_string(i + 1)};
        if (!v.is_object()) c.fail("slide", "is " + json_kind(v) + "; expected an object");
        Slide s;
        if (v.contains("title")) s.title = read_texts(v["title"], "title", c, true);
        if (!s.title.empty()) c.what += " (\"" + pick(s.title, "en").substr(0, 60) + "\")";
        reject_unknown_keys(v, {"title", "scene", "notes", "play", "hold", "facts"}, c.what);
        if (s.title.empty()) c.fail("title", "missing; expected the slide's title");
        if (!v.contains("notes")) c.fail("notes", "missing; expected {\"en\": \"...\", ...}");
        s.notes = read_texts(v["notes"], "notes", c, true);
        if (!v.contains("scene") || !v["scene"].is_object())
            c.fail("scene", std::string(v.contains("scene") ? "is " + json_kind(v["scene"])
                                                            : std::string("missing")) +
                                "; expected a panel's settings, e.g. {\"panel\": \"explorer\", "
                                "...} as the window's scene dump writes them");
        s.scene = v["scene"];
        if (s.scene.contains("panel")) {
            if (!s.scene["panel"].is_string() || s.scene["panel"].get<std::string>().empty())
                c.fail("scene.panel", "expected a panel id string such as \"explorer\"");
            s.panel = s.scene["panel"].get<std::string>();
            s.scene.erase("panel");
        }
        // --dump-view adds the window size it was taken at; the lesson's
        // window decides.
        s.scene.erase("window");
        if (v.contains("play")) read_play(v["play"], s, c);
        if (v.contains("hold")) s.hold = read_hold(v["hold"], c);
        if (v.contains("facts")) {
            if (!v["facts"].is_array() || v["facts"].size() > 64)
                c.fail("facts", "expected an array of at most 64 facts");
            for (size_t k = 0; k < v["facts"].size(); ++k)
                s.facts.push_back(read_fact(v["facts"][k], k, c));
        }
        l.slides.push_back(std::move(s));
    }
    return l;
}

Lesson read_lesson_file(const std::string& path, const std::string& what) {
    return parse_lesson(read_input_file(path, what, kMaxLessonFileBytes), what);
}

}  // namespace ll::lesson
