// The img2col and LoadData panels' settings structs (what a scene file
// holds): to_json -> read gives the same settings back, and a bad field is a
// UsageError keyed by the field, read through the one SceneReader.
#include <gtest/gtest.h>

#include <string>

#include "app/panels/img2col_settings.hpp"
#include "app/panels/loaddata_settings.hpp"
#include "core/error.hpp"

using ll::UsageError;
using ll::gui::Img2colSettings;
using ll::gui::LoadDataSettings;
using ll::gui::SceneReader;
using nlohmann::json;

namespace {

// The key of the UsageError that reading `j` into T throws ("" if none).
template <class T>
std::string key_of_bad(const json& j, const char* panel) {
    T s = T::initial();
    try {
        s.read(SceneReader(j, panel));
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find(panel), std::string::npos) << e.what();
        return e.key();
    }
    return "";
}

}  // namespace

TEST(Img2colSettings, RoundTripsThroughJson) {
    Img2colSettings a = Img2colSettings::initial();
    a.spec.n = 2;
    a.spec.c = 3;
    a.spec.h = 7;
    a.spec.w = 6;
    a.spec.win.kh = 3;
    a.spec.win.stride_w = 2;
    a.spec.win.dil_h = 2;
    a.spec.win.pad_top = 1;
    a.spec.win.pad_right = 2;
    a.position = 5;
    a.stage = 1.5;
    a.playing = true;
    Img2colSettings b;
    b.read(SceneReader(a.to_json(), "img2col"));
    EXPECT_EQ(b.to_json(), a.to_json());
    EXPECT_EQ(b.spec.win.pad_right, 2);
    EXPECT_EQ(b.spec.win.dil_h, 2);
    EXPECT_EQ(b.position, 5);
    EXPECT_EQ(b.stage, 1.5);
    EXPECT_TRUE(b.playing);
}

TEST(Img2colSettings, AbsentKeysKeepTheirValuesAndOnePadMeansAllSides) {
    Img2colSettings s = Img2colSettings::initial();
    s.read(SceneReader(json{{"pad", 1}}, "img2col"));
    EXPECT_EQ(s.spec.h, 3);  // the initial scene's
    EXPECT_EQ(s.spec.win.pad_top, 1);
    EXPECT_EQ(s.spec.win.pad_left, 1);
}

TEST(Img2colSettings, ABadFieldIsKeyedByIt) {
    EXPECT_EQ(key_of_bad<Img2colSettings>({{"kh", 0}}, "img2col"), "kh");
    EXPECT_EQ(key_of_bad<Img2colSettings>({{"h", "x"}}, "img2col"), "h");
    EXPECT_EQ(key_of_bad<Img2colSettings>({{"pad", {1, 2}}}, "img2col"), "pad");
    EXPECT_EQ(key_of_bad<Img2colSettings>({{"stride", {1, 2, 3}}}, "img2col"), "stride");
    // 3x3 input, 2x2 kernel: 4 windows, positions 0..3.
    EXPECT_EQ(key_of_bad<Img2colSettings>({{"position", 4}}, "img2col"), "position");
    EXPECT_EQ(key_of_bad<Img2colSettings>({{"stage", 3.0}}, "img2col"), "stage");
    EXPECT_EQ(key_of_bad<Img2colSettings>({{"nope", 1}}, "img2col"), "nope");
    // A kernel larger than the padded input: the engine's own check.
    EXPECT_NE(key_of_bad<Img2colSettings>({{"h", 1}, {"kh", 5}}, "img2col"), "");
    EXPECT_EQ(key_of_bad<Img2colSettings>({{"h", 5}, {"kh", 5}}, "img2col"), "");
}

TEST(Img2colSettings, AFailedReadChangesNothing) {
    Img2colSettings s = Img2colSettings::initial();
    const json before = s.to_json();
    EXPECT_THROW(s.read(SceneReader(json{{"h", 9}, {"kh", "x"}}, "img2col")), UsageError);
    EXPECT_EQ(s.to_json(), before);
}

TEST(LoadDataSettings, RoundTripsThroughJson) {
    LoadDataSettings a = LoadDataSettings::initial();
    a.mode = 2;
    a.product = ll::exec::Product::a2;
    a.dtype = "int8";
    a.path = 3;
    a.v1.repeat = 7;
    a.v1.decrement = true;
    a.v2.m_start = 2;
    a.v2.transpose = true;
    a.v3.pad_top = 2;
    a.v3.left_top_w = -1;
    a.v3.dil_h = 3;
    a.stage = 0.5;
    a.playing = true;
    LoadDataSettings b;
    b.read(SceneReader(a.to_json(), "LoadData"));
    EXPECT_EQ(b.to_json(), a.to_json());
    EXPECT_EQ(b.mode, 2);
    EXPECT_EQ(b.product, ll::exec::Product::a2);
    EXPECT_EQ(b.path, 3);
    EXPECT_EQ(b.v1.repeat, 7);
    EXPECT_TRUE(b.v1.decrement);
    EXPECT_EQ(b.v3.left_top_w, -1);
    EXPECT_EQ(b.v3.dil_h, 3);
}

TEST(LoadDataSettings, ABadFieldIsKeyedByIt) {
    EXPECT_EQ(key_of_bad<LoadDataSettings>({{"mode", "load4d"}}, "LoadData"), "mode");
    EXPECT_EQ(key_of_bad<LoadDataSettings>({{"product", "nope"}}, "LoadData"), "product");
    EXPECT_EQ(key_of_bad<LoadDataSettings>({{"dtype", "fp64"}}, "LoadData"), "dtype");
    EXPECT_EQ(key_of_bad<LoadDataSettings>({{"path", "A2->A1"}}, "LoadData"), "path");
    EXPECT_EQ(key_of_bad<LoadDataSettings>({{"load2d", {{"repeat", "x"}}}}, "LoadData"),
              "load2d.repeat");
    EXPECT_EQ(key_of_bad<LoadDataSettings>({{"load2dv2", {{"m_step", 1.5}}}}, "LoadData"),
              "load2dv2.m_step");
    EXPECT_EQ(key_of_bad<LoadDataSettings>({{"load3d", {{"pad", {1, 2}}}}}, "LoadData"),
              "load3d.pad");
    EXPECT_EQ(key_of_bad<LoadDataSettings>({{"load3d", {{"bogus", 1}}}}, "LoadData"),
              "load3d.bogus");
    EXPECT_EQ(key_of_bad<LoadDataSettings>({{"stage", 2}}, "LoadData"), "stage");
}

TEST(LoadDataSettings, AFailedReadChangesNothing) {
    LoadDataSettings s = LoadDataSettings::initial();
    const json before = s.to_json();
    EXPECT_THROW(
        s.read(SceneReader(json{{"mode", "load3d"}, {"load2d", {{"repeat", "x"}}}}, "LoadData")),
        UsageError);
    EXPECT_EQ(s.to_json(), before);
}
