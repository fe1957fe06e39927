// `layoutlab winograd`: Winograd F(2x2, 3x3) against im2col + GEMM and direct
// convolution on a real small input (document 004's GPU side): the transform
// matrices, one tile's d, U, V, M, Y, the multiplication counts (16 vs 36 per
// tile) and the check that every output equals direct convolution. The GPU
// panel's Winograd tab draws the same run.
#include <cstdio>
#include <iostream>
#include <sstream>

#include "app/cli/command.hpp"
#include "core/error.hpp"
#include "core/gpu/winograd.hpp"

namespace ll::cli {

namespace {

struct WinogradArgs {
    gpu::WinogradParams p;
    bool reals = false, json = false;
};

std::string flag_of(const std::string& key) {
    std::string f = "--" + key;
    for (char& c : f)
        if (c == '_') c = '-';
    return f;
}

void print_mat(std::ostream& o, const char* name, const gpu::Mat& m) {
    o << "  " << name << " (" << m.rows << "x" << m.cols << "):\n";
    for (int i = 0; i < m.rows; ++i) {
        o << "    ";
        for (int j = 0; j < m.cols; ++j) {
            char t[32];
            std::snprintf(t, sizeof t, "%9.4g", m.at(i, j));
            o << t;
        }
        o << "\n";
    }
}

}  // namespace

Runner setup_winograd(CLI::App& sub) {
    auto a = std::make_shared<WinogradArgs>();
    sub.add_option("--height", a->p.height, "input rows H, 3..1024 (default 6)");
    sub.add_option("--width", a->p.width, "input columns W, 3..1024 (default 6)");
    sub.add_option("--channels", a->p.channels, "input channels C, 1..64 (default 1)");
    sub.add_option("--filters", a->p.filters, "filters K, 1..64 (default 1)");
    sub.add_option("--seed", a->p.seed, "seed of the random input and filters (default 1)");
    sub.add_option("--tile-row", a->p.tile_row, "row of the tile shown in detail (default 0)");
    sub.add_option("--tile-col", a->p.tile_col, "column of the tile shown in detail (default 0)");
    sub.add_flag("--reals", a->reals,
                 "real values uniform in [-1, 1) instead of integers in -4..4");
    sub.add_flag("--json", a->json, "print JSON instead of text");
    return [a]() {
        gpu::WinogradParams p = a->p;
        p.values = a->reals ? gpu::Values::reals : gpu::Values::integers;
        gpu::WinogradRun r;
        try {
            r = gpu::winograd_run(p);
        } catch (const UsageError& e) {
            if (e.key().empty()) throw;
            throw UsageError(flag_of(e.key()) + ": " + e.detail());
        }
        if (a->json) {
            std::cout << gpu::winograd_to_json(r).dump(2) << "\n";
            return 0;
        }
        const gpu::WinogradCounts& c = r.counts;
        std::ostringstream o;
        char t[160];
        o << "Winograd F(2x2, 3x3): Y = A^T [ (G g G^T) (.) (B^T d B) ] A\n"
          << "input " << p.height << "x" << p.width << "x" << p.channels << " (H x W x C), "
          << p.filters << " filter(s) of " << p.channels << "x3x3, valid, stride 1 -> output "
          << c.out_h << "x" << c.out_w << "\n"
          << "tiles: " << c.tiles_h << " x " << c.tiles_w << " = " << c.tiles_h * c.tiles_w
          << " output tiles of 2x2, each read from a 4x4 input tile (overlapping by 2)\n\n";
        o << "multiplications per output tile: Winograd " << c.tile_mults << " ((2+3-1)^2), direct "
          << c.direct_tile_mults << " (2^2 x 3^2)\n";
        std::snprintf(t, sizeof t,
                      "multiplications in all: Winograd %lld, direct %lld, im2col + GEMM %lld "
                      "(%.2fx fewer with Winograd)\n",
                      static_cast<long long>(c.winograd_mults),
                      static_cast<long long>(c.direct_mults), static_cast<long long>(c.gemm_mults),
                      c.ratio());
        o << t;
        std::snprintf(
            t, sizeof t,
            "im2col matrix: %lld x %lld (output pixels x 9C), %.2fx the input's elements\n",
            static_cast<long long>(c.im2col_rows), static_cast<long long>(c.im2col_cols),
            c.im2col_expansion);
        o << t;
        o << "transform cost: data " << c.data_transform.adds << " additions per tile, output "
          << c.output_transform.adds << " additions per tile, filter " << c.filter_transform.mults
          << " multiplications + " << c.filter_transform.adds << " additions once per filter\n\n";
        o << "transform matrices:\n";
        print_mat(o, "B^T", r.BT);
        print_mat(o, "G", r.G);
        print_mat(o, "A^T", r.AT);
        o << "\ntile (" << p.tile_row << ", " << p.tile_col << "), filter 0, channel 0 ("
          << (p.values == gpu::Values::integers ? "integers -4..4" : "reals in [-1, 1)")
          << ", seed " << p.seed << "):\n";
        print_mat(o, "d = input tile", r.d);
        print_mat(o, "g = filter", r.g);
        print_mat(o, "U = G g G^T", r.U);
        print_mat(o, "V = B^T d B", r.V);
        print_mat(o, p.channels > 1 ? "M = sum over C of U (.) V" : "M = U (.) V", r.M);
        print_mat(o, "Y = A^T M A", r.Y);
        print_mat(o, "direct convolution", r.Y_direct);
        std::snprintf(
            t, sizeof t, "\ncheck: %zu outputs, max |Winograd - direct| = %.3g -> %s\n",
            r.direct.size(), r.max_abs_diff,
            gpu::winograd_to_json(r)["check"]["equal"].get<bool>() ? "equal" : "DIFFERENT");
        o << t;
        std::cout << o.str();
        return 0;
    };
}

}  // namespace ll::cli
