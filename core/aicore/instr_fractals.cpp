#include "core/aicore/instr_fractals.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace ll::aicore {

namespace {
constexpr int64_t kFractalRows = 16;  // a fractal's rows (M, N): 16 for every dtype
}

MmadFractals mmad_fractals(const Instr& in, const Problem& p) {
    if (in.unit != Unit::cube) throw UsageError("the instruction is not an Mmad");
    return {in.rows / kFractalRows, in.depth / p.k0(), in.cols / kFractalRows};
}

exec::Load2dParams l0_load_params(const Instr& in, const Problem& p, const Tiling& t) {
    const bool a = in.op == Op::load_a_l0;
    if (!a && in.op != Op::load_b_l0) throw UsageError("the instruction is not an L1 -> L0 load");
    // A's tile is rows (M) x cols (K); B's is rows (K) x cols (N), stored N by K.
    const int64_t rows = a ? in.rows : in.cols, cols = a ? in.cols : in.rows;
    const int64_t fractals = (rows / kFractalRows) * (cols / p.k0());
    const int64_t steps = a ? t.step_ka : t.step_kb;  // L0 tiles of k in one L1 tile
    exec::Load2dParams l;
    l.dtype = p.dtype;
    l.src = a ? exec::Buffer::A1 : exec::Buffer::B1;
    l.dst = a ? exec::Buffer::A2 : exec::Buffer::B2;
    l.src_fractals = fractals * steps;
    l.start_index = (in.k % steps) * fractals;
    l.repeat = std::clamp<int64_t>(fractals, 1, exec::kLoad2dMaxRepeat);
    l.src_stride = 1;
    l.dst_gap = 0;
    return l;
}

}  // namespace ll::aicore
