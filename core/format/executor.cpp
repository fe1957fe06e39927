// The Executor: runs each pipeline segment as one strided gather (forward)
// or scatter (inverse) over the compiled levels of gather.hpp. The innermost
// levels form a destination chunk of >= 512 bytes copied with memcpy runs or a
// tiled 2-D loop; the outer levels are ordered for source locality. Threads
// split the outermost level. int4 moves here as bytes (nibble pairs) when
// the gather allows it; else executor_int4.cpp walks it (32 x 32 nibble
// blocks, tiles through bytes, runs in strips, nibble runs). Blocked ->
// blocked conversions run as one gather composed of both blockings, else
// slab by slab through a small buffer, else in two passes. The pieces the
// walks share (tile_levels, thread ranges, kStreamBytes, walk_threads) are
// in executor_walk.hpp, and the prefetch hint they all use in prefetch.hpp.
//
// Sections:
//   copy_rows / pick_rows        row copies, streaming or not
//   CopyPolicy                   element moves for walk() (partial_rows:
//                                the rows of a padded level in one call)
//   TilePolicy                   tiled 2-D transposes
//   setup_rows, stream_*         when streaming stores are used
//   widen_scatter_rows,          walk orders for scatters of short runs
//   plain_order,                 (findings 13, 17 and 31 of
//   writes_plain_in_order        docs/PERFORMANCE.md)
//   run_batched                  small tiles batched along an outer level
//                                (batch_tiles.hpp, finding 20)
//   run_staged                   copy scatters off the line grid through an
//                                L1 buffer (staged_scatter.hpp, finding 25)
//   run_gather, run_segment      one segment
//   Fractal -> fractal in slabs  plan_fused, run_fused
//   run_composed                 one composed gather
//   Executor                     the public class; detail::fused_slab/run_fused
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <memory>
#include <numeric>
#include <stdexcept>

#include "core/format/batch_tiles.hpp"
#include "core/format/executor_int4.hpp"
#include "core/format/executor_walk.hpp"
#include "core/format/format.hpp"
#include "core/format/gather.hpp"
#include "core/format/nibbles.hpp"
#include "core/format/scalar.hpp"
#include "core/format/staged_scatter.hpp"
#include "core/format/tensor_buffer.hpp"
#include "core/format/transpose_tile.hpp"

namespace ll {

namespace {

using detail::Gather;
using detail::kStreamBytes;
using detail::Level;
using detail::parallel_ranges;
using detail::prefetch_at;
using detail::prefetch_line;
using detail::Range;
using detail::split_grain;
using detail::tile_levels;
using detail::walk_threads;

// Copies `rows` runs of kRun bytes (run r from src + r*ss to dst + r*ds,
// strides in bytes). kRun == 0: `run` bytes, not known at compile time.
// kStream: non-temporal 16-byte stores (dst and ds 16-byte aligned).
// kAhead: each run also prefetches the source that many bytes further on
// (the widened scatters, see kAheadBytes).
template <int kRun, bool kStream, int64_t kAhead = 0>
void copy_rows(char* dst, const char* src, int64_t rows, int64_t ds, int64_t ss, int64_t run) {
    for (int64_t r = 0; r < rows; ++r, dst += ds, src += ss) {
#ifdef __SSE2__
        if (kAhead) prefetch_line(prefetch_at(src, kAhead));  // a hint: never faults
        if (kStream) {
            const int64_t n = kRun ? kRun : run;
            for (int64_t k = 0; k < n; k += 16)
                _mm_stream_si128(reinterpret_cast<__m128i*>(dst + k),
                                 _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + k)));
            continue;
        }
#endif
        if (kRun)
            std::memcpy(dst, src, kRun);
        else
            std::memcpy(dst, src, static_cast<size_t>(run));
    }
}

using RowsFn = void (*)(char*, const char*, int64_t, int64_t, int64_t, int64_t);

// The prefetch distance of the widened scatters (widen_scatter_rows),
// which read K fractal columns side by side: four fractals down each
// column. The hardware prefetchers kept up with the K streams only where
// the columns lay a multiple of 4 KiB apart (M1 = 512: 0.73-0.79 of memcpy
// without it, M1 = 513: 0.46); with it M1 = 513 runs at 0.86-0.91 (512
// bytes ahead 0.77, 4096 0.78), finding 13.
constexpr int64_t kAheadBytes = 2048;

// The prefetch distance down each strided row of a row copy (kRowAhead in
// pick_rows): the 16 rows of a fractal, or of C0 runs, are 16 streams when
// they lie 1 KiB or more apart (setup_rows), and the hardware prefetchers followed
// them only where the rows sat at one offset within their pages (ND ->
// FRACTAL_NZ, rows 8 KiB apart: 0.69 of memcpy; NC1HWC0 -> FRACTAL_Z, rows
// 4.5 KiB apart: 0.57). Measured with 256, 512, 1024 and 2048 bytes:
// NC1HWC0 -> FRACTAL_Z fp16 0.87 / 0.91 / 0.83 / 0.69, FRACTAL_Z ->
// NC1HWC0 1.02 / 1.21 / 1.17 / 1.15, ND -> FRACTAL_NZ 0.85 / 0.83 / 0.77 /
// 0.73 (finding 15 of docs/PERFORMANCE.md).
constexpr int64_t kRowAhead = 512;

template <bool kStream, int64_t kAhead>
RowsFn pick_rows_for(int64_t run) {
    switch (run) {
        case 8:
            if (kStream) break;
            return copy_rows<8, false, kAhead>;
        case 16:
            return copy_rows<16, kStream, kAhead>;
        case 32:
            return copy_rows<32, kStream, kAhead>;
        case 64:
            return copy_rows<64, kStream, kAhead>;
        case 128:
            return copy_rows<128, kStream, kAhead>;
        default:
            break;
    }
    return copy_rows<0, kStream, kAhead>;
}

// stream: 16-byte pieces (run % 16 == 0) with streaming stores; ahead: each
// row's source prefetched kRowAhead bytes on.
RowsFn pick_rows(int64_t run, bool stream, bool ahead) {
#ifdef __SSE2__
    if (stream && run % 16 == 0)
        return ahead ? pick_rows_for<true, kRowAhead>(run) : pick_rows_for<true, 0>(run);
#else
    (void)stream;  // no streaming stores without SSE2
#endif
    return ahead ? pick_rows_for<false, kRowAhead>(run) : pick_rows_for<false, 0>(run);
}

// Writes `pad` at every destination place of levels lv[0..n) from d.
template <class T>
void fill_padding(T* b, T pad, const Level* lv, int n, int64_t d) {
    if (n == 0) {
        b[d] = pad;
        return;
    }
    if (n == 1 && lv[0].dst_stride == 1) {
        for (int64_t i = 0; i < lv[0].size; ++i) b[d + i] = pad;
        return;
    }
    for (int64_t i = 0; i < lv[0].size; ++i)
        fill_padding(b, pad, lv + 1, n - 1, d + i * lv[0].dst_stride);
}

// Moves elements between `a` (the plain side, walked with src strides) and
// `b` (the forward destination, dst strides). Gather: b[d] = a[s]; scatter:
// a[s] = b[d]. When the innermost level is contiguous on both sides, the two
// innermost levels are rows of one run each, copied by `rows` (chosen once).
template <class T, bool kScatter>
struct CopyPolicy {
    static constexpr bool kTiles = false;
    static constexpr int kBits = 8 * static_cast<int>(sizeof(T));
    T* a;
    T* b;
    T pad;
    RowsFn rows = nullptr;  // set when the innermost level is contiguous on both sides
    int64_t run = 0;        // its bytes
    bool stream = false;    // rows go out with streaming stores (setup_rows)
    int64_t a_bytes = 0;    // readable bytes from a (0: unknown)
    int64_t ahead = 0;      // a scatter's staged walk: prefetch b this many bytes on (run_staged)
#ifdef __SSE2__
    __m128i padv = _mm_setzero_si128();  // pad repeated over 16 bytes
#endif

    static constexpr int64_t kTile = 32;
    static constexpr int64_t kSize = static_cast<int64_t>(sizeof(T));

    inline void move(int64_t s, int64_t d) {
        if (kScatter)
            a[s] = b[d];
        else
            b[d] = a[s];
    }

    // The lines of `n` blocked rows (`stride` elements apart, `len`
    // elements each) from d, `ahead` bytes on: the next staged chunk's
    // source (run_staged). always_inline: an ordinary function whose only
    // effect is a prefetch is deleted by GCC 12 (see Tile::prefetch_rows).
    __attribute__((always_inline)) inline void prefetch_ahead(int64_t d, int64_t n, int64_t stride,
                                                              int64_t len) const {
        const void* p = prefetch_at(b + d, ahead);  // past b's end: need not point anywhere
        if (stride * kSize <= 64) {
            const int64_t span = ((n - 1) * stride + len) * kSize;
            for (int64_t k = 0; k < span; k += 64) prefetch_line(prefetch_at(p, k));
            return;
        }
        for (int64_t r = 0; r < n; ++r)
            for (int64_t k = 0; k < len * kSize; k += 64)
                prefetch_line(prefetch_at(p, r * stride * kSize + k));
    }

    inline void copy_rows_at(const Level& o, int64_t s, int64_t d) {
        if (kScatter && ahead) prefetch_ahead(d, o.size, o.dst_stride, run / kSize);
        if (kScatter)
            rows(reinterpret_cast<char*>(a + s), reinterpret_cast<const char*>(b + d), o.size,
                 o.src_stride * kSize, o.dst_stride * kSize, run);
        else
            rows(reinterpret_cast<char*>(b + d), reinterpret_cast<const char*>(a + s), o.size,
                 o.dst_stride * kSize, o.src_stride * kSize, run);
    }

    void leaf1(const Level& l, int64_t s, int64_t d) {
        if (rows && l.size * kSize != run) {
            // A gather of one contiguous level (NHWC -> NC1HWC0 with C =
            // C0: the same bytes) split across threads: this thread's part
            // of the run, not the whole run from its start (which wrote
            // past the buffer).
            if (kScatter)
                std::memcpy(a + s, b + d, static_cast<size_t>(l.size * kSize));
            else
                std::memcpy(b + d, a + s, static_cast<size_t>(l.size * kSize));
            return;
        }
        if (rows) {
            Level one = l;
            one.size = 1;
            copy_rows_at(one, s, d);
            return;
        }
        for (int64_t i = 0; i < l.size; ++i) move(s + i * l.src_stride, d + i * l.dst_stride);
    }

    // A 2-D transpose: tiled so both sides stay in cache, with the loop that
    // has the unit stride on the plain side innermost.
    void transpose2(const Level& o, const Level& in, int64_t s, int64_t d) {
        const bool swap = o.src_stride == 1;
        const Level& x = swap ? in : o;
        const Level& y = swap ? o : in;
        for (int64_t y0 = 0; y0 < y.size; y0 += kTile) {
            const int64_t y1 = y0 + kTile < y.size ? y0 + kTile : y.size;
            for (int64_t i = 0; i < x.size; ++i) {
                const int64_t si = s + i * x.src_stride, di = d + i * x.dst_stride;
                for (int64_t j = y0; j < y1; ++j)
                    move(si + j * y.src_stride, di + j * y.dst_stride);
            }
        }
    }

    void block(const Level* lv, int n, int64_t s, int64_t d) {
        switch (n) {
            case 0:
                move(s, d);
                return;
            case 1:
                leaf1(lv[0], s, d);
                return;
            case 2:
                if (rows)
                    copy_rows_at(lv[0], s, d);
                else
                    transpose2(lv[0], lv[1], s, d);
                return;
            case 3:
                if (rows) {
                    for (int64_t i = 0; i < lv[0].size; ++i)
                        copy_rows_at(lv[1], s + i * lv[0].src_stride, d + i * lv[0].dst_stride);
                    return;
                }
                [[fallthrough]];
            default:
                for (int64_t i = 0; i < lv[0].size; ++i)
                    block(lv + 1, n - 1, s + i * lv[0].src_stride, d + i * lv[0].dst_stride);
        }
    }

    void fill(const Level* lv, int n, int64_t d) {
        if (!kScatter) fill_padding(b, pad, lv, n, d);  // the plain side holds no padding
    }

#ifdef __SSE2__
    // n rows of nb bytes (a multiple of 16) to out (os apart), each
    // the first vb bytes of its row of in (is apart) and pad after them,
    // streamed: whole 16-byte pieces as loaded, the piece that holds the
    // end of the data blended over the pad splat with one mask, then pad.
    // Reads ceil(vb / 16) * 16 bytes of each input row.
    void stream_padded(const char* in, int64_t is, char* out, int64_t os, int64_t n, int64_t nb,
                       int64_t vb) const {
        const int64_t full = vb / 16 * 16;
        const __m128i m =
            _mm_cmplt_epi8(_mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                           _mm_set1_epi8(static_cast<char>(vb % 16)));
        for (int64_t r = 0; r < n; ++r, in += is, out += os) {
            int64_t k = 0;
            for (; k < full; k += 16)
                _mm_stream_si128(reinterpret_cast<__m128i*>(out + k),
                                 _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + k)));
            if (vb % 16 != 0) {
                const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + k));
                _mm_stream_si128(reinterpret_cast<__m128i*>(out + k),
                                 _mm_or_si128(_mm_and_si128(m, x), _mm_andnot_si128(m, padv)));
                k += 16;
            }
            for (; k < nb; k += 16) _mm_stream_si128(reinterpret_cast<__m128i*>(out + k), padv);
        }
    }
#endif

    void partial(const Level& l, int64_t valid, int64_t s, int64_t d) {
#ifdef __SSE2__
        // A short padded row (C = 3 into C0 = 16: 6 of 32 bytes are data):
        // built in registers (the valid bytes blended over a pad splat) and
        // streamed, so each destination line is written once, without the
        // read for ownership. Building it in memory first and loading it
        // back stalled on store forwarding (small stores, wide load).
        // a_bytes bounds the 16-byte source loads (0: not known, skip).
        if (!kScatter && stream && l.src_stride == 1 && l.dst_stride == 1 &&
            (l.size * kSize) % 16 == 0 &&
            (s * kSize) + ((valid * kSize + 15) / 16) * 16 <= a_bytes) {
            stream_padded(reinterpret_cast<const char*>(a + s), 0, reinterpret_cast<char*>(b + d),
                          0, 1, l.size * kSize, valid * kSize);
            return;
        }
        // A scatter that streams its plain rows (plain_order) streams the
        // valid part too: a normal store into a line whose other part just
        // went out streaming would flush it as a part write.
        if (kScatter && stream && l.src_stride == 1 && l.dst_stride == 1 &&
            (valid * kSize) % 16 == 0) {
            copy_rows<0, true>(reinterpret_cast<char*>(a + s), reinterpret_cast<const char*>(b + d),
                               1, 0, 0, valid * kSize);
            return;
        }
#endif
        if (l.src_stride == 1 && l.dst_stride == 1) {
            if (kScatter)
                std::memcpy(a + s, b + d, static_cast<size_t>(valid * kSize));
            else
                std::memcpy(b + d, a + s, static_cast<size_t>(valid * kSize));
        } else {
            for (int64_t i = 0; i < valid; ++i) move(s + i * l.src_stride, d + i * l.dst_stride);
        }
        if (!kScatter)
            for (int64_t i = valid; i < l.size; ++i) b[d + i * l.dst_stride] = pad;
    }

    // partial() for each of o.size rows (the walk's rows of a padded
    // innermost level, one valid count for all). Two cases in one loop
    // with everything per-row-invariant hoisted:
    // * a streamed gather (C = 3 or 56 into C0): stream_padded over all
    //   the rows, its mask built once;
    // * a scatter whose plain rows are back to back and at most 16 bytes
    //   (NC1HWC0 -> NHWC, C = 3: 6 bytes): each row stored as 16 bytes in
    //   ascending order, the tail overwritten by the next row, the last row
    //   exactly; the 16-byte loads stay inside the blocked row.
    void partial_rows(const Level& o, const Level& l, int64_t valid, int64_t s, int64_t d) {
        if (kScatter && ahead && l.dst_stride == 1) prefetch_ahead(d, o.size, o.dst_stride, valid);
#ifdef __SSE2__
        const int64_t nb = l.size * kSize, vb = valid * kSize;
        const int64_t last_s = s + (o.size - 1) * o.src_stride;
        if (!kScatter && stream && l.src_stride == 1 && l.dst_stride == 1 && nb % 16 == 0 &&
            o.src_stride > 0 && last_s * kSize + (vb + 15) / 16 * 16 <= a_bytes) {
            stream_padded(reinterpret_cast<const char*>(a + s), o.src_stride * kSize,
                          reinterpret_cast<char*>(b + d), o.dst_stride * kSize, o.size, nb, vb);
            return;
        }
        // * a streamed scatter whose plain rows are back to back, whole
        //   16-byte pieces (NDC1HWC0 -> NDHWC int4, C = 32: 16 of each
        //   32-byte C0 row): one streamed copy_rows over all the rows,
        //   which fill the plain lines in turn (writes_plain_in_order),
        //   the blocked rows prefetched kAheadBytes on.
        if (kScatter && stream && l.src_stride == 1 && l.dst_stride == 1 && vb > 0 &&
            vb % 16 == 0 && o.src_stride == valid) {
            copy_rows<0, true, kAheadBytes>(reinterpret_cast<char*>(a + s),
                                            reinterpret_cast<const char*>(b + d), o.size, vb,
                                            o.dst_stride * kSize, vb);
            return;
        }
        if (kScatter && !stream && l.src_stride == 1 && l.dst_stride == 1 && vb > 0 && vb <= 16 &&
            nb >= 16 && o.src_stride == valid && o.size > 1) {
            char* out = reinterpret_cast<char*>(a + s);
            const char* in = reinterpret_cast<const char*>(b + d);
            const int64_t is = o.dst_stride * kSize;
            // 16-byte stores while they end inside these rows (a store past
            // the last row could land in another thread's range or past the
            // buffer), the rest exactly
            const int64_t wide = o.size - (16 + vb - 1) / vb + 1;
            int64_t r = 0;
            for (; r < wide; ++r, in += is, out += vb)
                _mm_storeu_si128(reinterpret_cast<__m128i*>(out),
                                 _mm_loadu_si128(reinterpret_cast<const __m128i*>(in)));
            for (; r < o.size; ++r, in += is, out += vb)
                std::memcpy(out, in, static_cast<size_t>(vb));
            return;
        }
#endif
        for (int64_t r = 0; r < o.size; ++r)
            partial(l, valid, s + r * o.src_stride, d + r * o.dst_stride);
    }
};

// For tiled gathers (Gather::tiled): the last two levels, Y (unit stride on
// the plain side) and X (unit stride on the blocked side), move as one 2-D
// transpose of transpose_tile.hpp; a and b as in CopyPolicy.
template <class T, bool kScatter, bool kStream = false>
struct TilePolicy {
    static constexpr bool kTiles = true;
    static constexpr int kBits = 8 * static_cast<int>(sizeof(T));
    static constexpr int64_t kSize = static_cast<int64_t>(sizeof(T));
    T* a;
    T* b;
    T pad;
    int64_t a_numel = 0;  // elements of a (0: not known, e.g. a slab buffer)
    // a gather past the cache whose tiles fit Tile's windows (window_tiles)
    typename detail::Tile<T>::Window window = detail::Tile<T>::Window::none;
    bool folded = false;          // the level outside the tiles folded into the windows
                                  // (window_folded)
    bool small = false;           // small whole tiles, moved block by block (small_tiles_fit)
    bool small_buffered = false;  // ... through a buffer, streamed whole (small_tiles_fit)

    void tile(const Level& y, const Level& x, int64_t s, int64_t d, int64_t vy, int64_t vx) {
#ifdef __SSE2__
        using Tile = detail::Tile<T>;
        // every tile of a gather has one shape, planned once (window_tiles);
        // here only whether this tile holds padding
        const auto w = vx == x.size && vy == y.size ? window : Tile::Window::none;
        const int64_t sx = x.src_stride, dy = y.dst_stride;
        if (kScatter && w == Tile::Window::tall) {
            // Where every plain row starts the same way into a line, but not
            // on one (28 x 28 fp16 planes: every other row 32 bytes in), the
            // elements up to the line take normal stores first, so that
            // each window's pieces are whole lines; the rest of y after the
            // windows as an ordinary tile.
            int64_t head = 0;
            const auto off = reinterpret_cast<uintptr_t>(a + s) % 64;
            if (off != 0 && (sx * kSize) % 64 == 0) {
                head = static_cast<int64_t>((64 - off) / sizeof(T));
                if (head % Tile::B != 0 || head >= vy) head = 0;
            }
            if (head > 0)
                Tile::scatter_rows(a + s, sx, b + d, dy, 0, head, vx, vx / Tile::B * Tile::B);
            const int64_t done = head + Tile::scatter_tall(a + s + head, sx, b + d + head * dy, dy,
                                                           y.size - head, x.size);
            if (done < vy)
                Tile::template scatter<kStream>(a + s + done, sx, b + d + done * dy, dy, x.size,
                                                vy - done, vx);
            return;
        }
        if (w == Tile::Window::tall) {  // the rest of y as an ordinary tile
            const int64_t done = Tile::gather_tall(a + s, sx, b + d, dy, y.size, x.size);
            if (done < y.size)
                Tile::gather(a + s + done, sx, b + d + done * dy, dy, y.size - done, x.size,
                             vy - done, vx, pad, a_numel > 0 ? a_numel - s - done : 0);
            return;
        }
        if (w == Tile::Window::wide) {  // the rest of x likewise
            const int64_t done = Tile::gather_wide(a + s, sx, b + d, dy, y.size, x.size);
            if (done < x.size)
                Tile::gather(a + s + done * sx, sx, b + d + done, dy, y.size, x.size - done, vy,
                             vx - done, pad, a_numel > 0 ? a_numel - s - done * sx : 0);
            return;
        }
#endif
        if (kScatter)
            detail::Tile<T>::template scatter<kStream>(a + s, x.src_stride, b + d, y.dst_stride,
                                                       x.size, vy, vx);
        else
            detail::Tile<T>::template gather<kStream>(a + s, x.src_stride, b + d, y.dst_stride,
                                                      y.size, x.size, vy, vx, pad,
                                                      a_numel > 0 ? a_numel - s : 0);
    }

    void block(const Level* lv, int n, int64_t s, int64_t d) {
#ifdef __SSE2__
        if (!kScatter && folded && n == 3) {  // window_folded: no padding anywhere
            using Tile = detail::Tile<T>;
            const Level &c = lv[0], &y = lv[1], &x = lv[2];
            if (window == Tile::Window::tall) {
                const int64_t done = Tile::gather_tall_c(a + s, x.src_stride, b + d, y.dst_stride,
                                                         y.size, x.size, c.size, c.src_stride);
                if (done < y.size)
                    for (int64_t i = 0; i < c.size; ++i) {
                        const int64_t si = s + i * c.src_stride + done;
                        Tile::gather(a + si, x.src_stride,
                                     b + d + i * c.dst_stride + done * y.dst_stride, y.dst_stride,
                                     y.size - done, x.size, y.size - done, x.size, pad,
                                     a_numel > 0 ? a_numel - si : 0);
                    }
                return;
            }
            const int64_t done =
                Tile::gather_wide_c(a + s, x.src_stride, b + d, y.dst_stride, y.size, x.size,
                                    c.size, c.src_stride, c.dst_stride);
            if (done < x.size)
                for (int64_t i = 0; i < c.size; ++i) {
                    const int64_t si = s + i * c.src_stride + done * x.src_stride;
                    Tile::gather(a + si, x.src_stride, b + d + i * c.dst_stride + done,
                                 y.dst_stride, y.size, x.size - done, y.size, x.size - done, pad,
                                 a_numel > 0 ? a_numel - si : 0);
                }
            return;
        }
#endif
        if (!kScatter && small && n >= 3) {
            small_tiles(lv, n, s, d);
            return;
        }
        tile_levels(*this, lv, n, s, d);
    }

    // Small whole tiles (small_tiles_fit): the blocks straight, no
    // Tile::gather call per tile.
    void small_tiles(const Level* lv, int n, int64_t s, int64_t d) {
        if (n == 2) {
            using Tile = detail::Tile<T>;
            const int64_t sx = lv[1].src_stride, dy = lv[0].dst_stride;
            const int64_t ny = lv[0].size, nx = lv[1].size;
            if (small_buffered) {  // the tile's rows back to back: through an L1 buffer
                alignas(64) T tile[4096 / sizeof(T)];
                for (int64_t y0 = 0; y0 < ny; y0 += Tile::B)
                    for (int64_t x0 = 0; x0 < nx; x0 += Tile::B)
                        Tile::block(a + s + y0 + x0 * sx, sx, Tile::B, tile + y0 * nx + x0, nx,
                                    Tile::B, pad);
                detail::stream_bytes(reinterpret_cast<char*>(b + d),
                                     reinterpret_cast<const char*>(tile), ny * nx * kSize);
                return;
            }
            for (int64_t y0 = 0; y0 < ny; y0 += Tile::B)
                for (int64_t x0 = 0; x0 < nx; x0 += Tile::B)
                    Tile::template block<kStream>(a + s + y0 + x0 * sx, sx, Tile::B,
                                                  b + d + y0 * dy + x0, dy, Tile::B, pad);
            return;
        }
        for (int64_t i = 0; i < lv[0].size; ++i)
            small_tiles(lv + 1, n - 1, s + i * lv[0].src_stride, d + i * lv[0].dst_stride);
    }

    void fill(const Level* lv, int n, int64_t d) {
        if (!kScatter) fill_padding(b, pad, lv, n, d);  // the plain side holds no padding
    }
};

// Sets up the row copier when the innermost level is contiguous on both sides.
// Streaming stores only for a large destination (past the last-level cache
// they save the read-for-ownership) whose rows are whole, aligned pieces.
template <class P>
bool setup_rows(P& pol, const Gather& g, char* write_base, bool write_is_dst) {
    if (g.levels.empty()) return false;
    const Level& in = g.levels.back();
    if (in.src_stride != 1 || in.dst_stride != 1) return false;
    const int64_t esz = P::kSize;
    pol.run = in.size * esz;
    bool stream = false;
    if (write_is_dst && g.dst_numel * esz >= kStreamBytes &&
        reinterpret_cast<uintptr_t>(write_base) % 16 == 0 && pol.run % 16 == 0) {
        stream = true;
        for (size_t i = 0; i + 1 < g.levels.size(); ++i)
            stream = stream && (g.levels[i].dst_stride * esz) % 16 == 0;
        // ND -> NZ, whose 512-byte fractals go to 256 places in turn, gains
        // too when timed in thread CPU time (0.51 -> 0.67 of memcpy at 64
        // MiB); an earlier wall-clock measurement that said otherwise did not
        // hold on a loaded machine.
    }
    // The rows (the level outside the run) as separate read streams: 1 KiB
    // or more apart on the side read, in a tensor past the cache. Closer
    // rows are one stream the hardware follows: NHWC -> NC1HWC0 fp32 (C0
    // rows 256 bytes apart) lost 0.81 -> 0.59 with the prefetch, and
    // NDC1HWC0 -> NDHWC int8 (back-to-back 512-byte rows) 0.99 -> 0.83.
    bool ahead = false;
    if (g.levels.size() >= 2) {
        const Level& o = g.levels[g.levels.size() - 2];
        const int64_t read_stride = (write_is_dst ? o.src_stride : o.dst_stride) * esz;
        ahead = read_stride >= 1024 &&
                (g.src_numel > g.dst_numel ? g.src_numel : g.dst_numel) * esz >= kStreamBytes;
    }
    pol.rows = pick_rows(pol.run, stream, ahead);
    return stream;
}

// Streaming stores for a tiled gather: a destination past the last-level
// cache whose tile rows and outer steps keep 16-byte alignment.
template <class T>
bool stream_tiles(const Gather& g, const T* dst) {
    const auto esz = static_cast<int64_t>(sizeof(T));
    if (g.dst_numel * esz < kStreamBytes || reinterpret_cast<uintptr_t>(dst) % 16 != 0)
        return false;
    for (size_t i = 0; i + 1 < g.levels.size(); ++i)
        if ((g.levels[i].dst_stride * esz) % 16 != 0) return false;
    return true;
}

// A tiled gather or scatter past the cache whose tiles fit Tile's windowed
// transposes (Tile::window_plan; a scatter: Tile::scatter_tall_plan,
// finding 27), which stream whatever the written side's alignment
// (stream_bytes); planned once for the gather's tile shape.
template <class T>
typename detail::Tile<T>::Window window_tiles(const Gather& g, bool scatter) {
    using Tile = detail::Tile<T>;
    const auto esz = static_cast<int64_t>(sizeof(T));
    const int64_t written = scatter ? g.src_numel : g.dst_numel;
    if (!g.tiled || g.levels.size() < 2 || written * esz < kStreamBytes) return Tile::Window::none;
    const Level& y = g.levels[g.levels.size() - 2];
    const Level& x = g.levels.back();
    if (scatter)
        return Tile::scatter_tall_plan(x.src_stride, y.size, x.size) ? Tile::Window::tall
                                                                     : Tile::Window::none;
    return Tile::window_plan(x.src_stride, y.dst_stride, y.size, x.size, y.size, x.size);
}

// Whether a tiled gather's tiles are small and whole blocks (a fractal of
// FRACTAL_NZ -> FRACTAL_ZN: 32 x 32 bytes), so that block() can move them
// block by block without a Tile::gather call per tile, whose set-up cost
// as much as the tile's 1 KiB (1 = yes; 2 = yes, through a buffer: streamed
// blocks would open more lines than stream_open_lines(), and the tile's
// destination rows are back to back, so it goes out as one piece).
template <class T>
int small_tiles_fit(const Gather& g, bool stream) {
    using Tile = detail::Tile<T>;
    const auto esz = static_cast<int64_t>(sizeof(T));
    if (!g.tiled || g.levels.size() < 3) return 0;
    const Level& y = g.levels[g.levels.size() - 2];
    const Level& x = g.levels.back();
    if (y.size % Tile::B != 0 || x.size % Tile::B != 0 || y.size * x.size * esz > 4096) return 0;
    const int64_t lines = std::min<int64_t>(Tile::B, (Tile::B * y.dst_stride * esz + 63) / 64);
    if (!stream || lines <= detail::stream_open_lines()) return 1;
    return y.dst_stride == x.size ? 2 : 0;
}

// Whether a windowed gather folds the level outside its tiles into the
// windows: three levels, no padding, and
// * wide (Tile::gather_wide_c): the outer level's source step continuing
//   the tile's source rows (HWCN -> NCHW: c steps N, the rows of n);
// * tall (Tile::gather_tall_c): its destination step continuing the
//   tile's destination rows (NCHW -> HWCN: c steps N, the pieces of n).
template <class T>
bool window_folded(const Gather& g, typename detail::Tile<T>::Window w) {
    using Window = typename detail::Tile<T>::Window;
    if (w == Window::none || g.levels.size() != 3 || g.mask != 0) return false;
    const Level& c = g.levels[0];
    const Level& y = g.levels[1];
    const Level& x = g.levels[2];
    if (w == Window::wide) return y.src_stride == 1 && c.src_stride == y.size;
    return x.dst_stride == 1 && c.dst_stride == x.size && x.size <= detail::Tile<T>::window_rows();
}

// The same for a tiled scatter, which writes the plain side.
template <class T>
bool stream_plain(const Gather& g, const T* plain) {
    const auto esz = static_cast<int64_t>(sizeof(T));
    if (g.src_numel * esz < kStreamBytes || reinterpret_cast<uintptr_t>(plain) % 16 != 0)
        return false;
    for (const Level& l : g.levels)
        if (l.src_stride != 1 && (l.src_stride * esz) % 16 != 0) return false;
    return true;
}

// A copy scatter whose innermost runs are short pieces of plain rows (the
// 32-byte N0 rows of FRACTAL_NZ fp16 -> ND, the C0 rows of NC1HWC0 or
// FRACTAL_Z -> NHWC): the rest of each plain row comes from the level two
// out (N1, C1), and the walk, ordered for the plain side as the forward
// gather is, reads one 512-byte fractal from each N1 column in turn (256
// KiB apart) while it writes every plain line in 32-byte pieces with
// normal stores (each line paying the read for ownership). `wide` takes K
// steps of that level inside the chunk, after the middle level (M0), so
// each plain row gets K runs back to back (kWideBytes, two lines), and
// walks the outer levels by decreasing blocked-side stride, so the K
// columns are read as K sequential streams (copy_rows prefetches them,
// kAheadBytes). Used only where the plain side takes streaming stores in whole
// lines (stream_plain, whole_lines): unstreamed the widened walk measured
// slower (NZ -> ND 0.49 -> 0.29-0.39), and not where the walk reads the
// blocked side in order already (FRACTAL_ZZ -> ND: 0.49-0.53 -> 0.38-0.51
// widened). Padding is skipped as in any scatter: the two new levels step
// the same padded axis, and inner_max is recomputed for the new order.
// docs/PERFORMANCE.md, finding 13: FRACTAL_NZ -> ND 0.44-0.51 -> 0.78-0.91
// of memcpy for every dtype, NC1HWC0 and FRACTAL_Z(_3D) -> NHWC/NDHWC up
// to 0.8-1.1.
constexpr int64_t kWideBytes = 128;
bool widen_scatter_rows(const Gather& g, int64_t esz, Gather& wide) {
    const size_t n = g.levels.size();
    if (g.tiled || n < 4) return false;
    const Level& in = g.levels[n - 1];
    const Level& up = g.levels[n - 3];
    if (in.src_stride != 1 || in.dst_stride != 1) return false;
    const int64_t run = in.size * esz;
    if (run % 16 != 0 || run >= kWideBytes || kWideBytes % run != 0) return false;
    // K columns make kWideBytes; a level with fewer steps than that, or a
    // count K does not divide (C1 = 2 of NC1HWC0 or NDC1HWC0 fp16 with C =
    // 32), takes half as many while they still make a whole line (finding
    // 47: NDC1HWC0 -> NDHWC fp16 0.49-0.53 -> 0.93-1.01 of memcpy).
    int64_t k = kWideBytes / run;
    while (k > 2 && up.size % k != 0 && (k / 2) * run >= 64) k /= 2;
    if (up.src_stride != in.size || up.size % k != 0) return false;
    wide = g;
    Level outer = up, inner = up;
    outer.size = up.size / k;
    outer.src_stride *= k;
    outer.dst_stride *= k;
    outer.axis_stride *= k;
    inner.size = k;
    wide.levels[n - 3] = outer;
    wide.levels.insert(wide.levels.begin() + static_cast<std::ptrdiff_t>(n - 1), inner);
    const auto first = wide.levels.begin(), last = first + static_cast<std::ptrdiff_t>(n - 2);
    const auto by_blocked = [](const Level& a, const Level& b) {
        return a.dst_stride > b.dst_stride;
    };
    if (std::is_sorted(first, last, by_blocked)) return false;  // read in order already
    std::stable_sort(first, last, by_blocked);
    // K = the whole level (C1 = 2 into 2 columns): the outer level has one
    // step and goes; sorted outermost (N = 1), it would leave walk_threads
    // one range to split.
    if (outer.size == 1)
        wide.levels.erase(std::find_if(wide.levels.begin(), wide.levels.end(),
                                       [](const Level& l) { return l.size == 1; }));
    detail::set_inner_max(wide.levels);
    return true;
}

// Whether the widened walk writes whole lines: the plain side 64-byte
// aligned and every plain step outside the last two levels (K runs that
// make kWideBytes) a multiple of 64 bytes. NHWC with C = 56 (112-byte
// rows) would stream part lines: 0.63 -> 0.06 of memcpy.
template <class T>
bool whole_lines(const Gather& wide, const void* plain) {
    if (reinterpret_cast<uintptr_t>(plain) % 64 != 0) return false;
    for (size_t i = 0; i + 2 < wide.levels.size(); ++i)
        if ((wide.levels[i].src_stride * static_cast<int64_t>(sizeof(T))) % 64 != 0) return false;
    return true;
}

// A copy scatter whose runs are short pieces (16-48 bytes) of plain rows
// and whose walk, ordered for the blocked side, writes each plain line in
// pieces far apart in time: FRACTAL_ZZ -> ND reads fractal after fractal
// and gives each of 16 plain rows 32 bytes per fractal, so every line is
// written in two halves 512 bytes of reading apart, with normal stores
// (read for ownership). plain_order walks every level by decreasing plain
// stride instead, so the plain side is written in address order, pieces
// back to back, and streamed; the blocked side is then read with jumps,
// which is only kept where all the jumps inside one step of the outermost
// reordered level stay within kPlainOrderSpan bytes (one 16-row strip of
// ZZ fractals, 128 KiB at N = 4096; held in L2 while its 16 rows are
// written). Not for FRACTAL_NZ -> ND, whose fractal columns are 256 KiB
// apart (finding 12: 0.28), which widen_scatter_rows takes.
constexpr int64_t kPlainOrderSpan = int64_t(512) << 10;
constexpr int64_t kPlainOrderRow = 512;
// Below this many plain bytes per step (int4 ZZ -> ND, N = 4096: 16 rows of
// 2 KiB) the blocked order's part-written lines all stay in L1 until their
// other halves come, and that order measured faster (0.65-0.70 against
// 0.51-0.54 of memcpy in plain order).
constexpr int64_t kPlainOrderMin = int64_t(64) << 10;
bool plain_order(const Gather& g, int64_t esz, Gather& po) {
    const size_t n = g.levels.size();
    if (g.tiled || n < 3) return false;
    const Level& in = g.levels.back();
    if (in.src_stride != 1 || in.dst_stride != 1) return false;
    const int64_t run = in.size * esz;
    if (run % 16 != 0 || run >= 64) return false;
    po = g;
    std::stable_sort(po.levels.begin(), po.levels.end() - 1,
                     [](const Level& a, const Level& b) { return a.src_stride > b.src_stride; });
    size_t first = 0;
    while (first < n && po.levels[first].src_stride == g.levels[first].src_stride &&
           po.levels[first].dst_stride == g.levels[first].dst_stride)
        ++first;
    if (first == n) return false;  // in plain order already
    int64_t span = 1, plain = 1;
    for (size_t i = first; i < n; ++i) {
        span += (po.levels[i].size - 1) * po.levels[i].dst_stride;
        plain += (po.levels[i].size - 1) * po.levels[i].src_stride;
    }
    if (span * esz > kPlainOrderSpan || plain * esz < kPlainOrderMin) return false;
    // The pieces continue the plain row, and a row copy moves at least
    // kPlainOrderRow bytes: with 2 or 4 pieces per call (NDC1HWC0 -> NDHWC,
    // C1 = 2; NC1HWC0 -> NHWC, C = 56) the walk's own steps cost more than
    // the order saves (0.75 -> 0.44, 0.68 -> 0.25 of memcpy).
    const Level& up = po.levels[n - 2];
    if (up.src_stride != in.size || up.size * run < kPlainOrderRow) return false;
    detail::set_inner_max(po.levels);
    return true;
}

// Whether a copy scatter's walk writes the plain tensor front to back: its
// levels nest densely on the plain side (each level's step the whole of
// the levels inside it), so each row follows the one before and the rows
// fill whole lines in turn, which streaming stores then take without a
// part line left open (NDC1HWC0 -> NDHWC int4 with C = 32: 16-byte rows of
// 32-byte C0 rows, stored normally, each line read for ownership first).
// The innermost level may be padded (C = 32 of C0 = 64): its plain run is
// then the axis' unpadded size. Another level on the same padded axis
// (a partial last C1) breaks the dense count and so returns false.
bool writes_plain_in_order(const Gather& g) {
    if (g.tiled || g.levels.empty()) return false;
    const Level& in = g.levels.back();
    if (in.src_stride != 1 || in.dst_stride != 1) return false;  // rows: one run each
    int64_t inner = in.size;
    if (in.axis >= 0 && in.axis_stride == 1)
        inner = std::min(inner, g.limit[static_cast<size_t>(in.axis)]);
    else if (in.axis >= 0)
        return false;
    for (size_t i = g.levels.size() - 1; i-- > 0;) {
        if (g.levels[i].src_stride != inner) return false;
        inner *= g.levels[i].size;
    }
    return inner == g.src_numel;
}

// A tiled scatter's outer levels by decreasing blocked-side stride, so that
// the blocked tiles are read in address order. The compiled order is the
// forward gather's, by plain stride: NDC1HWC0 -> NCDHW walked c1 outside d
// and read each 25 KiB tile (16 plain rows of 28 x 28) 50 KiB past the one
// before, a fresh start for the hardware prefetcher every tile: 0.54 of
// memcpy for fp16, 0.76 for fp32; in blocked order 1.03 and 1.13. The
// streamed plain rows do not mind the jumps (whole lines either way).
Gather blocked_order(const Gather& g) {
    Gather bo = g;
    if (bo.levels.size() > 2) {
        std::stable_sort(
            bo.levels.begin(), bo.levels.end() - 2,
            [](const Level& a, const Level& b) { return a.dst_stride > b.dst_stride; });
        detail::set_inner_max(bo.levels);
    }
    return bo;
}

// Small tiles batched along an outer level (batch_tiles.hpp): groups of k
// Z entries split across threads, each thread with its own buffer. False
// when g does not qualify (plan_batch_tiles).
template <class T>
bool run_batched(const Gather& g, bool inverse, const void* src, void* dst, T pad, int threads) {
    const auto esz = static_cast<int64_t>(sizeof(T));
    detail::BatchPlan p;
    if (!detail::plan_batch_tiles(g, esz, inverse, p)) return false;
    const T* plain_c = static_cast<const T*>(inverse ? dst : src);
    T* plain = const_cast<T*>(plain_c);
    T* blocked = const_cast<T*>(static_cast<const T*>(inverse ? src : dst));
    // The inverse writes whole plain blocks (stream_bytes: any alignment).
    const bool stream = inverse ? g.src_numel * esz >= kStreamBytes : stream_tiles<T>(g, blocked);
    const int64_t buf_elems =
        inverse ? p.k * p.z.src_stride + detail::Tile<T>::B : 2 * p.rows() * p.k * p.x.size;
    Level step;  // one group
    step.src_stride = p.k * p.z.src_stride;
    step.dst_stride = p.k * p.x.size;
    parallel_ranges(
        p.groups, threads,
        [&](int64_t b, int64_t e) {
            std::unique_ptr<T[]> mem(new T[static_cast<size_t>(buf_elems) + 16 / sizeof(T)]);
            auto addr = reinterpret_cast<uintptr_t>(mem.get());
            T* buf = reinterpret_cast<T*>((addr + 15) & ~uintptr_t{15});
            for (int64_t grp = b; grp < e; ++grp) {
                if (inverse)
                    detail::batch_scatter(p, plain, blocked, grp, buf, stream);
                else
                    detail::batch_gather(p, plain_c, blocked, pad, plain_c + g.src_numel, grp, buf,
                                         stream);
            }
#ifdef __SSE2__
            if (stream) _mm_sfence();
#endif
        },
        split_grain(step, 8 * static_cast<int>(esz)));
    return true;
}

// A copy scatter whose plain rows sit off the line grid, through a
// staging buffer in L1 (staged_scatter.hpp, finding 25): each chunk of
// consecutive f (or each window of one f) is walked into the buffer, then
// streamed to the plain tensor. Chunks split across threads (two threads'
// pieces share at most a boundary line, which stream_bytes writes with
// normal stores). False when g does not qualify.
template <class T>
bool run_staged(const Gather& g, const void* src, void* dst, T pad, int threads) {
    const auto esz = static_cast<int64_t>(sizeof(T));
    detail::StagedPlan p;
    if (g.src_numel * esz < kStreamBytes || !detail::plan_staged(g, esz, p)) return false;
    T* plain = static_cast<T*>(dst);
    T* blocked = const_cast<T*>(static_cast<const T*>(src));
    const int64_t chunks = (p.fs + p.per_chunk - 1) / p.per_chunk;
    const int64_t buf_elems = p.win > 0
                                  ? p.win * p.g.levels[static_cast<size_t>(p.top)].src_stride *
                                        p.g.levels[static_cast<size_t>(p.top) + 1].size
                                  : p.per_chunk * p.step;
    parallel_ranges(chunks, threads, [&](int64_t first, int64_t last) {
        std::unique_ptr<T[]> mem(new T[static_cast<size_t>(buf_elems) + 64 / sizeof(T)]);
        const auto addr = reinterpret_cast<uintptr_t>(mem.get());
        T* buf = reinterpret_cast<T*>((addr + 63) & ~uintptr_t{63});
        CopyPolicy<T, true> pol{buf, blocked, pad};
        setup_rows(pol, p.g, nullptr, false);
        pol.ahead = p.ahead * esz;
        Gather gw = p.g;  // windows: X cut to the window, R's rows win runs apart
        const auto top = static_cast<size_t>(p.top);
        const Level& x = p.g.levels[p.win > 0 ? top : 0];
        const Level& r = p.g.levels[p.win > 0 ? top + 1 : 0];
        if (p.win > 0) gw.levels[top + 1].src_stride = p.win * x.src_stride;
        int64_t acc[32] = {};
        int64_t coord[16];
        for (int64_t c = first; c < last; ++c) {
            const int64_t f0 = c * p.per_chunk, f1 = std::min(f0 + p.per_chunk, p.fs);
            const int64_t base = f0 * p.step;
            if (base >= g.src_numel) break;
            for (int64_t f = f0; f < f1; ++f) {
                // f's coordinates on the top levels as walk_level would
                // reach them: source, destination, padded-axis coordinates
                // and the axes still to check
                std::fill(acc, acc + 32, int64_t{0});
                int64_t s = 0, d = 0, rest = f;
                for (size_t t = top; t-- > 0;) {
                    coord[t] = rest % p.g.levels[t].size;
                    rest /= p.g.levels[t].size;
                }
                uint32_t mask = p.g.mask;
                bool valid = true;
                for (size_t t = 0; t < top && valid; ++t) {
                    const Level& l = p.g.levels[t];
                    s += coord[t] * l.src_stride;
                    d += coord[t] * l.dst_stride;
                    if (l.axis < 0 || (mask & (1u << l.axis)) == 0) continue;
                    const int64_t lim = p.g.limit[static_cast<size_t>(l.axis)];
                    acc[l.axis] += coord[t] * l.axis_stride;
                    if (acc[l.axis] >= lim)
                        valid = false;
                    else if (acc[l.axis] + l.inner_max < lim)
                        mask &= ~(1u << l.axis);
                }
                if (!valid) continue;
                if (p.win == 0) {
                    detail::walk_level(p.g, pol, top, s - base, d, acc, mask);
                    continue;
                }
                const int64_t rows = detail::valid_count(p.g, r, acc, mask);
                const bool x_checked = x.axis >= 0 && (mask & (1u << x.axis)) != 0;
                const int64_t x_acc = x_checked ? acc[x.axis] : 0;
                for (int64_t x0 = 0; x0 < x.size && x0 * x.src_stride < p.row_len; x0 += p.win) {
                    const int64_t xn = std::min(p.win, x.size - x0);
                    gw.levels[top].size = xn;
                    if (x_checked) acc[x.axis] = x_acc + x0 * x.axis_stride;
                    detail::walk_level(gw, pol, top, 0, d + x0 * x.dst_stride, acc, mask);
                    const int64_t len =
                        std::min((x0 + xn) * x.src_stride, p.row_len) - x0 * x.src_stride;
                    // The first and last lines of each row's piece are shared
                    // with the pieces beside it (the rows sit off the line
                    // grid), so stream_bytes writes them with normal stores,
                    // and a store to a line not in the cache waits for it to
                    // be read. Those lines of the next f's pieces are read
                    // now, a strip ahead (finding 53: 0.45 -> 0.57-0.59 of
                    // memcpy; the writes alone 0.69 -> 1.36).
                    const int64_t next = s + p.step + x0 * x.src_stride;  // may pass the end
                    // (Only part lines: a whole line read here would be
                    // read for nothing, then streamed over.)
                    for (int64_t k = 0; k < rows; ++k) {
                        const void* piece = prefetch_at(plain, (next + k * r.src_stride) * esz);
                        const auto lo = reinterpret_cast<uintptr_t>(piece);
                        if (lo % 64 != 0) prefetch_line(piece);
                        if ((lo + static_cast<uintptr_t>(len * esz)) % 64 != 0)
                            prefetch_line(prefetch_at(piece, len * esz - 1));
                    }
                    for (int64_t k = 0; k < rows; ++k)
                        detail::stream_bytes(
                            reinterpret_cast<char*>(plain + s + k * r.src_stride +
                                                    x0 * x.src_stride),
                            reinterpret_cast<const char*>(buf + k * p.win * x.src_stride),
                            len * esz);
                }
            }
            if (p.win > 0) continue;
            const int64_t end = std::min(f1 * p.step, g.src_numel);
            detail::stream_bytes(reinterpret_cast<char*>(plain + base),
                                 reinterpret_cast<const char*>(buf), (end - base) * esz);
        }
#ifdef __SSE2__
        _mm_sfence();
#endif
    });
    return true;
}

// src and dst as the segment sees them: for an inverse segment src is the
// blocked side and dst the plain one.
template <class T>
void run_gather(const Gather& g, bool inverse, const void* src, void* dst, T pad, const Range& r) {
    if (g.tiled && !r.part && run_batched<T>(g, inverse, src, dst, pad, r.threads)) return;
    if (g.tiled) {
        T* plain = const_cast<T*>(static_cast<const T*>(inverse ? dst : src));
        T* blocked = const_cast<T*>(static_cast<const T*>(inverse ? src : dst));
        // A slab buffer (r.part) is smaller than the plain tensor: no bound.
        const int64_t plain_numel = r.part ? 0 : g.src_numel;
        const auto window =
            r.part || inverse ? detail::Tile<T>::Window::none : window_tiles<T>(g, false);
        const auto scatter_window = r.part || !inverse || !r.plain_stream
                                        ? detail::Tile<T>::Window::none
                                        : window_tiles<T>(g, true);
        const bool windows = window != detail::Tile<T>::Window::none;
        const bool folded = window_folded<T>(g, window);
        const bool streamed = !inverse && stream_tiles<T>(g, blocked);
        const int small =
            window == detail::Tile<T>::Window::none ? small_tiles_fit<T>(g, streamed) : 0;
        if (streamed)
            walk_threads(g,
                         TilePolicy<T, false, true>{plain, blocked, pad, plain_numel, window,
                                                    folded, small > 0, small == 2},
                         r, true);
        else if (!inverse)
            walk_threads(
                g,
                TilePolicy<T, false>{plain, blocked, pad, plain_numel, window, folded, small > 0},
                r, windows);
        else if (r.plain_stream && stream_plain<T>(g, plain))
            walk_threads(r.part ? g : blocked_order(g),
                         TilePolicy<T, true, true>{plain, blocked, pad, 0, scatter_window}, r,
                         true);
        else if (scatter_window != detail::Tile<T>::Window::none)
            walk_threads(blocked_order(g),
                         TilePolicy<T, true>{plain, blocked, pad, 0, scatter_window}, r, true);
        else
            walk_threads(g, TilePolicy<T, true>{plain, blocked, pad}, r, false);
        return;
    }
    if (!inverse) {
        CopyPolicy<T, false> pol{const_cast<T*>(static_cast<const T*>(src)), static_cast<T*>(dst),
                                 pad};
        const bool stream = setup_rows(pol, g, static_cast<char*>(dst), true);
        pol.stream = stream;
        // A slab buffer (r.part) is smaller than the plain tensor: no bound.
        pol.a_bytes = r.part ? 0 : g.src_numel * static_cast<int64_t>(sizeof(T));
#ifdef __SSE2__
        T lane[16 / sizeof(T)];
        for (T& x : lane) x = pad;
        pol.padv = _mm_loadu_si128(reinterpret_cast<const __m128i*>(lane));
#endif
        walk_threads(g, pol, r, stream);
    } else {
        CopyPolicy<T, true> pol{static_cast<T*>(dst), const_cast<T*>(static_cast<const T*>(src)),
                                pad};
        Gather wide;
        // A slab's range (r.part) is a range of g's own outermost level. The
        // widened walk only pays with streaming stores (finding 13).
        if (!r.part && widen_scatter_rows(g, static_cast<int64_t>(sizeof(T)), wide) &&
            stream_plain<T>(wide, static_cast<T*>(dst)) && whole_lines<T>(wide, dst)) {
            setup_rows(pol, wide, static_cast<char*>(dst), false);
            pol.rows =
                pol.run == 32 ? copy_rows<32, true, kAheadBytes> : copy_rows<0, true, kAheadBytes>;
            walk_threads(wide, pol, r, true);
            return;
        }
        Gather po;
        if (!r.part && plain_order(g, static_cast<int64_t>(sizeof(T)), po) &&
            stream_plain<T>(po, static_cast<T*>(dst))) {
            setup_rows(pol, po, static_cast<char*>(dst), false);
            pol.rows = pick_rows(pol.run, true, false);
            pol.stream = true;
            walk_threads(po, pol, r, true);
            return;
        }
        if (!r.part && run_staged<T>(g, src, dst, pad, r.threads)) return;
        const bool stream =
            !r.part && writes_plain_in_order(g) && stream_plain<T>(g, static_cast<T*>(dst));
        setup_rows(pol, g, static_cast<char*>(dst), false);
        if (stream && pol.run % 16 == 0) {
            pol.rows = pick_rows(pol.run, true, false);
            pol.stream = true;
            walk_threads(g, pol, r, true);
            return;
        }
        walk_threads(g, pol, r, false);
    }
}

void run_segment(const detail::Segment& seg, DType t, const void* src, void* dst, uint64_t pad_bits,
                 int threads) {
    const int b = bits(t);
    if (b == 4) {
        const Gather g = detail::compile_gather(seg.plain, seg.steps, 1, true, true);
        const auto nib = static_cast<uint8_t>(pad_bits & 0xF);
        if (g.nibble_pairs) {
            run_gather<uint8_t>(g, seg.inverse, src, dst, static_cast<uint8_t>(nib | (nib << 4)),
                                Range{threads});
            return;
        }
        auto* plain = static_cast<uint8_t*>(const_cast<void*>(seg.inverse ? dst : src));
        auto* blocked = static_cast<uint8_t*>(const_cast<void*>(seg.inverse ? src : dst));
        detail::run_nibble_segment(seg, plain, blocked, nib, threads);
        return;
    }
    const Gather g = detail::compile_gather(seg.plain, seg.steps, b / 8, true);
    uint64_t pb = pad_bits;
    switch (b) {
        case 8: {
            uint8_t pad;
            std::memcpy(&pad, &pb, 1);  // little-endian: low bytes first
            run_gather<uint8_t>(g, seg.inverse, src, dst, pad, Range{threads});
            return;
        }
        case 16: {
            uint16_t pad;
            std::memcpy(&pad, &pb, 2);
            run_gather<uint16_t>(g, seg.inverse, src, dst, pad, Range{threads});
            return;
        }
        case 32: {
            uint32_t pad;
            std::memcpy(&pad, &pb, 4);
            run_gather<uint32_t>(g, seg.inverse, src, dst, pad, Range{threads});
            return;
        }
        default:
            throw std::logic_error("run_segment: unsupported element width");
    }
}

// ---- Fractal -> fractal in slabs --------------------------------------------
//
// A conversion between two blocked formats is an inverse segment (blocked
// source -> plain tensor P) and a forward one (P -> blocked destination).
// Run whole, P is a second full-size tensor: two passes over memory and a
// freshly mapped buffer whose page faults cost as much as the copies. When
// both gathers' outermost levels walk P's axis 0 in whole steps (k_a and k_b
// rows) and cover it, a slab of rows (a multiple of lcm(k_a, k_b)) is a
// contiguous piece of P reached by a range of each outermost level: the
// inverse gather scatters the slab into a buffer that stays in L2, the
// forward gather reads it back from there. Memory sees one read of the
// source and one (streamed) write of the destination, as memcpy does.

// Slab size: well inside L2 (1 MiB per core on the development machine),
// leaving room for the lines of source and destination passing through.
constexpr int64_t kSlabBytes = int64_t(256) << 10;

struct Fused {
    Gather a, b;             // inverse segment (blocked source -> P), forward one (P -> dst)
    int64_t sa = 0, sb = 0;  // plain units per step of each outermost level
    int64_t slab = 0;        // plain units per slab, a multiple of both (0: no fused path)
    int64_t span = 0;        // plain units the slabs cover (padding included)
};

// The plain units (elements, or bytes for int4 pairs) one step of g's
// outermost level covers, when a range [b, e) of that level reaches exactly
// the plain elements [b * step, e * step); else 0. That holds when the level
// is the top piece of P's flat index: either it holds no padding and
// step * size is all of P (the inner levels then reach [0, step), as the
// gather is one to one), or it is the top piece of a padded axis 0 (seg's
// pad step tells), k rows a step.
int64_t outer_step(const Gather& g, const detail::Segment& seg) {
    const Shape& plain = seg.plain;
    if (g.levels.empty() || plain.empty() || plain[0] <= 0) return 0;
    const Level& l = g.levels[0];
    if (l.src_stride <= 0) return 0;
    if (l.axis < 0) return l.src_stride * l.size == g.src_numel ? l.src_stride : 0;
    const int64_t n0 = plain[0];
    const bool has_pad = !seg.steps.empty() && seg.steps[0].kind == StepKind::pad;
    const int64_t len0 = has_pad ? seg.steps[0].after[0] : n0;
    if (len0 == n0 || g.src_numel % n0 != 0) return 0;  // l is on another padded axis
    // A padded axis 0 has padded-axis id 0.
    const int64_t row = g.src_numel / n0;
    if (l.axis != 0 || l.src_stride % row != 0) return 0;
    const int64_t k = l.src_stride / row;
    return l.axis_stride == k && k * l.size == len0 ? l.src_stride : 0;
}

Fused plan_fused(const Pipeline& p, const std::vector<detail::Segment>& segs,
                 int64_t slab_bytes = kSlabBytes) {
    Fused f;
    if (segs.size() != 2 || !segs[0].inverse || segs[1].inverse || segs[0].plain != segs[1].plain)
        return f;
    const int b = bits(p.dtype);
    const bool nib = b == 4;
    const int esize = nib ? 1 : b / 8;
    f.a = detail::compile_gather(segs[0].plain, segs[0].steps, esize, true, nib);
    f.b = detail::compile_gather(segs[1].plain, segs[1].steps, esize, true, nib);
    // int4 whose nibbles do not move in pairs: a slab boundary could split a
    // byte between two slabs' buffers; left to the two-pass path.
    if (nib && !(f.a.nibble_pairs && f.b.nibble_pairs)) return f;
    f.sa = outer_step(f.a, segs[0]);
    f.sb = outer_step(f.b, segs[1]);
    if (f.sa == 0 || f.sb == 0) return f;
    const int64_t step = std::lcm(f.sa, f.sb);
    f.slab = step * std::max<int64_t>(1, slab_bytes / (step * esize));
    f.span = std::max(f.sa * f.a.levels[0].size, f.sb * f.b.levels[0].size);
    f.slab = std::min(f.slab, step * ((f.span + step - 1) / step));  // a small tensor: one slab
    return f;
}

template <class T>
void run_fused(const Fused& f, const void* src, void* dst, T pad, int threads) {
    const int64_t slabs = (f.span + f.slab - 1) / f.slab;
    parallel_ranges(slabs, threads, [&](int64_t first, int64_t last) {
        std::unique_ptr<T[]> buf(new T[static_cast<size_t>(f.slab)]);
        for (int64_t k = first; k < last; ++k) {
            const int64_t o0 = k * f.slab, o1 = o0 + f.slab;
            Range ra;
            ra.part = true;
            ra.plain_stream = false;
            ra.s0 = o0;
            Range rb = ra;
            ra.begin = o0 / f.sa;
            ra.end = std::min(o1 / f.sa, f.a.levels[0].size);
            rb.begin = o0 / f.sb;
            rb.end = std::min(o1 / f.sb, f.b.levels[0].size);
            if (ra.begin < ra.end) run_gather<T>(f.a, true, src, buf.get(), pad, ra);
            if (rb.begin < rb.end) run_gather<T>(f.b, false, buf.get(), dst, pad, rb);
        }
#ifdef __SSE2__
        _mm_sfence();  // the forward gather may have streamed into dst
#endif
    });
}

void run_fused_typed(const Fused& f, DType t, const void* src, void* dst, uint64_t pad_bits,
                     int threads) {
    uint64_t pb = pad_bits;
    switch (bits(t)) {
        case 4: {
            const auto nib = static_cast<uint8_t>(pad_bits & 0xF);
            run_fused<uint8_t>(f, src, dst, static_cast<uint8_t>(nib | (nib << 4)), threads);
            return;
        }
        case 8: {
            uint8_t pad;
            std::memcpy(&pad, &pb, 1);
            run_fused<uint8_t>(f, src, dst, pad, threads);
            return;
        }
        case 16: {
            uint16_t pad;
            std::memcpy(&pad, &pb, 2);
            run_fused<uint16_t>(f, src, dst, pad, threads);
            return;
        }
        case 32: {
            uint32_t pad;
            std::memcpy(&pad, &pb, 4);
            run_fused<uint32_t>(f, src, dst, pad, threads);
            return;
        }
        default:
            throw std::logic_error("run_fused: unsupported element width");
    }
}

// Blocked -> blocked as one gather straight from the source (see
// detail::compile_composed): NC1HWC0 -> FRACTAL_Z moves whole C0 runs,
// NZ <-> ZZ whole fractals, NZ <-> ZN transposes each fractal. False when
// the two blockings do not nest.
bool run_composed(const Pipeline& p, const std::vector<detail::Segment>& segs, const void* src,
                  void* dst, uint64_t pad_bits, int threads) {
    if (segs.size() != 2 || !segs[0].inverse || segs[1].inverse || segs[0].plain != segs[1].plain)
        return false;
    const int b = bits(p.dtype);
    if (b == 4) {
        const auto nib = static_cast<uint8_t>(pad_bits & 0xF);
        const auto g =
            detail::compile_composed(segs[0].plain, segs[0].steps, segs[1].steps, 1, true, true);
        if (!g) return false;
        if (g->nibble_pairs) {
            run_gather<uint8_t>(*g, false, src, dst, static_cast<uint8_t>(nib | (nib << 4)),
                                Range{threads});
            return true;
        }
        return detail::run_nibble_composed(segs[0].plain, segs[0].steps, segs[1].steps, src, dst,
                                           nib, threads);
    }
    const auto g =
        detail::compile_composed(segs[0].plain, segs[0].steps, segs[1].steps, b / 8, true);
    if (!g) return false;
    uint64_t pb = pad_bits;
    switch (b) {
        case 8: {
            uint8_t pad;
            std::memcpy(&pad, &pb, 1);
            run_gather<uint8_t>(*g, false, src, dst, pad, Range{threads});
            return true;
        }
        case 16: {
            uint16_t pad;
            std::memcpy(&pad, &pb, 2);
            run_gather<uint16_t>(*g, false, src, dst, pad, Range{threads});
            return true;
        }
        case 32: {
            uint32_t pad;
            std::memcpy(&pad, &pb, 4);
            run_gather<uint32_t>(*g, false, src, dst, pad, Range{threads});
            return true;
        }
        default:
            return false;
    }
}

}  // namespace

Executor::Executor(Pipeline p) : p_(std::move(p)) {}

int64_t Executor::src_bytes() const {
    return bytes_for(p_.dtype, numel(p_.src_shape));
}
int64_t Executor::dst_bytes() const {
    return bytes_for(p_.dtype, numel(p_.dst_shape));
}

namespace {
// The bytes of the tensor segment `s` of p writes when it is not the last:
// an intermediate of Executor::run's passes.
int64_t segment_out_bytes(const Pipeline& p, const detail::Segment& s) {
    return bytes_for(p.dtype, numel(p.steps[s.first + s.count - 1].after));
}
}  // namespace

int64_t Executor::scratch_bytes() const {
    // The same intermediates as run() below: segment i writes bufs[i % 2]
    // while it reads the previous one.
    const auto segs = detail::segments(p_);
    int64_t most = 0, prev = 0;
    for (size_t i = 0; i + 1 < segs.size(); ++i) {
        const int64_t b = segment_out_bytes(p_, segs[i]);
        most = std::max(most, prev + b);
        prev = b;
    }
    return most;
}

void Executor::run(const void* src, void* dst) const {
    run(src, dst, 1);
}

void Executor::run(const void* src, void* dst, int threads) const {
    if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const uint64_t pad_bits = encode_scalar(p_.dtype, p_.pad_value);
    const auto segs = detail::segments(p_);
    if (segs.empty()) {
        std::memcpy(dst, src, static_cast<size_t>(src_bytes()));
        return;
    }
    if (segs.size() == 2 && run_composed(p_, segs, src, dst, pad_bits, threads)) {
        const int64_t nd = numel(p_.dst_shape);
        if (p_.dtype == DType::int4 && nd % 2 != 0)
            static_cast<uint8_t*>(dst)[nd / 2] &= uint8_t{0x0F};
        return;
    }
    if (segs.size() == 2 && detail::run_fused(p_, src, dst, threads, 0)) return;
    const void* cur = src;
    // Intermediate tensors (fractal -> fractal goes through the plain form):
    // every element is written by its segment, so no zero fill; huge pages
    // where they are large (tensor_buffer.hpp).
    TensorBuffer bufs[2];
    for (size_t i = 0; i < segs.size(); ++i) {
        void* out = dst;
        if (i + 1 < segs.size()) {
            bufs[i % 2] = TensorBuffer(static_cast<size_t>(segment_out_bytes(p_, segs[i])));
            out = bufs[i % 2].data();
        }
        run_segment(segs[i], p_.dtype, cur, out, pad_bits, threads);
        cur = out;
    }
    // int4 with an odd count: the spare high nibble of the last byte is 0.
    const int64_t nd = numel(p_.dst_shape);
    if (p_.dtype == DType::int4 && nd % 2 != 0) static_cast<uint8_t*>(dst)[nd / 2] &= uint8_t{0x0F};
}

namespace detail {
int64_t fused_slab(const Pipeline& p, int64_t slab_bytes) {
    return plan_fused(p, segments(p), slab_bytes > 0 ? slab_bytes : kSlabBytes).slab;
}

bool run_fused(const Pipeline& p, const void* src, void* dst, int threads, int64_t slab_bytes) {
    const Fused f = plan_fused(p, segments(p), slab_bytes > 0 ? slab_bytes : kSlabBytes);
    if (f.slab == 0) return false;
    if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    run_fused_typed(f, p.dtype, src, dst, encode_scalar(p.dtype, p.pad_value), threads);
    const int64_t nd = numel(p.dst_shape);
    if (p.dtype == DType::int4 && nd % 2 != 0) static_cast<uint8_t*>(dst)[nd / 2] &= uint8_t{0x0F};
    return true;
}
}  // namespace detail

std::vector<uint8_t> Executor::run(const std::vector<uint8_t>& src) const {
    if (static_cast<int64_t>(src.size()) != src_bytes())
        throw std::invalid_argument("Executor::run: source buffer has the wrong size");
    std::vector<uint8_t> dst(static_cast<size_t>(dst_bytes()));
    run(src.data(), dst.data());
    return dst;
}

}  // namespace ll
