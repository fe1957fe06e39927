// Internal to core/format: the one prefetch hint every walk uses
// (transpose_tile.hpp's tiles, batch_tiles.hpp, executor.cpp and the int4
// walks of executor_int4.cpp).
#pragma once

#include <cstdint>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace ll::detail {

// A hint to bring p's line into the cache: kLevel 1 into L1, 2 into L2
// only (for lines that share few L1 sets, rows a 2 KiB multiple apart, and
// would evict each other before their use). Never faults, so p may point
// past the end of a buffer. always_inline: GCC 12 treats a function whose
// only effect is a prefetch as free of side effects and, where it is not
// inlined, drops its calls; the prefetches then silently vanish.
template <int kLevel = 1>
__attribute__((always_inline)) inline void prefetch_line([[maybe_unused]] const void* p) {
    static_assert(kLevel == 1 || kLevel == 2, "prefetch into L1 or L2");
#ifdef __SSE2__
    _mm_prefetch(static_cast<const char*>(p), kLevel == 1 ? _MM_HINT_T0 : _MM_HINT_T1);
#endif
}

// p advanced by `bytes` as an integer: a prefetch address past the end of
// a buffer need not point anywhere, and pointer arithmetic there would be
// undefined.
__attribute__((always_inline)) inline const void* prefetch_at(const void* p, int64_t bytes) {
    return reinterpret_cast<const void*>(reinterpret_cast<uintptr_t>(p) +
                                         static_cast<uintptr_t>(bytes));
}

}  // namespace ll::detail
