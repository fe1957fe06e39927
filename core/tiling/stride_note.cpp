#include "core/tiling/stride_note.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace ll::tiling {

int64_t saturating_stride(DType t, const MemLevel& m) {
    if (m.access_bytes <= 0) return 0;
    const int64_t b = bits(t);
    return std::max<int64_t>(1, m.access_bytes * 8 / b);
}

std::string stride_note(int64_t stride, DType t, const MemLevel& m) {
    const int64_t sat = saturating_stride(t, m);
    stride = std::llabs(stride);
    if (sat <= 1 || stride < sat) return "";
    const double es = double(bits(t)) / 8.0;
    char buf[320];
    std::snprintf(buf, sizeof buf,
                  "with the %lld B %s access unit, every stride of %lld elements (%lld B) or "
                  "more fetches one whole unit per %g B element: eta = %g B / %lld B = %.4g "
                  "for stride %lld and stride %lld alike",
                  (long long)m.access_bytes, m.name.c_str(), (long long)sat,
                  (long long)m.access_bytes, es, es, (long long)m.access_bytes,
                  es / double(m.access_bytes), (long long)sat, (long long)stride);
    return buf;
}

}  // namespace ll::tiling
