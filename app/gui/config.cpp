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
    auto j = nlohmann::json::parse(read_text(dir + "/settings.json"), nullptr, false);
    if (!j.is_object()) return s;
    // A hand-edited file may hold anything: take each value only when it has
    // the right type and is finite, clamped to a sane range.
    auto number = [&](const char* key, double fallback, double lo, double hi) {
        auto it = j.find(key);
        if (it == j.end() || !it->is_number()) return fallback;
        double v = it->get<double>();
        return std::isfinite(v) ? std::clamp(v, lo, hi) : fallback;
    };
    auto theme = j.find("theme");
    s.dark = !(theme != j.end() && theme->is_string() && theme->get<std::string>() == "light");
    s.ui_scale = float(number("ui_scale", 1.0, 0.5, 4.0));
    s.width = int(number("width", 1280, 320, 8192));
    s.height = int(number("height", 800, 240, 8192));
    return s;
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
    write_quietly(dir + "/settings.json", j.dump(2) + "\n");
    size_t n = 0;
    const char* ini = ImGui::SaveIniSettingsToMemory(&n);
    write_quietly(dir + "/imgui.ini", std::string(ini, n));
}

}  // namespace ll::gui
