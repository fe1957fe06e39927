// Shared by the GUI tests that read the labels a panel drew from its
// --dump-view probe ({"text", "kind", "rect": [x, y, w, h]} each, see
// app/render/grid_labels.hpp): open a panel from a scene file and dump it,
// check every label stands whole inside its canvas and apart from the others,
// and find labels by kind and text.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/gui.hpp"
#include "tests/support/process.hpp"

namespace ll::test {

// The five looks of a screenshot round: desk, projector, projector
// presenting, projector in Chinese, desk presenting in Chinese.
inline const char* const kFiveLooks[] = {
    "--size 1600x1000 --lang en",
    "--size 1024x768 --ui-scale 1.5 --theme light --lang en",
    "--size 1024x768 --ui-scale 1.5 --theme light --lang en --present",
    "--size 1024x768 --ui-scale 1.5 --theme light --lang zh",
    "--size 1600x1000 --lang zh --present",
};
// A projector: 1024x768 at UI scale 1.5 in the light theme.
inline const char* const kProjectorLook = "--size 1024x768 --ui-scale 1.5 --theme light";
// The two looks a label test checks: the desk and the projector.
inline const char* const kTwoLooks[] = {"--size 1600x1000", kProjectorLook};

// The screen position of a cell coordinate in one view of the explorer's
// probe (its "screen" entries: origin, zoom, pan_x, pan_y).
struct CellToScreen {
    float ox, oy, zoom, pan_x, pan_y;
    explicit CellToScreen(const nlohmann::json& s)
        : ox(s["origin"][0]),
          oy(s["origin"][1]),
          zoom(s["zoom"]),
          pan_x(s["pan_x"]),
          pan_y(s["pan_y"]) {}
    float x(float cx) const { return ox + (cx - pan_x) * zoom; }
    float y(float cy) const { return oy + (cy - pan_y) * zoom; }
};

// Runs the app with `args`, a screenshot and --dump-text; the report (null
// on failure, which is also a test failure).
inline nlohmann::json dump_text(const std::string& dir, const std::string& args) {
    const std::string png = dir + "/t.png", js = dir + "/t.json";
    auto r = run_app(args + " --screenshot " + png + " --dump-text " + js);
    EXPECT_EQ(r.code, 0) << args << ": " << r.err;
    if (r.code != 0) return nlohmann::json();
    return nlohmann::json::parse(read_file(js));
}

// The lines --dump-text found cut by their column, pane or window edge.
inline nlohmann::json cut_lines(const std::string& dir, const std::string& args) {
    const nlohmann::json j = dump_text(dir, args);
    if (!j.is_object()) return nlohmann::json::array();
    EXPECT_TRUE(j.contains("cut")) << j.dump();
    return j.contains("cut") ? j["cut"] : nlohmann::json::array();
}

// WCAG 2 contrast ratio of two sRGB colours [r, g, b, ...] (1 .. 21).
inline double contrast(const nlohmann::json& a, const nlohmann::json& b) {
    auto lum = [](const nlohmann::json& c) {
        auto lin = [](double v) {
            v /= 255;
            return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
        };
        return 0.2126 * lin(c[0].get<double>()) + 0.7152 * lin(c[1].get<double>()) +
               0.0722 * lin(c[2].get<double>());
    };
    double la = lum(a), lb = lum(b);
    if (la < lb) std::swap(la, lb);
    return (la + 0.05) / (lb + 0.05);
}

// The light theme's window background.
inline const nlohmann::json kLightWindow = {240, 240, 240};

// Every line of words the light-theme window drew (--dump-text's "ink": text
// and colour; lines of digits only are cell numbers on coloured cells, left
// out) keeps 4.5:1 against the window's background.
inline void expect_legible_on_light(const std::string& dir, const std::string& args) {
    const nlohmann::json j = dump_text(dir, args);
    ASSERT_TRUE(j.is_object()) << args;
    ASSERT_TRUE(j.contains("ink")) << j.dump();
    ASSERT_GT(j["ink"].size(), 3u) << args;
    for (const nlohmann::json& l : j["ink"]) {
        const std::string t = l["text"];
        if (t.find_first_not_of("0123456789 .-") == std::string::npos) continue;
        EXPECT_GE(contrast(l["rgba"], kLightWindow), 4.5) << args << ": " << l.dump();
    }
}

// Runs the app with `args`, a screenshot and --dump-view; the dump (null on
// failure, which is also a test failure).
inline nlohmann::json dump_view(const std::string& dir, const std::string& args) {
    const std::string png = dir + "/shot.png", js = dir + "/dump.json";
    auto r = run_app(args + " --screenshot " + png + " --dump-view " + js);
    EXPECT_EQ(r.code, 0) << r.err;
    if (r.code != 0) return nlohmann::json();
    return nlohmann::json::parse(read_file(js));
}

// Opens `panel` from a scene file holding `settings` (its "panel" key set
// here) in window `look` (plus `extra` flags) and returns the dump.
inline nlohmann::json dump_scene(const std::string& dir, const std::string& panel,
                                 nlohmann::json settings, const std::string& look,
                                 const std::string& extra = "") {
    settings["panel"] = panel;
    const std::string scene = dir + "/" + panel + "-scene.json";
    run_shell("cat > " + shell_quote(scene) + " <<'EOF_JSON'\n" + settings.dump() + "\nEOF_JSON\n");
    return dump_view(dir, look + " " + extra + " --scene " + shell_quote(scene));
}

// Every label of `labels` inside the canvas [x, y, w, h] (half a pixel of
// slack) and none over another.
inline void expect_unclipped_and_apart(const nlohmann::json& labels, float ox, float oy, float w,
                                       float h) {
    struct Rect {
        float x, y, w, h;
    };
    std::vector<Rect> seen;
    for (const auto& l : labels) {
        const Rect r{l["rect"][0], l["rect"][1], l["rect"][2], l["rect"][3]};
        EXPECT_GE(r.x, ox - 0.5f) << l.dump();
        EXPECT_GE(r.y, oy - 0.5f) << l.dump();
        EXPECT_LE(r.x + r.w, ox + w + 0.5f) << l.dump();
        EXPECT_LE(r.y + r.h, oy + h + 0.5f) << l.dump();
        for (const Rect& q : seen)
            EXPECT_FALSE(r.x + 0.5f < q.x + q.w && q.x + 0.5f < r.x + r.w &&
                         r.y + 0.5f < q.y + q.h && q.y + 0.5f < r.y + r.h)
                << "overlap: " << l.dump();
        seen.push_back(r);
    }
}
// The same with the canvas as a JSON [x, y, w, h].
inline void expect_unclipped_and_apart(const nlohmann::json& labels, const nlohmann::json& canvas) {
    expect_unclipped_and_apart(labels, canvas[0], canvas[1], canvas[2], canvas[3]);
}

// Label texts of one kind, in drawing order.
inline std::vector<std::string> label_texts(const nlohmann::json& labels, const std::string& kind) {
    std::vector<std::string> out;
    for (const auto& l : labels)
        if (l["kind"] == kind) out.push_back(l["text"]);
    return out;
}

// How many of `texts` read `text`.
inline int count_of(const std::vector<std::string>& texts, const std::string& text) {
    return int(std::count(texts.begin(), texts.end(), text));
}

// How many labels of `kind` read `text`.
inline int count_label(const nlohmann::json& labels, const std::string& kind,
                       const std::string& text) {
    return count_of(label_texts(labels, kind), text);
}

// The slide tests' short names for the above: `using namespace
// ll::test::slide_checks;`.
namespace slide_checks {
constexpr auto& kLooks = kFiveLooks;
inline const char* const kProjector = kProjectorLook;
using ll::test::contrast;
using ll::test::cut_lines;
using ll::test::dump_text;
using ll::test::kLightWindow;
}  // namespace slide_checks

}  // namespace ll::test
