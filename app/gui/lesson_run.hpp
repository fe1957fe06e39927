// `layoutlab --lesson FILE [--slide N] [--hold S]`: the lesson's flags checked
// before a window opens, and its recording (--record on a lesson) as one clip
// of every slide: a slide's "play" range at its panel's speed, or a still
// slide held for its "hold" (else --hold, else the lesson's, else 4 s).
#pragma once

#include <optional>
#include <vector>

#include "app/gui/gui.hpp"
#include "app/gui/host.hpp"
#include "app/gui/lesson_deck.hpp"

namespace ll::gui {

// nullopt without --lesson. Reads and checks the file and the flags that go
// with it (--slide within the lesson; no --scene, --panel or scene flags).
// Throws UsageError.
std::optional<LessonDeck> open_lesson(const Options& o);

// The panel id slide i is shown in.
std::string slide_panel(const LessonDeck& d, size_t i);

// Loads every slide once (so a bad scene stops before anything is shown or
// recorded) and, for a recording, returns each slide's segment; the host
// shows slide `start` afterwards. Throws UsageError naming the slide.
std::vector<RecordSegment> check_slides(Host& host, LessonDeck& d, double hold_flag, size_t start);

}  // namespace ll::gui
