// `layoutlab tiling`: the document's table from the command line, the plot
// exports, and bad input.
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "tests/support/png.hpp"
#include "tests/support/process.hpp"
#include "tests/support/xml_check.hpp"

using ll::test::run_layoutlab;

namespace {

nlohmann::json run_json(std::vector<std::string> args) {
    args.insert(args.begin(), "tiling");
    args.push_back("--json");
    const auto r = run_layoutlab(args);
    EXPECT_EQ(r.code, 0) << r.err;
    return nlohmann::json::parse(r.out);
}

std::string r(double v, int digits) {
    char b[32];
    std::snprintf(b, sizeof b, "%.*f", digits, v);
    return b;
}

void expect_usage_error(const std::vector<std::string>& args, const std::string& mention) {
    const auto res = run_layoutlab(args);
    EXPECT_EQ(res.code, 2) << res.out;
    EXPECT_EQ(res.err.rfind("error: ", 0), 0u) << res.err;
    EXPECT_NE(res.err.find(mention), std::string::npos) << res.err;
}

}  // namespace

TEST(CliTiling, DefaultsPrintTheDocumentsFirstRow) {
    const auto res = run_layoutlab({"tiling"});
    ASSERT_EQ(res.code, 0) << res.err;
    EXPECT_NE(res.out.find("NCHW"), std::string::npos);
    EXPECT_NE(res.out.find("16.06 us"), std::string::npos) << res.out;
    EXPECT_NE(res.out.find("contiguous"), std::string::npos);
    EXPECT_NE(res.out.find("L2 SRAM->Registers"), std::string::npos);
}

TEST(CliTiling, DocumentTableRows) {
    const struct {
        const char *layout, *order, *e1, *e2, *total;
    } rows[] = {{"NCHW", "W_H_C", "0.90", "0.90", "16.1"},
                {"NHWC", "C_W_H", "0.90", "0.90", "16.1"},
                {"NHWC", "W_H_C", "0.06", "0.25", "154.1"},
                {"NCHW", "C_W_H", "0.06", "0.25", "154.1"}};
    for (const auto& row : rows) {
        const auto j =
            run_json({"--layout", row.layout, "--l1-order", row.order, "--l2-order", row.order});
        EXPECT_EQ(r(j["l1_efficiency"].get<double>(), 2), row.e1) << row.layout << row.order;
        EXPECT_EQ(r(j["l2_efficiency"].get<double>(), 2), row.e2) << row.layout << row.order;
        EXPECT_EQ(r(j["total_us"].get<double>(), 1), row.total) << row.layout << row.order;
    }
}

TEST(CliTiling, JsonCarriesPerLevelFigures) {
    const auto j = run_json({"--layout", "NHWC", "--l1-order", "W_H_C", "--l2-order", "C_W_H"});
    ASSERT_EQ(j["levels"].size(), 2u);
    const auto& l1 = j["levels"][0];
    EXPECT_EQ(l1["stride"], 64);  // read from the tensor in DRAM (the default basis)
    EXPECT_EQ(l1["access_bytes"], 64);
    EXPECT_EQ(l1["innermost"], "W");
    EXPECT_EQ(l1["source_strides"]["W"], 64);  // the tensor in DRAM: W steps over C = 64
    EXPECT_EQ(l1["destination_strides"]["W"], 16);
    EXPECT_GT(l1["bytes"].get<int64_t>(), 0);
    EXPECT_GT(l1["energy_uj"].get<double>(), 0);
    EXPECT_NE(l1["reasoning"].get<std::string>().find("stride 64"), std::string::npos);
    EXPECT_EQ(j["levels"][1]["stride"], 1);
    EXPECT_NEAR(j["total_us"].get<double>(), j["l1_us"].get<double>() + j["l2_us"].get<double>(),
                1e-9);
}

TEST(CliTiling, SourceBasisShowsSection152Strides) {
    const auto j =
        run_json({"--l1-order", "C_W_H", "--l2-order", "C_W_H", "--stride-basis", "source"});
    EXPECT_EQ(j["levels"][0]["stride"], 3136);
    EXPECT_EQ(j["levels"][1]["stride"], 196);
    EXPECT_EQ(j["stride_basis"], "source");
}

// Formula (8) without access units, strides in the destination buffers: the
// reading that gives 1888 us for the NCHW + C_W_H row (docs/TILING.md).
TEST(CliTiling, LiteralFormula8Reading) {
    const auto j = run_json({"--l1-order", "C_W_H", "--l2-order", "C_W_H", "--stride-basis",
                             "destination", "--access-bytes", "0,0"});
    EXPECT_EQ(j["levels"][0]["stride"], 196);
    EXPECT_EQ(j["levels"][1]["stride"], 49);
    EXPECT_EQ(r(j["total_us"].get<double>(), 1), "1888.2");
}

TEST(CliTiling, EdgeTilesAreAccepted) {
    const auto j = run_json({"--l1-tile", "24,15,15", "--l2-tile", "5,4,4"});
    EXPECT_EQ(j["levels"][0]["blocks"], 3 * 4 * 4);
    EXPECT_EQ(j["levels"][0]["bytes"], 64 * 56 * 56 * 4);
}

TEST(CliTiling, PlotExports) {
    const std::string dir = ll::test::make_temp_dir();
    const std::string csv = dir + "/heat.csv", svg = dir + "/heat.svg", png = dir + "/heat.png";
    const auto res =
        run_layoutlab({"tiling", "--plot", "heatmap", "--csv", csv, "--svg", svg, "--png", png});
    ASSERT_EQ(res.code, 0) << res.err;
    // CSV: header + one row per (L1 order, L2 order), three fields each.
    std::istringstream in(ll::test::read_file(csv));
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, "row,column,total time (us)");
    int rows = 0;
    while (std::getline(in, line)) {
        ++rows;
        const size_t a = line.find(','), b = line.rfind(',');
        ASSERT_NE(a, b) << line;
        EXPECT_GT(std::stod(line.substr(b + 1)), 0.0) << line;
    }
    EXPECT_EQ(rows, 36);
    // SVG: well-formed, with its title and axis names as text.
    const std::string s = ll::test::read_file(svg);
    EXPECT_EQ(ll::test::xml_problem(s), "");
    EXPECT_NE(s.find(">Total time by access order"), std::string::npos);
    EXPECT_NE(s.find(">L1 tile order</text>"), std::string::npos);
    EXPECT_NE(s.find(">L2 sub-tile order</text>"), std::string::npos);
    EXPECT_NE(s.find(">total time (us)</text>"), std::string::npos);
    // PNG: default size, and not blank.
    const auto img = ll::test::load_png(png);
    ASSERT_FALSE(img.empty());
    EXPECT_EQ(img.width, 900);
    EXPECT_EQ(img.height, 560);
    std::set<uint32_t> colours;
    for (int y = 0; y < img.height; y += 3)
        for (int x = 0; x < img.width; x += 3) {
            const auto p = img.at(x, y);
            colours.insert(uint32_t(p[0]) << 16 | uint32_t(p[1]) << 8 | p[2]);
        }
    EXPECT_GT(colours.size(), 20u);
}

TEST(CliTiling, OtherPlotsExport) {
    const std::string dir = ll::test::make_temp_dir();
    for (const char* kind : {"efficiency", "time", "tilesize"}) {
        const std::string svg = dir + "/" + kind + ".svg";
        const auto res = run_layoutlab({"tiling", "--plot", kind, "--svg", svg});
        ASSERT_EQ(res.code, 0) << res.err;
        EXPECT_EQ(ll::test::xml_problem(ll::test::read_file(svg)), "") << kind;
    }
}

TEST(CliTiling, BadInputIsExit2) {
    expect_usage_error({"tiling", "--l1-order", "X_H_C"}, "--l1-order");
    expect_usage_error({"tiling", "--l2-order", "W_W_C"}, "permutation");
    expect_usage_error({"tiling", "--l1-tile", "128,14,14"}, "larger than the tensor");
    expect_usage_error({"tiling", "--l1-tile", "0,14,14"}, "--l1-tile");
    expect_usage_error({"tiling", "--dram-bw", "0"}, "bandwidth");
    expect_usage_error({"tiling", "--sram-bw", "0"}, "bandwidth");
    expect_usage_error({"tiling", "--access-bytes", "64"}, "--access-bytes");
    expect_usage_error({"tiling", "--access-bytes", "64,-16"}, "--access-bytes");
    expect_usage_error({"tiling", "--stride-basis", "middle"}, "--stride-basis");
    expect_usage_error({"tiling", "--layout", "NDHWC"}, "--layout");
    expect_usage_error({"tiling", "--plot", "pie", "--svg", "/tmp/x.svg"}, "--plot");
}

TEST(CliTiling, UnwritableOutputLeavesNoFile) {
    const std::string dir = ll::test::make_temp_dir();
    const std::string csv = dir + "/ok.csv";
    expect_usage_error({"tiling", "--csv", csv, "--svg", dir + "/missing/x.svg"}, "cannot write");
    EXPECT_FALSE(ll::test::file_exists(csv));
    EXPECT_FALSE(ll::test::file_exists(dir + "/missing/x.svg"));
}
