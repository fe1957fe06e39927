// Tensor-sized byte buffers for conversions: 64-byte aligned, and from
// kHugePagesFrom bytes on aligned to 2 MiB with transparent huge pages
// asked for (madvise MADV_HUGEPAGE on Linux), as NumPy does for its arrays
// of 4 MiB or more.
//
// Why: a gather that strides across many pages at once spends much of its
// time on page walks with 4 KiB pages. NCHW -> HWCN (1338,64,56,56) fp16
// reads 1,338 rows 401 KB apart, each on its own page; with huge pages it
// moved 3.8 GB/s against 2.4 (docs/PERFORMANCE.md, finding 52). memcpy,
// which walks pages in order, gains less.
//
// The advice is a hint: where the kernel's transparent huge pages are off
// ("never"), or the advice fails, the buffer is an ordinary one and nothing
// else changes. The contents start uninitialised.
//
// Contract: TensorBuffer b(n) holds n bytes at b.data(), 64-byte aligned
// (2 MiB aligned when n >= kHugePagesFrom and huge pages are asked for);
// TensorBuffer(0) has a non-null data() and size() 0.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

namespace ll {

class TensorBuffer {
  public:
    static constexpr size_t kHugePagesFrom = size_t(4) << 20;
    static constexpr size_t kHugePage = size_t(2) << 20;

    TensorBuffer() : TensorBuffer(0) {}
    // huge_pages false: an ordinary 64-byte aligned buffer (for comparison)
    explicit TensorBuffer(size_t bytes, bool huge_pages = true);

    uint8_t* data() { return p_.get(); }
    const uint8_t* data() const { return p_.get(); }
    size_t size() const { return n_; }
    // whether the kernel took the huge-page advice for this buffer (false
    // where its transparent huge pages are "never")
    bool huge_pages() const { return huge_; }

  private:
    struct Free {
        void operator()(uint8_t* p) const { std::free(p); }
    };
    std::unique_ptr<uint8_t, Free> p_;
    size_t n_ = 0;
    bool huge_ = false;
};

// The kernel's transparent huge page mode ("always", "madvise", "never"),
// or "unknown" where it cannot be read (not Linux, no sysfs).
std::string transparent_huge_pages_mode();

}  // namespace ll
