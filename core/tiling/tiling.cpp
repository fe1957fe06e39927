#include "core/tiling/tiling.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "core/checked.hpp"
#include "core/error.hpp"

namespace ll::tiling {

namespace {

std::string upper(std::string s) {
    for (char& ch : s) ch = char(std::toupper(static_cast<unsigned char>(ch)));
    return s;
}

std::string fmt(double v, const char* f = "%.4g") {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

const char* dim_name(Dim d) {
    return d == Dim::C ? "C" : d == Dim::H ? "H" : "W";
}

int64_t block_bytes(const std::string& l, DType t, const Extent3& b) {
    return bytes_for(t, frame_elems(l, t, b));
}

// The innermost dimension of `o` that steps inside block `b`; nullptr-like
// result (found=false) for a single-element block.
bool stepping_dim(const Order& o, const Extent3& b, Dim& out) {
    for (Dim d : o.inner_to_outer)
        if (b[d] > 1) {
            out = d;
            return true;
        }
    out = o.inner_to_outer[0];
    return false;
}

// One dimension's blocks: `full` blocks of extent `b`, then one of `rem` (if any).
struct Split {
    int64_t full, b, rem;
};
Split split(int64_t extent, int64_t block) {
    block = std::min(block, extent);
    return {extent / block, block, extent % block};
}

struct Accum {
    double us = 0, uj = 0, bytes = 0, ideal_us = 0, setup_us = 0, blocks = 0;
};

// Adds the cost of moving every block of `container` (tiled by `block`) in
// each of the `n` orders (one Accum per order), `mult` times. bw in bytes per
// microsecond; setup_us is paid once per block moved, whatever its stride.
void accumulate(const std::string& l, DType t, const Extent3& container, const Extent3& block,
                const Order* orders, int n, StrideBasis basis, int64_t access_bytes, double bw,
                double setup_us, double e_src, double e_dst, double mult, Accum* acc) {
    const Split sc = split(container.c, block.c), sh = split(container.h, block.h),
                sw = split(container.w, block.w);
    const std::array<int64_t, 3> src_strides = frame_strides(l, t, container);
    for (int ic = 0; ic < 2; ++ic) {
        const int64_t nc = ic ? (sc.rem ? 1 : 0) : sc.full, xc = ic ? sc.rem : sc.b;
        if (nc == 0) continue;
        for (int ih = 0; ih < 2; ++ih) {
            const int64_t nh = ih ? (sh.rem ? 1 : 0) : sh.full, xh = ih ? sh.rem : sh.b;
            if (nh == 0) continue;
            for (int iw = 0; iw < 2; ++iw) {
                const int64_t nw = iw ? (sw.rem ? 1 : 0) : sw.full, xw = iw ? sw.rem : sw.b;
                if (nw == 0) continue;
                const Extent3 x{xc, xh, xw};
                const std::array<int64_t, 3> strides =
                    basis == StrideBasis::source ? src_strides : frame_strides(l, t, x);
                const double count = mult * double(nc * nh * nw);
                const double bytes = count * double(block_bytes(l, t, x));
                for (int k = 0; k < n; ++k) {
                    Dim d;
                    const int64_t stride = stepping_dim(orders[k], x, d) ? strides[int(d)] : 1;
                    const double eta =
                        access_efficiency(stride, double(bits(t)) / 8.0, access_bytes);
                    Accum& a = acc[k];
                    a.bytes += bytes;
                    a.blocks += count;
                    a.us += bytes / (bw * eta);
                    a.ideal_us += bytes / bw;
                    a.setup_us += count * setup_us;
                    a.uj += (bytes / eta * e_src + bytes * e_dst) * 1e-6;
                }
            }
        }
    }
}

double bw_us(const MemLevel& a, const MemLevel& b) {
    return std::min(a.bandwidth_gbps, b.bandwidth_gbps) * 1e3;  // bytes per us
}

void level1_cost(const Config& c, const Order* orders, int n, Accum* acc) {
    const Extent3 tensor{c.shape[1], c.shape[2], c.shape[3]};
    accumulate(c.layout, c.dtype, tensor, c.l1_tile, orders, n, c.basis, c.mem.dram.access_bytes,
               bw_us(c.mem.dram, c.mem.sram), c.mem.dram.setup_ns * 1e-3, c.mem.dram.pj_per_byte,
               c.mem.sram.pj_per_byte, double(c.shape[0]), acc);
}

// L2 runs inside every L1 tile class (full tiles and edge tiles).
void level2_cost(const Config& c, const Order* orders, int n, Accum* acc) {
    const Extent3 tensor{c.shape[1], c.shape[2], c.shape[3]};
    const double nb = double(c.shape[0]);
    const Split sc = split(tensor.c, c.l1_tile.c), sh = split(tensor.h, c.l1_tile.h),
                sw = split(tensor.w, c.l1_tile.w);
    const double bw2 = bw_us(c.mem.sram, c.mem.reg);
    for (int ic = 0; ic < 2; ++ic) {
        const int64_t nc = ic ? (sc.rem ? 1 : 0) : sc.full, xc = ic ? sc.rem : sc.b;
        for (int ih = 0; ih < 2 && nc; ++ih) {
            const int64_t nh = ih ? (sh.rem ? 1 : 0) : sh.full, xh = ih ? sh.rem : sh.b;
            for (int iw = 0; iw < 2 && nh; ++iw) {
                const int64_t nw = iw ? (sw.rem ? 1 : 0) : sw.full, xw = iw ? sw.rem : sw.b;
                if (nw == 0) continue;
                accumulate(c.layout, c.dtype, Extent3{xc, xh, xw}, c.l2_tile, orders, n, c.basis,
                           c.mem.sram.access_bytes, bw2, c.mem.sram.setup_ns * 1e-3,
                           c.mem.sram.pj_per_byte, c.mem.reg.pj_per_byte,
                           nb * double(nc * nh * nw) * double(c.l2_passes), acc);
            }
        }
    }
}

void level_costs(const Config& c, Accum& l1, Accum& l2) {
    level1_cost(c, &c.l1_order, 1, &l1);
    level2_cost(c, &c.l2_order, 1, &l2);
}

LevelFast to_fast(const Accum& a) {
    LevelFast f;
    f.us = a.us + a.setup_us;
    f.eff = a.us > 0 ? a.ideal_us / a.us : 0;
    f.uj = a.uj;
    return f;
}

void check_level(const MemLevel& m) {
    if (!(m.bandwidth_gbps > 0) || !std::isfinite(m.bandwidth_gbps))
        throw UsageError(m.name + " bandwidth " + fmt(m.bandwidth_gbps) +
                         " GB/s; expected a positive bandwidth");
    if (!(m.pj_per_byte >= 0) || !std::isfinite(m.pj_per_byte))
        throw UsageError(m.name + " energy " + fmt(m.pj_per_byte) + " pJ/B; expected zero or more");
    if (!(m.setup_ns >= 0) || !std::isfinite(m.setup_ns))
        throw UsageError(m.name + " setup time " + fmt(m.setup_ns) + " ns; expected zero or more");
    if (m.access_bytes < 0)
        throw UsageError(m.name + " access unit " + std::to_string(m.access_bytes) +
                         " B; expected 0 (no bound) or a positive size in bytes");
    if (m.capacity_bytes <= 0)
        throw UsageError(m.name + " capacity " + std::to_string(m.capacity_bytes) +
                         " B; expected a positive capacity");
}

}  // namespace

// ---- names ---------------------------------------------------------------------

const std::vector<std::string>& offered_layouts() {
    static const std::vector<std::string> v = {"NCHW", "NHWC", "NC1HWC0"};
    return v;
}

std::string check_layout(const std::string& s, const std::string& what) {
    const std::string u = upper(s);
    if (u == "NC1HWC0") return u;
    bool order = u.size() == 4 && u[0] == 'N';
    for (char ch : std::string("CHW")) order = order && u.find(ch) != std::string::npos;
    if (!order)
        throw usage_error(
            what, "unknown layout '" + s +
                      "'; expected NC1HWC0 or an order of N, C, H, W with N outermost, e.g. "
                      "NCHW or NHWC");
    return u;
}

char dim_char(Dim d) {
    return dim_name(d)[0];
}

std::string to_string(const Order& o) {
    std::string s;
    for (Dim d : o.inner_to_outer) {
        if (!s.empty()) s += "_";
        s += dim_char(d);
    }
    return s;
}

Order parse_order(const std::string& s, const std::string& what) {
    const std::string u = upper(s);
    const std::string expected =
        "; expected a permutation of W, H, C joined by '_', innermost "
        "first, e.g. W_H_C or C_W_H";
    Order o;
    bool seen[3] = {false, false, false};
    size_t k = 0;
    if (u.size() != 5) throw usage_error(what, "bad order '" + s + "'" + expected);
    for (size_t i = 0; i < u.size(); ++i) {
        if (i % 2 == 1) {
            if (u[i] != '_') throw usage_error(what, "bad order '" + s + "'" + expected);
            continue;
        }
        Dim d;
        if (u[i] == 'C')
            d = Dim::C;
        else if (u[i] == 'H')
            d = Dim::H;
        else if (u[i] == 'W')
            d = Dim::W;
        else
            throw usage_error(
                what, "unknown dimension '" + std::string(1, s[i]) + "' in '" + s + "'" + expected);
        if (k >= 3 || seen[int(d)])
            throw usage_error(what, "'" + s + "' is not a permutation" + expected);
        seen[int(d)] = true;
        o.inner_to_outer[k++] = d;
    }
    if (k != 3) throw usage_error(what, "'" + s + "' is not a permutation" + expected);
    return o;
}

const std::vector<Order>& all_orders() {
    static const std::vector<Order> v = {{{Dim::W, Dim::H, Dim::C}}, {{Dim::W, Dim::C, Dim::H}},
                                         {{Dim::H, Dim::W, Dim::C}}, {{Dim::H, Dim::C, Dim::W}},
                                         {{Dim::C, Dim::W, Dim::H}}, {{Dim::C, Dim::H, Dim::W}}};
    return v;
}

std::string to_string(const Extent3& e) {
    return "(" + std::to_string(e.c) + "," + std::to_string(e.h) + "," + std::to_string(e.w) + ")";
}

Extent3 parse_extent(const std::string& s, const std::string& what) {
    const std::vector<int64_t> v = parse_int_list(s, what);
    if (v.size() != 3)
        throw usage_error(what, "'" + s + "' has " + std::to_string(v.size()) +
                                    " values; expected three, C,H,W (e.g. 16,14,14)");
    for (int64_t x : v)
        if (x <= 0)
            throw usage_error(what, "'" + s + "' has a zero or negative size; expected C,H,W >= 1");
    return {v[0], v[1], v[2]};
}

const char* name(StrideBasis b) {
    return b == StrideBasis::source ? "source" : "destination";
}

StrideBasis stride_basis_from_name(const std::string& s) {
    const std::string u = upper(s);
    if (u == "DESTINATION" || u == "DEST") return StrideBasis::destination;
    if (u == "SOURCE" || u == "SRC") return StrideBasis::source;
    throw UsageError("stride_basis", "unknown '" + s + "'; expected destination or source");
}

// ---- the model -------------------------------------------------------------------

view::Layout frame_layout(const std::string& layout, DType dtype, const Extent3& f) {
    if (layout == "NC1HWC0") {
        const int64_t c0 = elems_per_32b(dtype);
        return view::layout_from_name("nChw" + std::to_string(c0) + "c",
                                      {1, round_up(f.c, c0), f.h, f.w});
    }
    return view::layout_from_name(layout, {1, f.c, f.h, f.w});
}

int64_t frame_elems(const std::string& layout, DType dtype, const Extent3& f) {
    const int64_t c = layout == "NC1HWC0" ? round_up(f.c, elems_per_32b(dtype)) : f.c;
    return c * f.h * f.w;
}

std::array<int64_t, 3> frame_strides(const std::string& layout, DType dtype, const Extent3& f) {
    // A few frames (tensor, tile classes, sub-tile classes) per configuration:
    // remember the last ones instead of building their view layouts again.
    struct Entry {
        std::string layout;
        DType dtype = DType::fp32;
        Extent3 frame;
        std::array<int64_t, 3> strides{};
    };
    thread_local std::array<Entry, 32> memo;
    thread_local size_t used = 0, next = 0;
    for (size_t i = 0; i < used; ++i) {
        const Entry& e = memo[i];
        if (e.frame == f && e.dtype == dtype && e.layout == layout) return e.strides;
    }
    const std::vector<int64_t> st = frame_layout(layout, dtype, f).strides();
    Entry& e = memo[next];
    e = {layout, dtype, f, {st[1], st[2], st[3]}};
    next = (next + 1) % memo.size();
    used = std::max(used, next == 0 ? memo.size() : next);
    return e.strides;
}

Order matched_order(const std::string& layout, DType dtype, const Extent3& frame) {
    const std::array<int64_t, 3> st = frame_strides(layout, dtype, frame);
    Order o{{Dim::W, Dim::H, Dim::C}};
    std::stable_sort(o.inner_to_outer.begin(), o.inner_to_outer.end(),
                     [&](Dim a, Dim b) { return st[int(a)] < st[int(b)]; });
    return o;
}

void validate(const Config& c) {
    if (check_layout(c.layout) != c.layout)
        throw UsageError("layout", "'" + c.layout + "' is not in canonical form; expected " +
                                       check_layout(c.layout));
    if (c.shape.size() != 4)
        throw UsageError(
            "shape", ll::to_string(c.shape) + " is not 4-D; expected N,C,H,W (e.g. 1,64,56,56)");
    for (int64_t d : c.shape)
        if (d <= 0)
            throw UsageError(
                "shape", ll::to_string(c.shape) + " has a zero dimension; expected N,C,H,W >= 1");
    (void)numel(c.shape);
    const Extent3 tensor{c.shape[1], c.shape[2], c.shape[3]};
    const char* names[3] = {"C", "H", "W"};
    for (int i = 0; i < 3; ++i) {
        const Dim d = Dim(i);
        if (c.l1_tile[d] <= 0 || c.l2_tile[d] <= 0)
            throw UsageError(std::string("tile size ") + names[i] +
                             " is zero; expected tile and sub-tile sizes >= 1");
        if (c.l1_tile[d] > tensor[d])
            throw UsageError("l1_tile", to_string(c.l1_tile) +
                                            " is larger than the tensor (C,H,W) " +
                                            to_string(tensor) + " in " + names[i] +
                                            "; expected each tile size <= the tensor's");
        if (c.l2_tile[d] > c.l1_tile[d])
            throw UsageError("l2_tile", to_string(c.l2_tile) + " is larger than the L1 tile " +
                                            to_string(c.l1_tile) + " in " + names[i] +
                                            "; expected each sub-tile size <= the tile's");
    }
    check_level(c.mem.dram);
    check_level(c.mem.sram);
    check_level(c.mem.reg);
    if (c.l2_passes < 1 || c.l2_passes > kMaxL2Passes)
        throw UsageError("l2_passes", std::to_string(c.l2_passes) + "; expected 1.." +
                                          std::to_string(kMaxL2Passes));
}

LevelFast evaluate_l1_fast(const Config& c) {
    Accum a;
    level1_cost(c, &c.l1_order, 1, &a);
    return to_fast(a);
}

LevelFast evaluate_l2_fast(const Config& c) {
    Accum a;
    level2_cost(c, &c.l2_order, 1, &a);
    return to_fast(a);
}

void evaluate_l2_all_orders_fast(const Config& c, LevelFast l2[6]) {
    Accum a2[6];
    level2_cost(c, all_orders().data(), 6, a2);
    for (int k = 0; k < 6; ++k) l2[k] = to_fast(a2[k]);
}

void evaluate_l1_all_orders_fast(const Config& c, LevelFast l1[6]) {
    Accum a1[6];
    level1_cost(c, all_orders().data(), 6, a1);
    for (int k = 0; k < 6; ++k) l1[k] = to_fast(a1[k]);
}

int64_t block_footprint(const Config& c, const Extent3& block) {
    return block_bytes(c.layout, c.dtype, block);
}

Fast evaluate_fast(const Config& c) {
    Accum a1, a2;
    level_costs(c, a1, a2);
    Fast f;
    f.l1_us = a1.us + a1.setup_us;
    f.l2_us = a2.us + a2.setup_us;
    f.l1_eff = a1.us > 0 ? a1.ideal_us / a1.us : 0;
    f.l2_eff = a2.us > 0 ? a2.ideal_us / a2.us : 0;
    f.l1_uj = a1.uj;
    f.l2_uj = a2.uj;
    return f;
}

namespace {

void describe(LevelResult& r, const std::string& layout, DType dtype, const Extent3& container,
              const Extent3& block, StrideBasis basis, const MemLevel& src,
              const char* container_name, const char* block_name) {
    const Extent3 full{std::min(block.c, container.c), std::min(block.h, container.h),
                       std::min(block.w, container.w)};
    r.source_strides = frame_strides(layout, dtype, container);
    r.dest_strides = frame_strides(layout, dtype, full);
    Dim d;
    const bool steps = stepping_dim(r.order, full, d);
    r.innermost = d;
    const auto& s = basis == StrideBasis::source ? r.source_strides : r.dest_strides;
    r.stride = steps ? s[int(d)] : 1;
    r.access_bytes = src.access_bytes;
    const int esize_bits = bits(dtype);
    const std::string es =
        esize_bits % 8 == 0 ? std::to_string(esize_bits / 8) + " B" : fmt(esize_bits / 8.0) + " B";
    const char* where = basis == StrideBasis::source ? container_name : block_name;
    const Extent3& frame = basis == StrideBasis::source ? container : full;
    std::string txt = "order " + to_string(r.order) + " steps " + dim_name(d) + " first";
    if (d != r.order.inner_to_outer[0])
        txt += std::string(" (") + dim_name(r.order.inner_to_outer[0]) + " has extent 1 in the " +
               block_name + ")";
    txt += "; in the " + std::string(where) + " " + to_string(frame) + " stored " + layout + ", " +
           dim_name(d) + " has stride " + std::to_string(r.stride);
    if (!steps) txt = "the " + std::string(block_name) + " is one element: nothing to stride over";
    const double single = access_efficiency(r.stride, esize_bits / 8.0, src.access_bytes);
    if (r.stride <= 1) {
        txt += " -> contiguous access -> eta = 0.9";
    } else {
        txt += " -> each access jumps " + std::to_string(r.stride) + " elements";
        const double plain = 1.0 / double(r.stride);
        if (single > plain)
            txt += " (" + fmt(double(r.stride) * esize_bits / 8.0, "%.6g") + " B), more than the " +
                   std::to_string(src.access_bytes) + " B " + src.name +
                   " access unit: one unit fetched per element -> eta = " + es + " / " +
                   std::to_string(src.access_bytes) + " B = " + fmt(single) +
                   " (formula (8) alone: 1/" + std::to_string(r.stride) + " = " + fmt(plain) + ")";
        else
            txt += " -> eta = " + es + " / (" + std::to_string(r.stride) + " x " + es +
                   ") = " + fmt(plain);
    }
    if (std::fabs(single - r.efficiency) > 1e-12)
        txt += "; edge " + std::string(block_name) +
               "s move with other strides: byte-weighted eta = " + fmt(r.efficiency);
    r.reasoning = txt;
}

}  // namespace

Result evaluate(const Config& c) {
    validate(c);
    Accum a1, a2;
    level_costs(c, a1, a2);
    const Extent3 tensor{c.shape[1], c.shape[2], c.shape[3]};
    Result res;
    auto fill = [](LevelResult& r, const Accum& a, double bw) {
        r.bytes = int64_t(std::llround(a.bytes));
        r.time_us = a.us + a.setup_us;
        r.setup_us = a.setup_us;
        r.energy_uj = a.uj;
        r.efficiency = a.us > 0 ? a.ideal_us / a.us : 0;
        r.bandwidth_gbps = bw;
    };
    res.l1.name = "L1 " + c.mem.dram.name + "->" + c.mem.sram.name;
    res.l1.order = c.l1_order;
    fill(res.l1, a1, std::min(c.mem.dram.bandwidth_gbps, c.mem.sram.bandwidth_gbps));
    res.l1.blocks = c.shape[0] * ceil_div(tensor.c, c.l1_tile.c) * ceil_div(tensor.h, c.l1_tile.h) *
                    ceil_div(tensor.w, c.l1_tile.w);
    describe(res.l1, c.layout, c.dtype, tensor, c.l1_tile, c.basis, c.mem.dram, "tensor", "tile");

    res.l2.name = "L2 " + c.mem.sram.name + "->" + c.mem.reg.name;
    res.l2.order = c.l2_order;
    fill(res.l2, a2, std::min(c.mem.sram.bandwidth_gbps, c.mem.reg.bandwidth_gbps));
    {
        // Sub-tiles per pass: per dimension, full tiles and the edge tile
        // hold a known number of sub-tiles; the dimensions are independent,
        // so the total is a product of per-dimension sums (one term per tile
        // class, not a loop over every tile).
        auto per_dim = [](int64_t ext, int64_t tile, int64_t sub) {
            const Split sp = split(ext, tile);
            return sp.full * ceil_div(sp.b, sub) + (sp.rem ? ceil_div(sp.rem, sub) : 0);
        };
        res.l2.blocks = checked_product({c.shape[0], per_dim(tensor.c, c.l1_tile.c, c.l2_tile.c),
                                         per_dim(tensor.h, c.l1_tile.h, c.l2_tile.h),
                                         per_dim(tensor.w, c.l1_tile.w, c.l2_tile.w)},
                                        "sub-tile count");
    }
    describe(res.l2, c.layout, c.dtype, c.l1_tile, c.l2_tile, c.basis, c.mem.sram, "tile",
             "sub-tile");

    res.total_us = res.l1.time_us + res.l2.time_us;
    res.total_energy_uj = res.l1.energy_uj + res.l2.energy_uj;
    res.tile_bytes = block_bytes(c.layout, c.dtype, c.l1_tile);
    res.subtile_bytes = block_bytes(c.layout, c.dtype, c.l2_tile);
    res.fits_sram = res.tile_bytes <= c.mem.sram.capacity_bytes;
    res.fits_registers = res.subtile_bytes <= c.mem.reg.capacity_bytes;
    return res;
}

}  // namespace ll::tiling
