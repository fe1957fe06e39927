// Settings remembered between runs of the window: theme, UI scale, language,
// window size, ImGui's own layout (imgui.ini), in $XDG_CONFIG_HOME/layoutlab or
// ~/.config/layoutlab. Unreadable or odd values fall back to defaults; a
// failed save is silent (the window keeps working).
#pragma once

#include <string>

namespace ll::gui {

struct Settings {
    bool dark = true;
    float ui_scale = 1.0f;
    std::string lang;  // "en", "zh"; "" = never chosen (then $LANG decides)
    int width = 1280, height = 800;
};

// The folder, or "" when disabled (`disabled`, LAYOUTLAB_NO_CONFIG=1) or
// when no home is known.
std::string config_dir(bool disabled);
// A whole file as text ("" when unreadable).
std::string read_text(const std::string& path);
Settings load_settings_file(const std::string& dir);
// Writes settings.json and imgui.ini (ImGui must be live).
void save_settings_file(const std::string& dir, const Settings& s);

}  // namespace ll::gui
