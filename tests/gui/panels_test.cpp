// Every panel of the registry opens full-window with `--panel ID`, draws a
// real picture headless, and takes its settings from a scene file; bad
// panel ids and mismatched scene files are usage errors.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/gui.hpp"

using ll::test::distinct_colours;
using ll::test::Image;
using ll::test::panel_screenshot;
using ll::test::run_app;

namespace {

const char* kPanels[] = {"explorer", "views",   "fusion",   "agu",  "planning",
                         "tiling",   "img2col", "loaddata", "cube", "conv",
                         "compare"};

}  // namespace

TEST(GuiPanels, EveryPanelDrawsFullWindow) {
    std::string dir = ll::test::make_temp_dir();
    Image previous;
    for (const char* id : kPanels) {
        std::string err;
        Image im = panel_screenshot(dir, id, "", id, "1024x700", &err);
        ASSERT_FALSE(im.empty()) << id << ": " << err;
        EXPECT_EQ(im.width, 1024) << id;
        EXPECT_EQ(im.height, 700) << id;
        EXPECT_GT(distinct_colours(im), 12) << id << " looks blank";
        // Each panel is its own picture, not the explorer again.
        if (!previous.empty()) {
            EXPECT_GT(ll::test::difference(previous, im), 0.05) << id;
        }
        previous = im;
    }
}

TEST(GuiPanels, SceneFileNamesItsPanel) {
    std::string dir = ll::test::make_temp_dir();
    std::string js = dir + "/t.json";
    ll::test::run_shell("echo '{\"panel\": \"tiling\"}' > " + ll::test::shell_quote(js));
    auto a = run_app("--size 800x600 --scene " + js + " --screenshot " + dir + "/a.png");
    ASSERT_EQ(a.code, 0) << a.err;
    auto b = run_app("--size 800x600 --panel tiling --screenshot " + dir + "/b.png");
    ASSERT_EQ(b.code, 0) << b.err;
    EXPECT_LT(ll::test::difference(ll::test::load_png(dir + "/a.png"),
                                   ll::test::load_png(dir + "/b.png")),
              0.01);
}

TEST(GuiPanels, BadPanelInputIsExit2) {
    std::string dir = ll::test::make_temp_dir();
    std::string js = dir + "/t.json";
    ll::test::run_shell("echo '{\"panel\": \"tiling\"}' > " + ll::test::shell_quote(js));
    for (std::string args : std::vector<std::string>{"--panel nope", "--panel tiling --shape 2,3",
                                                     "--panel cube --scene " + js}) {
        auto r = run_app(args + " --screenshot " + dir + "/x.png");
        EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
        EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << args << "\n" << r.err;
        EXPECT_FALSE(ll::test::file_exists(dir + "/x.png")) << args;
    }
}
