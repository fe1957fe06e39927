// Labels on every grid (issue 13), checked through the --dump-view probe: the
// explorer's pipeline view of ND -> FRACTAL_NZ (2,2,28) fp16 shows axis
// names, index ticks, fractal tags and memory addresses at every stage, each
// label inside the canvas (none cut) and none over another; element numbers
// show at every stage where cells are large enough. At 1600x1000 and at the
// projector case, 1024x768 with --ui-scale 1.5 --theme light.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "tests/gui/probe_labels.hpp"
#include "tests/support/gui.hpp"
#include "tests/support/process.hpp"

using ll::test::dump_scene;
using ll::test::dump_view;
using ll::test::expect_unclipped_and_apart;
using ll::test::kTwoLooks;
using ll::test::label_texts;

namespace {
// The explorer's default conversion, ND -> FRACTAL_NZ (2,2,28) fp16: two
// blocks of two rows (grid rows 0-1 and 3-4), 28 columns.
const std::string kDefaultNz = "--from ND --to FRACTAL_NZ --shape 2,2,28 --dtype fp16 ";
}  // namespace

TEST(GuiLabels, EveryNzStageIsLabelledUnclippedAndApart) {
    const std::string dir = ll::test::make_temp_dir();
    for (const std::string look : kTwoLooks) {
        for (int k = 0; k < 5; ++k) {
            SCOPED_TRACE(look + " stage " + std::to_string(k));
            auto j = dump_view(dir, kDefaultNz + look + " --stage " + std::to_string(k));
            ASSERT_TRUE(j.is_object());
            ASSERT_EQ(j["probe"]["stages"].get<int>(), 5);
            for (int v = 0; v < 2; ++v) {
                if (v == 0 && k > 0) continue;  // the left view always shows stage 0
                const auto& s = j["probe"]["screen"][size_t(v)];
                expect_unclipped_and_apart(s["labels"], s["origin"][0], s["origin"][1],
                                           s["size"][0], s["size"][1]);
                const auto& ls = s["labels"];
                const std::vector<std::string> names = label_texts(ls, "axis");
                const int axis = int(names.size()), ticks = int(label_texts(ls, "tick").size()),
                          tags = int(label_texts(ls, "tag").size()),
                          addresses = int(label_texts(ls, "address").size());
                const int stage = v == 0 ? 0 : k;
                // Both axes named (memory: its address column), ticks on both.
                EXPECT_GE(axis, stage == 4 ? 1 : 2) << s["labels"].dump();
                // The memory stage labels its rows with addresses, so only its
                // column ticks count there (a narrow 16-column strip: 0, 10).
                EXPECT_GE(ticks, stage == 4 ? 2 : 4) << s["labels"].dump();
                if (stage == 4) {
                    EXPECT_GE(addresses, 2) << s["labels"].dump();
                }
                if (stage == 3) {  // the fractals: (B, N1, M1, M0, N0)
                    EXPECT_GE(tags, 2) << s["labels"].dump();
                    EXPECT_NE(std::find(names.begin(), names.end(), "N0"), names.end());
                    EXPECT_NE(std::find(names.begin(), names.end(), "M0"), names.end());
                }
                // Element numbers wherever a cell holds a 2-digit number.
                const float zoom = s["zoom"];
                if (zoom >= 24) {
                    EXPECT_GT(s["numbers"].get<int>(), 0) << "zoom " << zoom;
                }
            }
        }
    }
}

// Block tags and row numbers of the default (2,2,28) source, both views at
// stage 0, both looks: b=1's tag stays out of b=0's rows (at 1600x1000 the
// logical view's 13-pixel cells left it reaching 5 pixels into b=0's last
// row), and b=1 numbers its own rows where the cells hold the numbers.
TEST(GuiLabels, SecondBlockKeepsItsTagAndRowNumbers) {
    const std::string dir = ll::test::make_temp_dir();
    int numbered = 0;  // views whose cells hold row numbers
    for (const std::string look : kTwoLooks) {
        auto j = dump_view(dir, kDefaultNz + look + " --stage 0");
        ASSERT_TRUE(j.is_object());
        for (int v = 0; v < 2; ++v) {
            SCOPED_TRACE(look + " view " + std::to_string(v));
            const auto& s = j["probe"]["screen"][size_t(v)];
            const ll::test::CellToScreen at(s);
            // b=0 holds rows 0 and 1 (grid y 0..2), b=1 starts at y 3.
            int b1_rows = 0, b1_tags = 0;
            for (const auto& l : s["labels"]) {
                const float y0 = l["rect"][1], h = l["rect"][3];
                if (l["kind"] == "tag" && l["text"] == "b=1") {
                    ++b1_tags;
                    EXPECT_GE(y0, at.y(2.f) - 0.5f) << l.dump();
                }
                if (l["kind"] == "tick" && y0 + h / 2 > at.y(3.f)) ++b1_rows;
            }
            // Both views show the tag and b=1's first row number in both
            // looks. (The logical view's 6-pixel cells at the projector put
            // b=1 17 pixels under b=0, closer than a line of text: both were
            // left out until such labels shrank to the blocks' pitch.)
            EXPECT_EQ(b1_tags, 1) << s["labels"].dump();
            EXPECT_GE(b1_rows, 1) << s["labels"].dump();
            if (at.zoom >= 12) ++numbered;
        }
    }
    EXPECT_GE(numbered, 2);  // the desk's two views at least
}

// Block tags cover no cells: at the projector the default (2,2,28)'s cells
// are smaller than a tag, and its tags were chips over the first three
// cells of each block's first rows. Blocks in one column put them left of
// the row numbers instead, level with the block's first row; each shown
// tag must clear both blocks' cells (rows 0-1 and 3-4, columns 0-27), and
// the pipeline view must show both. On the desk they stand above.
TEST(GuiLabels, BlockTagsCoverNoCells) {
    const std::string dir = ll::test::make_temp_dir();
    for (const std::string look : kTwoLooks) {
        auto j = dump_view(dir, kDefaultNz + look + " --stage 0");
        ASSERT_TRUE(j.is_object());
        for (int v = 0; v < 2; ++v) {
            SCOPED_TRACE(look + " view " + std::to_string(v));
            const auto& s = j["probe"]["screen"][size_t(v)];
            const ll::test::CellToScreen at(s);
            int tags = 0;
            for (const auto& l : s["labels"]) {
                if (l["kind"] != "tag") continue;
                ++tags;
                const float x0 = l["rect"][0], y0 = l["rect"][1];
                const float x1 = x0 + l["rect"][2].get<float>(),
                            y1 = y0 + l["rect"][3].get<float>();
                for (float top : {0.f, 3.f}) {  // each block's two rows
                    const bool over = x0 < at.x(28) - 0.5f && x1 > at.x(0) + 0.5f &&
                                      y0 < at.y(top + 2) - 0.5f && y1 > at.y(top) + 0.5f;
                    EXPECT_FALSE(over) << l.dump() << " block at row " << top;
                }
            }
            if (v == 1) {
                EXPECT_EQ(tags, 2) << s["labels"].dump();
            }
        }
    }
}

// The tiling panel's SRAM block (default scene: 16 sub-tiles, c=0, 4, 8 and
// 12 down its left edge, 14 rows each): every block on the left edge shows
// its row 0, in both looks. Row numbers go in two rounds, each block's first
// before the others, since on the projector a block's 10 and the next
// block's 0 collide (drawn in order, the 10 won and blocks c=4.. showed a
// lone "10").
TEST(GuiLabels, EveryLeftEdgeBlockShowsItsFirstRow) {
    const std::string dir = ll::test::make_temp_dir();
    for (const std::string look : kTwoLooks) {
        SCOPED_TRACE(look);
        auto j = dump_scene(dir, "tiling", nlohmann::json::object(), look);
        ASSERT_TRUE(j.is_object());
        const auto& ls = j["probe"]["labels"][1];
        float left = 1e9f, top = 1e9f;  // the tags' left edge, the first tag's top
        for (const auto& l : ls)
            if (l["kind"] == "tag") {
                left = std::min(left, l["rect"][0].get<float>());
                top = std::min(top, l["rect"][1].get<float>());
            }
        int edge_tags = 0, zeros = 0;
        for (const auto& l : ls) {
            if (l["kind"] == "tag" && std::abs(l["rect"][0].get<float>() - left) < 1) ++edge_tags;
            // row ticks: their middle under the first tag's top, left of
            // the tags
            const float mid = l["rect"][1].get<float>() + l["rect"][3].get<float>() / 2;
            if (l["kind"] == "tick" && l["text"] == "0" && mid > top &&
                l["rect"][0].get<float>() < left)
                ++zeros;
        }
        EXPECT_EQ(edge_tags, 4) << ls.dump();
        EXPECT_EQ(zeros, edge_tags) << ls.dump();
    }
}

// The value legend and the shape field with a picture (issue 13: 0-255 for
// colours spanning 0-111; a stale 2,2,28 in the shape field).
TEST(GuiLabels, PictureShapeFieldShowsThePicturesShape) {
    const std::string dir = ll::test::make_temp_dir();
    auto j = dump_view(dir, "--size 1280x800 --image " + std::string(LAYOUTLAB_SOURCE_DIR) +
                                "/assets/smiley.png --from NCHW --to NC1HWC0 --colour value");
    ASSERT_TRUE(j.is_object());
    ASSERT_TRUE(j["probe"].contains("shape_field")) << j.dump();
    EXPECT_NE(j["probe"]["shape_field"].get<std::string>(), "2,2,28");
    EXPECT_EQ(j["probe"]["shape_field"].get<std::string>().rfind("1,3,", 0), 0u)
        << j["probe"]["shape_field"];
}

// LoadData (issue 13: fractal labels clipped or hidden): every source
// fractal's address label is drawn, whole, inside the view, in both looks.
TEST(GuiLabels, LoadDataNamesEveryFractal) {
    const std::string dir = ll::test::make_temp_dir();
    for (const std::string look : kTwoLooks) {
        SCOPED_TRACE(look);
        auto j = dump_scene(dir, "loaddata", nlohmann::json::object(), look);
        ASSERT_TRUE(j.is_object());
        const auto& v = j["probe"]["screen"]["view"];
        expect_unclipped_and_apart(v["labels"], v["origin"][0], v["origin"][1], v["size"][0],
                                   v["size"][1]);
        const std::vector<std::string> names = label_texts(v["labels"], "address");
        // The default scene's destination holds 5 fractals in bands fitted
        // to the pane: the first band's three (f0..f2) stand at its left, the
        // next band's first (f3) above it. The fixed 5-fractal bands drew
        // 9.1 px cells at 1600x1000 and 3.5 at the projector.
        for (const char* f : {"f0 0x0", "f1 0x200", "f2 0x400", "f3 0x600"})
            EXPECT_NE(std::find(names.begin(), names.end(), f), names.end()) << f;
        EXPECT_GE(v["zoom"].get<float>(), look.find("1024") == std::string::npos ? 11.f : 5.f);
    }
}

// img2col takes the case study's 32 channels (it capped C at 8).
TEST(GuiLabels, Img2colTakesTheCaseStudysChannels) {
    const std::string dir = ll::test::make_temp_dir();
    auto j = dump_scene(dir, "img2col", {{"c", 32}, {"h", 7}, {"w", 7}}, "--size 1600x1000");
    ASSERT_TRUE(j.is_object());
    EXPECT_EQ(j["c"].get<int>(), 32);
}
