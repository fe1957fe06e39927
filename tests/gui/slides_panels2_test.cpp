// Issue 13 for the img2col, Cube, compare and scatter panels as a teacher
// projects them: at 1600x1000, at the projector case (1024x768, UI scale
// 1.5, light theme), in presentation mode and in Chinese,
//   - no line of text is cut by the edge of the column, pane or window it
//     stands in (--dump-text's "cut");
//   - on the light theme every line of words keeps 4.5:1 against the window;
//   - each panel's grids are labelled for a known scene, every label at the
//     place of the row, column or matrix it names, whole inside its canvas
//     and apart from the others:
//       img2col: the matrix's (n,oh,ow) rows and (c,kh,kw) columns, the
//         input's H and W with their ticks and its (n, c) image tag;
//       Cube: A, B and C headers, m, k and n ticks; A's header just above
//         its k ticks (it floated ~170 px above them on the desk slide) and
//         C's out of the B -> C arrow's path (the arrow ran through it);
//       compare: both sides' axis names, ticks and block tags, laid out
//         alike on the shared camera;
//       scatter: element ticks over the memory's columns, an address at the
//         start of every row band.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/gui/probe_labels.hpp"
#include "tests/support/gui.hpp"
#include "tests/support/process.hpp"

using nlohmann::json;

namespace {

const char* const kMine[] = {"img2col", "cube", "compare", "scatter"};

// The looks and checks shared by the slide tests (tests/gui/probe_labels.hpp).
using namespace ll::test::slide_checks;

const char* const kDesk = "--size 1600x1000";

// Scenes beyond each panel's default that a lecture shows: the Cube mid-run
// and on the case study, img2col on a padded strided window.
std::vector<json> scenes() {
    return {
        {{"panel", "cube"}, {"step", 5}},
        {{"panel", "cube"}, {"case_study", true}},
        {{"panel", "img2col"},
         {"n", 1},
         {"c", 4},
         {"h", 7},
         {"w", 7},
         {"kh", 3},
         {"kw", 3},
         {"stride", 2},
         {"pad", 1},
         {"position", 3}},
        {{"panel", "compare"}, {"stage", 0}},
        {{"panel", "scatter"}, {"stage", 1}},
    };
}

// Runs for every panel: by name, and each extra scene from a file.
std::vector<std::string> runs(const std::string& dir) {
    std::vector<std::string> out;
    for (const char* id : kMine) out.push_back(std::string("--panel ") + id);
    int i = 0;
    for (const json& s : scenes()) {
        const std::string file = dir + "/scene" + std::to_string(i++) + ".json";
        ll::test::run_shell("printf '%s' " + ll::test::shell_quote(s.dump()) + " > " +
                            ll::test::shell_quote(file));
        out.push_back("--scene " + file);
    }
    return out;
}

struct Box {
    float x0, y0, x1, y1;
    float cx() const { return (x0 + x1) / 2; }
    float cy() const { return (y0 + y1) / 2; }
};
Box label_box(const json& l) {
    const float x = l["rect"][0], y = l["rect"][1], w = l["rect"][2], h = l["rect"][3];
    return {x, y, x + w, y + h};
}
// A probe rectangle [x0, y0, x1, y1].
Box rect_box(const json& r) {
    return {r[0], r[1], r[2], r[3]};
}

// The labels of `kind` reading `text` (in drawing order).
std::vector<Box> find(const json& labels, const std::string& kind, const std::string& text) {
    std::vector<Box> out;
    for (const json& l : labels)
        if (l["kind"] == kind && l["text"] == text) out.push_back(label_box(l));
    return out;
}
// The one label of `kind` reading `text`; a failure when there is not exactly one.
Box one(const json& labels, const std::string& kind, const std::string& text) {
    const auto v = find(labels, kind, text);
    EXPECT_EQ(v.size(), 1u) << kind << " " << text << " in " << labels.dump();
    return v.empty() ? Box{-1e6f, -1e6f, -1e6f, -1e6f} : v[0];
}

}  // namespace

TEST(GuiSlidesPanels2, NoTextIsCutInAnyLook) {
    const std::string dir = ll::test::make_temp_dir();
    for (const std::string& run : runs(dir))
        for (const char* look : kLooks) {
            const std::string args = run + " " + look;
            const json j = dump_text(dir, args);
            ASSERT_TRUE(j.is_object()) << args;
            ASSERT_TRUE(j.contains("cut")) << j.dump();
            EXPECT_TRUE(j["cut"].empty()) << args << ": " << j["cut"].dump();
        }
}

TEST(GuiSlidesPanels2, LightThemeTextKeepsItsContrast) {
    const std::string dir = ll::test::make_temp_dir();
    for (const std::string& run : runs(dir))
        for (const char* extra : {"", " --present", " --lang zh"})
            ll::test::expect_legible_on_light(dir, run + " " + kProjector + extra);
}

// The views and LoadData panels (their slide work landed earlier) in the
// same looks; with the other slide tests every panel is covered.
TEST(GuiSlidesPanels2, ViewsAndLoadDataKeepEveryLineWholeAndLegible) {
    const std::string dir = ll::test::make_temp_dir();
    for (const char* id : {"views", "loaddata"}) {
        for (const char* look : kLooks) {
            const std::string args = std::string("--panel ") + id + " " + look;
            const json cut = cut_lines(dir, args);
            EXPECT_TRUE(cut.empty()) << args << ": " << cut.dump();
        }
        for (const char* extra : {"", " --present", " --lang zh"})
            ll::test::expect_legible_on_light(
                dir, std::string("--panel ") + id + " " + kProjector + extra);
    }
}

// img2col, input (1,1,3,3), kernel 2x2, stride 1, no padding, at its matrix
// stage: a 4 x 4 matrix whose rows are (n,oh,ow) and columns (c,kh,kw), read
// from a 3 x 3 input (H down, W across, image n=0 c=0).
TEST(GuiSlidesPanels2, Img2colLabelsStandAtTheirRowsAndColumns) {
    const std::string dir = ll::test::make_temp_dir();
    const json scene = {{"n", 1},  {"c", 1},      {"h", 3},   {"w", 3},        {"kh", 2},
                        {"kw", 2}, {"stride", 1}, {"pad", 0}, {"position", 1}, {"stage", 2}};
    for (const std::string look : {kDesk, kProjector}) {
        SCOPED_TRACE(look);
        const json j = ll::test::dump_scene(dir, "img2col", scene, look);
        ASSERT_TRUE(j.is_object());
        const json& s = j["probe"]["screen"];
        ASSERT_TRUE(s.contains("matrix") && s.contains("input")) << s.dump();
        // The matrix: window 1's row is framed (row_box), cells `zoom` wide.
        const json& m = s["matrix"];
        const json& ml = m["labels"];
        ll::test::expect_unclipped_and_apart(ml, m["origin"][0], m["origin"][1], m["size"][0],
                                             m["size"][1]);
        const Box row = rect_box(s["row_box"]);
        const float z = m["zoom"];
        ASSERT_GT(z, 10.f);
        // Ticks read "0".."3" twice: columns (above the matrix) and rows (left of it).
        for (int i = 0; i < 4; ++i) {
            const auto v = find(ml, "tick", std::to_string(i));
            ASSERT_EQ(v.size(), 2u) << ml.dump();
            const Box& col = v[0].cy() < v[1].cy() ? v[0] : v[1];
            const Box& rw = v[0].cy() < v[1].cy() ? v[1] : v[0];
            EXPECT_NEAR(col.cx(), row.x0 + (float(i) + 0.5f) * z, 2.f) << i;
            EXPECT_LE(col.y1, row.y0 - float(1) * z + 1.f) << i;  // above row 0 (window 1 framed)
            EXPECT_NEAR(rw.cy(), row.y0 + (float(i - 1) + 0.5f) * z, 2.f) << i;
            EXPECT_LE(rw.x1, row.x0 + 0.5f) << i;  // left of the matrix
        }
        const Box rows = one(ml, "axis", "(n,oh,ow)"), cols = one(ml, "axis", "(c,kh,kw)");
        EXPECT_LE(rows.x1, row.x0 + 0.5f);     // the row header left of the matrix
        EXPECT_LT(rows.y1, row.y0 - z + 1.f);  // at its top
        EXPECT_GT(cols.cx(), row.x0);          // the column header over the columns
        EXPECT_LT(cols.cx(), row.x1);
        EXPECT_LE(cols.y1, find(ml, "tick", "0")[0].y0 + 0.5f);  // above the column ticks

        // The input: window 1 starts at (0, 1); its box is 2 x 2 cells.
        const json& in = s["input"];
        const json& il = in["labels"];
        ll::test::expect_unclipped_and_apart(il, in["origin"][0], in["origin"][1], in["size"][0],
                                             in["size"][1]);
        const float zi = in["zoom"];
        const Box win = rect_box(s["window_box"]);
        EXPECT_NEAR(win.x1 - win.x0, 2 * zi, 1.5f);
        const float gx = win.x0 - zi, gy = win.y0;  // the input's top-left cell
        for (int i = 0; i < 3; ++i) {
            const auto v = find(il, "tick", std::to_string(i));
            ASSERT_EQ(v.size(), 2u) << il.dump();
            const Box& w = v[0].cy() < v[1].cy() ? v[0] : v[1];
            const Box& h = v[0].cy() < v[1].cy() ? v[1] : v[0];
            EXPECT_NEAR(w.cx(), gx + (float(i) + 0.5f) * zi, 2.f) << i;
            EXPECT_LE(w.y1, gy + 0.5f) << i;
            EXPECT_NEAR(h.cy(), gy + (float(i) + 0.5f) * zi, 2.f) << i;
            EXPECT_LE(h.x1, gx + 0.5f) << i;
        }
        const Box hh = one(il, "axis", "H"), ww = one(il, "axis", "W");
        EXPECT_LE(hh.x1, gx + 0.5f);
        EXPECT_GT(ww.cx(), gx);
        EXPECT_LE(ww.y1, gy + 0.5f);
        const Box tag = one(il, "tag", "n=0 c=0");
        EXPECT_LE(tag.y1, gy + 0.5f);
        EXPECT_NEAR(tag.x0, gx, zi);
    }
}

// The Cube, M1 4 x K1 3 x N1 2 (fp16) at step 1 (k 0, n 0, m 1): A's rows
// m0..m3 beside C's, k ticks over A's columns, n ticks over B's; A's header
// just above its k ticks, C's right of C's first row, clear of the arrow
// from B's column down to the current C fractal.
TEST(GuiSlidesPanels2, CubeLabelsStandAtTheirMatrices) {
    const std::string dir = ll::test::make_temp_dir();
    const json scene = {{"m1", 4}, {"k1", 3}, {"n1", 2}, {"step", 1}};
    for (const std::string& look :
         {std::string(kDesk), std::string(kProjector), std::string(kDesk) + " --present",
          std::string(kProjector) + " --present"}) {
        SCOPED_TRACE(look);
        const json j = ll::test::dump_scene(dir, "cube", scene, look);
        ASSERT_TRUE(j.is_object());
        const json& s = j["probe"]["screen"];
        ASSERT_TRUE(s.contains("labels") && s.contains("canvas")) << s.dump();
        const json& labels = s["labels"];
        ll::test::expect_unclipped_and_apart(labels, s["canvas"]);
        const int strips = s["strips"];
        const float z = s["cell"];
        const Box a = rect_box(s["a"]), b = rect_box(s["b"]), c = rect_box(s["c"]);
        EXPECT_EQ(int(find(labels, "caption", "A (ZZ)").size()), strips);
        EXPECT_EQ(int(find(labels, "caption", "C (NZ)").size()), strips);
        // Strip 0's headers: the leftmost of each.
        auto leftmost = [&](const std::string& t) {
            auto v = find(labels, "caption", t);
            EXPECT_FALSE(v.empty()) << t;
            Box best = v.empty() ? Box{-1e6f, -1e6f, -1e6f, -1e6f} : v[0];
            for (const Box& q : v)
                if (q.x0 < best.x0) best = q;
            return best;
        };
        const Box ah = leftmost("A (ZZ)"), ch = leftmost("C (NZ)");
        const Box bh = one(labels, "caption", "B (ZN)");
        // k ticks over A's columns, just above A; A's header just above them.
        for (int k = 0; k < 3; ++k) {
            const auto v = find(labels, "tick", "k" + std::to_string(k));
            ASSERT_EQ(int(v.size()), strips) << labels.dump();
            Box t = v[0];
            for (const Box& q : v)
                if (q.x0 < t.x0) t = q;
            EXPECT_NEAR(t.cx(), a.x0 + (float(k) + 0.5f) * z, 2.f) << k;
            EXPECT_LE(t.y1, a.y0 + 0.5f) << k;
            EXPECT_GT(t.y1, a.y0 - 12.f) << k;
            EXPECT_LE(ah.y1, t.y0 + 0.5f);
            EXPECT_GT(ah.y1, t.y0 - 12.f) << "A's header floats above its ticks";
        }
        EXPECT_NEAR(ah.x0, a.x0, 2.f);
        // m ticks level with their rows (M folds into strips of `per` rows),
        // strip 0's left of A.
        const int per = (4 + strips - 1) / strips;
        for (int m = 0; m < 4; ++m) {
            const Box t = one(labels, "tick", "m" + std::to_string(m));
            if (m < per) {
                EXPECT_LE(t.x1, a.x0 + 0.5f) << m;
            }
            EXPECT_NEAR(t.cy(), a.y0 + (float(m % per) + 0.5f) * z, 2.f) << m;
        }
        // n ticks over B's columns; B's header right of B.
        for (int n = 0; n < 2; ++n) {
            const auto v = find(labels, "tick", "n" + std::to_string(n));
            ASSERT_FALSE(v.empty()) << labels.dump();
            Box t = v[0];
            for (const Box& q : v)
                if (q.y0 < t.y0) t = q;
            EXPECT_NEAR(t.cx(), b.x0 + (float(n) + 0.5f) * z, 2.f) << n;
            EXPECT_LT(t.cy(), b.y0) << n;
        }
        EXPECT_GE(bh.x0, b.x1 - 0.5f);
        EXPECT_GT(bh.cy(), b.y0);
        EXPECT_LT(bh.cy(), b.y1);
        // C's header right of C's first row.
        EXPECT_GE(ch.x0, c.x1 - 0.5f);
        EXPECT_GT(ch.cy(), c.y0);
        EXPECT_LT(ch.cy(), c.y0 + z);
        // The B -> C arrow: down the current B column's middle to the C
        // fractal's top; no header on its path.
        const Box bf = rect_box(s["b_fractal"]), cf = rect_box(s["c_fractal"]);
        const float x = bf.cx(), y0 = bf.y1, y1 = cf.y0;
        EXPECT_NEAR(cf.cx(), x, 1.f);  // strip 0: the arrow runs straight down
        for (const json& l : labels) {
            if (l["kind"] != "caption") continue;
            const Box q = label_box(l);
            const bool crossed = q.x0 < x && x < q.x1 && q.y0 < y1 && y0 < q.y1;
            EXPECT_FALSE(crossed) << "the B -> C arrow runs through " << l.dump();
        }
    }
}

// compare, its default pair (ND (2,16,28) fp16 to FRACTAL_NZ and to
// FRACTAL_ZN) at stage 0, the source: each side names its row and column
// axes, ticks its columns every 5 elements and its rows, tags blocks b=0
// and b=1 one block (16 rows and a gap) apart; both sides alike.
TEST(GuiSlidesPanels2, CompareLabelsStandAtTheirGrids) {
    const std::string dir = ll::test::make_temp_dir();
    for (const std::string look : {kDesk, kProjector}) {
        SCOPED_TRACE(look);
        const json j = ll::test::dump_scene(dir, "compare", {{"stage", 0}}, look);
        ASSERT_TRUE(j.is_object());
        const json& sides = j["probe"]["screen"];
        ASSERT_EQ(sides.size(), 2u) << sides.dump();
        std::vector<std::vector<Box>> ticks(2);
        for (int k = 0; k < 2; ++k) {
            const json& s = sides[k];
            ASSERT_TRUE(s.contains("labels") && s.contains("canvas")) << s.dump();
            const json& labels = s["labels"];
            ll::test::expect_unclipped_and_apart(labels, s["canvas"]);
            const float z = s["zoom"], ox = s["origin"][0], px = s["pan_x"];
            ASSERT_GT(z, 4.f);
            // Column c's middle on screen.
            auto col_x = [&](int c) { return ox + (float(c) + 0.5f - px) * z; };
            const Box n = one(labels, "axis", "N");
            EXPECT_EQ(int(find(labels, "axis", k == 0 ? "M" : "K").size()), 1) << labels.dump();
            std::vector<Box> cols, rows;
            std::vector<int> row_of;  // each row tick's row
            const float first_tag = one(labels, "tag", "b=0").y0;
            for (const json& l : labels) {
                if (l["kind"] != "tick") continue;
                const Box t = label_box(l);
                const int v = std::stoi(l["text"].get<std::string>());
                // Column ticks stand on one line above the grid; row ticks
                // in a column at its left.
                if (t.y1 <= first_tag + 0.5f) {
                    cols.push_back(t);
                    EXPECT_NEAR(t.cx(), col_x(v), 2.f) << l.dump();
                    EXPECT_GT(t.y0, n.y0 - 1) << l.dump();  // under the axis name
                } else {
                    rows.push_back(t);
                    row_of.push_back(v);
                    EXPECT_LE(t.x1, col_x(0) - z / 2 + 0.5f) << l.dump();
                }
            }
            // Top to bottom (each block's first row number is drawn first).
            std::vector<size_t> by_y(rows.size());
            for (size_t i = 0; i < by_y.size(); ++i) by_y[i] = i;
            std::sort(by_y.begin(), by_y.end(),
                      [&](size_t a, size_t b) { return rows[a].cy() < rows[b].cy(); });
            {
                std::vector<Box> r2;
                std::vector<int> v2;
                for (size_t i : by_y) r2.push_back(rows[i]), v2.push_back(row_of[i]);
                rows = r2, row_of = v2;
            }
            // Thinned as the cells allow: at least 0, 5, ... 25 of 28
            // columns and 0, 5, 10, 15 of 16 rows in each block (b=0 and
            // b=1 number their own rows); rows at the cell pitch, the
            // second block's 0 one block (16 rows and the gap) under the
            // first's.
            EXPECT_GE(cols.size(), 5u) << labels.dump();
            ASSERT_GE(rows.size(), 6u) << labels.dump();
            size_t second = 0;  // b=1's first row tick
            for (size_t i = 1; i < rows.size(); ++i) {
                if (row_of[i] < row_of[i - 1]) {
                    EXPECT_EQ(second, 0u) << "a third run of row ticks at " << i;
                    second = i;
                    EXPECT_EQ(row_of[i], 0);
                    EXPECT_NEAR(rows[i].cy() - rows[0].cy(), 17 * z, 1.5f) << i;
                    continue;
                }
                EXPECT_NEAR(rows[i].cy() - rows[i - 1].cy(), float(row_of[i] - row_of[i - 1]) * z,
                            1.5f)
                    << i;
            }
            EXPECT_GE(second, 3u) << labels.dump();
            EXPECT_GE(rows.size() - second, 3u) << labels.dump();
            const Box b0 = one(labels, "tag", "b=0"), b1 = one(labels, "tag", "b=1");
            EXPECT_GE(b1.y0 - b0.y0, 16 * z - 1);
            EXPECT_LE(b1.y0 - b0.y0, 18 * z + 1);
            EXPECT_NEAR(b0.x0, b1.x0, 0.5f);
            ticks[size_t(k)] = cols;
            ticks[size_t(k)].insert(ticks[size_t(k)].end(), rows.begin(), rows.end());
        }
        // The shared camera: B's ticks are A's moved by the panes' distance.
        const float dx = float(sides[1]["origin"][0]) - float(sides[0]["origin"][0]);
        ASSERT_EQ(ticks[0].size(), ticks[1].size());
        for (size_t i = 0; i < ticks[0].size(); ++i) {
            EXPECT_NEAR(ticks[1][i].x1 - dx, ticks[0][i].x1, 1.f) << i;
            EXPECT_NEAR(ticks[1][i].y0, ticks[0][i].y0, 1.f) << i;
        }
    }
}

// scatter, its default gather (fp32, 64-byte bursts) at stage 1, memory:
// element ticks 0..15 one per column, evenly at the cell pitch, on one line
// above the first band; the byte address of every band ("0x0", "0x40", ...)
// left of the band, in order down.
TEST(GuiSlidesPanels2, ScatterLabelsStandAtTheirColumnsAndBands) {
    const std::string dir = ll::test::make_temp_dir();
    for (const std::string look : {kDesk, kProjector}) {
        SCOPED_TRACE(look);
        const json j = ll::test::dump_scene(dir, "scatter", {{"stage", 1}}, look);
        ASSERT_TRUE(j.is_object());
        const json& s = j["probe"]["screen"];
        ASSERT_TRUE(s.contains("labels") && s.contains("canvas")) << s.dump();
        const json& labels = s["labels"];
        ll::test::expect_unclipped_and_apart(labels, s["canvas"]);
        const float z = s["zoom"];
        ASSERT_GT(z, 8.f);
        std::vector<Box> cols;
        for (int e = 0; e < 16; ++e) cols.push_back(one(labels, "tick", std::to_string(e)));
        for (int e = 1; e < 16; ++e) {
            EXPECT_NEAR(cols[size_t(e)].cx() - cols[size_t(e - 1)].cx(), z, 1.5f) << e;
            EXPECT_NEAR(cols[size_t(e)].y0, cols[0].y0, 0.5f) << e;
        }
        const Box el = one(labels, "axis", "element"), ad = one(labels, "axis", "address");
        EXPECT_LE(el.y1, cols[0].y0 + 0.5f);  // the name over its ticks
        EXPECT_GT(el.cx(), cols[0].x0);
        EXPECT_LT(el.cx(), cols[15].x1);
        EXPECT_LE(ad.x1, cols[0].cx() - z / 2 + 0.5f);  // left of the bands
        // Addresses: left of the first column, each band below the last.
        std::vector<Box> addr;
        for (const json& l : labels)
            if (l["kind"] == "address") addr.push_back(label_box(l));
        ASSERT_GE(addr.size(), 2u) << labels.dump();
        EXPECT_EQ(ll::test::count_label(labels, "address", "0x0"), 1);
        EXPECT_EQ(ll::test::count_label(labels, "address", "0x40"), 1);
        for (size_t i = 0; i < addr.size(); ++i) {
            EXPECT_LE(addr[i].x1, cols[0].cx() - z / 2 + 0.5f) << i;
            EXPECT_GT(addr[i].y0, cols[0].y1 - 0.5f) << i;  // under the ticks
            if (i > 0) {
                EXPECT_GE(addr[i].y0 - addr[i - 1].y0, z - 1) << i;
            }
        }
    }
}
