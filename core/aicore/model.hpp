// A small, explicit model of one Da Vinci AI Core (document 004): the units
// with their in-order queues, the on-chip buffers of a product with their
// capacities, the costs of every instruction as named parameters, and the
// tiling of C = A x B (or of a convolution through img2col) in the terms an
// Ascend C Matmul tiling uses. Sources for every number: docs/AICORE.md.
//
// Contract: place() lays out every tile slot of a tiling at an aligned
// address in its buffer and throws UsageError when a slot runs past the end
// of its buffer, naming the tile and the buffer; check_placements() throws
// when two slots of one buffer overlap, naming both. Worked example (Atlas A2,
// fp16, baseM = baseN = 128, baseK = 64, stepKa = stepKb = 4, double
// buffering): L1 holds A1 ping/pong of 128x256x2 B = 64 KiB each and B1
// ping/pong of 64 KiB each (256 KiB of 512 KiB); L0A holds two 16 KiB
// slots; L0C two 64 KiB fp32 slots (all 128 KiB).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "core/exec/conv.hpp"

namespace ll::aicore {

// The units of document 004 (Scalar, Cube, Vector, the memory transfer
// engines) and FixPipe (L0C out, with the format change of the output).
enum class Unit : uint8_t { scalar, mte2, mte1, cube, vector, fixpipe, mte3 };
constexpr int kUnitCount = 7;
const char* name(Unit u);                   // "MTE2"
const char* role(Unit u);                   // "GM -> L1 / UB"
Unit unit_from_name(const std::string& s);  // any case; UsageError

enum class Buf : uint8_t { gm, l1, l0a, l0b, l0c, ub };
constexpr int kBufCount = 6;
const char* name(Buf b);  // "L0A"

// One product's AI Core: buffer capacities (bytes), clock and where the Cube's
// results leave L0C (A2: FixPipe writes GM; the training series: the Vector
// unit moves L0C -> UB and MTE3 writes GM).
struct Product {
    std::string id;                    // "a2", "training"
    std::string name;                  // "Atlas A2 training series"
    int64_t capacity[kBufCount] = {};  // gm unused (0)
    int64_t align[kBufCount] = {};     // start address alignment per buffer
    double clock_ghz = 1.0;
    double gm_bytes_per_cycle = 32;  // MTE2 default, see docs/AICORE.md
    bool fixpipe_to_gm = true;
    std::string source;  // short citation, full list in docs/AICORE.md
};
const std::vector<Product>& products();
const Product& product_by_id(const std::string& id);  // UsageError naming the ids
std::string product_ids();                            // "a2, training"

// Every cycle count comes from these. A transfer of b bytes costs
// latency + ceil(b / bytes_per_cycle) cycles; an Mmad of s fractal steps
// costs s * cube_cycles_per_step; a Vector move of b bytes costs
// ceil(b / vector_bytes_per_repeat) * vector_cycles_per_repeat.
struct Costs {
    double mte2_bytes_per_cycle = 32;  // GM -> L1 (per-core share of GM bandwidth)
    int64_t mte2_latency = 200;
    double mte1_l0a_bytes_per_cycle = 512;  // L1 -> L0A (LoadData)
    double mte1_l0b_bytes_per_cycle = 256;  // L1 -> L0B
    int64_t mte1_latency = 16;
    int64_t cube_cycles_per_step = 1;     // one 16x16x16 fp16 (16x32x16 int8) step
    double fixpipe_bytes_per_cycle = 64;  // L0C -> GM
    int64_t fixpipe_latency = 50;
    int64_t vector_bytes_per_repeat = 256;
    int64_t vector_cycles_per_repeat = 1;
    double mte3_bytes_per_cycle = 64;  // UB -> GM
    int64_t mte3_latency = 100;
    int64_t scalar_cycles_per_block = 32;  // loop control + addresses per output block
    double clock_ghz = 1.0;
    void validate() const;  // UsageError for a zero/negative bandwidth or clock
};
Costs default_costs(const Product& p);

// C[M,N] = A[M,K] x B[K,N]; conv: the case study's Cube problem through
// img2col (M = N * ceil(HoWo/16) * 16, K = C1*Kh*Kw*C0, N = Cout), with A
// loaded into L1 as NC1HWC0 rows and expanded by Load3D on the way to L0A.
struct Problem {
    int64_t m = 0, k = 0, n = 0;
    DType dtype = DType::fp16;
    bool conv = false;
    exec::ConvParams conv_params;
    void validate() const;      // UsageError
    int64_t k0() const;         // 16 (fp16/bf16) or 32 (int8)
    int64_t in_bytes() const;   // bytes per A/B element
    int64_t acc_bytes() const;  // 4 (fp32 / int32 accumulation in L0C)
    int64_t out_bytes() const;  // fp16 out for fp16/bf16 (FixPipe casts), int32 for int8
    int64_t m_pad() const { return (m + 15) / 16 * 16; }
    int64_t k_pad() const { return (k + k0() - 1) / k0() * k0(); }
    int64_t n_pad() const { return (n + 15) / 16 * 16; }
    int64_t cube_steps() const { return m_pad() / 16 * (k_pad() / k0()) * (n_pad() / 16); }
    std::string describe() const;  // "GEMM 4096x4096x4096 fp16" / "conv ... as GEMM 7840x288x64"
};
Problem gemm_problem(int64_t m, int64_t k, int64_t n, DType t);  // validates
Problem conv_problem(const exec::ConvParams& p);                 // validates

enum class Order : uint8_t { m_first, n_first };  // which output index moves fastest
const char* name(Order o);                        // "M-first"

// The parameters of an Ascend C Matmul tiling. baseM x baseK (A) and baseK x
// baseN (B) sit in L0A/L0B, baseM x baseN in L0C; one L1 load of A covers
// stepKa chunks of baseK, of B stepKb; depthA1/depthB1 = L1 slots (1 single,
// 2 ping/pong); l0_slots / l0c_slots likewise for L0A/L0B and L0C (and UB).
struct Tiling {
    int64_t base_m = 128, base_n = 128, base_k = 64;
    int64_t step_ka = 4, step_kb = 4;
    int depth_a1 = 2, depth_b1 = 2, l0_slots = 2, l0c_slots = 2;
    Order order = Order::m_first;
    bool double_buffered() const { return depth_a1 == 2 && depth_b1 == 2 && l0_slots == 2; }
    void set_double_buffer(bool on);        // every depth 2 (on) or 1 (off)
    void validate(const Problem& p) const;  // UsageError: multiples of 16 / k0, steps >= 1
    std::string describe()
        const;  // "baseM 128 baseN 128 baseK 64 stepKa 4 stepKb 4 depth 2 M-first"
};

// One tile slot at its address: "A1 ping" in L1 at 0x0, 65536 B.
struct Placement {
    Buf buf = Buf::l1;
    std::string tile;  // "A1 ping", "B1 pong", "L0A ping", "C ping", "UB ping"
    int operand = 0;   // 0 A, 1 B, 2 C, 3 out (UB)
    int slot = 0;
    int64_t addr = 0, bytes = 0;
};
struct BufferUse {
    Buf buf = Buf::l1;
    int64_t capacity = 0;
    int64_t peak = 0;  // bytes of all its slots (the most ever live)
    std::vector<Placement> slots;
};
struct BufferMap {
    std::vector<BufferUse> buffers;  // L1, L0A, L0B, L0C, (UB when used)
    const BufferUse* find(Buf b) const;
    const Placement& slot(Buf b, int operand, int slot) const;  // std::out_of_range
};

// Bytes of one tile (edge tiles are smaller; these are the full-size slots).
int64_t a_l1_bytes(const Problem& p, const Tiling& t);
int64_t b_l1_bytes(const Problem& p, const Tiling& t);
int64_t l1_footprint(const Problem& p, const Tiling& t);  // all L1 slots

BufferMap place(const Problem& p, const Tiling& t, const Product& prod);  // UsageError
void check_placements(const BufferUse& b);  // UsageError naming both tiles / the buffer

std::string human_bytes(int64_t b);  // "64 KiB", "1.5 MiB", "300 B"

}  // namespace ll::aicore
