// The planning panel's settings struct (what a scene file holds): to_json ->
// read gives the same settings back, and a bad key or type is a UsageError
// keyed by the field (names and values are the engine's to check later).
#include <gtest/gtest.h>

#include <string>

#include "app/panels/planning_settings.hpp"
#include "core/error.hpp"

using ll::UsageError;
using ll::gui::PlanningSettings;
using ll::gui::SceneReader;
using nlohmann::json;

namespace {

std::string key_of_bad(const json& j) {
    PlanningSettings s;
    try {
        s.read(SceneReader(j, "planning"));
    } catch (const UsageError& e) {
        EXPECT_EQ(std::string(e.what()).rfind("planning scene: ", 0), 0u) << e.what();
        return e.key();
    }
    return "";
}

}  // namespace

TEST(PlanningSettings, RoundTripsThroughJson) {
    PlanningSettings a;
    a.example = "conv-relu-conv";
    a.model.dram_gbps = 250;
    a.model.burst_bytes = 128;
    a.model.dma = false;
    a.picked = {{"relu->conv2", "consumer_read"}, {"conv1->relu", "producer_write"}};
    a.select = "relu->conv2";
    a.select_node = "relu";
    a.tab = 2;
    a.noc.rows = 16;
    a.noc.pes = 8;
    a.noc_step = 2.5;
    a.noc_playing = true;
    PlanningSettings b;
    b.read(SceneReader(a.to_json(), "planning"));
    EXPECT_EQ(b.to_json(), a.to_json());
    EXPECT_EQ(b.example, "conv-relu-conv");
    EXPECT_EQ(b.model.dram_gbps, 250);
    EXPECT_FALSE(b.model.dma);
    EXPECT_EQ(b.picked.at("relu->conv2"), "consumer_read");
    EXPECT_EQ(b.tab, 2);
    EXPECT_EQ(b.noc.pes, 8);
    EXPECT_EQ(b.noc_step, 2.5);

    // A graph instead of an example.
    PlanningSettings g;
    g.graph = json{{"nodes", json::array()}};
    PlanningSettings h;
    h.read(SceneReader(g.to_json(), "planning"));
    EXPECT_TRUE(h.example.empty());
    EXPECT_EQ(h.graph, g.graph);
}

TEST(PlanningSettings, ABadKeyOrTypeIsKeyedByIt) {
    EXPECT_EQ(key_of_bad({{"colour", "red"}}), "colour");
    EXPECT_EQ(key_of_bad({{"example", 3}}), "example");
    EXPECT_EQ(key_of_bad({{"graph", 3}}), "graph");
    EXPECT_EQ(key_of_bad({{"example", "a"}, {"graph", "b"}}), "graph");
    EXPECT_EQ(key_of_bad({{"model", {{"dram_gbps", "x"}}}}), "model.dram_gbps");
    EXPECT_EQ(key_of_bad({{"model", {{"bogus", 1}}}}), "model.bogus");
    EXPECT_EQ(key_of_bad({{"picked", {{"a->b", 1}}}}), "picked.a->b");
    EXPECT_EQ(key_of_bad({{"tab", "plots"}}), "tab");
    EXPECT_EQ(key_of_bad({{"noc", {{"speed", 2}}}}), "noc.speed");
    EXPECT_EQ(key_of_bad({{"noc", {{"step", -1}}}}), "noc.step");
    // Values are the engine's to refuse: a negative bandwidth reads.
    EXPECT_EQ(key_of_bad({{"model", {{"dram_gbps", -1}}}}), "");
}

TEST(PlanningSettings, ANocObjectWithoutStepStartsAtZero) {
    PlanningSettings s;
    s.noc_step = 3;
    s.noc_playing = true;
    s.read(SceneReader(json{{"tab", "noc"}}, "planning"));
    EXPECT_EQ(s.noc_step, 3);  // no "noc": unchanged
    s.read(SceneReader(json{{"noc", {{"pes", 4}}}}, "planning"));
    EXPECT_EQ(s.noc_step, 0);
    EXPECT_FALSE(s.noc_playing);
    EXPECT_EQ(s.noc.pes, 4);
}
