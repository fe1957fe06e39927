// The Executor's int4 walks where nibbles cannot move in pairs (see
// executor_int4.hpp): a plain row and its blocked row disagree on which
// half of a byte a nibble sits in, or a blocked row holds nibbles of
// several plain rows. Split from executor.cpp, which runs the pairs.
//
// Sections:
//   PaddedRows                   int4 rows of a few nibbles over the pad
//                                pattern, built in registers (finding 35)
//   NibblePolicy                 nibble runs for walk() (partial_rows: the
//                                rows of a padded level in one call)
//   few_rows                     a few plain rows into padded C0 rows,
//                                in registers (finding 35)
//   NibbleBytesTilePolicy        tiles whose rows start mid-byte, through
//                                bytes (finding 19; runs: nibbles.hpp); from
//                                plain rows on whole bytes by nibble blocks
//                                (gather_rows, finding 33); kernels of 9,
//                                25 or 27 nibbles through a 16 x 16 byte
//                                transpose (kernel_rows, kernel_batch:
//                                finding 37), packed in registers with
//                                AVX2 (kernels_in, kernel_rows_back:
//                                finding 41)
//   NibbleTransposePolicy        transposes in 32 x 32 nibble blocks
//                                (prefetched windows, chunks with carried
//                                lines, overlapping edges, a folded level,
//                                padded rows whole: finding 30; AVX2
//                                blocks where the CPU has it: finding 32;
//                                fewer than 32 rows: finding 36)
//   copy16s, strip_runs          runs of rows that start mid-byte, in
//                                strips (ND <-> FRACTAL_NZ, odd N: finding 34)
//   run_nibble_segment,          the entry points
//   run_nibble_composed
#include "core/format/executor_int4.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "core/format/executor_walk.hpp"
#include "core/format/gather.hpp"
#include "core/format/nibbles.hpp"
#include "core/format/transpose_tile.hpp"

namespace ll {

namespace {

using detail::Gather;
using detail::kStreamBytes;
using detail::Level;
using detail::prefetch_at;
using detail::prefetch_line;
using detail::Range;
using detail::tile_levels;
using detail::walk_threads;

// int4 rows of nx nibbles (nx % 32 == 0, whole 16-byte pieces) holding
// `valid` data nibbles (<= 14) over the pad pattern, built in registers and
// stored 16 bytes at a time (finding 35): the first piece is the data in
// the low word over the pad, the rest pad. Streamed where the caller asks
// and the rows fill lines in turn: 16-byte aligned and either back to back
// (dy == nx, NC1HWC0) or each a whole number of lines long; FRACTAL_Z's
// 32-byte rows of n0, which the next tile completes, stay normal (streamed,
// each store flushed a half line: 0.04 of memcpy). Without SSE2: memcpy
// and memset, never streamed.
class PaddedRows {
  public:
    PaddedRows(uint8_t pad, int64_t valid, int64_t nx, bool stream, const uint8_t* first_row,
               int64_t dy)
        : pad64_(0x1111111111111111ull * (pad & 0xF)),
          data_(valid == 0 ? 0 : ~0ull >> (64 - 4 * valid)),
          pieces_(nx / 32),
          streamed_(stream && reinterpret_cast<uintptr_t>(first_row) % 16 == 0 && dy % 32 == 0 &&
                    (dy == nx || nx % 128 == 0)) {}

    // The row at `out` from `bits` (data nibble k at bits 4k; higher bits ignored).
    inline void store(uint8_t* out, uint64_t bits) const {
        const uint64_t low = (pad64_ & ~data_) | (bits & data_);
#ifdef __SSE2__
        const __m128i first =
            _mm_set_epi64x(static_cast<long long>(pad64_), static_cast<long long>(low));
        const __m128i padv = _mm_set1_epi64x(static_cast<long long>(pad64_));
        auto* o = reinterpret_cast<__m128i*>(out);
        if (streamed_) {
            _mm_stream_si128(o, first);
            for (int64_t k = 1; k < pieces_; ++k) _mm_stream_si128(o + k, padv);
        } else {
            _mm_storeu_si128(o, first);
            for (int64_t k = 1; k < pieces_; ++k) _mm_storeu_si128(o + k, padv);
        }
#else
        std::memcpy(out, &low, 8);  // little-endian: nibble k in byte k / 2
        std::memset(out + 8, static_cast<int>(pad64_ & 0xFF),
                    static_cast<size_t>(pieces_ * 16 - 8));
#endif
    }

  private:
    uint64_t pad64_, data_;
    int64_t pieces_;
    bool streamed_;
};

// int4 when the nibbles cannot move in pairs (e.g. C0 of NCHW -> NC1HWC0,
// where neighbouring destination nibbles come from different source rows,
// or rows that start mid-byte: FRACTAL_NZ with an odd N, C = 3 of NHWC ->
// NC1HWC0). An innermost level contiguous on both sides moves as one run
// (copy_nibbles: memcpy, or 8 bytes at a time shifted by a nibble) and its
// padding as one pad_nibbles; anything else one nibble at a time,
// read-modify-write of its byte. Single-threaded (two threads could share
// a byte).
template <bool kScatter>
struct NibblePolicy {
    static constexpr bool kTiles = false;
    static constexpr int kBits = 4;  // elements are nibbles
    uint8_t* a;
    uint8_t* b;
    uint8_t pad;

    static inline uint8_t get(const uint8_t* p, int64_t i) { return detail::get_nibble(p, i); }
    static inline void set(uint8_t* p, int64_t i, uint8_t v) { detail::set_nibble(p, i, v); }
    inline void move(int64_t s, int64_t d) {
        if (kScatter)
            set(a, s, get(b, d));
        else
            set(b, d, get(a, s));
    }
    // n nibbles of level l from s / d (l contiguous on both sides: one run).
    inline void run(const Level& l, int64_t n, int64_t s, int64_t d) {
        if (l.src_stride == 1 && l.dst_stride == 1) {
            if (kScatter)
                detail::copy_nibbles(a, s, b, d, n);
            else
                detail::copy_nibbles(b, d, a, s, n);
            return;
        }
        for (int64_t i = 0; i < n; ++i) move(s + i * l.src_stride, d + i * l.dst_stride);
    }
    void block(const Level* lv, int n, int64_t s, int64_t d) {
        if (n == 0) {
            move(s, d);
            return;
        }
        if (n == 1) {
            run(lv[0], lv[0].size, s, d);
            return;
        }
        for (int64_t i = 0; i < lv[0].size; ++i)
            block(lv + 1, n - 1, s + i * lv[0].src_stride, d + i * lv[0].dst_stride);
    }
    void fill(const Level* lv, int n, int64_t d) {
        if (kScatter) return;
        if (n == 0) {
            set(b, d, pad);
            return;
        }
        if (n == 1 && lv[0].dst_stride == 1) {
            detail::pad_nibbles(b, d, d + lv[0].size, pad);
            return;
        }
        for (int64_t i = 0; i < lv[0].size; ++i) fill(lv + 1, n - 1, d + i * lv[0].dst_stride);
    }
    // Gathers only (set by run_segment): b past kStreamBytes; the bytes of
    // a, so that 8-byte loads stay inside it.
    bool stream = false;
    int64_t a_bytes = 0;

    // partial() on each row of `rows` (the walk's partial_rows): rows of a
    // few nibbles padded to whole 16-byte pieces (NHWC -> NC1HWC0 with C =
    // 3: 3 nibbles into a 32-byte C0 row) are built in registers, the data
    // in the low word over the pad pattern, and stored (streamed where b
    // is past kStreamBytes) rather than moved nibble by nibble and padded
    // by pad_nibbles (finding 35).
    void partial_rows(const Level& rows, const Level& l, int64_t valid, int64_t s, int64_t d) {
        if (!kScatter && l.dst_stride == 1 && l.size % 32 == 0 && valid <= 14 && d % 2 == 0 &&
            rows.dst_stride % 2 == 0) {
            const PaddedRows out(pad, valid, l.size, stream, b + d / 2, rows.dst_stride);
            for (int64_t i = 0; i < rows.size; ++i) {
                const int64_t p = s + i * rows.src_stride;
                uint64_t bits = 0;
                if (l.src_stride == 1 && p / 2 + 8 <= a_bytes) {  // one load, shifted
                    std::memcpy(&bits, a + p / 2, 8);
                    bits >>= 4 * (p % 2);
                } else if (l.src_stride == 1) {  // the bytes that hold the run
                    const int64_t nb = (p % 2 + valid + 1) / 2;
                    for (int64_t j = 0; j < nb; ++j)
                        bits |= static_cast<uint64_t>(a[p / 2 + j]) << (8 * j);
                    bits >>= 4 * (p % 2);
                } else {
                    for (int64_t j = 0; j < valid; ++j)
                        bits |= static_cast<uint64_t>(get(a, p + j * l.src_stride)) << (4 * j);
                }
                out.store(b + (d + i * rows.dst_stride) / 2, bits);
            }
            return;
        }
        // the scatter: rows back to back on the plain side (NC1HWC0 ->
        // NHWC with C = 3), each row's nibbles from one 8-byte load of its
        // blocked row, gathered in a 128-bit word and moved by one
        // copy_nibbles per 32 nibbles
        if (kScatter && l.src_stride == 1 && l.dst_stride == 1 && rows.src_stride == valid &&
            valid > 0 && valid <= 14 && l.size >= 16 && d % 2 == 0 && rows.dst_stride % 2 == 0) {
            const uint64_t data = ~0ull >> (64 - 4 * valid);
            const int64_t group = 32 / valid;
            for (int64_t i0 = 0; i0 < rows.size; i0 += group) {
                const int64_t m = std::min(group, rows.size - i0);
                uint64_t acc[2] = {0, 0};  // nibble k at bits 4k of the pair
                for (int64_t i = 0; i < m; ++i) {
                    uint64_t bits;
                    std::memcpy(&bits, b + (d + (i0 + i) * rows.dst_stride) / 2, 8);
                    bits &= data;
                    const int64_t sh = 4 * valid * i;
                    if (sh >= 64) {
                        acc[1] |= bits << (sh - 64);
                        continue;
                    }
                    acc[0] |= bits << sh;
                    if (sh > 0) acc[1] |= bits >> (64 - sh);
                }
                uint8_t word[16];
                std::memcpy(word, acc, 16);  // little-endian: acc[0]'s bytes first
                detail::copy_nibbles(a, s + i0 * valid, word, 0, m * valid);
            }
            return;
        }
        for (int64_t i = 0; i < rows.size; ++i)
            partial(l, valid, s + i * rows.src_stride, d + i * rows.dst_stride);
    }

    void partial(const Level& l, int64_t valid, int64_t s, int64_t d) {
        run(l, valid, s, d);
        if (kScatter) return;
        if (l.dst_stride == 1)
            detail::pad_nibbles(b, d + valid, d + l.size, pad);
        else
            for (int64_t i = valid; i < l.size; ++i) set(b, d + i * l.dst_stride, pad);
    }
};

// int4: a gather of a few plain rows (C = 3 of NCHW -> NC1HWC0, or of
// 7x7 kernels into FRACTAL_Z) into blocked rows of whole 16-byte pieces.
// 16 nibbles of each plain row come from one 8-byte load; each blocked
// row is built in registers (its vx nibbles over the pad pattern) and
// stored, streamed past kStreamBytes where the rows fill lines in turn.
// The nibble transposes did these nibble by nibble (vx < 32: no whole
// block), the byte tiles through pieces of 64 x 128 bytes (finding 35).
// a: the plain side (a_bytes bytes), b: the blocked one; the tile as in
// transpose_tile.hpp (a[y + x * sx] -> b[y * dy + x], ny x nx, vx valid
// x, the rest padded with the nibble `pad`). Where vx <= 14, nx % 32 ==
// 0, no y is padding and the blocked rows start on bytes (d, dy even).
inline bool few_rows_fit(int64_t d, int64_t dy, int64_t ny, int64_t nx, int64_t vy, int64_t vx) {
    return vy == ny && vx <= 14 && vx < nx && nx % 32 == 0 && d % 2 == 0 && dy % 2 == 0;
}
void few_rows(const uint8_t* a, int64_t a_bytes, uint8_t* b, uint8_t pad, bool stream, int64_t s,
              int64_t d, int64_t sx, int64_t dy, int64_t ny, int64_t nx, int64_t vx) {
    const PaddedRows out(pad, vx, nx, stream, b + d / 2, dy);
    uint64_t w[14];
    for (int64_t y0 = 0; y0 < ny; y0 += 16) {
        const int64_t m = std::min<int64_t>(16, ny - y0);
        for (int64_t x = 0; x < vx; ++x) {  // nibbles y0.. of plain row x
            const int64_t p = s + y0 + x * sx;
            if (p / 2 + 9 <= a_bytes) {
                std::memcpy(&w[x], a + p / 2, 8);
                if (p % 2 != 0) w[x] = w[x] >> 4 | static_cast<uint64_t>(a[p / 2 + 8]) << 60;
            } else {
                w[x] = 0;
                for (int64_t i = 0; i < m; ++i)
                    w[x] |= static_cast<uint64_t>(detail::get_nibble(a, p + i)) << (4 * i);
            }
        }
        for (int64_t i = 0; i < m; ++i) {
            uint64_t bits = 0;
            for (int64_t x = 0; x < vx; ++x) bits |= (w[x] >> (4 * i) & 0xF) << (4 * x);
            out.store(b + (d + (y0 + i) * dy) / 2, bits);
        }
    }
}

// Tile<uint8_t>::scatter out of line, as GCC left it before this file was
// split from executor.cpp. Inlined into NibbleBytesTilePolicy::piece after
// the split, FRACTAL_Z -> NCHW with 7x7 kernels and C = 3 read 0.46-0.49 of
// memcpy in two 3-pass runs against the old binary's 0.48-0.52 interleaved
// with them; out of line, 0.48 against 0.48-0.49 (close to this host's
// noise either way; the old code shape is kept).
__attribute__((noinline)) void scatter_bytes(uint8_t* a, int64_t sx, const uint8_t* b, int64_t dy,
                                             int64_t nx, int64_t vy, int64_t vx) {
    detail::Tile<uint8_t>::scatter(a, sx, b, dy, nx, vy, vx);
}

// int4 tiled transposes whose rows start mid-byte on either side (NCHW ->
// FRACTAL_Z with 3x3 kernels: 9-nibble rows; NCHW -> HWCN with an odd N),
// which NibbleTransposePolicy cannot take: each tile in pieces of up to
// kY x kX, unpacked to one byte per nibble, transposed as bytes by
// Tile<uint8_t>, packed again. Where the plain side's rows lie close (the 9
// nibbles of a 3x3 kernel, back to back), the piece's plain rows go through
// unpack or pack as one run rather than a run per row.
// Single-threaded, as NibblePolicy. a is the plain side, b the blocked one.
template <bool kScatter>
struct NibbleBytesTilePolicy {
    static constexpr bool kTiles = true;
    static constexpr int kBits = 4;
    static constexpr int64_t kY = 64, kX = 128, kSpan = 256;
    uint8_t* a;
    uint8_t* b;
    uint8_t pad;

    // One piece: y in [y0, y0 + my), x in [x0, x0 + mx); vy, vx: how many
    // of those are data (a gather pads the rest).
    void piece(int64_t s, int64_t d, int64_t sx, int64_t dy, int64_t my, int64_t mx, int64_t vy,
               int64_t vx) {
        // plain bytes pa[y + x * sa]; blocked bytes pb[y * mx + x]. 16 bytes of
        // slack: the block transpose's row loads may read past the last row.
        alignas(16) uint8_t pa[kSpan * kX + 16];
        alignas(16) uint8_t pb[kY * kX + 16];
        // the plain rows as one run: a gather reads the gaps between rows too
        // (at most three times what the rows hold); a scatter must not write
        // them, so only rows back to back
        const bool one_run = sx <= kSpan && (kScatter ? sx == vy : sx <= 4 * vy);
        const int64_t sa = one_run ? sx : kY;
        if (!kScatter) {
            if (vx > 0 && vy > 0) {
                if (one_run)
                    detail::unpack_nibbles(pa, a, s, (vx - 1) * sx + vy);
                else
                    for (int64_t x = 0; x < vx; ++x)
                        detail::unpack_nibbles(pa + x * sa, a, s + x * sx, vy);
            }
            detail::Tile<uint8_t>::gather(pa, sa, pb, mx, my, mx, vy, vx, pad,
                                          (vx > 0 ? (vx - 1) * sa + vy : 0) + 16);
            if (dy == mx)
                detail::pack_nibbles(b, d, pb, my * mx);
            else
                for (int64_t y = 0; y < my; ++y)
                    detail::pack_nibbles(b, d + y * dy, pb + y * mx, mx);
            return;
        }
        if (vx <= 0 || vy <= 0) return;
        for (int64_t y = 0; y < vy; ++y) detail::unpack_nibbles(pb + y * mx, b, d + y * dy, vx);
        scatter_bytes(pa, sa, pb, mx, mx, vy, vx);
        if (one_run)
            detail::pack_nibbles(a, s, pa, vx * sx);
        else
            for (int64_t x = 0; x < vx; ++x) detail::pack_nibbles(a, s + x * sx, pa + x * sa, vy);
    }

    // A gather whose plain rows start on a byte and whose blocked rows may
    // not (NCHW -> HWCN and NHWC -> HWCN with an odd N: rows of N nibbles,
    // every other one mid-byte), without unpacking. The blocked row y is
    // the x rows of `no` entries of a level o above the tile back to back
    // (o.dst_stride == nx): nibble j = o * nx + x of it comes from plain
    // row s + o * os + x * sx, so the rows that share a byte come out of
    // one pass. Bands of kBand nibbles of each plain row, j in chunks,
    // go through nibble_block32 into an aligned buffer (a block whose 32
    // rows cross an o is gathered first); each buffer row then goes to b as
    // whole bytes where it starts on one (streamed past kStreamBytes), else
    // shifted by a nibble. Where the blocked rows lie back to back too (dy
    // == no * nx, NHWC -> HWCN), a band of whole rows is packed into one
    // piece of b first (finding 33).
    static constexpr int64_t kBand = 128, kChunk = 512, kPackedMax = 2048, kAheadRows = 128;
    std::vector<uint8_t> buf;  // kBand rows of a chunk; then the packed band
    bool stream = false;       // b is past kStreamBytes

    // n nibbles from `in` (starting on a byte) to nibbles [q, q + n) of b.
    void put(int64_t q, const uint8_t* in, int64_t n) {
        if (q % 2 != 0) {
            detail::copy_nibbles(b, q, in, 0, n);
            return;
        }
        if (stream)
            detail::stream_bytes(reinterpret_cast<char*>(b + q / 2),
                                 reinterpret_cast<const char*>(in), n / 2);
        else
            std::memcpy(b + q / 2, in, static_cast<size_t>(n / 2));
        if (n % 2 != 0) detail::set_nibble(b, q + n - 1, detail::get_nibble(in, n - 1));
    }

    // Streamed rows in chunks: row y's chunks in turn, part lines carried.
    detail::CarriedRows<kBand> carried_rows;

    static bool rows_fit(int64_t s, int64_t sx, int64_t os, int64_t ny, int64_t nx) {
        return !kScatter && s % 2 == 0 && sx % 2 == 0 && os % 2 == 0 && ny >= 32 && nx >= 2;
    }

    void gather_rows(int64_t s, int64_t d, int64_t sx, int64_t os, int64_t dy, int64_t ny,
                     int64_t nx, int64_t no) {
        const int64_t len = no * nx;
        const bool packed = dy == len && len <= kPackedMax && d % 2 == 0;
        const int64_t chunk = packed ? len : kChunk;
        const int64_t wmax = (std::min(chunk, len) + 31) / 32 * 16;
        const size_t need = static_cast<size_t>(kBand * wmax + (packed ? kBand * len / 2 + 1 : 0));
        if (buf.size() < need) buf.resize(need);
        uint8_t* const rows = buf.data();
        const int64_t is = sx / 2;
        carried_rows.reset();
        const bool carried = stream && !packed && d % 2 == 0 && dy % 2 == 0;
        alignas(16) uint8_t cross[32 * 16];
        for (int64_t y0 = 0; y0 < ny; y0 += kBand) {
            const int64_t by = std::min(kBand, ny - y0);
            for (int64_t j0 = 0; j0 < len; j0 += chunk) {
                const int64_t bx = std::min(chunk, len - j0);
                const int64_t w = (bx + 31) / 32 * 16;  // bytes of a buffer row
                for (int64_t xb = 0; xb < bx; xb += 32) {
                    const int64_t rx = std::min<int64_t>(32, bx - xb), j = j0 + xb;
                    const int64_t o = j / nx, x = j % nx;
                    // the band of the rows kAheadRows on, its lines at both
                    // ends, into L2: rows 100 KB apart (NHWC -> HWCN) share
                    // two L1 sets, so prefetches into L1 evicted each other
                    // (0.35 -> 0.41 of memcpy, finding 33)
                    if (j + kAheadRows < len) {
                        int64_t po = (j + kAheadRows) / nx, px = (j + kAheadRows) % nx;
                        for (int64_t r = 0; r < 32 && po < no; ++r) {
                            const uint8_t* p = a + (s + y0 + po * os + px * sx) / 2;
                            prefetch_line<2>(p);
                            prefetch_line<2>(p + (by - 1) / 2);
                            if (++px == nx) px = 0, ++po;
                        }
                    }
                    for (int64_t yb = 0; yb < by; yb += 32) {
                        const int64_t cy = std::min<int64_t>(32, by - yb);
                        const int64_t sy = s + y0 + yb;
                        const uint8_t* in = a + (sy + o * os + x * sx) / 2;
                        int64_t step = is;
                        if (x + rx > nx) {  // the rows cross an o
                            for (int64_t r = 0; r < rx; ++r)
                                std::memcpy(cross + 16 * r,
                                            a + (sy + (j + r) / nx * os + (j + r) % nx * sx) / 2,
                                            static_cast<size_t>((cy + 1) / 2));
                            in = cross;
                            step = 16;
                        }
                        uint8_t* out = rows + yb * w + xb / 2;
                        if (rx == 32 && cy == 32)
                            detail::nibble_block32(in, step, out, w);
                        else  // whole buffer rows: the nibbles past bx are never copied
                            detail::nibble_block32_part(in, step, rx, cy, out, w, cy, 32, 0);
                    }
                }
                if (packed) {
                    uint8_t* band = rows + kBand * wmax;
                    for (int64_t y = 0; y < by; ++y)
                        detail::copy_nibbles(band, y * len, rows + y * w, 0, len);
                    put(d + y0 * dy, band, by * len);
                    continue;
                }
                if (carried) {  // bx is even except in the last chunk
                    const bool last = j0 + bx >= len;
                    for (int64_t y = 0; y < by; ++y) {
                        uint8_t* to = b + (d + (y0 + y) * dy + j0) / 2;
                        carried_rows.put(y, reinterpret_cast<char*>(to),
                                         reinterpret_cast<const char*>(rows + y * w), bx / 2, last);
                        if (bx % 2 != 0)
                            detail::set_nibble(to, bx - 1,
                                               detail::get_nibble(rows + y * w, bx - 1));
                    }
                    continue;
                }
                for (int64_t y = 0; y < by; ++y) put(d + (y0 + y) * dy + j0, rows + y * w, bx);
            }
        }
    }

    // The levels above a tile in turn; at the one just above it, a gather
    // whose blocked rows hold that level's rows back to back takes
    // gather_rows over both.
    void levels(const Level* lv, int n, int64_t s, int64_t d) {
        if (n == 3) {
            const Level &o = lv[0], &y = lv[1], &x = lv[2];
            if (o.dst_stride == x.size && rows_fit(s, x.src_stride, o.src_stride, y.size, x.size)) {
                gather_rows(s, d, x.src_stride, o.src_stride, y.dst_stride, y.size, x.size, o.size);
                return;
            }
        }
#ifdef __SSE2__
        if (n == 4 && lv[2].src_stride == 1 && lv[3].dst_stride == 1 &&
            kernel_batch(lv[0], lv[1], lv[2], lv[3], s, d))
            return;
#endif
        if (n == 2) {
            tile(lv[0], lv[1], s, d, lv[0].size, lv[1].size);
            return;
        }
        if (n < 2) throw std::logic_error("a tiled gather ends in two levels");
        for (int64_t i = 0; i < lv[0].size; ++i)
            levels(lv + 1, n - 1, s + i * lv[0].src_stride, d + i * lv[0].dst_stride);
    }

    int64_t a_bytes = 0;  // gathers: the bytes of a (set by run_segment)
    int64_t b_bytes = 0;  // scatters: the bytes of b (set by run_nibble_segment)

#ifdef __SSE2__
    // Tiles whose plain rows are short and back to back (sx == ny: the 9,
    // 25 or 27 nibbles of 3x3, 5x5 and 3x3x3 kernels, NCHW <-> FRACTAL_Z,
    // NCDHW <-> FRACTAL_Z_3D with C <= 64; with more C1, D stays apart
    // from H*W and the rows are 9 nibbles 27 apart): plain nibble
    // s + x * ny + y <-> blocked nibble d + y * dy + x. The byte tiles
    // (piece) moved these at 1.6-1.7 GB/s in cache and out of it alike:
    // compute-bound (finding 37). Here chunks of up to kKernelCols
    // kernels are unpacked to bytes in one run and go through
    // kernels_to_rows (the scatter: rows_to_kernels, then one pack); short
    // output rows (a 3x3 tile's 32 bytes) are stored in place, long ones
    // through t and out whole (streamed past kStreamBytes). With AVX2,
    // chunks of whole 64-kernel groups skip the unpacked bytes: packed
    // kernel pairs go through the pair shuffles (kernels_in,
    // kernel_rows_back; finding 41), and kernels_to_rows's AVX2 build
    // is left to chunks that start mid-byte.
    static constexpr int64_t kKernelRows = 32, kKernelCols = 512;

    // cw kernels (cw % 32 == 0) of ny unpacked bytes each, back to back in
    // u, into ny rows of cw nibbles at to + y * ts. Kernels 2i and 2i + 1
    // merge into one register, byte y of it the byte of their output row
    // y (the even kernel's nibble low), so the transpose gives whole
    // output bytes, 32 nibbles a row, with no pack.
    static void kernels_to_rows(const uint8_t* u, int64_t ny, int64_t cw, uint8_t* to, int64_t ts) {
        // AVX2, two 32-kernel groups a transpose, for long chunks only: called
        // for each 64-kernel 3x3 tile it measured 0.31 against 0.37 (SSE2);
        // NCDHW -> FRACTAL_Z_3D's chunks of 512, 0.42 -> 0.47
        if (detail::nibble_avx2() && cw % 64 == 0 && cw >= 256) {
            detail::kernels_to_rows_avx2(u, ny, cw, to, ts);
            return;
        }
        for (int64_t xg = 0; xg < cw; xg += 32)
            for (int64_t y0 = 0; y0 < ny; y0 += 16) {
                __m128i r[16];
                for (int i = 0; i < 16; ++i) {
                    const uint8_t* k0 = u + (xg + 2 * i) * ny + y0;
                    const __m128i e = _mm_loadu_si128(reinterpret_cast<const __m128i*>(k0));
                    const __m128i o = _mm_loadu_si128(reinterpret_cast<const __m128i*>(k0 + ny));
                    r[i] = _mm_or_si128(e, _mm_slli_epi16(o, 4));  // bytes 0..15: no carry
                }
                detail::transpose_regs<1>(r);  // r[j]: output row y0 + j
                // j a constant once unrolled, so r stays in registers
                const int64_t m = ny - y0;
                for (int j = 0; j < 16; ++j) {
                    if (j >= m) break;
                    _mm_storeu_si128(reinterpret_cast<__m128i*>(to + (y0 + j) * ts + xg / 2), r[j]);
                }
            }
    }

    // Kernels [at, at + cw * ny) of a (nibbles) into ny rows of cw nibbles
    // at to + y * ts: with AVX2, kernels (up to kKernelRows) on a byte go
    // straight from a through the pair shuffles (finding 41); else unpacked
    // into u first.
    void kernels_in(int64_t at, int64_t ny, int64_t cw, uint8_t* u, uint8_t* to, int64_t ts) {
        if (detail::nibble_avx2() && cw % 64 == 0 && at % 2 == 0) {
            detail::kernels_packed_to_rows_avx2(a + at / 2, a + a_bytes, ny, cw, to, ts);
            return;
        }
        detail::unpack_nibbles(u, a, at, cw * ny);
        kernels_to_rows(u, ny, cw, to, ts);
    }

    // u and t stay on the stack (24 KB): moved into the policy as one heap
    // buffer, FRACTAL_Z -> NCHW 3x3 int4 read 0.28-0.30 against 0.32-0.34
    // in interleaved runs, and not from 4K aliasing (an offset buffer read
    // the same); not chased further
    void kernel_rows(int64_t s, int64_t d, int64_t dy, int64_t ny, int64_t nx) {
        alignas(16) uint8_t u[kKernelCols * kKernelRows + 32];
        alignas(16) uint8_t t[kKernelRows * (kKernelCols / 2)];
        for (int64_t x0 = 0; x0 < nx; x0 += kKernelCols) {
            const int64_t cw = std::min(kKernelCols, nx - x0), w = cw / 2;
            // long output rows through t, then whole (streamed past
            // kStreamBytes); short ones (a 3x3 tile's 32 bytes) in place:
            // copied from t, each row's copy was a rep movsq (0.19)
            const bool staged = w >= 128;
            uint8_t* to = staged ? t : b + (d + x0) / 2;
            const int64_t ts = staged ? kKernelCols / 2 : dy / 2;
            kernels_in(s + x0 * ny, ny, cw, u, to, ts);
            if (staged)
                for (int64_t y = 0; y < ny; ++y) {
                    uint8_t* out = b + (d + y * dy + x0) / 2;
                    if (stream)
                        detail::stream_bytes(reinterpret_cast<char*>(out),
                                             reinterpret_cast<const char*>(t + y * ts), w);
                    else
                        std::memcpy(out, t + y * ts, static_cast<size_t>(w));
                }
        }
    }

    // Streamed gathers of small kernel tiles under a level o whose blocked
    // step is one tile row (o.dst_stride == x.size: NCHW -> FRACTAL_Z, n
    // over [c1][hw][c0] tiles of 9 x 64): kernel_rows wrote each row's 32
    // bytes in place, 36 rows 1.9 MB apart a step of n, normal stores
    // with their reads for ownership. Here the tiles of kKernelCols /
    // x.size steps of o (o.size a multiple of it, as N is of N0 = 16)
    // build each output row's piece in t, streamed whole (256 bytes, 8
    // values of n), level m (c1) by level m.
    bool kernel_batch(const Level& o, const Level& m, const Level& y, const Level& x, int64_t s,
                      int64_t d) {
        const int64_t ny = y.size, nx = x.size;
        if (kScatter || !stream || o.dst_stride != nx || x.src_stride != ny || ny > kKernelRows ||
            nx % 32 != 0 || kKernelCols % nx != 0 || nx == kKernelCols ||
            o.size % (kKernelCols / nx) != 0 || d % 2 != 0 || y.dst_stride % 2 != 0 ||
            m.dst_stride % 2 != 0 || o.src_stride % 2 != 0)
            return false;
        alignas(16) uint8_t u[kKernelCols * kKernelRows + 32];
        alignas(16) uint8_t t[kKernelRows * (kKernelCols / 2)];
        const int64_t g = kKernelCols / nx, ts = kKernelCols / 2;
        const int64_t w = g * nx / 2;  // a piece: g tiles' rows; o.size a multiple of g
        for (int64_t o0 = 0; o0 < o.size; o0 += g) {
            // the source of the step of o two batches on (g * o.src_stride
            // nibbles, back to back) into L2, a part each step of m: the
            // unpack's loads missed (perf: a third of kernel_batch at the
            // load after them); NCHW -> FRACTAL_Z 3x3 int4 0.39 -> 0.46
            // (3-pass medians, finding 38)
            const int64_t ahead = (s + (o0 + 2 * g) * o.src_stride) / 2,
                          span = g * o.src_stride / 2, part = (span + m.size - 1) / m.size;
            for (int64_t i = 0; i < m.size; ++i) {
                const int64_t si = s + o0 * o.src_stride + i * m.src_stride;
                for (int64_t l = ahead + i * part; l < std::min(ahead + (i + 1) * part, a_bytes);
                     l += 64)
                    prefetch_line<2>(a + l);
                for (int64_t k = 0; k < g; ++k) {
                    kernels_in(si + k * o.src_stride, ny, nx, u, t + k * nx / 2, ts);
                }
                for (int64_t r = 0; r < ny; ++r)
                    detail::stream_bytes(
                        reinterpret_cast<char*>(
                            b + (d + o0 * o.dst_stride + i * m.dst_stride + r * y.dst_stride) / 2),
                        reinterpret_cast<const char*>(t + r * ts), w);
            }
        }
        return true;
    }

    // The reverse of kernels_to_rows: ny rows of cw nibbles (row y at in
    // + y * is bytes) into cw kernels of ny unpacked bytes in u. 16 bytes
    // (32 nibbles) of each row, the 16 x 16 transpose, and each register's
    // low and high nibbles (kernels 2i and 2i + 1) stored as 16 bytes into
    // u: kernel k's store runs past its ny bytes into kernel k + 1's, which
    // is stored after it (kernels in ascending order; for ny > 16 the rows
    // 16.. before the rows 0..15).
    static void rows_to_kernels(const uint8_t* in, int64_t is, int64_t ny, int64_t cw, uint8_t* u) {
        const __m128i lo4 = _mm_set1_epi8(0x0F);
        for (int64_t xg = 0; xg < cw; xg += 32)
            for (int64_t y0 = (ny - 1) / 16 * 16; y0 >= 0; y0 -= 16) {
                const int64_t m = ny - y0;
                __m128i r[16];
                for (int j = 0; j < 16; ++j) {
                    if (j >= m) {
                        r[j] = _mm_setzero_si128();
                        continue;
                    }
                    r[j] = _mm_loadu_si128(
                        reinterpret_cast<const __m128i*>(in + (y0 + j) * is + xg / 2));
                }
                detail::transpose_regs<1>(r);  // r[i]: kernels xg + 2i, + 1, bytes y0..
                for (int i = 0; i < 16; ++i) {
                    uint8_t* k0 = u + (xg + 2 * i) * ny + y0;
                    _mm_storeu_si128(reinterpret_cast<__m128i*>(k0), _mm_and_si128(r[i], lo4));
                    _mm_storeu_si128(reinterpret_cast<__m128i*>(k0 + ny),
                                     _mm_and_si128(_mm_srli_epi16(r[i], 4), lo4));
                }
            }
    }

    // Each of the ny blocked rows of a chunk (at d + x0), 256 bytes on:
    // the next 8 tiles of 3x3 kernels, walked in turn; only inside b,
    // though a prefetch would not fault. The row loads were a fifth of
    // the time: FRACTAL_Z -> NCHW 3x3 int4 0.30-0.32 -> 0.33-0.36 in
    // one-pass runs (finding 38).
    void prefetch_rows_ahead(int64_t d, int64_t dy, int64_t ny, int64_t x0) const {
        for (int64_t y = 0; y < ny; ++y) {
            const int64_t ahead = (d + y * dy + x0) / 2 + 256;
            if (ahead < b_bytes) prefetch_line(b + ahead);
        }
    }

    // The scatter of kernel_rows, chunk by chunk into the plain run. With
    // AVX2, chunks of whole 64-kernel groups go from their rows into
    // kernels packed in registers, stored in place where the plain run
    // starts on a byte (finding 41); other chunks (and every chunk
    // without AVX2) go through unpacked bytes. The choice is per chunk,
    // as kernels_in's: a tile of 544 kernels is a packed chunk of 512 and
    // one of 32. Apart from kernel_rows, whose prologue (a 24 KB frame,
    // both directions' set-up) was paid on every 3x3 tile; the buffers
    // are in the frames of the two noinline helpers.
    void kernel_rows_back(int64_t s, int64_t d, int64_t dy, int64_t ny, int64_t nx) {
        for (int64_t x0 = 0; x0 < nx; x0 += kKernelCols) {
            const int64_t cw = std::min(kKernelCols, nx - x0);
            prefetch_rows_ahead(d, dy, ny, x0);
            const int64_t at = s + x0 * ny;  // cw * ny is even
            const uint8_t* in = b + (d + x0) / 2;
            if (!detail::nibble_avx2() || cw % 64 != 0)
                unpacked_kernels(in, dy / 2, ny, cw, at);
            else if (at % 2 == 0)
                detail::rows_to_kernels_packed_avx2(in, dy / 2, ny, cw, a + at / 2);
            else
                mid_byte_kernels(in, dy / 2, ny, cw, at);
        }
    }

    // rows_to_kernels_packed_avx2 into a buffer, then to the plain run
    // starting mid-byte at nibble at.
    __attribute__((noinline)) void mid_byte_kernels(const uint8_t* in, int64_t is, int64_t ny,
                                                    int64_t cw, int64_t at) {
        alignas(16) uint8_t u[kKernelCols * kKernelRows / 2];
        detail::rows_to_kernels_packed_avx2(in, is, ny, cw, u);
        detail::copy_nibbles(a, at, u, 0, cw * ny);
    }

    // rows_to_kernels into unpacked bytes, then packed into the plain run
    // at nibble at.
    __attribute__((noinline)) void unpacked_kernels(const uint8_t* in, int64_t is, int64_t ny,
                                                    int64_t cw, int64_t at) {
        alignas(16) uint8_t u[kKernelCols * kKernelRows + 32];
        rows_to_kernels(in, is, ny, cw, u);
        detail::pack_nibbles(a, at, u, cw * ny);
    }
#endif

    void tile(const Level& y, const Level& x, int64_t s, int64_t d, int64_t vy, int64_t vx) {
        const int64_t sx = x.src_stride, dy = y.dst_stride;
        if (!kScatter && few_rows_fit(d, dy, y.size, x.size, vy, vx)) {
            few_rows(a, a_bytes, b, pad, stream, s, d, sx, dy, y.size, x.size, vx);
            return;
        }
        if (vy == y.size && vx == x.size && rows_fit(s, sx, 0, vy, vx)) {
            gather_rows(s, d, sx, 0, dy, vy, vx, 1);
            return;
        }
#ifdef __SSE2__
        if (vy == y.size && vx == x.size && sx == vy && vy <= kKernelRows && vx % 32 == 0 &&
            d % 2 == 0 && dy % 2 == 0) {
            if constexpr (kScatter)
                kernel_rows_back(s, d, dy, vy, vx);
            else
                kernel_rows(s, d, dy, vy, vx);
            return;
        }
#endif
        const int64_t xe = kScatter ? vx : x.size, ye = kScatter ? vy : y.size;
        for (int64_t y0 = 0; y0 < ye; y0 += kY) {
            const int64_t my = std::min(kY, ye - y0);
            const int64_t py = std::max<int64_t>(0, std::min(my, vy - y0));
            for (int64_t x0 = 0; x0 < xe; x0 += kX) {
                const int64_t mx = std::min(kX, xe - x0);
                const int64_t px = std::max<int64_t>(0, std::min(mx, vx - x0));
                piece(s + y0 + x0 * sx, d + y0 * dy + x0, sx, dy, my, mx, py, px);
            }
        }
    }
    void block(const Level* lv, int n, int64_t s, int64_t d) {
        levels(lv, n, s, d);
    }
    void fill(const Level* lv, int n, int64_t d) {
        if (!kScatter) NibblePolicy<false>{a, b, pad}.fill(lv, n, d);
    }
};

// int4 tiled transposes whose nibbles do not move in pairs (C0 of NCHW ->
// NC1HWC0 and back, FRACTAL_Z, NCHW <-> NHWC, NZ <-> ZN): the valid part of
// each tile in whole 32 x 32 nibble blocks through nibble_block32, the
// ragged edges and the padding nibble by nibble. a is the plain side, b the
// blocked one (as TilePolicy); every tile starts on a byte (nibble_transposes).
template <bool kScatter, bool kStream = false>
struct NibbleTransposePolicy {
    static constexpr bool kTiles = true;
    static constexpr int kBits = 4;  // elements are nibbles
    uint8_t* a;
    uint8_t* b;
    uint8_t pad;          // one nibble
    int64_t a_bytes = 0;  // gathers: the bytes of a, for few_rows
    // What the streamed walks (past kStreamBytes) prefetch and how they cut
    // (measured on the Intel machine, finding 30; kWindowsAhead and the
    // prefetches' level in blocks() on the AMD one, finding 42):
    static constexpr int64_t kAhead = 256;       // bytes ahead in padded_rows' input rows
    static constexpr int64_t kWindow = 256;      // nibbles of each input row per prefetch window
    static constexpr int64_t kWindowsAhead = 2;  // windows between the prefetch and its use
    static constexpr int64_t kChunk = 512;       // nibbles of each long output row per chunk
    static constexpr int64_t kCarryRows = 128;   // output rows whose last part line can wait
    static constexpr int64_t kFold = 512;        // columns per pass through the level above
    static constexpr int64_t kSmallRun = 4096;   // bytes: a small tile's input run

    // Whether input rows is bytes apart share at most two sets of an L1
    // of 64 sets of 64-byte lines (4 KiB a way on both machines; eight
    // ways on the AMD one, twelve on the Intel one): a block's 32 rows
    // then put at least 16 lines in one set, more than either has, so each
    // block's next 16 bytes of the same rows come from L2 again. Past the
    // cache on the AMD machine, staged against not (finding 43; 64 rows
    // each, two or three interleaved runs): ND -> FRACTAL_ZN (32768,4096)
    // 0.44-0.53 -> 0.64-0.70 of memcpy, (8192,8192) 0.38-0.42 ->
    // 0.57-0.60; NCHW -> NC1HWC0 (256,64,64,64) 0.41-0.45 -> 0.62-0.63;
    // NCHW -> NHWC, the same shape, 0.47-0.50 -> 0.62-0.65. Rows 1,024
    // bytes apart (64, 96 or 128 of them) read the same or lower staged,
    // so they are not.
    static bool stage_rows(int64_t is) { return is % 2048 == 0; }

    // The whole blocks, output rows (y of b in a gather, x of a in a
    // scatter) in the outer loop and four blocks at a time along them, so
    // each output row gets 64 bytes at once (nibble_blocks). Where the
    // output rows are one contiguous piece, the input rows are read in
    // windows of kWindow nibbles, a window ahead prefetched in bursts of
    // whole lines a row (NCHW -> NHWC, 64 rows 1,568 bytes apart: 0.57 ->
    // 0.80 of memcpy on the Intel machine, the next window into L1; a
    // line per row 256 bytes ahead gave 0.73). On the AMD machine the
    // window two on, into L2, reads 0.57-0.60 against 0.50 (NCHW ->
    // NC1HWC0) and 0.52-0.56 against 0.47-0.50 (NCHW -> NHWC), three
    // interleaved 5-pass runs; into L1 two on, or into L2 one or three
    // on, read between (finding 42).
    void blocks(int64_t s, int64_t d, int64_t sx, int64_t dy, int64_t by, int64_t bx) {
        const int64_t rows = kScatter ? bx : by, cols = kScatter ? by : bx;
        const int64_t is = (kScatter ? dy : sx) / 2, os = (kScatter ? sx : dy) / 2;
        if (cols <= 128 && os * 2 == cols) {  // the output rows are one contiguous piece
            // staged (stage_rows): at each r0 % 128 == 0, 64 bytes of every
            // input row (four blocks' worth; rows, a multiple of 128, leave
            // no part) into `stage`, which the next four block rows read.
            // Gathers only: no scatter has such input rows here.
            const bool staged = !kScatter && rows % 128 == 0 && stage_rows(is);
            alignas(64) uint8_t stage[128 * 64];
            for (int64_t r0 = 0; r0 < rows; r0 += 32) {
                const int64_t y0 = kScatter ? 0 : r0, x0 = kScatter ? r0 : 0;
                uint8_t* pa = a + (s + y0 + x0 * sx) / 2;
                uint8_t* pb = b + (d + y0 * dy + x0) / 2;
                const uint8_t* in = kScatter ? pb : pa;
                if (staged && r0 % 128 == 0) detail::copy_strided_rows(stage, 64, in, is, cols, 64);
                if (kStream && r0 - r0 % kWindow + kWindowsAhead * kWindow < rows) {
                    // the window kWindowsAhead on (kWindow nibbles of each
                    // input row) into L2, in bursts: the rows of 1 / 8 of
                    // it per block row
                    const int64_t t = (r0 / 32) % 8, q = (cols + 7) / 8;
                    const uint8_t* next = in - (r0 % kWindow) / 2 + kWindowsAhead * kWindow / 2;
                    for (int64_t k = t * q; k < std::min(cols, (t + 1) * q); ++k)
                        for (int64_t l = 0; l < kWindow / 2; l += 64)
                            prefetch_line<2>(prefetch_at(next, k * is + l));
                }
                const uint8_t* from = staged ? stage + (r0 % 128) / 2 : in;
                detail::nibble_blocks<kStream>(from, staged ? 64 : is, kScatter ? pa : pb, os,
                                               static_cast<int>(cols / 32));
            }
            return;
        }
        if (!kScatter && kStream && cols > 128 && row_windows_fit(rows, cols)) {
            row_windows(s, d, sx, dy, rows, cols);
            return;
        }
        if (cols <= 128) {  // short output rows: straight from the blocks
            for (int64_t r0 = 0; r0 < rows; r0 += 32)
                for (int64_t c0 = 0; c0 < cols; c0 += 32) {
                    const int64_t y0 = kScatter ? c0 : r0, x0 = kScatter ? r0 : c0;
                    uint8_t* pa = a + (s + y0 + x0 * sx) / 2;
                    uint8_t* pb = b + (d + y0 * dy + x0) / 2;
                    detail::nibble_block32(kScatter ? pb : pa, is, kScatter ? pa : pb, os);
                }
            return;
        }
        // Long output rows: chunks of kChunk nibbles of each, the blocks of
        // 32 output rows transposed into a buffer and each row's piece
        // stored whole, the next chunk's input prefetched. Streamed (past
        // kStreamBytes), a piece's last part line waits in `carry` for the
        // next chunk, which stores it whole with its own first bytes, so
        // only a row's two ends are part lines (stored normally) where
        // rows off the line grid (NC1HWC0 -> NCHW, 1,568-byte rows) had
        // two a chunk.
        constexpr int64_t kRow = 64 + kChunk / 2;  // carry room, then the piece
        alignas(64) uint8_t buf[32 * kRow];
        alignas(64) uint8_t carry[kCarryRows * 64];
        const bool carried = kStream && rows <= kCarryRows;
        for (int64_t c0 = 0; c0 < cols; c0 += kChunk) {
            const int64_t cw = std::min(kChunk, cols - c0), w = cw / 2;
            const bool ahead = c0 + kChunk < cols;
            for (int64_t r0 = 0; r0 < rows; r0 += 32) {
                for (int64_t c = c0; c < c0 + cw; c += 32) {
                    const int64_t y0 = kScatter ? c : r0, x0 = kScatter ? r0 : c;
                    const uint8_t* in =
                        kScatter ? b + (d + y0 * dy + x0) / 2 : a + (s + y0 + x0 * sx) / 2;
                    if (kStream && r0 == 0 && ahead) {
                        // into L2: on the AMD machine FRACTAL_ZN -> ND int4
                        // 0.66 -> 0.85-0.91, NC1HWC0 -> NCHW 0.69-0.74 ->
                        // 0.97-1.02, HWCN -> NHWC 0.62-0.63 -> 0.86-0.91 (two
                        // interleaved 3-pass runs, finding 42)
                        // (the next chunk's columns may end before c + kChunk:
                        // the address is formed as an integer, prefetch_at)
                        const int64_t p = kChunk * is;
                        if (is * 2 == rows)  // the input rows back to back
                            for (int64_t k = 0; k < 32 * is; k += 64)
                                prefetch_line<2>(prefetch_at(in, p + k));
                        else
                            for (int64_t k = 0; k < 32; ++k) {
                                prefetch_line<2>(prefetch_at(in, p + k * is));
                                prefetch_line<2>(prefetch_at(in, p + k * is + (rows - 1) / 2));
                            }
                    }
                    detail::nibble_block32(in, is, buf + 64 + (c - c0) / 2, kRow);
                }
                for (int64_t r = 0; r < std::min<int64_t>(32, rows - r0); ++r) {
                    const int64_t y0 = kScatter ? c0 : r0 + r, x0 = kScatter ? r0 + r : c0;
                    uint8_t* out =
                        kScatter ? a + (s + y0 + x0 * sx) / 2 : b + (d + y0 * dy + x0) / 2;
                    const uint8_t* piece = buf + r * kRow + 64;
                    if (!kStream) {
                        std::memcpy(out, piece, static_cast<size_t>(w));
                        continue;
                    }
                    if (!carried) {
                        detail::stream_bytes(reinterpret_cast<char*>(out),
                                             reinterpret_cast<const char*>(piece), w);
                        continue;
                    }
                    // held: the last line's bytes so far, at its end (bytes
                    // 64 - pre.. of it), so both copies are whole 64-byte
                    // ones; sized by pre and tail, GCC made them rep movsq
                    // (NC1HWC0 -> NCHW int4 0.62 -> 0.69, 3-pass medians)
                    uint8_t* held = carry + (r0 + r) * 64;
                    const int64_t pre =
                        c0 == 0 ? 0 : static_cast<int64_t>(reinterpret_cast<uintptr_t>(out) % 64);
                    if (pre > 0) std::memcpy(buf + r * kRow, held, 64);
                    const int64_t n = pre + w;
                    const int64_t tail =
                        c0 + cw >= cols
                            ? 0
                            : static_cast<int64_t>(reinterpret_cast<uintptr_t>(out + w) % 64);
                    detail::stream_bytes(reinterpret_cast<char*>(out - pre),
                                         reinterpret_cast<const char*>(piece - pre), n - tail);
                    if (tail > 0) std::memcpy(held, piece + w - 64, 64);  // w == kChunk / 2 here
                }
            }
        }
    }

    // Tall gathers with long output rows (finding 51; NHWC -> HWCN at
    // 512 MiB: 200,704 output rows of 5,350 nibbles, the input rows 98 KiB
    // apart): windows of kWindowRows output rows, each row built whole in
    // a buffer and streamed, so the output's part lines are only each
    // row's two ends. A window reads 128 bytes of every input row, all of
    // it used at once; the rows kAheadInputs on are prefetched into L2
    // (the rows share few L1 sets). The chunks below instead read 16 bytes
    // of 512 input rows at a time, stored 256-byte pieces with two part
    // lines each, and prefetched the next chunk's rows whole (51 MB here)
    // at its start: 1.4-1.6 GB/s against 3.1-3.3 (128-row windows 2.7-2.9,
    // 512-row ones 2.6-3.1; 32 to 256 rows ahead read the same).
    static constexpr int64_t kWindowRows = 256;              // 128 bytes of each input row
    static constexpr int64_t kWindowMinRows = 1024;          // output rows in the tile
    static constexpr int64_t kWindowBufBytes = 1024 * 1024;  // kWindowRows output rows
    static constexpr int64_t kAheadInputs = 64;              // input rows ahead
    static bool row_windows_fit(int64_t rows, int64_t cols) {
        return rows >= kWindowMinRows && cols / 2 * kWindowRows <= kWindowBufBytes;
    }
    __attribute__((noinline)) void row_windows(int64_t s, int64_t d, int64_t sx, int64_t dy,
                                               int64_t rows, int64_t cols) {
        static thread_local std::vector<uint8_t> buf;
        const int64_t is = sx / 2, w = cols / 2;
        if (static_cast<int64_t>(buf.size()) < kWindowRows * w)
            buf.resize(static_cast<size_t>(kWindowRows * w));
        uint8_t* out = buf.data();
        for (int64_t r0 = 0; r0 < rows; r0 += kWindowRows) {
            const int64_t wr = std::min(kWindowRows, rows - r0);  // a multiple of 32
            for (int64_t c = 0; c < cols; c += 32) {
                const uint8_t* in = a + (s + r0 + c * sx) / 2;
                // the input rows kAheadInputs on: in this window, or the
                // next window's first ones (bytes from a: past the last
                // window they need not be inside it, prefetch_at)
                const int64_t t = c + kAheadInputs;
                const int64_t ahead = t < cols ? (s + r0 + c * sx) / 2 + kAheadInputs * is
                                               : (s + r0 + kWindowRows + (t - cols) * sx) / 2;
                // a row's window off the line grid spans one line more
                const uintptr_t first =
                    reinterpret_cast<uintptr_t>(a) + static_cast<uintptr_t>(ahead);
                const int64_t off = (first | static_cast<uintptr_t>(is)) % 64 == 0 ? 0 : 64;
                if (t < cols || r0 + kWindowRows < rows)
                    for (int64_t k = 0; k < 32; ++k)
                        for (int64_t l = 0; l < kWindowRows / 2 + off; l += 64)
                            prefetch_line<2>(prefetch_at(a, ahead + k * is + l));
                for (int64_t j = 0; j < wr; j += 32)
                    detail::nibble_block32(in + j / 2, is, out + j * w + c / 2, w);
            }
            uint8_t* to = b + (d + r0 * dy) / 2;
            if (dy == cols) {  // the output rows back to back: one piece
                detail::stream_bytes(reinterpret_cast<char*>(to),
                                     reinterpret_cast<const char*>(out), wr * w);
                continue;
            }
            for (int64_t r = 0; r < wr; ++r)
                detail::stream_bytes(reinterpret_cast<char*>(to + r * (dy / 2)),
                                     reinterpret_cast<const char*>(out + r * w), w);
        }
    }

    void tile(const Level& y, const Level& x, int64_t s, int64_t d, int64_t vy, int64_t vx) {
        const int64_t sx = x.src_stride, dy = y.dst_stride;
        if (!kScatter && few_rows_fit(d, dy, y.size, x.size, vy, vx)) {
            few_rows(a, a_bytes, b, pad, kStream, s, d, sx, dy, y.size, x.size, vx);
            return;
        }
        const int64_t by = vy / 32 * 32, bx = vx / 32 * 32;
        // Fewer than 32 long output rows (NDHWC -> NCDHW with C = 28: 28
        // rows of 3,584 bytes): one row of blocks whose input rows are read
        // 32 nibbles wide (the nibbles past vy, the next input row's, land
        // in buffer rows never stored), so the chunks store vy whole pieces,
        // streamed; part blocks stored 16 bytes a row into vy write streams
        // (0.25 of memcpy). Where the last block's reads stay inside a.
        if (!kScatter && vy < 32 && vy > 0 && bx > 128 && (s + (bx - 1) * sx) / 2 + 16 <= a_bytes) {
            blocks(s, d, sx, dy, vy, bx);
            tile_rest(y, x, s, d, vy, vx, vy, bx);
            return;
        }
        if (!kScatter && kStream && dy == x.size && x.size <= 128 && vx < x.size && vx == bx &&
            by > 0) {
            padded_rows(s, d, sx, dy, by, vx);
            tile_rest(y, x, s, d, vy, vx, by, x.size);
            return;
        }
        blocks(s, d, sx, dy, by, bx);
        // A ragged edge past one block whose start stays on a byte goes as
        // whole blocks over its last 32 rows (or columns), overlapping the
        // blocks before and storing some nibbles twice, the same values:
        // the part blocks below copy through buffers row by row and took
        // most of HWCN -> NCHW's time (C = N = 56). A gather's padded x
        // keeps them, as the padding comes with the part blocks.
        const bool oy = vy > 32 && vy % 32 != 0 && vy % 2 == 0;
        const bool ox = vx > 32 && vx % 32 != 0 && vx % 2 == 0 && (kScatter || vx == x.size);
        if (oy) blocks(s + (vy - 32), d + (vy - 32) * dy, sx, dy, 32, bx);
        if (ox) blocks(s + (vx - 32) * sx, d + (vx - 32), sx, dy, by, 32);
        if (oy && ox)
            blocks(s + (vy - 32) + (vx - 32) * sx, d + (vy - 32) * dy + (vx - 32), sx, dy, 32, 32);
        tile_rest(y, x, s, d, vy, vx, oy ? vy : by, ox ? vx : bx);
    }

    // Gathers into padded short rows whose 32-nibble blocks all hold data
    // (NCDHW -> NDC1HWC0, C = 32 of C0 = 64): 32 whole destination rows at
    // a time, data and padding, streamed as one piece; the data was stored
    // 16 bytes a row and the padding filled by a second pass.
    void padded_rows(int64_t s, int64_t d, int64_t sx, int64_t dy, int64_t by, int64_t vx) {
        alignas(64) uint8_t buf[32 * 64];
        const int64_t w = dy / 2;  // bytes a destination row
        for (int64_t r = 0; r < 32; ++r)
            std::memset(buf + r * w + vx / 2, pad | (pad << 4), static_cast<size_t>(w - vx / 2));
        for (int64_t y0 = 0; y0 < by; y0 += 32) {
            const int64_t j = (y0 / 32) % 4, q = (vx + 3) / 4;
            // kAhead on from the last rows' start passes the source's end:
            // the address is formed as an integer (prefetch_at)
            for (int64_t k = j * q; k < std::min(vx, (j + 1) * q); ++k)
                prefetch_line(prefetch_at(a, (s + y0 + k * sx) / 2 + kAhead));
            for (int64_t x0 = 0; x0 < vx; x0 += 32)
                detail::nibble_block32(a + (s + y0 + x0 * sx) / 2, sx / 2, buf + x0 / 2, w);
            detail::stream_bytes(reinterpret_cast<char*>(b + (d + y0 * dy) / 2),
                                 reinterpret_cast<const char*>(buf), 32 * w);
        }
    }

    // What the whole blocks left: [0, ey) x [0, ex) is done.
    void tile_rest(const Level& y, const Level& x, int64_t s, int64_t d, int64_t vy, int64_t vx,
                   int64_t ey, int64_t ex) {
        const int64_t sx = x.src_stride, dy = y.dst_stride;
        // The rest as parts of blocks (C = 28: every row). A gather also
        // fills the x >= vx part of its valid rows (the pad rows of the
        // block), then the rows y >= vy.
        const int64_t xe = kScatter ? vx : x.size;
        for (int64_t y0 = 0; y0 < vy; y0 += 32)
            for (int64_t x0 = std::min(y0 + 32, vy) <= ey ? ex : 0; x0 < xe; x0 += 32) {
                const int64_t my = vy - y0 < 32 ? vy - y0 : 32;
                uint8_t* pa = a + (s + y0 + x0 * sx) / 2;
                uint8_t* pb = b + (d + y0 * dy + x0) / 2;
                if (kScatter) {
                    const int64_t mx = vx - x0 < 32 ? vx - x0 : 32;
                    detail::nibble_block32_part(pb, dy / 2, my, mx, pa, sx / 2, mx, my, 0);
                } else if (x0 >= vx) {  // padding only: the rest of each row
                    for (int64_t j = y0; j < y0 + my; ++j)
                        detail::pad_nibbles(b, d + j * dy + x0, d + j * dy + x.size, pad);
                    break;
                } else {
                    const int64_t rin = vx - x0 < 32 ? vx - x0 : 32;
                    const int64_t mx = x.size - x0 < 32 ? x.size - x0 : 32;
                    detail::nibble_block32_part(pa, sx / 2, rin, my, pb, dy / 2, my, mx,
                                                static_cast<uint8_t>(pad | (pad << 4)));
                }
            }
        if (!kScatter)
            for (int64_t j = vy; j < y.size; ++j)
                detail::pad_nibbles(b, d + j * dy, d + j * dy + x.size, pad);
    }

    // A gather whose source rows hold the level above the tile and the
    // tile's y back to back (HWCN -> NCHW: each h*w row is C runs of N)
    // goes through that level for kFold columns at a time, so each source
    // line is read from memory once: tile by tile, each c read 28 of a
    // row's 1,568 bytes across 42,816 rows (2.7 MB, past L2), and a line
    // came from memory for every c it held.
    void block(const Level* lv, int n, int64_t s, int64_t d) {
        if (n > 3) {
            for (int64_t i = 0; i < lv[0].size; ++i)
                block(lv + 1, n - 1, s + i * lv[0].src_stride, d + i * lv[0].dst_stride);
            return;
        }
        if (n == 3 && !kScatter && kStream && lv[0].src_stride == lv[1].size && lv[0].size > 1 &&
            lv[2].size >= 2 * kFold &&
            !row_windows_fit(lv[1].size / 32 * 32, lv[2].size / 32 * 32)) {
            const Level& c = lv[0];
            const int64_t sx = lv[2].src_stride;
            const int64_t lp = (c.size * lv[1].size / 2 + 63) / 64 + 1;  // lines a source row
            for (int64_t x0 = 0; x0 < lv[2].size; x0 += kFold) {
                Level xs = lv[2];
                xs.size = std::min(kFold, lv[2].size - x0);
                // the next columns' source rows, spread over this pass
                const int64_t x1 = x0 + kFold;
                const int64_t nq = std::max<int64_t>(0, std::min(kFold, lv[2].size - x1)) * lp;
                for (int64_t i = 0; i < c.size; ++i) {
                    for (int64_t q = nq * i / c.size; q < nq * (i + 1) / c.size; ++q)
                        prefetch_line(prefetch_at(a, (s + (x1 + q / lp) * sx) / 2 + (q % lp) * 64));
                    tile(lv[1], xs, s + i * c.src_stride + x0 * sx, d + i * c.dst_stride + x0,
                         lv[1].size, xs.size);
                }
            }
            return;
        }
        // Small tiles whose input is one run (FRACTAL_NZ -> FRACTAL_ZN: a
        // 2 KiB fractal, the next one 4 MiB on): the next tile's run is
        // prefetched while this one moves.
        const Level &y = lv[n - 2], &x = lv[n - 1];
        const int64_t run = kScatter ? (y.dst_stride == x.size ? y.size * x.size : 0)
                                     : (x.src_stride == y.size ? y.size * x.size : 0);
        if (n == 3 && kStream && run > 0 && run <= 2 * kSmallRun) {
            const Level& o = lv[0];
            const uint8_t* in = kScatter ? b : a;
            const int64_t step = kScatter ? o.dst_stride : o.src_stride;
            const int64_t at = kScatter ? d : s;
            for (int64_t i = 0; i < o.size; ++i) {
                if (i + 1 < o.size)
                    for (int64_t k = 0; k < run / 2; k += 64)
                        prefetch_line(in + (at + (i + 1) * step) / 2 + k);
                tile(y, x, s + i * o.src_stride, d + i * o.dst_stride, y.size, x.size);
            }
            return;
        }
        tile_levels(*this, lv, n, s, d);
    }
    void fill(const Level* lv, int n, int64_t d) {
        if (!kScatter) NibblePolicy<false>{a, b, pad}.fill(lv, n, d);
    }
};

// Whether g (levels in nibbles) suits NibbleTransposePolicy: tiled, and every
// tile's rows start on a byte on both sides (even strides outside the unit
// ones). threads_ok: no byte is shared between two tiles (even tile sizes),
// so ranges of the outermost level may run on different threads.
bool nibble_transposes(const Gather& g, bool* threads_ok) {
    if (!g.tiled || g.levels.size() < 2) return false;
    const Level& y = g.levels[g.levels.size() - 2];
    const Level& x = g.levels.back();
    if (y.src_stride != 1 || x.dst_stride != 1 || x.src_stride % 2 != 0 || y.dst_stride % 2 != 0)
        return false;
    for (size_t i = 0; i + 2 < g.levels.size(); ++i)
        if (g.levels[i].src_stride % 2 != 0 || g.levels[i].dst_stride % 2 != 0) return false;
    *threads_ok = y.size % 2 == 0 && x.size % 2 == 0;
    return true;
}

// n bytes (a multiple of 16) from `from` to `to`, 16 at a time, inline.
inline void copy16s(uint8_t* to, const uint8_t* from, int64_t n) {
#ifdef __SSE2__
    for (int64_t i = 0; i < n; i += 16)
        _mm_storeu_si128(reinterpret_cast<__m128i*>(to + i),
                         _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + i)));
#else
    std::memcpy(to, from, static_cast<size_t>(n));
#endif
}

// int4 runs whose plain rows start mid-byte, walked in strips: levels
// ..., S (strips of k rows), A (the runs along a row), R (the k rows),
// U (one run, unit strides), as compile_gather orders ND -> FRACTAL_NZ
// with an odd N (k = 8 rows, runs of N0 = 64 nibbles). The blocked piece
// of (S, A) is k runs back to back (256 bytes): built in a buffer from
// the strip's rows (in cache) and streamed, where NibblePolicy stored
// each run's 32 bytes normally into 64 write streams (0.25 of memcpy).
// The scatter builds the strip's plain rows, back to back, in a buffer
// and writes them at once. Padding: rows past the row axis's limit and
// nibbles past the run axis's; the outer levels may hold none. False
// where the levels do not have this form (finding 34).
bool strip_runs(const Gather& g, bool inverse, uint8_t* plain, uint8_t* blocked, uint8_t nib,
                bool stream) {
    const std::vector<Level>& lv = g.levels;
    const size_t n = lv.size();
    if (n < 4) return false;
    const Level &S = lv[n - 4], &A = lv[n - 3], &R = lv[n - 2], &U = lv[n - 1];
    const int64_t k = R.size, run = U.size;
    if (U.src_stride != 1 || U.dst_stride != 1 || run % 2 != 0 || R.dst_stride != run ||
        A.src_stride != run || S.src_stride != k * R.src_stride || S.dst_stride != k * run ||
        A.dst_stride % 2 != 0 || S.axis != R.axis || A.axis != U.axis ||
        (R.axis >= 0 && (R.axis_stride != 1 || S.axis_stride != k)) ||
        (U.axis >= 0 && (U.axis_stride != 1 || A.axis_stride != run)))
        return false;
    for (size_t i = 0; i + 4 < n; ++i)  // no padding, blocked pieces on whole bytes
        if ((lv[i].axis >= 0 && (g.mask >> lv[i].axis & 1u) != 0) || lv[i].dst_stride % 2 != 0)
            return false;
    const auto limit = [&](const Level& l, int64_t whole) {
        return l.axis >= 0 && (g.mask >> l.axis & 1u) != 0 ? g.limit[static_cast<size_t>(l.axis)]
                                                           : whole;
    };
    const int64_t rows = limit(R, S.size * k), cols = limit(U, A.size * run);
    const int64_t row = R.src_stride;  // plain nibbles a row
    const int64_t pb = k * run / 2;    // bytes of a blocked piece
    const int64_t strip = inverse ? (k * row + 1) / 2 + 1 : A.size * pb;
    if ((inverse && row != cols) || strip > (int64_t(1) << 19)) return false;
    // the strip (blocked pieces [A][k runs], or k plain rows back to back),
    // and one row on whole bytes, for the rows that start mid-byte
    std::vector<uint8_t> buf(static_cast<size_t>(strip)),
        line(static_cast<size_t>(A.size * run / 2 + 1));
    const auto padbyte = static_cast<uint8_t>(nib | nib << 4);
    const auto strips = [&](int64_t s0, int64_t d0) {
        for (int64_t s = 0; s < S.size; ++s) {
            const int64_t vr = std::max<int64_t>(0, std::min(k, rows - s * k));
            const int64_t ps = s0 + s * S.src_stride, bs = d0 + s * S.dst_stride;
            if (inverse && vr == 0) continue;
            for (int64_t r = 0; r < (inverse ? vr : k); ++r) {
                const int64_t p = inverse ? r * row : ps + r * row;
                uint8_t* whole = line.data();  // row r on whole bytes
                if (!inverse && r < vr && p % 2 == 0) whole = plain + p / 2;
                if (!inverse && r < vr && p % 2 != 0)
                    detail::copy_nibbles(whole, 0, plain, p, cols);
                if (inverse && p % 2 == 0) whole = buf.data() + p / 2;
                for (int64_t c = 0; c < A.size; ++c) {
                    const int64_t vu =
                        r < vr ? std::max<int64_t>(0, std::min(run, cols - c * run)) : 0;
                    uint8_t* w = whole + c * run / 2;
                    uint8_t* o = buf.data() + c * pb + r * run / 2;
                    const uint8_t* from =
                        inverse ? blocked + (bs + c * A.dst_stride + r * run) / 2 : w;
                    if (!inverse && vu == run && run % 32 == 0) {  // a whole run, inline
                        copy16s(o, from, run / 2);
                        continue;
                    }
                    if (inverse) {  // an odd vu's high half is the next row's, set after
                        std::memcpy(w, from, static_cast<size_t>((vu + 1) / 2));
                        continue;
                    }
                    std::memcpy(o, w, static_cast<size_t>(vu / 2));
                    if (vu % 2 != 0)
                        o[vu / 2] = static_cast<uint8_t>((w[vu / 2] & 0x0F) | nib << 4);
                    std::memset(o + (vu + 1) / 2, padbyte,
                                static_cast<size_t>(run / 2 - (vu + 1) / 2));
                }
                if (inverse && p % 2 != 0) detail::copy_nibbles(buf.data(), p, whole, 0, cols);
            }
            if (!inverse) {
                for (int64_t c = 0; c < A.size; ++c) {
                    uint8_t* to = blocked + (bs + c * A.dst_stride) / 2;
                    const uint8_t* from = buf.data() + c * pb;
                    if (stream)
                        detail::stream_bytes(reinterpret_cast<char*>(to),
                                             reinterpret_cast<const char*>(from), pb);
                    else
                        std::memcpy(to, from, static_cast<size_t>(pb));
                }
                continue;
            }
            const uint8_t* piece = buf.data();
            if (ps % 2 == 0 && stream)
                detail::stream_bytes(reinterpret_cast<char*>(plain + ps / 2),
                                     reinterpret_cast<const char*>(piece), vr * row / 2);
            else if (ps % 2 == 0)
                std::memcpy(plain + ps / 2, piece, static_cast<size_t>(vr * row / 2));
            if (ps % 2 == 0 && vr * row % 2 != 0)
                detail::set_nibble(plain, ps + vr * row - 1,
                                   detail::get_nibble(piece, vr * row - 1));
            if (ps % 2 != 0) detail::copy_nibbles(plain, ps, piece, 0, vr * row);
        }
    };
    // the outer levels (no padding), odometer order
    int64_t outer = 1;
    for (size_t i = 0; i + 4 < n; ++i) outer *= lv[i].size;
    for (int64_t o = 0; o < outer; ++o) {
        int64_t s0 = 0, d0 = 0, rest = o;
        for (size_t i = n - 4; i-- > 0;) {
            const int64_t x = rest % lv[i].size;
            rest /= lv[i].size;
            s0 += x * lv[i].src_stride;
            d0 += x * lv[i].dst_stride;
        }
        strips(s0, d0);
    }
    return true;
}

// One single-threaded walk of an int4 policy (NibblePolicy,
// NibbleBytesTilePolicy) in the segment's direction.
template <template <bool> class P>
void walk_nibbles(const Gather& g, bool inverse, uint8_t* plain, uint8_t* blocked, uint8_t nib) {
    if (inverse) {
        P<true> pol{};
        pol.a = plain, pol.b = blocked, pol.pad = nib;
        detail::walk(g, pol);
    } else {
        P<false> pol{};
        pol.a = plain, pol.b = blocked, pol.pad = nib;
        detail::walk(g, pol);
    }
}

}  // namespace

namespace detail {

void run_nibble_segment(const Segment& seg, uint8_t* plain, uint8_t* blocked, uint8_t nib,
                        int threads) {
    // A transpose of nibbles: 32 x 32 blocks.
    const Gather gt = detail::compile_gather(seg.plain, seg.steps, 1, true, false);
    bool threads_ok = false;
    if (nibble_transposes(gt, &threads_ok)) {
        const Range r{threads_ok ? threads : 1};
        const bool stream = (seg.inverse ? gt.src_numel : gt.dst_numel) / 2 >= kStreamBytes;
        const int64_t abytes = (gt.src_numel + 1) / 2;
        if (seg.inverse && stream)
            walk_threads(gt, NibbleTransposePolicy<true, true>{plain, blocked, nib, abytes}, r,
                         true);
        else if (seg.inverse)
            walk_threads(gt, NibbleTransposePolicy<true>{plain, blocked, nib, abytes}, r, false);
        else if (stream)
            walk_threads(gt, NibbleTransposePolicy<false, true>{plain, blocked, nib, abytes}, r,
                         true);
        else
            walk_threads(gt, NibbleTransposePolicy<false>{plain, blocked, nib, abytes}, r, false);
        return;
    }
    // Tiles whose rows start mid-byte: through bytes.
    if (gt.tiled && seg.inverse) {
        NibbleBytesTilePolicy<true> pol{};
        pol.a = plain, pol.b = blocked, pol.pad = nib;
        pol.b_bytes = (gt.dst_numel + 1) / 2;  // the blocked side, read
        detail::walk(gt, pol);
        return;
    }
    if (gt.tiled) {
        NibbleBytesTilePolicy<false> pol{};
        pol.a = plain, pol.b = blocked, pol.pad = nib;
        pol.stream = gt.dst_numel / 2 >= kStreamBytes;
        pol.a_bytes = (gt.src_numel + 1) / 2;
        detail::walk(gt, pol);
#ifdef __SSE2__
        if (pol.stream) _mm_sfence();
#endif
        return;
    }
    // The nibble walk cannot take a tiled order; compile again without it.
    const Gather gn = detail::compile_gather(seg.plain, seg.steps, 1, false, false);
    const bool stream = (seg.inverse ? gn.src_numel : gn.dst_numel) / 2 >= kStreamBytes;
    if (strip_runs(gn, seg.inverse, plain, blocked, nib, stream)) {
#ifdef __SSE2__
        if (stream) _mm_sfence();
#endif
        return;
    }
    if (!seg.inverse) {
        NibblePolicy<false> pol{};
        pol.a = plain, pol.b = blocked, pol.pad = nib;
        pol.stream = stream;
        pol.a_bytes = (gn.src_numel + 1) / 2;
        detail::walk(gn, pol);
#ifdef __SSE2__
        if (stream) _mm_sfence();
#endif
        return;
    }
    walk_nibbles<NibblePolicy>(gn, true, plain, blocked, nib);
    return;
}

bool run_nibble_composed(const Shape& plain, const std::vector<Step>& a_steps,
                         const std::vector<Step>& b_steps, const void* src, void* dst, uint8_t nib,
                         int threads) {
    const auto gt = detail::compile_composed(plain, a_steps, b_steps, 1, true, false);
    bool threads_ok = false;
    if (gt && nibble_transposes(*gt, &threads_ok)) {
        auto* in = const_cast<uint8_t*>(static_cast<const uint8_t*>(src));
        auto* out = static_cast<uint8_t*>(dst);
        const Range r{threads_ok ? threads : 1};
        const int64_t abytes = (gt->src_numel + 1) / 2;
        if (gt->dst_numel / 2 >= kStreamBytes)
            walk_threads(*gt, NibbleTransposePolicy<false, true>{in, out, nib, abytes}, r, true);
        else
            walk_threads(*gt, NibbleTransposePolicy<false>{in, out, nib, abytes}, r, false);
        return true;
    }
    const auto gn = detail::compile_composed(plain, a_steps, b_steps, 1, false, false);
    if (!gn) return false;
    NibblePolicy<false> pol{};
    pol.a = const_cast<uint8_t*>(static_cast<const uint8_t*>(src));
    pol.b = static_cast<uint8_t*>(dst);
    pol.pad = nib;
    pol.stream = gn->dst_numel / 2 >= kStreamBytes;
    pol.a_bytes = (gn->src_numel + 1) / 2;
    detail::walk(*gn, pol);
#ifdef __SSE2__
    if (pol.stream) _mm_sfence();
#endif
    return true;
}

}  // namespace detail

}  // namespace ll
