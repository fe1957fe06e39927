// Every panel can be built, loaded from a scene and driven without a GL
// context: render::PlanGpu records CPU data only until the first draw
// (app/render/plan_gpu.hpp). No context exists in this program, so glad's
// function pointers are null and any GL call before a draw would crash it.
#include <gtest/gtest.h>
#include <imgui.h>

#include <cmath>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "app/panels/panel.hpp"
#include "app/render/plan_gpu.hpp"
#include "core/plan.hpp"

namespace {

struct ImGuiContextScope {
    ImGuiContextScope() { ImGui::CreateContext(); }  // some panels read the style
    ~ImGuiContextScope() { ImGui::DestroyContext(); }
};

void drive(ll::gui::Panel& p) {
    const ll::gui::Timeline tl = p.timeline();
    if (tl.end > tl.begin) {
        p.seek(tl.end);
        p.seek((tl.begin + tl.end) / 2);
        p.seek(tl.begin);
    }
    for (double dt : {0.0, 1.0 / 60, 0.5}) p.update(dt);
}

}  // namespace

TEST(PanelsHeadless, EveryPanelIsBuiltLoadedAndDrivenWithoutAGlContext) {
    ImGuiContextScope imgui;
    for (const ll::gui::PanelEntry& e : ll::gui::panel_registry()) {
        SCOPED_TRACE(e.id);
        auto p = e.make();
        drive(*p);
        const nlohmann::json saved = p->save_settings();
        // What a panel saves, a fresh panel loads (the pipeline panel saved
        // "l0c_slots" and "screen" and refused both).
        auto q = e.make();
        ASSERT_NO_THROW(q->load_settings(saved));
        drive(*q);
        EXPECT_TRUE(q->save_settings().is_object());
    }
}

TEST(PanelsHeadless, EveryPositionOfATimelineSavesASceneThePanelLoads) {
    // The tiling panel's seek(end) put its step one past the last sub-tile:
    // it drew sub-tile 0 of the last tile and saved a step it then refused.
    ImGuiContextScope imgui;
    for (const ll::gui::PanelEntry& e : ll::gui::panel_registry()) {
        SCOPED_TRACE(e.id);
        auto p = e.make();
        const ll::gui::Timeline tl = p->timeline();
        for (double t : {tl.begin, (tl.begin + tl.end) / 2, tl.end}) {
            SCOPED_TRACE(t);
            p->seek(t);
            auto q = e.make();
            EXPECT_NO_THROW(q->load_settings(p->save_settings()));
        }
    }
}

TEST(PanelsHeadless, BundledScenesLoadWithoutAGlContext) {
    ImGuiContextScope imgui;
    const std::string dir = std::string(LAYOUTLAB_SOURCE_DIR) + "/assets/scenes/";
    for (const char* f :
         {"hwcn_to_fractal_z.json", "nchw_to_nc1hwc0.json", "nd_to_nz_2x2x28.json"}) {
        SCOPED_TRACE(f);
        std::ifstream in(dir + f);
        ASSERT_TRUE(in) << dir + f;
        nlohmann::json j = nlohmann::json::parse(in);
        // (Not j.value(): GCC 12 sees a possible null in its inlined string
        // conversion under -Wnull-dereference.)
        const auto it = j.find("panel");
        const std::string id = it != j.end() && it->is_string()
                                   ? it->get_ref<const std::string&>()
                                   : std::string(ll::gui::panel_registry()[0].id);
        const ll::gui::PanelEntry* e = ll::gui::find_panel(id);
        ASSERT_NE(e, nullptr);
        auto p = e->make();
        ASSERT_NO_THROW(p->load_settings(j));
        drive(*p);
        EXPECT_TRUE(p->save_settings().is_object());
    }
}

TEST(PanelsHeadless, PlanGpuAnswersOnTheCpuBeforeItsFirstDraw) {
    // A 2x3 tensor transposed: the cell places and inverse lookups are CPU
    // work and must not wait for (or need) an upload.
    auto plan = std::make_shared<ll::Plan>();
    plan->cell_count = 6;
    plan->src_shape = {2, 3};
    plan->src = {0, 1, 2, 3, 4, 5};
    plan->stages.push_back(ll::stage("source", "", {2, 3}, ll::tensor_grid({2, 3})));
    plan->stages.push_back(ll::stage("transpose", "", {3, 2}, ll::tensor_grid({3, 2})));
    plan->offsets = [](size_t k) {
        std::vector<int64_t> o(6);
        for (int64_t c = 0; c < 6; ++c) o[size_t(c)] = k == 0 ? c : (c % 3) * 2 + c / 3;
        return o;
    };
    ll::render::PlanGpu gpu;
    gpu.set_plan(plan, ll::ColourMode::row);
    gpu.set_colours(ll::ColourMode::column);
    EXPECT_EQ(gpu.colour_mode(), ll::ColourMode::column);
    EXPECT_EQ(gpu.colour_buffer(), 0u);  // nothing uploaded yet
    EXPECT_EQ(gpu.small_colours().size(), 6u);
    // Cell 1 = element (0,1): at (1,0) before, at row 1 column 0 after.
    EXPECT_EQ(gpu.place(0, 1), (ll::Place{1, 0}));
    EXPECT_EQ(gpu.place(1, 1), (ll::Place{0, 1}));
    EXPECT_EQ(gpu.final_offset(1), 2);
    EXPECT_EQ(gpu.cell_at(1, 2), 1);
    gpu.set_plan(nullptr);  // and it is destroyed without a context
}
