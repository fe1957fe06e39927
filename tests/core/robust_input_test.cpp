// The hostile-input mechanisms of core/ (issue 18): checked arithmetic, the
// bounded JSON reader and its getters, input files opened by type and size.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <string>

#include "core/checked.hpp"
#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core/io/input_file.hpp"
#include "core/io/json_input.hpp"
#include "core/io/npy.hpp"
#include "core/shape.hpp"
#include "tests/support/process.hpp"

using ll::UsageError;

namespace {

// The message of the UsageError f throws ("" when it does not throw).
template <class F>
std::string error_of(F&& f) {
    try {
        f();
    } catch (const UsageError& e) {
        return e.what();
    }
    return "";
}

bool has(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

}  // namespace

TEST(Checked, MultiplicationAndAdditionRefuseOverflowAndLimits) {
    EXPECT_EQ(ll::checked_mul(1 << 20, 1 << 20, "x"), int64_t(1) << 40);
    EXPECT_TRUE(
        has(error_of([] { ll::checked_mul(int64_t(1) << 40, int64_t(1) << 40, "--shape"); }),
            "--shape: 1099511627776 x 1099511627776 overflows 64-bit"));
    EXPECT_TRUE(has(error_of([] { ll::checked_mul(10, 10, "n", 99); }), "over the limit of 99"));
    EXPECT_TRUE(has(error_of([] { ll::checked_add(INT64_MAX, 1, "a"); }), "overflows"));
    EXPECT_TRUE(has(error_of([] { ll::checked_mul(-1, 2, "a"); }), "negative"));
    EXPECT_EQ(ll::checked_product({2, 3, 4}, "s"), 24);
    EXPECT_EQ(ll::checked_product({0, INT64_MAX, INT64_MAX}, "s"), 0);  // a zero dim wins
    EXPECT_FALSE(error_of([] {
                     ll::checked_product({16777216, 16777216, 16777216, 16777216}, "img2col",
                                         ll::kMaxElements);
                 }).empty());
}

TEST(Checked, RankAndWorkLimits) {
    EXPECT_EQ(error_of([] { ll::check_rank(32, "s"); }), "");
    EXPECT_TRUE(has(error_of([] { ll::check_rank(33, "--shape"); }), "rank 33 is over the limit"));
    std::string many = "1";
    for (int i = 0; i < 40; ++i) many += ",1";
    EXPECT_TRUE(has(error_of([&] { ll::parse_shape(many); }), "rank 41"));
    const std::string w =
        error_of([] { ll::check_work(5e9, 100000000, "tiling", "steps", "--max-steps"); });
    EXPECT_TRUE(has(w, "5000000000 steps")) << w;
    EXPECT_TRUE(has(w, "limit of 100000000")) << w;
    EXPECT_TRUE(has(w, "--max-steps")) << w;
    EXPECT_FALSE(error_of([] { ll::check_work(std::nan(""), 1, "x", "u", "--f"); }).empty());
}

TEST(Checked, FloatsAreFiniteAndInRangeBeforeConversion) {
    EXPECT_EQ(ll::checked_float(1.5, "--ui-scale", 0.5, 4), 1.5);
    for (double bad : {std::nan(""), double(INFINITY), -double(INFINITY), 0.25, 5.0})
        EXPECT_FALSE(error_of([&] { ll::checked_float(bad, "--ui-scale", 0.5, 4); }).empty())
            << bad;
    EXPECT_EQ(ll::exact_integer(16.0, "c0", 0, 64), 16);
    EXPECT_TRUE(has(error_of([] { ll::exact_integer(16.5, "c0", 0, 64); }), "not a whole number"));
    EXPECT_TRUE(has(error_of([] { ll::exact_integer(1e32, "c0", 0, INT64_MAX); }), "out of range"));
    EXPECT_TRUE(has(error_of([] { ll::exact_integer(9.2233720368547758e18, "x", 0, INT64_MAX); }),
                    "out of range"));
    EXPECT_TRUE(has(error_of([] { ll::check_value_fits(ll::DType::int8, 1000, "--pad-value"); }),
                    "1000 does not fit int8"));
    EXPECT_EQ(error_of([] { ll::check_value_fits(ll::DType::fp16, std::nan(""), "p"); }), "");
}

TEST(JsonInput, DepthIsLimitedWhileParsing) {
    const auto nest = [](int d) {
        return std::string(size_t(d), '[') + std::string(size_t(d), ']');
    };
    EXPECT_NO_THROW(ll::parse_json_bounded(nest(64), "x"));
    EXPECT_TRUE(has(error_of([&] { ll::parse_json_bounded(nest(65), "--graph"); }),
                    "--graph: JSON nested more than 64 levels deep"));
    EXPECT_TRUE(has(error_of([&] { ll::parse_json_bounded(nest(1000000), "x"); }), "nested"));
    EXPECT_TRUE(has(error_of([] { ll::parse_json_bounded("[1e400]", "g"); }), "g: bad JSON"));
    EXPECT_TRUE(has(error_of([] { ll::parse_json_bounded("{", "g"); }), "bad JSON"));
}

TEST(JsonInput, GettersCheckTypeRangeAndExactness) {
    const auto j = ll::parse_json_bounded(
        R"({"i":16,"f":16.0,"h":16.5,"big":1e32,"u":18446744073709551615,"s":"x","b":true})", "t");
    EXPECT_EQ(ll::json_int(j["i"], "i", 0, 64), 16);
    EXPECT_EQ(ll::json_int(j["f"], "f", 0, 64), 16);
    EXPECT_TRUE(has(error_of([&] { ll::json_int(j["h"], "\"c0\"", 0, 64); }), "\"c0\": 16.5"));
    EXPECT_TRUE(has(error_of([&] { ll::json_int(j["big"], "x", 0, INT64_MAX); }), "out of range"));
    EXPECT_TRUE(has(error_of([&] { ll::json_int(j["u"], "x", 0, INT64_MAX); }), "out of range"));
    EXPECT_TRUE(has(error_of([&] { ll::json_int(j["s"], "x", 0, 1); }), "a string"));
    EXPECT_TRUE(has(error_of([&] { ll::json_int(j["b"], "x", 0, 1); }), "a boolean"));
    EXPECT_TRUE(has(error_of([&] { ll::json_float(j["big"], "speed", 0, 100); }), "out of range"));
    EXPECT_TRUE(has(error_of([&] {
                        ll::reject_unknown_keys(j, {"i", "f"}, "--scene");
                    }),
                    "--scene: unknown key \"b\""));
}

TEST(InputFile, OnlyRegularFilesOfKnownSize) {
    const std::string dir = ll::test::make_temp_dir();
    EXPECT_TRUE(has(error_of([] { ll::read_input_file("/dev/zero", "--graph", 100); }),
                    "character device"));
    EXPECT_TRUE(has(error_of([&] { ll::read_input_file(dir, "--scene", 100); }), "a directory"));
    const std::string fifo = dir + "/p";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_TRUE(has(error_of([&] { ll::read_input_file(fifo, "--input", 100); }), "FIFO"));
    ::unlink(fifo.c_str());
    const std::string f = dir + "/f";
    std::ofstream(f) << std::string(101, 'x');
    EXPECT_TRUE(has(error_of([&] { ll::read_input_file(f, "--graph", 100); }), "over the limit"));
    EXPECT_EQ(ll::read_input_file(f, "--graph", 101).size(), 101u);
    EXPECT_TRUE(
        has(error_of([&] { ll::read_input_file(dir + "/none", "--graph", 1); }), "cannot read"));
}

TEST(InputFile, NpyTrailingBytesAreRefusedFromTheSize) {
    const std::string dir = ll::test::make_temp_dir();
    const std::vector<uint8_t> zeros(12, 0);
    const std::string path = dir + "/a.npy";
    ll::write_npy(path, ll::DType::fp16, {2, 3}, zeros.data(), zeros.size());
    EXPECT_EQ(ll::read_npy(path).shape, (ll::Shape{2, 3}));
    struct stat st {};
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    // 3 GiB more, sparse: refused by size alone (reading it would take seconds).
    ASSERT_EQ(::truncate(path.c_str(), st.st_size + (off_t(3) << 30)), 0);
    EXPECT_TRUE(has(error_of([&] { ll::read_npy(path, int64_t(8) << 30); }),
                    "3221225472 unexpected bytes after the data"));
    EXPECT_TRUE(has(error_of([&] { ll::read_npy(path, int64_t(1) << 30); }), "over the limit"));
    ::unlink(path.c_str());
}
