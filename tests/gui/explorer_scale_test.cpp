// The explorer at scale and in the classroom settings: a 4096 x 4096 tensor
// (16M cells) renders with the block level of detail, a picture's NC1HWC0
// stage fills the window instead of a thin column, and the light theme at
// UI scale 1.5 is light. Pixel and layout checks only; speed is reported by
// --bench-frames, never asserted.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/format/format.hpp"
#include "core/format/format_plan.hpp"
#include "tests/support/gui.hpp"
#include "tests/support/png.hpp"
#include "tests/support/process.hpp"

using namespace ll;
using ll::test::distinct_colours;
using ll::test::Image;
using ll::test::load_png;

namespace {

// Like run_app, with a longer bound: building 16M cells takes seconds, more
// on a loaded machine.
// `env`: variable assignments put before the command, e.g. "LAYOUTLAB_NO_CULL=1".
ll::test::RunResult slow_app(const std::string& args, int seconds, const std::string& env = "") {
    return ll::test::run_shell(env + " " + ll::test::xvfb(seconds) + ll::test::app_exe() +
                               " --no-config " + args);
}

// Writes an ND -> FRACTAL_NZ fp16 scene of `shape` at `stage` (JSON value)
// with both cameras at `zoom` (panned into the tensor) and `extra` keys.
std::string zoomed_scene(const std::string& dir, const std::string& shape, const std::string& stage,
                         int zoom, const std::string& extra = "") {
    std::string path = dir + "/zoomed.json", z = std::to_string(zoom);
    std::string text = R"({"from":"ND","to":"FRACTAL_NZ","shape":")" + shape +
                       R"(","dtype":"fp16","stage":)" + stage + extra + R"(,"cameras":[{"zoom":)" +
                       z + R"(,"pan_x":100,"pan_y":200},{"zoom":)" + z +
                       R"(,"pan_x":50,"pan_y":300}]})";
    ll::test::run_shell("printf '%s' " + ll::test::shell_quote(text) + " > " +
                        ll::test::shell_quote(path));
    return path;
}

// Fraction of pixels inside rectangle [x0,x1) x [y0,y1) that are not the
// canvas background (dark or light theme backgrounds are grey).
double coloured_fraction(const Image& im, int x0, int y0, int x1, int y1) {
    int n = 0, hit = 0;
    for (int y = std::max(0, y0); y < std::min(im.height, y1); y += 3)
        for (int x = std::max(0, x0); x < std::min(im.width, x1); x += 3) {
            auto p = im.at(x, y);
            int mx = std::max({p[0], p[1], p[2]}), mn = std::min({p[0], p[1], p[2]});
            ++n;
            if (mx - mn > 40) ++hit;
        }
    return n ? double(hit) / n : 0.0;
}

}  // namespace

TEST(GuiExplorerScale, Tensor4096DrawsBlocksAndFillsTheViews) {
    std::string dir = ll::test::make_temp_dir();
    for (const char* stage : {"0", "last"}) {
        auto r = slow_app(
            "--from ND --to FRACTAL_NZ --shape 4096,4096 --dtype fp16 --size 1280x800 "
            "--stage " +
                std::string(stage) + " --screenshot " + dir + "/big.png --dump-view " + dir +
                "/big.json",
            300);
        ASSERT_EQ(r.code, 0) << r.err;
        auto j = nlohmann::json::parse(ll::test::read_file(dir + "/big.json"));
        EXPECT_EQ(j["probe"]["cells"].get<int64_t>(), int64_t(4096) * 4096);
        EXPECT_GT(j["probe"]["block_size"].get<int64_t>(),
                  256);  // blocks capped in number, not size
        Image im = load_png(dir + "/big.png");
        ASSERT_FALSE(im.empty());
        for (int v = 0; v < 2; ++v) {
            const auto& s = j["probe"]["screen"][size_t(v)];
            EXPECT_TRUE(s["lod"].get<bool>()) << "view " << v << " zoomed out draws blocks";
            // The blocks paint most of the tensor's footprint in colour-map colours.
            float zoom = s["zoom"], px = s["pan_x"], py = s["pan_y"];
            float ox = s["origin"][0], oy = s["origin"][1];
            bool memory = v == 1 && std::string(stage) == "last";
            Extent e = grid_extent(memory ? memory_grid(int64_t(4096) * 4096, DType::fp16)
                                          : tensor_grid({4096, 4096}));
            int x0 = int(ox - px * zoom), y0 = int(oy - py * zoom);
            int x1 = int(ox + (e.w - px) * zoom), y1 = int(oy + (e.h - py) * zoom);
            EXPECT_GT(coloured_fraction(im, x0 + 2, y0 + 2, x1 - 2, y1 - 2), 0.8)
                << "stage " << stage << " view " << v;
        }
    }
}

// NCHW (1,3,32,32) -> NC1HWC0: the (1,1,32,32,16) tensor drawn the classic
// way is 16 cells wide and over 1000 tall; the fitted grid wraps its 32 rows
// of blocks so the cells stay big enough to see.
TEST(GuiExplorerScale, TallFiveHdStagesUseTheWindow) {
    std::string dir = ll::test::make_temp_dir();
    Pipeline pl = make_pipeline({Format::NCHW, Format::NC1HWC0, {1, 3, 32, 32}, DType::fp16});
    Plan plan = format_plan({pl});
    size_t k = plan.stages.size() - 2;  // the last tensor stage, before memory
    ASSERT_EQ(plan.stages[k].shape.size(), 5u);
    auto r = ll::test::run_app(
        "--from NCHW --to NC1HWC0 --shape 1,3,32,32 --dtype fp16 --size "
        "1280x800 --stage " +
        std::to_string(k) + " --screenshot " + dir + "/hd.png --dump-view " + dir + "/hd.json");
    ASSERT_EQ(r.code, 0) << r.err;
    auto j = nlohmann::json::parse(ll::test::read_file(dir + "/hd.json"));
    float zoom = j["probe"]["screen"][1]["zoom"];
    EXPECT_GT(zoom, 2.5f) << "cells of the 5HD stage are specks";
    Extent e = grid_extent(plan.stages[k].grid);
    EXPECT_GT(e.w / e.h, 0.3f);
    // The cells land where the engine's (wrapped) grid says.
    Image im = load_png(dir + "/hd.png");
    ASSERT_FALSE(im.empty());
    const auto& s = j["probe"]["screen"][1];
    float px = s["pan_x"], py = s["pan_y"], ox = s["origin"][0], oy = s["origin"][1];
    std::vector<int64_t> off = plan.offsets(k);
    int checked = 0;
    for (int64_t cell :
         {int64_t(0), int64_t(16 * 300 + 1), int64_t(16 * 600 + 2), int64_t(16 * 1000)}) {
        if (off[size_t(cell)] < 0) continue;
        Place q = cell_place(plan.stages[k].grid, off[size_t(cell)]);
        int sx = int(ox + (q.x + 0.5f - px) * zoom), sy = int(oy + (q.y + 0.5f - py) * zoom);
        ASSERT_TRUE(sx >= 0 && sy >= 0 && sx < im.width && sy < im.height) << cell;
        Rgba8 want = cell_colour(plan, ColourMode::source_index, cell, 256);
        auto got = im.at(sx, sy);
        if (want[3] == 0) continue;
        for (int c = 0; c < 3; ++c)
            EXPECT_NEAR(int(got[size_t(c)]), int(want[size_t(c)]), 30) << "cell " << cell;
        ++checked;
    }
    EXPECT_GE(checked, 2);
}

TEST(GuiExplorerScale, LightThemeAtUiScale) {
    std::string dir = ll::test::make_temp_dir();
    auto r = ll::test::run_app(
        "--theme light --ui-scale 1.5 --size 1280x800 --stage last "
        "--screenshot " +
        dir + "/light.png");
    ASSERT_EQ(r.code, 0) << r.err;
    Image im = load_png(dir + "/light.png");
    ASSERT_FALSE(im.empty());
    EXPECT_GT(distinct_colours(im), 40);
    // Mostly light: the window background, panels and canvases.
    int light = 0, n = 0;
    for (int y = 0; y < im.height; y += 7)
        for (int x = 0; x < im.width; x += 7) {
            auto p = im.at(x, y);
            ++n;
            if (p[0] + p[1] + p[2] > 3 * 200) ++light;
        }
    EXPECT_GT(double(light) / n, 0.4);
    // And not the dark theme's rendering of the same scene.
    auto d = ll::test::run_app(
        "--theme dark --ui-scale 1.5 --size 1280x800 --stage last "
        "--screenshot " +
        dir + "/dark.png");
    ASSERT_EQ(d.code, 0) << d.err;
    EXPECT_GT(ll::test::difference(im, load_png(dir + "/dark.png")), 0.3);
}

// A saved lesson zoomed in on the 16M-cell tensor: the scene's cameras are
// kept (not re-framed), single cells are drawn (no LOD; only the visible
// blocks of cells are drawn) and they sit where the engine says.
TEST(GuiExplorerScale, ZoomedInSceneOfLargeTensorKeepsCameraAndDrawsCells) {
    std::string dir = ll::test::make_temp_dir();
    std::string scene = dir + "/zoom.json";
    ll::test::run_shell(
        "printf '%s' " +
        ll::test::shell_quote(
            R"({"from":"ND","to":"FRACTAL_NZ","shape":"4096,4096","dtype":"fp16",)"
            R"("stage":"last","colour":"source-index","cameras":[)"
            R"({"zoom":12,"pan_x":100,"pan_y":200},{"zoom":12,"pan_x":0,"pan_y":0}]})") +
        " > " + ll::test::shell_quote(scene));
    auto r = slow_app("--size 1280x800 --scene " + scene + " --screenshot " + dir +
                          "/z.png --dump-view " + dir + "/z.json",
                      300);
    ASSERT_EQ(r.code, 0) << r.err;
    auto j = nlohmann::json::parse(ll::test::read_file(dir + "/z.json"));
    Image im = load_png(dir + "/z.png");
    ASSERT_FALSE(im.empty());
    Grid src = tensor_grid({4096, 4096});
    Grid mem = memory_grid(int64_t(4096) * 4096, DType::fp16);
    Pipeline pl = make_pipeline({Format::ND, Format::FRACTAL_NZ, {4096, 4096}, DType::fp16});
    Plan plan;  // colours only need the source shape and the cell's source index
    plan.src_shape = {4096, 4096};
    ElementMap m = element_map(pl);
    plan.src = m;
    plan.cell_count = int64_t(m.size());
    for (int v = 0; v < 2; ++v) {
        const auto& s = j["probe"]["screen"][size_t(v)];
        EXPECT_FLOAT_EQ(s["zoom"].get<float>(), 12.f) << "view " << v << " re-framed";
        EXPECT_FALSE(s["lod"].get<bool>());
        float zoom = s["zoom"], px = s["pan_x"], py = s["pan_y"];
        float ox = s["origin"][0], oy = s["origin"][1];
        // Cells a few rows and columns into the view.
        for (int64_t dy : {3, 17}) {
            for (int64_t dx : {2, 9}) {
                float cx = px + float(dx), cy = py + float(dy);
                int64_t cell = -1;
                if (v == 0) {
                    int64_t o = offset_at(src, cx, cy);
                    for (size_t i = 0; i < m.size() && cell < 0; ++i)
                        if (m[i] == o) cell = int64_t(i);
                } else {
                    cell = offset_at(mem, cx, cy);  // the memory stage: cell == offset
                }
                ASSERT_GE(cell, 0);
                int sx = int(ox + (float(dx) + 0.5f) * zoom),
                    sy = int(oy + (float(dy) + 0.5f) * zoom);
                Rgba8 want = cell_colour(plan, ColourMode::source_index, cell, 256);
                auto got = im.at(sx, sy);
                for (int c = 0; c < 3; ++c)
                    EXPECT_NEAR(int(got[size_t(c)]), int(want[size_t(c)]), 30)
                        << "view " << v << " cell " << cell;
            }
        }
    }
}

// Zoomed in on a plan drawn in blocks, the renderer draws only the blocks
// whose cells can reach the canvas. Mid-glide a cell is between its two
// places, so a block that starts and ends off-screen may cross the view: the
// culled picture must equal the full draw (LAYOUTLAB_NO_CULL) at every t.
// 512 x 512 keeps every stage's places in memory; 2048 x 2000 (padded) is
// prepared stage by stage.
TEST(GuiExplorerScale, CulledGlideEqualsTheFullDraw) {
    std::string dir = ll::test::make_temp_dir();
    struct Case {
        const char* shape;
        const char* stage;
        int zoom;
    };
    for (Case c :
         {Case{"512,512", "2.5", 4}, Case{"512,512", "3.4", 8}, Case{"2048,2000", "2.3", 3}}) {
        std::string args = "--size 1280x800 --scene " +
                           zoomed_scene(dir, c.shape, c.stage, c.zoom) + " --screenshot ";
        auto culled = slow_app(args + dir + "/culled.png", 120);
        ASSERT_EQ(culled.code, 0) << culled.err;
        auto full = slow_app(args + dir + "/full.png", 120, "LAYOUTLAB_NO_CULL=1");
        ASSERT_EQ(full.code, 0) << full.err;
        Image a = load_png(dir + "/culled.png"), b = load_png(dir + "/full.png");
        ASSERT_FALSE(a.empty());
        EXPECT_GT(distinct_colours(a), 20) << c.shape << " at " << c.stage;
        EXPECT_EQ(ll::test::difference(a, b), 0.0) << c.shape << " at " << c.stage;
    }
}

// At rest on a large plan with cells of a few pixels, each view draws its
// stage as one texture instead of a quad per cell. At whole-pixel zooms the
// picture is the quads' picture pixel for pixel (LAYOUTLAB_NO_PICTURE draws
// the quads), padding, gaps and the inspected cell included.
TEST(GuiExplorerScale, RestingStageAsOneTextureEqualsTheQuads) {
    std::string dir = ll::test::make_temp_dir();
    for (const char* stage : {"0", "last"}) {
        for (int zoom : {2, 6}) {
            std::string args = "--size 1280x800 --scene " +
                               zoomed_scene(dir, "2048,2000", std::string("\"") + stage + "\"",
                                            zoom, R"(,"select":70000)") +
                               " --screenshot ";
            auto pic = slow_app(args + dir + "/pic.png --dump-view " + dir + "/pic.json", 120);
            ASSERT_EQ(pic.code, 0) << pic.err;
            auto j = nlohmann::json::parse(ll::test::read_file(dir + "/pic.json"));
            EXPECT_TRUE(j["probe"]["screen"][0]["picture"].get<bool>())
                << "the texture path was not taken";
            EXPECT_TRUE(j["probe"]["screen"][1]["picture"].get<bool>());
            auto quads = slow_app(args + dir + "/quads.png", 120, "LAYOUTLAB_NO_PICTURE=1");
            ASSERT_EQ(quads.code, 0) << quads.err;
            Image a = load_png(dir + "/pic.png"), b = load_png(dir + "/quads.png");
            ASSERT_FALSE(a.empty());
            EXPECT_GT(distinct_colours(a), 20);
            EXPECT_EQ(ll::test::difference(a, b), 0.0) << "stage " << stage << " zoom " << zoom;
        }
    }
}
