// The AVX2 builds of nibble_block32 (transpose_tile.hpp), of the int4
// kernel tiles' transposes (executor_int4.cpp: kernels_to_rows, and the
// kernel pairs packed and unpacked in registers, finding 41) and of the
// 1- and 2-byte batched tiles (batch_tiles.hpp, findings 45 and 54),
// compiled for AVX2 through a target attribute so the rest of core stays
// at the x86-64 baseline; kCpuAvx2 says whether this CPU may call them.
#include "core/format/transpose_tile.hpp"

#include <cstdlib>
#include <cstring>

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#define LL_AVX2_KERNELS 1
#endif

namespace ll::detail {

#ifdef LL_AVX2_KERNELS

namespace {
// LAYOUTLAB_NO_AVX2 (any value but empty or 0) keeps the SSE2 kernel: the
// same binary measured both ways (docs/PERFORMANCE.md, finding 32).
bool cpu_avx2() {
    const char* off = std::getenv("LAYOUTLAB_NO_AVX2");
    if (off && *off && std::strcmp(off, "0") != 0) return false;
    __builtin_cpu_init();  // may run before other constructors
    return __builtin_cpu_supports("avx2");
}
}  // namespace

const bool kCpuAvx2 = cpu_avx2();

// Four rounds of byte unpacks: each 128-bit lane of r[0..15] holds a 16 x 16
// byte block, transposed in place (both lanes at once).
static __attribute__((target("avx2"), always_inline)) inline void transpose_lanes(__m256i* r) {
    for (int round = 1; round < 16; round *= 2) {
        __m256i n[16];
        for (int i = 0; i < 8; ++i) {
            n[2 * i] = _mm256_unpacklo_epi8(r[i], r[i + 8]);
            n[2 * i + 1] = _mm256_unpackhi_epi8(r[i], r[i + 8]);
        }
        for (int i = 0; i < 16; ++i) r[i] = n[i];
    }
}

// Row pair i (input rows 2i and 2i+1, 16 bytes each) becomes one register:
// lane 0 the even columns ((p & 0x0F) | (q << 4)), lane 1 the odd ones
// ((p >> 4) | (q & 0xF0)), each lane's shift set by a per-lane count. Four
// rounds of byte unpacks then transpose both lanes' 16 x 16 bytes at once:
// register j ends holding output row 2j in lane 0 and 2j + 1 in lane 1.
__attribute__((target("avx2"))) void nibble_block32_avx2(const uint8_t* in, int64_t is,
                                                         uint8_t* out, int64_t os) {
    const __m256i lo4 = _mm256_set1_epi8(0x0F), hi4 = _mm256_set1_epi8(static_cast<char>(0xF0));
    const __m256i right = _mm256_setr_epi32(0, 0, 0, 0, 4, 4, 4, 4);
    const __m256i left = _mm256_setr_epi32(4, 4, 4, 4, 0, 0, 0, 0);
    __m256i r[16];
    for (int i = 0; i < 16; ++i) {
        const __m256i p = _mm256_broadcastsi128_si256(
            _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 2 * i * is)));
        const __m256i q = _mm256_broadcastsi128_si256(
            _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + (2 * i + 1) * is)));
        r[i] = _mm256_or_si256(_mm256_and_si256(_mm256_srlv_epi32(p, right), lo4),
                               _mm256_and_si256(_mm256_sllv_epi32(q, left), hi4));
    }
    transpose_lanes(r);
    for (int j = 0; j < 16; ++j) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 2 * j * os),
                         _mm256_castsi256_si128(r[j]));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + (2 * j + 1) * os),
                         _mm256_extracti128_si256(r[j], 1));
    }
}

// Two 16 x 16 byte blocks side by side (columns 0-15 in lane 0, 16-31 in
// lane 1), so one pass of four unpack rounds transposes both: k tiles of
// 32 columns, column c of tile z read as 16 bytes at in + z * sz + c * sx,
// output row j (j < nout) of tile z stored as 32 bytes at out + z * zs + j
// * ld. (Unrolled with constant bounds, the row loops measured slower
// here: 11.2 -> 9.1 GB/s in cache, NCHW -> FRACTAL_Z int8.)
__attribute__((target("avx2"))) void byte_tiles32_avx2(const uint8_t* in, int64_t sz, int64_t k,
                                                       int64_t sx, uint8_t* out, int64_t zs,
                                                       int64_t ld, int64_t nout) {
    for (int64_t z = 0; z < k; ++z, in += sz, out += zs) {
        __m256i r[16];
        for (int i = 0; i < 16; ++i)
            r[i] = _mm256_inserti128_si256(
                _mm256_castsi128_si256(
                    _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i * sx))),
                _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + (i + 16) * sx)), 1);
        transpose_lanes(r);
        for (int64_t j = 0; j < nout; ++j)
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + j * ld), r[j]);
    }
}

// The first n bytes (n <= 16) of v at p, through a stack copy (once a
// tile: the last plain row of the valid columns).
static __attribute__((target("avx2"), always_inline)) inline void store_part(uint8_t* p, __m128i v,
                                                                             int64_t n) {
    alignas(16) uint8_t t[16];
    _mm_store_si128(reinterpret_cast<__m128i*>(t), v);
    std::memcpy(p, t, static_cast<size_t>(n));
}

// The reverse of byte_tiles32_avx2: k tiles, input row y (y < rows <= 16)
// of tile z 32 bytes at in + z * zs + y * dy (rows past `rows` read as
// zero), output row x (x < 32) at out + z * sz + x * sx in ascending x:
// 16 bytes below kExactFrom, exactly `rows` bytes from it on. The row
// loops have constant bounds so that r[] stays in registers.
template <int kExactFrom>
static __attribute__((target("avx2"), always_inline)) inline void byte_tiles32_back(
    const uint8_t* in, int64_t zs, int64_t k, int64_t dy, int64_t rows, uint8_t* out, int64_t sz,
    int64_t sx) {
    for (int64_t z = 0; z < k; ++z, in += zs, out += sz) {
        __m256i r[16];
#pragma GCC unroll 16
        for (int i = 0; i < 16; ++i)
            r[i] = i < rows ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i * dy))
                            : _mm256_setzero_si256();
        transpose_lanes(r);
#pragma GCC unroll 32
        for (int x = 0; x < 32; ++x) {
            const __m128i v =
                x < 16 ? _mm256_castsi256_si128(r[x & 15]) : _mm256_extracti128_si256(r[x & 15], 1);
            if (x < kExactFrom)
                _mm_storeu_si128(reinterpret_cast<__m128i*>(out + x * sx), v);
            else
                store_part(out + x * sx, v, rows);
        }
    }
}

// byte_tiles32_back's rows through a table (the folded tiles of
// batch_tiles.hpp, finding 49): input row y of tile z at in + z * zs +
// row[y], y < 16; output row x (x < 32) gets its 16 bytes at out + z * sz
// + x * sx. The table is read once into registers, outside the tile loop.
__attribute__((target("avx2"))) void byte_tiles32_back_rows_avx2(const uint8_t* in,
                                                                 const int64_t* row, int64_t zs,
                                                                 int64_t k, uint8_t* out,
                                                                 int64_t sz, int64_t sx) {
    int64_t at[16];
    for (int i = 0; i < 16; ++i) at[i] = row[i];
    for (int64_t z = 0; z < k; ++z, in += zs, out += sz) {
        __m256i r[16];
#pragma GCC unroll 16
        for (int i = 0; i < 16; ++i)
            r[i] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + at[i]));
        transpose_lanes(r);
#pragma GCC unroll 32
        for (int x = 0; x < 32; ++x)
            _mm_storeu_si128(reinterpret_cast<__m128i*>(out + x * sx),
                             x < 16 ? _mm256_castsi256_si128(r[x & 15])
                                    : _mm256_extracti128_si256(r[x & 15], 1));
    }
}

// Three rounds of 16-bit unpacks: each 128-bit lane of r[0..7] holds an 8 x 8
// block of 2-byte elements, transposed in place (both lanes at once: the
// 24 shuffles of one SSE2 block move two, finding 54).
static __attribute__((target("avx2"), always_inline)) inline void transpose_lanes16(__m256i* r) {
    __m256i t[8], u[8];
    for (int i = 0; i < 4; ++i) {
        t[2 * i] = _mm256_unpacklo_epi16(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm256_unpackhi_epi16(r[2 * i], r[2 * i + 1]);
    }
    for (int h = 0; h < 2; ++h) {  // rows 0-3 (t[0..3]) and 4-7 (t[4..7])
        const __m256i* a = t + 4 * h;
        u[4 * h] = _mm256_unpacklo_epi32(a[0], a[2]);
        u[4 * h + 1] = _mm256_unpackhi_epi32(a[0], a[2]);
        u[4 * h + 2] = _mm256_unpacklo_epi32(a[1], a[3]);
        u[4 * h + 3] = _mm256_unpackhi_epi32(a[1], a[3]);
    }
    for (int i = 0; i < 4; ++i) {
        r[2 * i] = _mm256_unpacklo_epi64(u[i], u[i + 4]);
        r[2 * i + 1] = _mm256_unpackhi_epi64(u[i], u[i + 4]);
    }
}

// 2-byte tiles two 8 x 8 blocks at a time (batch_tiles.hpp's
// gather_tiles, finding 54): k tiles of 16 columns, column c of tile z
// read as 8 elements at in + z * sz + c * sx (columns 0-7 in lane 0, 8-15
// in lane 1), output row j (j < 8) of tile z stored as 16 elements at out
// + z * zs + j * ld.
__attribute__((target("avx2"))) void half_tiles16_avx2(const uint16_t* in, int64_t sz, int64_t k,
                                                       int64_t sx, uint16_t* out, int64_t zs,
                                                       int64_t ld) {
    for (int64_t z = 0; z < k; ++z, in += sz, out += zs) {
        __m256i r[8];
#pragma GCC unroll 8
        for (int i = 0; i < 8; ++i)
            r[i] = _mm256_inserti128_si256(
                _mm256_castsi128_si256(
                    _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i * sx))),
                _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + (i + 8) * sx)), 1);
        transpose_lanes16(r);
#pragma GCC unroll 8
        for (int j = 0; j < 8; ++j)
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + j * ld), r[j]);
    }
}

__attribute__((target("avx2"))) void byte_tiles32_back_avx2(const uint8_t* in, int64_t zs,
                                                            int64_t k, int64_t dy, int64_t rows,
                                                            uint8_t* out, int64_t sz, int64_t sx,
                                                            int64_t exact_from) {
    if (exact_from >= 32)
        byte_tiles32_back<32>(in, zs, k, dy, rows, out, sz, sx);
    else if (exact_from == 31)
        byte_tiles32_back<31>(in, zs, k, dy, rows, out, sz, sx);
    else
        std::abort();  // the callers pass 32 or 31
}

// kernels_to_rows (executor_int4.cpp, finding 37) with AVX2: the kernel
// pairs of two 32-kernel groups in the two lanes, so one round of byte
// unpacks transposes both, and each output row gets 32 bytes (64 nibbles)
// in one store. cw % 64 == 0.
__attribute__((target("avx2"))) void kernels_to_rows_avx2(const uint8_t* u, int64_t ny, int64_t cw,
                                                          uint8_t* to, int64_t ts) {
    for (int64_t xg = 0; xg < cw; xg += 64)
        for (int64_t y0 = 0; y0 < ny; y0 += 16) {
            __m256i r[16];
            for (int i = 0; i < 16; ++i) {
                const uint8_t* k0 = u + (xg + 2 * i) * ny + y0;  // lane 0
                const uint8_t* k1 = k0 + 32 * ny;                // lane 1: kernels + 32
                const __m256i e = _mm256_inserti128_si256(
                    _mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(k0))),
                    _mm_loadu_si128(reinterpret_cast<const __m128i*>(k1)), 1);
                const __m256i o = _mm256_inserti128_si256(
                    _mm256_castsi128_si256(
                        _mm_loadu_si128(reinterpret_cast<const __m128i*>(k0 + ny))),
                    _mm_loadu_si128(reinterpret_cast<const __m128i*>(k1 + ny)), 1);
                r[i] = _mm256_or_si256(e, _mm256_slli_epi16(o, 4));
            }
            transpose_lanes(r);
            const int64_t m = ny - y0;
            for (int j = 0; j < 16; ++j) {
                if (j >= m) break;
                _mm256_storeu_si256(reinterpret_cast<__m256i*>(to + (y0 + j) * ts + xg / 2), r[j]);
            }
        }
}

// The nibble permutations of one kernel pair (ny <= 32 nibbles each; the
// same for both register lanes). Packing (kPack): output byte m takes
// nibble 2m of the pair as its low half and nibble 2m + 1 as its high one,
// where pair nibble n sits in byte n (n < ny: low half) or n - ny (high
// half) of the byte transpose's rows 0..15 and 16..31 (two registers).
// Unpacking (kUnpack), the reverse: from the pair's ny packed bytes (one
// 16-byte load, two past 16), output byte y takes nibble y (the even
// kernel's) low and
// nibble ny + y (the odd one's) high, ready for the byte transpose. Either
// way an output register k (bytes 16k..) is mix(source 0, T[k][0]) |
// mix(source 1, T[k][1]); in each, two shuffles pick each output byte's
// source byte (ip, iq) and four masks its halves. With ny <= 16, one
// register each way and only T[0][0]. Built once for every ny (built per
// call, the table's loop was a tenth of the kernel's samples).
namespace {
enum PairWay { kPack = 0, kUnpack = 1 };
struct PairTable {
    // [ny][way][output register][source register][ip, iq, lo_lo, lo_hi, hi_lo, hi_hi][byte]
    alignas(16) uint8_t v[33][2][2][2][6][16];
    // In each source register src's table: nibble `lo` as byte j's low
    // half, `hi` as its high one, where they sit in src (n < 0: none); a
    // nibble n sits in byte at(n) of the two registers, its high half
    // where high(n).
    template <class At, class High>
    static void set(uint8_t (&t)[2][6][16], int j, int lo, int hi, At at, High high) {
        for (int src = 0; src < 2; ++src) {
            const bool l = lo >= 0 && at(lo) / 16 == src, h = hi >= 0 && at(hi) / 16 == src;
            t[src][0][j] = l ? static_cast<uint8_t>(at(lo) % 16) : 0x80;
            t[src][1][j] = h ? static_cast<uint8_t>(at(hi) % 16) : 0x80;
            t[src][2][j] = l && !high(lo) ? 0x0F : 0;
            t[src][3][j] = l && high(lo) ? 0x0F : 0;
            t[src][4][j] = h && !high(hi) ? 0xF0 : 0;
            t[src][5][j] = h && high(hi) ? 0xF0 : 0;
        }
    }
    PairTable() {
        for (int ny = 1; ny <= 32; ++ny)
            for (int m = 0; m < 32; ++m) {
                const int k = m / 16, j = m % 16;
                // packing: nibble n in byte n or n - ny, high past ny
                const auto t_at = [ny](int n) { return n < ny ? n : n - ny; };
                const auto t_high = [ny](int n) { return n >= ny; };
                set(v[ny][kPack][k], j, m < ny ? 2 * m : -1, m < ny ? 2 * m + 1 : -1, t_at, t_high);
                // unpacking: nibble n in byte n / 2, high when odd
                const auto p_at = [](int n) { return n / 2; };
                const auto p_high = [](int n) { return n % 2 != 0; };
                set(v[ny][kUnpack][k], j, m < ny ? m : -1, m < ny ? ny + m : -1, p_at, p_high);
            }
    }
};
const PairTable kPairTable;

__attribute__((target("avx2"), always_inline)) inline __m256i both_lanes(const uint8_t* v) {
    return _mm256_broadcastsi128_si256(_mm_load_si128(reinterpret_cast<const __m128i*>(v)));
}

struct PairMix {
    __m256i ip, iq, lo_lo, lo_hi, hi_lo, hi_hi;
};

__attribute__((target("avx2"), always_inline)) inline PairMix pair_mix(int64_t ny, PairWay way,
                                                                       int k, int src) {
    const uint8_t(&t)[6][16] = kPairTable.v[ny][way][k][src];
    return {both_lanes(t[0]), both_lanes(t[1]), both_lanes(t[2]),
            both_lanes(t[3]), both_lanes(t[4]), both_lanes(t[5])};
}

__attribute__((target("avx2"), always_inline)) inline __m256i mix(__m256i v, const PairMix& k) {
    const __m256i p = _mm256_shuffle_epi8(v, k.ip), q = _mm256_shuffle_epi8(v, k.iq);
    return _mm256_or_si256(_mm256_or_si256(_mm256_and_si256(p, k.lo_lo),
                                           _mm256_and_si256(_mm256_srli_epi16(p, 4), k.lo_hi)),
                           _mm256_or_si256(_mm256_and_si256(_mm256_slli_epi16(q, 4), k.hi_lo),
                                           _mm256_and_si256(q, k.hi_hi)));
}

// n <= 16 bytes of v at o: 16 wide where that stays before end, else
// through a buffer.
__attribute__((target("avx2"), always_inline)) inline void store_bytes(uint8_t* o, __m128i v,
                                                                       int64_t n,
                                                                       const uint8_t* end) {
    if (o + 16 <= end) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(o), v);
        return;
    }
    alignas(16) uint8_t t[16];
    _mm_store_si128(reinterpret_cast<__m128i*>(t), v);
    std::memcpy(o, t, static_cast<size_t>(n));
}

// n <= 16 bytes from p (all before end): 16 wide where that stays before
// end, else through a buffer (the bytes past n are never used).
__attribute__((target("avx2"), always_inline)) inline __m128i load_bytes(const uint8_t* p,
                                                                         int64_t n,
                                                                         const uint8_t* end) {
    if (p + 16 <= end) return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    alignas(16) uint8_t t[16] = {};
    std::memcpy(t, p, static_cast<size_t>(n));
    return _mm_load_si128(reinterpret_cast<const __m128i*>(t));
}

// The sized builds' pair permutations (kNy known, so the byte shifts are
// immediates), in place of the table's four masked shuffles per source:
// a pair's nibbles one to a byte in order (split, shifted together),
// packed two a byte by one multiply-add and one pack. From a 3x3x3 pair
// (27 nibbles a kernel, two registers) about 18 instructions in place of
// 46, and two constants in place of 24 (finding 42).
__attribute__((target("avx2"), always_inline)) inline __m256i low_nibbles(__m256i v) {
    return _mm256_and_si256(v, _mm256_set1_epi8(0x0F));
}
__attribute__((target("avx2"), always_inline)) inline __m256i high_nibbles(__m256i v) {
    return _mm256_and_si256(_mm256_srli_epi16(v, 4), _mm256_set1_epi8(0x0F));
}
// bytes (one nibble each) 2m and 2m + 1 of a, then of b, as packed byte m:
// 16 bytes a lane
__attribute__((target("avx2"), always_inline)) inline __m256i pack_nibble_bytes(__m256i a,
                                                                                __m256i b) {
    const __m256i k = _mm256_set1_epi16(0x1001);  // bytes 1, 16: lo + 16 * hi
    return _mm256_packus_epi16(_mm256_maddubs_epi16(a, k), _mm256_maddubs_epi16(b, k));
}
// After the byte transpose, each lane of r (rows 0..15) and s (rows 16..,
// two registers only) holds a pair: byte y the even kernel's nibble y low,
// the odd one's high; bytes past kNy zero. Into the pair packed, kNy
// bytes: p0 bytes 0..15, p1 16.. (two registers only). Built for 8 < kNy
// < 16 and 24 < kNy < 32 only (the 9 and 27 that use it), so no shift
// here is by 0 or 16 and every nibble register is partly filled.
template <int kNy>
constexpr bool kSizedPair = (kNy > 8 && kNy < 16) || (kNy > 24 && kNy < 32);
template <int kNy>
__attribute__((target("avx2"), always_inline)) inline void pack_pair(__m256i r, __m256i s,
                                                                     __m256i& p0, __m256i& p1) {
    static_assert(kSizedPair<kNy>);
    const __m256i lr = low_nibbles(r), hr = high_nibbles(r);
    if constexpr (kNy < 16) {  // nibbles: lr[0..kNy), hr[0..kNy)
        p0 = pack_nibble_bytes(_mm256_or_si256(lr, _mm256_bslli_epi128(hr, kNy)),
                               _mm256_bsrli_epi128(hr, 16 - kNy));
        (void)s;
        (void)p1;
    } else {  // lr[0..16), ls[0..m), hr[0..16), hs[0..m)
        constexpr int m = kNy - 16;
        const __m256i ls = low_nibbles(s), hs = high_nibbles(s);
        p0 = pack_nibble_bytes(lr, _mm256_or_si256(ls, _mm256_bslli_epi128(hr, m)));
        p1 = pack_nibble_bytes(
            _mm256_or_si256(_mm256_bsrli_epi128(hr, 16 - m), _mm256_bslli_epi128(hs, m)),
            _mm256_bsrli_epi128(hs, 16 - m));
    }
}
// The reverse: a pair's packed bytes (a: 0..15, b: 16.. with two
// registers; any bytes past the pair) into r and s as the byte transpose
// takes them (bytes past kNy hold whatever: they become rows that are
// never stored).
template <int kNy>
__attribute__((target("avx2"), always_inline)) inline void unpack_pair(__m256i a, __m256i b,
                                                                       __m256i& r, __m256i& s) {
    static_assert(kSizedPair<kNy>);
    const __m256i al = low_nibbles(a), ah = high_nibbles(a);
    const __m256i q0 = _mm256_unpacklo_epi8(al, ah), q1 = _mm256_unpackhi_epi8(al, ah);
    if constexpr (kNy < 16) {  // nibbles 0..31 in q0, q1
        r = _mm256_or_si256(q0, _mm256_slli_epi16(_mm256_alignr_epi8(q1, q0, kNy), 4));
        (void)b;
        (void)s;
    } else {  // 32..63 in q2, q3
        constexpr int m = kNy - 16;
        const __m256i bl = low_nibbles(b), bh = high_nibbles(b);
        const __m256i q2 = _mm256_unpacklo_epi8(bl, bh), q3 = _mm256_unpackhi_epi8(bl, bh);
        r = _mm256_or_si256(q0, _mm256_slli_epi16(_mm256_alignr_epi8(q2, q1, m), 4));
        s = _mm256_or_si256(q1, _mm256_slli_epi16(_mm256_alignr_epi8(q3, q2, m), 4));
    }
}

// rows [y0, y0 + 16) of the 64 kernels at column xg / 2 (those past ny
// zero), transposed: r[i] lane 0 holds kernels xg + 2i, + 1, lane 1 those
// + 32, their bytes y0..
__attribute__((target("avx2"), always_inline)) inline void load_rows(const uint8_t* in, int64_t is,
                                                                     int64_t ny, int64_t y0,
                                                                     __m256i* r) {
    for (int j = 0; j < 16; ++j)
        r[j] = y0 + j < ny ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + j * is))
                           : _mm256_setzero_si256();
    transpose_lanes(r);
}
}  // namespace

// The reverse of kernels_to_rows_avx2, packed: ny rows (ny <= 32) of cw
// nibbles (cw % 64 == 0; row y at in + y * is) into cw kernels of ny
// nibbles back to back at out (cw * ny / 2 bytes). Each 16 x 16 byte
// transpose (one for rows 0..15, one for 16..31) leaves a kernel pair in
// each register lane (the even kernel in the low halves); the table's
// shuffles (pack_pair in the sized builds) pack it into ny bytes, stored
// 16 bytes wide in ascending order,
// so each store's tail is overwritten by the next; the last few, which
// would run past the kernels, go through a buffer (finding 41).
namespace {
// kNy > 0: ny is kNy (9 or 27, 3x3 and 3x3x3 kernels: the row loads,
// the pair loops and the two-register choice built for that size); 0: any
// ny up to 32. The same in kernels_packed_to_rows. In cache (--bench-mb 2,
// four interleaved runs) the int4 rows with the sized builds against
// without: NCHW -> FRACTAL_Z 3x3 5.5-5.7 GB/s against 4.6-4.7, back
// 5.5-5.6 against 5.2-5.3; NCDHW -> FRACTAL_Z_3D 7.0-7.6 against 5.5-5.9,
// back 5.6-5.8 against 4.9-5.0. The sized builds then took pack_pair and
// unpack_pair in place of the table (finding 42): 3x3x3 in cache 6.9 ->
// 8.7-9.9 GB/s, back 5.6 -> 7.3-7.4; 3x3 5.2 -> 5.5-6.2, back about even.
template <int kNy>
__attribute__((target("avx2"), always_inline)) inline void rows_to_kernels_packed(
    const uint8_t* in, int64_t is, int64_t ny_any, int64_t cw, uint8_t* out) {
    const int64_t ny = kNy > 0 ? kNy : ny_any;
    const bool two = ny > 16;
    const PairMix k00 = pair_mix(ny, kPack, 0, 0);
    const uint8_t* const end = out + cw * ny / 2;
    for (int64_t xg = 0; xg < cw; xg += 64) {
        uint8_t* o = out + xg / 2 * ny;  // pair xg / 2
        // a group follows: every store ends before it does (16 bytes past
        // a pair's start, 32 with two registers; a group is 32 * ny bytes)
        const bool inside = xg + 64 < cw;
        const auto store = [ inside, end ](uint8_t * q, __m128i v, int64_t n)
            __attribute__((target("avx2"), always_inline)) {
            if (inside)
                _mm_storeu_si128(reinterpret_cast<__m128i*>(q), v);
            else
                store_bytes(q, v, n, end);
        };
        __m256i r[16];
        load_rows(in + xg / 2, is, ny, 0, r);
        if (!two) {
            for (int i = 0; i < 16; ++i) {
                if constexpr (kSizedPair<kNy> && kNy < 16)
                    pack_pair<kNy>(r[i], r[i], r[i], r[i]);
                else
                    r[i] = mix(r[i], k00);
            }
            // lane 0's pairs (0..15) end inside the group's 32 (15 * ny +
            // 16 <= 32 * ny): stored with no test
            for (int i = 0; i < 16; ++i)
                _mm_storeu_si128(reinterpret_cast<__m128i*>(o + i * ny),
                                 _mm256_castsi256_si128(r[i]));
            for (int i = 0; i < 16; ++i)
                store(o + (16 + i) * ny, _mm256_extracti128_si256(r[i], 1), ny);
            continue;
        }
        __m256i s[16];
        load_rows(in + 16 * is + xg / 2, is, ny, 16, s);
        if constexpr (kSizedPair<kNy> && kNy > 16) {
            for (int i = 0; i < 16; ++i) pack_pair<kNy>(r[i], s[i], r[i], s[i]);
        } else {
            const PairMix k01 = pair_mix(ny, kPack, 0, 1), k10 = pair_mix(ny, kPack, 1, 0),
                          k11 = pair_mix(ny, kPack, 1, 1);
            for (int i = 0; i < 16; ++i) {
                const __m256i lo = _mm256_or_si256(mix(r[i], k00), mix(s[i], k01));
                s[i] = _mm256_or_si256(mix(r[i], k10), mix(s[i], k11));
                r[i] = lo;
            }
        }
        for (int h = 0; h < 2; ++h)  // lane 0's pairs, then lane 1's
            for (int i = 0; i < 16; ++i) {
                uint8_t* q = o + (16 * h + i) * ny;
                // the first 16 bytes lie inside the pair (ny > 16)
                _mm_storeu_si128(
                    reinterpret_cast<__m128i*>(q),
                    h ? _mm256_extracti128_si256(r[i], 1) : _mm256_castsi256_si128(r[i]));
                const __m128i t =
                    h ? _mm256_extracti128_si256(s[i], 1) : _mm256_castsi256_si128(s[i]);
                store(q + 16, t, ny - 16);
            }
    }
}
}  // namespace

__attribute__((target("avx2"))) void rows_to_kernels_packed_avx2(const uint8_t* in, int64_t is,
                                                                 int64_t ny, int64_t cw,
                                                                 uint8_t* out) {
    if (ny == 9)
        rows_to_kernels_packed<9>(in, is, ny, cw, out);
    else if (ny == 27)
        rows_to_kernels_packed<27>(in, is, ny, cw, out);
    else
        rows_to_kernels_packed<0>(in, is, ny, cw, out);
}

// kernels_to_rows_avx2 from packed kernels: cw kernels (cw % 64 == 0) of
// ny <= 32 nibbles back to back from in (which starts on a byte; nothing
// at or past end is read) into ny rows of cw nibbles at to + y * ts. Each
// kernel pair's ny bytes, loaded 16 wide (twice past 16), are unpacked by
// the table's shuffles (unpack_pair in the sized builds) straight into
// the registers the byte transpose
// takes, with no unpacked copy of the kernels (finding 41).
namespace {
template <int kNy>
__attribute__((target("avx2"), always_inline)) inline void kernels_packed_to_rows(
    const uint8_t* in, const uint8_t* end, int64_t ny_any, int64_t cw, uint8_t* to, int64_t ts) {
    const int64_t ny = kNy > 0 ? kNy : ny_any;
    const bool two = ny > 16;
    const int64_t n0 = two ? 16 : ny;  // bytes in the first load
    const PairMix k00 = pair_mix(ny, kUnpack, 0, 0);
    for (int64_t xg = 0; xg < cw; xg += 64) {
        const uint8_t* p = in + xg / 2 * ny;  // pair xg / 2
        // no load reaches end (the last ends 32 bytes past pair 31's
        // start with two registers, 16 with one; the test, 16 past pair
        // 32's start, covers both): none tested. A difference, so no
        // pointer is formed past end.
        const bool inside = end - p >= 32 * ny + 16;
        const auto load = [ inside, end ](const uint8_t* q, int64_t n)
            __attribute__((target("avx2"), always_inline)) {
            return inside ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(q))
                          : load_bytes(q, n, end);
        };
        __m256i r[16], s[16];
        for (int i = 0; i < 16; ++i) {
            const uint8_t *p0 = p + i * ny, *p1 = p + (16 + i) * ny;
            const __m256i a =
                _mm256_inserti128_si256(_mm256_castsi128_si256(load(p0, n0)), load(p1, n0), 1);
            if (!two) {
                // byte y: kernel xg + 2i's nibble y low, + 1's high
                if constexpr (kSizedPair<kNy> && kNy < 16)
                    unpack_pair<kNy>(a, a, r[i], r[i]);
                else
                    r[i] = mix(a, k00);
                continue;
            }
            const __m256i b = _mm256_inserti128_si256(
                _mm256_castsi128_si256(load(p0 + 16, ny - 16)), load(p1 + 16, ny - 16), 1);
            if constexpr (kSizedPair<kNy> && kNy > 16) {
                unpack_pair<kNy>(a, b, r[i], s[i]);
            } else {
                r[i] = _mm256_or_si256(mix(a, k00), mix(b, pair_mix(ny, kUnpack, 0, 1)));
                s[i] = _mm256_or_si256(mix(a, pair_mix(ny, kUnpack, 1, 0)),
                                       mix(b, pair_mix(ny, kUnpack, 1, 1)));
            }
        }
        transpose_lanes(r);  // r[j]: output row j, kernels xg.. (lane 0), xg + 32.. (lane 1)
        for (int j = 0; j < n0; ++j)
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(to + j * ts + xg / 2), r[j]);
        if (!two) continue;
        transpose_lanes(s);  // rows 16..
        for (int j = 0; j < ny - 16; ++j)
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(to + (16 + j) * ts + xg / 2), s[j]);
    }
}
}  // namespace

__attribute__((target("avx2"))) void kernels_packed_to_rows_avx2(const uint8_t* in,
                                                                 const uint8_t* end, int64_t ny,
                                                                 int64_t cw, uint8_t* to,
                                                                 int64_t ts) {
    if (ny == 9)
        kernels_packed_to_rows<9>(in, end, ny, cw, to, ts);
    else if (ny == 27)
        kernels_packed_to_rows<27>(in, end, ny, cw, to, ts);
    else
        kernels_packed_to_rows<0>(in, end, ny, cw, to, ts);
}

#else

const bool kCpuAvx2 = false;

void kernels_to_rows_avx2(const uint8_t*, int64_t, int64_t, uint8_t*, int64_t) {
    std::abort();  // never called: kCpuAvx2 is false
}

void nibble_block32_avx2(const uint8_t* in, int64_t is, uint8_t* out, int64_t os) {
    nibble_block32_sse2(in, is, out, os);
}

void byte_tiles32_avx2(const uint8_t*, int64_t, int64_t, int64_t, uint8_t*, int64_t, int64_t,
                       int64_t) {
    std::abort();  // never called: kCpuAvx2 is false
}

void byte_tiles32_back_avx2(const uint8_t*, int64_t, int64_t, int64_t, int64_t, uint8_t*, int64_t,
                            int64_t, int64_t) {
    std::abort();  // never called: kCpuAvx2 is false
}
void half_tiles16_avx2(const uint16_t*, int64_t, int64_t, int64_t, uint16_t*, int64_t, int64_t) {
    std::abort();  // never called: kCpuAvx2 is false
}
void byte_tiles32_back_rows_avx2(const uint8_t*, const int64_t*, int64_t, int64_t, uint8_t*,
                                 int64_t, int64_t) {
    std::abort();  // never called: kCpuAvx2 is false
}

void rows_to_kernels_packed_avx2(const uint8_t*, int64_t, int64_t, int64_t, uint8_t*) {
    std::abort();  // never called: kCpuAvx2 is false
}

void kernels_packed_to_rows_avx2(const uint8_t*, const uint8_t*, int64_t, int64_t, uint8_t*,
                                 int64_t) {
    std::abort();  // never called: kCpuAvx2 is false
}

#endif

}  // namespace ll::detail
