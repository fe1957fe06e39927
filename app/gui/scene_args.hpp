// The scene a run of the window starts with, from its flags: which panel
// fills the window, and (explorer) the scene file with single flags on top.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "app/gui/gui.hpp"

namespace ll::gui {

// The id of the full-window panel: --panel, else the scene file's "panel",
// else the first entry of the registry (the explorer). `panel_scene` gets the
// scene file's settings (without "panel"). Throws UsageError.
std::string main_panel_id(const Options& o, nlohmann::json& panel_scene);

// The explorer's scene JSON: the file, then each flag given on top.
nlohmann::json initial_scene(const Options& o);

}  // namespace ll::gui
