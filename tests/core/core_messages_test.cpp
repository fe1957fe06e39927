// Core speaks in parameter keys, never in CLI flags (issue 12): a UsageError
// about one parameter carries its key, and its text quotes no "--flag"; the
// CLI puts the flag in (app/cli/flags.cpp), a panel frames its field.
// Two guards: every string literal under core/ is free of "--x", and a set of
// bad inputs to each engine throws keyed errors whose text has no "--".
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/aicore/model.hpp"
#include "core/checked.hpp"
#include "core/error.hpp"
#include "core/exec/conv.hpp"
#include "core/exec/load2d.hpp"
#include "core/exec/load3d.hpp"
#include "core/exec/product.hpp"
#include "core/exec/window_args.hpp"
#include "core/format/format.hpp"
#include "core/netplan/noc.hpp"
#include "core/netplan/strategy.hpp"
#include "core/shape.hpp"
#include "core/tiling/tiling.hpp"
#include "core/view/args.hpp"

namespace fs = std::filesystem;
using ll::UsageError;

namespace {

// The string literals of a C++ source, in order (comments skipped; raw
// strings and escapes handled well enough for this code base).
std::vector<std::string> string_literals(const std::string& s) {
    std::vector<std::string> out;
    size_t i = 0;
    while (i < s.size()) {
        if (s.compare(i, 2, "//") == 0) {
            i = s.find('\n', i);
            if (i == std::string::npos) break;
        } else if (s.compare(i, 2, "/*") == 0) {
            i = s.find("*/", i + 2);
            if (i == std::string::npos) break;
            i += 2;
        } else if (s[i] == '\'') {  // a char literal, or a digit separator
            const bool digits = i > 0 && std::isalnum(static_cast<unsigned char>(s[i - 1]));
            ++i;
            if (!digits) {
                while (i < s.size() && s[i] != '\'') i += s[i] == '\\' ? 2 : 1;
                ++i;
            }
        } else if (s[i] == 'R' && i + 1 < s.size() && s[i + 1] == '"') {
            const size_t open = s.find('(', i);
            const std::string end = ")" + s.substr(i + 2, open - i - 2) + "\"";
            const size_t close = s.find(end, open);
            out.push_back(s.substr(open + 1, close - open - 1));
            i = close + end.size();
        } else if (s[i] == '"') {
            std::string lit;
            ++i;
            while (i < s.size() && s[i] != '"') {
                if (s[i] == '\\' && i + 1 < s.size()) lit += s[i++];
                lit += s[i++];
            }
            out.push_back(lit);
            ++i;
        } else {
            ++i;
        }
    }
    return out;
}

// "--x" with x a letter: how a flag is quoted.
bool quotes_flag(const std::string& text) {
    for (size_t p = text.find("--"); p != std::string::npos; p = text.find("--", p + 1))
        if (p + 2 < text.size() && std::isalpha(static_cast<unsigned char>(text[p + 2])))
            return true;
    return false;
}

template <class F>
UsageError error_of(F&& f) {
    try {
        f();
    } catch (const UsageError& e) {
        return e;
    }
    return UsageError("did not throw");
}

}  // namespace

TEST(CoreMessages, ScannerFindsLiteralsAndSkipsComments) {
    const auto lits = string_literals(
        "// \"--in-comment\"\nf(\"--shape: x\", 'a', 1'000, \"a\\\"b\"); /* \"--c\" */ "
        "R\"x(--raw)x\"");
    ASSERT_EQ(lits.size(), 3u);
    EXPECT_TRUE(quotes_flag(lits[0]));
    EXPECT_EQ(lits[1], "a\\\"b");
    EXPECT_TRUE(quotes_flag(lits[2]));
    EXPECT_FALSE(quotes_flag("a -- b; x--; --"));
}

TEST(CoreMessages, NoStringLiteralInCoreQuotesAFlag) {
    const fs::path core = fs::path(LAYOUTLAB_SOURCE_DIR) / "core";
    size_t files = 0;
    for (const auto& f : fs::recursive_directory_iterator(core)) {
        const std::string ext = f.path().extension().string();
        if (ext != ".cpp" && ext != ".hpp") continue;
        ++files;
        // The hardware tables link each row to the command that shows it:
        // those strings are command lines for the user, not messages.
        if (f.path().filename() == "hardware_tables.cpp") continue;
        std::ifstream in(f.path());
        std::stringstream ss;
        ss << in.rdbuf();
        for (const std::string& lit : string_literals(ss.str())) {
            EXPECT_FALSE(quotes_flag(lit)) << f.path() << ": \"" << lit << "\"";
        }
    }
    EXPECT_GT(files, 50u);  // the scan saw the engine
}

TEST(CoreMessages, BadInputsThrowKeyedErrorsWithoutFlags) {
    struct Case {
        const char* key;
        UsageError e;
    };
    std::vector<Case> cases;
    {
        ll::ConvertSpec s;
        s.from = ll::Format::ND;
        s.to = ll::Format::FRACTAL_NZ;
        s.shape = {};
        cases.push_back({"shape", error_of([&] { ll::make_pipeline(s); })});
        s.shape = {2, 2, 28};
        s.c0 = 5000;
        cases.push_back({"c0", error_of([&] { ll::make_pipeline(s); })});
        s.c0 = 0;
        s.heads = -1;
        cases.push_back({"heads_groups", error_of([&] { ll::make_pipeline(s); })});
        s.heads = 0;
        s.from = ll::Format::NC1HWC0;
        s.to = ll::Format::FRACTAL_NZ;
        cases.push_back({"from_to", error_of([&] { ll::make_pipeline(s); })});
    }
    {
        ll::tiling::Config c;
        c.l1_tile = {128, 14, 14};
        cases.push_back({"l1_tile", error_of([&] { ll::tiling::validate(c); })});
        c = {};
        c.l2_passes = 0;
        cases.push_back({"l2_passes", error_of([&] { ll::tiling::validate(c); })});
        cases.push_back({"layout", error_of([] { ll::tiling::check_layout("XYZW"); })});
        cases.push_back({"order", error_of([] { ll::tiling::parse_order("W_W_C"); })});
    }
    {
        ll::exec::Load2dParams p;
        p.repeat = 0;
        cases.push_back({"repeatTimes", error_of([&] { p.validate(); })});
        p = {};
        p.transpose = true;
        p.src = ll::exec::Buffer::A1;
        p.dst = ll::exec::Buffer::A2;
        p.dtype = ll::DType::fp32;
        cases.push_back({"ifTranspose", error_of([&] { p.validate(); })});
        p = {};
        p.product = ll::exec::Product::inference_vector;
        cases.push_back({"product", error_of([&] { p.validate(); })});
        ll::exec::Load3dParams q;
        q.stride_w = 0;
        cases.push_back({"strideW", error_of([&] { q.validate(); })});
        ll::exec::ConvParams c;
        c.cin = 0;
        cases.push_back({"Cin", error_of([&] { c.validate(); })});
        ll::exec::Window2d w;
        cases.push_back(
            {"pad", error_of([&] { ll::exec::apply_window_lists(w, "1,2,3", "", ""); })});
    }
    {
        ll::netplan::NocConfig n;
        n.pes = 0;
        cases.push_back({"pes", error_of([&] { ll::netplan::plan_distributed_transpose(n); })});
        n = {};
        n.pes = 64;
        n.max_steps = 10;
        cases.push_back(
            {"max_steps", error_of([&] { ll::netplan::plan_distributed_transpose(n); })});
        ll::netplan::MemoryModel m;
        m.dram_gbps = 0;
        cases.push_back({"bandwidth", error_of([&] { ll::netplan::check(m); })});
    }
    {
        ll::aicore::Problem p;
        p.m = 0;
        p.k = p.n = 16;
        cases.push_back({"m", error_of([&] { p.validate(); })});
        cases.push_back({"elem_size", error_of([] { ll::view::elem_bits_from("fp16", 2); })});
        cases.push_back({"index", error_of([] { ll::view::parse_index("1,2", {4}); })});
        cases.push_back({"shape", error_of([] { ll::parse_shape("2,0"); })});
        cases.push_back(
            {"max_steps", error_of([] { ll::check_work(10, 5, "test", "steps", "max_steps"); })});
    }
    for (const Case& c : cases) {
        SCOPED_TRACE(c.e.what());
        EXPECT_EQ(c.e.key(), c.key);
        EXPECT_FALSE(quotes_flag(c.e.what()));
        EXPECT_FALSE(quotes_flag(c.e.detail()));
        EXPECT_FALSE(c.e.detail().empty());
    }
}
