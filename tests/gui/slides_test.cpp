// Issue 13 for the explorer, conv, pipeline, GPU and systolic panels as a
// teacher projects them: at 1600x1000, at the projector case (1024x768, UI
// scale 1.5, light theme), in presentation mode and in Chinese,
//   - no line of text is cut by the edge of the column, pane or window it
//     stands in (--dump-text's "cut": the conv stage table cut its names,
//     "input NC1HWC(", at the projector);
//   - the explorer's two views stay inside the window (a long view title
//     pushed the memory view 76 px past the right edge at the projector);
//   - presentation mode's caption fits the window (the explorer's memory
//     stages of NC1HWC0 and FRACTAL_NZ ran their formula past the right
//     edge: it shrinks a little, or wraps);
//   - on the light theme every line of words keeps 4.5:1 against the window;
//   - the conv feature map is labelled for its known scene: H and W named,
//     ticks on both axes, one tag per channel block, each label whole and
//     apart; so are the GPU panel's Winograd input grid (whose values grow
//     with its cells), the systolic array and its Cube, and the pipeline's
//     timeline.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/exec/plans.hpp"
#include "core/plan.hpp"
#include "tests/gui/probe_labels.hpp"
#include "tests/support/gui.hpp"
#include "tests/support/process.hpp"

using nlohmann::json;

namespace {

const char* const kMine[] = {"explorer", "conv", "pipeline", "gpu", "systolic"};

// The looks and checks shared by the slide tests (tests/gui/probe_labels.hpp).
using namespace ll::test::slide_checks;

// Desk, projector, and both presenting (the desk one in Chinese).
std::vector<std::string> four_looks() {
    return {"--size 1600x1000", kProjector, "--size 1600x1000 --present --lang zh",
            std::string(kProjector) + " --present"};
}

}  // namespace

TEST(GuiSlides, NoTextIsCutInAnyLook) {
    const std::string dir = ll::test::make_temp_dir();
    for (const char* id : kMine)
        for (const char* look : kLooks) {
            const std::string args = std::string("--panel ") + id + " " + look;
            const json cut = cut_lines(dir, args);
            EXPECT_TRUE(cut.empty()) << args << ": " << cut.dump();
        }
    // Scenes a teacher shows in the explorer: NC1HWC0's split and memory.
    for (const char* stage : {"2", "last"})
        for (const char* lang : {"en", "zh"}) {
            const std::string args = std::string("--from NCHW --to NC1HWC0 --shape 1,20,6,6 ") +
                                     kProjector + " --lang " + lang + " --stage " + stage;
            const json cut = cut_lines(dir, args);
            EXPECT_TRUE(cut.empty()) << args << ": " << cut.dump();
        }
}

// The detector itself finds a cut line: conv in a 640x480 window at UI
// scale 2, where the feature map's row (Play, its name, the stage slider)
// runs past the window's edge.
TEST(GuiSlides, CutTextIsFound) {
    const std::string dir = ll::test::make_temp_dir();
    const json cut = cut_lines(dir, "--panel conv --size 640x480 --ui-scale 2");
    EXPECT_FALSE(cut.empty());
}

TEST(GuiSlides, ExplorerViewsStayInsideTheWindow) {
    const std::string dir = ll::test::make_temp_dir();
    for (const std::string& scene :
         {std::string(), std::string("--from NCHW --to NC1HWC0 --shape 1,20,6,6 --stage 2")})
        for (const char* lang : {"en", "zh"}) {
            SCOPED_TRACE(scene + " " + lang);
            const json j = ll::test::dump_view(dir, scene + " " + kProjector + " --lang " + lang);
            ASSERT_TRUE(j.is_object());
            const float width = j["window"][0];
            const json& s = j["probe"]["screen"];
            ASSERT_EQ(s.size(), 2u);
            const float left_end = float(s[0]["origin"][0]) + float(s[0]["size"][0]);
            const float right_end = float(s[1]["origin"][0]) + float(s[1]["size"][0]);
            EXPECT_LT(left_end, float(s[1]["origin"][0])) << s.dump();
            EXPECT_LE(right_end, width) << s.dump();
            // The views stay level.
            EXPECT_EQ(s[0]["origin"][1], s[1]["origin"][1]);
        }
}

TEST(GuiSlides, PresentationCaptionFitsTheWindow) {
    const std::string dir = ll::test::make_temp_dir();
    // NC1HWC0's memory stage fits on one shrunk line; FRACTAL_NZ's is too
    // long for any readable size on one line and wraps.
    for (const std::string& scene : {std::string("--from NCHW --to NC1HWC0 --shape 1,20,6,6"),
                                     std::string("--from ND --to FRACTAL_NZ --shape 2,2,28")})
        for (const std::string look : ll::test::kTwoLooks)
            for (const char* lang : {"en", "zh"}) {
                SCOPED_TRACE(scene + " " + look + " " + lang);
                const json j = ll::test::dump_view(
                    dir, scene + " --stage last --present " + look + " --lang " + lang);
                ASSERT_TRUE(j.is_object());
                ASSERT_TRUE(j.contains("caption")) << j.dump();
                ASSERT_GE(j["caption"].size(), 2u) << j["caption"].dump();
                ASSERT_LE(j["caption"].size(), 4u) << j["caption"].dump();
                const float scale = look == kProjector ? 1.5f : 1.f;
                for (const json& l : j["caption"]) {
                    const float x = l["rect"][0], w = l["rect"][2];
                    EXPECT_GE(x, float(l["room"][0]) - 0.5f) << l.dump();
                    EXPECT_LE(x + w, float(l["room"][1]) + 0.5f) << l.dump();
                    // Still read from the back of the room: at least 0.6 of body size.
                    EXPECT_GE(float(l["rect"][3]), 0.6f * 13 * scale) << l.dump();
                    // Inside the window, below the slide.
                    EXPECT_LE(float(l["rect"][1]) + float(l["rect"][3]),
                              float(j["window"][1]) + 0.5f)
                        << l.dump();
                    EXPECT_GE(float(l["rect"][1]), float(j["slide"][3]) - 0.5f) << l.dump();
                }
                // The slide keeps four fifths of the window's height.
                EXPECT_GT(float(j["slide"][3]) - float(j["slide"][1]),
                          0.8f * float(j["window"][1]));
            }
}

// The conv panel's feature map, default scene (1,3,6,6) NCHW at stage 0:
// H and W named, ticks 0..5 on both axes (rows beside both blocks on the
// left edge), the three channel blocks tagged.
TEST(GuiSlides, ConvFeatureMapIsLabelled) {
    const std::string dir = ll::test::make_temp_dir();
    for (const std::string look : ll::test::kTwoLooks) {
        SCOPED_TRACE(look);
        const json j = ll::test::dump_scene(dir, "conv", json::object(), look);
        ASSERT_TRUE(j.is_object());
        const json& f = j["probe"]["screen"]["feature_map"];
        ASSERT_TRUE(f.contains("labels")) << f.dump();
        const json& ls = f["labels"];
        ll::test::expect_unclipped_and_apart(ls, f["origin"][0], f["origin"][1], f["size"][0],
                                             f["size"][1]);
        EXPECT_EQ(ll::test::count_label(ls, "axis", "H"), 1) << ls.dump();
        EXPECT_EQ(ll::test::count_label(ls, "axis", "W"), 1) << ls.dump();
        for (const char* c : {"n=0 c=0", "n=0 c=1", "n=0 c=2"})
            EXPECT_EQ(ll::test::count_label(ls, "tag", c), 1) << c << " in " << ls.dump();
        // Columns 0 and 5 once; rows 0 and 5 beside each block on the left
        // edge (c=0, and c=2 under it).
        EXPECT_EQ(ll::test::count_label(ls, "tick", "0"), 3) << ls.dump();
        EXPECT_EQ(ll::test::count_label(ls, "tick", "5"), 3) << ls.dump();
        // The map sits inside the window, under the line that names it.
        EXPECT_LE(float(f["origin"][1]) + float(f["size"][1]), float(j["window"][1]));
    }
}

// The GPU panel's Winograd input (default 6x6): H and W named, ticks 0..5 on
// both axes, every label apart from the others; the values grow with the
// cells (at 1600x1000 they were 16 px text in 92 px cells), in normal and
// presentation mode.
TEST(GuiSlides, GpuInputGridIsLabelledAndItsValuesFitTheCells) {
    const std::string dir = ll::test::make_temp_dir();
    for (const std::string& look : four_looks()) {
        SCOPED_TRACE(look);
        const json j = ll::test::dump_scene(dir, "gpu", json::object(), look);
        ASSERT_TRUE(j.is_object());
        const json& in = j["probe"]["screen"]["input"];
        ASSERT_TRUE(in.is_object()) << j["probe"].dump();
        const json& ls = in["labels"];
        ll::test::expect_unclipped_and_apart(ls, 0, 0, j["window"][0], j["window"][1]);
        EXPECT_EQ(ll::test::count_label(ls, "axis", "H"), 1) << ls.dump();
        EXPECT_EQ(ll::test::count_label(ls, "axis", "W"), 1) << ls.dump();
        for (const char* t : {"0", "1", "2", "3", "4", "5"})
            EXPECT_EQ(ll::test::count_label(ls, "tick", t), 2) << t << " in " << ls.dump();
        const float cell = in["cell"], num = in["number_px"], body = in["body_px"];
        ASSERT_GT(num, 0) << in.dump();
        EXPECT_GE(num, std::min(0.3f * cell, 2.5f * body) - 0.5f) << in.dump();
        EXPECT_GE(num, body - 0.01f) << in.dump();
    }
}

// The systolic panel, default scene (4x4 PEs, M 6, K 4, N 4) at cycle 0: the
// array names its PEs (c0..c3 over the columns, r0..r3 beside the rows; at
// the projector they were left out, its cells being smaller than the text)
// and the Cube beside it tags its fractals m0, k0, n0 (m0 was cut by the
// canvas's left edge on a slide, "B (ZN)" by its right), every label whole
// and apart. The projector's normal window gives the Cube a strip too short
// for k0 over its one A fractal: m0 and n0 there.
TEST(GuiSlides, SystolicPicturesAreLabelled) {
    const std::string dir = ll::test::make_temp_dir();
    for (const std::string& look : four_looks()) {
        SCOPED_TRACE(look);
        const json j = ll::test::dump_scene(dir, "systolic", json::object(), look);
        ASSERT_TRUE(j.is_object());
        const json& a = j["probe"]["screen"]["array"];
        const json& c = j["probe"]["screen"]["cube"];
        ASSERT_TRUE(a.is_object() && c.is_object()) << j["probe"].dump();
        for (const json* v : {&a, &c})
            ll::test::expect_unclipped_and_apart((*v)["labels"], (*v)["origin"][0],
                                                 (*v)["origin"][1], (*v)["size"][0],
                                                 (*v)["size"][1]);
        for (const char* t : {"c0", "c1", "c2", "c3", "r0", "r1", "r2", "r3"})
            EXPECT_EQ(ll::test::count_label(a["labels"], "tick", t), 1) << t << a["labels"].dump();
        const bool short_strip = look == kProjector;
        for (const char* t : {"m0", "k0", "n0"}) {
            if (short_strip && std::string(t) == "k0") continue;
            EXPECT_EQ(ll::test::count_label(c["labels"], "tick", t), 1) << t << c["labels"].dump();
        }
        EXPECT_EQ(ll::test::label_texts(c["labels"], "caption").size(), short_strip ? 2u : 3u)
            << c["labels"].dump();
    }
}

// The pipeline's timeline (default: the conv case study on a2): every unit's
// lane named, the cycle ruler with at least two ticks starting at 0, every
// label inside the timeline and apart from the others (lane names may not
// run into each other when the lanes are short, as at the projector).
TEST(GuiSlides, PipelineTimelineIsLabelled) {
    const std::string dir = ll::test::make_temp_dir();
    for (const std::string& look : four_looks()) {
        SCOPED_TRACE(look);
        const json j = ll::test::dump_scene(dir, "pipeline", json::object(), look);
        ASSERT_TRUE(j.is_object());
        const json& s = j["probe"]["screen"];
        ASSERT_TRUE(s.contains("labels") && s.contains("timeline")) << s.dump();
        const json& t = s["timeline"];
        ll::test::expect_unclipped_and_apart(s["labels"], t[0], t[1], float(t[2]) - float(t[0]),
                                             float(t[3]) - float(t[1]));
        for (const char* u : {"Scalar", "MTE2", "MTE1", "Cube", "Vector", "FixPipe", "MTE3"})
            EXPECT_EQ(ll::test::count_label(s["labels"], "axis", u), 1) << u << s["labels"].dump();
        const auto ticks = ll::test::label_texts(s["labels"], "tick");
        ASSERT_GE(ticks.size(), 2u) << s["labels"].dump();
        EXPECT_EQ(ticks[0], "0");
    }
}

// The GPU panel's Tensor Core tab: the 16x16 fractal map names its rows
// (every row, or every 2nd/4th where rows are shorter than the text: at the
// projector the 15 px rows drew all sixteen 24 px names over each other).
TEST(GuiSlides, TensorCoreMapRowNamesStayApart) {
    const std::string dir = ll::test::make_temp_dir();
    for (const std::string& look : {std::string("--size 1600x1000"), std::string(kProjector),
                                    std::string(kProjector) + " --present"}) {
        SCOPED_TRACE(look);
        const json j = ll::test::dump_scene(dir, "gpu", {{"tab", "tensorcore"}}, look);
        ASSERT_TRUE(j.is_object());
        const json& ls = j["probe"]["screen"]["tile_map"];
        ASSERT_GE(ls.size(), 4u) << j["probe"].dump();
        ll::test::expect_unclipped_and_apart(ls, 0, 0, j["window"][0], j["window"][1]);
        EXPECT_EQ(ll::test::count_label(ls, "tick", "r0"), 1) << ls.dump();
    }
}

// On the light theme at the projector (where white and yellow text vanished),
// every line of words these panels draw keeps 4.5:1 against the light window
// (240,240,240): the GPU and systolic checks' green was 1.8:1 and 2.7:1, the
// hints ImGui draws "disabled" 2.6:1. Lines of numbers alone are cell numbers,
// drawn on their cells in black or white by the renderer, and skipped.
TEST(GuiSlides, LightThemeTextKeepsItsContrast) {
    const std::string dir = ll::test::make_temp_dir();
    std::vector<std::string> runs;
    for (const char* id : kMine)
        for (const char* extra : {"", " --present"})
            runs.push_back(std::string("--panel ") + id + extra);
    for (const char* tab : {"tensorcore", "cudnn"}) {
        const std::string scene = dir + "/gpu-" + tab + ".json";
        ll::test::run_shell("printf '%s' " +
                            ll::test::shell_quote(json{{"panel", "gpu"}, {"tab", tab}}.dump()) +
                            " > " + ll::test::shell_quote(scene));
        runs.push_back("--scene " + scene);
    }
    for (const std::string& run : runs)
        ll::test::expect_legible_on_light(dir, run + " " + kProjector);
}

// Follow one element in the conv panel's feature map (issue 13): a pinned
// cell (scene key "select", a click in the window) is marked at every stage
// on the cell core's offsets put it, in the desk and the projector looks, and
// the ghost of its previous stage is named clear of the grid's labels.
TEST(GuiSlides, ConvPinnedElementIsMarkedWhereTheEngineSays) {
    const std::string dir = ll::test::make_temp_dir();
    ll::exec::ConvParams p;
    p.n = 1, p.cin = 3, p.cout = 4, p.h = p.w = 6;
    const ll::Plan plan = ll::exec::conv_a_plan(p);
    ASSERT_EQ(plan.stages.size(), 4u);
    // A cell of the input (not img2col's padding) at every stage, past the first rows.
    int64_t cell = -1;
    for (int64_t c = 20; c < plan.cell_count && cell < 0; ++c) {
        bool all = true;
        for (size_t k = 0; k < plan.stages.size(); ++k) all = all && plan.offset_of(k, c) >= 0;
        if (all) cell = c;
    }
    ASSERT_GE(cell, 0);
    for (const std::string& look : {std::string("--size 1600x1000"), std::string(kProjector)})
        for (int k = 0; k < 4; ++k) {
            SCOPED_TRACE(look + " stage " + std::to_string(k));
            const json scene = {{"n", 1}, {"cin", 3},   {"cout", 4},     {"h", 6},
                                {"w", 6}, {"stage", k}, {"select", cell}};
            const json j = ll::test::dump_scene(dir, "conv", scene, look);
            ASSERT_TRUE(j.is_object());
            EXPECT_EQ(j["select"], cell);  // saved with the scene
            const json& f = j["probe"]["screen"]["feature_map"];
            EXPECT_EQ(f["pinned"], cell);
            ASSERT_TRUE(f.contains("marker")) << f.dump();
            const float zoom = f["zoom"], ox = f["origin"][0], oy = f["origin"][1];
            const float ux = float(f["camera"][0]) + (float(f["marker"][0]) - ox) / zoom;
            const float uy = float(f["camera"][1]) + (float(f["marker"][1]) - oy) / zoom;
            EXPECT_EQ(ll::offset_at(plan.stages[size_t(k)].grid, ux, uy),
                      plan.offset_of(size_t(k), cell));
            // The ghost of the stage before is named where no grid label is (under
            // its outline's left end it covered the next block's tag, "n=0 c1=0 h=4").
            if (k > 0 && look == "--size 1600x1000") {
                ASSERT_TRUE(f.contains("ghost_label")) << f.dump();
            }
            if (f.contains("ghost_label")) {
                const json& g = f["ghost_label"];
                for (const json& l : f["labels"]) {
                    const float x = l["rect"][0], y = l["rect"][1];
                    const float x1 = x + float(l["rect"][2]), y1 = y + float(l["rect"][3]);
                    EXPECT_FALSE(float(g[0]) < x1 && x < float(g[2]) && float(g[1]) < y1 &&
                                 y < float(g[3]))
                        << "ghost label over " << l.dump();
                }
            }
        }
    // No pin, no marker.
    const json j = ll::test::dump_scene(dir, "conv", json::object(), "--size 1600x1000");
    ASSERT_TRUE(j.is_object());
    EXPECT_FALSE(j["probe"]["screen"]["feature_map"].contains("marker"));
}
