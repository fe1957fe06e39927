// The planning panel at prepared states (scene files): every example graph
// renders, the mismatch marker colour appears exactly when a mismatch does,
// picking another strategy changes the picture, the NoC animation moves, and
// bad scenes are usage errors.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/gui.hpp"

using ll::test::Image;
using ll::test::panel_screenshot;

namespace {

// planning::kMismatch (app/panels/planning_canvas.hpp): used only for mismatches.
int mismatch_pixels(const Image& im) {
    int n = 0;
    for (int y = 0; y < im.height; ++y)
        for (int x = 0; x < im.width; ++x) {
            auto p = im.at(x, y);
            if (p[0] == 235 && p[1] == 64 && p[2] == 52) ++n;
        }
    return n;
}

Image shot(const std::string& dir, const std::string& settings, const std::string& name) {
    std::string err;
    Image im = panel_screenshot(dir, "planning", settings, name, "1400x900", &err);
    EXPECT_FALSE(im.empty()) << name << ": " << err;
    return im;
}

}  // namespace

TEST(GuiPlanning, EveryExampleRendersWithItsMismatchesMarked) {
    std::string dir = ll::test::make_temp_dir();
    Image previous;
    for (const char* ex :
         {"conv-relu-conv", "one-producer-many-consumers", "many-producers", "conv-chain"}) {
        Image im = shot(dir, std::string(R"({"example":")") + ex + R"("})", ex);
        ASSERT_FALSE(im.empty());
        EXPECT_GT(ll::test::distinct_colours(im), 12) << ex;
        EXPECT_GT(mismatch_pixels(im), 100) << ex << ": no mismatch marker";
        if (!previous.empty()) {
            EXPECT_GT(ll::test::difference(previous, im), 0.01) << ex;
        }
        previous = im;
    }
}

TEST(GuiPlanning, NoMismatchNoMarker) {
    std::string dir = ll::test::make_temp_dir();
    Image im = shot(dir, R"({"graph":{"name":"ok","nodes":[
        {"name":"x","op":"Input","shape":[1,8,8,8]},
        {"name":"c","op":"Conv","inputs":["x"]},
        {"name":"r","op":"ReLU","inputs":["c"]}]}})",
                    "ok");
    ASSERT_FALSE(im.empty());
    EXPECT_GT(ll::test::distinct_colours(im), 12);
    EXPECT_EQ(mismatch_pixels(im), 0);
}

TEST(GuiPlanning, PickingAnotherStrategyChangesThePicture) {
    std::string dir = ll::test::make_temp_dir();
    Image fused = shot(dir, R"({"example":"conv-relu-conv","select":"relu->conv2"})", "fused");
    Image read = shot(
        dir, R"({"example":"conv-relu-conv","select":"relu->conv2","strategy":"consumer_read"})",
        "read");
    Image again = shot(dir, R"({"example":"conv-relu-conv","select":"relu->conv2"})", "again");
    ASSERT_FALSE(fused.empty() || read.empty() || again.empty());
    EXPECT_GT(ll::test::difference(fused, read), 0.005);
    EXPECT_LT(ll::test::difference(fused, again), 0.001);  // deterministic
}

TEST(GuiPlanning, NocStepsMoveTheBlocks) {
    std::string dir = ll::test::make_temp_dir();
    const std::string base = R"({"example":"conv-relu-conv","tab":"noc","noc":{"pes":4,"step":)";
    Image s0 = shot(dir, base + "0}}", "s0");
    Image s2 = shot(dir, base + "2}}", "s2");
    ASSERT_FALSE(s0.empty() || s2.empty());
    EXPECT_GT(ll::test::difference(s0, s2), 0.0005);
    // The NoC tab is a different picture from the strategies tab.
    Image strategies = shot(dir, R"({"example":"conv-relu-conv"})", "strat");
    EXPECT_GT(ll::test::difference(s0, strategies), 0.05);
}

TEST(GuiPlanning, BadScenesAreExit2) {
    std::string dir = ll::test::make_temp_dir();
    struct Bad {
        const char* scene;
        const char* expect;
    } bad[] = {
        {R"({"panel":"planning","colour":"red"})", "unknown key colour"},
        {R"({"panel":"planning","example":"nope"})", "nope"},
        {R"({"panel":"planning","graph":{"nodes":[{"name":"z","op":"Frob"}]}})", "'z'"},
        {R"({"panel":"planning","example":"conv-relu-conv","select":"a->b"})", "a->b"},
        {R"({"panel":"planning","example":"conv-relu-conv","strategy":"warp"})", "warp"},
        {R"({"panel":"planning","model":{"dram_gbps":-1}})", "bandwidth"},
        {R"({"panel":"planning","noc":{"pes":0}})", "noc"},
        {R"({"panel":"planning","noc":{"speed":2}})", "unknown key noc.speed"},
    };
    int k = 0;
    for (const auto& b : bad) {
        std::string js = dir + "/bad" + std::to_string(k++) + ".json";
        ll::test::run_shell("printf '%s' " + ll::test::shell_quote(b.scene) + " > " +
                            ll::test::shell_quote(js));
        auto r = ll::test::run_app("--scene " + js + " --screenshot " + dir + "/x.png");
        EXPECT_EQ(r.code, 2) << b.scene << "\n" << r.err;
        EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
        EXPECT_NE(r.err.find(b.expect), std::string::npos) << b.scene << "\n" << r.err;
        EXPECT_FALSE(ll::test::file_exists(dir + "/x.png"));
    }
}

// Real clicks: with conv2 selected on the edit tab, clicking "remove" takes
// conv2 out and propagation re-runs (the picture changes); clicking the
// mismatch label of the first edge switches to the strategies tab.
TEST(GuiPlanning, ClicksEditTheGraph) {
    std::string dir = ll::test::make_temp_dir();
    std::string scene = dir + "/edit.json";
    ll::test::run_shell(
        "printf '%s' " +
        ll::test::shell_quote(
            R"({"panel":"planning","example":"conv-chain","select_node":"conv2","tab":"edit"})") +
        " > " + ll::test::shell_quote(scene));
    // Where the layout put the remove button (the panel reports it).
    auto v = ll::test::run_app("--size 1400x900 --scene " + scene + " --screenshot " + dir +
                               "/v.png --dump-view " + dir + "/v.json");
    ASSERT_EQ(v.code, 0) << v.err;
    auto view = nlohmann::json::parse(ll::test::read_file(dir + "/v.json"));
    ASSERT_TRUE(view["probe"]["screen"]["remove"].is_array()) << view.dump();
    const auto& rm = view["probe"]["screen"]["remove"];
    const int cx = int((rm[0].get<float>() + rm[2].get<float>()) / 2),
              cy = int((rm[1].get<float>() + rm[3].get<float>()) / 2);
    auto d = ll::test::drive_app(dir, "--size 1400x900 --scene " + scene,
                                 "xdotool mousemove --window \"$wid\" 700 800; sleep 0.3\n"
                                 "shoot 0\n"
                                 "xdotool mousemove --window \"$wid\" " +
                                     std::to_string(cx) + " " + std::to_string(cy) +
                                     " click 1; sleep 0.8; shoot 1\n",
                                 2);
    ASSERT_EQ(d.run.code, 0) << d.run.err << d.run.out;
    const Image &a = d.shots[0], &b = d.shots[1];
    ASSERT_FALSE(a.empty() || b.empty());
    EXPECT_GT(ll::test::difference(a, b), 0.005) << "the remove click changed nothing";
}
