// Lessons in the window (--lesson): every slide of every bundled lesson
// renders (--slide N --screenshot), the clicker keys move between slides and
// N hides the notes, --record on a lesson records every slide into one clip,
// and bad lessons or flags are refused before a window shows.
#include <gtest/gtest.h>

#include <dirent.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/lesson/lesson.hpp"
#include "tests/support/gui.hpp"
#include "tests/support/png.hpp"
#include "tests/support/process.hpp"

using ll::test::Image;
using ll::test::load_png;
using ll::test::make_temp_dir;
using ll::test::run_app;
using ll::test::shell_quote;

namespace {

std::string lessons_dir() {
    return std::string(LAYOUTLAB_SOURCE_DIR) + "/assets/lessons";
}

std::string write(const std::string& dir, const std::string& name, const std::string& body) {
    const std::string path = dir + "/" + name;
    std::ofstream(path, std::ios::binary) << body;
    return path;
}

int count_files(const std::string& dir) {
    int n = 0;
    if (DIR* d = opendir(dir.c_str())) {
        while (dirent* e = readdir(d))
            if (e->d_name[0] != '.') ++n;
        closedir(d);
    }
    return n;
}

}  // namespace

TEST(LessonWindow, EverySlideOfEveryBundledLessonRenders) {
    const std::string dir = make_temp_dir();
    int lessons = 0;
    for (const auto& e : std::filesystem::directory_iterator(lessons_dir())) {
        if (e.path().extension() != ".json") continue;
        ++lessons;
        const auto l = ll::lesson::read_lesson_file(e.path().string(), "--lesson");
        Image previous;
        for (size_t i = 1; i <= l.slides.size(); ++i) {
            const std::string png =
                dir + "/" + e.path().stem().string() + "-" + std::to_string(i) + ".png";
            auto r = run_app("--lesson " + shell_quote(e.path().string()) + " --slide " +
                             std::to_string(i) + " --size 1280x720 --screenshot " + png);
            ASSERT_EQ(r.code, 0) << e.path() << " slide " << i << ": " << r.err;
            const Image im = load_png(png);
            ASSERT_EQ(im.width, 1280) << png;
            ASSERT_EQ(im.height, 720) << png;
            // A picture, not a blank or one-colour frame.
            EXPECT_GT(ll::test::distinct_colours(im), 12) << png;
            // Each slide shows something else than the one before.
            if (!previous.rgba.empty()) {
                EXPECT_GT(ll::test::difference(im, previous), 0.01) << png;
            }
            previous = im;
        }
    }
    EXPECT_EQ(lessons, 3);
}

TEST(LessonWindow, ClickerKeysMoveBetweenSlidesAndNHidesTheNotes) {
    const std::string dir = make_temp_dir();
    const std::string lesson = lessons_dir() + "/fractal_formats.json";
    // References: slides 1 and 2 as --slide renders them.
    auto r1 = run_app("--lesson " + lesson + " --slide 1 --size 1024x700 --screenshot " + dir +
                      "/ref1.png");
    auto r2 = run_app("--lesson " + lesson + " --slide 2 --size 1024x700 --screenshot " + dir +
                      "/ref2.png");
    ASSERT_EQ(r1.code, 0) << r1.err;
    ASSERT_EQ(r2.code, 0) << r2.err;
    auto d = ll::test::drive_app(dir, "--lesson " + lesson + " --size 1024x700", R"SH(
xdotool mousemove 1 1
sleep 6; shoot 0
xdotool key Next; sleep 1.5; shoot 1
xdotool key Prior; sleep 6; shoot 2
xdotool key Right; sleep 1; xdotool key n; sleep 1; shoot 3
)SH",
                                 4);
    ASSERT_EQ(d.run.code, 0) << d.run.err;
    for (const Image& s : d.shots) ASSERT_FALSE(s.rgba.empty());
    const Image ref1 = load_png(dir + "/ref1.png"), ref2 = load_png(dir + "/ref2.png");
    // PageDown shows slide 2 (a still slide: as --slide 2 renders it). The
    // pointer rests in a corner: over small cells it would open the magnifier.
    EXPECT_LT(ll::test::difference(d.shots[1], ref2), 0.02);
    EXPECT_GT(ll::test::difference(d.shots[1], d.shots[0]), 0.02);
    // PageUp returns to slide 1, which plays its range to the end.
    EXPECT_GT(ll::test::difference(d.shots[2], d.shots[1]), 0.02);
    // Right is a clicker's next too; N hides the strip, the picture takes its place.
    EXPECT_GT(ll::test::difference(d.shots[3], d.shots[1]), 0.02);
    (void)ref1;
}

TEST(LessonWindow, RecordingALessonRecordsEverySlide) {
    const std::string dir = make_temp_dir();
    // Slide 1 plays stages 0..2 at 1 stage/s; slide 2 is still, held 1.5 s.
    // At 4 fps: 2 * 4 + 1 = 9 frames, then 6 frames: 15 in all.
    const std::string lesson = write(dir, "small.json", R"({
      "slides": [
        {"title": "NZ", "notes": "pad, reshape, transpose",
         "scene": {"panel": "explorer", "from": "ND", "to": "FRACTAL_NZ", "shape": "2,2,28",
                   "dtype": "fp16", "speed": 1}, "play": "0..2"},
        {"title": "Tiling", "notes": {"en": "still", "zh": "静止"},
         "scene": {"panel": "tiling", "layout": "NHWC"}, "hold": 1.5}
      ]})");
    auto r = run_app("--lesson " + lesson + " --size 640x400 --fps 4 --frames " + dir + "/frames");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(count_files(dir + "/frames"), 15) << r.out;
    EXPECT_NE(r.out.find("15 frames"), std::string::npos) << r.out;
    // The last frame of slide 1 and the first of slide 2 show different panels.
    const Image a = load_png(dir + "/frames/frame-00008.png");
    const Image b = load_png(dir + "/frames/frame-00009.png");
    EXPECT_GT(ll::test::difference(a, b), 0.05);
    // --hold applies to still slides without their own hold: 4 fps x 1 s.
    const std::string lesson2 = write(dir, "still.json", R"({
      "slides": [{"title": "A", "notes": "a", "scene": {"panel": "tiling"}},
                 {"title": "B", "notes": "b", "scene": {"panel": "explorer"}}]})");
    r = run_app("--lesson " + lesson2 + " --size 640x400 --fps 4 --hold 1 --frames " + dir +
                "/frames2");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(count_files(dir + "/frames2"), 8);
}

TEST(LessonWindow, BadLessonsAndFlagsAreRefused) {
    const std::string dir = make_temp_dir();
    const std::string good = lessons_dir() + "/tiling_order.json";
    struct Case {
        std::string args, expect;
    };
    const std::string no_panel = write(dir, "p.json", R"({"slides": [
        {"title": "A", "notes": "a", "scene": {}},
        {"title": "B", "notes": "b", "scene": {"panel": "nope"}}]})");
    const std::string bad_scene = write(dir, "s.json", R"({"slides": [
        {"title": "A", "notes": "a", "scene": {"panel": "tiling", "layout": "XYZ"}}]})");
    const std::string bad_play = write(dir, "r.json", R"({"slides": [
        {"title": "A", "notes": "a", "scene": {"panel": "explorer", "from": "ND",
         "to": "FRACTAL_NZ", "shape": "2,2,28"}, "play": "0..99"}]})");
    const std::string no_notes =
        write(dir, "n.json", R"({"slides": [{"title": "A", "scene": {}}]})");
    const Case cases[] = {
        {"--lesson " + no_panel + " --screenshot " + dir + "/x.png",
         "slide 2 (\"B\"): scene.panel: 'nope' is not a panel"},
        {"--lesson " + bad_scene + " --screenshot " + dir + "/x.png",
         "slide 1 (\"A\"): scene: tiling scene: layout = \"XYZ\""},
        {"--lesson " + bad_play + " --record " + dir + "/x.mp4",
         "slide 1 (\"A\"): play: 0..99 is outside the animation"},
        {"--lesson " + no_notes + " --screenshot " + dir + "/x.png",
         "slide 1 (\"A\"): notes: missing"},
        {"--lesson " + good + " --slide 9 --screenshot " + dir + "/x.png",
         "--slide: 9 is not a slide; expected 1..5"},
        {"--lesson " + good + " --shape 2,2 --screenshot " + dir + "/x.png", "scene flags"},
        {"--lesson " + good + " --panel tiling", "expected no --scene or --panel"},
        {"--lesson " + good + " --hold 0.1 --record " + dir + "/x.mp4", "--hold"},
        {"--slide 2 --screenshot " + dir + "/x.png", "--slide: needs --lesson"},
        {"--lesson " + dir + "/missing.json", "--lesson"},
    };
    for (const Case& c : cases) {
        auto r = run_app(c.args);
        EXPECT_EQ(r.code, 2) << c.args << "\n" << r.err;
        EXPECT_NE(r.err.find("error: "), std::string::npos) << r.err;
        EXPECT_NE(r.err.find(c.expect), std::string::npos) << c.args << "\n" << r.err;
    }
    EXPECT_FALSE(ll::test::file_exists(dir + "/x.png"));
    EXPECT_FALSE(ll::test::file_exists(dir + "/x.mp4"));
}

TEST(LessonWindow, SigtermDuringARecordingLeavesNoPartFile) {
    const std::string dir = make_temp_dir();
    // A long recording (two still slides of 60 s at 30 fps) killed once its
    // "<name>.part" exists: the handler removes the partial file. A GIF opens
    // its ".part" only in pass 2, after all 3,600 frames are drawn and
    // counted (16 s in Release here; over 30 s under ASan beside other GUI
    // tests, where a 30 s wait once failed CI), so the wait is up to 150 s.
    const std::string lesson = write(dir, "long.json", R"({"hold": 60, "slides": [
        {"title": "A", "notes": "a", "scene": {"panel": "tiling"}},
        {"title": "B", "notes": "b", "scene": {"panel": "explorer"}}]})");
    for (const char* ext : {"mp4", "gif"}) {
        const std::string out = dir + "/long." + ext;
        const std::string script =
            ll::test::app_exe() + " --no-config --lesson " + lesson + " --size 320x200 --record " +
            out + " & pid=$!; i=0; while [ ! -e " + out +
            ".part ] && [ $i -lt 1500 ]; do sleep 0.1; i=$((i+1)); done; [ -e " + out +
            ".part ] && echo started; kill -TERM $pid; wait $pid; echo rc=$?";
        auto r = ll::test::run_shell(ll::test::xvfb(200) + "sh -c " + shell_quote(script));
        EXPECT_NE(r.out.find("started"), std::string::npos) << r.out << r.err;
        EXPECT_NE(r.out.find("rc=143"), std::string::npos) << r.out << r.err;
        EXPECT_FALSE(ll::test::file_exists(out + ".part")) << ext;
        EXPECT_FALSE(ll::test::file_exists(out)) << ext;
    }
}
