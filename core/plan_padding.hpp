// How much of a Plan's final buffer is padding: the cells with no source
// element (Plan::src == -1), as a count and as a share of all cells. The
// explorer and the overview show the ratio as a number; a teacher's question
// "how much memory does NC1HWC0 waste on a 3-channel picture?" reads off it.
//
// Example: ND (2,2,28) fp16 -> FRACTAL_NZ has 1024 cells and 112 source
// elements: padding_of(p) == {912, 1024}, ratio() == 0.890625.
#pragma once

#include <cstdint>

#include "core/plan.hpp"

namespace ll {

struct PaddingCount {
    int64_t padding = 0;  // cells holding no source element
    int64_t total = 0;    // all cells (Plan::cell_count)
    double ratio() const { return total > 0 ? double(padding) / double(total) : 0.0; }
};

PaddingCount padding_of(const Plan& p);

}  // namespace ll
