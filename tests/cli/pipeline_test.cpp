// `layoutlab pipeline`: the JSON keys, the conv case study's Cube steps, the
// Chrome trace (one track per unit, flow arrows for flags), CSV/SVG/PNG, and
// bad input as exit 2.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "tests/support/cli.hpp"
#include "tests/support/png.hpp"
#include "tests/support/process.hpp"
#include "tests/support/xml_check.hpp"

using ll::test::command_json;
using ll::test::run_layoutlab;
using nlohmann::json;

namespace {
const std::vector<std::string> kSmall = {"--m",       "256", "--k",       "192", "--n",      "160",
                                         "--base-m",  "64",  "--base-n",  "32",  "--base-k", "64",
                                         "--step-ka", "2",   "--step-kb", "1",   "--order",  "n"};

std::vector<std::string> with(std::vector<std::string> a, std::vector<std::string> extra) {
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
}
}  // namespace

TEST(CliPipeline, JsonHasTheNamedKeys) {
    const json j = command_json("pipeline", kSmall);
    ASSERT_FALSE(j.is_null());
    for (const char* k : {"total_cycles", "cube_steps", "units", "bound", "tiling", "buffers"})
        EXPECT_TRUE(j.contains(k)) << k;
    EXPECT_EQ(j["tiling"]["base_m"], 64);
    EXPECT_EQ(j["tiling"]["order"], "N-first");
    EXPECT_FALSE(j["tiling_from_sweep"].get<bool>());
    // 256/16 * 192/16 * 160/16 fractal steps, one cycle each
    EXPECT_EQ(j["cube_steps"], 16 * 12 * 10);
    EXPECT_EQ(j["units"]["Cube"]["busy_cycles"], 16 * 12 * 10);
    int64_t most = 0;
    for (auto& [unit, u] : j["units"].items()) {
        EXPECT_LE(u["busy_cycles"].get<int64_t>(), j["total_cycles"].get<int64_t>()) << unit;
        EXPECT_NEAR(u["utilisation"].get<double>(),
                    double(u["busy_cycles"].get<int64_t>()) / j["total_cycles"].get<double>(),
                    1e-9);
        most = std::max(most, u["busy_cycles"].get<int64_t>());
    }
    EXPECT_EQ(j["units"][j["bound"].get<std::string>()]["busy_cycles"], most);
    for (auto& [buf, b] : j["buffers"].items()) {
        EXPECT_LE(b["peak_bytes"].get<int64_t>(), b["capacity"].get<int64_t>()) << buf;
        EXPECT_FALSE(b["placements"].empty()) << buf;
    }
    EXPECT_EQ(j["buffers"]["L1"]["capacity"], 512 * 1024);
    for (const json& c : j["checks"]) EXPECT_TRUE(c["ok"].get<bool>()) << c["what"];
    // single buffering of the same tiling is never faster
    EXPECT_GE(j["single_buffer"]["total_cycles"].get<int64_t>(), j["total_cycles"].get<int64_t>());
    const json s = command_json("pipeline", with(kSmall, {"--double-buffer", "off"}));
    EXPECT_EQ(s["total_cycles"], j["single_buffer"]["total_cycles"]);
}

TEST(CliPipeline, ConvCaseStudy) {
    for (const char* prod : {"a2", "training"}) {
        const json j = command_json("pipeline", {"--conv", "--product", prod});
        ASSERT_FALSE(j.is_null());
        EXPECT_EQ(j["cube_steps"], 35280) << prod;
        EXPECT_EQ(j["units"]["Cube"]["busy_cycles"], 35280) << prod;
        EXPECT_TRUE(j["tiling_from_sweep"].get<bool>());
        EXPECT_EQ(j["problem"]["m"], 7840);
        EXPECT_EQ(j["problem"]["k"], 288);
    }
    // The training series moves L0C -> UB on the Vector unit and UB -> GM on MTE3.
    const json t = command_json("pipeline", {"--conv", "--product", "training"});
    EXPECT_GT(t["units"]["Vector"]["busy_cycles"].get<int64_t>(), 0);
    EXPECT_GT(t["units"]["MTE3"]["busy_cycles"].get<int64_t>(), 0);
    EXPECT_EQ(t["units"]["FixPipe"]["busy_cycles"], 0);
    EXPECT_TRUE(t["buffers"].contains("UB"));
    const auto text = run_layoutlab({"pipeline", "--conv"});
    ASSERT_EQ(text.code, 0) << text.err;
    EXPECT_NE(text.out.find("35280 Cube fractal steps"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("bound:"), std::string::npos);
}

TEST(CliPipeline, TraceCsvAndPlots) {
    const std::string dir = ll::test::make_temp_dir();
    const std::string tr = dir + "/t.json", csv = dir + "/i.csv", svg = dir + "/t.svg",
                      png = dir + "/t.png";
    const json j = command_json(
        "pipeline", with(kSmall, {"--trace", tr, "--csv", csv, "--svg", svg, "--png", png}));
    ASSERT_FALSE(j.is_null());
    int64_t instructions = 0;
    for (auto& [unit, u] : j["units"].items()) instructions += u["instructions"].get<int64_t>();

    const json t = json::parse(ll::test::read_file(tr));
    std::set<int> tracks;
    std::map<int64_t, int> flows;  // id -> 1 (start) + 2 (finish)
    int64_t slices = 0;
    for (const json& e : t["traceEvents"]) {
        const std::string ph = e["ph"];
        if (ph == "M" && e["name"] == "thread_name") tracks.insert(e["tid"].get<int>());
        if (ph == "X") {
            ++slices;
            EXPECT_GE(e["dur"].get<double>(), 0);
        }
        if (ph == "s") flows[e["id"].get<int64_t>()] += 1;
        if (ph == "f") flows[e["id"].get<int64_t>()] += 2;
    }
    EXPECT_EQ(tracks.size(), 7u);  // one track per unit
    EXPECT_EQ(slices, instructions);
    ASSERT_FALSE(flows.empty());
    for (auto& [id, v] : flows) EXPECT_EQ(v, 3) << "flow " << id << " lacks an end";

    std::istringstream in(ll::test::read_file(csv));
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line.rfind("id,unit,op,", 0), 0u);
    int64_t rows = 0;
    while (std::getline(in, line)) ++rows;
    EXPECT_EQ(rows, instructions);
    EXPECT_EQ(ll::test::xml_problem(ll::test::read_file(svg)), "");
    const ll::test::Image im = ll::test::load_png(png);
    EXPECT_EQ(im.width, 1200);
}

TEST(CliPipeline, BadInputExitsTwo) {
    const std::vector<std::vector<std::string>> bad = {
        with(kSmall, {"--base-m", "24"}),
        {"pipeline", "--m", "4096", "--k", "4096", "--n", "4096", "--base-m", "256", "--base-n",
         "256", "--base-k", "256", "--step-ka", "1", "--step-kb", "1", "--order", "m"},
        with(kSmall, {"--mte2-bw", "0"}),
        with(kSmall, {"--double-buffer", "maybe"}),
        with(kSmall, {"--order", "k"}),
        with(kSmall, {"--product", "h100"}),
        with(kSmall, {"--dtype", "fp32"}),
        {"pipeline", "--conv", "--m", "64"},
        {"pipeline", "--m", "0"},
        with(kSmall, {"--trace", "/nonexistent-dir/t.json"}),
    };
    for (std::vector<std::string> a : bad) {
        if (a.front() != "pipeline") a.insert(a.begin(), "pipeline");
        const auto r = run_layoutlab(a);
        std::string cmd;
        for (const auto& s : a) cmd += s + " ";
        EXPECT_EQ(r.code, 2) << cmd << "\n" << r.out << r.err;
        EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << cmd << "\n" << r.err;
    }
    const auto fit = run_layoutlab({"pipeline", "--m", "4096", "--k", "4096", "--n", "4096",
                                    "--base-m", "256", "--base-n", "256", "--base-k", "256",
                                    "--step-ka", "1", "--step-kb", "1", "--order", "m"});
    EXPECT_NE(fit.err.find("past the end of"), std::string::npos) << fit.err;
    const auto help = run_layoutlab({"pipeline", "--help"});
    EXPECT_EQ(help.code, 0);
    EXPECT_NE(help.out.find("--double-buffer"), std::string::npos);
}
