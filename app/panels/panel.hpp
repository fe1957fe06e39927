// Panels: the windows of the app, one class per file, listed in ONE table.
//
// How to add a panel (one file + one line):
//   1. app/panels/<name>_panel.cpp: a class deriving from ll::gui::Panel that
//      draws its controls with ImGui inside draw() (the app has already called
//      ImGui::Begin(title()) for you) and keeps its own state as members
//      (never function statics). To show cells, build an ll::Plan
//      (core/plan.hpp) and draw it with an ll::render::PlanView member
//      (app/render/plan_view.hpp): it animates between stages, pans, zooms
//      and reports the hovered cell.
//      End the file with a factory:
//        std::unique_ptr<Panel> make_<name>_panel() { return std::make_unique<...>(); }
//   2. app/panels/registry.cpp: declare the factory and add one line
//        {"<id>", "<Title>", "<menu group>", make_<name>_panel},
//      to the table. The menu "View > <group> > <Title>" is built from it, and
//      `layoutlab --panel <id>` opens the panel full-window (screenshot tests,
//      slides); a scene file {"panel": "<id>", ...} is handed to its
//      load_settings().
// Panels never call glfwSwapBuffers or poll events; they ask for redraws by
// returning true from busy() while they animate.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ll::gui {

// Shortcut keys pressed since the last frame, in order. Delivered even when
// press and release fall between two frames (ImGui 1.86 would drop those).
enum class Key { space, left, right, home, end };

// A panel's request to show another panel (registry id) on a scene's
// settings, e.g. {"cube", {{"m1", 8}, {"k1", 4}, {"n1", 8}}}. The app opens
// that panel's window after the frame and hands it the settings through
// load_settings(); an error there becomes the status line.
struct OpenRequest {
    std::string panel;
    nlohmann::json settings;
};

// What the app shares with every panel during one frame.
struct AppContext {
    std::vector<Key> keys;   // shortcut presses for the panel with focus
    double dt = 0;           // seconds since the last frame
    float ui_scale = 1.0f;   // font/UI scale chosen by the user
    bool dark_theme = true;  // panels pick matching colours
    std::string status;      // a panel may set a one-line status message
    // Presentation mode (F5, View menu, --present; app/panels/present.hpp):
    // the panel draws its diagram alone, filling the space it is given (no
    // controls, no side bars), and sets `caption` to what the diagram shows
    // now; the host draws the caption large below it. Lessons switch it with
    // Host::set_present().
    bool present = false;
    struct Caption {
        std::string title;    // e.g. the stage's label: "stage 2 of 4: transpose"
        std::string formula;  // e.g. "(M1,M0,N1,N0) -> (N1,M1,M0,N0)"
    } caption;
    // Panels to open after this frame (see OpenRequest).
    std::vector<OpenRequest> open_requests;
};

// A panel's animation as a range of positions in its own unit (stages,
// steps, ...). Recording (app/gui/recorder.*) shows position
// begin + i * per_second / fps in frame i through Panel::seek, instead of
// advancing by wall-clock dt, so a clip is the same on every machine.
struct Timeline {
    double begin = 0, end = 0;   // end <= begin: the panel does not animate
    double per_second = 1;       // positions per second when played in the window
    const char* unit = "stage";  // what a position counts, for messages
};

class Panel {
  public:
    virtual ~Panel() = default;
    virtual const char* title() const = 0;
    // Advance short-lived animation state only (never engine data).
    virtual void update(double dt) { (void)dt; }
    // Draw inside the already-begun ImGui window.
    virtual void draw(AppContext& ctx) = 0;
    // True while the panel animates: the app keeps redrawing.
    virtual bool busy() const { return false; }
    // The range its play button animates (default: none).
    virtual Timeline timeline() const { return {}; }
    // Shows position t of timeline() at rest: not playing, not gliding.
    virtual void seek(double t) { (void)t; }
    // Saved view settings (scene files). Empty object = nothing to save.
    virtual nlohmann::json save_settings() const { return nlohmann::json::object(); }
    // What the last frame showed, for tests and scripts: hovered cell, screen
    // rectangles of controls, counts. `--dump-view` writes it under "probe"
    // beside the settings; it is never read back (a scene loads without it).
    virtual nlohmann::json probe() const { return nlohmann::json::object(); }
    // Throws UsageError on a bad scene.
    virtual void load_settings(const nlohmann::json& j) { (void)j; }
};

using PanelFactory = std::unique_ptr<Panel> (*)();

struct PanelEntry {
    const char* id;     // short name for `layoutlab --panel ID`, e.g. "tiling"
    const char* title;  // window title and menu item
    const char* group;  // menu group, e.g. "Formats", "Compute", "Tiling", "Views"
    PanelFactory make;
};

// The table of panels, in menu order (app/panels/registry.cpp). The first
// entry is the default full-window panel.
const std::vector<PanelEntry>& panel_registry();

// The entry with this id, or nullptr.
const PanelEntry* find_panel(const std::string& id);

}  // namespace ll::gui
