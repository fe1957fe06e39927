// The planning panel at prepared states (scene files): every example graph
// renders, the mismatch marker colour appears exactly when a mismatch does,
// picking another strategy changes the picture, the NoC animation moves, and
// bad scenes are usage errors.
#include <gtest/gtest.h>

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
        {R"({"panel":"planning","colour":"red"})", "'colour'"},
        {R"({"panel":"planning","example":"nope"})", "nope"},
        {R"({"panel":"planning","graph":{"nodes":[{"name":"z","op":"Frob"}]}})", "'z'"},
        {R"({"panel":"planning","example":"conv-relu-conv","select":"a->b"})", "a->b"},
        {R"({"panel":"planning","example":"conv-relu-conv","strategy":"warp"})", "warp"},
        {R"({"panel":"planning","model":{"dram_gbps":-1}})", "bandwidth"},
        {R"({"panel":"planning","noc":{"pes":0}})", "noc"},
        {R"({"panel":"planning","noc":{"speed":2}})", "'speed'"},
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
    std::string script = R"SH(
set -u
D="$1"; EXE="$2"; S="$3"
"$EXE" --no-config --size 1400x900 --scene "$S" --screenshot-on-signal "$D" &
pid=$!
wid=$(timeout 20 xdotool search --sync --onlyvisible --name LayoutLab | head -n1)
[ -n "$wid" ] || { kill $pid; echo "no window" >&2; exit 3; }
xdotool windowfocus --sync "$wid" 2>/dev/null || true
xdotool mousemove --window "$wid" 700 800
sleep 0.5
shoot() {
  kill -USR1 $pid
  for i in $(seq 100); do [ -f "$D/shot-$1.png" ] && return 0; sleep 0.1; done
  echo "no shot $1" >&2
}
shoot 0
xdotool mousemove --window "$wid" 570 383 click 1; sleep 0.8; shoot 1
kill $pid; wait $pid
exit 0
)SH";
    std::string sh = dir + "/click.sh";
    ll::test::run_shell("cat > " + ll::test::shell_quote(sh) + " <<'EOF_SCRIPT'\n" + script +
                        "EOF_SCRIPT\n");
    auto r = ll::test::run_shell(std::string(ll::test::kXvfb) + "sh " + ll::test::shell_quote(sh) +
                                 " " + ll::test::shell_quote(dir) + " " + ll::test::app_exe() +
                                 " " + ll::test::shell_quote(scene));
    ASSERT_EQ(r.code, 0) << r.err << r.out;
    Image a = ll::test::load_png(dir + "/shot-0.png"), b = ll::test::load_png(dir + "/shot-1.png");
    ASSERT_FALSE(a.empty() || b.empty());
    EXPECT_GT(ll::test::difference(a, b), 0.005) << "the remove click changed nothing";
}
