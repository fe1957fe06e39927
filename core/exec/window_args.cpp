#include "core/exec/window_args.hpp"

#include "core/checked.hpp"
#include "core/error.hpp"
#include "core/shape.hpp"

namespace ll::exec {

namespace {
void pair(const std::string& text, const std::string& what, int64_t& a, int64_t& b) {
    std::vector<int64_t> v = parse_int_list(text, what);
    if (v.size() == 1) {
        a = b = v[0];
    } else if (v.size() == 2) {
        a = v[0];
        b = v[1];
    } else {
        throw usage_error(what, "'" + text + "' has " + std::to_string(v.size()) +
                                    " values; expected 1 (both axes) or 2 (h,w)");
    }
}
}  // namespace

void apply_window_lists(Window2d& w, const std::string& pad, const std::string& stride,
                        const std::string& dilation) {
    if (!pad.empty()) {
        std::vector<int64_t> v = parse_int_list(pad, "pad");
        if (v.size() == 1) {
            w.pad_top = w.pad_bottom = w.pad_left = w.pad_right = v[0];
        } else if (v.size() == 2) {
            w.pad_top = w.pad_bottom = v[0];
            w.pad_left = w.pad_right = v[1];
        } else if (v.size() == 4) {
            w.pad_top = v[0];
            w.pad_bottom = v[1];
            w.pad_left = v[2];
            w.pad_right = v[3];
        } else {
            throw UsageError(
                "pad", "'" + pad + "' has " + std::to_string(v.size()) +
                           " values; expected 1 (all sides), 2 (h,w) or 4 (top,bottom,left,right)");
        }
    }
    if (!stride.empty()) pair(stride, "stride", w.stride_h, w.stride_w);
    if (!dilation.empty()) pair(dilation, "dilation", w.dil_h, w.dil_w);
}

}  // namespace ll::exec
