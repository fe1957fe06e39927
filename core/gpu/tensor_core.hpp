// NVIDIA Volta's Tensor Core as document 004 draws it: D = A x B + C on 4x4
// matrices (fp16 A and B, fp32 C and D), one such 4x4x4 multiply-accumulate
// (64 MACs) per Tensor Core per clock; against the Ascend Cube's 16x16x16
// (4096 MACs) per cycle on 512-byte fractals.
//
// Layout side: a Tensor Core operand is a 4x4 tile of 16 fp16 = 32 bytes,
// exactly one 32-byte row of data; the Cube's operand is a whole 16x16 fractal
// (512 bytes, rows of 32 bytes). tile_map() says, for every element of a 16x16
// fp16 fractal stored row-major (as in FRACTAL_NZ), which of the fractal's
// sixteen 4x4 tiles it belongs to: a 4x4 tile's elements lie in 4 different
// 32-byte rows (8 bytes in each), so feeding 4x4 tiles from a Cube fractal
// reads 4 rows per tile, while the Cube reads the 16 rows once for all 16
// tiles' worth of work.
//
// Example: M = K = N = 16: 4 x 4 x 4 = 64 Tensor Core operations against one
// Cube step; tile_map()[1][5] = 1 (row 1, column 5: tile row 0, tile column 1).
#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

namespace ll::gpu {

struct TensorCoreParams {
    int64_t m = 16, k = 16, n = 16;  // a GEMM to count, 1..4096 each
    uint32_t seed = 1;               // the 4x4 example's values
};
// Throws UsageError keyed "m", "k", "n".
void check(const TensorCoreParams& p);

struct TensorCoreRun {
    // The 4x4 example: small integers in A and B (exact in fp16), C in -8..8.
    std::vector<double> a, b, c, d, direct;  // 16 each, row-major
    bool equal = false;
    int64_t tile_ops = 0, tile_macs_each = 64;  // 4x4x4 operations for the GEMM
    int64_t cube_steps = 0, cube_macs_each = 4096;
    double tile_utilisation = 0, cube_utilisation = 0;  // MKN / (ops x MACs each)
    int64_t tensor_cores_per_cube = 64;  // 4096 / 64: Tensor Cores for one Cube's rate
};
TensorCoreRun tensor_core_run(const TensorCoreParams& p);

// 16 x 16: the 4x4 tile (tile_row * 4 + tile_col) of each element of a 16x16 fractal.
std::vector<std::vector<int>> tile_map();
// Distinct 32-byte rows of a row-major 16x16 fp16 fractal one 4x4 tile touches (4).
int rows_per_tile();

nlohmann::json tensor_core_to_json(const TensorCoreRun& r, const TensorCoreParams& p);

}  // namespace ll::gpu
