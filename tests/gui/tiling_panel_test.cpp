// The tiling panel (`--panel tiling`): every tab renders at a prepared state
// from a scene file, the traversal differs between orders, the panel's
// headless export writes the plot the tab shows in PNG/SVG/CSV, and bad
// scenes are usage errors (exit 2, no screenshot).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "tests/support/gui.hpp"
#include "tests/support/xml_check.hpp"

using ll::test::difference;
using ll::test::distinct_colours;
using ll::test::Image;
using ll::test::panel_screenshot;
using ll::test::run_app;

namespace {

// The document's first row, animation stopped at a fixed step.
std::string scene(const std::string& extra) {
    return R"({"shape": [1, 64, 56, 56], "layout": "NCHW", "dtype": "fp32",
 "l1_tile": [16, 14, 14], "l2_tile": [4, 7, 7], "playing": false, "step": 150)" +
           (extra.empty() ? std::string() : ", " + extra) + "}";
}

Image shot(const std::string& dir, const std::string& name, const std::string& settings) {
    std::string err;
    Image im = panel_screenshot(dir, "tiling", settings, name, "1400x900", &err);
    EXPECT_FALSE(im.empty()) << name << ": " << err;
    return im;
}

int lines_of(const std::string& text) {
    std::istringstream in(text);
    std::string line;
    int n = 0;
    while (std::getline(in, line)) n += !line.empty();
    return n;
}

}  // namespace

TEST(GuiTilingPanel, EveryTabRenders) {
    const std::string dir = ll::test::make_temp_dir();
    std::vector<Image> tabs;
    for (const char* tab : {"traversal", "levels", "heatmap", "tilesize", "sweep"}) {
        const std::string extra = std::string("\"tab\": \"") + tab + "\"" +
                                  (std::string(tab) == "sweep" ? ", \"sweep\": true" : "");
        Image im = shot(dir, tab, scene(extra));
        ASSERT_FALSE(im.empty()) << tab;
        EXPECT_EQ(im.width, 1400);
        EXPECT_GT(distinct_colours(im), 20) << tab << " looks blank";
        // Each tab shows its own picture.
        for (const Image& other : tabs) EXPECT_GT(difference(other, im), 0.03) << tab;
        tabs.push_back(im);
    }
}

TEST(GuiTilingPanel, TwoOrdersGiveDifferentPictures) {
    const std::string dir = ll::test::make_temp_dir();
    const Image matched = shot(dir, "w", scene(R"("l1_order": "W_H_C", "l2_order": "W_H_C")"));
    const Image crossed = shot(dir, "c", scene(R"("l1_order": "C_W_H", "l2_order": "C_W_H")"));
    const Image again = shot(dir, "w2", scene(R"("l1_order": "W_H_C", "l2_order": "W_H_C")"));
    ASSERT_FALSE(matched.empty());
    ASSERT_FALSE(crossed.empty());
    EXPECT_GT(difference(matched, crossed), 0.005);
    EXPECT_LT(difference(matched, again), 0.001);  // same scene, same picture
}

TEST(GuiTilingPanel, ExportWritesThePlotInThreeFormats) {
    const std::string dir = ll::test::make_temp_dir();
    const std::string base = dir + "/heat";
    const Image im =
        shot(dir, "export",
             scene(R"("layout": "NHWC", "tab": "heatmap", "export_plot": "heatmap", "export": ")" +
                   base + "\""));
    ASSERT_FALSE(im.empty());
    // CSV: the 36 order pairs behind the heatmap, with the NHWC row-4 value.
    const std::string csv = ll::test::read_file(base + ".csv");
    EXPECT_EQ(csv.rfind("row,column,total time (us)\n", 0), 0u) << csv;
    EXPECT_EQ(lines_of(csv), 1 + 36);
    EXPECT_NE(csv.find("W_H_C,W_H_C,154.1"), std::string::npos) << csv;
    EXPECT_NE(csv.find("C_W_H,C_W_H,16.0"), std::string::npos) << csv;
    // SVG: well-formed, real text labels.
    const std::string svg = ll::test::read_file(base + ".svg");
    EXPECT_EQ(ll::test::xml_problem(svg), "");
    EXPECT_NE(svg.find(">L1 tile order</text>"), std::string::npos);
    EXPECT_NE(svg.find("NHWC"), std::string::npos);
    // PNG: the exporter's size, not blank.
    const Image png = ll::test::load_png(base + ".png");
    ASSERT_FALSE(png.empty());
    EXPECT_EQ(png.width, 900);
    EXPECT_EQ(png.height, 560);
    EXPECT_GT(distinct_colours(png), 20);
}

TEST(GuiTilingPanel, SweepExportNeedsNoClick) {
    const std::string dir = ll::test::make_temp_dir();
    const std::string base = dir + "/sweep";
    const Image im = shot(dir, "sweep",
                          scene(R"("tab": "sweep", "sweep": true, "export_plot": "sweep",
 "setup_ns": [50, 5], "export": ")" +
                                base + "\""));
    ASSERT_FALSE(im.empty());
    const std::string csv = ll::test::read_file(base + ".csv");
    EXPECT_EQ(csv.rfind("series,on-chip footprint (tile + sub-tile) (bytes),total time (us)\n", 0),
              0u)
        << csv.substr(0, 200);
    EXPECT_NE(csv.find("Pareto front"), std::string::npos);
    EXPECT_EQ(ll::test::xml_problem(ll::test::read_file(base + ".svg")), "");
}

TEST(GuiTilingPanel, SettingsRoundTripEveryKey) {
    // Every key the panel saves is accepted back.
    const std::string dir = ll::test::make_temp_dir();
    const Image im = shot(dir, "all", R"({"shape": [2, 32, 28, 28], "layout": "NC1HWC0",
 "dtype": "fp16", "l1_tile": [16, 7, 14], "l2_tile": [16, 7, 7], "l1_order": "C_W_H",
 "l2_order": "H_W_C", "l2_passes": 2, "stride_basis": "destination", "access_bytes": [32, 8],
 "bandwidth": [200, 800, 4000], "setup_ns": [10, 1], "speed": 12, "step": 3, "playing": false,
 "tab": "tilesize", "tilesize_dim": "H", "sweep": false, "export_plot": "time"})");
    EXPECT_FALSE(im.empty());
}

TEST(GuiTilingPanel, BadScenesAreExit2) {
    const std::string dir = ll::test::make_temp_dir();
    const struct {
        const char* json;
        const char* mention;
    } cases[] = {
        {R"({"colour": 3})", "colour"},
        {R"({"layout": "NDHWC"})", "layout"},
        {R"({"l1_order": "X_H_C"})", "l1_order"},
        {R"({"l1_tile": [128, 14, 14]})", "l1_tile"},
        {R"({"l1_tile": [16, 14]})", "l1_tile"},
        {R"({"l2_tile": [32, 7, 7]})", "l2_tile"},
        {R"({"bandwidth": [0, 500, 2000]})", "bandwidth"},
        {R"({"access_bytes": [-1, 16]})", "access_bytes"},
        {R"({"tab": "pie"})", "tab"},
        {R"({"playing": 1})", "playing"},
        {R"({"step": 999999})", "step"},
        {R"({"export": "/nonexistent-dir/x"})", "cannot write"},
    };
    int k = 0;
    for (const auto& c : cases) {
        const std::string js = dir + "/bad" + std::to_string(k) + ".json";
        const std::string png = dir + "/bad" + std::to_string(k++) + ".png";
        ll::test::run_shell("cat > " + ll::test::shell_quote(js) + " <<'EOF_JSON'\n" + c.json +
                            "\nEOF_JSON\n");
        const auto r =
            run_app("--panel tiling --size 800x600 --scene " + js + " --screenshot " + png);
        EXPECT_EQ(r.code, 2) << c.json << "\n" << r.err;
        EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << c.json << "\n" << r.err;
        EXPECT_NE(r.err.find(c.mention), std::string::npos) << c.json << "\n" << r.err;
        EXPECT_FALSE(ll::test::file_exists(png)) << c.json;
    }
}

// Hovering a heatmap cell shows its tooltip (L1 order, L2 order, time): the
// window is started visible, xdotool moves the mouse, and the app writes a
// screenshot on SIGUSR1. Away from the plot the picture stays as it was.
TEST(GuiTilingPanel, HoverShowsATooltip) {
    const std::string dir = ll::test::make_temp_dir();
    const std::string scene_file = dir + "/hover.json";
    ll::test::run_shell(
        "echo '{\"panel\": \"tiling\", \"tab\": \"heatmap\", \"playing\": false}' > " +
        ll::test::shell_quote(scene_file));
    const auto d = ll::test::drive_app(dir, "--size 1400x900 --scene " + scene_file, R"SH(
xdotool mousemove --window "$wid" 1000 800; sleep 0.6; shoot 0
xdotool mousemove --window "$wid" 497 170; sleep 0.3
xdotool mousemove --window "$wid" 499 172; sleep 0.8; shoot 1
xdotool mousemove --window "$wid" 1000 800; sleep 0.8; shoot 2
)SH",
                                       3);
    ASSERT_EQ(d.run.code, 0) << d.run.err << d.run.out;
    const Image &away = d.shots[0], &over = d.shots[1], &back = d.shots[2];
    ASSERT_FALSE(away.empty() || over.empty() || back.empty()) << d.run.err;
    EXPECT_GT(difference(away, over), 0.003);  // a tooltip box of text appeared
    EXPECT_LT(difference(away, back), 0.001);  // and went away with the mouse
}
