#include "app/cli/command.hpp"

namespace ll::cli {

// One line per command; each Setup is defined in app/cli/<name>_cmd.cpp.
Runner setup_formats(CLI::App& sub);
Runner setup_view(CLI::App& sub);
Runner setup_fuse(CLI::App& sub);
Runner setup_agu(CLI::App& sub);
Runner setup_plan(CLI::App& sub);
Runner setup_noc(CLI::App& sub);
Runner setup_conv(CLI::App& sub);
Runner setup_cube(CLI::App& sub);
Runner setup_img2col(CLI::App& sub);
Runner setup_load2d(CLI::App& sub);
Runner setup_load2dv2(CLI::App& sub);
Runner setup_load3d(CLI::App& sub);
Runner setup_convert(CLI::App& sub);
Runner setup_tiling(CLI::App& sub);
Runner setup_sweep(CLI::App& sub);
Runner setup_pipeline(CLI::App& sub);
Runner setup_winograd(CLI::App& sub);
Runner setup_cudnn(CLI::App& sub);
Runner setup_systolic(CLI::App& sub);
Runner setup_tensorcore(CLI::App& sub);
Runner setup_hardware(CLI::App& sub);
Runner setup_scatter(CLI::App& sub);

const std::vector<CommandEntry>& commands() {
    static const std::vector<CommandEntry> table = {
        {"formats", "list the layout formats and dtypes LayoutLab knows", setup_formats},
        {"view", "zero-copy views: permute, slice, reshape, expand; strides, offset, address", setup_view},
        {"fuse", "compose a chain of transforms into one read map; bytes moved fused vs unfused", setup_fuse},
        {"agu", "address streams of an AGU, a two-AGU DMA (--to) or scatter-gather (--gather)", setup_agu},
        {"plan", "propagate layouts through an operator graph and plan each mismatch", setup_plan},
        {"noc", "distributed transpose over PEs on a 2D mesh: blocks, routes, link loads", setup_noc},
        {"conv", "the case-study convolution: NC1HWC0, img2col, fractals, the Cube loop", setup_conv},
        {"cube", "the Cube's K -> N -> M loop: one step's fractals, MACs, values; --plan its picture", setup_cube},
        {"img2col", "img2col explicit and implicit: the matrix, the expansion, reuse", setup_img2col},
        {"load2d", "LoadData 2D: fractal copies between GM, L1 and L0 (startIndex, strides, transpose)", setup_load2d},
        {"load2dv2", "LoadData 2D v2: an mStep x kStep block of fractals (positions, strides, transpose)", setup_load2dv2},
        {"load3d", "LoadData 3D: img2col by the load unit, A1 -> A2 (document 001's call example)", setup_load3d},
        {"convert", "convert a tensor between layout formats: pad, reshape, transpose, step by step", setup_convert},
        {"tiling", "two-level tiling: L1/L2 orders vs a layout; strides, efficiency, time, energy", setup_tiling},
        {"sweep", "all tile orders and sizes ranked by time, with the Pareto front of time vs footprint", setup_sweep},
        {"pipeline", "a tiled Matmul / conv on one AI Core: MTE2, MTE1, Cube, FixPipe timeline, buffers, bound", setup_pipeline},
        {"winograd", "Winograd F(2x2,3x3) vs im2col + GEMM vs direct: transforms, 16 vs 36 mults, check", setup_winograd},
        {"cudnn", "the lecture's cuDNN time share (CUDA / Tensor Core, GEMM / Winograd) and its plot", setup_cudnn},
        {"systolic", "a GEMM on a TPU-style systolic array cycle by cycle, beside the Cube's fractal steps", setup_systolic},
        {"tensorcore", "Tensor Core D = A x B + C on 4x4 tiles vs the Cube's 16x16 fractal", setup_tensorcore},
        {"hardware", "document 003's hardware tables (5.2, 14.5, 15.4.1), each row linked to its panel", setup_hardware},
        {"scatter", "the scatter side of scatter-gather: runs, bursts, partial bursts, write conflicts", setup_scatter},
    };
    return table;
}

}  // namespace ll::cli
