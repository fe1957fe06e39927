// A lesson in the window: which slide shows, the keys that move between
// slides, and the presenter strip with the slide's notes.
//
// Keys (a presenter's clicker sends PageDown/PageUp, some Right/Left):
//   PageDown, Right  next slide        PageUp, Left  previous slide
//   Home, End        first, last       N             notes strip on/off
//   M                the menu bar on/off (hidden while presenting)
// The host asks take_key() first; keys a lesson takes never reach the panel.
// A slide change is applied by the host (Host::show_panel) between frames.
#pragma once

#include <string>

#include "core/lesson/lesson.hpp"

namespace ll::gui {

// The language of the lesson's notes and titles: the window's (--lang, the
// Settings menu), followed at once when it changes. A slide without text in
// that language shows its English, else its first language.
std::string lesson_language();

class LessonDeck {
  public:
    LessonDeck(lesson::Lesson l, std::string base_dir);
    const lesson::Lesson& lesson() const { return l_; }
    size_t size() const { return l_.slides.size(); }
    size_t current() const { return cur_; }
    // Asks for slide i (0-based, clamped); applied by the host.
    void go(size_t i);
    // The slide the host must show next, once (false when none is pending).
    bool take_pending(size_t& i);
    // A GLFW key press: true when the lesson used it.
    bool take_key(int glfw_key);
    bool menu_visible() const { return menu_; }
    void set_notes_visible(bool v) { notes_ = v; }
    // The panel settings of slide i, ready for load_settings (the explorer
    // gets the lesson's folder for relative image paths).
    nlohmann::json scene_of(size_t i, bool explorer) const;
    // Draws the presenter strip along the bottom; returns its height (0 when hidden).
    float strip(float width, float height, float ui_scale);
    // Auto-play of a slide's "play" range in the window: started when the
    // slide is shown, advanced by wall-clock time; false when not playing.
    void start_play(double from, double to, double per_second);
    bool advance_play(double dt, double& pos);
    bool playing() const { return play_; }
    // Text in the deck's language.
    std::string text(const lesson::Texts& t) const { return lesson::pick(t, lesson_language()); }

  private:
    lesson::Lesson l_;
    std::string base_dir_;
    size_t cur_ = 0;
    bool pending_ = true;
    bool notes_ = true, menu_ = false;
    bool play_ = false;
    double play_pos_ = 0, play_to_ = 0, play_speed_ = 1;
};

}  // namespace ll::gui
