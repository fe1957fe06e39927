// Issue 13, defects found when the compare, Cube, scatter and LoadData
// panels were looked at as slides, each checked through the --dump-view
// probes of the default scenes:
//   - compare: at the projector's width and UI scale (1024, 1.5) both shape
//     fields lie whole inside the window (the shape field ran off the right
//     edge, 26 of its 225 px visible); at 1024x768 the fields fold and both
//     pictures share the window side by side;
//   - Cube, desk slide: every M strip (an A | C pair) carries its own "A (ZZ)"
//     and "C (NZ)" headers and k ticks (the second strip had none);
//   - scatter: the memory and source grids have column (element) ticks, not
//     only an address at the start of each row;
//   - LoadData: the destination's fractal format tag (ZZ) stands above the
//     cells, clear of them (a tag over each fractal sat on the last row of
//     the fractal before it).
// (The views panel's per-storage addresses: GuiLecture.ViewsPanel... and
// ViewChain.EachCopyGetsItsOwnBase.)
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/gui/probe_labels.hpp"
#include "tests/support/gui.hpp"
#include "tests/support/process.hpp"

namespace {

using nlohmann::json;

const char* const kDesk = "--size 1600x1000";
const char* const kProjector = "--size 1024x768 --ui-scale 1.5 --theme light";

using ll::test::dump_scene;  // tests/gui/probe_labels.hpp

std::vector<json> of_kind(const json& labels, const std::string& kind) {
    std::vector<json> out;
    for (const auto& l : labels)
        if (l["kind"] == kind) out.push_back(l);
    return out;
}

int count_text(const json& labels, const std::string& text) {
    return int(std::count_if(labels.begin(), labels.end(),
                             [&](const json& l) { return l["text"] == text; }));
}

// No two labels overlap (rects [x, y, w, h]).
void expect_apart(const json& labels) {
    for (size_t i = 0; i < labels.size(); ++i)
        for (size_t j = 0; j < i; ++j) {
            const json &a = labels[i]["rect"], &b = labels[j]["rect"];
            const float ax = a[0], ay = a[1], aw = a[2], ah = a[3];
            const float bx = b[0], by = b[1], bw = b[2], bh = b[3];
            EXPECT_FALSE(ax + 0.5f < bx + bw && bx + 0.5f < ax + aw && ay + 0.5f < by + bh &&
                         by + 0.5f < ay + ah)
                << labels[i].dump() << " over " << labels[j].dump();
        }
}

}  // namespace

TEST(GuiSlidePanels, CompareShapeFieldsFitTheProjector) {
    const std::string dir = ll::test::make_temp_dir();
    // The projector's width and UI scale, tall enough that the fields are
    // shown rather than folded under a header (as at 768, the next test); the
    // probe is the layout, so the window may reach past the 1000 px screen.
    const std::string tall = "--size 1024x1200 --ui-scale 1.5 --theme light";
    for (const std::string& look : {std::string(kDesk), tall}) {
        SCOPED_TRACE(look);
        const json j = dump_scene(dir, "compare", json::object(), look);
        ASSERT_TRUE(j.is_object());
        const float win_w = look == kDesk ? 1600.f : 1024.f;
        for (const char* f : {"a_shape", "b_shape"}) {
            const json& r = j["probe"]["fields"][f];  // [x0, y0, x1, y1]
            ASSERT_TRUE(r.is_array()) << f << " " << j["probe"].dump();
            // Whole inside the window, wide enough for "2,16,28".
            EXPECT_LE(r[2].get<float>(), win_w) << f << " " << r.dump();
            EXPECT_GE(r[2].get<float>() - r[0].get<float>(), 100.f) << f << " " << r.dump();
        }
    }
}

// At 1024x768 x1.5 the fields fold under one header line, so both pictures
// get most of the window, and they sit side by side, whole, in normal and
// presentation mode (a slide heading wider than its pane pushed B off the
// slide); the memory stage fills its pane in bands (one band of 64 rows was
// a strip a quarter of the pane wide, its cells 5.8 px).
TEST(GuiSlidePanels, ComparePicturesShareTheProjector) {
    const std::string dir = ll::test::make_temp_dir();
    for (const std::string extra : {"", "--present"}) {
        SCOPED_TRACE(extra);
        const json j = dump_scene(dir, "compare", json::object(), kProjector, extra);
        ASSERT_TRUE(j.is_object());
        EXPECT_FALSE(j["probe"].contains("fields")) << j["probe"].dump();
        const json& sc = j["probe"]["screen"];
        ASSERT_EQ(sc.size(), 2u) << j["probe"].dump();
        const float ax = sc[0]["origin"][0], bx = sc[1]["origin"][0];
        EXPECT_LT(ax, 30.f) << sc.dump();
        EXPECT_GT(bx, 1024.f * 0.45f) << sc.dump();
        EXPECT_LT(bx, 1024.f * 0.55f) << sc.dump();
        for (const auto& s : sc) {
            EXPECT_LT(s["origin"][1].get<float>(), 768.f * 0.35f) << s.dump();
            EXPECT_GE(s["zoom"].get<float>(), 9.f) << s.dump();
        }
    }
}

TEST(GuiSlidePanels, CubeEveryStripHasItsHeaders) {
    const std::string dir = ll::test::make_temp_dir();
    // The small example (M1 4, K1 3, N1 2) on the desk slide folds M into
    // two strips; at the projector, one.
    for (const std::string look : {kDesk, kProjector}) {
        SCOPED_TRACE(look);
        const json j =
            dump_scene(dir, "cube", {{"m1", 4}, {"k1", 3}, {"n1", 2}}, look, "--present");
        ASSERT_TRUE(j.is_object());
        const json& s = j["probe"]["screen"];
        ASSERT_TRUE(s.contains("labels")) << s.dump();
        const int strips = s["strips"];
        if (look == kDesk) {
            EXPECT_EQ(strips, 2) << s.dump();
        }
        const json& labels = s["labels"];
        EXPECT_EQ(count_text(labels, "A (ZZ)"), strips) << labels.dump();
        EXPECT_EQ(count_text(labels, "C (NZ)"), strips) << labels.dump();
        EXPECT_EQ(count_text(labels, "B (ZN)"), 1) << labels.dump();
        for (const char* k : {"k0", "k1", "k2"}) EXPECT_EQ(count_text(labels, k), strips) << k;
        // n ticks: over B, and over every C but the first (under B).
        EXPECT_EQ(count_text(labels, "n1"), strips) << labels.dump();
        expect_apart(labels);
    }
}

TEST(GuiSlidePanels, ScatterGridsHaveColumnTicks) {
    const std::string dir = ll::test::make_temp_dir();
    for (const std::string look : {kDesk, kProjector}) {
        for (int stage : {0, 1}) {
            SCOPED_TRACE(look + " stage " + std::to_string(stage));
            const json j = dump_scene(dir, "scatter", {{"stage", stage}}, look);
            ASSERT_TRUE(j.is_object());
            const json& s = j["probe"]["screen"];
            ASSERT_TRUE(s.contains("labels")) << j["probe"].dump();
            const json& labels = s["labels"];
            // Memory: 64-byte bursts of fp32, elements 0..15 across; the
            // source: requests of 4 elements, 0..3 across and rows 0..2.
            const int across = stage == 1 ? 16 : 4;
            const auto ticks = of_kind(labels, "tick");
            int columns = 0;
            for (int i = 0; i < across; ++i)
                columns += count_text(json(ticks), std::to_string(i)) > 0;
            // Ticks thin out to every 2nd or 5th when cells are narrow.
            EXPECT_GE(columns, stage == 1 ? 4 : across) << labels.dump();
            EXPECT_EQ(count_text(labels, "element"), 1) << labels.dump();
            const char* row_name = stage == 0 ? "request" : "address";
            EXPECT_EQ(count_text(labels, row_name), 1) << labels.dump();
            expect_apart(labels);
            // Inside the canvas.
            const json& c = s["canvas"];
            for (const auto& l : labels) {
                EXPECT_GE(l["rect"][0].get<float>(), c[0].get<float>() - 0.5f) << l.dump();
                EXPECT_LE(l["rect"][0].get<float>() + l["rect"][2].get<float>(),
                          c[0].get<float>() + c[2].get<float>() + 0.5f)
                    << l.dump();
            }
        }
    }
}

TEST(GuiSlidePanels, LoadDataFormatTagsStayOffTheCells) {
    const std::string dir = ll::test::make_temp_dir();
    for (const std::string look : {kDesk, kProjector}) {
        SCOPED_TRACE(look);
        const json j = dump_scene(dir, "loaddata", json::object(), look);
        ASSERT_TRUE(j.is_object());
        const json& v = j["probe"]["screen"]["view"];
        const json& labels = v["labels"];
        // The grid's top: the first fractal's address stands at its first row.
        float top = -1;
        for (const auto& l : labels)
            if (l["text"] == "f0 0x0") top = l["rect"][1];
        ASSERT_GE(top, 0.f) << labels.dump();
        int tags = 0;
        for (const auto& l : labels) {
            if (l["text"] != "ZZ") continue;
            ++tags;
            EXPECT_LE(l["rect"][1].get<float>() + l["rect"][3].get<float>(), top + 0.5f)
                << l.dump();
        }
        EXPECT_GE(tags, 1) << labels.dump();
        expect_apart(labels);
    }
}

// img2col at the projector: the geometry's five rows of fields fold, so the
// matrix starts in the upper part of the window with cells that hold their
// numbers, and the input picture ends above the formula lines under it
// (before, the matrix started at 0.47 of the height and the formula ran
// below the window's edge).
TEST(GuiSlidePanels, Img2colFitsTheProjector) {
    const std::string dir = ll::test::make_temp_dir();
    const json j = dump_scene(dir, "img2col", json::object(), kProjector);
    ASSERT_TRUE(j.is_object());
    const json& s = j["probe"]["screen"];
    ASSERT_TRUE(s.contains("matrix") && s.contains("input")) << s.dump();
    EXPECT_LT(s["matrix"]["origin"][1].get<float>(), 0.4f * 768) << s.dump();
    EXPECT_GE(s["matrix"]["zoom"].get<float>(), 40.f) << s.dump();
    const float input_bottom =
        s["input"]["origin"][1].get<float>() + s["input"]["size"][1].get<float>();
    // Under the input picture: 8 formula lines and the hint, about 30 px each.
    EXPECT_LE(input_bottom + 8 * 30, 768.f) << s.dump();
}

// The Cube's controls at the projector in Chinese: the int8 checkbox and its
// label start a new line when they do not fit (they were cut at the
// window's right edge, "ir" of "int8" showing).
TEST(GuiSlidePanels, CubeControlsFitTheProjector) {
    const std::string dir = ll::test::make_temp_dir();
    for (const std::string lang : {"en", "zh"}) {
        SCOPED_TRACE(lang);
        const json j = dump_scene(dir, "cube", json::object(), kProjector, "--lang " + lang);
        ASSERT_TRUE(j.is_object());
        const json& r = j["probe"]["int8_checkbox"];  // [x0, y0, x1, y1]
        ASSERT_TRUE(r.is_array()) << j["probe"].dump();
        EXPECT_LE(r[2].get<float>(), 1024.f) << r.dump();
    }
}

// img2col with the case study's 32 channels of 7x7: the input's channel
// images wrap into rows that suit the input pane (stacked downwards they
// drew a line: 0.5 px cells at the projector, 3.3 px on the desk slide; now
// 3.1 and 15).
TEST(GuiSlidePanels, Img2colCaseStudyInputWrapsItsChannels) {
    const std::string dir = ll::test::make_temp_dir();
    const json scene = {{"c", 32}, {"h", 7}, {"w", 7}, {"kh", 3}, {"kw", 3}};
    const json proj = dump_scene(dir, "img2col", scene, kProjector);
    ASSERT_TRUE(proj.is_object());
    EXPECT_GE(proj["probe"]["screen"]["input"]["zoom"].get<float>(), 2.5f)
        << proj["probe"]["screen"].dump();
    const json slide = dump_scene(dir, "img2col", scene, kDesk, "--present");
    ASSERT_TRUE(slide.is_object());
    EXPECT_GE(slide["probe"]["screen"]["input"]["zoom"].get<float>(), 12.f)
        << slide["probe"]["screen"].dump();
}
