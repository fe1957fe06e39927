// .npy reading and writing, and the atomic file writer it goes through.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <vector>

#include "core/error.hpp"
#include "core/io/atomic_file.hpp"
#include "core/io/npy.hpp"
#include "tests/support/process.hpp"

using namespace ll;

namespace {

std::string error_of(const std::string& bytes) {
    try {
        parse_npy(bytes, "x.npy");
    } catch (const UsageError& e) {
        return e.what();
    }
    return "";
}

// A hand-made .npy: header text as NumPy writes it (version 1.0).
std::string handmade(const std::string& dict, const std::string& data, int version = 1) {
    std::string h = dict;
    const size_t pre = version == 1 ? 10 : 12;
    while ((pre + h.size() + 1) % 64) h += ' ';
    h += '\n';
    std::string out = "\x93NUMPY";
    out += static_cast<char>(version);
    out += '\0';
    out += static_cast<char>(h.size() & 0xFF);
    out += static_cast<char>(h.size() >> 8);
    if (version == 2) out += std::string(2, '\0');
    return out + h + data;
}

}  // namespace

TEST(Npy, WriteThenParseEveryNumpyDtype) {
    for (DType t :
         {DType::int8, DType::uint8, DType::int16, DType::fp16, DType::fp32, DType::int32}) {
        const Shape s = {2, 3, 5};
        std::vector<uint8_t> d(static_cast<size_t>(30 * bits(t) / 8));
        for (size_t i = 0; i < d.size(); ++i) d[i] = static_cast<uint8_t>(i * 7);
        const std::string b = npy_bytes(t, s, d.data(), d.size());
        EXPECT_EQ(b.compare(0, 8, std::string("\x93NUMPY\x01\x00", 8)), 0);
        EXPECT_EQ((b.size() - d.size()) % 64, 0u);  // data aligned as NumPy does
        NpyArray a = parse_npy(b, "mem");
        EXPECT_EQ(a.dtype, t);
        EXPECT_EQ(a.shape, s);
        EXPECT_EQ(a.data, d);
    }
}

TEST(Npy, HeaderTextMatchesNumpy) {
    uint16_t v[6] = {};
    const std::string b = npy_bytes(DType::fp16, {2, 3}, v, sizeof v);
    EXPECT_NE(b.find("{'descr': '<f2', 'fortran_order': False, 'shape': (2, 3), }"),
              std::string::npos);
    const std::string one = npy_bytes(DType::int8, {4}, v, 4);
    EXPECT_NE(one.find("'shape': (4,)"), std::string::npos);
}

TEST(Npy, ReadsVersion2AndNumpyStyleHeaders) {
    const std::string b = handmade("{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }",
                                   std::string(8, '\1'), 2);
    NpyArray a = parse_npy(b, "v2");
    EXPECT_EQ(a.dtype, DType::int32);
    EXPECT_EQ(a.shape, (Shape{2}));
}

TEST(Npy, RejectsWhatItCannotRead) {
    const std::string ok = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }";
    EXPECT_NE(error_of("hello world, not numpy").find("bad magic"), std::string::npos);
    EXPECT_NE(error_of(handmade("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }",
                                std::string(16, '\0')))
                  .find("fortran_order"),
              std::string::npos);
    EXPECT_NE(error_of(handmade("{'descr': '>f4', 'fortran_order': False, 'shape': (2, 2), }",
                                std::string(16, '\0')))
                  .find("big-endian"),
              std::string::npos);
    EXPECT_NE(error_of(handmade("{'descr': '|O', 'fortran_order': False, 'shape': (2, 2), }",
                                std::string(32, '\0')))
                  .find("object"),
              std::string::npos);
    EXPECT_NE(error_of(handmade("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }",
                                std::string(32, '\0')))
                  .find("unsupported dtype '<f8'"),
              std::string::npos);
    EXPECT_NE(error_of(handmade(ok, std::string(15, '\0'))).find("truncated"), std::string::npos);
    EXPECT_NE(error_of(handmade(ok, std::string(17, '\0'))).find("unexpected bytes"),
              std::string::npos);
    EXPECT_NE(error_of(handmade(ok, "").substr(0, 30)).find("truncated"), std::string::npos);
    // every message names the file and what is expected
    const std::string m = error_of(handmade(ok, std::string(3, '\0')));
    EXPECT_EQ(m.rfind("x.npy: ", 0), 0u) << m;
    EXPECT_NE(m.find("expected"), std::string::npos) << m;
}

TEST(Npy, Int4AndBf16HaveNoNumpyDtype) {
    uint8_t d[4] = {};
    EXPECT_THROW(npy_bytes(DType::int4, {8}, d, 4), UsageError);
    EXPECT_THROW(npy_bytes(DType::bf16, {2}, d, 4), UsageError);
}

TEST(AtomicFile, WritesWholeFileAndLeavesNoTemporary) {
    const std::string dir = test::make_temp_dir();
    const std::string path = dir + "/a.npy";
    int32_t v[3] = {1, 2, 3};
    write_npy(path, DType::int32, {3}, v, sizeof v);
    NpyArray a = read_npy(path);
    EXPECT_EQ(a.shape, (Shape{3}));
    EXPECT_EQ(a.data.size(), 12u);
    write_file_atomic(path, std::string("replaced"));
    EXPECT_EQ(test::read_file(path), "replaced");
    auto r = test::run_shell("ls -A " + test::shell_quote(dir));
    EXPECT_EQ(r.out, "a.npy\n");  // no leftover temporary
}

// write_npy writes the header and then the data where it lies, and read_npy
// reads the data straight into the array: the file is npy_bytes' text
// exactly, for a tensor of several MiB too, and reads back unchanged.
TEST(AtomicFile, TensorFilesAreWrittenAndReadWithoutACopy) {
    const std::string dir = test::make_temp_dir();
    const std::string path = dir + "/big.npy";
    std::vector<uint16_t> v(size_t(1024) * 1536);
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<uint16_t>(i * 2654435761u >> 11);
    const size_t bytes = v.size() * 2;
    write_npy(path, DType::fp16, {1024, 1536}, v.data(), bytes);
    EXPECT_EQ(test::read_file(path), npy_bytes(DType::fp16, {1024, 1536}, v.data(), bytes));
    const NpyArray a = read_npy(path);
    EXPECT_EQ(a.dtype, DType::fp16);
    EXPECT_EQ(a.shape, (Shape{1024, 1536}));
    ASSERT_EQ(a.data.size(), bytes);
    EXPECT_EQ(std::memcmp(a.data.data(), v.data(), bytes), 0);
    // pieces, empty ones among them, one after the other
    write_file_atomic(path, {FilePiece{"ab", 2}, FilePiece{nullptr, 0}, FilePiece{"cde", 3}});
    EXPECT_EQ(test::read_file(path), "abcde");
    auto r = test::run_shell("ls -A " + test::shell_quote(dir));
    EXPECT_EQ(r.out, "big.npy\n");
    // the wrong size for the shape is refused before any file is made
    EXPECT_THROW(write_npy(dir + "/bad.npy", DType::fp16, {1024, 1536}, v.data(), bytes - 2),
                 std::invalid_argument);
    r = test::run_shell("ls -A " + test::shell_quote(dir));
    EXPECT_EQ(r.out, "big.npy\n");
}

TEST(AtomicFile, UnwritablePathIsUsageError) {
    try {
        write_file_atomic("/nonexistent-dir-h1/x.npy", std::string("x"));
        FAIL();
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent-dir-h1/x.npy"), std::string::npos);
    }
    EXPECT_THROW(read_npy("/nonexistent-dir-h1/x.npy"), UsageError);
}
