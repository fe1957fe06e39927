// The schedule of a tiled Matmul (or conv through img2col) on one AI Core:
// the program every queue runs, in order, with set_flag / wait_flag events
// between units, and a discrete-event run of it.
//
// The program, per output block (baseM x baseN, visited M-first or N-first):
//   Scalar  setup of the block (loop control, addresses)
//   for each baseK chunk kc:
//     MTE2  GM -> L1 A tile (every stepKa chunks; skipped while the tile in L1
//           is the one needed) and B tile (every stepKb chunks)
//     MTE1  L1 -> L0A (LoadData 2D, or Load3D img2col for conv), L1 -> L0B
//     Cube  Mmad L0A x L0B -> L0C (accumulates over kc)
//   FixPipe L0C -> GM (A2), or Vector L0C -> UB then MTE3 UB -> GM (training)
// Every read of a slot waits for the flag its writer sets at its end; every
// write of a slot waits for the flag the slot's last reader sets when done.
// With one slot per tile (single buffering) the next load therefore waits for
// the current tile's consumer; with ping/pong it overlaps.
//
// Contract: simulate() gives each instruction start = max(end of the one
// before it in its queue, end of every instruction it waits on) and
// end = start + its cost (model.hpp). Each queue runs in order and a wait
// blocks only its own queue. Worked example (tests/core/aicore_golden_test):
// GEMM 32x32x32 fp16, base 16/16/16, single buffering on A2.
//
// Properties (tests/core/aicore_properties_test): total >= every unit's busy
// cycles; total <= the sum of all busy cycles; Cube busy = fractal steps x
// cycles per step; no two tiles of one slot are live at the same time; double
// buffering is never slower than single.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/aicore/model.hpp"

namespace ll::aicore {

enum class Op : uint8_t {
    block_setup,
    load_a_l1,
    load_b_l1,
    load_a_l0,
    load_b_l0,
    mmad,
    fixpipe_out,
    vector_move,
    mte3_out
};
const char* name(Op op);  // "copy GM->L1 (A)"

struct Instr {
    Unit unit = Unit::scalar;
    Op op = Op::block_setup;
    Buf src = Buf::gm, dst = Buf::gm;
    int8_t slot = 0;  // slot written (ping 0, pong 1)
    int8_t n_wait = 0;
    int32_t block = 0;               // output block, in visiting order (the colour)
    int32_t mi = 0, ni = 0;          // output block indices
    int32_t k = 0;                   // k chunk (L0, Mmad) or k stage (L1 loads)
    int32_t wait[3] = {-1, -1, -1};  // instructions on other units it waits for
    int64_t addr = 0;                // destination address in dst
    int64_t bytes = 0;               // bytes moved (Mmad: bytes written to L0C)
    int64_t rows = 0, cols = 0;      // elements moved or the Mmad's m x n
    int64_t depth = 0;               // Mmad's k
    int64_t steps = 0;               // Mmad fractal steps
    int64_t start = 0, end = 0;
};

// A tile's life in one slot: written by `writer`, read until `end`.
struct Live {
    Buf buf = Buf::l1;
    int operand = 0, slot = 0;
    int32_t writer = -1, block = 0;
    int64_t start = 0, end = 0;
};

struct UnitStats {
    int64_t busy = 0;        // cycles spent executing
    int64_t count = 0;       // instructions
    double utilisation = 0;  // busy / total
};

struct Check {
    std::string what;  // "total >= Cube busy"
    int64_t lhs = 0, rhs = 0;
    bool ok = false;
};

struct Schedule {
    Problem problem;
    Tiling tiling;
    std::string product_id;
    Costs costs;
    BufferMap buffers;
    std::vector<Instr> instrs;  // empty when simulated with keep = false
    std::vector<Live> lives;    // likewise
    int64_t total_cycles = 0;
    int64_t cube_steps = 0;
    int64_t blocks = 0, k_chunks = 0;
    int64_t gm_read_bytes = 0, gm_write_bytes = 0;
    int64_t first_cube_start = 0, last_cube_end = 0;  // prologue / epilogue edges
    UnitStats units[kUnitCount];
    Unit bound = Unit::cube;  // the unit with the most busy cycles
    double micros() const { return double(total_cycles) / (costs.clock_ghz * 1e3); }
    int64_t max_busy() const { return units[int(bound)].busy; }
    int64_t sum_busy() const;
    // Lower/upper bounds and identities the run must satisfy, each evaluated.
    std::vector<Check> checks() const;
    // Live tiles of each (buffer, slot) never overlap in time; UsageError naming both.
    void check_lives() const;
};

// Throws UsageError for a bad problem/tiling/costs or a tiling that does not fit.
// max_blocks >= 0 runs only max_blocks output blocks from block first_block
// on, from an idle core (the sweep's estimate of large problems, see
// sweep.hpp); -1 runs them all.
Schedule simulate(const Problem& p, const Tiling& t, const Product& prod, const Costs& c,
                  bool keep = true, int64_t max_blocks = -1, int64_t first_block = 0);

// The cost in cycles of one instruction of the program (for tests and hover text).
int64_t cost_of(const Instr& in, const Costs& c);

// Hover text: what it moves, from where to where, bytes, the flags it waits on
// and sets (which instructions, which units), start/end.
std::string describe(const Schedule& s, int32_t id);

// Buffers at cycle t: bytes live per buffer, and which slots hold a tile.
struct Occupancy {
    Buf buf = Buf::l1;
    int64_t capacity = 0, live_bytes = 0;
    std::vector<int8_t> slot_live;    // per Placement of the buffer (map order)
    std::vector<int32_t> slot_block;  // block of the tile in it, -1 when empty
};
std::vector<Occupancy> occupancy_at(const Schedule& s, int64_t cycle);

// Chrome trace-event JSON (Perfetto, chrome://tracing): one track per unit,
// one complete event per instruction, flow arrows from each set_flag to its wait_flag.
std::string chrome_trace(const Schedule& s);
// One row per instruction: id, unit, op, block, mi, ni, k, src, dst, slot, addr,
// bytes, steps, start, end, waits.
std::string instructions_csv(const Schedule& s);

}  // namespace ll::aicore
