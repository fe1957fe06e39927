#include "core/plan_padding.hpp"

#include <algorithm>

namespace ll {

PaddingCount padding_of(const Plan& p) {
    PaddingCount c;
    c.total = p.cell_count;
    c.padding = int64_t(std::count_if(p.src.begin(), p.src.end(), [](int64_t s) { return s < 0; }));
    return c;
}

}  // namespace ll
