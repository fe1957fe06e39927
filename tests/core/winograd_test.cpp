// Winograd F(2x2, 3x3): the counts of the lecture (16 vs 36 per tile), the
// transform identity on every tile, and equality with direct convolution on
// random inputs of every geometry kind (even, odd, multi-channel).
#include <gtest/gtest.h>

#include <cmath>

#include "core/error.hpp"
#include "core/gpu/winograd.hpp"

using namespace ll::gpu;

TEST(Winograd, CountsOfTheLecture) {
    WinogradParams p;  // 6x6, C = K = 1
    const WinogradCounts c = winograd_counts(p);
    EXPECT_EQ(c.out_h, 4);
    EXPECT_EQ(c.tiles_h * c.tiles_w, 4);
    EXPECT_EQ(c.tile_mults, 16);
    EXPECT_EQ(c.direct_tile_mults, 36);
    EXPECT_EQ(c.winograd_mults, 64);
    EXPECT_EQ(c.direct_mults, 144);
    EXPECT_EQ(c.gemm_mults, 144);
    EXPECT_DOUBLE_EQ(c.ratio(), 2.25);
    EXPECT_EQ(c.im2col_rows, 16);
    EXPECT_EQ(c.im2col_cols, 9);
    EXPECT_DOUBLE_EQ(c.im2col_expansion, 144.0 / 36.0);
    // B^T d B: 4 rows of two nonzeros, both sides: 16 + 16 additions, no mults.
    EXPECT_EQ(c.data_transform.adds, 32);
    EXPECT_EQ(c.data_transform.mults, 0);
    // A^T M A: 2 rows of three nonzeros: 2*2*4 + 2*2*2.
    EXPECT_EQ(c.output_transform.adds, 24);
    EXPECT_EQ(c.output_transform.mults, 0);
    // G g G^T: the halves are multiplications.
    EXPECT_GT(c.filter_transform.mults, 0);
}

TEST(Winograd, OddOutputsPadTheEdgeTiles) {
    WinogradParams p;
    p.height = 7, p.width = 9, p.channels = 3, p.filters = 2;
    const WinogradCounts c = winograd_counts(p);
    EXPECT_EQ(c.out_h, 5);
    EXPECT_EQ(c.out_w, 7);
    EXPECT_EQ(c.tiles_h, 3);
    EXPECT_EQ(c.tiles_w, 4);
    EXPECT_EQ(c.winograd_mults, 12 * 16 * 6);
    EXPECT_EQ(c.direct_mults, 35 * 9 * 6);
}

TEST(Winograd, EqualsDirectOnIntegersExactly) {
    for (uint32_t seed = 1; seed <= 20; ++seed) {
        WinogradParams p;
        p.height = 3 + int64_t(seed * 7 % 11);
        p.width = 3 + int64_t(seed * 5 % 13);
        p.channels = 1 + seed % 4;
        p.filters = 1 + seed % 3;
        p.seed = seed;
        const WinogradRun r = winograd_run(p);
        ASSERT_EQ(r.direct.size(), r.winograd.size());
        EXPECT_EQ(r.max_abs_diff, 0.0) << "seed " << seed;
    }
}

TEST(Winograd, EqualsDirectOnReals) {
    for (uint32_t seed = 1; seed <= 20; ++seed) {
        WinogradParams p;
        p.height = 4 + int64_t(seed % 9);
        p.width = 5 + int64_t(seed % 6);
        p.channels = 1 + seed % 5;
        p.filters = 2;
        p.seed = seed;
        p.values = Values::reals;
        const WinogradRun r = winograd_run(p);
        EXPECT_LT(r.max_abs_diff, 1e-12) << "seed " << seed;
        EXPECT_TRUE(winograd_to_json(r)["check"]["equal"].get<bool>());
        // The values really are reals, not integers.
        EXPECT_NE(r.input[0], std::round(r.input[0]));
    }
}

TEST(Winograd, ShownTileFollowsTheFormula) {
    WinogradParams p;
    p.height = 8, p.width = 8, p.tile_row = 1, p.tile_col = 2;
    const WinogradRun r = winograd_run(p);
    const Mat U = matmul(matmul(r.G, r.g), transpose(r.G));
    const Mat V = matmul(matmul(r.BT, r.d), transpose(r.BT));
    const Mat Y = matmul(matmul(r.AT, hadamard(U, V)), transpose(r.AT));
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) {
            EXPECT_EQ(Y.at(i, j), r.Y.at(i, j));
            EXPECT_EQ(r.Y.at(i, j), r.Y_direct.at(i, j));
            EXPECT_EQ(r.Y.at(i, j), r.direct[size_t((2 + i) * 6 + 4 + j)]);
        }
    // d is the 4x4 input window at (2*1, 2*2).
    EXPECT_EQ(r.d.at(0, 0), r.input[size_t(2 * 8 + 4)]);
    EXPECT_EQ(r.d.at(3, 3), r.input[size_t(5 * 8 + 7)]);
}

TEST(Winograd, BadInputIsKeyed) {
    WinogradParams p;
    p.height = 2;
    try {
        winograd_run(p);
        FAIL();
    } catch (const ll::UsageError& e) {
        EXPECT_EQ(e.key(), "height");
    }
    p = {};
    p.tile_col = 2;  // 6x6 has tiles 0..1
    try {
        winograd_run(p);
        FAIL();
    } catch (const ll::UsageError& e) {
        EXPECT_EQ(e.key(), "tile_col");
    }
}

// The input elements the gpu panel marks for the shown tile are the ones the
// tile's d holds (zero past the edge).
TEST(Winograd, TileWindowIsTheInputTheTileReads) {
    WinogradParams p;
    p.height = 7;
    p.width = 5;  // outputs 5 x 3: tiles 3 x 2, the right column half past the edge
    p.tile_row = 1;
    p.tile_col = 1;
    const WinogradRun r = winograd_run(p);
    const TileWindow w = tile_input_window(p);
    EXPECT_EQ(w.row, 2);
    EXPECT_EQ(w.col, 2);
    ASSERT_EQ(w.size, 4);
    for (int64_t i = 0; i < w.size; ++i)
        for (int64_t j = 0; j < w.size; ++j) {
            const int64_t y = w.row + i, x = w.col + j;
            const double want = y < p.height && x < p.width ? r.input[size_t(y * p.width + x)] : 0;
            EXPECT_EQ(r.d.at(int(i), int(j)), want) << i << "," << j;
        }
}
