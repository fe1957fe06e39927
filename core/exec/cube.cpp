#include "core/exec/cube.hpp"

#include "core/error.hpp"

namespace ll::exec {

CubeShape cube_shape(DType t) {
    if (t == DType::fp16) return CubeShape{16, 16, 16};
    if (t == DType::int8) return CubeShape{16, 32, 16};
    throw UsageError(std::string("Cube dtype ") + name(t) + "; expected fp16 or int8");
}

namespace {

// c[m][n] += sum_k a[m][k] * bt[k][n]. The innermost loop runs over 16
// contiguous n with no reduction, so the compiler vectorises it without
// reassociating the sum (each C element still adds its terms in k order).
template <class T, class Acc, int K0>
inline void kernel(const T* __restrict a, const T* __restrict bt, Acc* __restrict c) {
    for (int m = 0; m < 16; ++m) {
        Acc row[16];
        for (int n = 0; n < 16; ++n) row[n] = c[m * 16 + n];
        for (int k = 0; k < K0; ++k) {
            const Acc av = Acc(a[m * K0 + k]);
            for (int n = 0; n < 16; ++n) row[n] += av * Acc(bt[k * 16 + n]);
        }
        for (int n = 0; n < 16; ++n) c[m * 16 + n] = row[n];
    }
}

template <class T, class Acc>
void kernel_any(const T* a, const T* bt, Acc* c, int64_t k0) {
    if (k0 == 16) return kernel<T, Acc, 16>(a, bt, c);
    if (k0 == 32) return kernel<T, Acc, 32>(a, bt, c);
    throw UsageError("Cube K0 = " + std::to_string(k0) + "; expected 16 or 32");
}

template <class T, class Acc>
int64_t mmad_any(const T* a, const T* b, Acc* c, int64_t m1, int64_t k1, int64_t n1, int64_t k0) {
    const int64_t fa = 16 * k0, fc = 256;
    // B fractals transposed once (they are reused by every m1).
    std::vector<T> bt(size_t(k1 * n1 * fa));
    for (int64_t f = 0; f < k1 * n1; ++f) {
        std::vector<T> t = transpose_b_fractal(b + f * fa, k0);
        std::copy(t.begin(), t.end(), bt.begin() + f * fa);
    }
    int64_t steps = 0;
    for (int64_t k = 0; k < k1; ++k)
        for (int64_t n = 0; n < n1; ++n) {
            const T* bf = bt.data() + (k * n1 + n) * fa;
            for (int64_t m = 0; m < m1; ++m, ++steps)
                kernel_any<T, Acc>(a + (m * k1 + k) * fa, bf, c + (n * m1 + m) * fc, k0);
        }
    return steps;
}

}  // namespace

void mmad_fractal(const float* a, const float* bt, float* c, int64_t k0) {
    kernel_any<float, float>(a, bt, c, k0);
}
void mmad_fractal(const int8_t* a, const int8_t* bt, int32_t* c, int64_t k0) {
    kernel_any<int8_t, int32_t>(a, bt, c, k0);
}

int64_t mmad(const float* a, const float* b, float* c, int64_t m1, int64_t k1, int64_t n1,
             int64_t k0) {
    return mmad_any<float, float>(a, b, c, m1, k1, n1, k0);
}
int64_t mmad(const int8_t* a, const int8_t* b, int32_t* c, int64_t m1, int64_t k1, int64_t n1,
             int64_t k0) {
    return mmad_any<int8_t, int32_t>(a, b, c, m1, k1, n1, k0);
}

}  // namespace ll::exec
