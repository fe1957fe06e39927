// Issue 13, what a lecture needs from the remaining pictures, checked through
// the --dump-view probes of known scenes:
//   - labels on the views, AGU and tiling pictures: every memory strip names
//     its address column and has column ticks and an address at the start of
//     every row; grids name their axes and carry ticks; tiling's (C,H,W)
//     pictures tag every channel block; no label is cut by the canvas edge
//     or drawn over another;
//   - LoadData prints each element's place in its source fractal once cells
//     hold a number, so ifTranspose reads as rows becoming columns;
//   - defects the issue listed: the tiling zoom strip draws every read of a
//     14-wide row (it drew 9), planning's address-stream plots span their
//     plot on their own scale (they were flat lines on a shared scale), the
//     View menu leads back to the explorer from every panel.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/gui/probe_labels.hpp"
#include "tests/support/gui.hpp"
#include "tests/support/process.hpp"

namespace {

using ll::test::count_label;
using ll::test::count_of;
using ll::test::dump_scene;
using ll::test::expect_unclipped_and_apart;
using ll::test::label_texts;
using nlohmann::json;

const char* const kDesk = "--size 1600x1000";
const char* const kProjector = "--size 1024x768 --ui-scale 1.5 --theme light";

}  // namespace

// Views, default chain (2,3,4) transpose:1,2 then reshape:6,4 (a copy): two
// one-row strips, storage 0 at 0x1000 and the copy at 0x1060, each row starting with
// its address, column ticks and "address" over the first (the strips share
// the board's columns), and the (6,4) grid named "i0 \ i1" with ticks on
// both axes.
TEST(GuiLecture, ViewsPanelLabelsEveryStripAndTheGrid) {
    const std::string dir = ll::test::make_temp_dir();
    for (const std::string look : {kDesk, kProjector}) {
        SCOPED_TRACE(look);
        const json j = dump_scene(dir, "views", json::object(), look);
        ASSERT_TRUE(j.is_object());
        const json& s = j["probe"]["screen"];
        ASSERT_TRUE(s.contains("labels")) << s.dump();
        expect_unclipped_and_apart(s["labels"], s["canvas"]);
        const auto axes = label_texts(s["labels"], "axis");
        EXPECT_EQ(count_of(axes, "address"), 1) << s["labels"].dump();
        EXPECT_EQ(count_of(axes, "i0 \\ i1"), 1) << s["labels"].dump();
        // Each storage at its own base: storage 0 at 0x1000, the copy past
        // its 96 bytes at the next 32-byte boundary (both were drawn at 0x1000).
        const auto addresses = label_texts(s["labels"], "address");
        EXPECT_EQ(count_of(addresses, "0x1000"), 1) << s["labels"].dump();
        EXPECT_EQ(count_of(addresses, "0x1060"), 1) << s["labels"].dump();
        // Column ticks over the strips and over the grid, the grid's row ticks.
        const auto ticks = label_texts(s["labels"], "tick");
        EXPECT_EQ(count_of(ticks, "0"), 3) << s["labels"].dump();
        // Ticks past the first: every 5th cell, or every 2nd once cells are
        // larger (the projector's views picture, 17 px cells since its
        // chain editor folds).
        EXPECT_GE(count_of(ticks, "5") + count_of(ticks, "4"), 1) << s["labels"].dump();
    }
}

// AGU, DMA of (1,4,3,4) NCHW -> NHWC fp32: source and destination strips of
// 48 elements, `per_row` a row; every row of both starts with its address;
// column ticks and "address" over the first strip.
TEST(GuiLecture, AguPanelAddressesEveryRowOfBothStrips) {
    const std::string dir = ll::test::make_temp_dir();
    for (const std::string look : {kDesk, kProjector}) {
        SCOPED_TRACE(look);
        const json j = dump_scene(dir, "agu", json::object(), look);
        ASSERT_TRUE(j.is_object());
        const json& s = j["probe"]["screen"];
        ASSERT_TRUE(s.contains("labels")) << s.dump();
        expect_unclipped_and_apart(s["labels"], s["canvas"]);
        EXPECT_EQ(count_label(s["labels"], "axis", "address"), 1) << s["labels"].dump();
        const int per_row = s["per_row"];
        ASSERT_GT(per_row, 0);
        const int rows = (48 + per_row - 1) / per_row;
        const auto addresses = label_texts(s["labels"], "address");
        for (int r = 0; r < rows; ++r) {
            char want[32];
            std::snprintf(want, sizeof want, "0x%x", unsigned(r * per_row * 4));
            EXPECT_EQ(count_of(addresses, want), 2) << want << " in " << s["labels"].dump();
        }
        const auto ticks = label_texts(s["labels"], "tick");
        EXPECT_EQ(count_of(ticks, "0"), 1) << s["labels"].dump();
        EXPECT_GE(int(ticks.size()), 4);
    }
}

// Tiling traversal of the document's row 1, (64,56,56) in L1 tiles
// (16,14,14): both (C,H,W) pictures name H and W, tick both, and tag each
// channel block (on the projector the tensor's 56x56 blocks are too small
// for a tag: the tile's are checked there); in memory the buffer's bands
// start with their addresses.
TEST(GuiLecture, TilingTraversePicturesAreLabelled) {
    const std::string dir = ll::test::make_temp_dir();
    const json scene = {{"shape", {1, 64, 56, 56}},
                        {"layout", "NCHW"},
                        {"dtype", "fp32"},
                        {"l1_tile", {16, 14, 14}},
                        {"l2_tile", {4, 7, 7}},
                        {"playing", false},
                        {"step", 150},
                        {"tab", "traversal"}};
    for (const std::string look : {kDesk, kProjector}) {
        SCOPED_TRACE(look);
        const json j = dump_scene(dir, "tiling", scene, look);
        ASSERT_TRUE(j.is_object());
        ASSERT_EQ(j["probe"]["labels"].size(), 2u) << j["probe"].dump();
        for (size_t v = 0; v < 2; ++v) {
            const json& l = j["probe"]["labels"][v];
            const auto axes = label_texts(l, "axis");
            EXPECT_EQ(count_of(axes, "H"), 1) << l.dump();
            EXPECT_EQ(count_of(axes, "W"), 1) << l.dump();
            const auto tags = label_texts(l, "tag");
            if (look == kDesk || v == 1) {
                EXPECT_EQ(count_of(tags, "c=0"), 1) << l.dump();
                EXPECT_EQ(count_of(tags, "c=1"), 1) << l.dump();
            }
            EXPECT_GE(count_label(l, "tick", "0"), 2) << l.dump();  // rows and columns
        }
    }
    json memory = scene;
    memory["memory"] = 1;
    const json j = dump_scene(dir, "tiling", memory, kDesk);
    ASSERT_TRUE(j.is_object());
    const json& l = j["probe"]["labels"][0];
    EXPECT_EQ(count_label(l, "axis", "address"), 1) << l.dump();
    EXPECT_GE(label_texts(l, "address").size(), 2u) << l.dump();
}

// LoadData, one fractal copied from A1 to A2 with ifTranspose: the
// destination's first row prints 0, 16, 32, ... 240 (the source's first
// column), without it 0, 1, 2, ... 15; the source prints its own order.
TEST(GuiLecture, LoadDataNumbersShowTheTranspose) {
    const std::string dir = ll::test::make_temp_dir();
    for (bool transpose : {true, false}) {
        SCOPED_TRACE(transpose ? "ifTranspose" : "plain");
        const json scene = {{"load2d",
                             {{"src_fractals", 2},
                              {"start_index", 0},
                              {"repeat", 1},
                              {"src_stride", 1},
                              {"dst_gap", 0},
                              {"transpose", transpose}}},
                            {"stage", 1.0},
                            {"playing", false}};
        const json j = dump_scene(dir, "loaddata", scene, kDesk);
        ASSERT_TRUE(j.is_object());
        const json& v = j["probe"]["screen"]["view"];
        EXPECT_EQ(v["numbers"].get<int>(), 256) << v.dump();
        EXPECT_EQ(j["probe"]["screen"]["source_view"]["numbers"].get<int>(), 256);
        const std::vector<int64_t> got = v["number_sample"];
        ASSERT_GE(got.size(), 17u);
        for (int64_t i = 0; i < 16; ++i) EXPECT_EQ(got[size_t(i)], transpose ? 16 * i : i) << i;
        EXPECT_EQ(got[16], transpose ? 1 : 16);
    }
}

// The tiling zoom strip shows every read of one row of the block along the
// innermost axis: 14 for tiles 14 wide, 56 for tiles 56 wide (it stopped
// at 9), never fewer than 9.
TEST(GuiLecture, TilingZoomStripDrawsAWholeRow) {
    const std::string dir = ll::test::make_temp_dir();
    for (int w : {14, 56}) {
        const json scene = {{"shape", {1, 64, 56, 56}}, {"layout", "NCHW"},
                            {"dtype", "fp32"},          {"l1_tile", {16, 14, w}},
                            {"l2_tile", {4, 7, 7}},     {"l1_order", "W_H_C"},
                            {"playing", false},         {"step", 0},
                            {"tab", "traversal"}};
        const json j = dump_scene(dir, "tiling", scene, kDesk);
        ASSERT_TRUE(j.is_object());
        EXPECT_EQ(j["probe"]["zoom_reads"][0].get<int>(), w) << j["probe"].dump();
        EXPECT_GE(j["probe"]["zoom_reads"][1].get<int>(), 9) << j["probe"].dump();
    }
}

// Planning's address streams: each plot's line spans its own plot from its
// lowest to its highest offset (a shared scale drew the small streams flat).
TEST(GuiLecture, PlanningStreamsUseTheirOwnScale) {
    const std::string dir = ll::test::make_temp_dir();
    const json j = dump_scene(dir, "planning",
                              {{"example", "conv-relu-conv"}, {"select", "relu->conv2"}}, kDesk);
    ASSERT_TRUE(j.is_object());
    ASSERT_TRUE(j["probe"].contains("screen")) << j["probe"].dump();
    const json& streams = j["probe"]["screen"]["streams"];
    ASSERT_GE(streams.size(), 2u) << j["probe"].dump();
    for (const auto& s : streams) {
        if (s["offsets"][0] == s["offsets"][1]) continue;  // one address: flat by right
        EXPECT_GE(s["span_px"].get<float>(), 0.95f * s["plot_px"].get<float>()) << s.dump();
    }
}

// From every panel the View menu has an item that opens the explorer (the
// explorer itself lists itself as the main window).
TEST(GuiLecture, ViewMenuLeadsBackToTheExplorerFromEveryPanel) {
    const std::string dir = ll::test::make_temp_dir();
    const json first = dump_scene(dir, "explorer", json::object(), "--size 800x600");
    ASSERT_TRUE(first.is_object());
    ASSERT_TRUE(first["probe"].contains("view_menu")) << first.dump();
    const json& menu = first["probe"]["view_menu"];
    ASSERT_GE(menu.size(), 10u);
    EXPECT_EQ(menu[0]["id"], "explorer");
    EXPECT_TRUE(menu[0]["main"].get<bool>());
    for (const auto& item : menu) {
        const std::string id = item["id"];
        if (id == "explorer") continue;
        SCOPED_TRACE(id);
        auto r = ll::test::run_app("--size 800x600 --panel " + id + " --screenshot " + dir +
                                   "/m.png --dump-view " + dir + "/m.json");
        ASSERT_EQ(r.code, 0) << r.err;
        const json j = json::parse(ll::test::read_file(dir + "/m.json"));
        ASSERT_TRUE(j["probe"].contains("view_menu")) << j.dump();
        const json& m = j["probe"]["view_menu"];
        EXPECT_EQ(m[0]["id"], id);
        int explorer = 0;
        for (const auto& e : m) explorer += e["id"] == "explorer" && !e["main"];
        EXPECT_EQ(explorer, 1) << m.dump();
    }
}
