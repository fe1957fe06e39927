// Internal to core/format: runs of int4 elements (nibbles) at any nibble
// offset. Nibble i of a buffer is the low half of byte i / 2 for even i,
// the high half for odd i. These are the pieces of the int4 conversions
// whose rows start mid-byte (an odd row length: FRACTAL_NZ with N = 4095,
// a 3x3 kernel's 9 nibbles, HWCN with an odd N), which cannot move as
// bytes (nibble pairs) or as 32 x 32 nibble blocks:
//   unpack_nibbles   n nibbles -> n bytes (0..15), SSE2 16 bytes at a time
//   pack_nibbles     n bytes (each 0..15) -> n nibbles
//   copy_nibbles     n nibbles to another offset: memcpy where both start
//                    on the same half of a byte, else 16 bytes at a time
//                    (SSE2; 8 without) shifted by 4 bits
//   pad_nibbles      one nibble value over [p, q)
// Only the bytes that hold nibbles of the run are read, and only the run's
// nibbles are written (the other half of a shared end byte is kept).
#pragma once

#include <cstdint>
#include <cstring>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace ll::detail {

inline uint8_t get_nibble(const uint8_t* p, int64_t i) {
    return static_cast<uint8_t>((p[i >> 1] >> ((i & 1) * 4)) & 0xF);
}

inline void set_nibble(uint8_t* p, int64_t i, uint8_t v) {
    const int sh = static_cast<int>(i & 1) * 4;
    p[i >> 1] = static_cast<uint8_t>((p[i >> 1] & ~(0xF << sh)) | (v << sh));
}

// out[i] = nibble p + i of a, for i < n.
inline void unpack_nibbles(uint8_t* out, const uint8_t* a, int64_t p, int64_t n) {
    if (n <= 0) return;
    if (p & 1) {
        *out++ = static_cast<uint8_t>(a[p >> 1] >> 4);
        ++p;
        --n;
    }
    const uint8_t* in = a + (p >> 1);
    const int64_t nb = n >> 1;  // whole bytes
    int64_t k = 0;
#ifdef __SSE2__
    const __m128i lo4 = _mm_set1_epi8(0x0F);
    for (; k + 16 <= nb; k += 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + k));
        const __m128i lo = _mm_and_si128(v, lo4);
        const __m128i hi = _mm_and_si128(_mm_srli_epi16(v, 4), lo4);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 2 * k), _mm_unpacklo_epi8(lo, hi));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 2 * k + 16), _mm_unpackhi_epi8(lo, hi));
    }
#endif
    for (; k < nb; ++k) {
        out[2 * k] = static_cast<uint8_t>(in[k] & 0xF);
        out[2 * k + 1] = static_cast<uint8_t>(in[k] >> 4);
    }
    if (n & 1) out[n - 1] = static_cast<uint8_t>(in[nb] & 0xF);
}

// Nibble q + i of b = in[i] (each 0..15), for i < n.
inline void pack_nibbles(uint8_t* b, int64_t q, const uint8_t* in, int64_t n) {
    if (n <= 0) return;
    if (q & 1) {
        set_nibble(b, q, *in++);
        ++q;
        --n;
    }
    uint8_t* out = b + (q >> 1);
    const int64_t nb = n >> 1;
    int64_t k = 0;
#ifdef __SSE2__
    const __m128i low8 = _mm_set1_epi16(0x00FF);
    for (; k + 16 <= nb; k += 16) {
        // 16-bit lanes hold (in[2j+1] << 8) | in[2j]: lane | lane >> 4 has
        // in[2j] | in[2j+1] << 4 in its low byte.
        const __m128i v0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 2 * k));
        const __m128i v1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 2 * k + 16));
        const __m128i t0 = _mm_and_si128(_mm_or_si128(v0, _mm_srli_epi16(v0, 4)), low8);
        const __m128i t1 = _mm_and_si128(_mm_or_si128(v1, _mm_srli_epi16(v1, 4)), low8);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + k), _mm_packus_epi16(t0, t1));
    }
#endif
    for (; k < nb; ++k) out[k] = static_cast<uint8_t>(in[2 * k] | (in[2 * k + 1] << 4));
    if (n & 1) out[nb] = static_cast<uint8_t>((out[nb] & 0xF0) | in[n - 1]);
}

// Nibble value v over nibbles [p, q) of b.
inline void pad_nibbles(uint8_t* b, int64_t p, int64_t q, uint8_t v) {
    if (p < q && (p & 1)) set_nibble(b, p++, v);
    if (q - p >= 2) {
        std::memset(b + p / 2, v | (v << 4), static_cast<size_t>((q - p) / 2));
        p += (q - p) / 2 * 2;
    }
    if (p < q) set_nibble(b, p, v);
}

// Nibbles [q, q + n) of b = nibbles [p, p + n) of a (a and b do not overlap).
inline void copy_nibbles(uint8_t* b, int64_t q, const uint8_t* a, int64_t p, int64_t n) {
    if (n <= 0) return;
    if (q & 1) {  // the destination then starts on a byte
        set_nibble(b, q, get_nibble(a, p));
        ++q;
        ++p;
        --n;
    }
    uint8_t* out = b + (q >> 1);
    const int64_t nb = n >> 1;
    if ((p & 1) == 0) {
        std::memcpy(out, a + (p >> 1), static_cast<size_t>(nb));
    } else {
        // Byte k takes the high half of source byte j + k and the low half
        // of j + k + 1: nb + 1 source bytes, all holding nibbles of the run.
        const uint8_t* in = a + (p >> 1);
        int64_t k = 0;
#ifdef __SSE2__
        const __m128i lo4 = _mm_set1_epi8(0x0F), hi4 = _mm_set1_epi8(static_cast<char>(0xF0));
        for (; k + 16 <= nb; k += 16) {
            const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + k));
            const __m128i u = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + k + 1));
            _mm_storeu_si128(reinterpret_cast<__m128i*>(out + k),
                             _mm_or_si128(_mm_and_si128(_mm_srli_epi16(v, 4), lo4),
                                          _mm_and_si128(_mm_slli_epi16(u, 4), hi4)));
        }
#endif
        for (; k + 8 <= nb; k += 8) {
            uint64_t w;
            std::memcpy(&w, in + k, 8);
            w = (w >> 4) | (static_cast<uint64_t>(in[k + 8]) << 60);
            std::memcpy(out + k, &w, 8);
        }
        for (; k < nb; ++k) out[k] = static_cast<uint8_t>((in[k] >> 4) | (in[k + 1] << 4));
    }
    if (n & 1) set_nibble(b, q + n - 1, get_nibble(a, p + n - 1));
}

}  // namespace ll::detail
