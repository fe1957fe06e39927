// `layoutlab conv`: the convolution pipeline of the lecture's case study,
// shapes only or (--input/--weight/--output, --check) on real numbers.
#include <cmath>
#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/cli/command.hpp"
#include "app/cli/limits.hpp"
#include "core/checked.hpp"
#include "core/error.hpp"
#include "core/exec/conv.hpp"
#include "core/exec/conv_buffers.hpp"
#include "core/exec/conv_check.hpp"
#include "core/exec/half.hpp"
#include "core/exec/report.hpp"
#include "core/exec/window_args.hpp"
#include "core/io/npy.hpp"
#include "core/validate_only.hpp"

namespace ll::cli {

namespace {

struct ConvArgs {
    exec::ConvParams p = exec::conv_case_study();
    std::string pad = "1", stride = "1", dilation = "1", dtype = "fp16";
    std::string input, weight, output;
    bool json = false, check = false, occupancy = false;
    int64_t max_steps = 1'000'000'000;
};

// Values of an .npy array as float (fp16 and fp32 arrays).
std::vector<float> as_floats(const NpyArray& a) {
    const size_t n = size_t(numel(a.shape));
    std::vector<float> v(n);
    if (a.dtype == DType::fp32) {
        std::memcpy(v.data(), a.data.data(), n * 4);
    } else {
        for (size_t i = 0; i < n; ++i) {
            uint16_t h;
            std::memcpy(&h, a.data.data() + 2 * i, 2);
            v[i] = exec::half_to_float(h);
        }
    }
    return v;
}

// Geometry from the arrays: input NCHW, weight OIHW, same element class.
void take_geometry(exec::ConvParams& p, const NpyArray& x, const NpyArray& w, bool dtype_given) {
    if (x.shape.size() != 4)
        throw UsageError("--input has shape " + to_string(x.shape) + "; expected 4 dims N,C,H,W");
    if (w.shape.size() != 4)
        throw UsageError("--weight has shape " + to_string(w.shape) +
                         "; expected 4 dims Cout,Cin,Kh,Kw");
    if (w.shape[1] != x.shape[1])
        throw UsageError("--weight has Cin = " + std::to_string(w.shape[1]) +
                         " but --input has C = " + std::to_string(x.shape[1]) +
                         "; expected the same input channels");
    auto kind = [](DType t) {
        if (t == DType::fp16 || t == DType::fp32) return DType::fp16;
        if (t == DType::int8) return DType::int8;
        throw UsageError(std::string(".npy dtype ") + name(t) +
                         "; expected float16, float32 or int8");
    };
    DType k = kind(x.dtype);
    if (kind(w.dtype) != k)
        throw UsageError(std::string("--input is ") + name(x.dtype) + " but --weight is " +
                         name(w.dtype) + "; expected both float (fp16/fp32) or both int8");
    if (dtype_given && p.dtype != k)
        throw UsageError(std::string("--dtype ") + name(p.dtype) + " but the arrays are " +
                         name(x.dtype) + "; expected --dtype " + name(k) + " or no --dtype");
    p.dtype = k;
    p.n = x.shape[0];
    p.cin = x.shape[1];
    p.h = x.shape[2];
    p.w = x.shape[3];
    p.cout = w.shape[0];
    p.win.kh = w.shape[2];
    p.win.kw = w.shape[3];
}

// Runs the pipeline on the arrays and writes the NCHW output.
std::string run_files(const exec::ConvParams& p, const NpyArray& x, const NpyArray& w,
                      const std::string& out) {
    const Shape shape = {p.n, p.cout, p.out_h(), p.out_w()};
    if (p.dtype == DType::fp16) {
        exec::ConvResultF r = exec::conv_fp16(p, as_floats(x), as_floats(w));
        if (!out.empty()) write_npy(out, DType::fp32, shape, r.output.data(), r.output.size() * 4);
        return "float32";
    }
    std::vector<int8_t> xv(x.data.size()), wv(w.data.size());
    std::memcpy(xv.data(), x.data.data(), xv.size());
    std::memcpy(wv.data(), w.data.data(), wv.size());
    exec::ConvResultI r = exec::conv_int8(p, xv, wv);
    if (!out.empty()) write_npy(out, DType::int32, shape, r.output.data(), r.output.size() * 4);
    return "int32";
}

// Runs the pipeline and the direct reference on seeded random data.
nlohmann::json run_check(const exec::ConvParams& p) {
    const exec::ConvCheck c = exec::conv_check(p);
    nlohmann::json j = {{"pipeline_s", c.pipeline_s}, {"direct_s", c.direct_s}};
    if (p.dtype == DType::int8)
        j["mismatches"] = c.mismatches;
    else
        j["max_abs_diff"] = c.max_abs_diff;
    return j;
}

}  // namespace

Runner setup_conv(CLI::App& sub) {
    auto a = std::make_shared<ConvArgs>();
    sub.add_option("--n", a->p.n, "batch (default 10)");
    sub.add_option("--cin", a->p.cin, "input channels (default 32)");
    sub.add_option("--cout", a->p.cout, "output channels (default 64)");
    sub.add_option("--h", a->p.h, "input height (default 28)");
    sub.add_option("--w", a->p.w, "input width (default 28)");
    sub.add_option("--kh", a->p.win.kh, "kernel height (default 3)");
    sub.add_option("--kw", a->p.win.kw, "kernel width (default 3)");
    sub.add_option("--pad", a->pad, "padding: p | ph,pw | top,bottom,left,right (default 1)");
    sub.add_option("--stride", a->stride, "stride: s | sh,sw (default 1)");
    sub.add_option("--dilation", a->dilation, "dilation: d | dh,dw (default 1)");
    CLI::Option* dtype_opt =
        sub.add_option("--dtype", a->dtype, "fp16 (fp32 accumulate) or int8 (int32 accumulate)");
    sub.add_option("--input", a->input,
                   "input .npy, NCHW (float16/float32 or int8); sets N,Cin,H,W");
    sub.add_option("--weight", a->weight, "weight .npy, OIHW, same kind; sets Cout,Kh,Kw");
    sub.add_option("--output", a->output,
                   "output .npy, NCHW: float32 (fp16 inputs) or int32 (int8); written atomically");
    sub.add_flag("--check", a->check,
                 "run on seeded random numbers and compare with a direct convolution");
    sub.add_flag("--occupancy", a->occupancy,
                 "per buffer (A1, B1, A2, B2, CO1): capacity, bytes the whole problem needs "
                 "there, and whether it must be tiled");
    sub.add_option("--max-steps", a->max_steps,
                   "refuse --check or --input runs needing more multiply-adds than this")
        ->capture_default_str()
        ->check(positive_whole());
    sub.add_flag("--json", a->json, "print JSON instead of text");
    return [a, dtype_opt]() {
        exec::ConvParams p = a->p;
        p.dtype = dtype_from_name(a->dtype);
        exec::apply_window_lists(p.win, a->pad, a->stride, a->dilation);
        if (a->input.empty() != a->weight.empty() || (!a->output.empty() && a->input.empty()))
            throw UsageError(
                "--input, --weight and --output go together; expected --input x.npy --weight "
                "w.npy [--output y.npy]");
        NpyArray x, w;
        if (!a->input.empty()) {
            x = read_npy(a->input);
            w = read_npy(a->weight);
            take_geometry(p, x, w, dtype_opt->count() > 0);
        }
        exec::ConvShapes s = exec::conv_shapes(p);
        if (a->check || !a->input.empty()) {
            // Multiply-adds of one run (the pipeline and the direct loop each
            // do this many), from the validated shapes, as doubles: no overflow.
            const double macs = double(p.n) * double(p.cout) * double(p.out_h()) *
                                double(p.out_w()) * double(p.cin) * double(p.win.kh) *
                                double(p.win.kw);
            check_work(macs, a->max_steps, a->check ? "conv --check" : "conv --input",
                       "multiply-adds", "--max-steps");
        }
        work_begins();
        std::string written;
        if (!a->input.empty()) written = run_files(p, x, w, a->output);
        nlohmann::json check;
        if (a->check) check = run_check(p);
        if (a->json) {
            nlohmann::json j = exec::conv_json(p, s);
            if (a->check) j["check"] = check;
            if (a->occupancy) j["occupancy"] = exec::occupancy_json(exec::conv_occupancy(p, s));
            if (!a->output.empty()) j["output_file"] = {{"path", a->output}, {"dtype", written}};
            std::cout << j.dump(2) << "\n";
            return 0;
        }
        std::cout << exec::conv_text(p, s);
        if (a->occupancy) std::cout << "\n" << exec::occupancy_text(exec::conv_occupancy(p, s));
        if (!a->output.empty())
            std::cout << "\nwrote " << a->output << ": " << to_string(s.at("output_nchw")) << " "
                      << written << "\n";
        if (a->check) {
            std::cout << "\ncheck on random data: pipeline " << check["pipeline_s"].get<double>()
                      << " s, direct loop " << check["direct_s"].get<double>() << " s, ";
            if (check.contains("max_abs_diff"))
                std::cout << "max |pipeline - direct| = " << check["max_abs_diff"].get<double>()
                          << "\n";
            else
                std::cout << check["mismatches"].get<int64_t>() << " mismatches (int8 is exact)\n";
        }
        return 0;
    };
}

}  // namespace ll::cli
