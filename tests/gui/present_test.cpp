// Presentation mode (--present, F5) on every panel: the diagram fills the
// window (its screen rectangle, from --dump-view's "diagram", covers most of
// it), at 1600x1000 and at the projector case 1024x768 with UI scale 1.5 on
// the light theme; normal mode is not presentation mode. And the projector
// layout of the explorer: its controls column can be hidden with the
// toolbar's << button, which stays inside the window.
#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "core/format/format.hpp"
#include "core/format/format_plan.hpp"
#include "core/plan_padding.hpp"
#include "tests/support/gui.hpp"

using ll::test::Image;

namespace {

const char* kPanels[] = {"explorer", "views",    "fusion",  "agu",    "planning", "tiling",
                         "img2col",  "loaddata", "cube",    "conv",   "pipeline", "gpu",
                         "systolic", "tables",   "scatter", "compare"};

// Screenshot + --dump-view of one panel; the dump (null on failure, with the
// reason in *err).
nlohmann::json dump(const std::string& dir, const std::string& id, const std::string& args,
                    std::string* err) {
    const std::string png = dir + "/" + id + ".png", js = dir + "/" + id + ".json";
    auto r = ll::test::run_app("--panel " + id + " " + args + " --screenshot " + png +
                               " --dump-view " + js);
    if (r.code != 0) {
        *err = r.err;
        return nullptr;
    }
    return nlohmann::json::parse(ll::test::read_file(js), nullptr, false);
}

// How much of the slide (the window less the caption) the diagram covers:
// area share, and the larger of its width and height shares.
struct Cover {
    double area = 0, side = 0;
};
double num(const nlohmann::json& a, int i) {
    return a[size_t(i)].get<double>();
}
Cover cover(const nlohmann::json& j) {
    Cover c;
    if (!j.contains("diagram")) return c;
    const auto& d = j["diagram"];
    nlohmann::json s = j.contains("slide")
                           ? j["slide"]
                           : nlohmann::json{0, 0, num(j["window"], 0), num(j["window"], 1)};
    const double W = num(s, 2) - num(s, 0), H = num(s, 3) - num(s, 1);
    const double w = num(d, 2) - num(d, 0), h = num(d, 3) - num(d, 1);
    c.area = (w * h) / (W * H);
    c.side = std::max(w / W, h / H);
    return c;
}

// A slide's diagram covers at least 70% of the slide, or spans one of its
// dimensions (90%: the renderer keeps a margin and room for labels): a
// tensor much wider than the window is letterboxed, not shrunk.
void expect_fills(const nlohmann::json& j, const std::string& what) {
    ASSERT_TRUE(j.is_object()) << what;
    ASSERT_TRUE(j.contains("present") && j["present"].is_boolean()) << what;
    EXPECT_TRUE(j["present"] == true) << what;
    ASSERT_TRUE(j.contains("diagram")) << what << ": nothing drawn as a diagram";
    ASSERT_TRUE(j.contains("slide")) << what;
    // The slide is the window less a caption of at most a fifth of it.
    EXPECT_GT(num(j["slide"], 3) - num(j["slide"], 1), 0.8 * num(j["window"], 1)) << what;
    Cover c = cover(j);
    EXPECT_TRUE(c.area >= 0.70 || c.side >= 0.90)
        << what << ": the diagram covers " << c.area * 100 << "% of the slide (widest side "
        << c.side * 100 << "%)";
}

}  // namespace

TEST(GuiPresent, EveryPanelFillsTheWindow) {
    const std::string dir = ll::test::make_temp_dir();
    for (const char* id : kPanels) {
        std::string err;
        nlohmann::json j = dump(dir, id, "--present --size 1600x1000", &err);
        expect_fills(j, std::string(id) + " at 1600x1000: " + err);
    }
}

TEST(GuiPresent, EveryPanelFillsTheProjector) {
    const std::string dir = ll::test::make_temp_dir();
    for (const char* id : kPanels) {
        std::string err;
        nlohmann::json j =
            dump(dir, id, "--present --size 1024x768 --ui-scale 1.5 --theme light", &err);
        expect_fills(j, std::string(id) + " at 1024x768, scale 1.5, light: " + err);
    }
}

// Normal mode draws the controls beside the diagram: the probe says so, and
// the explorer's diagram is smaller than in presentation mode.
TEST(GuiPresent, NormalModeIsNotPresentation) {
    const std::string dir = ll::test::make_temp_dir();
    std::string err;
    nlohmann::json j = dump(dir, "explorer", "--size 1600x1000", &err);
    ASSERT_TRUE(j.is_object()) << err;
    ASSERT_TRUE(j.contains("present") && j["present"].is_boolean());
    EXPECT_TRUE(j["present"] == false);
    nlohmann::json p = dump(dir, "explorer", "--present --size 1600x1000", &err);
    ASSERT_TRUE(p.is_object()) << err;
    EXPECT_GT(cover(p).area, cover(j).area + 0.1);
}

// The projector case of issue 13: at 1024x768, UI scale 1.5, light theme the
// explorer's toolbar starts with a << button inside the window; clicking it
// hides the controls column and the pictures take its place.
TEST(GuiPresent, ExplorerSidebarHidesOnTheProjector) {
    const std::string dir = ll::test::make_temp_dir();
    const std::string args = "--size 1024x768 --ui-scale 1.5 --theme light";
    std::string err;
    nlohmann::json j = dump(dir, "explorer", args, &err);
    ASSERT_TRUE(j.is_object()) << err;
    ASSERT_TRUE(j["probe"].contains("sidebar"));
    EXPECT_TRUE(j["probe"]["sidebar"]["shown"] == true);
    const auto& b = j["probe"]["sidebar"]["button"];
    const double x0 = b[0].get<double>(), y0 = b[1].get<double>(), x1 = b[2].get<double>(),
                 y1 = b[3].get<double>();
    ASSERT_GT(x1, x0);
    EXPECT_GE(x0, 0);
    EXPECT_LE(x1, 1024);
    EXPECT_GE(y0, 0);
    EXPECT_LE(y1, 768);
    const double view_x = j["probe"]["screen"][0]["origin"][0].get<double>();
    EXPECT_GT(view_x, 200) << "the logical view should sit right of the controls";
    // Click the button in the real window: the logical view moves to the left edge.
    const int cx = int((x0 + x1) / 2), cy = int((y0 + y1) / 2);
    auto d = ll::test::drive_app(dir, args,
                                 "xdotool mousemove --window \"$wid\" " + std::to_string(cx) + " " +
                                     std::to_string(cy) +
                                     "; sleep 0.4; shoot 0; xdotool click 1; sleep 0.8; shoot 1",
                                 2);
    ASSERT_EQ(d.run.code, 0) << d.run.err;
    ASSERT_FALSE(d.shots[0].empty() || d.shots[1].empty()) << d.run.err;
    // Where the controls were (left 30% of the window, 75-90% of its
    // height, below the cells), the logical view's canvas (#fafafa on the light theme) now shows.
    auto canvas_share = [](const Image& im) {
        int n = 0, hit = 0;
        for (int y = im.height * 75 / 100; y < im.height * 90 / 100; y += 2)
            for (int x = 20; x < im.width * 3 / 10; x += 2) {
                auto p = im.at(x, y);
                ++n;
                hit += std::abs(p[0] - 250) <= 2 && std::abs(p[1] - 250) <= 2 &&
                       std::abs(p[2] - 250) <= 2;
            }
        return n ? double(hit) / n : 0.0;
    };
    EXPECT_LT(canvas_share(d.shots[0]), 0.5) << "the controls column should be there at first";
    EXPECT_GT(canvas_share(d.shots[1]), 0.8) << "the << button did not hide the controls";
}

// The explorer's padding ratio is core's count for the scene it loaded
// (ND (3,17,40) fp16 -> FRACTAL_NZ), not the previous plan's.
TEST(GuiPresent, ExplorerPaddingComesFromCore) {
    const std::string dir = ll::test::make_temp_dir();
    const std::string scene = dir + "/pad.json";
    ll::test::run_shell("printf '%s' " +
                        ll::test::shell_quote(
                            R"({"from":"ND","to":"FRACTAL_NZ","shape":"3,17,40","dtype":"fp16"})") +
                        " > " + ll::test::shell_quote(scene));
    std::string err;
    nlohmann::json j = dump(dir, "explorer", "--size 1280x800 --scene " + scene, &err);
    ASSERT_TRUE(j.is_object()) << err;
    const ll::Plan p = ll::format_plan({ll::make_pipeline(
        {ll::Format::ND, ll::Format::FRACTAL_NZ, {3, 17, 40}, ll::DType::fp16})});
    const ll::PaddingCount c = ll::padding_of(p);
    ASSERT_GT(c.padding, 0);
    EXPECT_EQ(j["probe"]["padding"]["cells"].get<int64_t>(), c.padding);
    EXPECT_EQ(j["probe"]["padding"]["total"].get<int64_t>(), c.total);
}
