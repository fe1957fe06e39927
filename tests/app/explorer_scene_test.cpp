// The explorer's scenes (and the compare panel's two sides) are read by the
// one SceneReader: its message style ("<panel> scene: <key> = <value>;
// expected ..."), its key on the error, and core's number checks (16.0 is an
// integer, 16.5 and 1e32 are not). No GL: the compare panel builds its plans
// in load_settings and uploads nothing before a draw.
#include <gtest/gtest.h>
#include <imgui.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "app/panels/explorer_scene.hpp"
#include "app/panels/panel.hpp"
#include "core/error.hpp"

namespace {

using ll::UsageError;
using ll::gui::Scene;
using ll::gui::scene_from_json;
using nlohmann::json;

// The error of reading `j`; fails the test when it reads.
UsageError refusal(const json& j) {
    try {
        scene_from_json(j, "");
    } catch (const UsageError& e) {
        return e;
    }
    ADD_FAILURE() << "accepted " << j.dump();
    return UsageError("");
}

}  // namespace

TEST(ExplorerScene, ReadsEveryKeyAndRoundTrips) {
    const json j = {
        {"from", "NCHW"},     {"to", "NC1HWC0"},
        {"via", "NHWC"},      {"shape", {1, 3, 4, 5}},
        {"dtype", "int8"},    {"c0", 16.0},  // a whole float is an integer
        {"fractal", "16x32"}, {"pad_value", -1.5},
        {"colour", "value"},  {"stage", 1.5},
        {"speed", 2},         {"loop", true},
        {"playing", true},    {"select", 7},
        {"waves", "row"},     {"cameras", {nullptr, {{"zoom", 4}, {"pan_x", 1}, {"pan_y", -2}}}}};
    const Scene s = scene_from_json(j, "");
    EXPECT_EQ(s.shape, "1,3,4,5");
    EXPECT_EQ(s.c0, 16);
    EXPECT_EQ(s.via, "NHWC");
    EXPECT_EQ(s.stage, "1.5");
    EXPECT_FLOAT_EQ(s.speed, 2.f);
    EXPECT_TRUE(s.loop);
    EXPECT_EQ(s.select, 7);
    EXPECT_EQ(s.waves, "row");
    EXPECT_FALSE(s.cameras[0].set);
    ASSERT_TRUE(s.cameras[1].set);
    EXPECT_FLOAT_EQ(s.cameras[1].zoom, 4.f);
    EXPECT_FLOAT_EQ(s.cameras[1].pan_y, -2.f);
    // What to_json writes reads back the same.
    const Scene t = scene_from_json(ll::gui::to_json(s), "");
    EXPECT_EQ(ll::gui::to_json(t), ll::gui::to_json(s));
    // "stage" may be a word; absent keys keep the defaults.
    EXPECT_EQ(scene_from_json({{"stage", "last"}}, "").stage, "last");
    EXPECT_EQ(scene_from_json(json::object(), "").to, Scene{}.to);
}

TEST(ExplorerScene, BadValuesNameTheKeyAndWhatIsExpected) {
    struct Case {
        json j;
        const char* key;
        const char* message;
    };
    const Case cases[] = {
        {{{"c0", 16.5}}, "c0", "explorer scene: c0 = 16.5; expected an integer in 0..65536"},
        {{{"c0", 1e32}}, "c0", "explorer scene: c0 = 1e+32; expected an integer in 0..65536"},
        {{{"shape", {2.5, 2}}}, "shape[0]", "explorer scene: shape[0] = 2.5; expected an integer"},
        {{{"shape", json::array()}},
         "shape",
         "explorer scene: shape = []; expected a list of 1..32"},
        {{{"shape", 7}}, "shape", "explorer scene: shape = 7; expected a list of 1..32"},
        {{{"speed", -1}}, "speed", "explorer scene: speed = -1; expected a number in 0..100"},
        {{{"colour", "red"}}, "colour", "explorer scene: colour = \"red\"; expected one of "},
        {{{"waves", "wave"}},
         "waves",
         "explorer scene: waves = \"wave\"; expected one of none, row, block"},
        {{{"stage", true}},
         "stage",
         "explorer scene: stage = true; expected a stage number or \"last\""},
        {{{"stage", -1}}, "stage", "explorer scene: stage = -1; expected a number in 0..1e+09"},
        {{{"loop", 1}}, "loop", "explorer scene: loop = 1; expected true or false"},
        {{{"from", 3}}, "from", "explorer scene: from = 3; expected a string"},
        {{{"bogus", 1}}, "bogus", "explorer scene: unknown key bogus; expected one of from, to"},
        {{{"cameras", {1, 2, 3}}},
         "cameras",
         "explorer scene: cameras = [1,2,3]; expected a list of at most 2"},
        {{{"cameras", {1}}}, "cameras[0]", "explorer scene: cameras[0] = 1; expected {"},
        {{{"cameras", {{{"zoom", 0}}}}},
         "cameras[0].zoom",
         "explorer scene: cameras[0].zoom = 0; expected a number in 1e-06..1e+06"},
        {{{"cameras", {{{"tilt", 0}}}}},
         "cameras[0].tilt",
         "explorer scene: unknown key cameras[0].tilt; expected one of zoom, pan_x, pan_y"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.j.dump());
        const UsageError e = refusal(c.j);
        EXPECT_EQ(e.key(), c.key);
        EXPECT_EQ(std::string(e.what()).rfind(c.message, 0), 0u) << e.what();
    }
    // Not an object at all.
    EXPECT_EQ(std::string(refusal(json::array()).what()).rfind("explorer scene: the file is", 0),
              0u);
}

// The compare panel reads both sides with the same reader, under "a." and
// "b."; an engine error about one side keeps the engine's key under it.
TEST(ExplorerScene, CompareSidesAreReadByTheSameReader) {
    ImGui::CreateContext();
    {
        const ll::gui::PanelEntry* e = ll::gui::find_panel("compare");
        ASSERT_NE(e, nullptr);
        std::unique_ptr<ll::gui::Panel> p = e->make();
        auto refused = [&](const json& j) -> UsageError {
            try {
                p->load_settings(j);
            } catch (const UsageError& u) {
                return u;
            }
            ADD_FAILURE() << "accepted " << j.dump();
            return UsageError("");
        };
        UsageError u = refused({{"a", {{"c0", 16.5}}}});
        EXPECT_EQ(u.key(), "a.c0");
        EXPECT_EQ(std::string(u.what()).rfind("compare scene: a.c0 = 16.5; expected an integer", 0),
                  0u)
            << u.what();
        u = refused({{"b", {{"shape", "0,3"}}}});
        EXPECT_EQ(u.key(), "b.shape");
        EXPECT_EQ(std::string(u.what()).rfind("compare scene: b.shape: ", 0), 0u) << u.what();
        u = refused({{"c", 1}});
        EXPECT_EQ(u.key(), "c");
        // A refused side stays as the window keeps it; good sides again, then a stage past the end.
        p->load_settings({{"a", {{"shape", "2,16,28"}}}, {"b", {{"shape", "2,16,28"}}}});
        u = refused({{"stage", 99}});
        EXPECT_EQ(u.key(), "stage");
        EXPECT_EQ(
            std::string(u.what()).rfind("compare scene: stage = 99; expected a number in 0..", 0),
            0u)
            << u.what();
        // A saved compare scene loads back.
        p->load_settings(
            {{"a", {{"to", "FRACTAL_NZ"}}}, {"b", {{"to", "FRACTAL_ZN"}}}, {"stage", "last"}});
        EXPECT_NO_THROW(p->load_settings(p->save_settings()));
    }
    ImGui::DestroyContext();
}
