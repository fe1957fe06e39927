// Internal to core/format: tiled gathers whose tiles are small and whose
// destination rows continue across an outer level (FRACTAL_Z and
// FRACTAL_Z_3D from NCHW/NCDHW with 3x3, 3x3x3 or 7x7 kernels, and back).
//
// NCHW (N, C, 3, 3) fp16 -> FRACTAL_Z compiles to the levels
//   n (src C*9, dst 16), c1 (src 144, dst 9*N1*256), hw (Y: src 1, dst N1*256),
//   c0 (X: src 9, dst 1)
// and the plain tiled walk moves one 9 x 16 tile per (n, c1): 32 bytes to
// each of 9 destination rows 466 KB apart, 144 rows open for every n. Here
// the outer level Z (n) whose destination step is one tile row (Z.dst_stride
// == X.size) is cut into groups of k, and for each group and each middle
// index (c1) the k tiles are transposed into a buffer of Y rows x (k * X)
// elements, which then goes out as Y whole pieces of k * 16 * 2 = 512 bytes
// (streamed: whole lines). The inverse reads the same 512-byte pieces and
// transposes into a buffer holding the group's k plain rows (n), which
// goes out as one contiguous block. docs/PERFORMANCE.md, finding 20.
//
// Sections:
//   BatchPlan, plan_fold,         when a gather qualifies, and the group size;
//   plan_batch_tiles              a middle level folded into the tile rows
//   gather_tiles, scatter_tiles   the k tiles of one middle index
//   RowDrain                      stores and prefetches between block passes
//   batch_gather                  one group, plain -> blocked
//   FoldedPace,                   the folded 1-byte scatter's tiles (finding 49)
//   scatter_tiles_folded
//   batch_scatter                 one group, blocked -> plain
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "core/format/gather.hpp"
#include "core/format/transpose_tile.hpp"

namespace ll::detail {

struct BatchPlan {
    Level z, y, x;
    std::vector<Level> mid;  // the levels between Z and Y, outermost first
    int64_t k = 1;           // Z entries per group
    int64_t groups = 0;
    int64_t x_limit = -1;   // X's axis limit when that axis holds padding, else -1
    int64_t mids = 1;       // product of the middle levels' sizes
    bool rows_own = false;  // Z owns whole plain rows: a group's plain part is one block
    // Folded (plan_fold): the innermost middle level W continues Y on the
    // plain side (W.src_stride == Y.size), so the tile is W.size * Y.size
    // rows tall, row r at W.dst_stride * (r / Y.size) + Y.dst_stride * (r %
    // Y.size) on the blocked side. W then is not in `mid`.
    bool folded = false;
    Level w;
    // A scatter in subsets of its outer middle level (finding 55): `sub`
    // entries of it at a time (every inner middle index of each), the
    // group's plain part of them (k rows of sub * mid.src_stride)
    // buffered and streamed out; 0 where the whole group's plain block is
    // buffered.
    int64_t sub = 0;
    int64_t rows() const { return folded ? w.size * y.size : y.size; }
    // Blocked offset of tile row r.
    int64_t row_at(int64_t r) const {
        return folded ? (r / y.size) * w.dst_stride + (r % y.size) * y.dst_stride
                      : r * y.dst_stride;
    }
};

// The plain-side buffer of a scatter group is at most this large.
constexpr int64_t kBatchPlainBytes = int64_t(256) << 10;
// A scatter in subsets (BatchPlan::sub, finding 55): the bytes of a tile
// row per group (the source pieces' length), and the most a subset's k
// plain parts may hold (a bound, so that k no longer depends on C: from
// 18 to 110 KiB the buffer's size measured the same).
constexpr int64_t kSubsetPiece = 1024;
constexpr int64_t kSubsetBytes = int64_t(64) << 10;

// Folds the innermost middle level into Y where the plain rows of a tile
// continue across it: FRACTAL_Z_3D <-> NCDHW with a 3x3x3 kernel has Y = hw
// (9) and W = d (3, plain stride 9), and one 27-row tile per (n, c1) moves
// what three 9-row tiles did, in two overlapping 16-row passes of the
// 1-byte blocks against three passes of 9 (finding 49). A gather folds for
// every width: its tiles read plain rows (contiguous across the fold) into
// a buffer, and only the rows going out take W's stride. A scatter reads
// the blocked rows through a row table, built for the AVX2 1-byte tiles
// only, so it folds there only, and only where every 32-column block is
// whole (X unpadded, a multiple of 32).
inline void plan_fold(const Gather& g, int64_t esz, bool scatter, BatchPlan& bp) {
    if (bp.mid.empty()) return;
    const Level& w = bp.mid.back();
    const bool w_padded = w.axis >= 0 && (g.mask & (1u << static_cast<unsigned>(w.axis))) != 0;
    if (w_padded || w.src_stride != bp.y.size || w.size < 2) return;
    if ((bp.y.size * esz) % 16 == 0 || w.size * bp.y.size * esz > 256) return;
    if (scatter && (esz != 1 || !byte_tiles_avx2() || bp.x_limit >= 0 || bp.x.size % 32 != 0 ||
                    w.size * bp.y.size < 16))
        return;
    bp.folded = true;
    bp.w = w;
    bp.mid.pop_back();
    bp.mids /= w.size;
}

// Whether g takes the batched walk, and its plan. Z = the outermost level,
// never padding, destination step X.size; Y and X the tile (Y never
// padding, X's rows whole 16-byte pieces); the middle levels may hold
// padding only on X's axis (C1 of a C that is not a multiple of C0). A
// scatter also needs Z to own whole plain rows (its stride times its size
// is the plain tensor) so that a group's plain part is one block.
inline bool plan_batch_tiles(const Gather& g, int64_t esz, bool scatter, BatchPlan& bp) {
    const size_t n = g.levels.size();
    if (!g.tiled || n < 3) return false;
    const Level& z = g.levels[0];
    const Level& y = g.levels[n - 2];
    const Level& x = g.levels[n - 1];
    const auto padded = [&g](const Level& l) {
        return l.axis >= 0 && (g.mask & (1u << static_cast<unsigned>(l.axis))) != 0;
    };
    if (padded(z) || padded(y) || z.dst_stride != x.size || z.size < 2) return false;
    if (y.src_stride != 1 || x.dst_stride != 1 || (x.size * esz) % 16 != 0) return false;
    // Small tiles only: rows of up to 256 bytes on the plain side.
    if (y.size * esz > 256) return false;
    for (size_t i = 1; i + 2 < n; ++i) {
        const Level& l = g.levels[i];
        if (padded(l) && l.axis != x.axis) return false;
    }
    bp.rows_own = z.src_stride * z.size == g.src_numel;
    if (scatter && !bp.rows_own) return false;
    bp.z = z;
    bp.y = y;
    bp.x = x;
    bp.mid.assign(g.levels.begin() + 1, g.levels.end() - 2);
    for (const Level& l : bp.mid) bp.mids *= l.size;
    bp.x_limit = padded(x) ? g.limit[static_cast<size_t>(x.axis)] : -1;
    // Destination pieces of 512 bytes per tile row.
    plan_fold(g, esz, scatter, bp);
    bp.k = std::max<int64_t>(1, 512 / (x.size * esz));
    // A 2- or 4-byte scatter (FRACTAL_Z -> NCHW, FRACTAL_Z_3D -> NCDHW)
    // reads 1 KiB pieces, k twice as many tiles, in subsets of its outer
    // middle level (C1) whose plain part is whole lines (finding 55). (The
    // 1-byte scatters take the AVX2 pairs, which measured slower with k
    // doubled, with or without subsets.)
    if (scatter && esz >= 2 && !bp.folded && !bp.mid.empty() && bp.mid[0].size >= 2) {
        const int64_t part = bp.mid[0].src_stride * esz;  // one entry's bytes of a plain row
        const int64_t k = std::max<int64_t>(2, kSubsetPiece / (x.size * esz));
        int64_t sub = 1;
        while ((sub * part) % 64 != 0 && sub < 64) ++sub;
        if ((sub * part) % 64 == 0 && k * sub * part <= kSubsetBytes && sub < bp.mid[0].size) {
            while (k * 2 * sub * part <= kSubsetBytes && 2 * sub <= bp.mid[0].size) sub *= 2;
            bp.sub = sub;
            bp.k = k;
        }
    }
    if (scatter && bp.sub == 0)
        while (bp.k > 1 && bp.k * z.src_stride * esz > kBatchPlainBytes) bp.k /= 2;
    if (bp.k < 2) return false;
    bp.groups = (z.size + bp.k - 1) / bp.k;
    return true;
}

// Calls f(s, d, vx) for every index of the middle levels: s and d their
// source and destination offsets, vx the valid entries of X there.
template <class F>
void for_mid(const BatchPlan& p, size_t i, int64_t s, int64_t d, int64_t acc, const F& f) {
    if (i == p.mid.size()) {
        int64_t vx = p.x.size;
        if (p.x_limit >= 0) {
            const int64_t left = p.x_limit - acc;
            vx = left <= 0 ? 0 : std::min(p.x.size, (left + p.x.axis_stride - 1) / p.x.axis_stride);
        }
        f(s, d, vx);
        return;
    }
    const Level& l = p.mid[i];
    const bool on_x = p.x_limit >= 0 && l.axis == p.x.axis;
    for (int64_t j = 0; j < l.size; ++j)
        for_mid(p, i + 1, s + j * l.src_stride, d + j * l.dst_stride,
                on_x ? acc + j * l.axis_stride : acc, f);
}

// The k tiles of one middle index, plain -> buffer: tile z (source at src +
// z * sz) goes to out + z * nx, out[y * ld + x] = src[x * sx + y] for x < vx,
// pad for vx <= x < nx. Blocks of B x B, the tiles innermost so that every
// choice below is made once per block position, not per tile. The rows
// past the last whole block go one element at a time where they are few (a
// 3x3 kernel's ninth row for fp16: 16 loads and stores against a block's
// 24 shuffles), else through one more block that overlaps the one before
// it. Tiles lower than B read each row B elements (past the tile, into what
// follows) where src_end allows, and keep ny rows. Aligned to a 64-byte
// line: the same machine code 16 bytes further along (code added before
// it, finding 54) read NCHW -> FRACTAL_Z int8 at 512 MiB 6.8 -> 6.4 GB/s.
template <class T, class Drain>
__attribute__((aligned(64))) inline void gather_tiles(const T* src, int64_t sz, int64_t k,
                                                      int64_t sx, int64_t ny, int64_t nx,
                                                      int64_t vx, T* out, int64_t ld, T pad,
                                                      const T* src_end, Drain& drain) {
    constexpr int64_t B = Tile<T>::B;
    const int64_t yb = ny - ny % B, rest = ny - yb;
    for (int64_t x0 = 0; x0 < nx; x0 += B) {
        const int64_t nin = std::clamp<int64_t>(vx - x0, 0, B);
        const T* in = src + x0 * sx;
        T* o = out + x0;
        if constexpr (sizeof(T) == 1) {
            // two whole blocks side by side through AVX2, where every read
            // stays before src_end; the same drain calls as two single ones
            if (byte_tiles_avx2() && vx - x0 >= 2 * B &&
                in + (k - 1) * sz + (2 * B - 1) * sx + B <= src_end) {
                const auto* i8 = reinterpret_cast<const uint8_t*>(in);
                auto* o8 = reinterpret_cast<uint8_t*>(o);
                const int64_t h = k / 2;  // half the tiles between drains, as two blocks
                for (int64_t y0 = 0; y0 < ny; y0 += B) {
                    const int64_t at = (y0 + B <= ny || ny < B) ? y0 : ny - B;  // overlapping
                    const int64_t rows = ny < B ? ny : B;
                    byte_tiles32_avx2(i8 + at, sz, h, sx, o8 + at * ld, nx, ld, rows);
                    drain();
                    byte_tiles32_avx2(i8 + at + h * sz, sz, k - h, sx, o8 + at * ld + h * nx, nx,
                                      ld, rows);
                    drain();
                }
                x0 += B;
                continue;
            }
        }
        if constexpr (sizeof(T) == 2) {
            // the same for 2-byte tiles at least a block high (finding 54),
            // the last block of rows overlapping the one before
            if (half_tiles_avx2() && vx - x0 >= 2 * B && ny >= B &&
                in + (k - 1) * sz + (2 * B - 1) * sx + ny <= src_end) {
                const auto* i16 = reinterpret_cast<const uint16_t*>(in);
                auto* o16 = reinterpret_cast<uint16_t*>(o);
                const int64_t h = k / 2;
                for (int64_t y0 = 0; y0 < ny; y0 += B) {
                    const int64_t at = y0 + B <= ny ? y0 : ny - B;
                    half_tiles16_avx2(i16 + at, sz, h, sx, o16 + at * ld, nx, ld);
                    drain();
                    half_tiles16_avx2(i16 + at + h * sz, sz, k - h, sx, o16 + at * ld + h * nx, nx,
                                      ld);
                    drain();
                }
                x0 += B;
                continue;
            }
        }
        if (ny < B) {
            for (int64_t z = 0; z < k; ++z) {
                const T* iz = in + z * sz;
                T* oz = o + z * nx;
                if (nin == 0 || iz + (nin - 1) * sx + B <= src_end) {
                    Tile<T>::block(iz, sx, nin, oz, ld, ny, pad);
                } else {
                    for (int64_t yy = 0; yy < ny; ++yy)
                        for (int64_t c = 0; c < B; ++c)
                            oz[yy * ld + c] = c < nin ? iz[c * sx + yy] : pad;
                }
            }
            drain();
            continue;
        }
        for (int64_t y0 = 0; y0 < yb; y0 += B) {
            if (nin == B) {  // constant counts: the inlined block() unrolls
                for (int64_t z = 0; z < k; ++z)
                    Tile<T>::block(in + z * sz + y0, sx, B, o + z * nx + y0 * ld, ld, B, pad);
            } else {
                for (int64_t z = 0; z < k; ++z)
                    Tile<T>::block(in + z * sz + y0, sx, nin, o + z * nx + y0 * ld, ld, B, pad);
            }
            drain();
        }
        if (rest == 0) continue;
        if (4 * rest <= B) {
            for (int64_t z = 0; z < k; ++z)
                for (int64_t yy = yb; yy < ny; ++yy)
                    for (int64_t c = 0; c < B; ++c)
                        o[z * nx + yy * ld + c] = c < nin ? in[z * sz + c * sx + yy] : pad;
        } else {
            for (int64_t z = 0; z < k; ++z)
                Tile<T>::block(in + z * sz + ny - B, sx, nin, o + z * nx + (ny - B) * ld, ld, B,
                               pad);
        }
        drain();
    }
}

#ifdef __SSE2__
// Stores the first n bytes (n < 16) of v at p: 8, 4, 2 and 1-byte pieces.
inline void store_head(char* p, __m128i v, int64_t n) {
    if (n & 8) {
        _mm_storel_epi64(reinterpret_cast<__m128i*>(p), v);
        p += 8;
        v = _mm_srli_si128(v, 8);
    }
    auto u = static_cast<uint32_t>(_mm_cvtsi128_si32(v));
    if (n & 4) {
        std::memcpy(p, &u, 4);
        p += 4;
        u = static_cast<uint32_t>(_mm_cvtsi128_si32(_mm_srli_si128(v, 4)));
    }
    if (n & 2) {
        std::memcpy(p, &u, 2);
        p += 2;
        u >>= 16;
    }
    if (n & 1) *p = static_cast<char>(u);
}
#endif

// A block of m < B input rows (stride is, read as B elements each) whose
// output rows [from, nout) are stored m elements each (stride os): plain
// rows shorter than a block that are not back to back (FRACTAL_Z_3D ->
// NCDHW int8: rows of 9 bytes, 27 apart), no buffer and no memcpy call.
template <class T>
inline void block_short_rows(const T* in, int64_t is, int64_t m, T* out, int64_t os, int64_t from,
                             int64_t nout) {
#ifndef __SSE2__
    for (int64_t c = from; c < nout; ++c)
        for (int64_t i = 0; i < m; ++i) out[c * os + i] = in[i * is + c];
#else
    constexpr int B = static_cast<int>(Tile<T>::B);
    __m128i r[B];
    for (int i = 0; i < B; ++i)
        r[i] = i < m ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i * is))
                     : _mm_setzero_si128();
    transpose_regs<static_cast<int>(sizeof(T))>(r);
    const int64_t bytes = m * static_cast<int64_t>(sizeof(T));
    for (int64_t c = from; c < nout; ++c)
        store_head(reinterpret_cast<char*>(out + c * os), r[c], bytes);
#endif
}

// The k tiles of one middle index, blocked -> plain buffer: tile z (at in +
// z * nx) goes to out + z * sz, out[x * sx + y] = in[y * dy + x] for x < vx.
// Blocks as in gather_tiles. Tiles lower than B: where their plain rows are
// back to back (sx == ny) and at least half a block long, each row is
// stored B elements wide, in ascending order so that the next row
// overwrites the tail, and a tile's last row goes through a small buffer;
// otherwise every row does.
template <class T, class Pace>
inline void scatter_tiles(const T* in, int64_t dy, int64_t k, int64_t nx, int64_t ny, int64_t vx,
                          T* out, int64_t sz, int64_t sx, Pace& pace) {
    constexpr int64_t B = Tile<T>::B;
    const int64_t yb = ny - ny % B, rest = ny - yb;
    for (int64_t x0 = 0; x0 < vx; x0 += B) {
        const int64_t nout = std::min<int64_t>(B, vx - x0);
        const T* i0 = in + x0;
        T* o = out + x0 * sx;
        if constexpr (sizeof(T) == 1) {
            // two whole blocks side by side through AVX2, as in gather_tiles,
            // both blocks' pace() calls after all k tiles (the prefetches in
            // one burst measured the same here, batch_scatter). Rows
            // shorter than a block only back to back, each row's 16-byte
            // store overwritten past the row by the next, the last row of
            // the valid X exact (rows apart, FRACTAL_Z_3D -> NCDHW with C >
            // C0, keep block_short_rows: exact 9-byte stores here measured
            // 5.9 -> 5.2 GB/s in cache).
            if (byte_tiles_avx2() && vx - x0 >= 2 * B && (ny >= B || (sx == ny && 2 * ny >= B))) {
                const auto* i8 = reinterpret_cast<const uint8_t*>(i0);
                auto* o8 = reinterpret_cast<uint8_t*>(o);
                const int64_t exact_from = ny < B && x0 + 2 * B == vx ? 2 * B - 1 : 2 * B;
                for (int64_t y0 = 0; y0 < ny; y0 += B) {
                    const int64_t at = (y0 + B <= ny || ny < B) ? y0 : ny - B;  // overlapping
                    byte_tiles32_back_avx2(i8 + at * dy, nx, k, dy, ny < B ? ny : B, o8 + at, sz,
                                           sx, exact_from);
                    pace();
                    pace();
                }
                x0 += B;
                continue;
            }
        }
        if (ny < B) {
            const bool last = x0 + nout == vx;
            for (int64_t z = 0; z < k; ++z) {
                int64_t direct = 0;
                if (sx == ny && 2 * ny >= B) {
                    direct = last ? nout - 1 : nout;
                    Tile<T>::block(i0 + z * nx, dy, ny, o + z * sz, sx, direct, T{});
                }
                if (direct < nout)
                    block_short_rows(i0 + z * nx, dy, ny, o + z * sz, sx, direct, nout);
            }
            pace();
            continue;
        }
        for (int64_t y0 = 0; y0 < yb; y0 += B) {
            if (nout == B) {  // constant counts, as in gather_tiles
                for (int64_t z = 0; z < k; ++z)
                    Tile<T>::block(i0 + z * nx + y0 * dy, dy, B, o + z * sz + y0, sx, B, T{});
            } else {
                for (int64_t z = 0; z < k; ++z)
                    Tile<T>::block(i0 + z * nx + y0 * dy, dy, B, o + z * sz + y0, sx, nout, T{});
            }
            pace();
        }
        if (rest == 0) continue;
        // The last rest rows as the block of the last B rows, which stores
        // again what the block before it stored: an element loop for the
        // 9th row of a 3x3 kernel's fp16 tile (16 loads and stores of 2
        // bytes per tile) took a third of FRACTAL_Z -> NCHW's time.
        for (int64_t z = 0; z < k; ++z)
            Tile<T>::block(i0 + z * nx + (ny - B) * dy, dy, B, o + z * sz + ny - B, sx, nout, T{});
        pace();
    }
}

// Prefetches the 64-byte lines [from, to) counted from p (a hint: never
// faults). always_inline, as prefetch_line: GCC drops the calls of a
// function whose only effect is a prefetch.
__attribute__((always_inline)) inline void prefetch_lines(const void* p, int64_t from, int64_t to) {
    for (int64_t i = from; i < to; ++i) prefetch_line(prefetch_at(p, i * 64));
}

// Block passes of gather_tiles / scatter_tiles over nx columns (the number
// of drain or pace calls per middle index).
inline int64_t batch_passes(int64_t nx, int64_t ny, int64_t B) {
    return (nx + B - 1) / B * (ny < B ? 1 : (ny + B - 1) / B);
}

// The gather's work between block passes: the previous middle index's
// buffer rows going out, and the next group's source lines prefetched, a
// share per call. The prefetches issued in one burst per middle index held
// up the transposes (spread: fp32 3x3 0.55 -> 0.66 of memcpy, 7x7 fp32
// 0.58 -> 0.82); the rows spread on their own measured the same as in one
// burst, and go with the prefetches.
template <class T>
struct RowDrain {
    const T* src = nullptr;  // buffer rows, ld apart
    T* dst = nullptr;        // destination rows, dy apart
    int64_t ld = 0, dy = 0, rows = 0, next = 0, per = 1, pieces = 0;
    const BatchPlan* plan = nullptr;  // folded: row r goes to dst + plan->row_at(r)
    bool stream = false;

    void emit(int64_t n) {
        const int64_t end = std::min(rows, next + n);
        for (; next < end; ++next) {
            T* to = dst + (plan ? plan->row_at(next) : next * dy);
            if (stream)
                Tile<T>::store_row(to, src + next * ld, pieces);
            else
                std::memcpy(to, src + next * ld, static_cast<size_t>(pieces) * 16);
        }
    }
    const char* pf = nullptr;  // lines to prefetch, a few per call
    int64_t pf_next = 0, pf_end = 0, pf_per = 0;
    void operator()() {
        emit(per);
        const int64_t e = std::min(pf_end, pf_next + pf_per);
        prefetch_lines(pf, pf_next, e);
        pf_next = e;
    }
};

// Group `grp` of a batched gather: a plain, b blocked; buf holds two
// buffers of rows() * k * x.size elements (16-byte aligned). a_end bounds
// the reads past a tile.
template <class T>
void batch_gather(const BatchPlan& p, const T* a, T* b, T pad, const T* a_end, int64_t grp, T* buf,
                  bool stream) {
    constexpr int64_t B = Tile<T>::B;
    const int64_t z0 = grp * p.k, k = std::min(p.k, p.z.size - z0);
    const int64_t nx = p.x.size, ny = p.rows(), ld = p.k * nx, dy = p.y.dst_stride;
    const int64_t sz = p.z.src_stride, sx = p.x.src_stride;
    // The next group's plain block, a share of its lines per middle index:
    // the tiles of a group read k rows side by side, more streams than the
    // hardware prefetchers follow.
    const T* next = a + (z0 + k) * sz;
    const int64_t next_lines =
        p.rows_own && z0 + k < p.z.size
            ? (std::min(p.k, p.z.size - z0 - k) * sz * static_cast<int64_t>(sizeof(T)) + 63) / 64
            : 0;
    const int64_t per_mid = (next_lines + p.mids - 1) / p.mids;
    int64_t line = 0;
    const int64_t passes = batch_passes(p.x.size, ny, B);
    RowDrain<T> drain;
    drain.ld = ld;
    drain.dy = dy;
    drain.plan = p.folded ? &p : nullptr;
    drain.stream = stream;
    drain.pieces = k * nx * static_cast<int64_t>(sizeof(T)) / 16;
    drain.per = (ny + passes - 1) / passes;
    drain.pf = reinterpret_cast<const char*>(next);
    drain.pf_per = (per_mid + passes - 1) / passes;
    int64_t parity = 0;
    for_mid(p, 0, z0 * sz, z0 * nx, 0, [&](int64_t s, int64_t d, int64_t vx) {
        drain.pf_end = std::min(next_lines, line + per_mid);
        drain.pf_next = line;
        line += per_mid;
        T* cur = buf + parity * ny * ld;
        gather_tiles(a + s, sz, k, sx, ny, nx, vx, cur, ld, pad, a_end, drain);
        drain.emit(ny);  // whatever the passes left
        drain.src = cur;
        drain.dst = b + d;
        drain.rows = ny;
        drain.next = 0;
        parity ^= 1;
    });
    drain.emit(ny);
}

// The folded scatter's prefetches (plan_fold): the next group's piece of
// every tile row, `lines` lines each, `per` lines a call.
struct FoldedPace {
    const char* base;  // the next group's first tile, row 0
    const BatchPlan* p;
    int64_t esz, lines, total, per, r = 0, k = 0;
    __attribute__((always_inline)) inline void operator()() {
        for (int64_t j = 0; j < per && total > 0; ++j, --total) {
            prefetch_line(prefetch_at(base, p->row_at(r) * esz + 64 * k));
            if (++k == lines) {
                k = 0;
                ++r;
            }
        }
    }
};

// The k folded tiles of one middle index, blocked -> plain buffer (1-byte,
// AVX2, every 32-column block whole: plan_fold): as scatter_tiles' AVX2
// blocks, the rows.size() >= 16 tile rows in passes of 16 (the last one
// overlapping the one before), each input row through the row table.
inline void scatter_tiles_folded(const BatchPlan& p, const uint8_t* in, int64_t k, uint8_t* out,
                                 int64_t sz, int64_t sx, FoldedPace& pace) {
    const int64_t nx = p.x.size, ny = p.rows();
    int64_t row[16];
    for (int64_t y0 = 0; y0 < ny; y0 += 16) {
        const int64_t at = y0 + 16 <= ny ? y0 : ny - 16;
        for (int64_t i = 0; i < 16; ++i) row[i] = p.row_at(at + i);
        for (int64_t x0 = 0; x0 < nx; x0 += 32) {
            byte_tiles32_back_rows_avx2(in + x0, row, nx, k, out + x0 * sx + at, sz, sx);
            pace();
        }
    }
}

// Group `grp` of a batched scatter: b blocked, a plain; buf holds k *
// z.src_stride elements plus one block row of slack (the group's plain
// block, which goes out whole at the end: paced between the block passes
// of the next group, from a second buffer, it measured the same or slower).
template <class T>
void batch_scatter(const BatchPlan& p, T* a, const T* b, int64_t grp, T* buf, bool stream) {
    const auto esz = static_cast<int64_t>(sizeof(T));
    const int64_t z0 = grp * p.k, k = std::min(p.k, p.z.size - z0);
    const int64_t nx = p.x.size, ny = p.y.size, dy = p.y.dst_stride;
    const int64_t sz = p.z.src_stride, sx = p.x.src_stride;
    // The same rows' pieces of the next group: Y rows far apart, each read
    // k * X elements per group, and all middle indices between.
    const int64_t next_k = z0 + k < p.z.size ? std::min(p.k, p.z.size - z0 - k) : 0;
    // (PrefetchSpread, a share per block pass: in one burst per middle
    // index they measured the same here)
    const int64_t lines = (next_k * nx * esz + 63) / 64, total = p.rows() * lines;
    if constexpr (sizeof(T) == 1) {
        if (p.folded) {
            const int64_t passes = (nx / 32) * ((p.rows() + 15) / 16);
            for_mid(p, 0, 0, z0 * nx, 0, [&](int64_t s, int64_t d, int64_t) {
                FoldedPace pace{reinterpret_cast<const char*>(b + d + k * nx),
                                &p,
                                esz,
                                lines,
                                total,
                                (total + passes - 1) / passes};
                scatter_tiles_folded(p, reinterpret_cast<const uint8_t*>(b + d), k,
                                     reinterpret_cast<uint8_t*>(buf + s), sz, sx, pace);
            });
        }
    }
    // In subsets (finding 55): sub entries of the middle level into a
    // buffer of k rows of their plain part, which then goes out as k
    // pieces of whole lines. (Otherwise the group's plain block goes out
    // whole at the end.)
    if (p.sub > 0) {
        const Level& m = p.mid[0];
        const bool on_x = p.x_limit >= 0 && m.axis == p.x.axis;
        for (int64_t j0 = 0; j0 < m.size; j0 += p.sub) {
            // (the last entries' part is shorter where X holds padding)
            const int64_t jn = std::min(p.sub, m.size - j0);
            const int64_t ld = std::min(jn * m.src_stride, sz - j0 * m.src_stride);
            for (int64_t j = j0; j < j0 + jn; ++j)
                for_mid(p, 1, (j - j0) * m.src_stride, z0 * nx + j * m.dst_stride,
                        on_x ? j * m.axis_stride : 0, [&](int64_t s, int64_t d, int64_t vx) {
                            const int64_t passes = batch_passes(vx, ny, Tile<T>::B);
                            PrefetchSpread pace{reinterpret_cast<const char*>(b + d + k * nx),
                                                dy * esz, lines, total,
                                                passes > 0 ? (total + passes - 1) / passes : 0};
                            scatter_tiles(b + d, dy, k, nx, ny, vx, buf + s, ld, sx, pace);
                        });
            const int64_t len = ld * esz;
            for (int64_t z = 0; z < k; ++z) {
                char* out = reinterpret_cast<char*>(a + (z0 + z) * sz + j0 * m.src_stride);
                const char* from = reinterpret_cast<const char*>(buf + z * ld);
                if (stream)
                    stream_bytes(out, from, len);
                else
                    std::memcpy(out, from, static_cast<size_t>(len));
            }
        }
        return;
    }
    if (!p.folded)
        for_mid(p, 0, 0, z0 * nx, 0, [&](int64_t s, int64_t d, int64_t vx) {
            // The scatter's passes cover the valid X only.
            const int64_t passes = batch_passes(vx, ny, Tile<T>::B);
            PrefetchSpread pace{reinterpret_cast<const char*>(b + d + k * nx), dy * esz, lines,
                                total, passes > 0 ? (total + passes - 1) / passes : 0};
            scatter_tiles(b + d, dy, k, nx, ny, vx, buf + s, sz, sx, pace);
        });
    const int64_t bytes = k * sz * esz;
    char* out = reinterpret_cast<char*>(a + z0 * sz);
    if (stream)
        stream_bytes(out, reinterpret_cast<const char*>(buf), bytes);
    else
        std::memcpy(out, buf, static_cast<size_t>(bytes));
}

}  // namespace ll::detail
