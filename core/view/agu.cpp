#include "core/view/agu.hpp"

#include <algorithm>
#include <sstream>

#include "core/error.hpp"

namespace ll::view {

namespace {

std::string hex(int64_t v) {
    std::ostringstream os;
    os << (v < 0 ? "-0x" : "0x") << std::hex << (v < 0 ? -v : v);
    return os.str();
}

std::string tuple(const std::vector<int64_t>& v) {
    return ll::to_string(v);
}

// Splits sub-modes (outer first) into the given factor sizes, each sub-mode
// covering consecutive factors whose product is its size.
std::vector<SubMode> split_to(const std::vector<SubMode>& subs, const std::vector<int64_t>& sizes) {
    std::vector<SubMode> out;
    size_t f = 0;
    for (const auto& s : subs) {
        if (s.size == 1) continue;
        std::vector<int64_t> group;
        int64_t p = 1;
        while (p < s.size) {
            group.push_back(sizes[f]);
            p *= sizes[f++];
        }
        int64_t st = s.stride;
        std::vector<SubMode> part(group.size());
        for (size_t k = group.size(); k-- > 0;) {
            part[k] = {group[k], st};
            st *= group[k];
        }
        out.insert(out.end(), part.begin(), part.end());
    }
    return out;
}

// Common refinement of two factorizations of the same size; false when none.
bool common_sizes(const std::vector<SubMode>& a, const std::vector<SubMode>& b,
                  std::vector<int64_t>& out) {
    std::vector<int64_t> x, y;
    for (const auto& s : a)
        if (s.size > 1) x.push_back(s.size);
    for (const auto& s : b)
        if (s.size > 1) y.push_back(s.size);
    size_t i = 0, j = 0;
    while (i < x.size() && j < y.size()) {
        if (x[i] == y[j]) {
            out.push_back(x[i++]);
            ++j;
        } else if (x[i] < y[j] && y[j] % x[i] == 0) {
            out.push_back(x[i]);
            y[j] /= x[i++];
        } else if (y[j] < x[i] && x[i] % y[j] == 0) {
            out.push_back(y[j]);
            x[i] /= y[j++];
        } else {
            return false;
        }
    }
    return i == x.size() && j == y.size();
}

}  // namespace

int64_t Agu::count() const {
    int64_t n = 1;
    for (int64_t b : bounds) n *= b;
    return n;
}

int64_t Agu::address(const Coord& counters) const {
    int64_t off = 0;
    for (size_t d = 0; d < bounds.size(); ++d) off += counters[d] * strides[d];
    return base + off * elem_bits / 8;
}

int64_t Agu::address_at(int64_t k) const {
    return address(unravel(k, bounds));
}

namespace {

[[noreturn]] void address_overflow(const std::string& what) {
    throw UsageError(what + " passes the 64-bit address range; expected a smaller base, index, " +
                     "stride or element size");
}

// base + index * elem_bits / 8 without wrapping around.
int64_t checked_address(int64_t base, int64_t index, int elem_bits, const std::string& what) {
    int64_t bits_off = 0, r = 0;
    if (__builtin_mul_overflow(index, int64_t(elem_bits), &bits_off)) address_overflow(what);
    if (__builtin_add_overflow(base, bits_off / 8, &r)) address_overflow(what);
    return r;
}

}  // namespace

Agu agu_from_layout(const Layout& l, int elem_bits, int64_t base) {
    Agu a;
    a.elem_bits = elem_bits;
    a.base = checked_address(base, l.offset, elem_bits, "the layout's offset");
    // The lowest and highest element offsets the loops reach, checked once,
    // so that address() can never wrap around for any counter state.
    int64_t lo = 0, hi = 0;
    for (const auto& s : flatten(l)) {
        a.bounds.push_back(s.size);
        a.strides.push_back(s.stride);
        int64_t span = 0;
        if (s.size > 0 && __builtin_mul_overflow(s.size - 1, s.stride, &span))
            address_overflow("a stride of the layout");
        if (__builtin_add_overflow(span < 0 ? lo : hi, span, span < 0 ? &lo : &hi))
            address_overflow("the layout's extent");
    }
    checked_address(a.base, lo, elem_bits, "the lowest address of the walk");
    checked_address(a.base, hi, elem_bits, "the highest address of the walk");
    return a;
}

std::string to_string(const Agu& a) {
    std::ostringstream os;
    os << "base=" << hex(a.base) << " bounds=" << tuple(a.bounds) << " strides=" << tuple(a.strides)
       << " elem=";
    if (a.elem_bits % 8 == 0)
        os << a.elem_bits / 8 << "B";
    else
        os << a.elem_bits << "b";
    return os.str();
}

std::vector<AddressEvent> stream(const Agu& a, int64_t first, int64_t count) {
    std::vector<AddressEvent> ev;
    int64_t end = std::min(a.count(), first + std::max<int64_t>(count, 0));
    for (int64_t k = std::max<int64_t>(first, 0); k < end; ++k)
        ev.push_back({k, k, a.address_at(k)});
    return ev;
}

Dma make_dma(const Layout& src, const Layout& dst, int elem_bits, int64_t src_base,
             int64_t dst_base) {
    if (src.shape() != dst.shape())
        throw UsageError("DMA source shape " + ll::to_string(src.shape()) +
                         " differs from destination shape " + ll::to_string(dst.shape()) +
                         "; expected two layouts of the same logical tensor");
    Layout a = src, b = dst;
    for (size_t m = 0; m < src.rank(); ++m) {
        std::vector<int64_t> sizes;
        if (!common_sizes(src.modes[m].subs, dst.modes[m].subs, sizes))
            throw UsageError("dim " + std::to_string(m) +
                             " is blocked incompatibly in the two layouts; " +
                             "expected blockings where one divides the other");
        if (sizes.empty()) {
            a.modes[m] = coalesce(src.modes[m]);  // size 1: keeps its stride for printing
            b.modes[m] = coalesce(dst.modes[m]);
            continue;
        }
        a.modes[m].subs = split_to(src.modes[m].subs, sizes);
        b.modes[m].subs = split_to(dst.modes[m].subs, sizes);
    }
    return Dma{agu_from_layout(a, elem_bits, src_base), agu_from_layout(b, elem_bits, dst_base)};
}

std::string to_string(const Dma& d) {
    return "read  " + to_string(d.read) + "\nwrite " + to_string(d.write);
}

std::vector<DmaEvent> stream(const Dma& d, int64_t first, int64_t count) {
    std::vector<DmaEvent> ev;
    int64_t end = std::min(d.count(), first + std::max<int64_t>(count, 0));
    for (int64_t k = std::max<int64_t>(first, 0); k < end; ++k)
        ev.push_back({k, d.read.address_at(k), d.write.address_at(k)});
    return ev;
}

namespace {

struct StatsBuilder {
    StreamStats s;
    int64_t elem_bytes;
    size_t max_deltas;
    int64_t prev = 0, run = 0;
    void add(int64_t a) {
        if (s.count > 0) {
            int64_t d = a - prev;
            if (s.deltas.size() < max_deltas &&
                std::find(s.deltas.begin(), s.deltas.end(), d) == s.deltas.end())
                s.deltas.push_back(d);
            if (d == elem_bytes) {
                ++run;
            } else {
                ++s.runs;
                run = 1;
            }
        } else {
            s.runs = 1;
            run = 1;
        }
        s.longest_run = std::max(s.longest_run, run);
        prev = a;
        ++s.count;
    }
};

}  // namespace

StreamStats stream_stats(const std::vector<int64_t>& addresses, int64_t elem_bytes,
                         size_t max_deltas) {
    StatsBuilder b{{}, elem_bytes, max_deltas};
    for (int64_t a : addresses) b.add(a);
    return b.s;
}

StreamStats stream_stats(const Agu& a, size_t max_deltas, int64_t limit) {
    StatsBuilder b{{}, std::max(1, a.elem_bits / 8), max_deltas};
    Coord c(a.bounds.size(), 0);
    int64_t n = std::min(a.count(), std::max<int64_t>(limit, 0));
    b.s.truncated = n < a.count();
    for (int64_t k = 0; k < n; ++k) {
        b.add(a.address(c));
        for (size_t d = c.size(); d-- > 0;) {  // odometer step, no division per element
            if (++c[d] < a.bounds[d]) break;
            c[d] = 0;
        }
    }
    return b.s;
}

GatherReport gather(const ScatterGather& sg, const std::vector<int64_t>& indices) {
    if (sg.width < 1)
        throw UsageError("gather width " + std::to_string(sg.width) + "; expected >= 1");
    if (sg.burst_bytes < 1)
        throw UsageError("burst size " + std::to_string(sg.burst_bytes) + "; expected >= 1 byte");
    int64_t eb = std::max(1, sg.elem_bits / 8);
    GatherReport r;
    r.elements = int64_t(indices.size());
    for (size_t i = 0; i < indices.size(); i += size_t(sg.width)) {
        GatherRequest q;
        q.first = int64_t(i);
        std::vector<int64_t> segs;
        for (size_t j = i; j < std::min(indices.size(), i + size_t(sg.width)); ++j) {
            if (indices[j] < 0)
                throw UsageError("gather index " + std::to_string(indices[j]) +
                                 " is negative; expected element indices >= 0");
            int64_t a = checked_address(sg.base, indices[j], sg.elem_bits,
                                        "gather index " + std::to_string(indices[j]));
            q.addresses.push_back(a);
            segs.push_back(a / sg.burst_bytes);
        }
        q.runs = stream_stats(q.addresses, eb, 0).runs;
        std::sort(segs.begin(), segs.end());
        q.bursts = int64_t(std::unique(segs.begin(), segs.end()) - segs.begin());
        r.runs += q.runs;
        r.bursts += q.bursts;
        r.requests.push_back(std::move(q));
    }
    return r;
}

}  // namespace ll::view
