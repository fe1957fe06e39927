// libFuzzer target: every panel's scene reader. The input is read as the
// window reads a --scene file (bounded JSON parse), then handed to each
// panel's load_settings the way `--panel ID --scene F` does. The explorer's
// load_settings uploads to the GPU, so for it the GL-free part is fuzzed:
// scene_from_json and build_plan (what its load_settings runs first). Panels
// that draw cells own a render::PlanGpu, which uploads to the GPU as soon as
// a panel builds its first picture (in its constructor), so they need a GL
// context and are left out here: today every cell panel. Their scene keys go
// through the same ll::gui::SceneReader, which the pipeline panel exercises.
// (To fuzz them all, PlanGpu should defer its uploads to the first draw.)
// Any input must load or give a UsageError.
#include <imgui.h>

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>

#include "app/panels/explorer_scene.hpp"
#include "app/panels/panel.hpp"
#include "core/error.hpp"
#include "core/io/json_input.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    ImGui::CreateContext();  // some panels read the style when built
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    nlohmann::json j;
    try {
        j = ll::parse_json_bounded(text, "--scene");
    } catch (const ll::UsageError&) {
        return 0;
    }
    if (!j.is_object()) return 0;
    try {
        ll::gui::Scene s = ll::gui::scene_from_json(j, ".");
        s.image.clear();  // no file reads from fuzzed paths
        ll::gui::build_plan(s);
    } catch (const ll::UsageError&) {
    }
    const auto& panels = ll::gui::panel_registry();
    for (size_t i = 1; i < panels.size(); ++i) {
        // Panels that build GPU resources (render::PlanGpu) when constructed
        // cannot exist without a GL context (see the top of this file).
        const std::string id = panels[i].id;
        static const std::set<std::string> needs_gl = {
            "planning", "conv", "img2col", "loaddata", "cube", "tiling", "views", "fusion", "agu"};
        if (needs_gl.count(id)) continue;
        auto p = panels[i].make();
        try {
            p->load_settings(j);
        } catch (const ll::UsageError&) {
        }
    }
    return 0;
}
