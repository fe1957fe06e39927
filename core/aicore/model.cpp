#include "core/aicore/model.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "core/error.hpp"

namespace ll::aicore {

namespace {
std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}
int64_t ceil_div(int64_t a, int64_t b) {
    return (a + b - 1) / b;
}
int64_t align_up(int64_t a, int64_t al) {
    return al > 1 ? ceil_div(a, al) * al : a;
}
}  // namespace

const char* name(Unit u) {
    switch (u) {
        case Unit::scalar:
            return "Scalar";
        case Unit::mte2:
            return "MTE2";
        case Unit::mte1:
            return "MTE1";
        case Unit::cube:
            return "Cube";
        case Unit::vector:
            return "Vector";
        case Unit::fixpipe:
            return "FixPipe";
        case Unit::mte3:
            return "MTE3";
    }
    return "?";
}

const char* role(Unit u) {
    switch (u) {
        case Unit::scalar:
            return "loop control, addresses, issues the other queues";
        case Unit::mte2:
            return "GM -> L1 / UB";
        case Unit::mte1:
            return "L1 -> L0A / L0B (LoadData 2D, Load3D img2col)";
        case Unit::cube:
            return "Mmad: L0A x L0B -> L0C";
        case Unit::vector:
            return "vector ops on UB (here L0C -> UB with the cast)";
        case Unit::fixpipe:
            return "L0C -> GM with the cast and NZ -> ND / NC1HWC0";
        case Unit::mte3:
            return "UB -> GM";
    }
    return "?";
}

Unit unit_from_name(const std::string& s) {
    const std::string l = lower(s);
    for (int i = 0; i < kUnitCount; ++i)
        if (lower(name(Unit(i))) == l) return Unit(i);
    throw UsageError("unknown unit '" + s +
                     "'; expected one of Scalar, MTE2, MTE1, Cube, Vector, FixPipe, MTE3");
}

const char* name(Buf b) {
    switch (b) {
        case Buf::gm:
            return "GM";
        case Buf::l1:
            return "L1";
        case Buf::l0a:
            return "L0A";
        case Buf::l0b:
            return "L0B";
        case Buf::l0c:
            return "L0C";
        case Buf::ub:
            return "UB";
    }
    return "?";
}

// Capacities, alignments and clocks: docs/AICORE.md gives the source of each.
const std::vector<Product>& products() {
    static const std::vector<Product> v = [] {
        std::vector<Product> out;
        Product a2;
        a2.id = "a2";
        a2.name = "Atlas A2 training series (Ascend 910B)";
        a2.capacity[int(Buf::l1)] = 512 << 10;
        a2.capacity[int(Buf::l0a)] = 64 << 10;
        a2.capacity[int(Buf::l0b)] = 64 << 10;
        a2.capacity[int(Buf::l0c)] = 128 << 10;
        a2.capacity[int(Buf::ub)] = 192 << 10;
        a2.align[int(Buf::l1)] = 32;
        a2.align[int(Buf::l0a)] = 512;
        a2.align[int(Buf::l0b)] = 512;
        a2.align[int(Buf::l0c)] = 64;
        a2.align[int(Buf::ub)] = 32;
        a2.clock_ghz = 1.8;
        // 1.5 TB/s of HBM shared by 24 cores at 1.8 GHz: 34.7 B/cycle each.
        a2.gm_bytes_per_cycle = 1.5e12 / 24 / 1.8e9;
        a2.fixpipe_to_gm = true;
        a2.source = "Ascend910B2.ini [AICoreSpec]; catlass arch.hpp AtlasA2";
        out.push_back(a2);

        Product tr;
        tr.id = "training";
        tr.name = "Atlas training series (Ascend 910), the conv panel's buffers";
        tr.capacity[int(Buf::l1)] = 1 << 20;
        tr.capacity[int(Buf::l0a)] = 64 << 10;
        tr.capacity[int(Buf::l0b)] = 64 << 10;
        tr.capacity[int(Buf::l0c)] = 256 << 10;
        tr.capacity[int(Buf::ub)] = 256 << 10;
        tr.align[int(Buf::l1)] = 512;
        tr.align[int(Buf::l0a)] = 512;
        tr.align[int(Buf::l0b)] = 512;
        tr.align[int(Buf::l0c)] = 512;
        tr.align[int(Buf::ub)] = 32;
        // 256 TFLOPS fp16 over 32 cores of 4096 MACs: 0.98 GHz.
        tr.clock_ghz = 256e12 / (32 * 4096 * 2.0) / 1e9;
        // 1.2 TB/s of HBM shared by 32 cores: 38 B/cycle each.
        tr.gm_bytes_per_cycle = 1.2e12 / 32 / (tr.clock_ghz * 1e9);
        tr.fixpipe_to_gm = false;
        tr.source = "first-generation Da Vinci core (GE platform stub; conv panel)";
        out.push_back(tr);
        return out;
    }();
    return v;
}

std::string product_ids() {
    std::string s;
    for (const Product& p : products()) s += (s.empty() ? "" : ", ") + p.id;
    return s;
}

const Product& product_by_id(const std::string& id) {
    const std::string l = lower(id);
    for (const Product& p : products())
        if (p.id == l || (l == "910b" && p.id == "a2") || (l == "910" && p.id == "training"))
            return p;
    throw UsageError("unknown product '" + id + "'; expected one of " + product_ids());
}

Costs default_costs(const Product& p) {
    Costs c;
    c.clock_ghz = p.clock_ghz;
    c.mte2_bytes_per_cycle = p.gm_bytes_per_cycle;
    return c;
}

void Costs::validate() const {
    auto pos = [](const char* what, double v) {
        if (!(v > 0) || !std::isfinite(v))
            throw UsageError(std::string(what) + " is " + std::to_string(v) +
                             "; expected a positive number");
    };
    auto nonneg = [](const char* what, int64_t v) {
        if (v < 0)
            throw UsageError(std::string(what) + " is " + std::to_string(v) +
                             "; expected 0 or more cycles");
    };
    pos("MTE2 bandwidth (bytes/cycle)", mte2_bytes_per_cycle);
    pos("MTE1 L1->L0A bandwidth (bytes/cycle)", mte1_l0a_bytes_per_cycle);
    pos("MTE1 L1->L0B bandwidth (bytes/cycle)", mte1_l0b_bytes_per_cycle);
    pos("FixPipe bandwidth (bytes/cycle)", fixpipe_bytes_per_cycle);
    pos("MTE3 bandwidth (bytes/cycle)", mte3_bytes_per_cycle);
    pos("clock (GHz)", clock_ghz);
    if (cube_cycles_per_step < 1)
        throw UsageError("Cube cycles per fractal step is " + std::to_string(cube_cycles_per_step) +
                         "; expected 1 or more");
    if (vector_bytes_per_repeat < 1 || vector_cycles_per_repeat < 1)
        throw UsageError("Vector repeat is " + std::to_string(vector_bytes_per_repeat) + " B in " +
                         std::to_string(vector_cycles_per_repeat) +
                         " cycles; expected both 1 or more");
    nonneg("MTE2 latency", mte2_latency);
    nonneg("MTE1 latency", mte1_latency);
    nonneg("FixPipe latency", fixpipe_latency);
    nonneg("MTE3 latency", mte3_latency);
    nonneg("Scalar cycles per block", scalar_cycles_per_block);
}

// ---- problem ------------------------------------------------------------------------------

void Problem::validate() const {
    constexpr int64_t kMax = int64_t(1) << 24;
    auto dim = [&](const char* w, int64_t v) {
        if (v < 1 || v > kMax)
            throw UsageError(w, std::to_string(v) + "; expected 1.." + std::to_string(kMax));
    };
    dim("m", m);
    dim("k", k);
    dim("n", n);
    if (dtype != DType::fp16 && dtype != DType::bf16 && dtype != DType::int8)
        throw UsageError("dtype", std::string(ll::name(dtype)) +
                                      " has no Cube step here; expected fp16, bf16 or int8");
    if (m_pad() / 16 * (k_pad() / k0()) > (int64_t(1) << 40) / std::max<int64_t>(1, n_pad() / 16))
        throw UsageError("problem too large: more than 2^40 Cube steps; expected smaller M, K, N");
}

int64_t Problem::k0() const {
    return elems_per_32b(dtype);
}
int64_t Problem::in_bytes() const {
    return bits(dtype) / 8;
}
int64_t Problem::acc_bytes() const {
    return 4;
}
int64_t Problem::out_bytes() const {
    return dtype == DType::int8 ? 4 : 2;
}

std::string Problem::describe() const {
    char b[200];
    if (conv) {
        const exec::ConvParams& c = conv_params;
        std::snprintf(b, sizeof b,
                      "conv N%lld Cin%lld Cout%lld %lldx%lld k%lldx%lld %s through img2col = "
                      "GEMM %lldx%lldx%lld",
                      (long long)c.n, (long long)c.cin, (long long)c.cout, (long long)c.h,
                      (long long)c.w, (long long)c.win.kh, (long long)c.win.kw, ll::name(dtype),
                      (long long)m, (long long)k, (long long)n);
    } else {
        std::snprintf(b, sizeof b, "GEMM M%lld K%lld N%lld %s", (long long)m, (long long)k,
                      (long long)n, ll::name(dtype));
    }
    return b;
}

Problem gemm_problem(int64_t m, int64_t k, int64_t n, DType t) {
    Problem p;
    p.m = m;
    p.k = k;
    p.n = n;
    p.dtype = t;
    p.validate();
    return p;
}

Problem conv_problem(const exec::ConvParams& c) {
    c.validate();
    const exec::ConvShapes s = exec::conv_shapes(c);
    Problem p;
    p.conv = true;
    p.conv_params = c;
    p.dtype = c.dtype;
    p.m = s.m1 * 16;      // N * ceil(HoWo/16) fractal rows, padding rows included
    p.k = s.k1 * c.c0();  // C1 * Kh * Kw * C0
    p.n = c.cout;
    p.validate();
    if (p.cube_steps() != s.cube_ops)
        throw std::logic_error("conv problem: Cube steps disagree with conv_shapes");
    return p;
}

// ---- tiling -------------------------------------------------------------------------------

const char* name(Order o) {
    return o == Order::m_first ? "M-first" : "N-first";
}

void Tiling::set_double_buffer(bool on) {
    depth_a1 = depth_b1 = l0_slots = l0c_slots = on ? 2 : 1;
}

void Tiling::validate(const Problem& p) const {
    auto mult = [](const char* w, int64_t v, int64_t q) {
        if (v < q || v % q != 0 || v > (int64_t(1) << 20))
            throw UsageError(w, std::to_string(v) + "; expected a multiple of " +
                                    std::to_string(q) + " (a fractal)");
    };
    mult("base_m", base_m, 16);
    mult("base_n", base_n, 16);
    mult("base_k", base_k, p.k0());
    if (step_ka < 1 || step_kb < 1 || step_ka > 1024 || step_kb > 1024)
        throw UsageError("stepKa " + std::to_string(step_ka) + ", stepKb " +
                         std::to_string(step_kb) + "; expected 1..1024");
    for (int d : {depth_a1, depth_b1, l0_slots, l0c_slots})
        if (d != 1 && d != 2)
            throw UsageError("buffer depth " + std::to_string(d) +
                             "; expected 1 (single) or 2 (ping/pong)");
}

std::string Tiling::describe() const {
    char b[200];
    std::snprintf(b, sizeof b,
                  "baseM %lld baseN %lld baseK %lld stepKa %lld stepKb %lld depthA1 %d depthB1 %d "
                  "L0 %d L0C %d %s",
                  (long long)base_m, (long long)base_n, (long long)base_k, (long long)step_ka,
                  (long long)step_kb, depth_a1, depth_b1, l0_slots, l0c_slots, name(order));
    return b;
}

// ---- buffers ------------------------------------------------------------------------------

int64_t a_l1_bytes(const Problem& p, const Tiling& t) {
    const int64_t bm = std::min(t.base_m, p.m_pad());
    const int64_t kcols = std::min(t.step_ka * t.base_k, p.k_pad());
    if (!p.conv) return bm * kcols * p.in_bytes();
    // Convolution: L1 holds the NC1HWC0 rows the Load3D of this tile reads,
    // not the img2col matrix. bm output pixels span at most ceil(bm/Wo)+1
    // output rows; those need (rows-1)*stride + (kh-1)*dilation + 1 input rows
    // (at most H); kcols/C0 fractal columns (c1, kh, kw) touch at most
    // ceil(.../(Kh*Kw))+1 channel groups (at most C1).
    const exec::ConvParams& c = p.conv_params;
    const int64_t wo = c.out_w(), ho = c.out_h();
    const int64_t out_rows = std::min(ho, ceil_div(bm, wo) + 1);
    const int64_t in_rows =
        std::min(c.h, (out_rows - 1) * c.win.stride_h + (c.win.kh - 1) * c.win.dil_h + 1);
    const int64_t c1 = ceil_div(c.cin, c.c0());
    const int64_t kf = kcols / c.c0(), khw = c.win.kh * c.win.kw;
    const int64_t c1s = kf >= c1 * khw ? c1 : std::min(c1, ceil_div(kf, khw) + 1);
    return c1s * in_rows * c.w * c.c0() * p.in_bytes();
}

int64_t b_l1_bytes(const Problem& p, const Tiling& t) {
    return std::min(t.step_kb * t.base_k, p.k_pad()) * std::min(t.base_n, p.n_pad()) * p.in_bytes();
}

int64_t l1_footprint(const Problem& p, const Tiling& t) {
    return t.depth_a1 * a_l1_bytes(p, t) + t.depth_b1 * b_l1_bytes(p, t);
}

const BufferUse* BufferMap::find(Buf b) const {
    for (const BufferUse& u : buffers)
        if (u.buf == b) return &u;
    return nullptr;
}

const Placement& BufferMap::slot(Buf b, int operand, int s) const {
    const BufferUse* u = find(b);
    if (u)
        for (const Placement& p : u->slots)
            if (p.operand == operand && p.slot == s) return p;
    throw std::out_of_range("BufferMap::slot");
}

std::string human_bytes(int64_t b) {
    char s[32];
    if (b >= (int64_t(1) << 20) && b % (int64_t(1) << 20) == 0)
        std::snprintf(s, sizeof s, "%lld MiB", (long long)(b >> 20));
    else if (b >= (int64_t(1) << 20))
        std::snprintf(s, sizeof s, "%.2f MiB", double(b) / (1 << 20));
    else if (b >= 1024 && b % 1024 == 0)
        std::snprintf(s, sizeof s, "%lld KiB", (long long)(b >> 10));
    else if (b >= 1024)
        std::snprintf(s, sizeof s, "%.1f KiB", double(b) / 1024);
    else
        std::snprintf(s, sizeof s, "%lld B", (long long)b);
    return s;
}

namespace {
const char* ping_pong(int slot, int depth) {
    if (depth == 1) return "single";
    return slot == 0 ? "ping" : "pong";
}
std::string hex(int64_t a) {
    char b[24];
    std::snprintf(b, sizeof b, "0x%llx", (unsigned long long)a);
    return b;
}
}  // namespace

void check_placements(const BufferUse& b) {
    for (size_t i = 0; i < b.slots.size(); ++i) {
        const Placement& p = b.slots[i];
        if (p.addr < 0 || p.addr + p.bytes > b.capacity)
            throw UsageError("tile '" + p.tile + "' (" + human_bytes(p.bytes) + " at " +
                             hex(p.addr) + ") runs past the end of " + name(b.buf) + " (" +
                             human_bytes(b.capacity) +
                             "); expected a smaller tiling (baseM, "
                             "baseN, baseK, stepKa/stepKb) or single buffering");
        for (size_t j = 0; j < i; ++j) {
            const Placement& q = b.slots[j];
            if (p.addr < q.addr + q.bytes && q.addr < p.addr + p.bytes)
                throw UsageError("tiles '" + q.tile + "' [" + hex(q.addr) + ", " +
                                 hex(q.addr + q.bytes) + ") and '" + p.tile + "' [" + hex(p.addr) +
                                 ", " + hex(p.addr + p.bytes) + ") overlap in " + name(b.buf) +
                                 "; expected disjoint slots");
        }
    }
}

BufferMap place(const Problem& p, const Tiling& t, const Product& prod) {
    p.validate();
    t.validate(p);
    BufferMap map;
    auto buffer = [&](Buf b) -> BufferUse& {
        map.buffers.push_back(BufferUse{b, prod.capacity[int(b)], 0, {}});
        return map.buffers.back();
    };
    auto add = [&](BufferUse& u, const char* tile, int operand, int depth, int64_t bytes) {
        for (int s = 0; s < depth; ++s) {
            const int64_t addr = align_up(u.peak, prod.align[int(u.buf)]);
            u.slots.push_back(Placement{u.buf, std::string(tile) + " " + ping_pong(s, depth),
                                        operand, s, addr, bytes});
            u.peak = addr + bytes;
        }
    };
    const int64_t bm = std::min(t.base_m, p.m_pad()), bn = std::min(t.base_n, p.n_pad());
    const int64_t bk = std::min(t.base_k, p.k_pad());
    BufferUse& l1 = buffer(Buf::l1);
    add(l1, p.conv ? "A1 (NC1HWC0 rows)" : "A1", 0, t.depth_a1, a_l1_bytes(p, t));
    add(l1, "B1", 1, t.depth_b1, b_l1_bytes(p, t));
    BufferUse& l0a = buffer(Buf::l0a);
    add(l0a, "A2", 0, t.l0_slots, bm * bk * p.in_bytes());
    BufferUse& l0b = buffer(Buf::l0b);
    add(l0b, "B2", 1, t.l0_slots, bk * bn * p.in_bytes());
    BufferUse& l0c = buffer(Buf::l0c);
    add(l0c, "CO1", 2, t.l0c_slots, bm * bn * p.acc_bytes());
    if (!prod.fixpipe_to_gm) {
        BufferUse& ub = buffer(Buf::ub);
        add(ub, "C out", 3, t.l0c_slots, bm * bn * p.out_bytes());
    }
    for (const BufferUse& u : map.buffers) check_placements(u);
    return map;
}

}  // namespace ll::aicore
