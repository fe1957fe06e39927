// The Pipeline panel under Xvfb: the conv case study drawn with the same
// total as the CLI, the cursor scrubbing the buffers, exports and the trace
// from a scene, bad scenes as usage errors, and a click on a Cube bar
// opening the Cube panel.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/cli.hpp"
#include "tests/support/gui.hpp"
#include "tests/support/png.hpp"
#include "tests/support/process.hpp"

using ll::test::Image;
using nlohmann::json;

namespace {

struct Shot {
    Image im;
    json view;
    int code = -1;
    std::string err;
};

std::string write_scene(const std::string& dir, const std::string& name, json settings) {
    settings["panel"] = "pipeline";
    const std::string js = dir + "/" + name + ".json";
    ll::test::run_shell("cat > " + ll::test::shell_quote(js) + " <<'EOF_JSON'\n" + settings.dump() +
                        "\nEOF_JSON\n");
    return js;
}

Shot shot(const std::string& dir, const std::string& name, json settings) {
    const std::string js = write_scene(dir, name, settings);
    const std::string png = dir + "/" + name + ".png", dump = dir + "/" + name + ".view.json";
    const auto r = ll::test::run_app("--size 1400x900 --scene " + ll::test::shell_quote(js) +
                                     " --screenshot " + ll::test::shell_quote(png) +
                                     " --dump-view " + ll::test::shell_quote(dump));
    Shot s;
    s.code = r.code;
    s.err = r.err;
    if (r.code == 0) {
        s.im = ll::test::load_png(png);
        s.view = json::parse(ll::test::read_file(dump));
    }
    return s;
}

// Fraction of pixels that differ inside the rectangle [x0, y0, x1, y1].
double differ_in(const Image& a, const Image& b, const json& r) {
    int n = 0, d = 0;
    for (int y = int(r[1]); y < int(r[3]); y += 2)
        for (int x = int(r[0]); x < int(r[2]); x += 2) {
            ++n;
            d += a.at(x, y) != b.at(x, y);
        }
    return n ? double(d) / n : 0;
}

}  // namespace

TEST(PipelinePanel, ConvCaseStudyMatchesTheCli) {
    const std::string dir = ll::test::make_temp_dir();
    const Shot s = shot(dir, "conv", json::object());
    ASSERT_EQ(s.code, 0) << s.err;
    const json cli = ll::test::command_json("pipeline", {"--conv"});
    EXPECT_EQ(s.view["probe"]["total_cycles"], cli["total_cycles"]);
    EXPECT_EQ(s.view["probe"]["bound"], cli["bound"]);
    EXPECT_EQ(s.view["base_m"], cli["tiling"]["base_m"]);
    EXPECT_GT(ll::test::distinct_colours(s.im), 30);
    for (const char* k : {"lanes", "buffers", "cube_bar"})
        EXPECT_TRUE(s.view["probe"]["screen"].contains(k)) << k;
}

TEST(PipelinePanel, CursorScrubsTheBuffers) {
    const std::string dir = ll::test::make_temp_dir();
    const Shot a = shot(dir, "c0", {{"cursor", 0}});
    ASSERT_EQ(a.code, 0) << a.err;
    const int64_t total = a.view["probe"]["total_cycles"];
    const Shot b = shot(dir, "c1", {{"cursor", total / 2}});
    ASSERT_EQ(b.code, 0) << b.err;
    // At cycle 0 nothing is live; half way the slots hold tiles.
    EXPECT_GT(differ_in(a.im, b.im, a.view["probe"]["screen"]["buffers"]), 0.05);
}

TEST(PipelinePanel, ExportsFromAScene) {
    const std::string dir = ll::test::make_temp_dir();
    const Shot s = shot(dir, "gemm",
                        {{"conv", false},
                         {"m", 256},
                         {"k", 256},
                         {"n", 256},
                         {"base_m", 64},
                         {"base_n", 64},
                         {"base_k", 64},
                         {"double_buffer", false},
                         {"tab", "sweep"},
                         {"export", dir + "/out"}});
    ASSERT_EQ(s.code, 0) << s.err;
    EXPECT_FALSE(s.view["double_buffer"].get<bool>());
    for (const char* ext : {".png", ".svg", ".csv", ".trace.json"})
        EXPECT_TRUE(ll::test::file_exists(dir + "/out" + ext)) << ext;
    const json t = json::parse(ll::test::read_file(dir + "/out.trace.json"));
    EXPECT_GT(t["traceEvents"].size(), 50u);
    const json cli =
        ll::test::command_json("pipeline", {"--m",
                                            "256",
                                            "--k",
                                            "256",
                                            "--n",
                                            "256",
                                            "--base-m",
                                            "64",
                                            "--base-n",
                                            "64",
                                            "--base-k",
                                            "64",
                                            "--double-buffer",
                                            "off",
                                            "--step-ka",
                                            std::to_string(s.view["step_ka"].get<int64_t>()),
                                            "--step-kb",
                                            std::to_string(s.view["step_kb"].get<int64_t>()),
                                            "--order",
                                            s.view["order"].get<std::string>()});
    EXPECT_EQ(s.view["probe"]["total_cycles"], cli["total_cycles"]);
}

TEST(PipelinePanel, BadScenesAreUsageErrors) {
    const std::string dir = ll::test::make_temp_dir();
    const json bad[] = {{{"base_m", 24}},    {{"product", "h100"}}, {{"order", "k"}},
                        {{"dtype", "fp64"}}, {{"cursor", -5}},      {{"colour", 1}}};
    int i = 0;
    for (const json& b : bad) {
        const std::string js = write_scene(dir, "bad" + std::to_string(i++), b);
        const auto r = ll::test::run_app("--size 800x600 --scene " + ll::test::shell_quote(js) +
                                         " --screenshot " + ll::test::shell_quote(dir + "/x.png"));
        EXPECT_EQ(r.code, 2) << b.dump() << r.err;
        EXPECT_NE(r.err.find("error: "), std::string::npos) << b.dump() << r.err;
    }
}

TEST(PipelinePanel, ClickingACubeBarOpensTheCubePanel) {
    const std::string dir = ll::test::make_temp_dir();
    const Shot s = shot(dir, "where", json::object());
    ASSERT_EQ(s.code, 0) << s.err;
    const json r = s.view["probe"]["screen"]["cube_bar"];
    const int cx = (int(r[0]) + int(r[2])) / 2, cy = (int(r[1]) + int(r[3])) / 2;
    const std::string scene = write_scene(dir, "click", json::object());
    auto d = ll::test::drive_app(dir, "--size 1400x900 --scene " + scene,
                                 "xdotool mousemove --window \"$wid\" 700 880; sleep 0.3\n"
                                 "shoot 0\n"
                                 "xdotool mousemove --window \"$wid\" " +
                                     std::to_string(cx) + " " + std::to_string(cy) +
                                     " click 1; sleep 0.3\n"
                                     "xdotool mousemove --window \"$wid\" 700 880; sleep 0.8\n"
                                     "shoot 1\n",
                                 2);
    ASSERT_EQ(d.run.code, 0) << d.run.err << d.run.out;
    ASSERT_FALSE(d.shots[0].empty() || d.shots[1].empty());
    // A new window (the Cube panel, 720 x 520 at the UI scale) covers part of the view.
    EXPECT_GT(ll::test::difference(d.shots[0], d.shots[1]), 0.05);
}
