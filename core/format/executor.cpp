// The Executor: runs each pipeline segment as one strided gather (forward)
// or scatter (inverse) over the compiled levels of gather.hpp. The innermost
// levels form a destination chunk of >= 512 bytes copied with memcpy runs or a
// tiled 2-D loop; the outer levels are ordered for source locality.
#include <cstring>
#include <stdexcept>

#include "core/format/format.hpp"
#include "core/format/gather.hpp"
#include "core/format/scalar.hpp"

namespace ll {

namespace {

using detail::Gather;
using detail::Level;

// Copies n elements of T; fixed sizes become inline moves.
template <class T>
inline void copy_run(T* d, const T* s, int64_t n) {
    switch (n * static_cast<int64_t>(sizeof(T))) {
        case 16:
            std::memcpy(d, s, 16);
            return;
        case 32:
            std::memcpy(d, s, 32);
            return;
        case 64:
            std::memcpy(d, s, 64);
            return;
        default:
            std::memcpy(d, s, static_cast<size_t>(n) * sizeof(T));
    }
}

// Moves one element between `a` (walked with src strides) and `b` (dst
// strides). Gather: b[d] = a[s]; scatter: a[s] = b[d].
template <class T, bool kScatter>
struct CopyPolicy {
    T* a;  // plain side (the forward source)
    T* b;  // the forward destination
    T pad;

    static constexpr int64_t kTile = 32;

    void leaf1(const Level& l, int64_t s, int64_t d) {
        if (l.src_stride == 1 && l.dst_stride == 1) {
            if (kScatter)
                copy_run(a + s, b + d, l.size);
            else
                copy_run(b + d, a + s, l.size);
            return;
        }
        for (int64_t i = 0; i < l.size; ++i) move(s + i * l.src_stride, d + i * l.dst_stride);
    }

    void leaf2(const Level& o, const Level& in, int64_t s, int64_t d) {
        if (in.src_stride == 1 && in.dst_stride == 1) {
            for (int64_t i = 0; i < o.size; ++i) {
                if (kScatter)
                    copy_run(a + s + i * o.src_stride, b + d + i * o.dst_stride, in.size);
                else
                    copy_run(b + d + i * o.dst_stride, a + s + i * o.src_stride, in.size);
            }
            return;
        }
        // A 2-D transpose: tile it so both sides stay in cache, and keep the
        // loop with the unit stride on the plain side innermost.
        const bool swap = o.src_stride == 1;
        const Level& x = swap ? in : o;  // outer loop
        const Level& y = swap ? o : in;  // inner loop
        for (int64_t y0 = 0; y0 < y.size; y0 += kTile) {
            const int64_t y1 = y0 + kTile < y.size ? y0 + kTile : y.size;
            for (int64_t i = 0; i < x.size; ++i) {
                const int64_t si = s + i * x.src_stride, di = d + i * x.dst_stride;
                for (int64_t j = y0; j < y1; ++j)
                    move(si + j * y.src_stride, di + j * y.dst_stride);
            }
        }
    }

    inline void move(int64_t s, int64_t d) {
        if (kScatter)
            a[s] = b[d];
        else
            b[d] = a[s];
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
                leaf2(lv[0], lv[1], s, d);
                return;
            default:
                for (int64_t i = 0; i < lv[0].size; ++i)
                    block(lv + 1, n - 1, s + i * lv[0].src_stride, d + i * lv[0].dst_stride);
        }
    }

    void fill(const Level* lv, int n, int64_t d) {
        if (kScatter) return;  // padding has no place in the plain buffer
        if (n == 0) {
            b[d] = pad;
            return;
        }
        if (n == 1 && lv[0].dst_stride == 1) {
            for (int64_t i = 0; i < lv[0].size; ++i) b[d + i] = pad;
            return;
        }
        for (int64_t i = 0; i < lv[0].size; ++i) fill(lv + 1, n - 1, d + i * lv[0].dst_stride);
    }
};

template <class T>
void run_segment_typed(const detail::Segment& seg, const void* src, void* dst, uint64_t pad_bits) {
    Gather g = detail::compile_gather(seg.plain, seg.steps, static_cast<int>(sizeof(T)));
    T pad;
    std::memcpy(&pad, &pad_bits, sizeof(T));  // little-endian: low bytes first
    if (!seg.inverse) {
        CopyPolicy<T, false> pol{const_cast<T*>(static_cast<const T*>(src)), static_cast<T*>(dst),
                                 pad};
        detail::walk(g, pol);
    } else {
        CopyPolicy<T, true> pol{static_cast<T*>(dst), const_cast<T*>(static_cast<const T*>(src)),
                                pad};
        detail::walk(g, pol);
    }
}

void run_segment(const detail::Segment& seg, DType t, const void* src, void* dst,
                 uint64_t pad_bits) {
    switch (bits(t)) {
        case 8:
            run_segment_typed<uint8_t>(seg, src, dst, pad_bits);
            return;
        case 16:
            run_segment_typed<uint16_t>(seg, src, dst, pad_bits);
            return;
        case 32:
            run_segment_typed<uint32_t>(seg, src, dst, pad_bits);
            return;
        default:
            throw std::logic_error("run_segment: unsupported element width");
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

void Executor::run(const void* src, void* dst) const {
    const uint64_t pad_bits = encode_scalar(p_.dtype, p_.pad_value);
    if (p_.dtype == DType::int4) {
        // Nibbles are not addressable: go element by element through the map.
        const ElementMap m = element_map(p_);
        const auto* s = static_cast<const uint8_t*>(src);
        auto* d = static_cast<uint8_t*>(dst);
        std::memset(d, 0, static_cast<size_t>(dst_bytes()));
        for (size_t i = 0; i < m.size(); ++i) {
            uint8_t v = static_cast<uint8_t>(pad_bits & 0xF);
            if (m[i] >= 0) {
                const auto k = static_cast<size_t>(m[i]);
                v = static_cast<uint8_t>((s[k / 2] >> (4 * (k % 2))) & 0xF);
            }
            d[i / 2] = static_cast<uint8_t>(d[i / 2] | (v << (4 * (i % 2))));
        }
        return;
    }
    const auto segs = detail::segments(p_);
    if (segs.empty()) {
        std::memcpy(dst, src, static_cast<size_t>(src_bytes()));
        return;
    }
    const void* cur = src;
    std::vector<uint8_t> bufs[2];
    for (size_t i = 0; i < segs.size(); ++i) {
        void* out = dst;
        if (i + 1 < segs.size()) {
            const Shape& sh = p_.steps[segs[i].first + segs[i].count - 1].after;
            auto& buf = bufs[i % 2];
            buf.assign(static_cast<size_t>(bytes_for(p_.dtype, numel(sh))), 0);
            out = buf.data();
        }
        run_segment(segs[i], p_.dtype, cur, out, pad_bits);
        cur = out;
    }
}

std::vector<uint8_t> Executor::run(const std::vector<uint8_t>& src) const {
    if (static_cast<int64_t>(src.size()) != src_bytes())
        throw std::invalid_argument("Executor::run: source buffer has the wrong size");
    std::vector<uint8_t> dst(static_cast<size_t>(dst_bytes()));
    run(src.data(), dst.data());
    return dst;
}

}  // namespace ll
