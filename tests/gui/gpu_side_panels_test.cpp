// The GPU side's panels (issue 15 section 5): GPU side (Winograd, Tensor
// Core, cuDNN time share), Systolic array vs Cube and Hardware tables open
// full-window, draw real pictures, take their scene settings, and reject bad
// scenes with exit 2.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/gui.hpp"

using ll::test::distinct_colours;
using ll::test::Image;
using ll::test::panel_screenshot;
using ll::test::run_app;

TEST(GuiGpuSide, TabsAndCyclesDrawDifferentPictures) {
    const std::string dir = ll::test::make_temp_dir();
    std::string err;
    const Image wino =
        panel_screenshot(dir, "gpu", R"({"tab": "winograd", "height": 8})", "w", "1024x700", &err);
    ASSERT_FALSE(wino.empty()) << err;
    EXPECT_GT(distinct_colours(wino), 12);
    const Image tc =
        panel_screenshot(dir, "gpu", R"({"tab": "tensorcore"})", "t", "1024x700", &err);
    ASSERT_FALSE(tc.empty()) << err;
    const Image share = panel_screenshot(dir, "gpu", R"({"tab": "cudnn"})", "c", "1024x700", &err);
    ASSERT_FALSE(share.empty()) << err;
    EXPECT_GT(ll::test::difference(wino, tc), 0.05);
    EXPECT_GT(ll::test::difference(tc, share), 0.05);
    const Image c0 = panel_screenshot(dir, "systolic", R"({"cycle": 0})", "s0", "1024x700", &err);
    ASSERT_FALSE(c0.empty()) << err;
    const Image c8 = panel_screenshot(dir, "systolic", R"({"cycle": 8})", "s8", "1024x700", &err);
    ASSERT_FALSE(c8.empty()) << err;
    EXPECT_GT(distinct_colours(c8), 12);
    EXPECT_GT(ll::test::difference(c0, c8), 0.002);  // the cells moved
    const Image sc0 = panel_screenshot(dir, "scatter", R"({"stage": 0})", "x0", "1024x700", &err);
    ASSERT_FALSE(sc0.empty()) << err;
    const Image sc1 = panel_screenshot(dir, "scatter", R"({"stage": 1})", "x1", "1024x700", &err);
    ASSERT_FALSE(sc1.empty()) << err;
    EXPECT_GT(ll::test::difference(sc0, sc1), 0.002);
    const Image tables = panel_screenshot(dir, "tables", "", "h", "1024x700", &err);
    ASSERT_FALSE(tables.empty()) << err;
    EXPECT_GT(distinct_colours(tables), 6);
}

TEST(GuiGpuSide, ExportAndBadScenes) {
    const std::string dir = ll::test::make_temp_dir();
    std::string err;
    const Image im =
        panel_screenshot(dir, "gpu", "{\"tab\": \"cudnn\", \"export\": \"" + dir + "/share\"}", "e",
                         "900x600", &err);
    ASSERT_FALSE(im.empty()) << err;
    EXPECT_TRUE(ll::test::file_exists(dir + "/share.png"));
    EXPECT_TRUE(ll::test::file_exists(dir + "/share.csv"));
    for (const char* bad :
         {R"({"panel": "gpu", "tile_col": 9})", R"({"panel": "systolic", "rows": 99})",
          R"({"panel": "systolic", "cycle": 9999})", R"({"panel": "tables", "open": ["5.2", 9]})",
          R"({"panel": "scatter", "indices": "1,x"})"}) {
        const std::string js = dir + "/bad.json";
        ll::test::run_shell("printf '%s' " + ll::test::shell_quote(bad) + " > " +
                            ll::test::shell_quote(js));
        auto r = run_app("--size 640x480 --scene " + js + " --screenshot " + dir + "/x.png");
        EXPECT_EQ(r.code, 2) << bad << "\n" << r.err;
        EXPECT_NE(r.err.find("error: "), std::string::npos) << bad << "\n" << r.err;
    }
}
