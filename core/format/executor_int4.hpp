// The Executor's int4 walks for segments whose nibbles cannot move in pairs
// (executor_int4.cpp); pairs of nibbles move as bytes in executor.cpp.
// Internal to core/format.
#pragma once

#include <cstdint>
#include <vector>

#include "core/format/gather.hpp"

namespace ll::detail {

// One int4 segment (plain -> blocked, or back where seg.inverse) whose
// nibbles do not move in pairs: 32 x 32 nibble blocks where every tile
// starts on a byte, else tiles through bytes, else runs in strips, else
// the nibble walk. `nib` is the pad nibble.
void run_nibble_segment(const Segment& seg, uint8_t* plain, uint8_t* blocked, uint8_t nib,
                        int threads);

// Blocked -> blocked int4 as one composed gather (compile_composed) whose
// nibbles do not move in pairs; false when the two blockings do not nest.
bool run_nibble_composed(const Shape& plain, const std::vector<Step>& a_steps,
                         const std::vector<Step>& b_steps, const void* src, void* dst, uint8_t nib,
                         int threads);

}  // namespace ll::detail
