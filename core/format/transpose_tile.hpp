// Internal to core/format: the 2-D transposes behind the C-blocking
// conversions (NCHW <-> NC1HWC0, FRACTAL_Z, NDC1HWC0, ZN, NCHW <-> NHWC).
//
// A tile is a matrix with two index ranges: y (unit stride in the plain
// buffer `a`) and x (unit stride in the blocked buffer `b`):
//   a[y + x * sx]  <->  b[y * dy + x],   0 <= y < ny, 0 <= x < nx
// Gather (plain -> blocked) fills all of b's tile: entries with x >= vx, or
// y >= vy, are padding and get `pad`. Scatter (blocked -> plain) writes only
// a's entries with x < vx and y < vy.
//
// Example, NCHW (1,3,2,2) fp16 -> NC1HWC0 (C0 16): one tile with sx = 4
// (H*W), dy = 16, ny = 4, nx = 16, vx = 3, vy = 4; b row y holds
// a[y], a[y+4], a[y+8], then 13 pad values.
//
// Square blocks of B x B elements (B = 16 bytes / element size) go through
// SSE2 registers: B row loads, log2(B) rounds of unpacks, B row stores; the
// ragged edges are plain loops. Blocks are visited y-major, so b is written
// in address order when dy == nx (NC1HWC0) and a is read as nx streams.
#pragma once

#include <cstdint>
#include <cstring>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace ll::detail {

#ifdef __SSE2__

template <int kBytes>
inline __m128i unpack_lo(__m128i p, __m128i q) {
    if constexpr (kBytes == 1)
        return _mm_unpacklo_epi8(p, q);
    else if constexpr (kBytes == 2)
        return _mm_unpacklo_epi16(p, q);
    else if constexpr (kBytes == 4)
        return _mm_unpacklo_epi32(p, q);
    else
        return _mm_unpacklo_epi64(p, q);
}
template <int kBytes>
inline __m128i unpack_hi(__m128i p, __m128i q) {
    if constexpr (kBytes == 1)
        return _mm_unpackhi_epi8(p, q);
    else if constexpr (kBytes == 2)
        return _mm_unpackhi_epi16(p, q);
    else if constexpr (kBytes == 4)
        return _mm_unpackhi_epi32(p, q);
    else
        return _mm_unpackhi_epi64(p, q);
}

// Transposes B x B elements held as B registers (register = row). Each round
// interleaves row i with row i + B/2; viewing an element's (row, column) as
// one 2*log2(B)-bit number, a round rotates it left by one bit, so log2(B)
// rounds swap row and column.
template <int kBytes>
inline void transpose_regs(__m128i* r) {
    constexpr int B = 16 / kBytes;
    for (int round = 1; round < B; round *= 2) {
        __m128i n[B];
        for (int i = 0; i < B / 2; ++i) {
            n[2 * i] = unpack_lo<kBytes>(r[i], r[i + B / 2]);
            n[2 * i + 1] = unpack_hi<kBytes>(r[i], r[i + B / 2]);
        }
        for (int i = 0; i < B; ++i) r[i] = n[i];
    }
}

template <class T>
inline __m128i splat(T v) {
    if constexpr (sizeof(T) == 1)
        return _mm_set1_epi8(static_cast<char>(v));
    else if constexpr (sizeof(T) == 2)
        return _mm_set1_epi16(static_cast<short>(v));
    else if constexpr (sizeof(T) == 4)
        return _mm_set1_epi32(static_cast<int>(v));
    else
        return _mm_set1_epi64x(static_cast<long long>(v));
}

#endif  // __SSE2__

template <class T>
struct Tile {
    static constexpr int64_t B = 16 / static_cast<int64_t>(sizeof(T));

    // One B x B block: out row c (stride os) = column c of the B input rows
    // (stride is). Input rows r >= nin read as pad; output rows c >= nout
    // are not stored.
    // kStream: non-temporal stores (out and os*sizeof(T) 16-byte aligned).
    template <bool kStream = false>
    static inline void block(const T* in, int64_t is, int64_t nin, T* out, int64_t os, int64_t nout,
                             [[maybe_unused]] T pad) {
#ifdef __SSE2__
        __m128i r[B];
        const __m128i pv = splat(pad);
        for (int64_t i = 0; i < B; ++i)
            r[i] = i < nin ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i * is)) : pv;
        transpose_regs<static_cast<int>(sizeof(T))>(r);
        for (int64_t i = 0; i < nout; ++i) {
            if (kStream)
                _mm_stream_si128(reinterpret_cast<__m128i*>(out + i * os), r[i]);
            else
                _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i * os), r[i]);
        }
#else
        for (int64_t c = 0; c < nout; ++c)
            for (int64_t i = 0; i < B; ++i) out[c * os + i] = i < nin ? in[i * is + c] : pad;
#endif
    }

    // kStream: whole blocks use non-temporal stores (b and dy*sizeof(T)
    // 16-byte aligned); the ragged edges store normally.
    template <bool kStream = false>
    static void gather(const T* a, int64_t sx, T* b, int64_t dy, int64_t ny, int64_t nx, int64_t vy,
                       int64_t vx, T pad) {
        const int64_t nxb = nx - nx % B;  // x covered by whole blocks
        int64_t y = 0;
        for (; y + B <= vy; y += B) {
            T* brow = b + y * dy;
            for (int64_t x = 0; x < nxb; x += B) {
                const int64_t nin = vx - x < 0 ? 0 : (vx - x < B ? vx - x : B);
                block<kStream>(a + x * sx + y, sx, nin, brow + x, dy, B, pad);
            }
            for (int64_t i = 0; i < B; ++i)
                for (int64_t x = nxb; x < nx; ++x)
                    brow[i * dy + x] = x < vx ? a[x * sx + y + i] : pad;
        }
        for (; y < ny; ++y) {
            T* brow = b + y * dy;
            if (y >= vy) {
                for (int64_t x = 0; x < nx; ++x) brow[x] = pad;
                continue;
            }
            for (int64_t x = 0; x < nx; ++x) brow[x] = x < vx ? a[x * sx + y] : pad;
        }
    }

    // kStream: whole blocks use non-temporal stores (a and sx*sizeof(T)
    // 16-byte aligned), and each x block writes 64 bytes of each of its
    // plain rows (4 blocks along y) before the next, so that every line is
    // filled while its write-combining buffer is open.
    template <bool kStream = false>
    static void scatter(T* a, int64_t sx, const T* b, int64_t dy, int64_t nx, int64_t vy,
                        int64_t vx) {
        // whole blocks over the valid x (the last may be partly valid) that
        // stay inside b's rows
        const int64_t nxb = nx - nx % B, vxr = (vx + B - 1) / B * B;
        const int64_t vxb = vxr < nxb ? vxr : nxb;
        int64_t y = 0;
        if (kStream) {
            constexpr int64_t G = 4;
            for (; y + G * B <= vy; y += G * B) {
                for (int64_t x = 0; x < vxb; x += B)
                    for (int64_t k = 0; k < G; ++k)
                        block<true>(b + (y + k * B) * dy + x, dy, B, a + x * sx + y + k * B, sx,
                                    vx - x < B ? vx - x : B, T{});
                for (int64_t x = vxb; x < vx; ++x)
                    for (int64_t i = 0; i < G * B; ++i) a[x * sx + y + i] = b[(y + i) * dy + x];
            }
        }
        for (; y + B <= vy; y += B) {
            const T* brow = b + y * dy;
            for (int64_t x = 0; x < vxb; x += B)
                block(brow + x, dy, B, a + x * sx + y, sx, vx - x < B ? vx - x : B, T{});
            for (int64_t x = vxb; x < vx; ++x)
                for (int64_t i = 0; i < B; ++i) a[x * sx + y + i] = brow[i * dy + x];
        }
        for (; y < vy; ++y)
            for (int64_t x = 0; x < vx; ++x) a[x * sx + y] = b[y * dy + x];
    }
};

}  // namespace ll::detail
