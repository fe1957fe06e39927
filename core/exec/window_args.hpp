// Parsing the window options the CLI and scenes share: "--pad 1" (all
// sides), "1,2" (top=bottom=1, left=right=2) or "t,b,l,r"; "--stride 2" or
// "2,1" (h,w); the same for dilation. Throws UsageError naming the option.
// Example: apply_window_lists(w, "0,1,2,3", "2", "1,2") gives pads t0 b1 l2
// r3, stride 2x2, dilation 1 (h) and 2 (w).
#pragma once

#include <string>

#include "core/exec/img2col.hpp"

namespace ll::exec {

void apply_window_lists(Window2d& w, const std::string& pad, const std::string& stride,
                        const std::string& dilation);

}  // namespace ll::exec
