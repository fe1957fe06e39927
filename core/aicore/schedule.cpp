// Sections: [names] op names, [run] the program and its discrete-event run,
// [checks] bounds and slot lifetimes, [views] hover text, occupancy, trace, CSV.
#include "core/aicore/schedule.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/error.hpp"

namespace ll::aicore {

// ---- [names] ------------------------------------------------------------------------------

const char* name(Op op) {
    switch (op) {
        case Op::block_setup:
            return "block setup";
        case Op::load_a_l1:
            return "copy GM->L1 (A)";
        case Op::load_b_l1:
            return "copy GM->L1 (B)";
        case Op::load_a_l0:
            return "LoadData L1->L0A";
        case Op::load_b_l0:
            return "LoadData L1->L0B";
        case Op::mmad:
            return "Mmad";
        case Op::fixpipe_out:
            return "FixPipe L0C->GM";
        case Op::vector_move:
            return "Vector L0C->UB";
        case Op::mte3_out:
            return "copy UB->GM";
    }
    return "?";
}

namespace {
int64_t ceil_div(int64_t a, int64_t b) {
    return (a + b - 1) / b;
}
int64_t xfer(int64_t bytes, double bw, int64_t lat) {
    return lat + int64_t(std::ceil(double(bytes) / bw - 1e-9));
}
}  // namespace

int64_t cost_of(const Instr& in, const Costs& c) {
    switch (in.op) {
        case Op::block_setup:
            return c.scalar_cycles_per_block;
        case Op::load_a_l1:
        case Op::load_b_l1:
            return xfer(in.bytes, c.mte2_bytes_per_cycle, c.mte2_latency);
        case Op::load_a_l0:
            return xfer(in.bytes, c.mte1_l0a_bytes_per_cycle, c.mte1_latency);
        case Op::load_b_l0:
            return xfer(in.bytes, c.mte1_l0b_bytes_per_cycle, c.mte1_latency);
        case Op::mmad:
            return in.steps * c.cube_cycles_per_step;
        case Op::fixpipe_out:
            return xfer(in.bytes, c.fixpipe_bytes_per_cycle, c.fixpipe_latency);
        case Op::vector_move:
            return ceil_div(in.rows * in.cols * 4, c.vector_bytes_per_repeat) *
                   c.vector_cycles_per_repeat;
        case Op::mte3_out:
            return xfer(in.bytes, c.mte3_bytes_per_cycle, c.mte3_latency);
    }
    return 0;
}

// ---- [run] --------------------------------------------------------------------------------

namespace {

struct Dep {
    int32_t id = -1;
    int64_t end = 0;
};

// One conv A tile in L1: the NC1HWC0 rows for `rows` output pixels.
int64_t conv_a_bytes(const Problem& p, const Tiling& t, int64_t rows, int64_t kcols) {
    Tiling u = t;
    u.base_m = rows;
    u.step_ka = 1;
    u.base_k = kcols;
    return a_l1_bytes(p, u);
}

class Runner {
  public:
    Runner(Schedule& s, bool keep) : s_(s), keep_(keep) {}

    Dep emit(Instr& in, std::initializer_list<Dep> deps) {
        int64_t start = free_[int(in.unit)];
        for (const Dep& d : deps) {
            if (d.id < 0) continue;
            start = std::max(start, d.end);
            if (in.n_wait < 3) in.wait[in.n_wait++] = d.id;
        }
        const int64_t cost = cost_of(in, s_.costs);
        in.start = start;
        in.end = start + cost;
        free_[int(in.unit)] = in.end;
        UnitStats& u = s_.units[int(in.unit)];
        u.busy += cost;
        ++u.count;
        const int32_t id = next_id_++;
        if (keep_) s_.instrs.push_back(in);
        return Dep{id, in.end};
    }
    // A new tile in (buf, operand, slot): closes the slot's previous life.
    void open_life(Buf b, int operand, int slot, const Dep& writer, int64_t start, int32_t block) {
        if (!keep_) return;
        live_index_[key(b, operand, slot)] = int32_t(s_.lives.size());
        s_.lives.push_back(Live{b, operand, slot, writer.id, block, start, writer.end});
    }
    void read_life(Buf b, int operand, int slot, int64_t end) {
        if (!keep_) return;
        const int32_t i = live_index_[key(b, operand, slot)];
        if (i >= 0) s_.lives[size_t(i)].end = std::max(s_.lives[size_t(i)].end, end);
    }
    int64_t start_of_last() const { return keep_ ? s_.instrs.back().start : 0; }
    int64_t free_[kUnitCount] = {};

  private:
    static int key(Buf b, int operand, int slot) { return (int(b) * 4 + operand) * 2 + slot; }
    Schedule& s_;
    bool keep_;
    int32_t next_id_ = 0;
    int32_t live_index_[kBufCount * 4 * 2] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                              -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                              -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                              -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
};

}  // namespace

Schedule simulate(const Problem& p, const Tiling& t, const Product& prod, const Costs& c, bool keep,
                  int64_t max_blocks, int64_t first_block) {
    c.validate();
    Schedule s;
    s.problem = p;
    s.tiling = t;
    s.product_id = prod.id;
    s.costs = c;
    s.buffers = place(p, t, prod);  // validates p and t, throws when a slot does not fit
    const int64_t M = p.m_pad(), K = p.k_pad(), N = p.n_pad();
    const int64_t mb = ceil_div(M, t.base_m), nb = ceil_div(N, t.base_n);
    const int64_t kc_n = ceil_div(K, t.base_k);
    s.blocks = mb * nb;
    s.k_chunks = kc_n;
    if (keep) {
        const int64_t est = s.blocks * (kc_n * 3 + kc_n * 2 / std::max<int64_t>(1, t.step_ka) + 3);
        if (est > 5'000'000)
            throw UsageError(
                "the schedule would hold about " + std::to_string(est) +
                " instructions; expected at most 5000000 (larger base sizes or stepK)");
        s.instrs.reserve(size_t(est));
    }
    Runner r(s, keep);
    const bool a2 = prod.fixpipe_to_gm;
    auto addr = [&](Buf b, int operand, int slot) { return s.buffers.slot(b, operand, slot).addr; };
    // Slot state: the flag of the last reader (a writer waits for it), the
    // flag of the writer (a reader waits for it) and which tile it holds.
    Dep a1_reader[2], b1_reader[2], a1_writer[2], b1_writer[2];
    int64_t a1_holds[2] = {-1, -1}, b1_holds[2] = {-1, -1};
    int a1_next = 0, b1_next = 0, a1_cur = -1, b1_cur = -1;
    Dep l0a_reader[2], l0b_reader[2], l0c_reader[2], ub_reader[2];
    int l0_next = 0;
    const int64_t ks_a = ceil_div(kc_n, t.step_ka), ks_b = ceil_div(kc_n, t.step_kb);
    s.first_cube_start = -1;

    const int64_t outer = t.order == Order::m_first ? nb : mb;
    const int64_t inner = t.order == Order::m_first ? mb : nb;
    int32_t block = 0;
    const int64_t first = std::max<int64_t>(0, first_block);
    const int64_t stop = max_blocks >= 0 ? std::min(first + max_blocks, s.blocks) : s.blocks;
    for (int64_t o = 0; o < outer && block < stop; ++o) {
        for (int64_t i = 0; i < inner && block < stop; ++i, ++block) {
            if (block < first) continue;
            const int64_t mi = t.order == Order::m_first ? i : o;
            const int64_t ni = t.order == Order::m_first ? o : i;
            const int64_t m0 = mi * t.base_m, n0 = ni * t.base_n;
            const int64_t bm = std::min(t.base_m, M - m0), bn = std::min(t.base_n, N - n0);
            Instr base;
            base.block = block;
            base.mi = int32_t(mi);
            base.ni = int32_t(ni);

            Instr setup = base;
            setup.unit = Unit::scalar;
            setup.op = Op::block_setup;
            Dep scalar = r.emit(setup, {});
            bool scalar_pending = true;
            const int cs = int(block % t.l0c_slots);
            Dep last_mmad;
            for (int64_t kc = 0; kc < kc_n; ++kc) {
                const int64_t k0 = kc * t.base_k, bk = std::min(t.base_k, K - k0);
                if (kc % t.step_ka == 0) {
                    const int64_t stage = kc / t.step_ka;
                    const int64_t tile = mi * ks_a + stage;
                    if (!(a1_cur >= 0 && a1_holds[a1_cur] == tile)) {
                        const int sl = a1_next;
                        a1_next = (a1_next + 1) % t.depth_a1;
                        const int64_t kcols = std::min(t.step_ka * t.base_k, K - k0);
                        Instr in = base;
                        in.unit = Unit::mte2;
                        in.op = Op::load_a_l1;
                        in.src = Buf::gm;
                        in.dst = Buf::l1;
                        in.slot = int8_t(sl);
                        in.k = int32_t(stage);
                        in.addr = addr(Buf::l1, 0, sl);
                        in.rows = bm;
                        in.cols = kcols;
                        in.bytes =
                            p.conv ? conv_a_bytes(p, t, bm, kcols) : bm * kcols * p.in_bytes();
                        s.gm_read_bytes += in.bytes;
                        a1_writer[sl] =
                            r.emit(in, {scalar_pending ? scalar : Dep{}, a1_reader[sl]});
                        scalar_pending = false;
                        r.open_life(Buf::l1, 0, sl, a1_writer[sl], r.start_of_last(), block);
                        a1_reader[sl] = Dep{};
                        a1_holds[sl] = tile;
                        a1_cur = sl;
                    }
                }
                if (kc % t.step_kb == 0) {
                    const int64_t stage = kc / t.step_kb;
                    const int64_t tile = ni * ks_b + stage;
                    if (!(b1_cur >= 0 && b1_holds[b1_cur] == tile)) {
                        const int sl = b1_next;
                        b1_next = (b1_next + 1) % t.depth_b1;
                        const int64_t krows = std::min(t.step_kb * t.base_k, K - k0);
                        Instr in = base;
                        in.unit = Unit::mte2;
                        in.op = Op::load_b_l1;
                        in.src = Buf::gm;
                        in.dst = Buf::l1;
                        in.slot = int8_t(sl);
                        in.k = int32_t(stage);
                        in.addr = addr(Buf::l1, 1, sl);
                        in.rows = krows;
                        in.cols = bn;
                        in.bytes = krows * bn * p.in_bytes();
                        s.gm_read_bytes += in.bytes;
                        b1_writer[sl] =
                            r.emit(in, {scalar_pending ? scalar : Dep{}, b1_reader[sl]});
                        scalar_pending = false;
                        r.open_life(Buf::l1, 1, sl, b1_writer[sl], r.start_of_last(), block);
                        b1_reader[sl] = Dep{};
                        b1_holds[sl] = tile;
                        b1_cur = sl;
                    }
                }
                const int l0 = l0_next;
                l0_next = (l0_next + 1) % t.l0_slots;
                Instr la = base;
                la.unit = Unit::mte1;
                la.op = Op::load_a_l0;
                la.src = Buf::l1;
                la.dst = Buf::l0a;
                la.slot = int8_t(l0);
                la.k = int32_t(kc);
                la.addr = addr(Buf::l0a, 0, l0);
                la.rows = bm;
                la.cols = bk;
                la.bytes = bm * bk * p.in_bytes();
                const Dep da = r.emit(
                    la, {a1_writer[a1_cur], l0a_reader[l0], scalar_pending ? scalar : Dep{}});
                scalar_pending = false;
                r.read_life(Buf::l1, 0, a1_cur, da.end);
                a1_reader[a1_cur] = da;
                r.open_life(Buf::l0a, 0, l0, da, r.start_of_last(), block);

                Instr lb = base;
                lb.unit = Unit::mte1;
                lb.op = Op::load_b_l0;
                lb.src = Buf::l1;
                lb.dst = Buf::l0b;
                lb.slot = int8_t(l0);
                lb.k = int32_t(kc);
                lb.addr = addr(Buf::l0b, 1, l0);
                lb.rows = bk;
                lb.cols = bn;
                lb.bytes = bk * bn * p.in_bytes();
                const Dep db = r.emit(lb, {b1_writer[b1_cur], l0b_reader[l0]});
                r.read_life(Buf::l1, 1, b1_cur, db.end);
                b1_reader[b1_cur] = db;
                r.open_life(Buf::l0b, 1, l0, db, r.start_of_last(), block);

                Instr mm = base;
                mm.unit = Unit::cube;
                mm.op = Op::mmad;
                mm.src = Buf::l0a;
                mm.dst = Buf::l0c;
                mm.slot = int8_t(cs);
                mm.k = int32_t(kc);
                mm.addr = addr(Buf::l0c, 2, cs);
                mm.rows = bm;
                mm.cols = bn;
                mm.depth = bk;
                mm.steps = (bm / 16) * (bk / p.k0()) * (bn / 16);
                mm.bytes = bm * bn * p.acc_bytes();
                s.cube_steps += mm.steps;
                last_mmad = r.emit(mm, {da, db, kc == 0 ? l0c_reader[cs] : Dep{}});
                const int64_t mm_start = last_mmad.end - cost_of(mm, c);
                if (s.first_cube_start < 0) s.first_cube_start = mm_start;
                s.last_cube_end = last_mmad.end;
                r.read_life(Buf::l0a, 0, l0, last_mmad.end);
                r.read_life(Buf::l0b, 1, l0, last_mmad.end);
                l0a_reader[l0] = last_mmad;
                l0b_reader[l0] = last_mmad;
                if (kc == 0) r.open_life(Buf::l0c, 2, cs, last_mmad, mm_start, block);
            }
            // Output rows/columns that exist (padding rows are not written back).
            const int64_t rows = std::max<int64_t>(0, std::min(bm, p.m - m0));
            const int64_t cols = std::max<int64_t>(0, std::min(bn, p.n - n0));
            if (a2) {
                Instr fx = base;
                fx.unit = Unit::fixpipe;
                fx.op = Op::fixpipe_out;
                fx.src = Buf::l0c;
                fx.dst = Buf::gm;
                fx.slot = int8_t(cs);
                fx.rows = rows;
                fx.cols = cols;
                fx.bytes = rows * cols * p.out_bytes();
                s.gm_write_bytes += fx.bytes;
                const Dep d = r.emit(fx, {last_mmad});
                r.read_life(Buf::l0c, 2, cs, d.end);
                l0c_reader[cs] = d;
            } else {
                Instr vm = base;
                vm.unit = Unit::vector;
                vm.op = Op::vector_move;
                vm.src = Buf::l0c;
                vm.dst = Buf::ub;
                vm.slot = int8_t(cs);
                vm.addr = addr(Buf::ub, 3, cs);
                vm.rows = bm;
                vm.cols = bn;
                vm.bytes = bm * bn * p.out_bytes();
                const Dep dv = r.emit(vm, {last_mmad, ub_reader[cs]});
                r.read_life(Buf::l0c, 2, cs, dv.end);
                l0c_reader[cs] = dv;
                r.open_life(Buf::ub, 3, cs, dv, r.start_of_last(), block);
                Instr out = base;
                out.unit = Unit::mte3;
                out.op = Op::mte3_out;
                out.src = Buf::ub;
                out.dst = Buf::gm;
                out.slot = int8_t(cs);
                out.rows = rows;
                out.cols = cols;
                out.bytes = rows * cols * p.out_bytes();
                s.gm_write_bytes += out.bytes;
                const Dep d3 = r.emit(out, {dv});
                r.read_life(Buf::ub, 3, cs, d3.end);
                ub_reader[cs] = d3;
            }
        }
    }
    for (int u = 0; u < kUnitCount; ++u) s.total_cycles = std::max(s.total_cycles, r.free_[u]);
    int best = int(Unit::mte2);
    for (int u = 0; u < kUnitCount; ++u) {
        UnitStats& st = s.units[u];
        st.utilisation = s.total_cycles ? double(st.busy) / double(s.total_cycles) : 0;
        if (st.busy > s.units[best].busy) best = u;
    }
    s.bound = Unit(best);
    return s;
}

// ---- [checks] -----------------------------------------------------------------------------

int64_t Schedule::sum_busy() const {
    int64_t t = 0;
    for (const UnitStats& u : units) t += u.busy;
    return t;
}

std::vector<Check> Schedule::checks() const {
    std::vector<Check> out;
    for (int u = 0; u < kUnitCount; ++u) {
        if (!units[u].count) continue;
        out.push_back({std::string("total >= ") + name(Unit(u)) + " busy", total_cycles,
                       units[u].busy, total_cycles >= units[u].busy});
    }
    const int64_t want = problem.cube_steps() * costs.cube_cycles_per_step;
    out.push_back({"Cube busy == fractal steps x cycles/step", units[int(Unit::cube)].busy, want,
                   units[int(Unit::cube)].busy == want});
    out.push_back({"total <= sum of all busy (the critical path is never idle)", total_cycles,
                   sum_busy(), total_cycles <= sum_busy()});
    return out;
}

void Schedule::check_lives() const {
    // Per (buffer, operand, slot), lives are opened in program order.
    std::vector<const Live*> last(kBufCount * 4 * 2, nullptr);
    for (const Live& l : lives) {
        const Live*& prev = last[size_t((int(l.buf) * 4 + l.operand) * 2 + l.slot)];
        if (prev && l.start < prev->end) {
            const Placement& pl = buffers.slot(l.buf, l.operand, l.slot);
            throw UsageError("two live tiles overlap in " + pl.tile + " of " + name(l.buf) +
                             ": block " + std::to_string(prev->block) +
                             "'s tile lives until cycle " + std::to_string(prev->end) +
                             " and block " + std::to_string(l.block) + "'s is written from cycle " +
                             std::to_string(l.start));
        }
        prev = &l;
    }
}

// ---- [views] ------------------------------------------------------------------------------

std::string describe(const Schedule& s, int32_t id) {
    if (id < 0 || size_t(id) >= s.instrs.size()) return "";
    const Instr& in = s.instrs[size_t(id)];
    char b[512];
    std::string out = std::string(name(in.unit)) + ": " + name(in.op);
    if (in.op == Op::load_a_l0 && s.problem.conv) out = "MTE1: Load3D (img2col) L1->L0A";
    if (in.op == Op::load_a_l1 && s.problem.conv) out = "MTE2: copy GM->L1 (A, NC1HWC0 rows)";
    std::snprintf(b, sizeof b, "\nblock %d (m %d, n %d)%s", in.block, in.mi, in.ni,
                  in.op == Op::block_setup ? "" : (", k " + std::to_string(in.k)).c_str());
    out += b;
    if (in.op == Op::mmad) {
        std::snprintf(b, sizeof b, "\n%lldx%lldx%lld = %lld fractal steps into L0C slot %d",
                      (long long)in.rows, (long long)in.depth, (long long)in.cols,
                      (long long)in.steps, in.slot);
        out += b;
    } else if (in.op != Op::block_setup) {
        std::string dst = name(in.dst);
        if (in.dst != Buf::gm) {
            const int operand = in.dst == Buf::l1    ? (in.op == Op::load_a_l1 ? 0 : 1)
                                : in.dst == Buf::l0a ? 0
                                : in.dst == Buf::l0b ? 1
                                : in.dst == Buf::ub  ? 3
                                                     : 2;
            dst = s.buffers.slot(in.dst, operand, in.slot).tile + " in " + name(in.dst);
        }
        std::snprintf(b, sizeof b, "\n%s -> %s at 0x%llx\n%lld x %lld elements, %s", name(in.src),
                      dst.c_str(), (unsigned long long)in.addr, (long long)in.rows,
                      (long long)in.cols, human_bytes(in.bytes).c_str());
        out += b;
    }
    std::snprintf(b, sizeof b, "\ncycles %lld .. %lld (%lld)", (long long)in.start,
                  (long long)in.end, (long long)(in.end - in.start));
    out += b;
    for (int w = 0; w < in.n_wait; ++w) {
        const Instr& d = s.instrs[size_t(in.wait[w])];
        std::snprintf(b, sizeof b, "\nwait_flag %s->%s (#%d %s, set at %lld)", name(d.unit),
                      name(in.unit), in.wait[w], name(d.op), (long long)d.end);
        out += b;
    }
    // Flags this instruction sets: later instructions that wait for it.
    int shown = 0;
    const size_t stop = std::min(s.instrs.size(), size_t(id) + 4096);
    for (size_t j = size_t(id) + 1; j < stop && shown < 4; ++j) {
        const Instr& d = s.instrs[j];
        for (int w = 0; w < d.n_wait; ++w)
            if (d.wait[w] == id) {
                std::snprintf(b, sizeof b, "\nset_flag %s->%s (for #%zu %s)", name(in.unit),
                              name(d.unit), j, name(d.op));
                out += b;
                ++shown;
            }
    }
    return out;
}

std::vector<Occupancy> occupancy_at(const Schedule& s, int64_t cycle) {
    std::vector<Occupancy> out;
    for (const BufferUse& u : s.buffers.buffers) {
        Occupancy o;
        o.buf = u.buf;
        o.capacity = u.capacity;
        o.slot_live.assign(u.slots.size(), 0);
        o.slot_block.assign(u.slots.size(), -1);
        out.push_back(o);
    }
    for (const Live& l : s.lives) {
        if (!(l.start <= cycle && cycle < l.end)) continue;
        for (size_t b = 0; b < out.size(); ++b) {
            if (out[b].buf != l.buf) continue;
            const BufferUse& u = s.buffers.buffers[b];
            for (size_t k = 0; k < u.slots.size(); ++k)
                if (u.slots[k].operand == l.operand && u.slots[k].slot == l.slot) {
                    out[b].slot_live[k] = 1;
                    out[b].slot_block[k] = l.block;
                    out[b].live_bytes += u.slots[k].bytes;
                }
        }
    }
    return out;
}

std::string chrome_trace(const Schedule& s) {
    using nlohmann::json;
    const double us_per_cycle = 1.0 / (s.costs.clock_ghz * 1e3);
    json ev = json::array();
    ev.push_back({{"name", "process_name"},
                  {"ph", "M"},
                  {"pid", 1},
                  {"args", {{"name", "AI Core: " + s.problem.describe()}}}});
    for (int u = 0; u < kUnitCount; ++u) {
        ev.push_back({{"name", "thread_name"},
                      {"ph", "M"},
                      {"pid", 1},
                      {"tid", u},
                      {"args", {{"name", name(Unit(u))}}}});
        ev.push_back({{"name", "thread_sort_index"},
                      {"ph", "M"},
                      {"pid", 1},
                      {"tid", u},
                      {"args", {{"sort_index", u}}}});
    }
    int64_t flow = 0;
    for (size_t i = 0; i < s.instrs.size(); ++i) {
        const Instr& in = s.instrs[i];
        json args = {{"id", i},
                     {"block", in.block},
                     {"mi", in.mi},
                     {"ni", in.ni},
                     {"k", in.k},
                     {"src", name(in.src)},
                     {"dst", name(in.dst)},
                     {"slot", in.slot},
                     {"bytes", in.bytes},
                     {"start_cycle", in.start},
                     {"end_cycle", in.end}};
        if (in.op == Op::mmad) args["fractal_steps"] = in.steps;
        ev.push_back({{"name", name(in.op)},
                      {"cat", name(in.unit)},
                      {"ph", "X"},
                      {"pid", 1},
                      {"tid", int(in.unit)},
                      {"ts", double(in.start) * us_per_cycle},
                      {"dur", double(in.end - in.start) * us_per_cycle},
                      {"args", args}});
        for (int w = 0; w < in.n_wait; ++w) {
            const Instr& d = s.instrs[size_t(in.wait[w])];
            const std::string fname = std::string("flag ") + name(d.unit) + "->" + name(in.unit);
            ev.push_back({{"name", fname},
                          {"cat", "flag"},
                          {"ph", "s"},
                          {"id", flow},
                          {"pid", 1},
                          {"tid", int(d.unit)},
                          {"ts", double(d.end) * us_per_cycle - 1e-6}});
            ev.push_back({{"name", fname},
                          {"cat", "flag"},
                          {"ph", "f"},
                          {"bp", "e"},
                          {"id", flow},
                          {"pid", 1},
                          {"tid", int(in.unit)},
                          {"ts", double(in.start) * us_per_cycle}});
            ++flow;
        }
    }
    json j = {{"traceEvents", ev}, {"displayTimeUnit", "ns"}};
    j["otherData"] = {{"problem", s.problem.describe()},
                      {"tiling", s.tiling.describe()},
                      {"product", s.product_id},
                      {"total_cycles", s.total_cycles},
                      {"clock_ghz", s.costs.clock_ghz}};
    return j.dump() + "\n";
}

std::string instructions_csv(const Schedule& s) {
    std::string out = "id,unit,op,block,mi,ni,k,src,dst,slot,addr,bytes,steps,start,end,waits\n";
    char line[320];
    for (size_t i = 0; i < s.instrs.size(); ++i) {
        const Instr& in = s.instrs[i];
        std::string waits;
        for (int w = 0; w < in.n_wait; ++w) waits += (w ? " " : "") + std::to_string(in.wait[w]);
        std::snprintf(line, sizeof line,
                      "%zu,%s,%s,%d,%d,%d,%d,%s,%s,%d,%lld,%lld,%lld,%lld,%lld,%s\n", i,
                      name(in.unit), name(in.op), in.block, in.mi, in.ni, in.k, name(in.src),
                      name(in.dst), in.slot, (long long)in.addr, (long long)in.bytes,
                      (long long)in.steps, (long long)in.start, (long long)in.end, waits.c_str());
        out += line;
    }
    return out;
}

}  // namespace ll::aicore
