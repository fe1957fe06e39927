#include "app/gui/config.hpp"

#include <imgui.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/io/atomic_file.hpp"
#include "core/io/json_input.hpp"

namespace ll::gui {

namespace {

// Remembered settings are a convenience: a full disk must not stop the app.
void write_quietly(const std::string& path, const std::string& text) {
    try {
        write_file_atomic(path, text);
    } catch (const std::exception&) {
    }
}

}  // namespace

// $XDG_CONFIG_HOME/layoutlab or ~/.config/layoutlab; "" when disabled
// (--no-config, LAYOUTLAB_NO_CONFIG=1) or when no home is known.
std::string config_dir(bool disabled) {
    const char* off = std::getenv("LAYOUTLAB_NO_CONFIG");
    if (disabled || (off && *off && std::string(off) != "0")) return "";
    const char* xdg = std::getenv("XDG_CONFIG_HOME");
    const char* home = std::getenv("HOME");
    std::string base;
    if (xdg && *xdg)
        base = xdg;
    else if (home && *home)
        base = std::string(home) + "/.config";
    else
        return "";
    return base + "/layoutlab";
}

std::string read_text(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

Settings load_settings_file(const std::string& dir) {
    Settings s;
    if (dir.empty()) return s;
    // Our own file, but a user can edit it: read bounded and checked; a
    // missing or bad file means the defaults (the window still opens).
    try {
        const nlohmann::json j = read_json_file(dir + "/settings.json", "settings", 1 << 20);
        if (!j.is_object()) return s;
        Settings r;
        if (j.contains("theme")) r.dark = json_string(j["theme"], "theme") != "light";
        if (j.contains("ui_scale"))
            r.ui_scale = float(json_float(j["ui_scale"], "ui_scale", 0.5, 4));
        if (j.contains("lang")) {
            const std::string l = json_string(j["lang"], "lang");
            if (l == "en" || l == "zh") r.lang = l;
        }
        if (j.contains("width")) r.width = int(json_int(j["width"], "width", 320, 8192));
        if (j.contains("height")) r.height = int(json_int(j["height"], "height", 240, 8192));
        return r;
    } catch (const std::exception&) {
        return s;
    }
}

void save_settings_file(const std::string& dir, const Settings& s) {
    if (dir.empty()) return;
    std::string parent = dir.substr(0, dir.find_last_of('/'));
    ::mkdir(parent.c_str(), 0755);
    ::mkdir(dir.c_str(), 0755);
    nlohmann::json j = {{"theme", s.dark ? "dark" : "light"},
                        {"ui_scale", s.ui_scale},
                        {"width", s.width},
                        {"height", s.height}};
    if (!s.lang.empty()) j["lang"] = s.lang;
    write_quietly(dir + "/settings.json", j.dump(2) + "\n");
    size_t n = 0;
    const char* ini = ImGui::SaveIniSettingsToMemory(&n);
    write_quietly(dir + "/imgui.ini", std::string(ini, n));
}

}  // namespace ll::gui
