// Recording (--record, --frames) under Xvfb: the files are read back with
// libavformat/libavcodec (frame count, size, codec), a frame in the middle is
// compared with --screenshot at the same stage, and bad paths leave nothing.
//
// The known scene: ND -> FRACTAL_NZ of the documents' (2,2,28) fp16 at 1 stage
// per second, 5 stages (0..4); at 4 fps frame i shows stage i / 4, so the clip
// has 4 * 4 + 1 = 17 frames and frame 8 is stage 2.
extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libswscale/swscale.h>
}
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/support/gui.hpp"
#include "tests/support/png.hpp"
#include "tests/support/process.hpp"

using ll::test::file_exists;
using ll::test::Image;
using ll::test::load_png;
using ll::test::make_temp_dir;
using ll::test::run_app;

namespace {

const char* kScene =
    R"({"from": "ND", "to": "FRACTAL_NZ", "shape": "2,2,28", "dtype": "fp16", "speed": 1})";

std::string write_scene(const std::string& dir) {
    std::string path = dir + "/nz.json";
    std::ofstream(path) << kScene;
    return path;
}

struct Clip {
    std::string codec;
    int width = 0, height = 0;
    int frames = 0;  // decoded
    Image frame;     // the frame asked for, as RGBA
};

// Decodes every frame of a file, keeping frame `keep`; empty codec on failure.
Clip read_clip(const std::string& path, int keep) {
    Clip c;
    AVFormatContext* fmt = nullptr;
    if (avformat_open_input(&fmt, path.c_str(), nullptr, nullptr) < 0) return c;
    avformat_find_stream_info(fmt, nullptr);
    int si = av_find_best_stream(fmt, AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
    if (si < 0) {
        avformat_close_input(&fmt);
        return c;
    }
    const AVCodecParameters* par = fmt->streams[si]->codecpar;
    const AVCodec* dec = avcodec_find_decoder(par->codec_id);
    AVCodecContext* ctx = avcodec_alloc_context3(dec);
    avcodec_parameters_to_context(ctx, par);
    avcodec_open2(ctx, dec, nullptr);
    c.codec = avcodec_get_name(par->codec_id);
    c.width = par->width;
    c.height = par->height;
    AVPacket* pkt = av_packet_alloc();
    AVFrame* f = av_frame_alloc();
    auto take = [&] {
        while (avcodec_receive_frame(ctx, f) >= 0) {
            if (c.frames == keep) {
                c.frame.width = f->width;
                c.frame.height = f->height;
                c.frame.rgba.assign(size_t(f->width) * size_t(f->height) * 4, 0);
                SwsContext* sws = sws_getContext(
                    f->width, f->height, AVPixelFormat(f->format), f->width, f->height,
                    AV_PIX_FMT_RGBA, SWS_BICUBIC | SWS_ACCURATE_RND, nullptr, nullptr, nullptr);
                if (f->colorspace == AVCOL_SPC_BT709)
                    sws_setColorspaceDetails(sws, sws_getCoefficients(SWS_CS_ITU709), 0,
                                             sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16,
                                             1 << 16);
                uint8_t* dst[4] = {c.frame.rgba.data(), nullptr, nullptr, nullptr};
                int stride[4] = {f->width * 4, 0, 0, 0};
                sws_scale(sws, f->data, f->linesize, 0, f->height, dst, stride);
                sws_freeContext(sws);
            }
            ++c.frames;
        }
    };
    while (av_read_frame(fmt, pkt) >= 0) {
        if (pkt->stream_index == si && avcodec_send_packet(ctx, pkt) >= 0) take();
        av_packet_unref(pkt);
    }
    avcodec_send_packet(ctx, nullptr);
    take();
    av_frame_free(&f);
    av_packet_free(&pkt);
    avcodec_free_context(&ctx);
    avformat_close_input(&fmt);
    return c;
}

// Mean absolute difference per colour channel (255 when the sizes differ).
double mean_abs(const Image& a, const Image& b) {
    if (a.width != b.width || a.height != b.height || a.empty()) return 255;
    double sum = 0;
    for (size_t i = 0; i < a.rgba.size(); ++i)
        if (i % 4 != 3) sum += std::abs(int(a.rgba[i]) - int(b.rgba[i]));
    return sum / (double(a.rgba.size()) * 0.75);
}

}  // namespace

// A lossless recording is the window itself: frame 8 of the PNG frames is
// pixel for pixel the screenshot of stage 2.
TEST(GuiRecord, FramesFolderHoldsEveryFrameAndMatchesTheScreenshot) {
    std::string dir = make_temp_dir(), scene = write_scene(dir);
    auto r = run_app("--scene " + scene + " --size 1280x720 --fps 4 --frames " + dir + "/f");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("17 frames"), std::string::npos) << r.out;
    for (int i = 0; i < 17; ++i) {
        char name[32];
        std::snprintf(name, sizeof name, "/f/frame-%05d.png", i);
        EXPECT_TRUE(file_exists(dir + name)) << name;
    }
    EXPECT_FALSE(file_exists(dir + "/f/frame-00017.png"));
    auto s =
        run_app("--scene " + scene + " --size 1280x720 --stage 2 --screenshot " + dir + "/s2.png");
    ASSERT_EQ(s.code, 0) << s.err;
    Image mid = load_png(dir + "/f/frame-00008.png"), shot = load_png(dir + "/s2.png");
    ASSERT_FALSE(mid.empty());
    EXPECT_EQ(ll::test::difference(mid, shot), 0.0);
    // The clip moves: its first and last frames differ from the middle.
    EXPECT_GT(ll::test::difference(load_png(dir + "/f/frame-00000.png"), mid), 0.01);
    EXPECT_GT(ll::test::difference(load_png(dir + "/f/frame-00016.png"), mid), 0.01);
}

// MP4, GIF and WebM read back with libavformat: codec, size, frame count,
// and the middle frame close to the screenshot of its stage (and clearly
// farther from the screenshot of the stage before).
TEST(GuiRecord, VideoFilesHaveTheFramesSizeAndPictures) {
    std::string dir = make_temp_dir(), scene = write_scene(dir);
    std::string base = "--scene " + scene + " --size 1280x720 ";
    ASSERT_EQ(run_app(base + "--stage 2 --screenshot " + dir + "/s2.png").code, 0);
    ASSERT_EQ(run_app(base + "--stage 1 --screenshot " + dir + "/s1.png").code, 0);
    Image s2 = load_png(dir + "/s2.png"), s1 = load_png(dir + "/s1.png");
    struct Case {
        const char* file;
        const char* codec;
        double tolerance;  // mean |difference| per channel, 0..255
    };
    for (Case c :
         {Case{"nz.mp4", "h264", 3.0}, Case{"nz.gif", "gif", 4.0}, Case{"nz.webm", "vp9", 4.0}}) {
        std::string out = dir + "/" + c.file;
        auto r = run_app(base + "--fps 4 --record " + out);
        ASSERT_EQ(r.code, 0) << r.err;
        EXPECT_FALSE(file_exists(out + ".part"));
        Clip clip = read_clip(out, 8);
        EXPECT_EQ(clip.codec, c.codec) << c.file;
        EXPECT_EQ(clip.width, 1280) << c.file;
        EXPECT_EQ(clip.height, 720) << c.file;
        EXPECT_EQ(clip.frames, 17) << c.file;
        double near = mean_abs(clip.frame, s2), far = mean_abs(clip.frame, s1);
        EXPECT_LT(near, c.tolerance) << c.file;
        EXPECT_GT(far, 2 * near + 1) << c.file << " near " << near << " far " << far;
    }
}

// --stage A..B records part of the range: 1..3 at 4 fps is 9 frames.
TEST(GuiRecord, StageRangeSetsTheFrames) {
    std::string dir = make_temp_dir(), scene = write_scene(dir);
    auto r =
        run_app("--scene " + scene + " --size 640x400 --fps 4 --stage 1..3 --frames " + dir + "/f");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(file_exists(dir + "/f/frame-00008.png"));
    EXPECT_FALSE(file_exists(dir + "/f/frame-00009.png"));
    for (const char* bad : {"3..1", "0..9", "x..2"}) {
        auto b = run_app("--scene " + scene + " --size 640x400 --stage " + bad + " --record " +
                         dir + "/bad.mp4");
        EXPECT_EQ(b.code, 2) << bad;
        EXPECT_EQ(b.err.rfind("error: ", 0), 0u) << b.err;
        EXPECT_FALSE(file_exists(dir + "/bad.mp4"));
        EXPECT_FALSE(file_exists(dir + "/bad.mp4.part"));
    }
}

// A compute panel records its own steps (the Cube panel: steps at `rate`
// per second), from its scene file.
TEST(GuiRecord, ComputePanelRecordsItsSteps) {
    std::string dir = make_temp_dir();
    std::ofstream(dir + "/cube.json") << R"({"panel": "cube", "rate": 4})";
    auto shot = run_app("--scene " + dir + "/cube.json --size 800x600 --screenshot " + dir +
                        "/c.png --dump-view " + dir + "/c.json");
    ASSERT_EQ(shot.code, 0) << shot.err;
    auto view = nlohmann::json::parse(ll::test::read_file(dir + "/c.json"));
    // The step count is in the test probe, apart from the settings.
    ASSERT_TRUE(view.contains("probe") && view["probe"]["screen"].contains("steps")) << view.dump();
    EXPECT_FALSE(view.contains("screen")) << view.dump();
    const int steps = view["probe"]["screen"]["steps"].get<int>();
    auto r = run_app("--scene " + dir + "/cube.json --size 800x600 --fps 8 --record " + dir +
                     "/cube.gif");
    ASSERT_EQ(r.code, 0) << r.err;
    Clip clip = read_clip(dir + "/cube.gif", 0);
    EXPECT_EQ(clip.frames, steps * 8 / 4 + 1);
    EXPECT_EQ(clip.width, 800);
}

// Bad output paths and extensions: error, exit 2, no file, before any window.
TEST(GuiRecord, BadOutputIsAnErrorAndLeavesNothing) {
    std::string dir = make_temp_dir();
    struct Case {
        std::string args, leftover;
    };
    for (const Case& c : {Case{"--record " + dir + "/no/such/dir/x.mp4", dir + "/no"},
                          Case{"--record " + dir + "/x.avi", dir + "/x.avi"},
                          Case{"--record " + dir + "/x", dir + "/x"},
                          Case{"--record " + dir + "/x.mp4 --fps 0", dir + "/x.mp4"},
                          Case{"--frames " + dir + "/no/such/frames", dir + "/no"},
                          Case{"--panel fusion --record " + dir + "/f.mp4", dir + "/f.mp4"}}) {
        auto r = run_app(c.args);
        EXPECT_EQ(r.code, 2) << c.args << "\n" << r.err;
        EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
        EXPECT_FALSE(file_exists(c.leftover)) << c.args;
        EXPECT_FALSE(file_exists(c.leftover + ".part")) << c.args;
    }
    // The extension is checked before a window is needed: no display at all.
    auto r = ll::test::run_shell("env -u DISPLAY " + ll::test::app_exe() +
                                 " --no-config --record " + dir + "/x.avi");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("unknown extension"), std::string::npos) << r.err;
    // The FFmpeg side is a module loaded on demand: one that cannot be
    // loaded is said before a window opens, naming the place tried, and
    // leaves nothing.
    r = ll::test::run_shell("env -u DISPLAY LAYOUTLAB_VIDEO_MODULE=" + dir + "/none.so " +
                            ll::test::app_exe() + " --no-config --record " + dir + "/m.mp4");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err.rfind("error: --record: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find("video module"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(dir + "/none.so"), std::string::npos) << r.err;
    EXPECT_FALSE(file_exists(dir + "/m.mp4"));
    EXPECT_FALSE(file_exists(dir + "/m.mp4.part"));
}

// The Record menu in the window: open it, press Start, and the clip appears
// with every frame; the progress window drawn over the view is not in it.
TEST(GuiRecord, RecordMenuRecordsTheCurrentViewWithoutTheProgressWindow) {
    std::string dir = make_temp_dir();
    std::ofstream(dir + "/fast.json")
        << R"({"from": "ND", "to": "FRACTAL_NZ", "shape": "2,2,28", "dtype": "fp16", "speed": 4})";
    // 4 stages at 4 stages/s and 30 fps: 31 frames into <cwd>/explorer.mp4.
    // The menu item and the button sit where the 1280x800 menu puts them at
    // UI scale 1 (View, Settings, Record; Start below the range fields).
    // --screenshot-on-signal keeps frames coming as in the other driven
    // tests (xdotool's instant press + release needs frames after it).
    const std::string script =
        "cd " + ll::test::shell_quote(dir) + " || exit 3\n" + ll::test::app_exe() +
        R"( --no-config --scene fast.json --size 1280x800 --screenshot-on-signal . &
pid=$!
wid=$(timeout 20 xdotool search --sync --onlyvisible --name LayoutLab | head -n1)
[ -n "$wid" ] || { kill $pid; exit 3; }
xdotool windowfocus --sync "$wid" 2>/dev/null || true
sleep 0.5
xdotool mousemove --window "$wid" 150 10 click 1
sleep 0.5
xdotool mousemove --window "$wid" 190 269 click 1
for i in $(seq 600); do [ -f explorer.mp4 ] && break; sleep 0.1; done
sleep 0.3
kill $pid; wait $pid
exit 0
)";
    std::ofstream(dir + "/drive.sh") << script;
    auto r =
        ll::test::run_shell(ll::test::xvfb(90) + "sh " + ll::test::shell_quote(dir + "/drive.sh"));
    ASSERT_EQ(r.code, 0) << r.err;
    ASSERT_TRUE(file_exists(dir + "/explorer.mp4")) << r.err;
    EXPECT_FALSE(file_exists(dir + "/explorer.mp4.part"));
    Clip clip = read_clip(dir + "/explorer.mp4", 30);
    EXPECT_EQ(clip.frames, 31);
    EXPECT_EQ(clip.width, 1280);
    EXPECT_EQ(clip.height, 800);
    auto s = run_app("--scene " + dir + "/fast.json --size 1280x800 --stage last --screenshot " +
                     dir + "/last.png");
    ASSERT_EQ(s.code, 0) << s.err;
    Image shot = load_png(dir + "/last.png");
    ASSERT_EQ(clip.frame.width, shot.width);
    // Where the progress window was (bottom right), the clip shows the view.
    double sum = 0;
    int n = 0;
    for (int y = 800 - 110; y < 800; ++y)
        for (int x = 1280 - 360; x < 1280; ++x)
            for (int c = 0; c < 3; ++c, ++n)
                sum +=
                    std::abs(int(clip.frame.at(x, y)[size_t(c)]) - int(shot.at(x, y)[size_t(c)]));
    EXPECT_LT(sum / n, 4.0);
}
