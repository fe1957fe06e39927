// The execution-engine panels (img2col, LoadData, Cube, convolution) under
// Xvfb: each opened at a prepared state from a scene file, with pixel checks
// at the rectangles the panel reports through --dump-view (its
// save_settings), states that must differ, the case study run on real
// numbers, and bad scene files as usage errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "core/exec/img2col.hpp"
#include "core/exec/plans.hpp"
#include "core/plan.hpp"
#include "tests/support/gui.hpp"
#include "tests/support/png.hpp"
#include "tests/support/process.hpp"

using ll::test::difference;
using ll::test::distinct_colours;
using ll::test::Image;
using nlohmann::json;

namespace {

struct Shot {
    Image im;
    json view;  // the panel's save_settings() after the captured frame
    int code = -1;
    std::string err;
};

// Opens `panel` with `settings` (a JSON object) and captures it.
Shot shot(const std::string& dir, const std::string& name, const std::string& panel,
          json settings) {
    settings["panel"] = panel;
    const std::string js = dir + "/" + name + ".json", png = dir + "/" + name + ".png",
                      dump = dir + "/" + name + ".view.json";
    ll::test::run_shell("cat > " + ll::test::shell_quote(js) + " <<'EOF_JSON'\n" + settings.dump() +
                        "\nEOF_JSON\n");
    auto r = ll::test::run_app("--size 1280x800 --scene " + ll::test::shell_quote(js) +
                               " --screenshot " + ll::test::shell_quote(png) + " --dump-view " +
                               ll::test::shell_quote(dump));
    Shot s;
    s.code = r.code;
    s.err = r.err;
    if (r.code == 0) {
        s.im = ll::test::load_png(png);
        s.view = json::parse(ll::test::read_file(dump));
    }
    return s;
}

bool near(const std::array<uint8_t, 4>& px, int r, int g, int b, int tol = 30) {
    return std::abs(int(px[0]) - r) <= tol && std::abs(int(px[1]) - g) <= tol &&
           std::abs(int(px[2]) - b) <= tol;
}

// Pixels of (about) one colour inside [x0, x1) x [y0, y1).
int count_colour(const Image& im, int r, int g, int b, int x0 = 0, int y0 = 0, int x1 = 1 << 30,
                 int y1 = 1 << 30) {
    int n = 0;
    for (int y = std::max(0, y0); y < std::min(im.height, y1); ++y)
        for (int x = std::max(0, x0); x < std::min(im.width, x1); ++x)
            n += near(im.at(x, y), r, g, b, 12);
    return n;
}

// The middle of a rectangle's left edge (drawn 3 px thick, centred on it).
std::array<uint8_t, 4> left_edge(const Image& im, const json& rect) {
    const int x = rect[0].get<int>(), y = (rect[1].get<int>() + rect[3].get<int>()) / 2;
    return im.at(x, y);
}

const int kYellow[3] = {255, 200, 40};    // window / current step
const int kMagenta[3] = {255, 110, 230};  // repeated img2col element (dark palette: pinned)

}  // namespace

// The documents' example (3x3 input, 2x2 kernel): the window slides over the
// input and the matrix row follows; repeats appear once a window re-reads.
TEST(GuiCompute, Img2colWindowSlides) {
    const std::string dir = ll::test::make_temp_dir();
    const json base = {{"n", 1}, {"c", 1}, {"h", 3}, {"w", 3}, {"kh", 2}, {"kw", 2}};
    json s0 = base, s3 = base;
    s0["position"] = 0;
    s3["position"] = 3;
    Shot a = shot(dir, "i0", "img2col", s0), b = shot(dir, "i3", "img2col", s3);
    ASSERT_EQ(a.code, 0) << a.err;
    ASSERT_EQ(b.code, 0) << b.err;
    ASSERT_FALSE(a.im.empty());
    EXPECT_GT(distinct_colours(a.im), 20);
    EXPECT_GT(difference(a.im, b.im), 0.001);

    // Counter from the model: window 4 of 4 wrote all 16 elements, 7 of them
    // repeats (16 copies of 9 inputs); window 1 wrote 4, none repeated.
    ll::exec::Img2colSpec spec;
    spec.h = spec.w = 3;
    spec.win.kh = spec.win.kw = 2;
    const auto e = ll::exec::img2col_expansion(spec);
    EXPECT_EQ(a.view["probe"]["counter"]["written"], 4);
    EXPECT_EQ(a.view["probe"]["counter"]["repeats"], 0);
    EXPECT_EQ(b.view["probe"]["counter"]["written"], e.matrix_elements);
    EXPECT_EQ(b.view["probe"]["counter"]["repeats"], e.matrix_elements - e.input_elements);

    // The window box moved by one input cell right and down (stride 1), the
    // matrix row box by three rows; both are drawn in the window colour.
    const json& w0 = a.view["probe"]["screen"]["window_box"];
    const json& w3 = b.view["probe"]["screen"]["window_box"];
    const json& r0 = a.view["probe"]["screen"]["row_box"];
    const json& r3 = b.view["probe"]["screen"]["row_box"];
    const double cell = (w0[2].get<double>() - w0[0].get<double>()) / 2;  // Kw = 2 cells
    ASSERT_GT(cell, 8);
    EXPECT_NEAR(w3[0].get<double>() - w0[0].get<double>(), cell, 2);
    EXPECT_NEAR(w3[1].get<double>() - w0[1].get<double>(), cell, 2);
    const double row = r0[3].get<double>() - r0[1].get<double>();
    EXPECT_NEAR(r3[1].get<double>() - r0[1].get<double>(), 3 * row, 2);
    for (const Shot* s : {&a, &b})
        for (const char* key : {"window_box", "row_box"}) {
            auto px = left_edge(s->im, s->view["probe"]["screen"][key]);
            EXPECT_TRUE(near(px, kYellow[0], kYellow[1], kYellow[2]))
                << key << " edge " << int(px[0]) << "," << int(px[1]) << "," << int(px[2]);
        }
    // Repeats are marked (in both views) only once a window re-reads an element.
    for (const char* v : {"matrix", "input"}) {
        auto magenta = [&](const Shot& s) {
            const json& r = s.view["probe"]["screen"][v];
            const int x0 = r["origin"][0].get<int>(), y0 = r["origin"][1].get<int>();
            return count_colour(s.im, kMagenta[0], kMagenta[1], kMagenta[2], x0, y0,
                                x0 + r["size"][0].get<int>(), y0 + r["size"][1].get<int>());
        };
        EXPECT_EQ(magenta(a), 0) << v;
        EXPECT_GT(magenta(b), 20) << v;
    }
}

// Real key presses move the window: Right x3 reaches the last window of the
// documents' example, End stays there, Home comes back to the first.
TEST(GuiCompute, Img2colKeysMoveTheWindow) {
    const std::string dir = ll::test::make_temp_dir();
    Shot ref = shot(dir, "k", "img2col", {{"h", 3}, {"w", 3}, {"kh", 2}, {"kw", 2}});
    ASSERT_EQ(ref.code, 0) << ref.err;
    auto d = ll::test::drive_app(dir, "--size 1280x800 --scene " + dir + "/k.json", R"SH(
xdotool mousemove --window "$wid" 1275 795
sleep 0.5
shoot 0
xdotool key Right; sleep 0.2; xdotool key Right; sleep 0.2; xdotool key Right; sleep 0.6; shoot 1
xdotool key End; sleep 0.6; shoot 2
xdotool key Home; sleep 0.6; shoot 3
)SH",
                                 4);
    ASSERT_EQ(d.run.code, 0) << d.run.err << d.run.out;
    const std::vector<Image>& s = d.shots;
    for (int i = 0; i < 4; ++i) {
        ASSERT_FALSE(s[i].empty()) << i << " " << d.run.err;
    }
    EXPECT_GT(difference(s[0], s[1]), 0.002) << "Right did not move the window";
    EXPECT_LT(difference(s[1], s[2]), 0.0005) << "three Rights should reach the last window";
    EXPECT_LT(difference(s[0], s[3]), 0.0005) << "Home did not come back";
}

// Transpose changes where every element lands in L0A; so does the start index.
TEST(GuiCompute, LoadDataParametersShow) {
    const std::string dir = ll::test::make_temp_dir();
    json on = {{"mode", "load2d"},
               {"stage", 1.0},
               {"load2d",
                {{"src_fractals", 4},
                 {"start_index", 0},
                 {"repeat", 2},
                 {"src_stride", 1},
                 {"dst_gap", 0},
                 {"transpose", true}}}};
    json off = on, start = on;
    off["load2d"]["transpose"] = false;
    start["load2d"]["transpose"] = false;
    start["load2d"]["start_index"] = 2;
    Shot a = shot(dir, "on", "loaddata", on), b = shot(dir, "off", "loaddata", off),
         c = shot(dir, "start", "loaddata", start);
    ASSERT_EQ(a.code, 0) << a.err;
    ASSERT_EQ(b.code, 0) << b.err;
    ASSERT_EQ(c.code, 0) << c.err;
    EXPECT_GT(distinct_colours(a.im), 20);
    EXPECT_GT(difference(a.im, b.im), 0.01);
    EXPECT_GT(difference(b.im, c.im), 0.01);
    EXPECT_EQ(a.view["probe"]["moves"], 2);
    EXPECT_EQ(a.view["load2d"]["transpose"], true);
    // The probe is apart from the settings: none of its keys among them.
    for (const char* k : {"moves", "error", "screen", "fields"})
        EXPECT_FALSE(a.view.contains(k)) << k;
    // The saved settings read back into the same picture.
    json again = a.view;
    again.erase("probe");
    Shot d = shot(dir, "again", "loaddata", again);
    ASSERT_EQ(d.code, 0) << d.err;
    EXPECT_LT(difference(a.im, d.im), 0.001);
}

// A real click: repeatTimes 1 -> 0 is out of range. The message appears
// inline (in the error colour), the field is framed, the last valid load stays
// on screen; clicking + again brings the picture back exactly. The button's
// place comes from the panel's own field rectangles (--dump-view).
TEST(GuiCompute, LoadDataBadValueShownInline) {
    const std::string dir = ll::test::make_temp_dir();
    const json scene = {{"load2d", {{"repeat", 1}}}};
    Shot ref = shot(dir, "r1", "loaddata", scene);
    ASSERT_EQ(ref.code, 0) << ref.err;
    const json& f = ref.view["probe"]["fields"]["repeatTimes"];
    ASSERT_TRUE(f.is_array()) << ref.view.dump();
    const int h = f[3].get<int>() - f[1].get<int>(), y = (f[1].get<int>() + f[3].get<int>()) / 2;
    // InputInt's step buttons are square (frame height) at the right end: "-" then "+".
    const int minus = f[2].get<int>() - h - 2 - h / 2, plus = f[2].get<int>() - h / 2;
    const std::string mx = std::to_string(minus), px = std::to_string(plus), y_ = std::to_string(y);
    auto d = ll::test::drive_app(dir, "--size 1280x800 --scene " + dir + "/r1.json",
                                 "shoot 0\n"
                                 "xdotool mousemove --window \"$wid\" " +
                                     mx + " " + y_ +
                                     " click 1; sleep 0.6; shoot 1\n"
                                     "xdotool mousemove --window \"$wid\" " +
                                     px + " " + y_ +
                                     " click 1; sleep 0.2\n"
                                     "xdotool mousemove --window \"$wid\" 5 790; sleep 0.6; "
                                     "shoot 2\n",
                                 3);
    ASSERT_EQ(d.run.code, 0) << d.run.err << d.run.out;
    const Image &s0 = d.shots[0], &s1 = d.shots[1], &s2 = d.shots[2];
    ASSERT_FALSE(s0.empty() || s1.empty() || s2.empty()) << d.run.err;
    const int err0 = count_colour(s0, 255, 107, 97), err1 = count_colour(s1, 255, 107, 97);
    EXPECT_LT(err0, 10);
    EXPECT_GT(err1, 200) << "no inline error message / red frame";
    EXPECT_GT(distinct_colours(s1), 20) << "the last valid load should stay on screen";
    EXPECT_LT(count_colour(s2, 255, 107, 97), 10) << "+ did not clear the error";
}

// Step k of the K -> N -> M loop frames A's row m, B's column n and C[n][m]
// (core's cube_plan drawn by the cell renderer; the rectangles come from the
// panel's probe under "probe"/"screen").
TEST(GuiCompute, CubeStepsThroughTheLoop) {
    const std::string dir = ll::test::make_temp_dir();
    const json base = {{"m1", 4}, {"k1", 3}, {"n1", 2}};
    json s0 = base, s5 = base;
    s0["step"] = 0;
    s5["step"] = 13;
    Shot a = shot(dir, "c0", "cube", s0), b = shot(dir, "c13", "cube", s5);
    ASSERT_EQ(a.code, 0) << a.err;
    ASSERT_EQ(b.code, 0) << b.err;
    EXPECT_GT(difference(a.im, b.im), 0.002);
    EXPECT_EQ(b.view["step"], 13);
    const json& scr = b.view["probe"]["screen"];
    EXPECT_EQ(scr["steps"], 4 * 3 * 2);
    const auto sched = ll::exec::cube_schedule(4, 3, 2);
    const auto& st = sched[13];  // k 1, n 1, m 1
    const double cell = scr["cell"];
    ASSERT_GT(cell, 6);
    EXPECT_NEAR(scr["c_fractal"][0].get<double>(), scr["c"][0].get<double>() + double(st.n) * cell,
                1.5);
    EXPECT_NEAR(scr["c_fractal"][1].get<double>(), scr["c"][1].get<double>() + double(st.m) * cell,
                1.5);
    EXPECT_NEAR(scr["a_row"][1].get<double>(), scr["a"][1].get<double>() + double(st.m) * cell,
                1.5);
    // A's row m and C[n][m] on the same line.
    EXPECT_NEAR(scr["a_row"][1].get<double>(), scr["c_fractal"][1].get<double>(), 1.5);
    EXPECT_NEAR(scr["b_column"][0].get<double>(), scr["b"][0].get<double>() + double(st.n) * cell,
                1.5);
    // The active A fractal (k 1) is its own box inside the row, not the row.
    EXPECT_NEAR(scr["a_fractal"][0].get<double>(), scr["a"][0].get<double>() + double(st.k) * cell,
                1.5);
    EXPECT_LT(scr["a_fractal"][2].get<double>() - scr["a_fractal"][0].get<double>(),
              scr["a_row"][2].get<double>() - scr["a_row"][0].get<double>() - cell);
    // Real values: at step 0 (k = 0) the C fractal starts from zero; at step
    // 13 (k = 1) it already holds the k = 0 product and this step changes it.
    const json& v0 = a.view["probe"]["screen"]["values"];
    const json& v13 = scr["values"];
    ASSERT_TRUE(v0.is_object() && v13.is_object());
    EXPECT_EQ(v13["c_fractal"], st.c);
    bool zero0 = true, some13 = false, changed13 = false;
    for (size_t i = 0; i < 16; ++i) {
        zero0 = zero0 && v0["before"][i].get<double>() == 0;
        some13 = some13 || v13["before"][i].get<double>() != 0;
        changed13 = changed13 || v13["after"][i] != v13["before"][i];
    }
    EXPECT_TRUE(zero0);
    EXPECT_TRUE(some13);
    EXPECT_TRUE(changed13);
    // C fractals already summed over k = 0 are brighter than untouched ones
    // at step 0: sample the centre of C[0][3] (no box over it) in both.
    const json& c = scr["c"];
    const int cx = c[0].get<int>() + int(cell / 2), cy = c[1].get<int>() + int(cell * 3.5);
    EXPECT_GT(int(b.im.at(cx, cy)[0]), int(a.im.at(cx, cy)[0]) + 40);
    // int8: an A fractal (16x32) is twice as wide as a C fractal, a B
    // fractal (32x16) twice as tall.
    json i8 = base;
    i8["int8"] = true;
    i8["step"] = 13;
    Shot d = shot(dir, "c8", "cube", i8);
    ASSERT_EQ(d.code, 0) << d.err;
    const json& q = d.view["probe"]["screen"];
    const double aw = q["a_fractal"][2].get<double>() - q["a_fractal"][0].get<double>();
    const double bh = q["b_fractal"][3].get<double>() - q["b_fractal"][1].get<double>();
    const double cw = q["c_fractal"][2].get<double>() - q["c_fractal"][0].get<double>();
    EXPECT_NEAR(aw, 2 * cw, 2.0);
    EXPECT_NEAR(bh, 2 * cw, 2.0);
}

// The lecture's case study from the scene ("case_study": true) renders, runs
// on real numbers and reports the documented shapes.
TEST(GuiCompute, ConvCaseStudyRuns) {
    const std::string dir = ll::test::make_temp_dir();
    Shot s = shot(dir, "case", "conv", {{"case_study", true}, {"run", true}, {"stage", 3}});
    ASSERT_EQ(s.code, 0) << s.err;
    EXPECT_GT(distinct_colours(s.im), 20);
    const json& sh = s.view["probe"]["screen"]["shapes"];
    EXPECT_EQ(sh["a_fractal"], json({10, 49, 18, 16, 16}));
    EXPECT_EQ(sh["b_fractal"], json({18, 4, 16, 16}));
    EXPECT_EQ(sh["c_fractal"], json({4, 490, 16, 16}));
    EXPECT_EQ(sh["output_5hd"], json({10, 4, 28, 28, 16}));
    EXPECT_EQ(s.view["probe"]["screen"]["cube_ops"], 35280);
    const json& res = s.view["probe"]["screen"]["result"];
    ASSERT_TRUE(res.is_object()) << s.view.dump();
    EXPECT_EQ(res["cube_ops"], 35280);
    EXPECT_LT(res["max_abs_diff"].get<double>(), 1e-2);
    EXPECT_EQ(s.view["probe"]["screen"]["feature_map"]["stage"], 3);
    // The NCHW input at the case-study size is not collapsed (it was one
    // colour smear): its 32 channels show as many colours below the origin.
    Shot f = shot(dir, "nchw", "conv", {{"case_study", true}, {"stage", 0}});
    ASSERT_EQ(f.code, 0) << f.err;
    const json& fo = f.view["probe"]["screen"]["feature_map"]["origin"];
    int colours = 0;
    for (int ch = 0; ch < 32; ++ch) {
        const auto c = ll::colour_map(float(ch) / 31);
        colours += count_colour(f.im, c[0], c[1], c[2], fo[0].get<int>(), fo[1].get<int>()) > 200;
    }
    EXPECT_GE(colours, 24) << "channel colours visible in the NCHW picture";
    // A2 (L0A, 64 KB) cannot hold the whole A matrix: its box is red.
    const json& a2 = s.view["probe"]["screen"]["buffers"]["A2 (L0A)"];
    EXPECT_GT(a2["occupancy"].get<double>(), 1.0);
    const json& r = a2["rect"];
    auto px = s.im.at(r[0].get<int>() + 10, r[3].get<int>() - 4);
    EXPECT_TRUE(near(px, 215, 75, 65)) << int(px[0]) << "," << int(px[1]) << "," << int(px[2]);
    // int8 (C0 = 32, half the K fractals) is exact against the direct loop.
    Shot i8 = shot(dir, "int8", "conv", {{"case_study", true}, {"dtype", "int8"}, {"run", true}});
    ASSERT_EQ(i8.code, 0) << i8.err;
    EXPECT_EQ(i8.view["probe"]["screen"]["cube_ops"], 9 * 4 * 490);
    EXPECT_EQ(i8.view["probe"]["screen"]["result"]["max_abs_diff"].get<double>(), 0.0)
        << i8.view["probe"]["screen"]["result"].dump();
    // The small example fits: its A2 box is green.
    Shot m = shot(dir, "small", "conv", json::object());
    ASSERT_EQ(m.code, 0) << m.err;
    const json& m2 = m.view["probe"]["screen"]["buffers"]["A2 (L0A)"];
    EXPECT_LT(m2["occupancy"].get<double>(), 1.0);
    EXPECT_GT(difference(s.im, m.im), 0.05);
}

TEST(GuiCompute, BadScenesAreUsageErrors) {
    const std::string dir = ll::test::make_temp_dir();
    struct Bad {
        const char* panel;
        json settings;
        const char* names;  // what the message must mention
    };
    const Bad bad[] = {
        {"img2col", {{"kh", "x"}}, "kh"},
        {"img2col", {{"kh", 5}}, "kernel"},
        {"img2col", {{"position", 99}}, "position"},
        {"img2col", {{"bogus", 1}}, "bogus"},
        {"loaddata", {{"load2d", {{"repeat", 0}}}}, "repeatTimes"},
        {"loaddata", {{"mode", "load9"}}, "mode"},
        {"loaddata", {{"load2d", {{"transpose", true}}}, {"dtype", "int8"}}, "ifTranspose"},
        {"cube", {{"m1", 0}}, "m1"},
        {"cube", {{"step", 1000}}, "step"},
        {"conv", {{"stride", 0}}, "stride"},
        {"conv", {{"dtype", "fp64"}}, "dtype"},
    };
    for (const Bad& b : bad) {
        Shot s = shot(dir, "bad", b.panel, b.settings);
        EXPECT_EQ(s.code, 2) << b.panel << " " << b.settings.dump();
        EXPECT_EQ(s.err.rfind("error: ", 0), 0u) << s.err;
        EXPECT_NE(s.err.find(b.names), std::string::npos) << s.err;
    }
}
