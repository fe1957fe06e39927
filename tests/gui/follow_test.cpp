// Follow one element, staged motion and compare mode under Xvfb: the pinned
// element's trail passes through the engine's offsets at every stage (in
// each stage's own frame, and in the main view at rest), hovering another
// cell never replaces the pin, waves hold back the later groups, and the
// compare panel shows both layouts with core's count of differing offsets.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "core/compare.hpp"
#include "core/format/format.hpp"
#include "core/format/format_plan.hpp"
#include "core/format/narrate.hpp"
#include "tests/support/gui.hpp"
#include "tests/support/png.hpp"
#include "tests/support/process.hpp"

using namespace ll;
using ll::test::Image;
using ll::test::load_png;
using ll::test::run_shell;
using ll::test::shell_quote;
using json = nlohmann::json;

namespace {

Plan nz_plan() {
    return format_plan({make_pipeline({Format::ND, Format::FRACTAL_NZ, {2, 2, 28}, DType::fp16})});
}

void write(const std::string& path, const json& j) {
    run_shell("printf '%s' " + shell_quote(j.dump()) + " > " + shell_quote(path));
}

bool close(const std::array<uint8_t, 4>& px, const Rgba8& want, int tol) {
    for (int c = 0; c < 3; ++c)
        if (std::abs(int(px[size_t(c)]) - int(want[size_t(c)])) > tol) return false;
    return true;
}

std::string rgb(const std::array<uint8_t, 4>& p) {
    return std::to_string(p[0]) + "," + std::to_string(p[1]) + "," + std::to_string(p[2]);
}

// Screen pixel of cell-unit point (x, y) in a dumped view.
std::pair<int, int> to_px(const json& v, float x, float y) {
    float zoom = v["zoom"], px = v["pan_x"], py = v["pan_y"];
    float ox = v["origin"][0], oy = v["origin"][1];
    return {int(std::lround(ox + (x - px) * zoom)), int(std::lround(oy + (y - py) * zoom))};
}

// Whether the cell at place q of a dumped view shows colour `want` at one of
// nine points (labels, printed numbers and the highlight cover parts of it).
bool cell_shows(const Image& im, const json& v, Place q, const Rgba8& want, int tol = 24) {
    for (float dx : {0.2f, 0.5f, 0.8f})
        for (float dy : {0.2f, 0.5f, 0.8f}) {
            auto [x, y] = to_px(v, q.x + dx, q.y + dy);
            if (x < 0 || y < 0 || x >= im.width || y >= im.height) continue;
            if (close(im.at(x, y), want, tol)) return true;
        }
    return false;
}

const json kNz = {{"from", "ND"},    {"to", "FRACTAL_NZ"},       {"shape", "2,2,28"},
                  {"dtype", "fp16"}, {"colour", "source-index"}, {"select", 19}};

}  // namespace

// ND (2,2,28) fp16 -> NZ, element 19 (source 31, (0,1,3)) pinned, at every
// stage: the strip's frame k marks the engine's offset of stage k (the
// marker's screen point maps back through that stage's grid to the offset,
// and the pixel there is the element's colour); the main view's marker sits
// on the element's cell of the stage in view; the narration is core's.
TEST(GuiFollow, TrailPassesThroughTheEngineOffsets) {
    const std::string dir = ll::test::make_temp_dir();
    Plan plan = nz_plan();
    const int64_t cell = 19;
    ASSERT_EQ(cell_of_source(plan, 31), cell);
    const Rgba8 want = cell_colour(plan, ColourMode::source_index, cell, 256);
    write(dir + "/pin.json", kNz);
    for (size_t k = 0; k < plan.stages.size(); ++k) {
        const std::string png = dir + "/s.png", js = dir + "/s.json";
        auto r =
            ll::test::run_app("--size 1600x1000 --scene " + dir + "/pin.json --stage " +
                              std::to_string(k) + " --screenshot " + png + " --dump-view " + js);
        ASSERT_EQ(r.code, 0) << r.err;
        json j = json::parse(ll::test::read_file(js)).at("probe");
        Image im = load_png(png);
        ASSERT_FALSE(im.empty());
        const json& f = j["follow"];
        ASSERT_EQ(f["pinned"], cell) << j.dump();
        EXPECT_EQ(f["source"], 31);
        EXPECT_EQ(f["narration"], narration(plan, cell));
        EXPECT_EQ(f["step"], narrate_step(plan, k, cell));
        ASSERT_EQ(f["trail"].size(), plan.stages.size());
        for (size_t s = 0; s < plan.stages.size(); ++s) {
            const json& m = f["trail"][s];
            const int64_t off = plan.offset_of(s, cell);
            EXPECT_EQ(m["offset"], off) << "stage " << s;
            float sc = m["scale"], gx = m["origin"][0], gy = m["origin"][1];
            float px = m["place"][0], py = m["place"][1];
            // The marker (cell centre) inverts through stage s's grid to the engine's offset.
            float cx = gx + (px + 0.5f) * sc, cy = gy + (py + 0.5f) * sc;
            EXPECT_EQ(offset_at(plan.stages[s].grid, (cx - gx) / sc, (cy - gy) / sc), off);
            Place q = cell_place(plan.stages[s].grid, off);
            EXPECT_FLOAT_EQ(px, q.x);
            EXPECT_FLOAT_EQ(py, q.y);
            ASSERT_GE(sc, 2.f) << "frame " << s << " too small to see a cell";
            // The frame draws the element's own colour where the marker is.
            auto got = im.at(int(cx), int(cy));
            EXPECT_TRUE(close(got, want, 24))
                << "frame " << s << " at " << cx << "," << cy << " got " << rgb(got);
            // Inside its frame.
            EXPECT_GT(cx, m["frame"][0].get<float>());
            EXPECT_LT(cx, m["frame"][2].get<float>());
        }
        // The main view (at rest on stage k): the marker is on the element's cell.
        ASSERT_TRUE(f["marker"].is_array()) << f.dump();
        const json& v = j["screen"][1];
        float zoom = v["zoom"];
        float mx = f["marker"][0], my = f["marker"][1];
        float ux = v["pan_x"].get<float>() + (mx - v["origin"][0].get<float>()) / zoom;
        float uy = v["pan_y"].get<float>() + (my - v["origin"][1].get<float>()) / zoom;
        EXPECT_EQ(offset_at(plan.stages[k].grid, ux, uy), plan.offset_of(k, cell)) << "stage " << k;
        Place q = cell_place(plan.stages[k].grid, plan.offset_of(k, cell));
        // Stage 2 (reshape, a 5-D grid): the grid's block tags ("b=0 m1=0
        // m0=1") are drawn on plates over each block's first cells and hide
        // this one; the marker's place is checked above.
        if (k == 2) continue;
        EXPECT_TRUE(cell_shows(im, v, q, Rgba8{255, 255, 255, 255}, 30) ||
                    cell_shows(im, v, q, want))
            << "stage " << k << ": the main view's marked cell shows neither the highlight "
            << "nor the element's colour";
    }
}

// The pin is a field too: no pin, no trail; a click elsewhere is tested
// below. A padding element is narrated as padding.
TEST(GuiFollow, NoPinNoTrail) {
    const std::string dir = ll::test::make_temp_dir();
    json s = kNz;
    s.erase("select");
    write(dir + "/n.json", s);
    auto r = ll::test::run_app("--size 1280x800 --scene " + dir + "/n.json --screenshot " + dir +
                               "/n.png --dump-view " + dir + "/n.json.out");
    ASSERT_EQ(r.code, 0) << r.err;
    json j = json::parse(ll::test::read_file(dir + "/n.json.out")).at("probe");
    EXPECT_TRUE(j["follow"].empty()) << j["follow"].dump();
    s["select"] = 40;  // padding
    write(dir + "/p.json", s);
    r = ll::test::run_app("--size 1280x800 --scene " + dir + "/p.json --screenshot " + dir +
                          "/p.png --dump-view " + dir + "/p.json.out");
    ASSERT_EQ(r.code, 0) << r.err;
    j = json::parse(ll::test::read_file(dir + "/p.json.out")).at("probe");
    EXPECT_EQ(j["follow"]["source"], -1);
    EXPECT_EQ(j["follow"]["narration"].get<std::string>().rfind("padding -> ", 0), 0u);
}

// The real mouse hovers another element while one is pinned: the pinned
// element stays highlighted (white) in the logical view and the hovered one
// is not; before the fix hovering replaced the pin.
TEST(GuiFollow, HoverNeverReplacesThePin) {
    const std::string dir = ll::test::make_temp_dir();
    Plan plan = nz_plan();
    json s = kNz;
    s["stage"] = "last";
    write(dir + "/h.json", s);
    auto r = ll::test::run_app("--size 1280x800 --scene " + dir + "/h.json --screenshot " + dir +
                               "/ref.png --dump-view " + dir + "/ref.json");
    ASSERT_EQ(r.code, 0) << r.err;
    json ref = json::parse(ll::test::read_file(dir + "/ref.json")).at("probe");
    // Hover cell 529 (batch 1, row 1, column 1: source 57) in the memory view.
    const int64_t other = 529;
    ASSERT_GE(plan.src[other], 0);
    const size_t last = plan.stages.size() - 1;
    Place q = cell_place(plan.stages[last].grid, plan.offset_of(last, other));
    auto [hx, hy] = to_px(ref["screen"][1], q.x + 0.5f, q.y + 0.5f);
    auto d = ll::test::drive_app(
        dir, "--size 1280x800 --scene " + dir + "/h.json",
        "xdotool mousemove --window \"$wid\" " + std::to_string(hx) + " " + std::to_string(hy) +
            "\nsleep 0.4\nxdotool mousemove --window \"$wid\" " + std::to_string(hx + 1) + " " +
            std::to_string(hy) + "\nsleep 0.6\nshoot 0\n",
        1);
    ASSERT_EQ(d.run.code, 0) << d.run.err << d.run.out;
    const Image& im = d.shots[0];
    ASSERT_FALSE(im.empty()) << d.run.err;
    const json& v0 = ref["screen"][0];
    Place pin = cell_place(plan.stages[0].grid, plan.offset_of(0, 19));
    Place hov = cell_place(plan.stages[0].grid, plan.offset_of(0, other));
    auto [px, py] = to_px(v0, pin.x + 0.5f, pin.y + 0.5f);
    auto [ox, oy] = to_px(v0, hov.x + 0.5f, hov.y + 0.5f);
    auto a = im.at(px, py), b = im.at(ox, oy);
    EXPECT_GT(std::min({a[0], a[1], a[2]}), 230) << "pinned cell not highlighted: " << rgb(a);
    EXPECT_LT(std::min({b[0], b[1], b[2]}), 200)
        << "the hovered cell took the highlight: " << rgb(b);
}

// Waves by block, a quarter into the step transpose -> memory (4 fractals,
// 4 waves; the last moves while t runs 0.6 -> 1): cells of the last fractal
// still sit at their transpose-stage place; without waves they have left.
TEST(GuiFollow, WavesHoldTheLaterBlocksBack) {
    const std::string dir = ll::test::make_temp_dir();
    Plan plan = nz_plan();
    json s = kNz;
    s.erase("select");
    s["waves"] = "block";
    write(dir + "/w.json", s);
    json n = s;
    n.erase("waves");
    write(dir + "/n.json", n);
    int same_w = 0, same_n = 0;
    for (int pass = 0; pass < 2; ++pass) {
        std::string sc = pass == 0 ? "w" : "n";
        auto r = ll::test::run_app("--size 1600x1000 --scene " + dir + "/" + sc +
                                   ".json --stage 3.25 --screenshot " + dir + "/" + sc +
                                   ".png --dump-view " + dir + "/" + sc + ".out");
        ASSERT_EQ(r.code, 0) << r.err;
        const json full = json::parse(ll::test::read_file(dir + "/" + sc + ".out"));
        json j = full.at("probe");
        if (pass == 0) {
            EXPECT_EQ(full["waves"], "block");  // a setting, saved beside the probe
        }
        Image im = load_png(dir + "/" + sc + ".png");
        ASSERT_FALSE(im.empty());
        const json& v = j["screen"][1];
        for (int64_t cell = 768; cell < 1024; ++cell) {
            if (plan.src[size_t(cell)] < 0) continue;
            Place q = cell_place(plan.stages[3].grid, plan.offset_of(3, cell));
            bool at = cell_shows(im, v, q, cell_colour(plan, ColourMode::source_index, cell, 256));
            (pass == 0 ? same_w : same_n) += at;
        }
    }
    // The last fractal holds 24 data cells (batch 1, columns 16..27, rows 0..1).
    EXPECT_GE(same_w, 20) << "with waves the last fractal's cells should wait at their place";
    EXPECT_LE(same_n, 2) << "without waves every cell has moved a quarter of the way";
}

// Compare NZ with ZN of the same tensor on one stage slider: both views side
// by side, the differing offsets counted by core.
TEST(GuiFollow, CompareTwoLayouts) {
    const std::string dir = ll::test::make_temp_dir();
    json a = {{"from", "ND"}, {"to", "FRACTAL_NZ"}, {"shape", "2,28"}, {"dtype", "fp16"}};
    json b = a;
    b["to"] = "FRACTAL_ZN";
    write(dir + "/c.json", {{"panel", "compare"}, {"a", a}, {"b", b}, {"stage", "last"}});
    auto r =
        ll::test::run_app("--panel compare --size 1600x1000 --scene " + dir +
                          "/c.json --screenshot " + dir + "/c.png --dump-view " + dir + "/c.out");
    ASSERT_EQ(r.code, 0) << r.err;
    json j = json::parse(ll::test::read_file(dir + "/c.out")).at("probe");
    Plan pa = format_plan({make_pipeline({Format::ND, Format::FRACTAL_NZ, {2, 28}, DType::fp16})});
    Plan pb = format_plan({make_pipeline({Format::ND, Format::FRACTAL_ZN, {2, 28}, DType::fp16})});
    LayoutDiff d = compare_layouts(pa, pb);
    EXPECT_EQ(j["diff"]["offset_differs"], d.offset_differs);
    EXPECT_EQ(j["diff"]["compared"], 56);
    EXPECT_EQ(j["diff"]["summary"], d.summary());
    const json& s = j["screen"];
    ASSERT_EQ(s.size(), 2u);
    EXPECT_LT(s[0]["origin"][0].get<float>() + 200, s[1]["origin"][0].get<float>());
    EXPECT_FLOAT_EQ(s[0]["origin"][1].get<float>(), s[1]["origin"][1].get<float>());
    // Element 1 (row 0, column 1) is a differing one: outlined on the memory
    // stage of A (the outline colour, not the cell's) at its cell's edge.
    Image im = load_png(dir + "/c.png");
    ASSERT_FALSE(im.empty());
    const size_t last = pa.stages.size() - 1;
    const int64_t c1 = cell_of_source(pa, 1);
    Place q = cell_place(pa.stages[last].grid, pa.offset_of(last, c1));
    auto [x, y] = to_px(s[0], q.x + 0.5f, q.y + 0.01f);
    auto px = im.at(x, y);
    EXPECT_FALSE(close(px, cell_colour(pa, ColourMode::source_index, c1, 256), 24))
        << "no outline on a differing cell: " << rgb(px);
    // A bad side is a usage error naming the key.
    write(dir + "/bad.json", {{"panel", "compare"}, {"a", {{"shape", "0,3"}}}});
    auto bad = ll::test::run_app("--panel compare --scene " + dir + "/bad.json --screenshot " +
                                 dir + "/bad.png");
    EXPECT_EQ(bad.code, 2) << bad.err;
    EXPECT_EQ(bad.err.rfind("error: ", 0), 0u) << bad.err;
}

// LoadData: the source buffer and the destination side by side.
TEST(GuiFollow, LoadDataSourceAndDestinationSideBySide) {
    const std::string dir = ll::test::make_temp_dir();
    write(dir + "/l.json", {{"panel", "loaddata"}, {"stage", 1.0}});
    auto r =
        ll::test::run_app("--panel loaddata --size 1600x1000 --scene " + dir +
                          "/l.json --screenshot " + dir + "/l.png --dump-view " + dir + "/l.out");
    ASSERT_EQ(r.code, 0) << r.err;
    json j = json::parse(ll::test::read_file(dir + "/l.out")).at("probe");
    const json& s = j["screen"];
    ASSERT_TRUE(s.contains("source_view")) << s.dump();
    float sx = s["source_view"]["origin"][0], dx = s["view"]["origin"][0];
    float sw = s["source_view"]["size"][0];
    EXPECT_LE(sx + sw, dx) << "the source should sit left of the destination";
    EXPECT_GT(sw, 300.f);
    EXPECT_GT(s["view"]["size"][0].get<float>(), 300.f);
}
