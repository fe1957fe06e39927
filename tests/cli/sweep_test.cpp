// `layoutlab sweep`: ranking, CSV rows, plot files, bad input.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/support/png.hpp"
#include "tests/support/process.hpp"
#include "tests/support/xml_check.hpp"

using ll::test::run_layoutlab;

namespace {

const std::vector<std::string> kSmall = {"sweep", "--shape", "1,8,6,12", "--layout", "NHWC"};

std::vector<std::string> with(std::vector<std::string> extra) {
    std::vector<std::string> a = kSmall;
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
}

std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    std::string x;
    while (std::getline(ss, x, ',')) f.push_back(x);
    return f;
}

}  // namespace

TEST(CliSweep, CsvJsonAndPlots) {
    const std::string dir = ll::test::make_temp_dir();
    const std::string csv = dir + "/s.csv", svg = dir + "/s.svg", png = dir + "/s.png";
    const auto res = run_layoutlab(with(
        {"--csv", csv, "--svg", svg, "--png", png, "--width", "640", "--height", "400", "--json"}));
    ASSERT_EQ(res.code, 0) << res.err;
    const auto j = nlohmann::json::parse(res.out);

    std::istringstream in(ll::test::read_file(csv));
    std::string line;
    std::getline(in, line);
    const auto header = split(line);
    ASSERT_EQ(header.size(), 16u);
    EXPECT_EQ(header[0], "rank");
    EXPECT_EQ(header[13], "total_us");
    size_t rows = 0, front = 0;
    double last = 0;
    std::vector<std::string> first;
    while (std::getline(in, line)) {
        const auto f = split(line);
        ASSERT_EQ(f.size(), header.size()) << line;
        EXPECT_EQ(std::stoul(f[0]), rows + 1);
        const double t = std::stod(f[13]);
        EXPECT_GE(t, last);
        last = t;
        front += f[15] == "1";
        if (rows == 0) first = f;
        ++rows;
    }
    EXPECT_EQ(rows, j["configs"].get<size_t>());
    EXPECT_EQ(front, j["pareto"].size());
    EXPECT_EQ(first[7], j["best"]["l1_order"].get<std::string>());
    EXPECT_NEAR(std::stod(first[13]), j["best"]["total_us"].get<double>(), 1e-5);
    EXPECT_EQ(first[7].substr(0, 1), "C");  // NHWC: C innermost at L1 wins

    const std::string s = ll::test::read_file(svg);
    EXPECT_EQ(ll::test::xml_problem(s), "");
    EXPECT_NE(s.find(">Tiling sweep"), std::string::npos);
    EXPECT_NE(s.find(">on-chip footprint (tile + sub-tile) (bytes)</text>"), std::string::npos);
    EXPECT_NE(s.find(">total time (us)</text>"), std::string::npos);
    EXPECT_NE(s.find(">Pareto front</text>"), std::string::npos);
    EXPECT_NE(s.find(">best: "), std::string::npos);

    const auto img = ll::test::load_png(png);
    ASSERT_FALSE(img.empty());
    EXPECT_EQ(img.width, 640);
    EXPECT_EQ(img.height, 400);
    int dark = 0;
    for (int y = 0; y < img.height; ++y)
        for (int x = 0; x < img.width; ++x) dark += img.at(x, y)[0] < 128;
    EXPECT_GT(dark, 500);  // text, axes, points
}

TEST(CliSweep, TextShowsRankingAndFront) {
    const auto res = run_layoutlab(with({"--top", "3"}));
    ASSERT_EQ(res.code, 0) << res.err;
    EXPECT_NE(res.out.find("rank"), std::string::npos);
    EXPECT_NE(res.out.find("Pareto front"), std::string::npos);
    EXPECT_NE(res.out.find("\n3 "), std::string::npos);
    EXPECT_EQ(res.out.find("\n4 "), std::string::npos);
}

TEST(CliSweep, CandidateSizesAndCapacity) {
    const auto res =
        run_layoutlab(with({"--c-sizes", "2,8", "--h-sizes", "3", "--w-sizes", "4,5", "--json"}));
    ASSERT_EQ(res.code, 0) << res.err;
    const auto j = nlohmann::json::parse(res.out);
    // tiles: C {2,8} x H {3} x W {4,5}; sub-tiles: sizes <= the tile's.
    // C: tile 2 -> {2}, tile 8 -> {2,8}; W: tile 4 -> {4}, tile 5 -> {4,5}.
    EXPECT_EQ(j["configs"].get<int>(), (1 + 2) * 1 * (1 + 2) * 36);
}

TEST(CliSweep, BadInputIsExit2AndNoFile) {
    const std::string dir = ll::test::make_temp_dir();
    for (const auto& args : std::vector<std::vector<std::string>>{
             with({"--c-sizes", "0,2"}),
             with({"--c-sizes", "100"}),
             with({"--dram-bw", "0"}),
             with({"--capacity", "1,1"}),
             with({"--max-configs", "10"}),
             with({"--csv", dir + "/a.csv", "--png", dir + "/nope/b.png"}),
             with({"--svg", dir}),
         }) {
        const auto res = run_layoutlab(args);
        EXPECT_EQ(res.code, 2) << args.back() << "\n" << res.out;
        EXPECT_EQ(res.err.rfind("error: ", 0), 0u) << res.err;
    }
    EXPECT_FALSE(ll::test::file_exists(dir + "/a.csv"));
}
