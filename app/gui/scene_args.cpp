#include "app/gui/scene_args.hpp"

#include <cstdlib>
#include <fstream>

#include "app/panels/explorer_scene.hpp"
#include "app/panels/panel.hpp"
#include "core/error.hpp"
#include "core/io/input_file.hpp"
#include "core/io/json_input.hpp"

namespace ll::gui {

std::string main_panel_id(const Options& o, nlohmann::json& panel_scene) {
    std::string id = o.panel;
    if (!o.scene.empty()) {
        auto j = read_json_file(o.scene, "--scene", kMaxJsonFileBytes);
        if (!j.is_object()) throw UsageError("--scene: '" + o.scene + "' is not a JSON object");
        if (j.contains("panel")) {
            if (!j["panel"].is_string())
                throw UsageError("--scene: \"panel\" must be a panel id string");
            std::string sid = j["panel"].get<std::string>();
            if (id.empty()) id = sid;
            if (sid != id)
                throw UsageError("--scene: the file is for panel '" + sid + "' but --panel is '" +
                                 id + "'");
            j.erase("panel");
        }
        panel_scene = j;
    }
    if (id.empty()) id = panel_registry().front().id;
    if (!find_panel(id)) {
        std::string ids;
        for (const PanelEntry& e : panel_registry())
            ids += std::string(ids.empty() ? "" : ", ") + e.id;
        throw UsageError("--panel: '" + id + "' is not a panel; expected one of " + ids);
    }
    return id;
}

nlohmann::json initial_scene(const Options& o) {
    nlohmann::json j;
    if (!o.scene.empty()) {
        Scene s = load_scene_file(o.scene);
        j = to_json(s);
    } else {
        j = to_json(Scene{});
    }
    auto set = [&](const char* key, const std::string& v) {
        if (!v.empty()) j[key] = v;
    };
    set("from", o.from);
    set("to", o.to);
    set("via", o.via);
    set("shape", o.shape);
    set("dtype", o.dtype);
    set("fractal", o.fractal);
    set("image", o.image);
    set("colour", o.colour);
    set("stage", o.stage);
    if (!o.image.empty() && o.colour.empty()) j["colour"] = "value";
    if (!o.image.empty() && o.from.empty() && o.scene.empty()) {
        j["from"] = "NCHW";
        if (o.to.empty()) j["via"] = "NHWC", j["to"] = "NC1HWC0";
    }
    auto num = [&](const char* key, const std::string& v, const char* flag) {
        if (v.empty()) return;
        char* end = nullptr;
        double d = std::strtod(v.c_str(), &end);
        if (end == v.c_str() || *end)
            throw UsageError(std::string(flag) + ": '" + v + "' is not a number");
        j[key] = d;
    };
    num("pad_value", o.pad_value, "--pad-value");
    if (!o.c0.empty()) {
        char* end = nullptr;
        long long c = std::strtoll(o.c0.c_str(), &end, 10);
        if (end == o.c0.c_str() || *end) throw UsageError("--c0: '" + o.c0 + "' is not an integer");
        j["c0"] = c;
    }
    if (!o.scene.empty()) {
        std::string d = o.scene.substr(
            0, o.scene.find_last_of('/') == std::string::npos ? 0 : o.scene.find_last_of('/'));
        j["_base_dir"] = d.empty() ? "." : d;
    }
    return j;
}

}  // namespace ll::gui
