// TensorBuffer: the alignment it promises, huge pages asked for only where
// they are meant to be, and the kernel's mode read as one of its words.
#include "core/format/tensor_buffer.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <string>

using ll::TensorBuffer;

namespace {

uintptr_t addr(const TensorBuffer& b) {
    return reinterpret_cast<uintptr_t>(b.data());
}

}  // namespace

TEST(TensorBuffer, SmallBuffersAreLineAlignedWithoutHugePages) {
    for (size_t n :
         {size_t(0), size_t(1), size_t(63), size_t(65), TensorBuffer::kHugePagesFrom - 1}) {
        TensorBuffer b(n);
        ASSERT_NE(b.data(), nullptr) << n;
        EXPECT_EQ(b.size(), n);
        EXPECT_EQ(addr(b) % 64, 0u) << n;
        EXPECT_FALSE(b.huge_pages()) << n;
        if (n > 0) {  // every byte is ours to write and read back
            std::memset(b.data(), 0x5A, n);
            EXPECT_EQ(b.data()[n - 1], 0x5A);
        }
    }
    EXPECT_EQ(TensorBuffer().size(), 0u);
    EXPECT_NE(TensorBuffer().data(), nullptr);
}

TEST(TensorBuffer, LargeBuffersAskForHugePagesWhereTheKernelAllowsIt) {
    const size_t n = TensorBuffer::kHugePagesFrom + 12345;  // not a page multiple
    TensorBuffer b(n);
    EXPECT_EQ(b.size(), n);
    EXPECT_EQ(addr(b) % TensorBuffer::kHugePage, 0u);
    std::memset(b.data(), 0x33, n);
    EXPECT_EQ(b.data()[0], 0x33);
    EXPECT_EQ(b.data()[n - 1], 0x33);
    const std::string mode = ll::transparent_huge_pages_mode();
#ifdef __linux__
    // madvise(MADV_HUGEPAGE) succeeds wherever the kernel has THP built in;
    // with "never" it is accepted and does nothing, and the buffer says so
    if (mode == "always" || mode == "madvise") {
        EXPECT_TRUE(b.huge_pages()) << mode;
    }
    if (mode == "never") {
        EXPECT_FALSE(b.huge_pages());
    }
#endif
    // asked not to: an ordinary buffer of the same size
    TensorBuffer plain(n, false);
    EXPECT_FALSE(plain.huge_pages());
    EXPECT_EQ(addr(plain) % 64, 0u);
    EXPECT_EQ(plain.size(), n);
}

TEST(TensorBuffer, MovesOwnership) {
    TensorBuffer a(TensorBuffer::kHugePagesFrom);
    uint8_t* p = a.data();
    const bool huge = a.huge_pages();
    TensorBuffer b;
    b = std::move(a);
    EXPECT_EQ(b.data(), p);
    EXPECT_EQ(b.size(), TensorBuffer::kHugePagesFrom);
    EXPECT_EQ(b.huge_pages(), huge);
}

TEST(TensorBuffer, ReadsTheKernelsModeAsOneWord) {
    const std::string mode = ll::transparent_huge_pages_mode();
    EXPECT_TRUE(mode == "always" || mode == "madvise" || mode == "never" || mode == "unknown")
        << mode;
    std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string line;
    if (f && std::getline(f, line)) {
        EXPECT_NE(line.find("[" + mode + "]"), std::string::npos) << line;
    } else {
        EXPECT_EQ(mode, "unknown");
    }
}
