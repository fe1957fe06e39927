// `layoutlab conv`: the convolution pipeline of the lecture's case study,
// shapes only or (--input/--weight/--output, --check) on real numbers.
#include <chrono>
#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>

#include "app/cli/command.hpp"
#include "core/error.hpp"
#include "core/exec/conv.hpp"
#include "core/exec/half.hpp"
#include "core/exec/report.hpp"
#include "core/exec/window_args.hpp"

namespace ll::cli {

namespace {

struct ConvArgs {
    exec::ConvParams p = exec::conv_case_study();
    std::string pad = "1", stride = "1", dilation = "1", dtype = "fp16";
    bool json = false, check = false;
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Runs the pipeline and the direct reference on seeded random data.
nlohmann::json run_check(const exec::ConvParams& p) {
    std::mt19937 rng(1);
    nlohmann::json j;
    const size_t nx = size_t(p.n * p.cin * p.h * p.w),
                 nw = size_t(p.cout * p.cin * p.win.kh * p.win.kw);
    if (p.dtype == DType::fp16) {
        std::uniform_real_distribution<float> d(-1.0f, 1.0f);
        std::vector<float> x(nx), w(nw);
        for (auto& v : x) v = exec::round_to_half(d(rng));
        for (auto& v : w) v = exec::round_to_half(d(rng));
        auto t0 = std::chrono::steady_clock::now();
        exec::ConvResultF r = exec::conv_fp16(p, x, w);
        double tp = seconds_since(t0);
        t0 = std::chrono::steady_clock::now();
        std::vector<float> ref = exec::direct_conv(p, x, w);
        double td = seconds_since(t0);
        double err = 0;
        for (size_t i = 0; i < ref.size(); ++i)
            err = std::max(err, double(std::fabs(r.output[i] - ref[i])));
        j = {{"pipeline_s", tp}, {"direct_s", td}, {"max_abs_diff", err}};
    } else {
        std::uniform_int_distribution<int> d(-128, 127);
        std::vector<int8_t> x(nx), w(nw);
        for (auto& v : x) v = int8_t(d(rng));
        for (auto& v : w) v = int8_t(d(rng));
        auto t0 = std::chrono::steady_clock::now();
        exec::ConvResultI r = exec::conv_int8(p, x, w);
        double tp = seconds_since(t0);
        t0 = std::chrono::steady_clock::now();
        std::vector<int32_t> ref = exec::direct_conv_int8(p, x, w);
        double td = seconds_since(t0);
        int64_t bad = 0;
        for (size_t i = 0; i < ref.size(); ++i) bad += r.output[i] != ref[i];
        j = {{"pipeline_s", tp}, {"direct_s", td}, {"mismatches", bad}};
    }
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
    sub.add_option("--dtype", a->dtype, "fp16 (fp32 accumulate) or int8 (int32 accumulate)");
    sub.add_flag("--check", a->check,
                 "run on seeded random numbers and compare with a direct convolution");
    sub.add_flag("--json", a->json, "print JSON instead of text");
    return [a]() {
        exec::ConvParams p = a->p;
        p.dtype = dtype_from_name(a->dtype);
        exec::apply_window_lists(p.win, a->pad, a->stride, a->dilation);
        exec::ConvShapes s = exec::conv_shapes(p);
        nlohmann::json check;
        if (a->check) check = run_check(p);
        if (a->json) {
            nlohmann::json j = exec::conv_json(p, s);
            if (a->check) j["check"] = check;
            std::cout << j.dump(2) << "\n";
            return 0;
        }
        std::cout << exec::conv_text(p, s);
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
