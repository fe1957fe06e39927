// `layoutlab img2col`: the expanding transform, explicit (the matrix of
// source indices) and implicit (one element's source on demand), with the
// expansion it costs.
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/cli/command.hpp"
#include "core/error.hpp"
#include "core/exec/img2col.hpp"
#include "core/exec/window_args.hpp"
#include "core/shape.hpp"
#include "core/validate_only.hpp"

namespace ll::cli {

namespace {
struct Img2colArgs {
    exec::Img2colSpec s;
    std::string pad = "0", stride = "1", dilation = "1", at;
    bool json = false;
};
constexpr int64_t kMatrixLimit = int64_t(1) << 20;  // entries printed in full
}  // namespace

Runner setup_img2col(CLI::App& sub) {
    auto a = std::make_shared<Img2colArgs>();
    a->s.h = a->s.w = 3;
    a->s.win.kh = a->s.win.kw = 2;
    sub.add_option("--n", a->s.n, "batch (default 1)");
    sub.add_option("--c", a->s.c, "channels (default 1)");
    sub.add_option("--h", a->s.h, "input height (default 3)");
    sub.add_option("--w", a->s.w, "input width (default 3)");
    sub.add_option("--kh", a->s.win.kh, "kernel height (default 2)");
    sub.add_option("--kw", a->s.win.kw, "kernel width (default 2)");
    sub.add_option("--pad", a->pad, "padding: p | ph,pw | top,bottom,left,right (default 0)");
    sub.add_option("--stride", a->stride, "stride: s | sh,sw (default 1)");
    sub.add_option("--dilation", a->dilation, "dilation: d | dh,dw (default 1)");
    sub.add_option("--at", a->at, "implicit img2col: ROW,COL -> the source element only");
    sub.add_flag("--json", a->json, "print JSON instead of text");
    return [a]() {
        exec::Img2colSpec s = a->s;
        exec::apply_window_lists(s.win, a->pad, a->stride, a->dilation);
        s.validate();
        if (!a->at.empty()) {
            std::vector<int64_t> rc = parse_int_list(a->at, "--at");
            if (rc.size() != 2 || rc[0] < 0 || rc[0] >= s.rows() || rc[1] < 0 || rc[1] >= s.cols())
                throw UsageError("--at '" + a->at + "'; expected ROW,COL with 0 <= ROW < " +
                                 std::to_string(s.rows()) + " and 0 <= COL < " +
                                 std::to_string(s.cols()));
            work_begins();
            int64_t src = exec::img2col_source(s, rc[0], rc[1]);
            if (a->json) {
                nlohmann::json j = {{"row", rc[0]}, {"col", rc[1]}, {"source", src}};
                if (src >= 0) j["source_nchw"] = unravel(src, {s.n, s.c, s.h, s.w});
                std::cout << j.dump() << "\n";
            } else if (src < 0) {
                std::cout << "(" << rc[0] << "," << rc[1] << ") reads padding\n";
            } else {
                std::cout << "(" << rc[0] << "," << rc[1] << ") reads input element " << src
                          << " = (n,c,h,w) " << to_string(unravel(src, {s.n, s.c, s.h, s.w}))
                          << "\n";
            }
            return 0;
        }
        work_begins();
        exec::Img2colExpansion e = exec::img2col_expansion(s);
        const bool full = e.matrix_elements <= kMatrixLimit;
        if (a->json) {
            nlohmann::json j;
            j["input_shape"] = Shape{s.n, s.c, s.h, s.w};
            j["out_hw"] = {s.out_h(), s.out_w()};
            j["matrix_shape"] = {s.rows(), s.cols()};
            j["input_elements"] = e.input_elements;
            j["matrix_elements"] = e.matrix_elements;
            j["padding_elements"] = e.padding_elements;
            j["max_reuse"] = e.max_reuse;
            j["unused_inputs"] = e.unused_inputs;
            j["expansion"] = e.ratio();
            j["reuse"] = e.reuse;
            if (full)
                j["matrix"] = exec::img2col_index_map(s);
            else
                j["matrix_omitted"] = true;
            std::cout << j.dump() << "\n";
            return 0;
        }
        std::cout << "img2col: input " << to_string({s.n, s.c, s.h, s.w}) << " -> matrix "
                  << s.rows() << " x " << s.cols() << " (rows (n,oh,ow), columns (c,kh,kw))\n"
                  << "  " << e.input_elements << " input elements -> " << e.matrix_elements
                  << " matrix elements (x" << std::setprecision(3) << e.ratio() << "), "
                  << e.padding_elements << " of them padding; an input element is used at most "
                  << e.max_reuse << " times" << (e.unused_inputs ? ", " : "")
                  << (e.unused_inputs ? std::to_string(e.unused_inputs) + " never" : "") << "\n";
        if (s.rows() * s.cols() <= 64 * 32) {
            std::vector<int64_t> m = exec::img2col_index_map(s);
            std::cout << "matrix of source indices (. = padding):\n";
            for (int64_t r = 0; r < s.rows(); ++r) {
                for (int64_t c = 0; c < s.cols(); ++c) {
                    int64_t v = m[size_t(r * s.cols() + c)];
                    std::cout << std::setw(5) << (v < 0 ? std::string(".") : std::to_string(v));
                }
                std::cout << "\n";
            }
        }
        if (s.h * s.w <= 32 * 32) {
            std::cout << "reuse of each input element (n=0, c=0):\n";
            for (int64_t y = 0; y < s.h; ++y) {
                for (int64_t x = 0; x < s.w; ++x)
                    std::cout << std::setw(4) << e.reuse[size_t(y * s.w + x)];
                std::cout << "\n";
            }
        }
        return 0;
    };
}

}  // namespace ll::cli
