// `layoutlab load2d`: the LoadData 2D (v1) instruction
// (document 001), the fractal copies they make and, for every destination
// element, the source element it holds.
#include <sstream>

#include "app/cli/command.hpp"
#include "app/cli/load_options.hpp"
#include "core/exec/load2d.hpp"
#include "core/validate_only.hpp"

namespace ll::cli {

namespace {

struct Load2dArgs {
    exec::Load2dParams p;
    LoadCommon c;
};

}  // namespace

Runner setup_load2d(CLI::App& sub) {
    auto a = std::make_shared<Load2dArgs>();
    add_load_options(sub, a->c, a->p.src_fractals, a->p.sid, a->p.transpose,
                     "ifTranspose: transpose each 16x16 fractal (16-bit, L1->L0 only)");
    sub.add_option("--start-index", a->p.start_index, "startIndex: first source fractal, 0..65535");
    sub.add_option("--repeat", a->p.repeat, "repeatTimes: fractals to copy, 1..255 (default 1)");
    sub.add_option("--src-stride", a->p.src_stride,
                   "srcStride: fractals from one source start to the next, 0..65535 (default 0)");
    sub.add_option("--dst-gap", a->p.dst_gap,
                   "dstGap: fractals between one destination END and the next start (default 0)");
    sub.add_flag("--decrement", a->p.decrement, "addrMode decrement: step the source backwards");
    return [a]() {
        exec::Load2dParams p = a->p;
        resolve_load(a->c, p);
        exec::LoadResult r = exec::load2d(p);
        work_begins();  // load2d checked the parameters; printing is the work
        std::ostringstream head;
        head << "Load2D " << name(p.dtype) << " " << path_name(p.src, p.dst) << ": startIndex "
             << p.start_index << ", repeatTimes " << p.repeat << ", srcStride " << p.src_stride
             << ", dstGap " << p.dst_gap << (p.transpose ? ", transpose" : "")
             << (p.decrement ? ", decrement" : "");
        print_load(r, a->c, head.str(),
                   {{"instruction", "load2d"},
                    {"dtype", name(p.dtype)},
                    {"path", path_name(p.src, p.dst)},
                    {"start_index", p.start_index},
                    {"repeat", p.repeat},
                    {"src_stride", p.src_stride},
                    {"dst_gap", p.dst_gap},
                    {"transpose", p.transpose},
                    {"decrement", p.decrement}});
        return 0;
    };
}

}  // namespace ll::cli
