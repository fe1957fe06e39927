// Animation data (ll::Plan, core/plan.hpp) for the execution engine's scenes.
//
// img2col_plan: cells = the img2col matrix's elements (rows*cols, padding
//   included); src = img2col_index_map. Stages: the input NCHW (duplicated
//   cells sit on top of each other; padding hidden), the padded input (padding
//   cells appear in the border), the matrix [rows, cols].
//   Example: 3x3 input, 2x2 kernel: 16 cells; in stage 0 the four cells
//   reading "e" all sit at offset 4; in stage 2 cell k sits at offset k.
// load_plan: cells = the destination buffer's elements (dst_of.size());
//   src = dst_of. Stages: the source buffer as memory (cells at their source
//   element; unwritten ones hidden), the destination buffer (every cell at its
//   own offset). Each stage carries one fractal Box per 512-byte fractal; the
//   destination names its fractals' format (ZZ) above each band's right end.
// conv_a_plan: cells = the A fractal buffer's elements [N, ceil(HoWo/16), K1,
//   16, C0], numbered (n, k, c0, output pixel) so consecutive cells are one
//   channel's pixels; src = the NCHW input element (-1: zero padding).
//   Stages: input NCHW, NC1HWC0, img2col matrix (each with stage_grid, the
//   explorer's grid, fitted to `aspect`), A fractals (fractal rows M1 down,
//   fractal columns K1 across, as the Cube scene draws A).
// cube_schedule: the Cube's steps in the lecture's loop order K -> N -> M.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/exec/conv.hpp"
#include "core/exec/img2col.hpp"
#include "core/exec/load2d.hpp"
#include "core/plan.hpp"

namespace ll::exec {

// `input_aspect` (width / height of the view the input is drawn in; 0 = the
// default grid): the input and padded stages wrap their (n, c) images into
// rows that suit such a view (fitted_tensor_grid); offsets do not change.
Plan img2col_plan(const Img2colSpec& s, float input_aspect = 0);

// `src_elems`: size of the source buffer in elements (a whole number of
// fractals for Load2D, C1*H*W*C0 for Load3D). `src_aspect` / `dst_aspect`
// (width / height of the views the two buffers are drawn in; 0 = roughly
// square): the memory bands hold the whole number of fractals that gives
// the largest cells in such a view.
Plan load_plan(const LoadResult& r, int64_t src_elems, DType t, const std::string& title,
               const std::string& src_name, const std::string& dst_name, float src_aspect = 0,
               float dst_aspect = 0);

// The shape (width / height) of the view the conv scene is drawn in.
constexpr float kConvViewAspect = 1.6f;
Plan conv_a_plan(const ConvParams& p, float aspect = kConvViewAspect);

struct CubeStep {
    int64_t k, n, m;  // loop indices
    int64_t a, b, c;  // fractal indices: A [m][k], B [k][n], C [n][m]
    bool first_k;     // C fractal starts from zero (k == 0)
};
std::vector<CubeStep> cube_schedule(int64_t m1, int64_t k1, int64_t n1);

}  // namespace ll::exec
