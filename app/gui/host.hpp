// The window's host: owns one slot per registry panel (the full-window one
// and those opened from the View menu), the menu bar, the theme and UI scale,
// and turns key presses into the panels' shortcut keys. One frame() builds
// the ImGui frame; the caller renders it.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "app/gui/config.hpp"
#include "app/gui/lesson_deck.hpp"
#include "app/gui/platform.hpp"
#include "app/gui/recorder.hpp"
#include "app/panels/panel.hpp"

namespace ll::gui {

// Set by the signal handlers the tests use (SIGUSR1: a screenshot; SIGTERM:
// quit after this frame).
extern std::atomic<int> g_signal_shots;
extern std::atomic<bool> g_quit;
void install_test_signals();

struct PanelSlot {
    const PanelEntry* entry;
    std::unique_ptr<Panel> panel;
    bool open = false;
};

class Host {
  public:
    Host(Platform& pf, Settings st, const std::string& main_id) : pf_(pf), st_(st) {
        for (const PanelEntry& e : panel_registry()) {
            if (main_id == e.id) main_ = slots_.size();
            slots_.push_back({&e, nullptr, false});
        }
        slots_[main_].panel = slots_[main_].entry->make();
        slots_[main_].open = true;
        apply_style();
    }
    Panel& main_panel() { return *slots_[main_].panel; }
    const Settings& settings() const { return st_; }
    bool busy() const {
        if (rec_.active() || (lesson_ && lesson_->playing())) return true;
        for (const auto& s : slots_)
            if (s.panel && s.open && s.panel->busy()) return true;
        return false;
    }
    void update(double dt) {
        rec_.next_segment();  // a lesson recording may change the slide here
        for (auto& s : slots_)
            if (s.panel && s.open) s.panel->update(dt);
        double pos = 0;
        if (lesson_ && lesson_->advance_play(dt, pos)) main_panel().seek(pos);
        rec_.pose(main_panel());
    }
    Recorder& recorder() { return rec_; }
    void frame();
    // Lessons (app/gui/lesson_deck.hpp): the deck's keys, slide changes and
    // presenter strip. Hook for presentation mode: a lesson hides the menu bar.
    void set_lesson(LessonDeck* deck) {
        lesson_ = deck;
        if (deck) ctx_.present = true;  // a lesson opens as slides
    }
    // Makes panel `id` the full-window one and loads `settings` into it
    // (throws UsageError from the panel's reader).
    void show_panel(const std::string& id, const nlohmann::json& settings);
    // A lesson's slide i shown now (throws UsageError naming the slide).
    void show_slide(size_t i);
    // Presentation mode (AppContext::present): F5 and View > Presentation
    // mode toggle it, Escape leaves it; lessons and --present call this.
    void set_present(bool on) { ctx_.present = on; }
    bool present() const { return ctx_.present; }
    // The View menu's panel items, in the order drawn: the full-window panel
    // first (main), then every other registry panel (--dump-view writes them
    // as "view_menu"; issue 13: the menu once had no way back to the explorer).
    struct ViewMenuItem {
        const char* id;
        bool main, open;
    };
    std::vector<ViewMenuItem> view_menu_items() const;

  private:
    void open_requested();
    void apply_style();
    void draw_main_panel(float menu_h, float strip_h);
    void back_to_main_item();
    PanelSlot& slot_of(const std::string& id);
    void language_menu();
    Platform& pf_;
    Settings st_;
    float applied_scale_ = -1;
    bool applied_dark_ = false;
    std::vector<PanelSlot> slots_;
    size_t main_ = 0;  // the full-window panel
    AppContext ctx_;
    Recorder rec_;
    LessonDeck* lesson_ = nullptr;
};

}  // namespace ll::gui
