// The explorer window under Xvfb: headless screenshots, pixel checks against
// the engine's own placement and colours, real key presses through xdotool,
// and bad input. Every run is bounded by `timeout`.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "core/format/format.hpp"
#include "core/format/format_plan.hpp"
#include "tests/support/gui.hpp"
#include "tests/support/png.hpp"
#include "tests/support/process.hpp"

using namespace ll;
using ll::test::difference;
using ll::test::distinct_colours;
using ll::test::Image;
using ll::test::load_png;
using ll::test::run_shell;
using ll::test::shell_quote;

namespace {

// Runs layoutlab headless under its own Xvfb with the given arguments.
ll::test::RunResult app(const std::string& args) {
    return ll::test::run_app(args);
}

bool close(const std::array<uint8_t, 4>& px, const Rgba8& want, int tol) {
    for (int c = 0; c < 3; ++c)
        if (std::abs(int(px[size_t(c)]) - int(want[size_t(c)])) > tol) return false;
    return true;
}

}  // namespace

TEST(GuiExplorer, DefaultSceneDrawsAndStagesDiffer) {
    std::string dir = ll::test::make_temp_dir();
    auto r0 = app("--size 1280x800 --stage 0 --screenshot " + dir + "/s0.png");
    ASSERT_EQ(r0.code, 0) << r0.err;
    auto r1 = app("--size 1280x800 --stage last --screenshot " + dir + "/s1.png");
    ASSERT_EQ(r1.code, 0) << r1.err;
    Image a = load_png(dir + "/s0.png"), b = load_png(dir + "/s1.png");
    ASSERT_FALSE(a.empty());
    ASSERT_FALSE(b.empty());
    EXPECT_EQ(a.width, 1280);
    EXPECT_EQ(a.height, 800);
    EXPECT_GT(distinct_colours(a), 40);  // the colour map plus the UI, not a blank frame
    EXPECT_GT(distinct_colours(b), 40);
    EXPECT_GT(difference(a, b), 0.02);
    EXPECT_FALSE(ll::test::file_exists(dir + "/s0.png.tmp.png"));
}

// The cells the GPU drew sit where core's placement says, in core's colour:
// the renderer and the engine agree on every sampled element.
TEST(GuiExplorer, CellsAppearWhereTheEngineSays) {
    std::string dir = ll::test::make_temp_dir();
    for (const char* stage : {"0", "last"}) {
        std::string png = dir + "/nz.png", js = dir + "/nz.json";
        auto r =
            app("--from ND --to FRACTAL_NZ --shape 2,2,28 --dtype fp16 --size 1600x1000 "
                "--colour source-index --stage " +
                std::string(stage) + " --screenshot " + png + " --dump-view " + js);
        ASSERT_EQ(r.code, 0) << r.err;
        Image im = load_png(png);
        ASSERT_FALSE(im.empty());
        auto j = nlohmann::json::parse(ll::test::read_file(js));
        Pipeline pl = make_pipeline({Format::ND, Format::FRACTAL_NZ, {2, 2, 28}, DType::fp16});
        Plan plan = format_plan({pl});
        ASSERT_EQ(j["probe"]["stages"].get<int>(), int(plan.stages.size()));
        int checked = 0;
        for (int v = 0; v < 2; ++v) {
            const auto& s = j["probe"]["screen"][size_t(v)];
            float zoom = s["zoom"], px = s["pan_x"], py = s["pan_y"];
            float ox = s["origin"][0], oy = s["origin"][1];
            bool at_last = v == 1 && std::string(stage) == "last";
            size_t k = at_last ? plan.stages.size() - 1 : 0;
            ASSERT_GT(zoom, 4.f) << "cells too small to sample";
            std::vector<int64_t> off = plan.offsets(k);
            // A spread of data cells and padding cells.
            for (int64_t cell : {int64_t(0), int64_t(16), int64_t(27), int64_t(256), int64_t(300),
                                 int64_t(512 + 17), int64_t(1023), int64_t(40)}) {
                if (off[size_t(cell)] < 0) continue;
                Place q = cell_place(plan.stages[k].grid, off[size_t(cell)]);
                // Near the corner: the centre may carry the printed source index.
                int sx = int(std::lround(ox + (q.x + 0.22f - px) * zoom));
                int sy = int(std::lround(oy + (q.y + 0.22f - py) * zoom));
                ASSERT_TRUE(sx >= 0 && sy >= 0 && sx < im.width && sy < im.height);
                auto got = im.at(sx, sy);
                Rgba8 want = cell_colour(plan, ColourMode::source_index, cell, 256);
                if (want[3] == 0) {
                    // Padding: grey, never a colour-map colour.
                    EXPECT_LT(std::abs(int(got[0]) - int(got[2])), 30) << "padding cell " << cell;
                } else {
                    EXPECT_TRUE(close(got, want, 24))
                        << "stage " << stage << " view " << v << " cell " << cell << " at " << sx
                        << "," << sy << " got " << int(got[0]) << "," << int(got[1]) << ","
                        << int(got[2]) << " want " << int(want[0]) << "," << int(want[1]) << ","
                        << int(want[2]);
                }
                ++checked;
            }
        }
        EXPECT_GE(checked, 8);
    }
}

TEST(GuiExplorer, ShippedScenesAndPictureRender) {
    std::string dir = ll::test::make_temp_dir();
    std::string scenes = std::string(LAYOUTLAB_SOURCE_DIR) + "/assets/scenes/";
    for (const char* s : {"nd_to_nz_2x2x28.json", "nchw_to_nc1hwc0.json", "hwcn_to_fractal_z.json",
                          "rgb_picture.json"}) {
        auto r = app("--size 1024x700 --scene " + shell_quote(scenes + s) +
                     " --stage last --screenshot " + dir + "/scene.png");
        EXPECT_EQ(r.code, 0) << s << ": " << r.err;
        EXPECT_GT(distinct_colours(load_png(dir + "/scene.png")), 20) << s;
    }
    // The picture's real pixels: NCHW's red plane shows the smiley's yellow
    // face as bright red cells; somewhere there must be strong pure reds.
    auto r = app("--size 1280x800 --scene " + shell_quote(scenes + "rgb_picture.json") +
                 " --stage 0 --screenshot " + dir + "/pic.png");
    ASSERT_EQ(r.code, 0) << r.err;
    Image im = load_png(dir + "/pic.png");
    int red = 0, green = 0;
    for (size_t i = 0; i < im.rgba.size(); i += 4) {
        if (im.rgba[i] > 200 && im.rgba[i + 1] < 40 && im.rgba[i + 2] < 40) ++red;
        if (im.rgba[i + 1] > 170 && im.rgba[i] < 40 && im.rgba[i + 2] < 40) ++green;
    }
    EXPECT_GT(red, 2000);
    EXPECT_GT(green, 2000);
}

TEST(GuiExplorer, BadInputIsExit2WithMessage) {
    std::string dir = ll::test::make_temp_dir();
    std::string bad = dir + "/bad.json";
    run_shell("printf '{not json' > " + shell_quote(bad));
    for (std::string args : std::vector<std::string>{
             "--scene " + bad + " --screenshot " + dir + "/x.png",
             "--scene " + dir + "/missing.json --screenshot " + dir + "/x.png",
             "--screenshot /nonexistent-dir/x.png", "--shape 0,3 --screenshot " + dir + "/x.png",
             "--stage 99 --screenshot " + dir + "/x.png",
             "--from NCHW --to FRACTAL_NZ --shape 1,2,3,4 --screenshot " + dir + "/x.png"}) {
        auto r = app(args);
        EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
        EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << args << "\n" << r.err;
        EXPECT_FALSE(ll::test::file_exists(dir + "/x.png")) << args;
    }
}

// Real key presses: the window is started visible, xdotool types, and the app
// writes a screenshot each time it receives SIGUSR1.
TEST(GuiExplorer, KeysDriveTheAnimation) {
    std::string dir = ll::test::make_temp_dir();
    auto d = ll::test::drive_app(dir, "--size 1280x800", R"SH(
xdotool mousemove --window "$wid" 5 400
sleep 0.5
shoot 0
xdotool key End; sleep 0.6; shoot 1
xdotool key Home; sleep 0.6; shoot 2
xdotool key Right; sleep 1.5; shoot 3
xdotool key space; sleep 0.6; shoot 4
)SH",
                                 5);
    ASSERT_EQ(d.run.code, 0) << d.run.err << d.run.out;
    const Image &s0 = d.shots[0], &s1 = d.shots[1], &s2 = d.shots[2], &s3 = d.shots[3],
                &s4 = d.shots[4];
    ASSERT_FALSE(s0.empty() || s1.empty() || s2.empty() || s3.empty() || s4.empty()) << d.run.err;
    EXPECT_GT(distinct_colours(s0), 40);
    EXPECT_GT(difference(s0, s1), 0.02) << "End did not move to the last stage";
    EXPECT_LT(difference(s0, s2), 0.002) << "Home did not come back to stage 0";
    EXPECT_GT(difference(s2, s3), 0.002) << "Right did not step";
    EXPECT_GT(difference(s3, s4), 0.002) << "space did not start playing";
}

// A lesson can open with an element inspected ("select"): the inspector
// names it as the documents would, (2,2,28) fp16 -> NZ element 19 is source
// (0,1,3) at fractal 0 row 1 column 3, byte 38; it is drawn highlighted
// (white) in the logical view at the engine's place; saving keeps it; an
// index past the last cell is a usage error.
TEST(GuiExplorer, SelectedCellIsInspectedAndHighlighted) {
    std::string dir = ll::test::make_temp_dir();
    std::string scene = dir + "/sel.json";
    run_shell("printf '%s' " +
              shell_quote(R"({"from":"ND","to":"FRACTAL_NZ","shape":"2,2,28","dtype":"fp16",)"
                          R"("stage":"last","select":19})") +
              " > " + shell_quote(scene));
    auto r = app("--size 1280x800 --scene " + scene + " --screenshot " + dir +
                 "/s.png --dump-view " + dir + "/s.json");
    ASSERT_EQ(r.code, 0) << r.err;
    auto j = nlohmann::json::parse(ll::test::read_file(dir + "/s.json"));
    EXPECT_EQ(j["select"], 19);
    std::vector<std::string> want = {"logical index (0,1,3)  (source #31)",
                                     "destination index (0,0,0,1,3)", "element offset 19",
                                     "byte address 0x26 (38)", "fractal 0, row 1, column 3"};
    EXPECT_EQ(j["probe"]["inspect"].get<std::vector<std::string>>(), want);
    // The logical view (stage 0) draws source (0,1,3) white.
    Image im = load_png(dir + "/s.png");
    ASSERT_FALSE(im.empty());
    const auto& v = j["probe"]["screen"][0];
    Place p = cell_place(tensor_grid({2, 2, 28}), 31);
    float zoom = v["zoom"], ox = v["origin"][0], oy = v["origin"][1];
    int sx = int(ox + (p.x - v["pan_x"].get<float>() + 0.5f) * zoom);
    int sy = int(oy + (p.y - v["pan_y"].get<float>() + 0.5f) * zoom);
    auto px = im.at(sx, sy);
    EXPECT_GT(std::min({px[0], px[1], px[2]}), 230) << "not highlighted at " << sx << "," << sy;
    // Past the last cell (1024 cells): exit 2 with a message, no picture.
    run_shell("sed -i 's/\"select\":19/\"select\":1024/' " + shell_quote(scene));
    auto bad = app("--scene " + scene + " --screenshot " + dir + "/bad.png");
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("error: explorer scene: select = 1024; expected a cell index in "
                           "-1..1023"),
              std::string::npos)
        << bad.err;
    EXPECT_FALSE(ll::test::file_exists(dir + "/bad.png"));
}
