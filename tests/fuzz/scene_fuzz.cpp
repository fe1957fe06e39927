// libFuzzer target: every panel's scene reader. The input is read as the
// window reads a --scene file (bounded JSON parse) and handed to one panel
// through load_settings, the way `--panel ID --scene F` does: the panel its
// "panel" key names, else the one its first byte picks (so every panel gets
// inputs). Then the panel is driven without drawing: seek to the start,
// middle and end of its timeline, a few update() steps (a playing scene
// animates), and save_settings; a panel that refused the scene is driven
// too, as the window keeps it. A scene a panel accepted must be saved in a
// form that panel accepts again. No GL context exists here: render::PlanGpu
// records CPU data only until its first draw, so every panel is covered.
// Any input must load or give a UsageError.
#include <imgui.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "app/panels/explorer_scene.hpp"
#include "app/panels/panel.hpp"
#include "core/error.hpp"
#include "core/io/json_input.hpp"

namespace {

// Two instances per registry entry: the one a scene is loaded into, and the
// one its saved settings are loaded into.
struct Pair {
    std::unique_ptr<ll::gui::Panel> p, q;
};
std::vector<Pair>* g_panels = nullptr;  // never destroyed (static order at exit)

// Everything a window does with a panel between two draws.
void drive(ll::gui::Panel& p) {
    const ll::gui::Timeline tl = p.timeline();
    if (tl.end > tl.begin) {
        p.seek(tl.begin);
        p.seek((tl.begin + tl.end) / 2);
        p.seek(tl.end);
    }
    for (double dt : {0.0, 1.0 / 60, 0.25, 3.0}) p.update(dt);
    (void)p.busy();
}

// Elements a "shape" value names (a "2,2,28" string or an array of numbers),
// saturating; 0 when it is neither.
double shape_elements(const nlohmann::json& v) {
    double n = 1;
    if (v.is_string()) {
        const std::string& s = v.get_ref<const std::string&>();
        size_t at = 0;
        while (at <= s.size()) {
            const size_t comma = std::min(s.find(',', at), s.size());
            n *= std::max(1.0, std::strtod(s.substr(at, comma - at).c_str(), nullptr));
            at = comma + 1;
        }
        return n;
    }
    if (!v.is_array()) return 0;
    for (const auto& d : v)
        if (d.is_number()) n *= std::max(1.0, d.get<double>());
    return n;
}

// A scene whose tensor is past what one run may build: the window accepts
// up to 2^25 cells (seconds under ASan on a loaded machine, a libFuzzer
// timeout), and padding can grow a shape's elements 256-fold (NZ of a 1x1
// matrix). The refusal past the window's limit is a hostile-scene test
// (tests/gui/hostile_scene_test.cpp); here such scenes are skipped.
bool too_big(const nlohmann::json& j) {
    constexpr double kMaxElements = 1 << 14;  // at most 4M cells after padding
    for (const char* side : {"a", "b"})       // the compare panel's two scenes
        if (j.contains(side) && j[side].is_object() && too_big(j[side])) return true;
    return j.contains("shape") && shape_elements(j["shape"]) > kMaxElements;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    ImGui::CreateContext();  // some panels read the style when built
    g_panels = new std::vector<Pair>;
    for (const ll::gui::PanelEntry& e : ll::gui::panel_registry())
        g_panels->push_back({e.make(), e.make()});
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const std::string text(reinterpret_cast<const char*>(data), size);
    nlohmann::json j;
    try {
        j = ll::parse_json_bounded(text, "--scene");
    } catch (const ll::UsageError&) {
        return 0;
    }
    if (!j.is_object()) return 0;
    // No file access at fuzzed paths: the explorer's "image" is read, the
    // pipeline's "export" names files to write.
    j.erase("image");
    j.erase("export");
    if (too_big(j)) return 0;
    const auto& reg = ll::gui::panel_registry();
    size_t i = data[0] % reg.size();
    if (j.contains("panel")) {  // as main_panel_id (app/gui/scene_args.cpp) reads it
        if (!j["panel"].is_string()) return 0;
        for (size_t k = 0; k < reg.size(); ++k)
            if (j["panel"].get<std::string>() == reg[k].id) i = k;
        j.erase("panel");
    }
    Pair& pp = (*g_panels)[i];
    try {
        pp.p->load_settings(j);
    } catch (const ll::UsageError&) {
        drive(*pp.p);  // the window keeps a panel whose scene it refused
        return 0;
    }
    drive(*pp.p);
    // What a panel saves, it (a second one too) must load again.
    const nlohmann::json saved = pp.p->save_settings();
    pp.q->load_settings(saved);  // a UsageError here escapes: libFuzzer reports it
    drive(*pp.q);
    return 0;
}
