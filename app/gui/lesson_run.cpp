#include "app/gui/lesson_run.hpp"

#include <cmath>
#include <cstdio>

#include "core/error.hpp"

namespace ll::gui {

std::optional<LessonDeck> open_lesson(const Options& o) {
    if (o.lesson.empty()) {
        if (o.slide != 0) throw UsageError("--slide: needs --lesson FILE; expected --lesson too");
        if (o.hold != 0) throw UsageError("--hold: needs --lesson FILE; expected --lesson too");
        return std::nullopt;
    }
    if (!o.scene.empty() || !o.panel.empty())
        throw UsageError(
            "--lesson: the slides choose the panel and scene; expected no --scene or --panel");
    for (const std::string* f : {&o.from, &o.to, &o.via, &o.shape, &o.dtype, &o.c0, &o.fractal,
                                 &o.pad_value, &o.image, &o.colour, &o.stage})
        if (!f->empty())
            throw UsageError(
                "--lesson: scene flags (--from, --shape, --stage, ...) do not apply; each slide "
                "has its scene and its \"play\" range in the lesson file");
    if (o.hold != 0 && (!std::isfinite(o.hold) || o.hold < 0.5 || o.hold > 60))
        throw UsageError("--hold: expected seconds a still slide is recorded, 0.5..60");
    lesson::Lesson l = lesson::read_lesson_file(o.lesson, "--lesson");
    if (o.slide < 0 || size_t(o.slide) > l.slides.size())
        throw UsageError("--slide: " + std::to_string(o.slide) + " is not a slide; expected 1.." +
                         std::to_string(l.slides.size()));
    const size_t slash = o.lesson.find_last_of('/');
    std::string dir = slash == std::string::npos ? "." : o.lesson.substr(0, slash);
    if (dir.empty()) dir = "/";
    return LessonDeck(std::move(l), dir);
}

std::string slide_panel(const LessonDeck& d, size_t i) {
    const std::string& p = d.lesson().slides.at(i).panel;
    return p.empty() ? panel_registry().front().id : p;
}

std::vector<RecordSegment> check_slides(Host& host, LessonDeck& d, double hold_flag, size_t start) {
    std::vector<RecordSegment> segs;
    const lesson::Lesson& l = d.lesson();
    for (size_t i = 0; i < d.size(); ++i) {
        host.show_slide(i);
        const lesson::Slide& s = l.slides[i];
        RecordSegment seg;
        if (!s.has_play) {
            seg.hold = s.hold > 0 ? s.hold : hold_flag > 0 ? hold_flag : l.hold;
        } else {
            const Timeline tl = host.main_panel().timeline();
            const std::string name = "--lesson: " + lesson::slide_name(l, i) + ": play: ";
            if (tl.end <= tl.begin)
                throw UsageError(name + "the panel '" + host.main_panel().title() +
                                 "' does not animate on this scene; expected no \"play\" (a "
                                 "still slide) or a scene with an animation");
            seg.from = s.play_from;
            seg.to = s.play_to ? *s.play_to : tl.end;
            seg.per_second = tl.per_second;
            if (seg.from < tl.begin - 1e-9 || seg.to > tl.end + 1e-9 || seg.to < seg.from) {
                char buf[160];
                std::snprintf(buf, sizeof buf, "%g..%g is outside the animation; expected %g..%g",
                              seg.from, seg.to, tl.begin, tl.end);
                throw UsageError(name + buf + " (" + tl.unit + "s)");
            }
        }
        segs.push_back(seg);
    }
    host.show_slide(start);
    return segs;
}

}  // namespace ll::gui
