// Issue 13, the tiling, planning, tables, AGU and fusion panels read as slides on a
// projector (1024x768, UI scale 1.5, light theme), checked through their
// --dump-view probes:
//   - tiling, normal mode: the settings column's headings wrap inside it
//     ("L1 tile (C, H, W): DRAM ->" was cut), the traversal toolbar stays in
//     the window (the step slider was cut at the right edge), and with the
//     column hidden (<<) the two pictures take half the window's height
//     (they were at most 318 px of 768 with no way to hide it);
//   - tiling, normal mode: the plot tabs fill the window's height, no more;
//   - tiling, presentation mode: block tags sit on the first block of each
//     row and column only (64 chips covered the tensor);
//   - planning, presentation mode: the address-stream plots are tall enough
//     to read (they were 58 px) and the graph fits the slide's width;
//   - planning, normal mode: the graph fits its box, the NoC's PEs hold
//     their labels;
//   - AGU, normal mode: the settings row wraps (a label was cut at the right);
//   - fusion, normal mode: with the chain column hidden the cells grow;
//   - tables, presentation mode: a short table's type grows until the table
//     and its notes fill most of the slide (half of it was empty).
#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/gui/probe_labels.hpp"
#include "tests/support/gui.hpp"
#include "tests/support/process.hpp"

namespace {

using nlohmann::json;

const char* const kProjector = "--size 1024x768 --ui-scale 1.5 --theme light";
const float kWindowW = 1024, kWindowH = 768;

using ll::test::dump_scene;  // tests/gui/probe_labels.hpp

float at(const json& rect, int i) {
    return rect[size_t(i)].get<float>();
}

}  // namespace

TEST(GuiTilingSlide, ProjectorHeadingsAndToolbarFit) {
    const std::string dir = ll::test::make_temp_dir();
    const json j =
        dump_scene(dir, "tiling", {{"playing", false}, {"tab", "traversal"}}, kProjector);
    ASSERT_TRUE(j.is_object());
    const json& s = j["probe"]["screen"];
    ASSERT_TRUE(s.contains("controls") && s.contains("headings") && s.contains("toolbar"))
        << j["probe"].dump();
    ASSERT_EQ(s["headings"].size(), 3u) << s.dump();
    for (const json& h : s["headings"])
        EXPECT_LE(at(h, 2), at(s["controls"], 2) + 0.5f) << h.dump() << " in " << s["controls"];
    ASSERT_EQ(s["toolbar"].size(), 4u) << s.dump();
    for (const json& t : s["toolbar"]) {
        EXPECT_LE(at(t, 2), kWindowW) << t.dump();
        // Wide enough to read its value ("step 150" at 1.5x needs about 6 em).
        EXPECT_GE(at(t, 2) - at(t, 0), 60.f) << t.dump();
    }
    // The sidebar's toggle is inside the window.
    EXPECT_LE(at(s["sidebar_button"], 2), kWindowW) << s.dump();
}

TEST(GuiTilingSlide, HiddenSidebarGivesThePicturesTheRoom) {
    const std::string dir = ll::test::make_temp_dir();
    const json j = dump_scene(
        dir, "tiling", {{"playing", false}, {"tab", "traversal"}, {"sidebar", false}}, kProjector);
    ASSERT_TRUE(j.is_object());
    const json& s = j["probe"]["screen"];
    ASSERT_FALSE(s.contains("controls")) << "the settings column should be hidden";
    ASSERT_EQ(s["pictures"].size(), 2u) << s.dump();
    for (const json& p : s["pictures"]) {
        EXPECT_GE(at(p, 3) - at(p, 1), 0.5f * kWindowH) << p.dump();
        EXPECT_GE(at(p, 2) - at(p, 0), 0.45f * kWindowW) << p.dump();
        EXPECT_LE(at(p, 3), kWindowH) << p.dump();
    }
    // Its labels are still there, on both pictures.
    for (const json& view : j["probe"]["labels"]) EXPECT_FALSE(view.empty());
}

TEST(GuiTilingSlide, PresentationTagsTheFirstBlockOfEachRowAndColumn) {
    const std::string dir = ll::test::make_temp_dir();
    for (const char* look : {kProjector, "--size 1600x1000"}) {
        SCOPED_TRACE(look);
        const json j = dump_scene(dir, "tiling", {{"playing", false}, {"tab", "traversal"}}, look,
                                  "--present");
        ASSERT_TRUE(j.is_object());
        ASSERT_EQ(j["probe"]["labels"].size(), 2u) << j["probe"].dump();
        const json& tensor = j["probe"]["labels"][0];  // 64 channel blocks
        int tags = 0;
        bool c0 = false, c1 = false;
        for (const json& l : tensor) {
            if (l["kind"] != "tag") continue;
            ++tags;
            c0 |= l["text"] == "c=0";
            c1 |= l["text"] == "c=1";
        }
        EXPECT_TRUE(c0 && c1) << tensor.dump();
        // One row and one column of an 8x8 (or 7x10) arrangement: at most 17.
        EXPECT_GE(tags, 8) << tensor.dump();
        EXPECT_LE(tags, 17) << tensor.dump();
    }
}

TEST(GuiPlanningSlide, StreamsAreTallAndTheGraphFits) {
    const std::string dir = ll::test::make_temp_dir();
    for (const char* look : {kProjector, "--size 1600x1000"}) {
        SCOPED_TRACE(look);
        const json j =
            dump_scene(dir, "planning", {{"example", "conv-relu-conv"}, {"select", "relu->conv2"}},
                       look, "--present");
        ASSERT_TRUE(j.is_object());
        const json& s = j["probe"]["screen"];
        ASSERT_TRUE(s.contains("graph") && s.contains("streams")) << j["probe"].dump();
        // The graph fits its box (it scrolled sideways): content and a margin.
        const json& g = s["graph"];
        EXPECT_LE(at(g["content"], 0), at(g["box"], 2) - at(g["box"], 0)) << g.dump();
        EXPECT_LE(at(g["content"], 1), at(g["box"], 3) - at(g["box"], 1)) << g.dump();
        // Two rows of plots share what the graph and the table leave: each
        // at least a tenth of the window's height (they were 58 px of 768).
        const float window_h = j["window"][1].get<float>();
        ASSERT_EQ(s["streams"].size(), 4u) << s.dump();
        for (const json& st : s["streams"])
            EXPECT_GE(st["plot_px"].get<float>(), window_h / 10) << st.dump();
    }
}

TEST(GuiTablesSlide, AShortTableFillsTheSlide) {
    const std::string dir = ll::test::make_temp_dir();
    for (const char* look : {kProjector, "--size 1600x1000"}) {
        SCOPED_TRACE(look);
        const json j = dump_scene(dir, "tables", json::object(), look, "--present");
        ASSERT_TRUE(j.is_object());
        const json& s = j["probe"]["screen"];
        ASSERT_TRUE(s.contains("used_px")) << j["probe"].dump();
        // Table 5.2 (four rows) and its note take at least 70% of the slide
        // (at 1600x1000 they took a third) and no more than all of it.
        EXPECT_GE(s["used_px"].get<float>(), 0.7f * s["slide_px"].get<float>()) << s.dump();
        EXPECT_LE(s["used_px"].get<float>(), s["slide_px"].get<float>()) << s.dump();
    }
}

// AGU on a projector: every settings field and its label stays inside the
// window, in both modes (the DMA row cut "elem bytes" at the right edge).
TEST(GuiAguSlide, ProjectorSettingsRowWraps) {
    const std::string dir = ll::test::make_temp_dir();
    for (const char* mode : {"dma", "gather"}) {
        SCOPED_TRACE(mode);
        for (const char* lang : {"--lang en", "--lang zh"}) {
            SCOPED_TRACE(lang);
            const json j = dump_scene(dir, "agu", {{"mode", mode}}, kProjector, lang);
            ASSERT_TRUE(j.is_object());
            const json& t = j["probe"]["toolbar"];
            ASSERT_EQ(t.size(), 4u) << j["probe"].dump();
            for (const json& r : t) EXPECT_LE(at(r, 2), kWindowW) << r.dump();
        }
    }
}

// Planning's normal view on a projector: the graph's type shrinks until the
// graph fits its box (conv2 was off the right edge behind a scroll bar).
TEST(GuiPlanningSlide, ProjectorGraphFitsItsBox) {
    const std::string dir = ll::test::make_temp_dir();
    for (const char* lang : {"--lang en", "--lang zh"}) {
        SCOPED_TRACE(lang);
        const json j =
            dump_scene(dir, "planning", {{"example", "conv-relu-conv"}}, kProjector, lang);
        ASSERT_TRUE(j.is_object());
        const json& g = j["probe"]["screen"]["graph"];
        ASSERT_TRUE(g.is_object()) << j["probe"].dump();
        // The box less the child's padding (12 px at UI scale 1.5) on each side.
        EXPECT_LE(at(g["content"], 0), at(g["box"], 2) - at(g["box"], 0) - 24) << g.dump();
    }
}

// Fusion on a projector with its chain column hidden (<<): the buffers take
// the window's width and their cells grow (21 px beside the column, too
// small for their numbers).
TEST(GuiFusionSlide, HiddenChainColumnGrowsTheCells) {
    const std::string dir = ll::test::make_temp_dir();
    const json shown = dump_scene(dir, "fusion", json::object(), kProjector);
    const json hidden = dump_scene(dir, "fusion", {{"sidebar", false}}, kProjector);
    ASSERT_TRUE(shown.is_object() && hidden.is_object());
    const json& s = hidden["probe"]["screen"];
    ASSERT_TRUE(s.contains("canvas") && s.contains("buffers")) << hidden["probe"].dump();
    EXPECT_GE(at(s["canvas"], 2), 0.9f * kWindowW) << s["canvas"].dump();
    const float before = at(shown["probe"]["screen"]["buffers"][0], 2);
    const float after = at(s["buffers"][0], 2);
    EXPECT_GE(after, 30.f) << s["buffers"].dump();
    EXPECT_GT(after, 1.4f * before) << before << " -> " << after;
}

// Tiling's plot tabs fill the window's height and stay in it: at 1600x1000
// the plots were a fixed 340 or 420 px (half the desk empty); on a projector
// they ran past the bottom edge.
TEST(GuiTilingSlide, PlotTabsFillTheHeight) {
    const std::string dir = ll::test::make_temp_dir();
    for (const char* look : {"--size 1600x1000", kProjector}) {
        SCOPED_TRACE(look);
        const float window_h = std::string(look) == kProjector ? kWindowH : 1000;
        for (const char* tab : {"levels", "heatmap", "tilesize"}) {
            SCOPED_TRACE(tab);
            const json j = dump_scene(dir, "tiling", {{"tab", tab}, {"playing", false}}, look);
            ASSERT_TRUE(j.is_object());
            const json& plots = j["probe"]["screen"]["plots"];
            ASSERT_FALSE(plots.empty()) << j["probe"].dump();
            const float bottom = at(plots[plots.size() - 1], 3);
            EXPECT_GE(bottom, 0.9f * window_h) << plots.dump();
            EXPECT_LE(bottom, window_h) << plots.dump();
        }
    }
}

// Planning's NoC tab on a projector: each PE is at least five lines of type
// wide, so its name and its links' byte counts do not overlap (48 px PEs
// under 19 px type did).
TEST(GuiPlanningSlide, ProjectorNocMeshHoldsItsLabels) {
    const std::string dir = ll::test::make_temp_dir();
    const json j = dump_scene(dir, "planning", {{"tab", "noc"}}, kProjector);
    ASSERT_TRUE(j.is_object());
    const json& s = j["probe"]["screen"];
    ASSERT_TRUE(s.contains("noc_cell")) << j["probe"].dump();
    EXPECT_GE(s["noc_cell"].get<float>(), 90.f) << s.dump();
}

// AGU's slide: the arrow from the cell read to the cell written passes the
// destination strip's captions with a gap instead of striking them out.
// Along the arrow's column, no pixel inside a caption has the arrow's
// colour (it ran through "destination memory" and "strides=(48,1,16,4)").
TEST(GuiAguSlide, ArrowLeavesTheCaptionsReadable) {
    const std::string dir = ll::test::make_temp_dir();
    const json j = dump_scene(dir, "agu", {{"playing", false}}, kProjector, "--present");
    ASSERT_TRUE(j.is_object());
    const ll::test::Image im = ll::test::load_png(dir + "/shot.png");
    ASSERT_FALSE(im.empty());
    const json& s = j["probe"]["screen"];
    const json &from = s["read_cell"], &to = s["write_cell"];
    const int x = int(at(from, 0) + at(from, 2) / 2);
    ASSERT_EQ(x, int(at(to, 0) + at(to, 2) / 2)) << "a straight arrow down";
    // The arrow's colour just above the cell written.
    const auto ink = im.at(x, int(at(to, 1)) - 8);
    auto is_ink = [&](int y) {
        const auto p = im.at(x, y);
        return std::abs(p[0] - ink[0]) + std::abs(p[1] - ink[1]) + std::abs(p[2] - ink[2]) < 30;
    };
    int crossed = 0;
    for (const json& l : s["labels"]) {
        if (l["kind"] != "caption") continue;
        const json& r = l["rect"];
        if (at(r, 1) < at(from, 1) + at(from, 2) || at(r, 1) + at(r, 3) > at(to, 1)) continue;
        if (x < at(r, 0) || x > at(r, 0) + at(r, 2)) continue;
        ++crossed;
        int hits = 0;
        for (int y = int(at(r, 1)) + 2; y < int(at(r, 1) + at(r, 3)) - 2; ++y) hits += is_ink(y);
        EXPECT_EQ(hits, 0) << l.dump();
    }
    EXPECT_GE(crossed, 1) << "the scene should put a caption between the strips";
}

// Planning's normal view at 1600x1000: the address-stream plots take the
// height left under the strategies (a fixed 84 px left a fifth of the
// window empty below them).
TEST(GuiPlanningSlide, DeskStreamsTakeTheHeightLeft) {
    const std::string dir = ll::test::make_temp_dir();
    const json j =
        dump_scene(dir, "planning", {{"example", "conv-relu-conv"}, {"select", "relu->conv2"}},
                   "--size 1600x1000");
    ASSERT_TRUE(j.is_object());
    const json& streams = j["probe"]["screen"]["streams"];
    ASSERT_EQ(streams.size(), 4u) << j["probe"].dump();
    for (const json& s : streams) EXPECT_GE(s["plot_px"].get<float>(), 120.f) << s.dump();
}
