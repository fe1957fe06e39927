// Why strides past one access unit all cost the same (issue 13: the tiling
// panel's W=2 and W=56 gave the same eta with no word why).
#pragma once

#include <string>

#include "core/tiling/tiling.hpp"

namespace ll::tiling {

// The smallest stride (elements) from which each element read fetches a whole
// access unit of m: access_bytes / element size (0 when m has no unit).
int64_t saturating_stride(DType t, const MemLevel& m);
// A sentence with the model's numbers: "with the 64 B DRAM access unit, every
// stride of 32 elements (64 B) or more fetches one unit per 2 B element: eta =
// 2 B / 64 B = 0.03125 for stride 32 and stride 3136 alike". Empty when
// `stride` is below the saturating stride or m has no access unit.
std::string stride_note(int64_t stride, DType t, const MemLevel& m);

}  // namespace ll::tiling
