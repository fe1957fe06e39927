// Format conversions as Plans (core/plan.hpp): the explorer's picture.
#pragma once

#include <vector>

#include "core/format/format.hpp"
#include "core/plan.hpp"

namespace ll {

// The Plan of a chain of format conversions (each pipeline's destination is
// the next one's source; one pipeline is the usual case). Stages: the source
// tensor, the tensor after every step, and after each pipeline its
// destination buffer as memory (a linear grid of 32-byte rows). Cells are the
// final buffer's elements; src is the composed element map.
// Example: ND (2,2,28) fp16 -> FRACTAL_NZ gives 1024 cells and 5 stages
// (source, pad, reshape, transpose, memory); src[16] == 28.
// Throws UsageError when consecutive pipelines do not connect.
Plan format_plan(const std::vector<Pipeline>& chain);

}  // namespace ll
