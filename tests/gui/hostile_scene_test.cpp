// Hostile input to the window (issue 18): scene files, pictures, flags and
// outputs. Each run is bounded by the harness's `timeout` (xvfb(N)); a crash
// shows as 134/139, a hang as 124/137. Every case must exit 2 with "error: "
// naming the key or flag and the limit, before any file is written.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dirent.h>

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "tests/support/gui.hpp"
#include "tests/support/process.hpp"

namespace {

using ll::test::RunResult;
using ll::test::shell_quote;

// The app under its own Xvfb, bounded to 60 s; `limit_kib` > 0 caps the size
// of files it may write (SIGXFSZ ignored: a write past it fails like a full
// disk).
RunResult app(const std::string& args, int limit_kib = 0) {
    std::string pre = ll::test::xvfb(60);
    if (limit_kib > 0)
        return ll::test::run_shell(pre + "sh -c " +
                                   shell_quote("trap '' XFSZ; ulimit -f " +
                                               std::to_string(limit_kib * 2) + "; exec " +
                                               ll::test::app_exe() + " --no-config " + args));
    return ll::test::run_shell(pre + ll::test::app_exe() + " --no-config " + args);
}

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

void expect_refused(const RunResult& r, const std::vector<std::string>& parts) {
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_TRUE(has(r.err, "error: ")) << r.err;
    for (const auto& p : parts) EXPECT_TRUE(has(r.err, p)) << "missing '" << p << "' in " << r.err;
}

std::string write(const std::string& dir, const std::string& name, const std::string& body) {
    const std::string path = dir + "/" + name;
    std::ofstream(path, std::ios::binary) << body;
    return path;
}

std::vector<std::string> files_in(const std::string& dir) {
    std::vector<std::string> out;
    if (DIR* d = opendir(dir.c_str())) {
        while (dirent* e = readdir(d))
            if (e->d_name[0] != '.') out.push_back(e->d_name);
        closedir(d);
    }
    return out;
}

// Renders scene `body` (an explorer scene unless it names a panel) to
// <dir>/shot.png.
RunResult scene(const std::string& dir, const std::string& body) {
    return app("--size 640x480 --scene " + shell_quote(write(dir, "s.json", body)) +
               " --screenshot " + shell_quote(dir + "/shot.png"));
}

const std::string kNz = R"("from":"ND","to":"FRACTAL_NZ","shape":"2,2,28","dtype":"fp16")";

uint32_t crc32(const std::string& s) {
    uint32_t c = 0xFFFFFFFFu;
    for (unsigned char b : s) {
        c ^= b;
        for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    }
    return ~c;
}

std::string be32(uint32_t v) {
    return {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
}

std::string chunk(const std::string& type, const std::string& data) {
    return be32(uint32_t(data.size())) + type + data + be32(crc32(type + data));
}

// A PNG header for a w x h grey picture with a token of data: small on disk,
// huge once decoded. The size must be refused from the header alone.
std::string png_bomb(uint32_t w, uint32_t h) {
    std::string ihdr = be32(w) + be32(h) + std::string("\x08\x00\x00\x00\x00", 5);
    const std::string idat("\x78\x9c\x03\x00\x00\x00\x00\x01", 8);  // zlib of nothing
    return std::string("\x89PNG\r\n\x1a\n", 8) + chunk("IHDR", ihdr) + chunk("IDAT", idat) +
           chunk("IEND", "");
}

}  // namespace

// 1. Deep nesting under any key, unknown keys included: refused at parse.
TEST(HostileScene, DeepJsonIsRefusedAtTheDepthLimit) {
    const std::string dir = ll::test::make_temp_dir();
    const std::string deep = std::string(150000, '[') + std::string(150000, ']');
    for (const std::string& body :
         {"{" + kNz + R"(,"stage":)" + deep + "}", R"({"unknown":)" + deep + "}",
          R"({"panel":"tiling","x":)" + deep + "}"}) {
        expect_refused(scene(dir, body), {"--scene", "nested more than 64 levels"});
        EXPECT_FALSE(ll::test::file_exists(dir + "/shot.png"));
    }
}

// 2. Values that crashed the window once it animated, or tripped ImGui.
TEST(HostileScene, SpeedAndUiScaleOutOfRangeAreRefused) {
    const std::string dir = ll::test::make_temp_dir();
    for (const char* speed : {"-1", "1e39"})
        expect_refused(scene(dir, "{" + kNz + R"(,"playing":true,"speed":)" + speed + "}"),
                       {"explorer scene: speed = ", "expected a number in 0..100"});
    expect_refused(app("--ui-scale nan --screenshot " + dir + "/x.png"),
                   {"--ui-scale", "nan", "0.5..4"});
    expect_refused(app("--ui-scale inf --screenshot " + dir + "/x.png"), {"--ui-scale", "inf"});
    EXPECT_TRUE(files_in(dir).size() == 1) << "only s.json may exist";
}

// 4. Exit 2, never 1: bad types in a scene, a directory as the scene.
TEST(HostileScene, BadTypesAndDirectoriesAreUsageErrors) {
    const std::string dir = ll::test::make_temp_dir();
    expect_refused(scene(dir, R"({"from":"ND","to":"FRACTAL_NZ","shape":["a","b"]})"),
                   {"shape[0] = \"a\"", "expected an integer in 1.."});
    expect_refused(scene(dir, R"({"from":"ND","to":"FRACTAL_NZ","shape":[[2],2,28]})"),
                   {"shape[0] = [2]", "expected an integer in 1.."});
    expect_refused(app("--scene " + dir + " --screenshot " + dir + "/x.png"),
                   {"--scene", "directory"});
}

// 5. Floats that do not fit an int64 are refused before any conversion.
TEST(HostileScene, HugeNumbersAreRefusedNotConverted) {
    const std::string dir = ll::test::make_temp_dir();
    expect_refused(scene(dir, "{" + kNz + R"(,"c0":1e32})"),
                   {"c0 = 1e+32", "expected an integer in 0..65536"});
    expect_refused(scene(dir, "{" + kNz + R"(,"select":1e32})"),
                   {"select = 1e+32", "expected an integer in -1.."});
}

// 6. Scene and picture files: regular files only, never read before checked.
TEST(HostileScene, FifosAndDevicesAreRefusedWithoutBlocking) {
    const std::string dir = ll::test::make_temp_dir();
    const std::string fifo = dir + "/fifo";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    expect_refused(app("--scene " + fifo + " --screenshot " + dir + "/x.png"), {"--scene", "FIFO"});
    expect_refused(app("--image " + fifo + " --screenshot " + dir + "/x.png"), {"--image", "FIFO"});
    expect_refused(app("--scene /dev/zero --screenshot " + dir + "/x.png"),
                   {"--scene", "character device"});
    ::unlink(fifo.c_str());
}

// 7. A decompression bomb is refused from its header.
TEST(HostileScene, ImageBombIsRefusedFromItsHeader) {
    const std::string dir = ll::test::make_temp_dir();
    const std::string png = write(dir, "bomb.png", png_bomb(25000, 25000));
    ASSERT_LT(png_bomb(25000, 25000).size(), 200u);
    expect_refused(app("--image " + png + " --screenshot " + dir + "/x.png"),
                   {"--image", "25000x25000", "limit of 33554432"});
    EXPECT_FALSE(ll::test::file_exists(dir + "/x.png"));
}

// 9. A full disk: no PNG, no JSON, no temporary; exit 2.
TEST(HostileScene, FullDiskLeavesNoPartialScreenshot) {
    const std::string dir = ll::test::make_temp_dir();
    const RunResult r =
        app("--size 640x480 --screenshot " + dir + "/shot.png --dump-view " + dir + "/view.json",
            /*limit_kib=*/4);
    expect_refused(r, {"--screenshot", "shot.png", "File too large"});
    EXPECT_TRUE(files_in(dir).empty()) << files_in(dir).front();
}

// 11. Unknown keys and fractional or malformed values are refused naming the key.
TEST(HostileScene, UnknownKeysAndBadValuesAreRefused) {
    const std::string dir = ll::test::make_temp_dir();
    expect_refused(scene(dir, "{" + kNz + R"(,"bogus":1})"),
                   {"explorer scene: unknown key bogus", "expected one of from, to"});
    expect_refused(scene(dir, R"({"from":"ND","to":"FRACTAL_NZ","shape":[2.5,2,28]})"),
                   {"shape[0] = 2.5", "expected an integer in 1.."});
    expect_refused(scene(dir, "{" + kNz + R"(,"c0":16.5})"),
                   {"c0 = 16.5", "expected an integer in 0..65536"});
    expect_refused(scene(dir, "{" + kNz + R"(,"select":1.5})"),
                   {"select = 1.5", "expected an integer in -1.."});
    expect_refused(scene(dir, "{" + kNz + R"(,"cameras":[1,2,3]})"),
                   {"cameras = [1,2,3]", "expected a list of at most 2 cameras"});
    expect_refused(scene(dir, "{" + kNz + R"(,"cameras":[1]})"),
                   {"cameras[0] = 1", "expected {\"zoom\", \"pan_x\", \"pan_y\"} or null"});
    expect_refused(scene(dir, "{" + kNz + R"(,"cameras":[{"zoom":0}]})"),
                   {"cameras[0].zoom = 0", "expected a number in 1e-06..1e+06"});
    expect_refused(app("--dump-view " + dir + "/v.json"), {"--dump-view", "needs --screenshot"});
    expect_refused(app("--screenshot ''"), {"--screenshot", "empty file name"});
    EXPECT_EQ(files_in(dir), std::vector<std::string>{"s.json"});
    // A --dump-view file still loads back as a scene (its report keys are known).
    const RunResult ok = app("--size 640x480 --scene " + write(dir, "ok.json", "{" + kNz + "}") +
                             " --screenshot " + dir + "/a.png --dump-view " + dir + "/a.json");
    ASSERT_EQ(ok.code, 0) << ok.err;
    const RunResult again =
        app("--size 640x480 --scene " + dir + "/a.json --screenshot " + dir + "/b.png");
    EXPECT_EQ(again.code, 0) << again.err;
}
