// Type on slides (issue 13: "cells grow, not only text"): in presentation
// mode at 1600x1000 the fit makes cells of up to 192 px, and the grid labels
// (axis names, ticks, tags, addresses) grow with them instead of staying at
// the body size; they still stay inside the canvas and apart. At the desk
// (1600x1000) and the projector (1024x768, UI scale 1.5, light theme) in
// normal mode the labels keep the body size. Checked through --dump-view's
// label rectangles.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/gui.hpp"
#include "tests/support/process.hpp"

namespace {

struct Rect {
    float x = 0, y = 0, w = 0, h = 0;
};

// One view's labels and the canvas they must stay in.
struct View {
    std::string where;
    Rect canvas;
    std::vector<Rect> labels;
    std::vector<std::string> kinds, texts;
};

nlohmann::json dump(const std::string& dir, const std::string& args) {
    const std::string png = dir + "/s.png", js = dir + "/s.json";
    auto r = ll::test::run_app(args + " --screenshot " + png + " --dump-view " + js);
    EXPECT_EQ(r.code, 0) << r.err;
    if (r.code != 0) return nlohmann::json();
    return nlohmann::json::parse(ll::test::read_file(js), nullptr, false);
}

// Every object under the probe with a "labels" list is a view; its canvas is
// its origin and size when it says, else the slide (presentation mode) or
// the window.
void collect(const nlohmann::json& o, const Rect& outer, const std::string& where,
             std::vector<View>& out) {
    if (o.is_array()) {
        for (size_t i = 0; i < o.size(); ++i)
            collect(o[i], outer, where + "[" + std::to_string(i) + "]", out);
        return;
    }
    if (!o.is_object()) return;
    if (o.contains("labels") && o["labels"].is_array()) {
        View v;
        v.where = where;
        v.canvas = outer;
        if (o.contains("origin") && o.contains("size"))
            v.canvas = Rect{o["origin"][0], o["origin"][1], o["size"][0], o["size"][1]};
        for (const auto& l : o["labels"]) {
            v.labels.push_back(Rect{l["rect"][0], l["rect"][1], l["rect"][2], l["rect"][3]});
            v.kinds.push_back(l["kind"]);
            v.texts.push_back(l["text"]);
        }
        out.push_back(v);
    }
    for (auto it = o.begin(); it != o.end(); ++it)
        if (it.key() != "labels") collect(it.value(), outer, where + "." + it.key(), out);
}

std::vector<View> views_of(const nlohmann::json& j) {
    std::vector<View> out;
    if (!j.is_object() || !j.contains("probe")) return out;
    Rect outer{0, 0, j["window"][0], j["window"][1]};
    if (j.contains("slide"))
        outer = Rect{j["slide"][0], j["slide"][1],
                     j["slide"][2].get<float>() - j["slide"][0].get<float>(),
                     j["slide"][3].get<float>() - j["slide"][1].get<float>()};
    collect(j["probe"], outer, "probe", out);
    return out;
}

// Every label inside its canvas, no two over each other.
void expect_apart_and_inside(const std::vector<View>& views) {
    for (const View& v : views) {
        const Rect& c = v.canvas;
        for (size_t i = 0; i < v.labels.size(); ++i) {
            const Rect& a = v.labels[i];
            EXPECT_GE(a.x, c.x - 0.5f) << v.where << " " << v.texts[i];
            EXPECT_GE(a.y, c.y - 0.5f) << v.where << " " << v.texts[i];
            EXPECT_LE(a.x + a.w, c.x + c.w + 0.5f) << v.where << " " << v.texts[i];
            EXPECT_LE(a.y + a.h, c.y + c.h + 0.5f) << v.where << " " << v.texts[i];
            for (size_t k = i + 1; k < v.labels.size(); ++k) {
                const Rect& b = v.labels[k];
                const float ox = std::min(a.x + a.w, b.x + b.w) - std::max(a.x, b.x);
                const float oy = std::min(a.y + a.h, b.y + b.h) - std::max(a.y, b.y);
                EXPECT_FALSE(ox > 0.5f && oy > 0.5f)
                    << v.where << ": '" << v.texts[i] << "' over '" << v.texts[k] << "'";
            }
        }
    }
}

// The smallest and largest height of the labels that are drawn at the full
// label size (block tags may shrink to fit their block).
struct Heights {
    float lo = 1e9f, hi = 0;
    int count = 0;
};
Heights heights(const std::vector<View>& views) {
    Heights h;
    for (const View& v : views)
        for (size_t i = 0; i < v.labels.size(); ++i) {
            if (v.kinds[i] == "tag") continue;
            h.lo = std::min(h.lo, v.labels[i].h);
            h.hi = std::max(h.hi, v.labels[i].h);
            ++h.count;
        }
    return h;
}

struct Case {
    const char* name;
    std::string args;
    float grow;  // the least label height on the slide, times the body size
};

}  // namespace

TEST(GuiSlideType, BigCellsOnASlideGetBigLabelsInsideAndApart) {
    const std::string dir = ll::test::make_temp_dir();
    // The source grid of a 3x5 matrix fills the slide with 192 px cells; the
    // Cube's A/B/C fractals are about 100 px.
    const Case cases[] = {
        {"explorer",
         "--panel explorer --from ND --to FRACTAL_NZ --shape 3,5 --dtype fp16 --stage 0", 1.8f},
        {"cube", "--panel cube", 1.25f},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        // The body size: the same scene at the desk, where cells stay small.
        const std::vector<View> desk = views_of(dump(dir, c.args + " --size 1600x1000"));
        const Heights body = heights(desk);
        ASSERT_GT(body.count, 4);
        EXPECT_NEAR(body.lo, body.hi, 0.5f) << "one size at the desk";
        expect_apart_and_inside(desk);

        const std::vector<View> slide = views_of(dump(dir, c.args + " --size 1600x1000 --present"));
        const Heights big = heights(slide);
        ASSERT_GT(big.count, 4) << "the slide lost its labels";
        EXPECT_GE(big.lo, body.hi * c.grow)
            << "labels on the slide " << big.lo << " px, at the desk " << body.hi << " px";
        // Never more than the scale's cap (label_scale.hpp: 2.2).
        EXPECT_LE(big.hi, body.hi * 2.2f + 1.f);
        expect_apart_and_inside(slide);

        // The projector, normal mode: the body size at UI scale 1.5, nothing
        // grown, still inside and apart.
        const std::vector<View> proj =
            views_of(dump(dir, c.args + " --size 1024x768 --ui-scale 1.5 --theme light"));
        const Heights p = heights(proj);
        ASSERT_GT(p.count, 2);
        EXPECT_NEAR(p.lo, p.hi, 0.5f);
        EXPECT_NEAR(p.hi, body.hi * 1.5f, 1.f) << "projector labels " << p.hi << " px";
        expect_apart_and_inside(proj);
    }
}
