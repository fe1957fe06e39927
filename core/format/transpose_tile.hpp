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
// SSE2 registers: B row loads, log2(B) rounds of unpacks, B row stores (int4's
// 32 x 32 nibble blocks through AVX2 ones where the CPU has them,
// transpose_tile_avx2.cpp); the ragged edges are plain loops, or in the
// tall windows one block overlapping the last whole one. Blocks are
// visited y-major, so b is written in address order when dy == nx (NC1HWC0)
// and a is read as nx streams.
//
// Sections:
//   unpack_lo/hi, transpose_regs, splat   SSE2 register transposes
//   stream_bytes, stream_open_lines       streaming stores: whole lines, how many open
//   CarriedRows                           rows streamed piece by piece, part lines carried
//   nibble_block32(_sse2, _avx2, _part),  int4: 32 x 32 nibble blocks (AVX2
//   nibble_blocks                         where the CPU has it)
//   Tile::block                           one B x B block
//   Tile::short_blocks                    the last m < B rows of a tile, B-wide loads
//   Tile::ragged_block, row_part          columns short of a block: one block
//                                         in registers, rows in two moves
//   Tile::gather_buffered, gather         plain -> blocked (1-byte rows of a line or
//                                         more through a line buffer; short tiles)
//   Tile::stage_plan, gather_staged,      many rows far apart (HWCN): chunks of
//   scatter_staged                        every row through a buffer
//   Tile::window_plan, tall_window,       many rows on one side: windows of 256
//   gather_tall(_c), gather_wide(_c)      bytes a row through a buffer, streamed
//   Tile::store_row, scatter_buffered,    blocked -> plain (1-byte through the line
//   scatter_rows, scatter                 buffer; 3x3-kernel short tiles)
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "core/format/prefetch.hpp"

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

// int4: a 32 x 32 nibble transpose. Input row r (r < 32) holds 32 nibbles
// in 16 bytes at in + r * is (nibble c in byte c / 2, low half for even c);
// output row c gets nibble r of every input row, 16 bytes at out + c * os.
// Rows 2i and 2i+1 first merge into two registers: their low nibbles
// (columns 2j) pair up into byte j of one, their high nibbles (columns
// 2j+1) into byte j of the other; a 16 x 16 byte transpose of each then
// gives the even and the odd output rows.
inline void nibble_block32_sse2(const uint8_t* in, int64_t is, uint8_t* out, int64_t os) {
#ifdef __SSE2__
    const __m128i lo4 = _mm_set1_epi8(0x0F), hi4 = _mm_set1_epi8(static_cast<char>(0xF0));
    for (int odd = 0; odd < 2; ++odd) {
        __m128i r[16];
        for (int i = 0; i < 16; ++i) {
            const __m128i p = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 2 * i * is));
            const __m128i q =
                _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + (2 * i + 1) * is));
            // even columns: (p & 0x0F) | (q << 4); odd: (p >> 4) | (q & 0xF0)
            r[i] =
                odd ? _mm_or_si128(_mm_and_si128(_mm_srli_epi16(p, 4), lo4), _mm_and_si128(q, hi4))
                    : _mm_or_si128(_mm_and_si128(p, lo4), _mm_and_si128(_mm_slli_epi16(q, 4), hi4));
        }
        transpose_regs<1>(r);
        for (int j = 0; j < 16; ++j)
            _mm_storeu_si128(reinterpret_cast<__m128i*>(out + (2 * j + odd) * os), r[j]);
    }
#else
    for (int c = 0; c < 32; ++c)
        for (int i = 0; i < 16; ++i) {
            const uint8_t p = in[2 * i * is + c / 2], q = in[(2 * i + 1) * is + c / 2];
            out[c * os + i] = (c & 1) ? static_cast<uint8_t>((p >> 4) | (q & 0xF0))
                                      : static_cast<uint8_t>((p & 0x0F) | (q << 4));
        }
#endif
}

// The same transpose with AVX2 (transpose_tile_avx2.cpp): the even and the
// odd output rows go through one pass, in the two 128-bit lanes of each
// register (a byte unpack works lane by lane), so the 16 x 16 transpose is
// done once, not twice: 25 ns a block against the SSE2 version's 32-40 ns
// in L1 on the Intel machine (finding 32). Call only where kCpuAvx2 holds.
// Its file includes this header but calls nothing inline from it: an
// inline function emitted there would be built for AVX2 and could be the
// copy the linker keeps for every caller.
void nibble_block32_avx2(const uint8_t* in, int64_t is, uint8_t* out, int64_t os);
// The AVX2 build of executor_int4.cpp's kernels_to_rows (finding 37):
// cw (a multiple of 64) kernels of ny unpacked bytes back to back in u
// into ny rows of cw nibbles at to + y * ts. Call only where kCpuAvx2 holds.
void kernels_to_rows_avx2(const uint8_t* u, int64_t ny, int64_t cw, uint8_t* to, int64_t ts);
// Its reverse, packed (finding 41): ny rows (ny <= 32) of cw nibbles (cw %
// 64 == 0, row y at in + y * is bytes) into cw kernels of ny nibbles back
// to back at out (cw * ny / 2 bytes, nothing past them written). Call only
// where kCpuAvx2 holds.
void rows_to_kernels_packed_avx2(const uint8_t* in, int64_t is, int64_t ny, int64_t cw,
                                 uint8_t* out);
// kernels_to_rows_avx2 from packed kernels (finding 41): cw kernels (cw %
// 64 == 0) of ny <= 32 nibbles back to back from in (on a byte; nothing at
// or past end is read) into ny rows of cw nibbles at to + y * ts. Call only
// where kCpuAvx2 holds.
void kernels_packed_to_rows_avx2(const uint8_t* in, const uint8_t* end, int64_t ny, int64_t cw,
                                 uint8_t* to, int64_t ts);
// 1-byte tiles two 16 x 16 blocks at a time, one in each 128-bit lane
// (batch_tiles.hpp's gather_tiles): k tiles of 32 columns, column c of
// tile z read as 16 bytes at in + z * sz + c * sx, output row j (j < nout
// <= 16) of tile z stored as 32 bytes at out + z * zs + j * ld. Call only
// where kCpuAvx2 holds.
void byte_tiles32_avx2(const uint8_t* in, int64_t sz, int64_t k, int64_t sx, uint8_t* out,
                       int64_t zs, int64_t ld, int64_t nout);
// Its reverse (batch_tiles.hpp's scatter_tiles): k tiles, input row y (y <
// rows <= 16) of tile z 32 bytes at in + z * zs + y * dy, output row x
// (x < 32) at out + z * sz + x * sx in ascending x: 16 bytes for x <
// exact_from (a row's bytes past `rows` are then the next row's to
// overwrite), exactly `rows` bytes from exact_from on; exact_from 32
// (none exact) or 31 (the last row). Call only where kCpuAvx2 holds.
void byte_tiles32_back_avx2(const uint8_t* in, int64_t zs, int64_t k, int64_t dy, int64_t rows,
                            uint8_t* out, int64_t sz, int64_t sx, int64_t exact_from);
// byte_tiles32_back_avx2 with the 16 input rows through a table: row y of
// tile z at in + z * zs + row[y]; output row x (x < 32) gets 16 bytes at
// out + z * sz + x * sx. Call only where kCpuAvx2 holds.
void byte_tiles32_back_rows_avx2(const uint8_t* in, const int64_t* row, int64_t zs, int64_t k,
                                 uint8_t* out, int64_t sz, int64_t sx);
// The 2-byte tiles two 8 x 8 blocks at a time, one in each 128-bit lane
// (batch_tiles.hpp's gather_tiles, finding 54): k tiles of 16 columns,
// column c of tile z read as 8 elements at in + z * sz + c * sx, output
// row j (j < 8) of tile z stored as 16 elements at out + z * zs + j * ld.
// Call only where kCpuAvx2 holds.
void half_tiles16_avx2(const uint16_t* in, int64_t sz, int64_t k, int64_t sx, uint16_t* out,
                       int64_t zs, int64_t ld);
// Whether this CPU runs AVX2 (read once, at start-up, unless
// LAYOUTLAB_NO_AVX2 is set); false where the compiler or the target cannot
// build nibble_block32_avx2.
extern const bool kCpuAvx2;

// Whether nibble_block32 and executor_int4.cpp's kernel tiles
// (kernels_to_rows, and the packed kernel pairs of finding 41) take their
// AVX2 kernels: kCpuAvx2; tests clear it to run the SSE2 kernels through
// the executor (never set it where kCpuAvx2 is false).
inline bool& nibble_avx2() {
    static bool on = kCpuAvx2;
    return on;
}

// Whether batch_tiles.hpp's 1-byte tiles take byte_tiles32_avx2 and
// byte_tiles32_back_avx2: kCpuAvx2; tests clear it to run the SSE2 blocks
// (never set it where kCpuAvx2 is false).
inline bool& byte_tiles_avx2() {
    static bool on = kCpuAvx2;
    return on;
}

// Whether batch_tiles.hpp's 2-byte gathers take half_tiles16_avx2:
// kCpuAvx2; tests clear it to run the SSE2 blocks (never set it where
// kCpuAvx2 is false).
inline bool& half_tiles_avx2() {
    static bool on = kCpuAvx2;
    return on;
}

inline void nibble_block32(const uint8_t* in, int64_t is, uint8_t* out, int64_t os) {
    if (nibble_avx2()) {
        nibble_block32_avx2(in, is, out, os);
        return;
    }
    nibble_block32_sse2(in, is, out, os);
}

// A part of a 32 x 32 nibble block, through buffers: input rows r < rin
// hold cin valid nibbles (rows r >= rin read as `padbyte`), output rows
// c < cout get their first rout nibbles (an odd last one by read-modify-
// write, keeping the other half of its byte).
inline void nibble_block32_part(const uint8_t* in, int64_t is, int64_t rin, int64_t cin,
                                uint8_t* out, int64_t os, int64_t cout, int64_t rout,
                                uint8_t padbyte) {
    alignas(16) uint8_t bi[32 * 16], bo[32 * 16];
    std::memset(bi, padbyte, sizeof bi);
    const auto nb = static_cast<size_t>((cin + 1) / 2);
    for (int64_t r = 0; r < rin; ++r) std::memcpy(bi + 16 * r, in + r * is, nb);
    nibble_block32(bi, 16, bo, 16);
    for (int64_t c = 0; c < cout; ++c) {
        uint8_t* o = out + c * os;
        std::memcpy(o, bo + 16 * c, static_cast<size_t>(rout / 2));
        if (rout % 2 != 0)
            o[rout / 2] =
                static_cast<uint8_t>((o[rout / 2] & 0xF0) | (bo[16 * c + rout / 2] & 0x0F));
    }
}

// n nibble_block32 side by side (n <= 4): 32n input rows (32 nibbles each)
// to 32 output rows of 16n bytes at out + r * os, transposed into a buffer
// first so that each output row is stored whole and no line is left open
// while 31 others fill (see Tile::scatter). Where the rows are one
// contiguous piece (os == 16n, e.g. 32-byte C0 rows of int4 NC1HWC0) the
// piece goes out at once, streamed when kStream and out is 16-byte aligned;
// else four blocks' 64-byte rows are streamed when kStream and a row is a
// line (out + r * os 64-byte aligned).
template <bool kStream>
inline void nibble_blocks(const uint8_t* in, int64_t is, uint8_t* out, int64_t os, int n) {
    alignas(16) uint8_t buf[32 * 64];
    const int64_t w = 16 * n;
    for (int k = 0; k < n; ++k) nibble_block32(in + 32 * k * is, is, buf + 16 * k, w);
    if (os == w) {
#ifdef __SSE2__
        if (kStream && reinterpret_cast<uintptr_t>(out) % 16 == 0) {
            for (int64_t k = 0; k < 2 * w; ++k)
                _mm_stream_si128(reinterpret_cast<__m128i*>(out) + k,
                                 _mm_load_si128(reinterpret_cast<const __m128i*>(buf) + k));
            return;
        }
#endif
        std::memcpy(out, buf, static_cast<size_t>(32 * w));
        return;
    }
    for (int r = 0; r < 32; ++r) {
        uint8_t* o = out + r * os;
#ifdef __SSE2__
        const auto* row = reinterpret_cast<const __m128i*>(buf + w * r);
        if (kStream && n == 4 && reinterpret_cast<uintptr_t>(o) % 64 == 0) {
            for (int k = 0; k < 4; ++k)
                _mm_stream_si128(reinterpret_cast<__m128i*>(o) + k, _mm_load_si128(row + k));
            continue;
        }
#endif
        std::memcpy(o, buf + w * r, static_cast<size_t>(w));
    }
}

// Copies n bytes to dst: streaming stores over the whole 64-byte lines of
// dst, normal stores for the partial lines at either end.
inline void stream_bytes(char* dst, const char* src, int64_t n) {
#ifdef __SSE2__
    const auto lo = reinterpret_cast<uintptr_t>(dst);
    int64_t head = static_cast<int64_t>((64 - lo % 64) % 64);
    if (head >= n) {
        std::memcpy(dst, src, static_cast<size_t>(n));
        return;
    }
    std::memcpy(dst, src, static_cast<size_t>(head));
    int64_t i = head;
    for (; i + 64 <= n; i += 64)
        for (int64_t k = 0; k < 64; k += 16)
            _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + k),
                             _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + k)));
    std::memcpy(dst + i, src + i, static_cast<size_t>(n - i));
#else
    std::memcpy(dst, src, static_cast<size_t>(n));
#endif
}

// Rows written piece by piece in address order, each piece streamed: a
// piece's last part line waits in its row's carry for the next piece,
// which streams it whole with its own first bytes, so a row has part
// lines (stored normally, each read for ownership) only at its two ends
// (findings 30 and 39). int4's chunked rows, Tile::gather_tall_c.
template <int64_t kRows>
struct CarriedRows {
    alignas(64) char carry[kRows][64];
    int64_t held[kRows] = {};
    void reset() { std::fill(held, held + kRows, int64_t(0)); }
    // nb bytes of row y from `in` to dst; dst continues the row's last
    // piece where held[y] > 0 (dst - held[y] starts a line). last: the
    // row ends with this piece, its part line stored now.
    void put(int64_t y, char* dst, const char* in, int64_t nb, bool last) {
        char* line = carry[y];
        int64_t i = 0;
        if (held[y] > 0) {
            i = nb < 64 - held[y] ? nb : 64 - held[y];
            std::memcpy(line + held[y], in, static_cast<size_t>(i));
            held[y] += i;
            if (held[y] < 64) {  // the piece ends inside the carried line
                if (last) {
                    std::memcpy(dst - (held[y] - i), line, static_cast<size_t>(held[y]));
                    held[y] = 0;
                }
                return;
            }
            stream_bytes(dst + i - 64, line, 64);
            held[y] = 0;
        } else {
            const auto head =
                static_cast<int64_t>((64 - reinterpret_cast<uintptr_t>(dst) % 64) % 64);
            i = nb < head ? nb : head;
            std::memcpy(dst, in, static_cast<size_t>(i));
        }
        const int64_t whole = i + (nb - i) / 64 * 64;
        if (whole > i) stream_bytes(dst + i, in + i, whole - i);
        if (last) {
            std::memcpy(dst + whole, in + whole, static_cast<size_t>(nb - whole));
        } else {
            held[y] = nb - whole;
            std::memcpy(line, in + whole, static_cast<size_t>(held[y]));
        }
    }
};

// How many 64-byte lines a streaming loop may leave part-written at once.
// A non-temporal store goes to a write-combining buffer that holds one
// line; when more lines are open than there are buffers (they also serve
// the loads that miss), a buffer is flushed part full, and a part line
// costs memory a read-modify-write. A B x B block stored straight from the
// registers opens B lines (one per output row), which four blocks along
// the row then complete. On the AMD Zen 4 machine of findings 1-23, 8 open
// lines (fp16) streamed at 1.1 of memcpy and 16 (1-byte types) at 0.16; on
// the Intel Xeon (Emerald Rapids) of finding 24, 8 already collapsed: fp16
// tiled scatters and transposes at 0.08-0.16 of memcpy, fp32 (4 lines) at
// 0.7-1.0. So 8 on AMD, where it was measured, and 4 elsewhere; a block
// that would open more goes through a small buffer and out in whole lines
// (Tile::gather_buffered, scatter_buffered). Tests set it to take both
// paths on any machine.
inline int& stream_open_lines() {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    static int lines = [] {
        __builtin_cpu_init();
        return __builtin_cpu_is("amd") ? 8 : 4;
    }();
#else
    static int lines = 4;
#endif
    return lines;
}

// Prefetches `total` lines, `lines` per row from `row` on (rows `step`
// bytes apart), `per` at each call: spread over a loop's blocks rather
// than issued in one burst (Tile's staged tiles and windows,
// batch_tiles' scatter).
// l2: into L2 only, where a window's next rows would crowd L1 (the tall
// and folded windows, findings 39 and 40: HWCN -> NCHW 2-byte 0.72 ->
// 0.84 of memcpy on the Intel machine, NHWC -> HWCN 2- and 4-byte
// 0.63-0.69 -> 0.82-1.14 on the AMD one; the other walks measured the same either way
// on the Intel machine and mixed on the AMD one, and keep L1).
struct PrefetchSpread {
    const char* row;
    int64_t step, lines, total, per, k = 0;
    bool l2 = false;
    __attribute__((always_inline)) inline void operator()() {
        for (int64_t j = 0; j < per && total > 0; ++j, --total) {
            if (l2)
                prefetch_line<2>(prefetch_at(row, 64 * k));
            else
                prefetch_line<1>(prefetch_at(row, 64 * k));
            if (++k == lines) {
                k = 0;
                // past the last row it need not point anywhere
                row = static_cast<const char*>(prefetch_at(row, step));
            }
        }
    }
};

// Copies `bytes` of each of `rows` rows, from_step bytes apart, into rows
// to_step bytes apart: the staging of rows that share an L1 set (finding
// 43: Tile::tall_window, the int4 nibble transposes' blocks()).
inline void copy_strided_rows(void* to, int64_t to_step, const void* from, int64_t from_step,
                              int64_t rows, int64_t bytes) {
    auto* t = static_cast<char*>(to);
    const auto* f = static_cast<const char*>(from);
    for (int64_t r = 0; r < rows; ++r)
        std::memcpy(t + r * to_step, f + r * from_step, static_cast<size_t>(bytes));
}

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

    // A tiled gather reads its vx source rows (sx apart) side by side, each
    // as a stream advancing 16 bytes per block. The hardware prefetchers did
    // not keep up with 16-64 such streams (NCHW -> NC1HWC0 fp16 at 0.46 of
    // memcpy): each row is now prefetched once per line, kAheadTotal / vx
    // bytes ahead (128 to 1024), so about 8 KiB is in flight in all.
    // Measured per row shape, fp16 NC1HWC0 (16 rows): 0 bytes ahead 0.46,
    // 256 0.78, 512 0.85-0.92, 1024 0.73-0.77, 2048 0.55; int8 (32 rows)
    // best at 256 (0.86), NCHW -> NHWC fp16/fp32 (64 rows) at 128 (0.89,
    // 0.91). docs/PERFORMANCE.md, finding 14.
    static constexpr int64_t kAheadTotal = 8192;
    // Rows of under 4 lines (a 3x3 kernel's 9 positions) are not streams;
    // fewer than 8 rows the hardware follows alone (C = 3 into NC1HWC0
    // fp32: 1.58 of memcpy without, 1.06-1.36 with), and past 64 rows the
    // prefetches cost more than they bring (NCHW -> HWCN, 168 rows: 0.43 ->
    // 0.36-0.39 at 64-512 bytes ahead): 0, no prefetch.
    static int64_t ahead_elems(int64_t rows, int64_t row_len) {
        if (rows < 8 || rows > 64 || row_len * static_cast<int64_t>(sizeof(T)) < 256) return 0;
        int64_t bytes = kAheadTotal / rows;
        bytes = bytes < 128 ? 128 : (bytes > 1024 ? 1024 : bytes);
        return (bytes & ~int64_t{63}) / static_cast<int64_t>(sizeof(T));
    }

    // Prefetches rows [0, n) of a (sx apart) `ahead` elements past y when y
    // starts a 64-byte step, so every line of each row once; a hint, which
    // never faults past a's end. always_inline: GCC 12 at -O1 and above
    // deleted every call to this function when it was an ordinary one (a
    // function whose only effect is a prefetch counts as free of side
    // effects), and the prefetches silently vanished; inlined, they stay.
    __attribute__((always_inline)) static inline void prefetch_rows(const T* a, int64_t sx,
                                                                    int64_t n, int64_t y,
                                                                    int64_t ahead) {
        if ((y * static_cast<int64_t>(sizeof(T))) % 64 != 0) return;
        const auto step = ahead * static_cast<int64_t>(sizeof(T));
        for (int64_t x = 0; x < n; ++x) prefetch_line(prefetch_at(a + x * sx + y, step));
    }

    // The last m < B rows from y of the x blocks [x0, x1) (x1 <= nx, whole
    // blocks), into out: column x at out + x - x0, rows os apart. Each block
    // reads B elements of its source rows, into the next row or tile; where
    // that would pass a_left (the last tiles of a) it goes element by
    // element. For gather()'s short tail and gather_buffered's.
    template <bool kStream = false>
    static void short_blocks(const T* a, int64_t sx, int64_t y, int64_t m, int64_t x0, int64_t x1,
                             int64_t vx, T* out, int64_t os, T pad, int64_t a_left) {
        for (int64_t x = x0; x < x1; x += B) {
            const int64_t nin = vx - x < 0 ? 0 : (vx - x < B ? vx - x : B);
            if (nin > 0 && (x + nin - 1) * sx + y + B > a_left) {  // the loads would overrun
                for (int64_t i = 0; i < m; ++i)
                    for (int64_t c = x; c < x + B; ++c)
                        out[i * os + c - x0] = c < vx ? a[c * sx + y + i] : pad;
                continue;
            }
            block<kStream>(a + x * sx + y, sx, nin, out + (x - x0), os, m, pad);
        }
    }

#ifdef __SSE2__
    // gather()'s streaming part for 1-byte types: the blocks of B rows go
    // through a buffer, x in windows of up to 256 bytes, and then out in
    // address order with store_row; where the B rows are one contiguous
    // piece of b (dy == nx), the piece goes out whole. A last m < B rows
    // (m >= B / 4) go the same way where a_left lets the blocks read B
    // elements of each source row: streamed straight from the registers,
    // 16 bytes to each of m rows in turn, they left m lines open at once
    // (NDHWC -> NCDHW int8 with C = 28: 12 rows, 0.25 of memcpy). Returns
    // the first y not done.
    // 1-byte source rows more than half a line and at most a line apart
    // (NHWC -> NCHW: H*W rows of C bytes; rows that short get no per-row
    // prefetch, ahead_elems) are one contiguous run of a, which a walk
    // along x reads B rows a block. The walk at y = 0 touches every line
    // of the run and brings it in from memory; the later walks (y = 16, 32,
    // 48) find it in L2 where one tile's run fits there (C = 56, H*W =
    // 3,584: 196 KiB of this machine's 1 MiB). The hardware fetched the run
    // too late: compute and memory ran in series (int8 C = 56: 16.7 GB/s
    // in cache, 5.3-5.9 past it against memcpy's 8-10). The y = 0 walk now
    // prefetches each block's span kBufferedAhead bytes on, into L2, as the
    // int4 transposes do (finding 42). Past the cache on the AMD machine,
    // interleaved against the binary without it: NHWC -> NCHW with C = 56,
    // int8 0.54-0.57 -> 0.56-0.72 of memcpy (six 3-pass runs each way, one
    // no faster), all seven 1-byte dtypes 0.56-0.66 -> 0.69-0.82 (two);
    // C = 64 0.52-0.60 -> 0.70-0.77; 4 and 16 KiB ahead read the same as
    // 8. Rows of 28 bytes (C = 28, NDHWC -> NCDHW and NHWC -> NCHW) read
    // the same or lower prefetched, so rows of 32 bytes or less are not.
    // 1-byte types only: on the Intel machine (4 open lines) 2-byte types
    // come here too, and there it is not measured. docs/PERFORMANCE.md,
    // finding 44.
    static constexpr int64_t kBufferedAhead = 8192;
    static int64_t gather_buffered(const T* a, int64_t sx, T* b, int64_t dy, int64_t nx, int64_t vy,
                                   int64_t vx, T pad, int64_t a_left) {
        constexpr int64_t kMax = 256;
        alignas(16) T buf[B * kMax];
        const int64_t nxb = nx - nx % B;
        const bool packed = dy == nx && nx % B == 0 && nx <= kMax;
        const int64_t ws = packed ? nx : kMax;  // buffer row stride
        int64_t y = 0;
        const int64_t ahead = ahead_elems(vx, vy);
        const int64_t rb = sx * static_cast<int64_t>(sizeof(T));  // bytes between rows
        const bool run = sizeof(T) == 1 && ahead == 0 && rb > 32 && rb <= 64;
        for (; y + B <= vy; y += B) {
            T* brow = b + y * dy;
            if (ahead > 0) prefetch_rows(a, sx, vx, y, ahead);
            // the walk that first reads each line of the run (y = 0 where
            // vy fits in a line)
            const bool pf = run && (y * static_cast<int64_t>(sizeof(T))) % 64 == 0;
            for (int64_t x0 = 0; x0 < nxb; x0 += kMax) {
                const int64_t w = nxb - x0 < kMax ? nxb - x0 : kMax;
                for (int64_t x = x0; x < x0 + w; x += B) {
                    const int64_t nin = vx - x < 0 ? 0 : (vx - x < B ? vx - x : B);
                    const T* in = a + x * sx + y;
                    if (pf)  // past a's end the address need not point anywhere
                        for (int64_t k = 0; k < B * rb; k += 64)
                            prefetch_line<2>(prefetch_at(in, kBufferedAhead + k));
                    block(in, sx, nin, buf + (x - x0), ws, B, pad);
                }
                if (packed)
                    store_row(brow, buf, nx);  // B * nx elements
                else
                    for (int64_t i = 0; i < B; ++i)
                        store_row(brow + i * dy + x0, buf + i * ws, w / B);
            }
            for (int64_t i = 0; i < B; ++i)
                for (int64_t x = nxb; x < nx; ++x)
                    brow[i * dy + x] = x < vx ? a[x * sx + y + i] : pad;
        }
        const int64_t m = vy - y;
        if (m == 0 || 4 * m < B || a_left <= 0 || packed) return y;
        T* brow = b + y * dy;
        for (int64_t x0 = 0; x0 < nxb; x0 += kMax) {
            const int64_t w = nxb - x0 < kMax ? nxb - x0 : kMax;
            short_blocks(a, sx, y, m, x0, x0 + w, vx, buf, ws, pad, a_left);
            for (int64_t i = 0; i < m; ++i) store_row(brow + i * dy + x0, buf + i * ws, w / B);
        }
        for (int64_t i = 0; i < m; ++i)
            for (int64_t x = nxb; x < nx; ++x) brow[i * dy + x] = x < vx ? a[x * sx + y + i] : pad;
        return vy;
    }
#endif

    // gather()'s whole blocks of B rows from y on; returns the first y not
    // done. kPrefetch: each of the vx source rows is prefetched `ahead`
    // elements ahead (ahead_elems). A separate instantiation, not inlined,
    // so that the loop without it stays as it was: with the prefetch inline
    // in one loop, NHWC -> NCHW fp16 (rows too short to prefetch) measured
    // 0.70 -> 0.61-0.65 of memcpy; inlined instantiations 0.61-0.65; apart
    // 0.66-0.68 (code placement, not work: the loop itself is unchanged).
    template <bool kStream, bool kPrefetch>
    __attribute__((noinline)) static int64_t gather_blocks(const T* a, int64_t sx, T* b, int64_t dy,
                                                           int64_t nx, int64_t y, int64_t vy,
                                                           int64_t vx, T pad,
                                                           [[maybe_unused]] int64_t ahead) {
        const int64_t nxb = nx - nx % B;  // x covered by whole blocks
        for (; y + B <= vy; y += B) {
            T* brow = b + y * dy;
            if (kPrefetch) prefetch_rows(a, sx, vx, y, ahead);
            for (int64_t x = 0; x < nxb; x += B) {
                const int64_t nin = vx - x < 0 ? 0 : (vx - x < B ? vx - x : B);
                block<kStream>(a + x * sx + y, sx, nin, brow + x, dy, B, pad);
            }
            if (4 * (nx - nxb) >= B) {
                ragged_block(a, sx, nxb, nx, vx, y, brow, dy, pad);
                continue;
            }
            for (int64_t i = 0; i < B; ++i)
                for (int64_t x = nxb; x < nx; ++x)
                    brow[i * dy + x] = x < vx ? a[x * sx + y + i] : pad;
        }
        return y;
    }

    // The ragged columns [nxb, nx) of the B rows from y (nx - nxb < B, a
    // quarter of a block or more): one block transposed in registers, each
    // row's part stored as two overlapping moves of 8 or 4 bytes, the
    // second from the register shifted by a constant (row_part). In cache,
    // NCHW -> HWCN with N under a block (every column ragged) read 0.03-0.09
    // of memcpy (1-byte) and 0.12-0.14 (2-byte) element by element, and
    // 0.15-0.22 this way (docs/PERFORMANCE.md, finding 46).
    __attribute__((noinline)) static void ragged_block(const T* a, int64_t sx, int64_t nxb,
                                                       int64_t nx, int64_t vx, int64_t y, T* brow,
                                                       int64_t dy, T pad) {
        const int64_t nin = vx - nxb < 0 ? 0 : (vx - nxb < B ? vx - nxb : B);
        const int64_t bytes = (nx - nxb) * static_cast<int64_t>(sizeof(T));
#ifdef __SSE2__
        __m128i r[B];
        const __m128i pv = splat(pad);
        const T* in = a + nxb * sx + y;
        for (int64_t i = 0; i < B; ++i)
            r[i] = i < nin ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i * sx)) : pv;
        transpose_regs<static_cast<int>(sizeof(T))>(r);
        // ragged_block's callers leave at least a quarter of a block, 4
        // bytes, and at most one element short of a block, 15.
        if (store_parts(brow + nxb, dy, r, bytes, std::make_index_sequence<12>{})) return;
        // (no other size reaches here; were one to, the elements one by one)
        for (int64_t i = 0; i < B; ++i)
            for (int64_t x = nxb; x < nx; ++x) brow[i * dy + x] = x < vx ? a[x * sx + y + i] : pad;
#else
        alignas(16) T buf[B * B];
        block(a + nxb * sx + y, sx, nin, buf, B, B, pad);
        for (int64_t i = 0; i < B; ++i)
            std::memcpy(brow + i * dy + nxb, buf + i * B, static_cast<size_t>(bytes));
#endif
    }

#ifdef __SSE2__
    // The first kBytes (4 to 15) of v at to: two overlapping moves of a
    // fixed size, the second from v shifted right by a constant.
    template <int kBytes>
    __attribute__((always_inline)) static inline void row_part(char* to, __m128i v) {
        static_assert(kBytes >= 4 && kBytes < 16, "a part of a 16-byte row, 4 bytes or more");
        if constexpr (kBytes >= 8) {
            _mm_storel_epi64(reinterpret_cast<__m128i*>(to), v);
            _mm_storel_epi64(reinterpret_cast<__m128i*>(to + kBytes - 8),
                             _mm_srli_si128(v, kBytes - 8));
        } else {
            const int lo = _mm_cvtsi128_si32(v),
                      hi = _mm_cvtsi128_si32(_mm_srli_si128(v, kBytes - 4));
            std::memcpy(to, &lo, 4);
            std::memcpy(to + kBytes - 4, &hi, 4);
        }
    }

    // Each of the B rows' part of `bytes` (4 + one of I) at out, dy apart;
    // false when `bytes` is none of them.
    template <size_t... I>
    __attribute__((always_inline)) static inline bool store_parts(T* out, int64_t dy,
                                                                  const __m128i* r, int64_t bytes,
                                                                  std::index_sequence<I...>) {
        return ((bytes == 4 + int64_t(I) ? (store_rows<4 + int(I)>(out, dy, r), true) : false) ||
                ...);
    }

    template <int kBytes>
    __attribute__((always_inline)) static inline void store_rows(T* out, int64_t dy,
                                                                 const __m128i* r) {
        for (int64_t i = 0; i < B; ++i)
            row_part<kBytes>(reinterpret_cast<char*>(out + i * dy), r[i]);
    }
#endif

    // Tiles with many source rows far apart (NCHW -> HWCN: N = 168 rows
    // 401 KB apart) are staged: a chunk of every row is copied into a
    // contiguous buffer, and the blocks are transposed from there.
    // * Read straight from the rows, the B-row block loads hit one L1 set
    //   where the row stride is a multiple of 4 KiB (8 ways for 168 rows:
    //   every load a miss, 9.5 GB/s in cache for NCHW -> HWCN (168,64,8,8)
    //   fp16; staged 21.6), and each row is read 16 bytes at a time, one
    //   line per visit of 168 far-apart places, which DRAM serves slowly.
    // * Each row's chunk is a run of kStageBytes (16 lines), read together;
    //   the next chunk's lines (past the tile's last chunk, the next tile's
    //   first: the row goes on there for HWCN) are prefetched during this
    //   chunk's transposes, a few per block (PrefetchSpread), each row's
    //   lines back to back. 64 MiB, fp16: 0.44 -> 0.64 of memcpy; chunks of
    //   128 / 256 bytes measured 0.34 / 0.52, all prefetches in one burst
    //   at staging 0.52, none 0.46. docs/PERFORMANCE.md, finding 21.
    // 1-byte types keep gather_buffered (staged they measured no better).
    static constexpr int64_t kStageBytes = 1024;
    static constexpr int64_t kStageBudget = int64_t(256) << 10;  // buffer bytes at most
    static constexpr int64_t kStageMinRows = 65;  // fewer rows: prefetch_rows serves them

    // A staging plan: chunks of cw elements of each row (0: do not stage),
    // rows in strips of xs (all of them where the buffer allows). Not for
    // few rows, rows close together, or 1-byte types.
    struct Stage {
        int64_t cw = 0, xs = 0;
    };
    static Stage stage_plan(int64_t rows, int64_t row_len, int64_t row_stride, int64_t bytes) {
        const auto esz = static_cast<int64_t>(sizeof(T));
        Stage st;
        if (B == 16 || rows < kStageMinRows) return st;
        if (row_stride * esz < 1024 && rows * row_stride * esz < (int64_t(1) << 20)) return st;
        int64_t c = bytes / esz;
        const int64_t len = row_len / B * B;  // whole blocks of a row
        if (len < c) c = len;
        while (c * esz > 256 && c * esz * rows > kStageBudget) c /= 2;
        // whole blocks: the copy into the buffer and the block passes step
        // B at a time (168 halved to 84 for fp16 ran 8 bytes past the
        // buffer; found by valgrind, HWCN -> NCHW with N = 168)
        c = c / B * B;
        if (c < B) return st;
        int64_t xs = kStageBudget / (c * esz);
        xs = xs < rows ? xs / B * B : rows;
        if (xs < 64) return st;
        st.cw = c;
        st.xs = xs;
        return st;
    }

#ifdef __SSE2__
    template <bool kStream>
    __attribute__((noinline)) static int64_t gather_staged(const T* a, int64_t sx, T* b, int64_t dy,
                                                           int64_t nx, int64_t vy, int64_t vx,
                                                           T pad, Stage st) {
        const int64_t cw = st.cw;
        static thread_local std::vector<T> stage;
        if (static_cast<int64_t>(stage.size()) < cw * st.xs)
            stage.resize(static_cast<size_t>(cw * st.xs));
        T* buf = stage.data();
        const int64_t nxb = nx - nx % B;
        const auto esz = static_cast<int64_t>(sizeof(T));
        const int64_t ylast = vy / B * B;  // y done here: whole blocks
        // Streamed blocks that would open more lines than stream_open_lines()
        // go out through a line buffer of B rows x kLine (4 lines a row).
        constexpr int64_t kLine = 256 / static_cast<int64_t>(sizeof(T));
        alignas(16) T line[B * kLine];
        const bool lined = kStream && B > stream_open_lines() && dy * esz >= 64;
        for (int64_t x0 = 0; x0 < vx; x0 += st.xs) {
            const int64_t x1 = vx - x0 < st.xs ? vx : x0 + st.xs;
            // blocks over [x0, xe): all of nx's whole blocks in the last strip
            const int64_t xe = x1 == vx ? nxb : x1;
            for (int64_t y = 0; y < ylast; y += cw) {
                const int64_t w = ylast - y < cw ? ylast - y : cw;
                for (int64_t r = x0; r < x1; ++r) {
                    const T* src = a + r * sx + y;
                    T* to = buf + (r - x0) * cw;
                    for (int64_t k = 0; k < w; k += B)
                        _mm_storeu_si128(
                            reinterpret_cast<__m128i*>(to + k),
                            _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + k)));
                }
                // next: this strip's next chunk, else the next strip's first,
                // else past the rows' ends (the next tile's, for HWCN)
                int64_t pr0 = x0, pr1 = x1, py = y + w;
                int64_t pw = ylast - py < cw ? ylast - py : cw;
                if (y + w >= ylast && x1 < vx) {
                    pr0 = x1;
                    pr1 = vx - x1 < st.xs ? vx : x1 + st.xs;
                    py = 0;
                    pw = ylast < cw ? ylast : cw;
                } else if (y + w >= ylast) {
                    pw = cw;
                }
                const int64_t lines = (pw * esz + 63) / 64, total = (pr1 - pr0) * lines;
                const int64_t nblk = w / B * ((xe - x0) / B > 0 ? (xe - x0) / B : 1);
                PrefetchSpread pf{reinterpret_cast<const char*>(a + pr0 * sx + py), sx * esz, lines,
                                  total, (total + nblk - 1) / nblk};
                for (int64_t yb = 0; yb < w; yb += B) {
                    T* brow = b + (y + yb) * dy;
                    if (lined) {
                        // B rows x kLine through the line buffer, each row's
                        // piece then streamed in address order
                        for (int64_t xw = x0; xw < xe; xw += kLine) {
                            const int64_t xn = xe - xw < kLine ? xe - xw : kLine;
                            for (int64_t x = xw; x < xw + xn; x += B) {
                                pf();
                                const int64_t nin = vx - x < 0 ? 0 : (vx - x < B ? vx - x : B);
                                block(buf + (x - x0) * cw + yb, cw, nin, line + (x - xw), kLine, B,
                                      pad);
                            }
                            for (int64_t i = 0; i < B; ++i)
                                store_row(brow + i * dy + xw, line + i * kLine, xn / B);
                        }
                    } else {
                        for (int64_t x = x0; x < xe; x += B) {
                            pf();
                            const int64_t nin = vx - x < 0 ? 0 : (vx - x < B ? vx - x : B);
                            block<kStream>(buf + (x - x0) * cw + yb, cw, nin, brow + x, dy, B, pad);
                        }
                    }
                    if (x1 == vx)
                        for (int64_t i = 0; i < B; ++i)
                            for (int64_t x = nxb; x < nx; ++x)
                                brow[i * dy + x] = x < vx ? buf[(x - x0) * cw + yb + i] : pad;
                }
            }
        }
        return ylast;
    }
#endif

    // Tiles of many rows far apart, transposed in windows through a buffer
    // of about 43 KiB (finding 27): no staging copy (but the 1-byte tall
    // windows of rows a multiple of 4 KiB apart, tall_stage), each side read or
    // written in pieces of kWindowBytes or whole rows, the next window's
    // source prefetched while this one is transposed.
    // * tall (many source rows x, NHWC -> HWCN: 168 rows of H*W*C; NCHW ->
    //   HWCN): y in windows of kWindowBytes per source row, the blocks
    //   transposed straight from the rows into a buffer of the window's
    //   whole destination rows, each then streamed (one piece where they
    //   are back to back, dy == nx);
    // * wide (many destination rows y, HWCN -> NHWC/NCHW: 168 rows of
    //   H*W*C or H*W): x in windows of kWindowBytes per destination row,
    //   the window's whole source rows transposed into a buffer of
    //   destination row pieces, each then streamed.
    // Staged (finding 21), the copy into the staging buffer and the
    // transposes from it did not hide under the memory traffic (NHWC ->
    // HWCN fp16 0.52 of memcpy, where the same traffic without the
    // transposes measured 1.04); 128- and 512-byte windows measured slower
    // (int8 0.62-0.66 and 0.60-0.62 against 0.69-0.71).
    static constexpr int64_t kWindowBytes = 256;
    static constexpr int64_t kWindowBuffer = int64_t(128) << 10;
    // From 16 rows on the windowed side (one int8 block): NCHW -> NHWC fp16
    // and fp32 (64 rows) 0.80 / 0.69 -> 1.11, ND -> FRACTAL_ZN int8 0.71 ->
    // 0.99, HWCN -> NHWC fp32 (64 rows) 0.56 -> 0.88, NDHWC -> NCDHW fp32
    // (32) 0.69 -> 0.97 of memcpy, where 65 rows (kStageMinRows) left them
    // to the blocks and the line buffers.
    static constexpr int64_t kWindowMinRows = 16;
    // 1-byte types keep their line buffer (gather_buffered) for destination
    // rows closer than this: wide, NDHWC -> NCDHW int8 (rows 6 KiB apart)
    // fell 0.65 -> 0.43 and NHWC -> NCHW (3 KiB) 0.72 -> 0.65, while HWCN
    // -> NHWC/NCHW (rows 515-588 KiB apart) rose 0.37 -> 0.72, 0.22 -> 0.39.
    static constexpr int64_t kWideFar1 = int64_t(64) << 10;
    enum class Window { none, tall, wide };
    static Window window_plan(int64_t sx, int64_t dy, int64_t ny, int64_t nx, int64_t vy,
                              int64_t vx) {
        const auto esz = static_cast<int64_t>(sizeof(T));
        if (vx != nx || vy != ny) return Window::none;  // no padding
        if (nx >= kWindowMinRows && sx * esz >= 1024 && ny * esz >= 2 * kWindowBytes)
            return Window::tall;  // any number of rows (gather_tall, finding 50)
        if (ny >= kWindowMinRows && dy * esz >= (esz == 1 ? kWideFar1 : 1024) &&
            nx * esz >= 2 * kWindowBytes && ny * kWindowBytes <= kWindowBuffer)
            return Window::wide;
        return Window::none;
    }
    // The scatter's tall windows (scatter_tall, below) take plain rows
    // from kScatterMinRows on.
    // From 8 plain rows (fp32's C0): NC1HWC0 -> NCHW fp32 0.68-0.73 ->
    // 0.94-0.99, NDC1HWC0 -> NCDHW 0.67-0.71 -> 1.03, FRACTAL_Z -> HWCN
    // 0.69-0.72 -> 0.92-1.10.
    static constexpr int64_t kScatterMinRows = 8;
    // Plain rows off the line grid, each at its own offset into a line (no
    // head can align them: FRACTAL_Z -> HWCN with N = 29136 int8 bytes),
    // leave two part lines per piece, stored normally: 1 KiB pieces hold
    // them to 2 in 17 lines. FRACTAL_Z -> HWCN int8 / fp16 / fp32 0.51 /
    // 0.68 / 0.91 of memcpy with 256-byte windows, 0.67 / 0.85 / 0.96 with
    // 1 KiB, 0.46 / 0.77 / 0.84 with 2 KiB.
    static constexpr int64_t kOffGridWindowBytes = 1024;
    static bool scatter_tall_plan(int64_t sx, int64_t ny, int64_t nx) {
        const auto esz = static_cast<int64_t>(sizeof(T));
        return nx >= kScatterMinRows && sx * esz >= 1024 && ny * esz >= 2 * kWindowBytes &&
               nx * kOffGridWindowBytes <= kWindowBuffer;
    }
#ifdef __SSE2__
    static T* window_buffer(int64_t elems) {
        static thread_local std::vector<T> mem;
        const int64_t slack = 64 / static_cast<int64_t>(sizeof(T));
        if (static_cast<int64_t>(mem.size()) < elems + slack)
            mem.resize(static_cast<size_t>(elems + slack));
        const auto addr = reinterpret_cast<uintptr_t>(mem.data());
        return reinterpret_cast<T*>((addr + 63) & ~uintptr_t{63});
    }

    // Whether a tall window's 1-byte rows, sx apart, are staged (finding
    // 43): rows a multiple of 4 KiB apart (ND -> FRACTAL_ZN: 32 rows 4 KiB
    // apart; NHWC -> HWCN: 200,704 bytes) all fall into one of the L1's 64
    // sets, and a block's 16 rows are more lines than its ways (eight on
    // the AMD machine, twelve on the Intel one), so each block's next 16
    // bytes of the same rows came from L2 again. Past the cache on the AMD
    // machine, 3 passes, three interleaved alternations: ND -> FRACTAL_ZN
    // int8 5.8-6.4 -> 8.6-10.0 GB/s (0.53-0.61 -> 0.66-0.85 of memcpy),
    // NHWC -> HWCN 1-byte 0.56-0.63 -> 0.65-0.67, NCHW -> HWCN 1-byte
    // 0.39-0.43 -> 0.43-0.45. fp16 and fp32 (8 and 4 rows a block) read
    // the same staged in a trial; rows an odd multiple of 2 KiB apart (8
    // lines a set) were not measured.
    static constexpr bool tall_stage(int64_t sx) {
        return sizeof(T) == 1 && sx % 4096 == 0;
    }

    // One tall window: the cw columns at src, nx rows sx apart (nx >= B),
    // transposed into buf (cw rows of nx), B rows at a time; the last
    // nx % B rows go as one block overlapping the last whole one (its
    // elements stored twice, the same values). The window at `next` (the
    // same rows; null: none) has its lines prefetched into L2, a few per
    // block (PrefetchSpread). Shared by gather_tall and gather_tall_c.
    // Where tall_stage(sx) holds, each block of rows' window is copied
    // into `st` first and the blocks read it.
    __attribute__((always_inline)) static inline void tall_window(const T* src, int64_t sx,
                                                                  int64_t nx, const T* next,
                                                                  T* buf) {
        constexpr int64_t cw = kWindowBytes / static_cast<int64_t>(sizeof(T));
        static_assert(kWindowMinRows >= B, "the overlapping last block needs nx >= B");
        constexpr int64_t lines = kWindowBytes / 64 + 1;  // of a row's window, any alignment
        const auto esz = static_cast<int64_t>(sizeof(T));
        const int64_t nxb = nx - nx % B;
        const bool staged = tall_stage(sx);
        alignas(64) T st[sizeof(T) == 1 ? B * cw : 1];  // staged: 1-byte types only
        for (int64_t x = 0; x < nx; x += B) {
            const int64_t x0 = x < nxb ? x : nx - B;  // the ragged rows: overlapping
            // the B rows' window lines of the next window, a few per block
            // many rows (past window_rows()): the lines of the rows
            // kAheadRows on instead, in this window or the next
            const T* pbase = next ? next + x0 * sx : nullptr;
            int64_t prows = next ? B : 0;
            if (nx > window_rows()) {
                const int64_t t = x0 + kAheadRows;
                pbase = t < nx                ? src + t * sx
                        : next && t - nx < nx ? next + (t - nx) * sx
                                              : nullptr;
                prows = pbase ? std::min<int64_t>(B, t < nx ? nx - t : nx - (t - nx)) : 0;
            }
            const int64_t total = prows * lines;
            PrefetchSpread pf{reinterpret_cast<const char*>(pbase),
                              sx * esz,
                              lines,
                              total,
                              (total * B + cw - 1) / cw,
                              0,
                              true};
            const T* from = src + x0 * sx;
            int64_t fs = sx;
            if (staged) {
                copy_strided_rows(st, cw * esz, from, sx * esz, B, kWindowBytes);
                from = st;
                fs = cw;
            }
            for (int64_t k = 0; k < cw; k += B) {
                pf();
                block(from + k, fs, B, buf + k * nx + x0, nx, B, T{});
            }
        }
    }

    // The tall windows; returns the first y not done (whole windows only).
    // Finding 40: the next window's source lines are prefetched into L2,
    // a few per block (PrefetchSpread), as in gather_tall_c, and the last
    // nx % B rows go as one block overlapping the last whole one. On the
    // AMD Zen 4 machine of session 23, NHWC -> HWCN (interleaved one-pass
    // runs) read 2- and 4-byte 0.59-0.70 -> 0.82-1.14 of memcpy and 1-byte
    // 0.39-0.46 -> 0.47-0.64, where the prefetches went into L1 in one
    // burst per block of rows; spread but into L1, 0.63-0.69 and 0.49-0.59.
    // Finding 50: tall windows of many rows. Up to window_rows() (512) the
    // window buffer stays within kWindowBuffer and each block prefetches
    // the next window's lines of its own rows. Past it (NHWC -> HWCN with
    // N = 1338 fp16 at 512 MiB), the walks these tiles fell back to moved
    // 1.4-2.9 GB/s against memcpy's 11-12 on the Intel machine of session
    // 35, where the same bytes with N = 168 moved 6; strips of rows (their
    // pieces then strided, part lines at both ends) read 3.1-3.8, narrower
    // windows 3.2-4.4, and one window over every row 4.0-6.0. The next
    // window's lines of a block's rows, a whole buffer of rows ahead, fell
    // out of L2 before their turn where the rows share L2 sets (a stride
    // of 49 x 4 KiB), so there the rows kAheadRows on are prefetched
    // instead: 4.0 -> 5.2 GB/s (fp16), 3.8 -> 4.0 (int8), 5.3 -> 5.6
    // (fp32). Past kTallMaxRows the rows go in even strips.
    static constexpr int64_t window_rows() {
        return kWindowBuffer / kWindowBytes;
    }
    static constexpr int64_t kAheadRows = 64;
    static constexpr int64_t kTallMaxRows = 4096;
    static int64_t gather_tall(const T* a, int64_t sx, T* b, int64_t dy, int64_t ny, int64_t nx) {
        if (nx > window_rows() && (dy * static_cast<int64_t>(sizeof(T))) % 64 == 0)
            return gather_tall_blocks(a, sx, b, dy, ny, nx);
        const int64_t strips = (nx + kTallMaxRows - 1) / kTallMaxRows;
        if (strips == 1) return gather_tall_rows(a, sx, b, dy, ny, nx);
        const int64_t w = (nx + strips - 1) / strips;
        int64_t y = 0;
        for (int64_t x0 = 0; x0 < nx; x0 += w)
            y = gather_tall_rows(a + x0 * sx, sx, b + x0, dy, ny, std::min(w, nx - x0));
        return y;
    }
    // Finding 52: tall tiles of many rows (past window_rows()) whose
    // destination rows all start at one offset into a line (dy a multiple
    // of 64 bytes: NCHW -> HWCN, dy = C x N), in blocks of source rows.
    // y goes in chunks of kBlockReadBytes of each source row (the whole
    // row where it is shorter: H x W), x in blocks of kBlockPieceBytes of
    // each destination row. B source rows at a time are read side by side
    // along the chunk, few enough streams for the L2's own prefetcher, and
    // the next B rows' first two lines are prefetched into L2; then each
    // destination row's piece of the block is streamed from the buffer.
    // The first block takes the elements up to the line, so the other
    // blocks' pieces are whole lines. NCHW -> HWCN at 512 MiB with huge
    // pages: fp16 4.4 -> 5.1 GB/s, int8 3.4 -> 3.8, fp32 4.6 -> 5.1, where
    // the windows of 256 bytes a source row read each row's lines from a
    // separate page in turn. Where dy is not on the line grid (NHWC ->
    // HWCN, dy = N) the pieces would each leave part lines, and measured
    // half the windows' speed.
    static constexpr int64_t kBlockReadBytes = 8192;
    static constexpr int64_t kBlockPieceBytes = 128;
    __attribute__((noinline)) static int64_t gather_tall_blocks(const T* a, int64_t sx, T* b,
                                                                int64_t dy, int64_t ny,
                                                                int64_t nx) {
        constexpr int64_t esz = static_cast<int64_t>(sizeof(T));
        constexpr int64_t W = kBlockReadBytes / esz;
        constexpr int64_t R = kBlockPieceBytes / esz;
        constexpr int64_t rm = R + 64 / esz + B;  // a buffer row: a block's x, head and tail
        static_assert(R >= B, "a block holds at least B rows");
        T* buf = window_buffer(std::min(W, ny) * rm);
        // elements up to the line: the same for every destination row
        const auto head =
            static_cast<int64_t>((64 - reinterpret_cast<uintptr_t>(b) % 64) % 64) / esz;
        for (int64_t y0 = 0; y0 < ny; y0 += W) {
            const int64_t w = std::min(W, ny - y0), wb = w / B * B;
            for (int64_t x0 = 0; x0 < nx;) {
                int64_t x1 = x0 == 0 && head > 0 ? head + R : x0 + R;
                if (x1 > nx - B) x1 = nx;  // no last block of under B rows
                for (int64_t x = x0; x < x1; x += B) {
                    const int64_t xs = x + B <= x1 ? x : x1 - B;  // the last: overlapping
                    // the next B rows' first lines: this chunk's, else the next one's
                    const int64_t t = xs + B;
                    const T* next = t < nx        ? a + y0 + t * sx
                                    : y0 + W < ny ? a + y0 + W + (t - nx) * sx
                                                  : nullptr;
                    if (next)
                        for (int64_t i = 0; i < B; ++i) {
                            prefetch_line<2>(prefetch_at(next, i * sx * esz));
                            prefetch_line<2>(prefetch_at(next, i * sx * esz + 64));
                        }
                    const T* src = a + y0 + xs * sx;
                    T* to = buf + (xs - x0);
                    for (int64_t y = 0; y < wb; y += B)
                        block(src + y, sx, B, to + y * rm, rm, B, T{});
                    for (int64_t y = wb; y < w; ++y)
                        for (int64_t i = 0; i < B; ++i) to[y * rm + i] = src[y + i * sx];
                }
                for (int64_t y = 0; y < w; ++y)
                    stream_bytes(reinterpret_cast<char*>(b + (y0 + y) * dy + x0),
                                 reinterpret_cast<const char*>(buf + y * rm), (x1 - x0) * esz);
                x0 = x1;
            }
        }
        return ny;
    }

    __attribute__((noinline)) static int64_t gather_tall_rows(const T* a, int64_t sx, T* b,
                                                              int64_t dy, int64_t ny, int64_t nx) {
        constexpr int64_t cw = kWindowBytes / static_cast<int64_t>(sizeof(T));
        const auto esz = static_cast<int64_t>(sizeof(T));
        T* buf = window_buffer(cw * nx);
        int64_t y = 0;
        for (; y + cw <= ny; y += cw) {
            tall_window(a + y, sx, nx, y + 2 * cw <= ny ? a + y + cw : nullptr, buf);
            if (dy == nx) {
                stream_bytes(reinterpret_cast<char*>(b + y * nx),
                             reinterpret_cast<const char*>(buf), cw * nx * esz);
                continue;
            }
            for (int64_t c = 0; c < cw; ++c)
                stream_bytes(reinterpret_cast<char*>(b + (y + c) * dy),
                             reinterpret_cast<const char*>(buf + c * nx), nx * esz);
        }
        return y;
    }

    // The tall windows with the level outside the tile folded in, where its
    // destination step continues the tile's destination rows (NCHW -> HWCN:
    // the destination row of one h*w holds C pieces of N; `nc` steps of
    // `sc` source elements, each piece nx elements on). Finding 39:
    // * each window runs through every c before the next, so each
    //   destination row is written front to back, its pieces streamed
    //   whole through CarriedRows; a window per c (gather_tall) left a part
    //   line at both ends of every piece (N = 335 int8 bytes), stored
    //   normally, read for ownership, and shared with c - 1 and c + 1 a
    //   whole pass apart;
    // * the next c's source rows are prefetched into L2, spread over the
    //   transposes: int8 0.44-0.51 of memcpy with them into L1 in one
    //   burst per block of rows (the fill buffers full), 0.56-0.63 so;
    // * the last nx % B rows go as one block overlapping the last whole
    //   one (its elements stored twice in buf, the same values).
    // Windows of 64, 128, 512 or 1,024 bytes, buffers of 2-8 pieces a
    // row written together, and 1-byte blocks transposed two at a time
    // with AVX2 measured the same or slower. Returns the first y not done
    // (all c).
    __attribute__((noinline)) static int64_t gather_tall_c(const T* a, int64_t sx, T* b, int64_t dy,
                                                           int64_t ny, int64_t nx, int64_t nc,
                                                           int64_t sc) {
        constexpr int64_t cw = kWindowBytes / static_cast<int64_t>(sizeof(T));
        const auto esz = static_cast<int64_t>(sizeof(T));
        T* buf = window_buffer(cw * nx);
        static thread_local CarriedRows<cw> rows;
        int64_t y = 0;
        for (; y + cw <= ny; y += cw) {
            rows.reset();
            for (int64_t c = 0; c < nc; ++c) {
                const T* ac = a + c * sc + y;
                // the next tile's window: c + 1's, or the next window's c = 0
                const T* an = c + 1 < nc ? ac + sc : (y + 2 * cw <= ny ? a + y + cw : nullptr);
                tall_window(ac, sx, nx, an, buf);
                for (int64_t r = 0; r < cw; ++r)
                    rows.put(r, reinterpret_cast<char*>(b + (y + r) * dy + c * nx),
                             reinterpret_cast<const char*>(buf + r * nx), nx * esz, c + 1 == nc);
            }
        }
        return y;
    }

    // One window of the windowed walks: cw input rows of n elements (in,
    // is apart) transposed into buf (n rows of cw), pace() once per B input
    // rows (the prefetches of the next window); then each of the n rows
    // streamed to out + r * os.
    template <class Pace>
    static void transpose_window(const T* in, int64_t is, int64_t n, int64_t cw, T* buf, T* out,
                                 int64_t os, Pace& pace) {
        const int64_t nb = n - n % B;
        for (int64_t c = 0; c < cw; c += B) {
            pace();
            for (int64_t r = 0; r < nb; r += B)
                block(in + c * is + r, is, B, buf + r * cw + c, cw, B, T{});
        }
        for (int64_t r = nb; r < n; ++r)  // a ragged last block of rows
            for (int64_t c = 0; c < cw; ++c) buf[r * cw + c] = in[c * is + r];
        for (int64_t r = 0; r < n; ++r)
            stream_bytes(reinterpret_cast<char*>(out + r * os),
                         reinterpret_cast<const char*>(buf + r * cw),
                         cw * static_cast<int64_t>(sizeof(T)));
    }

    // The wide windows; returns the first x not done (whole windows only).
    __attribute__((noinline)) static int64_t gather_wide(const T* a, int64_t sx, T* b, int64_t dy,
                                                         int64_t ny, int64_t nx) {
        constexpr int64_t cw = kWindowBytes / static_cast<int64_t>(sizeof(T));
        const auto esz = static_cast<int64_t>(sizeof(T));
        T* buf = window_buffer(cw * ny);
        const int64_t lines = (ny * esz + 63) / 64 + 1;  // per source row, any alignment
        constexpr int64_t passes = cw / B;
        int64_t x = 0;
        for (; x + cw <= nx; x += cw) {
            const int64_t total = x + 2 * cw <= nx ? cw * lines : 0;
            PrefetchSpread pf{reinterpret_cast<const char*>(a + (x + cw) * sx), sx * esz, lines,
                              total, (total + passes - 1) / passes};
            transpose_window(a + x * sx, sx, ny, cw, buf, b + x, dy, pf);
        }
        return x;
    }

    // The wide windows with the level outside the tile folded in, where its
    // source step continues the tile's source rows (HWCN -> NCHW: the source
    // row of one h*w holds C rows of N; `nc` steps of `sc` source, `dc`
    // destination elements): each window runs through every c before the
    // next, so the window's source rows are read front to back, each line
    // once, where a window per c read the part lines shared with c + 1
    // again a whole pass later. Returns the first x not done (all c).
    __attribute__((noinline)) static int64_t gather_wide_c(const T* a, int64_t sx, T* b, int64_t dy,
                                                           int64_t ny, int64_t nx, int64_t nc,
                                                           int64_t sc, int64_t dc) {
        constexpr int64_t cw = kWindowBytes / static_cast<int64_t>(sizeof(T));
        const auto esz = static_cast<int64_t>(sizeof(T));
        T* buf = window_buffer(cw * ny);
        const int64_t lines = (sc * esz + 63) / 64 + 1;  // the next c's piece of a row
        constexpr int64_t passes = cw / B;
        int64_t x = 0;
        for (; x + cw <= nx; x += cw)
            for (int64_t c = 0; c < nc; ++c) {
                const T* ac = a + c * sc;
                const int64_t total = c + 1 < nc ? cw * lines : 0;
                PrefetchSpread pf{reinterpret_cast<const char*>(ac + x * sx + sc),
                                  sx * esz,
                                  lines,
                                  total,
                                  (total + passes - 1) / passes,
                                  0,
                                  true};
                transpose_window(ac + x * sx, sx, ny, cw, buf, b + c * dc + x, dy, pf);
            }
        return x;
    }

    // The scatter's tall windows (the plain side written: many plain rows
    // x far apart, NDC1HWC0 -> NCDHW, FRACTAL_Z -> HWCN): y in windows of
    // kWindowBytes per plain row, the window's whole blocked rows read
    // (back to back where dy == nx) and transposed into a buffer of plain
    // row pieces, each then streamed; the next window's blocked rows are
    // prefetched between the block passes. Returns the first y not done.
    __attribute__((noinline)) static int64_t scatter_tall(T* a, int64_t sx, const T* b, int64_t dy,
                                                          int64_t ny, int64_t nx) {
        const auto esz = static_cast<int64_t>(sizeof(T));
        const int64_t wb = (sx * esz) % 64 == 0 ? kWindowBytes : kOffGridWindowBytes;
        const int64_t cw = wb / esz;
        T* buf = window_buffer(cw * nx);
        const int64_t lines = (nx * esz + 63) / 64 + 1;  // per blocked row, any alignment
        const int64_t passes = cw / B;
        int64_t y = 0;
        for (; y + cw <= ny; y += cw) {
            const int64_t total = y + 2 * cw <= ny ? cw * lines : 0;
            PrefetchSpread pf{reinterpret_cast<const char*>(b + (y + cw) * dy), dy * esz, lines,
                              total, (total + passes - 1) / passes};
            transpose_window(b + y * dy, dy, nx, cw, buf, a + y, sx, pf);
        }
        return y;
    }
#endif

    // Whether an unstreamed scatter's plain rows all fall in one L1 set and
    // are too many for its ways: rows a multiple of 4 KiB apart, at least 16
    // of them (and a whole block), each long enough for one staging window,
    // and few enough that the window buffer stays within kStageBudget
    // (FRACTAL_ZN -> ND int8, M = 512: 32 rows 4 KiB apart, 16 bytes a row
    // per block; every store missed L1, 2.3-2.5 GB/s in cache). Such tiles
    // go through scatter_staged, which writes each row's 256-byte piece at
    // once. docs/PERFORMANCE.md, finding 48.
    static bool one_set(int64_t sx, int64_t vx, int64_t vy, int64_t vxb) {
        const auto esz = static_cast<int64_t>(sizeof(T));
        return vxb >= B && vx >= 16 && (sx * esz) % 4096 == 0 && vy * esz >= kStageScatterBytes &&
               vxb * (kStageScatterBytes + 64) <= kStageBudget;
    }

    // kStream: whole blocks use non-temporal stores (b and dy*sizeof(T)
    // 16-byte aligned); the ragged edges store normally. 1-byte types with
    // rows of b of a line or more go through gather_buffered: a block
    // streamed from the registers writes 16 bytes to each of 16 rows, 16
    // lines open at once (see scatter). NCHW -> NHWC int8 (C = 64) 0.19 ->
    // 0.33 of memcpy. Shorter rows share lines (32-byte C0 rows of NC1HWC0
    // int8: 8 lines open), and there the buffer measured slower (0.40 ->
    // 0.37, ND -> FRACTAL_ZN 0.46 -> 0.35): the copy costs, nothing gained.
    // a_left: elements readable from a (0: not known). Where it allows, the
    // last m < B valid rows (all 9 of a 3x3 kernel's FRACTAL_Z tile for
    // 1-byte types, whose B is 16) still go through the block transpose:
    // its B-wide row loads read past row m into the next source row (or
    // the next tile), and only m output rows are stored.
    template <bool kStream = false>
    static void gather(const T* a, int64_t sx, T* b, int64_t dy, int64_t ny, int64_t nx, int64_t vy,
                       int64_t vx, T pad, int64_t a_left = 0) {
        const int64_t nxb = nx - nx % B;  // x covered by whole blocks
        int64_t y = 0;
#ifdef __SSE2__
        // (stage_plan first: it never stages 1-byte types, and the staged
        // walk has its own line buffer for the others)
        if (const Stage st = stage_plan(vx, vy, sx, kStageBytes); st.cw > 0)
            y = gather_staged<kStream>(a, sx, b, dy, nx, vy, vx, pad, st);
        else if (kStream && B > stream_open_lines() && dy * static_cast<int64_t>(sizeof(T)) >= 64)
            y = gather_buffered(a, sx, b, dy, nx, vy, vx, pad, a_left);
#endif
        const int64_t ahead = ahead_elems(vx, vy);
        y = ahead > 0 ? gather_blocks<kStream, true>(a, sx, b, dy, nx, y, vy, vx, pad, ahead)
                      : gather_blocks<kStream, false>(a, sx, b, dy, nx, y, vy, vx, pad, 0);
        if (y < vy && 4 * (vy - y) >= B && a_left > 0) {
            const int64_t m = vy - y;
            T* brow = b + y * dy;
            short_blocks<kStream>(a, sx, y, m, 0, nxb, vx, brow, dy, pad, a_left);
            for (int64_t i = 0; i < m; ++i)
                for (int64_t x = nxb; x < nx; ++x)
                    brow[i * dy + x] = x < vx ? a[x * sx + y + i] : pad;
            y = vy;
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

#ifndef __SSE2__
    // Without SSE2 (store_row below): the row as it is, no streaming.
    static inline void store_row(T* out, const T* row, int64_t g) {
        std::memcpy(out, row, static_cast<size_t>(g) * 16);
    }
#endif
#ifdef __SSE2__
    // Stores g 16-byte pieces of `row` (16-byte aligned) to out (16-byte
    // aligned) in address order: streaming where the piece's 64-byte line
    // lies wholly inside [out, out + 16g bytes), normal stores for the
    // partial lines at the two ends (their other part follows soon, while
    // it is still in cache).
    static inline void store_row(T* out, const T* row, int64_t g) {
        const auto lo = reinterpret_cast<uintptr_t>(out);
        const uintptr_t hi = lo + static_cast<uintptr_t>(g) * 16;
        for (int64_t k = 0; k < g; ++k) {
            auto* p = reinterpret_cast<__m128i*>(out + k * B);
            const __m128i v = _mm_load_si128(reinterpret_cast<const __m128i*>(row + k * B));
            const uintptr_t line = reinterpret_cast<uintptr_t>(p) & ~uintptr_t{63};
            if (line >= lo && line + 64 <= hi)
                _mm_stream_si128(p, v);
            else
                _mm_storeu_si128(p, v);
        }
    }

    // The streaming part of scatter(): y in windows of G blocks, each x
    // block transposed into a buffer of B rows x G blocks, then each plain
    // row's window stored with store_row. Returns the first y not done.
    template <int64_t G>
    static int64_t scatter_buffered(T* a, int64_t sx, const T* b, int64_t dy, int64_t vy,
                                    int64_t vx, int64_t vxb) {
        constexpr int64_t W = G * B;
        alignas(16) T buf[B * W];
        int64_t y = 0;
        for (; y + W <= vy; y += W) {
            for (int64_t x = 0; x < vxb; x += B) {
                const int64_t nout = vx - x < B ? vx - x : B;
                for (int64_t k = 0; k < G; ++k)
                    block(b + (y + k * B) * dy + x, dy, B, buf + k * B, W, nout, T{});
                for (int64_t i = 0; i < nout; ++i) store_row(a + (x + i) * sx + y, buf + i * W, G);
            }
            for (int64_t x = vxb; x < vx; ++x)
                for (int64_t i = 0; i < W; ++i) a[x * sx + y + i] = b[(y + i) * dy + x];
        }
        return y;
    }
#endif

    // The scatter's side of gather_staged: many plain rows far apart
    // (HWCN -> NCHW: N = 168 rows 401 KB apart), written 16 bytes per block
    // and row, one line per visit (0.28 of memcpy for fp16). Here y goes in
    // windows of kStageScatterBytes per plain row: the window's blocks are
    // transposed into a buffer of whole plain-row pieces (its row stride off
    // the 1 KiB grid, so the B rows a block stores fall in different L1
    // sets), and each piece then goes out in one run (streamed where
    // kStream). The next window's blocked rows are prefetched during the
    // transposes. 64 MiB fp16: 0.28 -> 0.36; 512- and 1024-byte windows
    // measured 0.26 and 0.17 (the blocked side, read as 512 rows 21 KB
    // apart, then stalls).
    static constexpr int64_t kStageScatterBytes = 256;

#ifdef __SSE2__
    template <bool kStream>
    __attribute__((noinline)) static int64_t scatter_staged(T* a, int64_t sx, const T* b,
                                                            int64_t dy, int64_t vy, int64_t vx,
                                                            int64_t vxb, int64_t cw) {
        static thread_local std::vector<T> stage;
        const auto esz = static_cast<int64_t>(sizeof(T));
        const int64_t ws = cw + 64 / esz;
        if (static_cast<int64_t>(stage.size()) < vxb * ws + B)
            stage.resize(static_cast<size_t>(vxb * ws + B));
        const auto addr = reinterpret_cast<uintptr_t>(stage.data());
        T* buf = reinterpret_cast<T*>((addr + 15) & ~uintptr_t{15});
        const int64_t lines = (vxb * esz + 63) / 64;  // per blocked row
        int64_t y = 0;
        for (;;) {
            const int64_t w = vy - y < cw ? (vy - y) / B * B : cw;
            if (w == 0) break;
            const int64_t ahead = (vy - y - w < cw ? vy - y - w : cw) * lines;
            const int64_t nblk = w / B * (vxb / B);
            PrefetchSpread pf{reinterpret_cast<const char*>(b + (y + w) * dy), dy * esz, lines,
                              ahead, (ahead + nblk - 1) / nblk};
            for (int64_t k = 0; k < w; k += B) {
                const T* brow = b + (y + k) * dy;
                for (int64_t x = 0; x < vxb; x += B) {
                    pf();
                    block(brow + x, dy, B, buf + x * ws + k, ws, B, T{});
                }
            }
            for (int64_t x = 0; x < vxb && x < vx; ++x) {
                T* out = a + x * sx + y;
                const T* in = buf + x * ws;
                if (kStream) {
                    for (int64_t k = 0; k < w; k += B)
                        _mm_stream_si128(reinterpret_cast<__m128i*>(out + k),
                                         _mm_load_si128(reinterpret_cast<const __m128i*>(in + k)));
                } else {
                    std::memcpy(out, in, static_cast<size_t>(w * esz));
                }
            }
            for (int64_t x = vxb; x < vx; ++x)
                for (int64_t i = 0; i < w; ++i) a[x * sx + y + i] = b[(y + i) * dy + x];
            y += w;
        }
        return y;
    }
#endif

    // scatter()'s whole block rows from y while y + B <= y_end, with normal
    // stores (vxb: the x covered by whole blocks); returns the first y not
    // done.
    static int64_t scatter_rows(T* a, int64_t sx, const T* b, int64_t dy, int64_t y, int64_t y_end,
                                int64_t vx, int64_t vxb) {
        for (; y + B <= y_end; y += B) {
            const T* brow = b + y * dy;
            for (int64_t x = 0; x < vxb; x += B)
                block(brow + x, dy, B, a + x * sx + y, sx, vx - x < B ? vx - x : B, T{});
            for (int64_t x = vxb; x < vx; ++x)
                for (int64_t i = 0; i < B; ++i) a[x * sx + y + i] = brow[i * dy + x];
        }
        return y;
    }

    // kStream: whole blocks use non-temporal stores (a and sx*sizeof(T)
    // 16-byte aligned), and each 64-byte line of a plain row is written
    // while its write-combining buffer is open. Storing a block straight
    // from the registers fills 16 bytes of each of its B plain rows in turn,
    // B lines open at once (4 blocks along y complete them): that holds for
    // fp32 (4 rows) and fp16 (8), not for 1-byte types (16 rows; NC1HWC0 ->
    // NCHW int8 ran at 0.16 of memcpy against 1.1 for fp16). 1-byte types
    // therefore go through a buffer (scatter_buffered):
    // * plain rows on line boundaries (a and sx 64-byte aligned): windows of
    //   4 blocks along y, one line per row, four back-to-back streaming
    //   stores (0.16 -> 0.9-1.1; 16 blocks measured 0.77);
    // * rows off the line grid (FRACTAL_Z -> HWCN with N = 29136): windows of
    //   16 blocks, whole lines streamed, the partial ends stored normally
    //   (0.20 -> 0.6; 4 blocks, all stored normally, measured the same).
    // For fp16 and fp32 the buffer is an extra copy with nothing to gain
    // (NDC1HWC0 -> NCDHW fp32: 0.60-0.68 through it, 0.71-0.76 without).
    template <bool kStream = false>
    static void scatter(T* a, int64_t sx, const T* b, int64_t dy, int64_t nx, int64_t vy,
                        int64_t vx) {
        // whole blocks over the valid x (the last may be partly valid) that
        // stay inside b's rows
        const int64_t nxb = nx - nx % B, vxr = (vx + B - 1) / B * B;
        const int64_t vxb = vxr < nxb ? vxr : nxb;
        int64_t y = 0;
#ifdef __SSE2__
        const bool lines = reinterpret_cast<uintptr_t>(a) % 64 == 0 &&
                           (sx * static_cast<int64_t>(sizeof(T))) % 64 == 0;
        if (const Stage st = stage_plan(vx, vy, sx, kStageScatterBytes);
            st.cw > 0 && st.xs >= vx && vxb > 0) {
            y = scatter_staged<kStream>(a, sx, b, dy, vy, vx, vxb, st.cw);
        } else if (!kStream && one_set(sx, vx, vy, vxb)) {
            y = scatter_staged<false>(a, sx, b, dy, vy, vx, vxb,
                                      kStageScatterBytes / static_cast<int64_t>(sizeof(T)));
        } else if (kStream && B > stream_open_lines() && lines) {
            y = scatter_buffered<4>(a, sx, b, dy, vy, vx, vxb);
        } else if (kStream && B > stream_open_lines()) {
            y = scatter_buffered<16>(a, sx, b, dy, vy, vx, vxb);
        } else if (kStream) {
            constexpr int64_t G = 4, W = G * B;
            // Plain rows that all start the same way into a line (sx a whole
            // number of lines) but not on one: the first blocks are stored
            // normally, so that every window below fills whole lines. Off
            // the grid (NDC1HWC0 -> NCDHW fp16: rows of 1568 bytes, every
            // other d 32 bytes into a line), each window left half lines
            // open in 2B rows until the next one: 0.46 of memcpy.
            const auto off = reinterpret_cast<uintptr_t>(a) % 64;
            if (off != 0 && (sx * static_cast<int64_t>(sizeof(T))) % 64 == 0) {
                const auto head = static_cast<int64_t>((64 - off) / sizeof(T));
                if (head + W <= vy) y = scatter_rows(a, sx, b, dy, y, head, vx, vxb);
            }
            for (; y + W <= vy; y += W) {
                for (int64_t x = 0; x < vxb; x += B)
                    for (int64_t k = 0; k < G; ++k)
                        block<true>(b + (y + k * B) * dy + x, dy, B, a + x * sx + y + k * B, sx,
                                    vx - x < B ? vx - x : B, T{});
                for (int64_t x = vxb; x < vx; ++x)
                    for (int64_t i = 0; i < W; ++i) a[x * sx + y + i] = b[(y + i) * dy + x];
            }
        }
#endif
        y = scatter_rows(a, sx, b, dy, y, vy, vx, vxb);
#ifdef __SSE2__
        // A tile of fewer rows than a block whose plain rows are back to back
        // (FRACTAL_Z -> NCHW with 3x3 kernels, 1-byte types: 9 rows, sx = 9):
        // the block transpose on the m rows, each output row stored whole
        // (16 bytes) in ascending order, so its tail is overwritten by the
        // next row; the block's last row through a buffer, so nothing is
        // written past the tile's own rows. A tail reaches one row further
        // only, so the rows hold at least half a block (2m >= B; a 1x1
        // kernel's fp32 rows of 1 element would reach 3 rows further).
        if (y == 0 && vy == sx && 2 * vy >= B && vy < B) {
            const int64_t m = vy;
            alignas(16) T last[B];
            for (int64_t x = 0; x < vxb; x += B) {
                const int64_t nout = vx - x < B ? vx - x : B;
                __m128i r[B];
                for (int64_t i = 0; i < B; ++i)
                    r[i] = i < m ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + i * dy + x))
                                 : _mm_setzero_si128();
                transpose_regs<static_cast<int>(sizeof(T))>(r);
                for (int64_t i = 0; i + 1 < nout; ++i)
                    _mm_storeu_si128(reinterpret_cast<__m128i*>(a + (x + i) * sx), r[i]);
                _mm_store_si128(reinterpret_cast<__m128i*>(last), r[nout - 1]);
                std::memcpy(a + (x + nout - 1) * sx, last, static_cast<size_t>(m) * sizeof(T));
            }
            for (int64_t x = vxb; x < vx; ++x)
                for (int64_t i = 0; i < m; ++i) a[x * sx + i] = b[i * dy + x];
            return;
        }
#endif
        for (; y < vy; ++y)
            for (int64_t x = 0; x < vx; ++x) a[x * sx + y] = b[y * dy + x];
    }
};

}  // namespace ll::detail
