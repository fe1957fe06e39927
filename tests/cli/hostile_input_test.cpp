// Hostile input on the command line (issue 18): one test per group of the
// issue. Every run is bounded by `timeout` in the harness (a hang or a
// runaway allocation shows as exit 124/137, not as a slow test), must exit 2
// with "error: " naming the thing and the limit, and leave no file behind.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dirent.h>

#include <fstream>
#include <string>
#include <vector>

#include "tests/support/process.hpp"

namespace {

using ll::test::RunResult;
using ll::test::shell_quote;

// `timeout -s KILL 20 layoutlab ARGS` with a file-size limit of `fsize_kib`
// (0 = none); SIGXFSZ is ignored so a write past it fails with EFBIG like a
// full disk.
RunResult run(const std::vector<std::string>& args, int fsize_kib = 0) {
    std::string cmd;
    if (fsize_kib > 0) cmd = "trap '' XFSZ; ulimit -f " + std::to_string(fsize_kib * 2) + "; ";
    cmd += "exec timeout -s KILL 20 " + shell_quote(LAYOUTLAB_EXE);
    for (const auto& a : args) cmd += " " + shell_quote(a);
    return ll::test::run_shell(cmd);
}

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// exit 2, one "error: " line naming every part given.
void expect_refused(const RunResult& r, const std::vector<std::string>& parts) {
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
    for (const auto& p : parts) EXPECT_TRUE(has(r.err, p)) << "missing '" << p << "' in " << r.err;
}

std::vector<std::string> files_in(const std::string& dir) {
    std::vector<std::string> out;
    if (DIR* d = opendir(dir.c_str())) {
        while (dirent* e = readdir(d))
            if (std::string(e->d_name) != "." && std::string(e->d_name) != "..")
                out.push_back(e->d_name);
        closedir(d);
    }
    return out;
}

std::string write(const std::string& dir, const std::string& name, const std::string& body) {
    const std::string path = dir + "/" + name;
    std::ofstream(path, std::ios::binary) << body;
    return path;
}

std::string nested(size_t depth) {
    return std::string(depth, '[') + std::string(depth, ']');
}

// A small valid .npy: fp16 (2,3), zeros.
std::string small_npy() {
    std::string h = "{'descr': '<f2', 'fortran_order': False, 'shape': (2, 3), }";
    while ((10 + h.size() + 1) % 64) h += ' ';
    h += '\n';
    std::string b = "\x93NUMPY";
    b += '\x01';
    b += '\0';
    b += char(h.size() & 0xFF);
    b += char(h.size() >> 8);
    return b + h + std::string(12, '\0');
}

}  // namespace

// 1. Deep JSON: refused while parsing, at the depth limit, no stack overflow.
TEST(HostileInput, DeepJsonGraphIsRefusedAtTheDepthLimit) {
    const std::string dir = ll::test::make_temp_dir();
    for (size_t depth : {65u, 150000u}) {
        const std::string g = write(
            dir, "deep.json",
            R"({"nodes":[{"name":"x","op":"Input","shape":[1],"layout":)" + nested(depth) + "}]}");
        expect_refused(run({"plan", "--graph", g}), {"--graph", "nested more than 64 levels"});
    }
    // Depth 60 is a (wrong) layout, not a depth error: the limit is exact.
    write(dir, "ok.json",
          R"({"nodes":[{"name":"x","op":"Input","shape":[1],"layout":)" + nested(60) + "}]}");
    const RunResult r = run({"plan", "--graph", dir + "/ok.json"});
    EXPECT_EQ(r.code, 2);
    EXPECT_FALSE(has(r.err, "nested")) << r.err;
}

// 3. Rank: a limit of 32 dimensions for every shape from a user.
TEST(HostileInput, RankOverTheLimitIsRefused) {
    std::string shape = "1";
    for (int i = 1; i < 60001; ++i) shape += ",1";
    expect_refused(
        run({"convert", "--from", "ND", "--to", "FRACTAL_NZ", "--dtype", "fp16", "--shape", shape}),
        {"--shape", "rank 60001", "limit of 32"});
    std::vector<std::string> args{"view", "--shape", "2,3"};
    for (int i = 0; i < 40; ++i) args.insert(args.end(), {"--op", "unsqueeze:0"});
    expect_refused(run(args), {"unsqueeze:0", "rank 33", "limit of 32"});
    std::vector<std::string> many{"view", "--shape", "2,3"};
    for (int i = 0; i < 300; ++i) many.insert(many.end(), {"--op", "squeeze"});
    expect_refused(run(many), {"--op", "300 ops", "limit of 256"});
}

// 4. Exit 2, not 1 ("internal"), for numbers no double holds and bad types.
TEST(HostileInput, OverflowingJsonNumberIsAUsageError) {
    const std::string dir = ll::test::make_temp_dir();
    const std::string g =
        write(dir, "g.json", R"({"nodes":[{"name":"x","op":"Input","shape":[1e400]}]})");
    expect_refused(run({"plan", "--graph", g}), {"--graph", "bad JSON"});
    write(dir, "f.json", R"({"nodes":[{"name":"x","op":"Input","shape":[2.5]}]})");
    expect_refused(run({"plan", "--graph", dir + "/f.json"}), {"shape entries", "integers"});
}

// 5. Checked 64-bit arithmetic: overflow is an error, never a wrapped value.
TEST(HostileInput, OverflowIsRefusedNotWrapped) {
    const std::string dir = ll::test::make_temp_dir();
    // Concat doubling a dimension: 2^40 passes the element cap, never wraps.
    std::string nodes = R"({"name":"n0","op":"Input","shape":[2, 4194304]})";
    for (int i = 1; i <= 64; ++i)
        nodes += R"(,{"name":"n)" + std::to_string(i) + R"(","op":"Concat","axis":1,"inputs":["n)" +
                 std::to_string(i - 1) + R"(","n)" + std::to_string(i - 1) + R"("]})";
    const std::string g = write(dir, "concat.json", "{\"nodes\":[" + nodes + "]}");
    const RunResult c = run({"plan", "--graph", g});
    expect_refused(c, {"node 'n", "more than 2^40 elements"});
    EXPECT_FALSE(has(c.err, "-")) << c.err;
    expect_refused(
        run({"noc", "--elem-bytes", "9223372036854775807", "--shape", "1048576,1048576"}),
        {"--elem-bytes", "overflows 64-bit"});
    expect_refused(run({"tiling", "--l2-passes", "9223372036854775807"}),
                   {"--l2-passes", "1..1000000"});
    expect_refused(run({"agu", "--gather", "999999999999999999", "--elem-size", "64"}),
                   {"gather index 999999999999999999", "64-bit address range"});
    const std::string big = "16777216";
    const RunResult r = run({"img2col", "--n", big, "--c", big, "--h", big, "--w", big});
    expect_refused(r, {"img2col input N x C x H x W", "limit of 1099511627776"});
    EXPECT_FALSE(has(r.err, "-")) << "a negative number means the product wrapped: " << r.err;
}

// 6. Input files: regular files only, the size known and the header read
// before any data.
TEST(HostileInput, InputFilesAreCheckedBeforeTheyAreRead) {
    const std::string dir = ll::test::make_temp_dir();
    // A valid .npy followed by 3 GiB (sparse) of trailing bytes: refused from
    // the file size, without reading them.
    const std::string npy = write(dir, "trail.npy", small_npy());
    ASSERT_EQ(::truncate(npy.c_str(), off_t(small_npy().size()) + (off_t(3) << 30)), 0);
    expect_refused(
        run({"convert", "--from", "ND", "--to", "FRACTAL_NZ", "--shape", "2,3", "--input", npy}),
        {"--input", "over the limit"});
    expect_refused(run({"convert", "--from", "ND", "--to", "FRACTAL_NZ", "--shape", "2,3",
                        "--input", npy, "--max-bytes", "8000000000"}),
                   {"3221225472 unexpected bytes after the data"});
    expect_refused(run({"convert", "--from", "ND", "--to", "FRACTAL_NZ", "--dtype", "fp16",
                        "--shape", "2,3", "--input", "/dev/zero"}),
                   {"--input", "/dev/zero", "character device"});
    expect_refused(run({"plan", "--graph", "/dev/zero"}), {"--graph", "character device"});
    expect_refused(run({"plan", "--graph", dir}), {"--graph", "directory"});
    const std::string fifo = dir + "/fifo";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    expect_refused(run({"plan", "--graph", fifo}), {"--graph", "FIFO"});
    expect_refused(run({"convert", "--from", "ND", "--to", "FRACTAL_NZ", "--dtype", "fp16",
                        "--shape", "2,3", "--input", fifo}),
                   {"--input", "FIFO"});
    ::unlink(fifo.c_str());
    ::unlink(npy.c_str());
}

// 8. Work budgets: refused before the work starts, naming the limit and the
// flag that raises it.
TEST(HostileInput, WorkOverTheBudgetIsRefusedNamingTheFlag) {
    expect_refused(run({"noc", "--pes", "4096", "--shape", "4096,4096"}),
                   {"route steps", "limit of 20000000", "--max-steps"});
    expect_refused(run({"conv", "--n", "1", "--cin", "16", "--h", "1024", "--w", "1024", "--cout",
                        "256", "--check"}),
                   {"multiply-adds", "limit of 1000000000", "--max-steps"});
    std::string sizes = "1";
    for (int i = 2; i <= 1300; ++i) sizes += "," + std::to_string(i);
    expect_refused(run({"sweep", "--shape", "1,1300,1300,1300", "--c-sizes", sizes, "--h-sizes",
                        sizes, "--w-sizes", sizes}),
                   {"configurations", "limit of 4000000", "--max-configs"});
    expect_refused(
        run({"sweep", "--c-sizes", "1,2,4,8,16,32,64,3,5,6,7,9", "--h-sizes",
             "1,2,4,7,8,14,28,56,3,5,6,9", "--w-sizes", "1,2,4,7,8,14,28,56,3,5,6,9,10"}),
        {"configurations", "--max-configs"});
    expect_refused(run({"agu", "--shape", "1024,1024,1024", "--count", "9223372036854775807"}),
                   {"listed addresses", "limit of 1000000", "--max-steps"});
    expect_refused(run({"convert", "--from", "ND", "--to", "FRACTAL_NZ", "--dtype", "fp16",
                        "--shape", "16384,16384", "--json"}),
                   {"bytes of memory", "limit of 1073741824", "--max-bytes"});
    // Inside the limits, the closed-form models answer at once.
    const RunResult t = run({"tiling", "--shape", "1,65536,65536,256", "--l1-tile", "1,1,1",
                             "--l2-tile", "1,1,1", "--json"});
    EXPECT_EQ(t.code, 0) << t.err;
    // A chain of 20,000 ReLUs plans (linear in the nodes), one more is refused.
    const std::string dir = ll::test::make_temp_dir();
    std::string nodes = R"({"name":"x","op":"Input","shape":[1,8,4,4]})";
    for (int i = 1; i < 20000; ++i)
        nodes += R"(,{"name":"r)" + std::to_string(i) + R"(","op":"ReLU","inputs":[")" +
                 (i == 1 ? std::string("x") : "r" + std::to_string(i - 1)) + R"("]})";
    write(dir, "chain.json", "{\"nodes\":[" + nodes + "]}");
    const RunResult p = run({"plan", "--graph", dir + "/chain.json", "--json"});
    EXPECT_EQ(p.code, 0) << p.err;
    nodes += R"(,{"name":"last","op":"ReLU","inputs":["r19999"]})";
    write(dir, "chain2.json", "{\"nodes\":[" + nodes + "]}");
    expect_refused(run({"plan", "--graph", dir + "/chain2.json"}),
                   {"20001 nodes", "limit of 20000"});
}

// 9. Outputs: every byte and the close checked before the rename.
TEST(HostileInput, FullDiskLeavesNoPartialOutput) {
    const std::string dir = ll::test::make_temp_dir();
    const RunResult r = run({"convert", "--from", "ND", "--to", "FRACTAL_NZ", "--dtype", "fp32",
                             "--shape", "256,256", "--output", dir + "/out.npy"},
                            /*fsize_kib=*/16);
    expect_refused(r, {"out.npy", "File too large"});
    EXPECT_TRUE(files_in(dir).empty()) << files_in(dir).front();
}

// 10. A signal while the output is written removes the temporary.
TEST(HostileInput, SignalDuringOutputLeavesNoTemporary) {
    const std::string dir = ll::test::make_temp_dir();
    const std::string out = dir + "/out.npy";
    int interrupted = 0;
    // The 128 MiB write takes a noticeable time; signals land at different
    // moments of it (before, during, after the write).
    for (const char* delay : {"0.05", "0.2", "0.4", "0.6", "0.9", "1.3"}) {
        for (const char* sig : {"INT", "TERM"}) {
            const RunResult r = ll::test::run_shell(
                std::string("timeout -s ") + sig + " " + delay + " " + shell_quote(LAYOUTLAB_EXE) +
                " convert --from ND --to FRACTAL_NZ --dtype fp32 --shape 4096,8192 --output " +
                shell_quote(out));
            if (r.code != 0) ++interrupted;
            for (const auto& f : files_in(dir))
                EXPECT_EQ(f, "out.npy") << "left behind after SIG" << sig << " at " << delay;
            ::unlink(out.c_str());
        }
    }
    EXPECT_GT(interrupted, 0);
}

// 11. Values accepted elsewhere must be refused here too.
TEST(HostileInput, BadValuesAreRefusedNotTaken) {
    expect_refused(run({"load3d", "--dtype", "int8", "--pad-value", "1000"}),
                   {"--pad-value", "1000", "int8", "[-128, 127]"});
    expect_refused(run({"load3d", "--dtype", "uint8", "--pad-value", "-1"}),
                   {"--pad-value", "uint8", "[0, 255]"});
    expect_refused(run({"load3d", "--dtype", "int8", "--pad-value", "0.5"}),
                   {"--pad-value", "0.5", "int8"});
    expect_refused(run({"noc", "--mesh-cols", "-1"}), {"--mesh-cols: -1", "negative"});
    expect_refused(run({"noc", "--link-bandwidth", "nan"}), {"--link-bandwidth", "nan"});
}

// The limits are where a user meets them: in --help.
TEST(HostileInput, LimitsAreInHelp) {
    for (const auto& [cmd, flag] :
         std::vector<std::pair<std::string, std::string>>{{"convert", "--max-bytes"},
                                                          {"conv", "--max-steps"},
                                                          {"noc", "--max-steps"},
                                                          {"agu", "--max-steps"},
                                                          {"sweep", "--max-configs"},
                                                          {"plan", "--max-steps"}}) {
        const RunResult r = run({cmd, "--help"});
        EXPECT_EQ(r.code, 0);
        EXPECT_TRUE(has(r.out, flag)) << cmd << " --help lacks " << flag;
    }
}

// A number that cannot be read, or that a limit refuses, is named with the
// flag first and what it takes (CLI11's own words were "Could not convert:
// --threads = 1.5" and a range printed as doubles to 309 digits).
TEST(HostileInput, BadNumbersSayWhatIsExpected) {
    const std::vector<std::string> nz = {"convert", "--from", "ND",      "--to", "NZ",
                                         "--shape", "2,3",    "--dtype", "fp16"};
    auto with = [&nz](std::vector<std::string> more) {
        std::vector<std::string> a = nz;
        a.insert(a.end(), more.begin(), more.end());
        return a;
    };
    expect_refused(run(with({"--threads", "1.5"})),
                   {"error: --threads: '1.5' is not a whole number; expected one such as 4"});
    expect_refused(run(with({"--pad-value", "abc"})),
                   {"error: --pad-value: 'abc' is not a number; expected one such as 0.5"});
    expect_refused(run(with({"--max-bytes", "4e9"})), {"--max-bytes: '4e9' is not a whole number"});
    expect_refused(run(with({"--max-bytes", "0"})),
                   {"--max-bytes: 0 is not positive; expected a whole number of at least 1"});
    expect_refused(run(with({"--max-bytes", "99999999999999999999"})),
                   {"--max-bytes: 99999999999999999999 is too large"});
    expect_refused(run({"agu", "--max-steps", "-3"}), {"--max-steps: -3 is not positive"});
    const RunResult ok = run(with({"--max-bytes", "100000"}));
    EXPECT_EQ(ok.code, 0) << ok.err;
    for (const auto& r : {run(with({"--max-bytes", "0"})), run(with({"--threads", "x"}))})
        EXPECT_FALSE(has(r.err, "0.000000") || has(r.err, "Could not convert")) << r.err;
}
