// The stride-algebra panels (views, fusion, agu) at prepared states: scene
// files set them up, --dump-view reports where the selected cells were
// drawn, and the pixels there are checked; states that must differ do, and
// bad scenes are usage errors that name the key.
#include <gtest/gtest.h>

#include <array>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/gui.hpp"

using ll::test::Image;
using nlohmann::json;

namespace {

struct Shot {
    Image image;
    json dump;
};

// Renders the panel named in `scene` at 1400x900; the dump is save_settings().
Shot shot(const std::string& dir, const std::string& name, const json& scene) {
    std::string js = dir + "/" + name + ".json", png = dir + "/" + name + ".png",
                dump = dir + "/" + name + ".dump.json";
    ll::test::run_shell("cat > " + ll::test::shell_quote(js) + " <<'EOF_JSON'\n" + scene.dump() +
                        "\nEOF_JSON\n");
    auto r = ll::test::run_app("--size 1400x900 --scene " + ll::test::shell_quote(js) +
                               " --screenshot " + ll::test::shell_quote(png) + " --dump-view " +
                               ll::test::shell_quote(dump));
    EXPECT_EQ(r.code, 0) << name << ": " << r.err;
    if (r.code != 0) return {};
    return {ll::test::load_png(png), json::parse(ll::test::read_file(dump))};
}

std::array<uint8_t, 4> pixel(const Image& im, const json& rect, int dx, int dy) {
    return im.at(int(rect[0].get<float>()) + dx, int(rect[1].get<float>()) + dy);
}

// The renderer's highlight outline (the dark theme's accent, about
// (255,200,80)), on a cell's left edge.
bool outlined(const Image& im, const json& rect) {
    int size = int(rect[2].get<float>());
    for (int dx : {0, 1}) {
        auto p = pixel(im, rect, dx, size / 2);
        if (p[0] > 200 && p[1] > 150 && p[1] < 245 && p[2] < 120) return true;
    }
    return false;
}

// The picture fills most of the panel: its canvas covers at least `share`
// of the window, and the cells' extent most of the canvas along one side.
void fills(const json& dump, double share) {
    const json& c = dump["probe"]["screen"]["canvas"];
    const json& p = dump["probe"]["screen"]["picture"];
    ASSERT_TRUE(c.is_array() && p.is_array()) << dump.dump();
    double win = dump["window"][0].get<double>() * dump["window"][1].get<double>();
    EXPECT_GT(c[2].get<double>() * c[3].get<double>() / win, share) << dump.dump();
    double fw = p[2].get<double>() / c[2].get<double>(),
           fh = p[3].get<double>() / c[3].get<double>();
    EXPECT_GT(std::max(fw, fh), 0.85) << dump.dump();
}

bool same_colour(std::array<uint8_t, 4> a, std::array<uint8_t, 4> b) {
    for (int i = 0; i < 3; ++i)
        if (std::abs(int(a[i]) - int(b[i])) > 6) return false;
    return true;
}

json views_scene(int step, const json& select) {
    return {{"panel", "views"},
            {"shape", "2,3,4"},
            {"ops", {"transpose:1,2", "reshape:6,4"}},
            {"step", step},
            {"select", select}};
}

}  // namespace

// x = (2,3,4); x[0,1,2] and its transpose's [0,2,1] read the same element 6:
// same storage cell before and after, a different grid cell, the cell's
// colour the element's colour in both places.
TEST(GuiViewsPanels, TransposeMovesTheGridNotTheStorage) {
    std::string dir = ll::test::make_temp_dir();
    Shot a = shot(dir, "a", views_scene(0, {0, 1, 2}));
    Shot b = shot(dir, "b", views_scene(1, {0, 2, 1}));
    ASSERT_FALSE(a.image.empty());
    ASSERT_FALSE(b.image.empty());
    EXPECT_GT(ll::test::distinct_colours(a.image), 12);
    EXPECT_GT(ll::test::difference(a.image, b.image), 0.001);
    const json &sa = a.dump["probe"]["screen"], &sb = b.dump["probe"]["screen"];
    ASSERT_TRUE(sa.contains("select_grid")) << a.dump.dump();
    EXPECT_EQ(sa["select_storage0"], sb["select_storage0"]);  // the storage never moves
    EXPECT_NE(sa["select_grid"], sb["select_grid"]);
    fills(a.dump, 0.6);
    for (const Shot* s : {&a, &b}) {
        const json& sc = s->dump["probe"]["screen"];
        EXPECT_TRUE(outlined(s->image, sc["select_grid"]));
        EXPECT_TRUE(outlined(s->image, sc["select_storage0"]));
        EXPECT_TRUE(same_colour(pixel(s->image, sc["select_grid"], 4, 4),
                                pixel(s->image, sc["select_storage0"], 4, 4)));
    }
    EXPECT_EQ(b.dump["step"], 1);
    EXPECT_EQ(b.dump["select"], json({0, 2, 1}));
}

// The copying reshape adds a second storage strip below the first: the
// selected index reads storage 1, which holds storage 0's element.
TEST(GuiViewsPanels, CopyingReshapeShowsTheCopy) {
    std::string dir = ll::test::make_temp_dir();
    Shot c = shot(dir, "c", views_scene(2, {2, 1}));  // (6,4) index [2,1] = copy element 9
    ASSERT_FALSE(c.image.empty());
    const json& sc = c.dump["probe"]["screen"];
    EXPECT_GT(sc["select_storage"][1].get<float>(), sc["select_storage0"][1].get<float>());
    EXPECT_TRUE(outlined(c.image, sc["select_storage"]));
    EXPECT_TRUE(same_colour(pixel(c.image, sc["select_storage"], 4, 4),
                            pixel(c.image, sc["select_storage0"], 4, 4)));
    EXPECT_TRUE(same_colour(pixel(c.image, sc["select_grid"], 4, 4),
                            pixel(c.image, sc["select_storage0"], 4, 4)));
}

// Fusion with an expanding and a selecting step: the traced input element is
// outlined in the input, in each buffer that carries it and in the fused output.
TEST(GuiViewsPanels, FusionTracesAnElementThroughTheBuffers) {
    std::string dir = ll::test::make_temp_dir();
    json scene = {{"panel", "fusion"},
                  {"shape", "2,4,4"},
                  {"ops", {"im2col:2,2", "gather:0:8,0,4", "transpose:0,1"}},
                  {"select", 5}};
    Shot s = shot(dir, "f", scene);
    ASSERT_FALSE(s.image.empty());
    const json& cells = s.dump["probe"]["screen"]["select_cells"];
    // x[0,1,1] (element 5) is in 4 windows of the 3x3 output grid; windows 0
    // and 4 are gathered, so each buffer after the input holds it > 1 times.
    ASSERT_GE(cells.size(), 8u) << s.dump.dump();
    int yellow = 0;
    for (const auto& r : cells) yellow += outlined(s.image, r);
    EXPECT_EQ(yellow, int(cells.size()));
    EXPECT_EQ(s.dump["probe"]["screen"]["buffers"].size(),
              6u);  // input, 3 steps, fused input, output
    fills(s.dump, 0.5);
    scene["select"] = -1;
    Shot n = shot(dir, "n", scene);
    EXPECT_TRUE(n.dump["probe"]["screen"]["select_cells"].empty());
    EXPECT_GT(ll::test::difference(s.image, n.image), 0.0005);
}

// DMA NCHW -> NHWC: step 0 and step 10 mark different cells; at step 10 the
// read AGU is at source cell 10 and the write AGU at destination cell
// (h*W + w)*C + c of element (0,0,2,2) = (2*4 + 2) * 4 + 0 = 40.
TEST(GuiViewsPanels, AguStreamsAdvance) {
    std::string dir = ll::test::make_temp_dir();
    json scene = {{"panel", "agu"}, {"mode", "dma"}, {"shape", "1,4,3,4"},
                  {"src", "NCHW"},  {"dst", "NHWC"}, {"step", 0}};
    Shot s0 = shot(dir, "s0", scene);
    scene["step"] = 10;
    Shot s10 = shot(dir, "s10", scene);
    ASSERT_FALSE(s0.image.empty());
    ASSERT_FALSE(s10.image.empty());
    EXPECT_GT(ll::test::difference(s0.image, s10.image), 0.001);
    const json &a = s0.dump["probe"]["screen"], &b = s10.dump["probe"]["screen"];
    ASSERT_TRUE(b.contains("read_cell")) << s10.dump.dump();
    EXPECT_NE(a["read_cell"], b["read_cell"]);
    EXPECT_TRUE(outlined(s10.image, b["read_cell"]));
    EXPECT_TRUE(outlined(s10.image, b["write_cell"]));
    fills(s0.dump, 0.4);
    // Step 0 marks cell 0 of both memories, step 10 source cell 10 and
    // destination cell 40, in rows of per_row cells.
    float cell = a["read_cell"][2].get<float>();
    int per_row = s10.dump["probe"]["screen"]["per_row"].get<int>();
    ASSERT_GT(per_row, 10);
    EXPECT_EQ(a["read_cell"][1], b["read_cell"][1]);
    EXPECT_NEAR(b["read_cell"][0].get<float>() - a["read_cell"][0].get<float>(), 10 * cell, 0.5);
    EXPECT_NEAR(b["write_cell"][0].get<float>() - a["write_cell"][0].get<float>(),
                float(40 % per_row) * cell, 0.5);
    EXPECT_NEAR(b["write_cell"][1].get<float>() - a["write_cell"][1].get<float>(),
                float(40 / per_row) * cell, 0.5);
}

// Scatter-gather fills the panel too, and request 1 marks its own cells.
TEST(GuiViewsPanels, GatherMarksTheRequest) {
    std::string dir = ll::test::make_temp_dir();
    json scene = {{"panel", "agu"},
                  {"mode", "gather"},
                  {"indices", "0,1,2,3,16,17,18,40"},
                  {"width", 4},
                  {"step", 1}};
    Shot s = shot(dir, "g", scene);
    ASSERT_FALSE(s.image.empty());
    const json& cells = s.dump["probe"]["screen"]["request_cells"];
    ASSERT_EQ(cells.size(), 4u) << s.dump.dump();
    for (const auto& r : cells) EXPECT_TRUE(outlined(s.image, r));
    fills(s.dump, 0.4);
}

TEST(GuiViewsPanels, BadScenesNameTheKey) {
    std::string dir = ll::test::make_temp_dir();
    const std::vector<std::pair<json, std::string>> cases = {
        {{{"panel", "views"}, {"ops", {"transpose:1,2", "permute:0,0,1"}}}, "ops[1]"},
        {{{"panel", "views"}, {"shape", "2,x"}}, "shape: "},
        {{{"panel", "views"}, {"layout", "NCHWZ"}, {"shape", "1,2,3,4"}}, "layout: "},
        {{{"panel", "views"}, {"step", 7}}, "step = 7"},
        {{{"panel", "views"}, {"select", {5, 0, 0}}}, "select = [5,0,0]"},
        {{{"panel", "views"}, {"colour", "red"}}, "unknown key colour"},
        {{{"panel", "fusion"}, {"ops", {"gather:0:9"}}, {"shape", "4,4"}}, "ops[0]"},
        {{{"panel", "fusion"}, {"select", 1000}}, "select = 1000"},
        {{{"panel", "agu"}, {"step", -1}}, "step = -1"},
        {{{"panel", "agu"}, {"src", "NCHWX"}}, "src: "},
        {{{"panel", "agu"}, {"mode", "scatter"}}, "mode = \"scatter\""},
    };
    int i = 0;
    for (const auto& [scene, key] : cases) {
        std::string js = dir + "/bad" + std::to_string(i++) + ".json";
        ll::test::run_shell("cat > " + ll::test::shell_quote(js) + " <<'EOF_JSON'\n" +
                            scene.dump() + "\nEOF_JSON\n");
        auto r =
            ll::test::run_app("--size 800x600 --scene " + js + " --screenshot " + dir + "/bad.png");
        EXPECT_EQ(r.code, 2) << scene.dump();
        EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
        EXPECT_NE(r.err.find(key), std::string::npos) << scene.dump() << " -> " << r.err;
    }
}
