// The tiling panel's settings struct (what a scene file holds): to_json ->
// read gives the same settings back, names match in any case or by index, and
// a bad field is a UsageError keyed by the field.
#include <gtest/gtest.h>

#include <string>

#include "app/panels/tiling_settings.hpp"
#include "core/error.hpp"

using ll::UsageError;
using ll::gui::SceneReader;
using ll::gui::TilingSettings;
using nlohmann::json;

namespace {

std::string key_of_bad(const json& j) {
    TilingSettings s;
    try {
        s.read(SceneReader(j, "tiling"));
    } catch (const UsageError& e) {
        EXPECT_EQ(std::string(e.what()).rfind("tiling scene: ", 0), 0u) << e.what();
        return e.key();
    }
    return "";
}

}  // namespace

TEST(TilingSettings, RoundTripsThroughJson) {
    TilingSettings a;
    a.shape[1] = 32;
    a.layout = 2;
    a.dtype = 1;
    a.o1 = 3;
    a.o2 = 5;
    a.passes = 2;
    a.basis = 1;
    a.l1[0] = 8;
    a.l2[2] = 2;
    a.setup[1] = 5;
    a.bw[2] = 1234.5f;
    a.access[0] = 128;
    a.speed = 12;
    a.memory = 0.25f;
    a.step = 7;
    a.playing = false;
    a.tab = 3;
    a.lines_dim = 0;
    a.export_plot = 4;
    TilingSettings b;
    b.read(SceneReader(a.to_json(), "tiling"));
    EXPECT_EQ(b.to_json(), a.to_json());
    EXPECT_EQ(b.layout, 2);
    EXPECT_EQ(b.o2, 5);
    EXPECT_EQ(b.bw[2], 1234.5f);
    EXPECT_EQ(b.step, 7);
    EXPECT_FALSE(b.playing);
    EXPECT_TRUE(b.export_base.empty());  // an action at load, never saved
    // The engine's Config is built from them.
    const ll::tiling::Config c = b.config();
    EXPECT_EQ(c.shape, (ll::Shape{1, 32, 56, 56}));
    EXPECT_EQ(c.layout, ll::tiling::offered_layouts()[2]);
    EXPECT_EQ(c.l1_tile.c, 8);
    EXPECT_EQ(c.basis, ll::tiling::StrideBasis::destination);
    EXPECT_NO_THROW(ll::tiling::validate(c));
}

TEST(TilingSettings, NamesMatchInAnyCaseOrByIndex) {
    TilingSettings s;
    s.read(SceneReader(json{{"layout", "nhwc"}, {"l1_order", 2}, {"tilesize_dim", "h"}}, "tiling"));
    EXPECT_EQ(ll::tiling::offered_layouts()[size_t(s.layout)], "NHWC");
    EXPECT_EQ(s.o1, 2);
    EXPECT_EQ(s.lines_dim, 1);
}

TEST(TilingSettings, ABadFieldIsKeyedByIt) {
    EXPECT_EQ(key_of_bad({{"shape", {1, 2, 3}}}), "shape");
    EXPECT_EQ(key_of_bad({{"layout", "NCWH"}}), "layout");
    EXPECT_EQ(key_of_bad({{"l1_order", "W_W_C"}}), "l1_order");
    EXPECT_EQ(key_of_bad({{"l2_passes", 0}}), "l2_passes");
    EXPECT_EQ(key_of_bad({{"bandwidth", {1, 2, 0}}}), "bandwidth");
    EXPECT_EQ(key_of_bad({{"speed", 1000}}), "speed");
    EXPECT_EQ(key_of_bad({{"playing", 1}}), "playing");
    EXPECT_EQ(key_of_bad({{"export", ""}}), "export");
    EXPECT_EQ(key_of_bad({{"bogus", 1}}), "bogus");
    // Tiles against the shape and each other.
    EXPECT_EQ(key_of_bad({{"shape", {1, 8, 8, 8}}}), "l1_tile");  // the default 16,14,14 tile
    EXPECT_EQ(key_of_bad({{"l2_tile", {32, 7, 7}}}), "l2_tile");
    EXPECT_EQ(key_of_bad({{"shape", {1, 8, 8, 8}}, {"l1_tile", {8, 8, 8}}, {"l2_tile", {4, 4, 4}}}),
              "");
}

TEST(TilingSettings, AFailedReadChangesNothing) {
    TilingSettings s;
    const json before = s.to_json();
    EXPECT_THROW(s.read(SceneReader(json{{"layout", "NHWC"}, {"l2_passes", "x"}}, "tiling")),
                 UsageError);
    EXPECT_EQ(s.to_json(), before);
}
