// libFuzzer target: the lesson reader (core/lesson/lesson.hpp): bounded JSON
// parse, the slides' structure, texts per language, play ranges, holds and
// facts. Any input must give a lesson or a UsageError; whatever it accepts
// must hold the invariants the window relies on.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/error.hpp"
#include "core/lesson/lesson.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const ll::lesson::Lesson l = ll::lesson::parse_lesson(text, "--lesson");
        if (l.slides.empty() || l.slides.size() > ll::lesson::kMaxSlides) std::abort();
        for (size_t i = 0; i < l.slides.size(); ++i) {
            const ll::lesson::Slide& s = l.slides[i];
            // Every slide has a title and notes in some language.
            if (ll::lesson::pick(s.title, "zh").empty() || ll::lesson::pick(s.notes, "en").empty())
                std::abort();
            if (s.has_play && s.play_to && !(*s.play_to >= s.play_from)) std::abort();
            if (!s.scene.is_object() || s.scene.contains("panel")) std::abort();
            if (s.hold != 0 && !(s.hold >= 0.5 && s.hold <= 60)) std::abort();
            for (const ll::lesson::Fact& f : s.facts)
                if (f.equals.empty() || f.args.empty()) std::abort();
            (void)ll::lesson::slide_name(l, i);
        }
        if (!(l.hold >= 0.5 && l.hold <= 60)) std::abort();
    } catch (const ll::UsageError&) {
    }
    return 0;
}
