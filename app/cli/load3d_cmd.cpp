// `layoutlab load3d`: LoadData 3D (img2col on the way A1 -> A2). With no
// options it runs the call example that closes document 001 (which the
// document files under Load2D; it is this instruction).
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/cli/command.hpp"
#include "core/error.hpp"
#include "core/exec/load3d.hpp"
#include "core/exec/report.hpp"
#include "core/shape.hpp"
#include "core/validate_only.hpp"

namespace ll::cli {

namespace {
struct Load3dArgs {
    exec::Load3dParams p = exec::load3d_doc_example();
    std::string dtype = "fp16", pad_list;
    bool json = false;
};
}  // namespace

Runner setup_load3d(CLI::App& sub) {
    auto a = std::make_shared<Load3dArgs>();
    auto& p = a->p;
    sub.add_option("--dtype", a->dtype, "fp16, int8 or uint8 (default fp16)");
    sub.add_option("--c1", p.c1, "C1 slices of the feature map in A1 (default 2)");
    sub.add_option("--h", p.h, "feature map height in A1 (default 4)");
    sub.add_option("--w", p.w, "feature map width in A1 (default 4)");
    sub.add_option("--pad-list", a->pad_list, "padList left,right,top,bottom (default 1,1,1,1)");
    sub.add_option("--c1-index", p.c1_index, "c1Index: first channel slice");
    sub.add_option("--fetch-w", p.fetch_filter_w, "fetchFilterW: first kernel column");
    sub.add_option("--fetch-h", p.fetch_filter_h, "fetchFilterH: first kernel row");
    sub.add_option("--left-top-w", p.left_top_w,
                   "leftTopW: first window column (-padLeft = in the pad)");
    sub.add_option("--left-top-h", p.left_top_h, "leftTopH: first window row");
    sub.add_option("--stride-w", p.stride_w, "strideW 1..63");
    sub.add_option("--stride-h", p.stride_h, "strideH 1..63");
    sub.add_option("--kw", p.kw, "filterW 1..255 (default 2)");
    sub.add_option("--kh", p.kh, "filterH 1..255 (default 2)");
    sub.add_option("--dilation-w", p.dil_w, "dilationFilterW 1..255 (default 2)");
    sub.add_option("--dilation-h", p.dil_h, "dilationFilterH 1..255 (default 2)");
    sub.add_option("--jump-stride", p.jump_stride, "jumpStride 1..127 (repeatMode 1)");
    sub.add_option("--repeat-mode", p.repeat_mode,
                   "0: repeat walks kernel positions (K); 1: window positions (M)");
    sub.add_option("--repeat", p.repeat, "repeatTime 1..255 (default: the example's fmRepeat, 8)");
    sub.add_option("--c-size", p.c_size, "cSize: 0 (the 4-channel mode is not modelled)");
    sub.add_option("--pad-value", p.pad_value,
                   "padValue written where the window leaves the image");
    sub.add_flag("--json", a->json, "print JSON (fractals, dst_of) instead of text");
    return [a]() {
        exec::Load3dParams q = a->p;
        q.dtype = dtype_from_name(a->dtype);
        check_value_fits(q.dtype, q.pad_value, "--pad-value");
        if (!a->pad_list.empty()) {
            std::vector<int64_t> v = parse_int_list(a->pad_list, "--pad-list");
            if (v.size() != 4)
                throw UsageError("--pad-list '" + a->pad_list + "' has " +
                                 std::to_string(v.size()) +
                                 " values; expected 4: left,right,top,bottom");
            q.pad_left = v[0];
            q.pad_right = v[1];
            q.pad_top = v[2];
            q.pad_bottom = v[3];
        }
        exec::LoadResult r = exec::load3d(q);
        work_begins();  // load3d checked the parameters; printing is the work
        if (a->json) {
            nlohmann::json j = exec::load_json(r);
            j["params"] = {{"instruction", "load3d"},
                           {"dtype", name(q.dtype)},
                           {"c1", q.c1},
                           {"h", q.h},
                           {"w", q.w},
                           {"pad_list", {q.pad_left, q.pad_right, q.pad_top, q.pad_bottom}},
                           {"ho", q.out_h()},
                           {"wo", q.out_w()},
                           {"repeat_mode", q.repeat_mode},
                           {"repeat", q.repeat},
                           {"pad_value", q.pad_value}};
            std::cout << j.dump() << "\n";
            return 0;
        }
        std::cout << "Load3D (img2col) " << name(q.dtype) << " A1 [C1=" << q.c1 << "][H=" << q.h
                  << "][W=" << q.w << "][C0=" << q.c0() << "] -> A2, kernel " << q.kh << "x" << q.kw
                  << ", dilation " << q.dil_h << "x" << q.dil_w << ", stride " << q.stride_h << "x"
                  << q.stride_w << ", output " << q.out_h() << "x" << q.out_w()
                  << " windows; repeatMode " << q.repeat_mode << ", repeat " << q.repeat << "\n"
                  << exec::load_text(r, "kernel position q");
        return 0;
    };
}

}  // namespace ll::cli
