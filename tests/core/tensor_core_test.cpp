// Tensor Core D = A x B + C on 4x4 tiles: equal to the direct product on
// random inputs, its operation counts against the Cube, and the tile map of a
// 16x16 fractal.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "core/gpu/tensor_core.hpp"

using namespace ll::gpu;

TEST(TensorCore, EqualsDirectOnRandomTiles) {
    for (uint32_t seed = 1; seed <= 50; ++seed) {
        TensorCoreParams p;
        p.seed = seed;
        const TensorCoreRun r = tensor_core_run(p);
        EXPECT_TRUE(r.equal) << seed;
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j) {
                double s = r.c[size_t(i * 4 + j)];
                for (int k = 0; k < 4; ++k) s += r.a[size_t(i * 4 + k)] * r.b[size_t(k * 4 + j)];
                EXPECT_EQ(r.d[size_t(i * 4 + j)], s);
            }
    }
}

TEST(TensorCore, CountsAgainstTheCube) {
    TensorCoreParams p;  // 16 x 16 x 16
    TensorCoreRun r = tensor_core_run(p);
    EXPECT_EQ(r.tile_ops, 64);
    EXPECT_EQ(r.cube_steps, 1);
    EXPECT_EQ(r.tensor_cores_per_cube, 64);
    EXPECT_DOUBLE_EQ(r.cube_utilisation, 1.0);
    p.m = 5, p.k = 6, p.n = 7;
    r = tensor_core_run(p);
    EXPECT_EQ(r.tile_ops, 2 * 2 * 2);
    EXPECT_EQ(r.cube_steps, 1);
    EXPECT_DOUBLE_EQ(r.tile_utilisation, 210.0 / 512.0);
    EXPECT_DOUBLE_EQ(r.cube_utilisation, 210.0 / 4096.0);
    p.m = 0;
    EXPECT_THROW(tensor_core_run(p), ll::UsageError);
}

TEST(TensorCore, TileMapOfAFractal) {
    const auto m = tile_map();
    ASSERT_EQ(m.size(), 16u);
    EXPECT_EQ(m[1][5], 1);
    EXPECT_EQ(m[15][15], 15);
    EXPECT_EQ(m[4][0], 4);
    // Every tile has 16 elements.
    std::vector<int> count(16, 0);
    for (const auto& row : m)
        for (int v : row) ++count[size_t(v)];
    for (int c : count) EXPECT_EQ(c, 16);
    EXPECT_EQ(rows_per_tile(), 4);
}
