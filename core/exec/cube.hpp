// The Cube unit (Mmad): one fractal multiply-accumulate per step.
//
// fp16: C[16x16] (fp32) += A[16x16] x B[16x16]   (4096 MACs per step)
// int8: C[16x16] (int32) += A[16x32] x B[32x16]  (8192 MACs per step)
// Operand layouts, as the buffers hold them:
//   A fractal (A2, "small Z"): 16 rows m of K0 contiguous k   -> a[m*K0 + k]
//   B fractal (B2, "small N"): 16 columns n of K0 contiguous k -> b[n*K0 + k]
//   C fractal (CO1, "small Z"): 16 rows m of 16 contiguous n  -> c[m*16 + n]
// Whole matrices (mmad): A in ZZ [M1][K1][16][K0], B in ZN [K1][N1][16][K0],
// C in NZ [N1][M1][16][16]; the loop runs K outermost, then N, then M (the
// lecture's order), one counted step per (k1, n1, m1).
// fp16 values are rounded to half precision when they enter (round_to_half)
// and accumulated in float, in k order; int8 accumulates exactly in int32.
// Worked example: A = all 1, B = all 2 (fp16, one fractal each): one step,
// every C element = 16 * 1 * 2 = 32.
#pragma once

#include <cstdint>
#include <vector>

#include "core/dtype.hpp"

namespace ll::exec {

struct CubeShape {
    int64_t m0 = 16, k0 = 16, n0 = 16;
};
// Throws UsageError unless t is fp16 or int8 (the two Cube input types here).
CubeShape cube_shape(DType t);

// One fractal step. `bt` is the B fractal transposed to [K0][16] (k-major), the
// form the kernel streams; make it with transpose_b_fractal().
void mmad_fractal(const float* a, const float* bt, float* c, int64_t k0);
void mmad_fractal(const int8_t* a, const int8_t* bt, int32_t* c, int64_t k0);

template <class T>
std::vector<T> transpose_b_fractal(const T* b, int64_t k0) {
    std::vector<T> bt(size_t(k0 * 16));
    for (int64_t n = 0; n < 16; ++n)
        for (int64_t k = 0; k < k0; ++k) bt[size_t(k * 16 + n)] = b[n * k0 + k];
    return bt;
}

// Whole-matrix Mmad, C += A x B in the layouts above. Returns the number of
// Cube steps (= M1 * K1 * N1). fp16 inputs must already be half-representable.
int64_t mmad(const float* a, const float* b, float* c, int64_t m1, int64_t k1, int64_t n1,
             int64_t k0);
int64_t mmad(const int8_t* a, const int8_t* b, int32_t* c, int64_t m1, int64_t k1, int64_t n1,
             int64_t k0);

}  // namespace ll::exec
