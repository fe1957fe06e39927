// One instruction of a simulated schedule (schedule.hpp) in the units of the
// Cube and LoadData models, so the pipeline panel can open either on a clicked
// instruction with the engine's numbers (and a test can check them):
//   - an Mmad multiplies m1 x k1 fractals of A by k1 x n1 of B:
//     m1 = rows / 16, k1 = depth / k0, n1 = cols / 16 (k0 = 32 B of the dtype);
//   - an L1 -> L0 load (MTE1) is one LoadData 2D over the L1 tile that holds
//     it: the L1 tile keeps step_ka (A) or step_kb (B) L0 tiles of k, one
//     after another, each of (rows / 16) x (cols / k0) fractals (B's rows and
//     columns swap: it is stored K by N); this load starts at the fractal of
//     its k chunk within that step and copies the L0 tile's fractals (at most
//     exec::kLoad2dMaxRepeat in one instruction), contiguous (srcStride 1,
//     dstGap 0).
// Example: fp16, baseM 128, baseK 64, stepKa 4: an A load of k chunk 6 reads
// (128/16) x (64/16) = 32 fractals starting at fractal (6 % 4) * 32 = 64 of
// an L1 tile of 128 fractals.
#pragma once

#include <cstdint>

#include "core/aicore/schedule.hpp"
#include "core/exec/load2d.hpp"

namespace ll::aicore {

struct MmadFractals {
    int64_t m1 = 0, k1 = 0, n1 = 0;
};
// `in` must be an Mmad (Unit::cube); UsageError otherwise.
MmadFractals mmad_fractals(const Instr& in, const Problem& p);

// `in` must be an L1 -> L0 load (Op::load_a_l0 or Op::load_b_l0); UsageError
// otherwise. The result validates (Load2dParams::validate()).
exec::Load2dParams l0_load_params(const Instr& in, const Problem& p, const Tiling& t);

}  // namespace ll::aicore
