// The tiling panel's traversal pictures are core Plans drawn by the cell
// renderer: the "memory" slider moves every element to its address, and a
// tensor too large to draw is said in words instead of crashing.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/gui.hpp"

using ll::test::difference;
using ll::test::distinct_colours;
using ll::test::Image;
using ll::test::panel_screenshot;

namespace {

Image shot(const std::string& dir, const std::string& name, const std::string& extra) {
    const std::string settings =
        R"({"shape": [1, 32, 28, 28], "dtype": "fp16", "l1_tile": [16, 14, 14],
 "l2_tile": [8, 7, 7], "playing": false, "step": 9, "tab": "traversal", )" +
        extra + "}";
    std::string err;
    Image im = panel_screenshot(dir, "tiling", settings, name, "1400x900", &err);
    EXPECT_FALSE(im.empty()) << name << ": " << err;
    return im;
}

}  // namespace

TEST(GuiTilingPicture, MemorySliderMovesTheElements) {
    const std::string dir = ll::test::make_temp_dir();
    const Image chw = shot(dir, "chw", R"("layout": "NHWC", "memory": 0)");
    const Image mem = shot(dir, "mem", R"("layout": "NHWC", "memory": 1)");
    ASSERT_FALSE(chw.empty() || mem.empty());
    EXPECT_GT(distinct_colours(chw), 40);  // the read-order colour map, not flat cells
    EXPECT_GT(difference(chw, mem), 0.02);
}

TEST(GuiTilingPicture, HugeTensorIsSaidNotDrawn) {
    const std::string dir = ll::test::make_temp_dir();
    std::string err;
    const Image im = panel_screenshot(
        dir, "tiling",
        R"({"shape": [1, 512, 224, 224], "l1_tile": [16, 14, 14], "l2_tile": [4, 7, 7],
 "playing": false})",
        "huge", "1400x900", &err);
    ASSERT_FALSE(im.empty()) << err;  // the numbers and the tile's picture still show
    EXPECT_GT(distinct_colours(im), 20);
}
