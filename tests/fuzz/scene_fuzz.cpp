// libFuzzer target: every panel's scene reader. The input is read as the
// window reads a --scene file (bounded JSON parse), then every panel of the
// registry is built and handed it through load_settings, the way
// `--panel ID --scene F` does, and driven without drawing: seek to the start,
// middle and end of its timeline, a few update() steps (a playing scene
// animates), and save_settings; a panel that refused the scene is driven
// too, as the window keeps it. A scene a panel accepted must be saved in a
// form that panel accepts again. No GL context exists here: render::PlanGpu
// records CPU data only until its first draw, so every panel is covered.
// Any input must load or give a UsageError.
#include <imgui.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "app/panels/explorer_scene.hpp"
#include "app/panels/panel.hpp"
#include "core/error.hpp"
#include "core/io/json_input.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    ImGui::CreateContext();  // some panels read the style when built
    return 0;
}

namespace {

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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
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
    for (const ll::gui::PanelEntry& e : ll::gui::panel_registry()) {
        auto p = e.make();
        try {
            p->load_settings(j);
        } catch (const ll::UsageError&) {
            drive(*p);  // the window keeps a panel whose scene it refused
            continue;
        }
        drive(*p);
        // What a panel saves, it (a fresh one too) must load again.
        const nlohmann::json saved = p->save_settings();
        auto q = e.make();
        q->load_settings(saved);  // a UsageError here escapes: libFuzzer reports it
        drive(*q);
    }
    return 0;
}
