// Winograd minimal filtering F(2x2, 3x3) against im2col + GEMM and direct
// convolution: the GPU side of document 004 ("GPU做卷积").
//
// One output tile of m x m = 2 x 2 values of a 3 x 3 (r x r) filter is computed
// from an input tile of (m + r - 1)^2 = 4 x 4 values as
//     Y = A^T [ (G g G^T) (.) (B^T d B) ] A
// where (.) is the element-wise product, d the 4x4 input tile, g the 3x3 filter,
// and B^T (4x4), G (4x3), A^T (2x4) the transform matrices of Lavin & Gray.
// The element-wise product costs (m + r - 1)^2 = 16 multiplications per tile
// against m^2 r^2 = 36 for direct convolution (or im2col + GEMM, which runs the
// same multiplications as a matrix product): 2.25x fewer. The data and output
// transforms use only additions (their matrices hold 0 and +-1); the filter
// transform multiplies by 1/2 but runs once per filter, not per tile.
//
// Contract: for a valid (no padding, stride 1) convolution of an H x W input
// with C channels by K filters of C x 3 x 3, winograd_run() computes every
// output both ways and reports the largest difference; it is 0 on the
// integer-valued inputs (halves are exact in binary) and at rounding level on
// real-valued ones. Example: H = W = 6, C = K = 1 -> output 4 x 4, 2 x 2 = 4
// tiles, 64 multiplications against 144 direct.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ll::gpu {

// A small dense matrix, row-major.
struct Mat {
    int rows = 0, cols = 0;
    std::vector<double> v;
    Mat() = default;
    Mat(int r, int c) : rows(r), cols(c), v(size_t(r) * size_t(c), 0.0) {}
    double& at(int r, int c) { return v[size_t(r) * size_t(cols) + size_t(c)]; }
    double at(int r, int c) const { return v[size_t(r) * size_t(cols) + size_t(c)]; }
};

Mat matmul(const Mat& a, const Mat& b);
Mat transpose(const Mat& a);
Mat hadamard(const Mat& a, const Mat& b);

// What one product a x b costs when a holds constants (a transform matrix):
// an entry 0 costs nothing, +-1 is an addition or subtraction, any other value
// a multiplication as well. For each output entry, a row of a with k nonzero
// entries costs k - 1 additions.
struct OpCount {
    int64_t mults = 0, adds = 0;
};
OpCount constant_product_cost(const Mat& a, int b_cols);
// The same for x b where b holds constants (right multiplication).
OpCount constant_product_cost_right(int a_rows, const Mat& b);

// The F(2x2, 3x3) transform matrices.
Mat winograd_BT();  // 4x4, data transform
Mat winograd_G();   // 4x3, filter transform
Mat winograd_AT();  // 2x4, output transform

enum class Values { integers, reals };

struct WinogradParams {
    int64_t height = 6, width = 6;     // input H x W (>= 3 each)
    int64_t channels = 1;              // C, summed in the transformed domain
    int64_t filters = 1;               // K output channels
    Values values = Values::integers;  // integers: -4..4; reals: uniform [-1, 1)
    uint32_t seed = 1;
    int64_t tile_row = 0, tile_col = 0;  // the tile shown in detail
};

// Throws UsageError (keys "height", "width", "channels", "filters",
// "tile_row", "tile_col") when a value is out of range: H, W in 3..1024,
// C, K in 1..64, H*W*C*K at most 2^22, the tile inside the tiles grid.
void check(const WinogradParams& p);

// The input elements the shown tile (tile_row, tile_col) reads: the 4 x 4
// input tile of F(2x2, 3x3) at (2 * tile_row, 2 * tile_col); it may reach past
// the input's last row or column (zero padding), e.g. a 5 x 5 input's tile
// (1, 1) covers rows and columns 2..5.
struct TileWindow {
    int64_t row = 0, col = 0;  // the top-left input element
    int64_t size = 0;          // rows = columns
};
TileWindow tile_input_window(const WinogradParams& p);

// The multiplication counts of the three methods for a geometry, per the
// formulas above; im2col also says how much its matrix expands the input.
struct WinogradCounts {
    int64_t out_h = 0, out_w = 0;      // H - 2, W - 2
    int64_t tiles_h = 0, tiles_w = 0;  // ceil(out / 2); edge tiles read zero padding
    int64_t tile_mults = 16, direct_tile_mults = 36;
    int64_t winograd_mults = 0;                // tiles * 16 * C * K
    int64_t direct_mults = 0;                  // out_h * out_w * 9 * C * K
    int64_t gemm_mults = 0;                    // im2col + GEMM: the same as direct
    int64_t im2col_rows = 0, im2col_cols = 0;  // (out_h*out_w) x (9 C)
    double im2col_expansion = 0;               // im2col elements / input elements
    OpCount data_transform, output_transform, filter_transform;  // per tile / per filter
    double ratio() const {
        return winograd_mults ? double(direct_mults) / double(winograd_mults) : 0;
    }
};
WinogradCounts winograd_counts(const WinogradParams& p);

struct WinogradRun {
    WinogradParams params;
    WinogradCounts counts;
    Mat BT, G, AT;
    std::vector<double> input;     // C x H x W
    std::vector<double> filter;    // K x C x 3 x 3
    std::vector<double> winograd;  // K x out_h x out_w
    std::vector<double> direct;    // K x out_h x out_w
    double max_abs_diff = 0;
    // The tile params.tile_row/col for filter 0, channel 0: input d, U = G g G^T,
    // V = B^T d B, M = U (.) V (summed over channels), Y = A^T M A, and the
    // direct outputs it must equal (zero-padded past the edge).
    Mat d, g, U, V, M, Y, Y_direct;
};
WinogradRun winograd_run(const WinogradParams& p);

nlohmann::json to_json(const Mat& m);
nlohmann::json winograd_to_json(const WinogradRun& r);

}  // namespace ll::gpu
