#include "core/format/tensor_buffer.hpp"

#include <algorithm>
#include <fstream>
#include <new>
#ifdef __linux__
#include <sys/mman.h>
#endif

namespace ll {

TensorBuffer::TensorBuffer(size_t bytes, bool huge_pages) : n_(bytes) {
    const bool huge = huge_pages && bytes >= kHugePagesFrom;
    const size_t align = huge ? kHugePage : 64;
    // aligned_alloc wants a size that is a multiple of the alignment
    const size_t rounded = (std::max<size_t>(bytes, 1) + align - 1) / align * align;
    if (rounded < bytes) throw std::bad_alloc();
    p_.reset(static_cast<uint8_t*>(std::aligned_alloc(align, rounded)));
    if (!p_) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    // before the first touch, so the pages are huge from their first fault;
    // with the kernel's mode "never" the advice is accepted and does nothing
    if (huge)
        huge_ = madvise(p_.get(), rounded, MADV_HUGEPAGE) == 0 &&
                transparent_huge_pages_mode() != "never";
#endif
}

std::string transparent_huge_pages_mode() {
    std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string line;
    if (!f || !std::getline(f, line)) return "unknown";
    // "always [madvise] never": the bracketed word is in effect
    const size_t a = line.find('['), b = line.find(']');
    if (a == std::string::npos || b == std::string::npos || b < a) return "unknown";
    return line.substr(a + 1, b - a - 1);
}

}  // namespace ll
