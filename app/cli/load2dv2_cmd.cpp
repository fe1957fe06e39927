// `layoutlab load2dv2`: the LoadData 2D v2 instruction
// (document 001), the fractal copies they make and, for every destination
// element, the source element it holds.
#include <sstream>

#include "app/cli/command.hpp"
#include "app/cli/load_options.hpp"
#include "core/exec/load2d.hpp"
#include "core/validate_only.hpp"

namespace ll::cli {

namespace {

struct Load2dV2Args {
    exec::Load2dV2Params p;
    LoadCommon c;
};

}  // namespace

Runner setup_load2dv2(CLI::App& sub) {
    auto a = std::make_shared<Load2dV2Args>();
    add_load_options(sub, a->c, a->p.src_fractals, a->p.sid, a->p.transpose,
                     "ifTranspose (L1->L0 only; b8: mStep even, b4: mStep %4, b32: kStep even)");
    sub.add_option("--m-start", a->p.m_start, "mStartPosition, unit 16 rows (one fractal)");
    sub.add_option("--k-start", a->p.k_start, "kStartPosition, unit 32 bytes (one fractal)");
    sub.add_option("--m-step", a->p.m_step, "mStep: fractals along M, 0..255 (default 1)");
    sub.add_option("--k-step", a->p.k_step, "kStep: fractals along K, 0..255 (default 1)");
    sub.add_option("--src-stride", a->p.src_stride,
                   "srcStride: fractals between K-neighbours in the source (default 1)");
    sub.add_option("--dst-stride", a->p.dst_stride,
                   "dstStride: fractals between K-neighbours in the destination (default 1)");
    return [a]() {
        exec::Load2dV2Params p = a->p;
        resolve_load(a->c, p);
        exec::LoadResult r = exec::load2d_v2(p);
        work_begins();  // load2d_v2 checked the parameters; printing is the work
        std::ostringstream head;
        head << "Load2Dv2 " << name(p.dtype) << " " << path_name(p.src, p.dst) << ": m "
             << p.m_start << "+" << p.m_step << ", k " << p.k_start << "+" << p.k_step
             << ", srcStride " << p.src_stride << ", dstStride " << p.dst_stride
             << (p.transpose ? ", transpose" : "");
        print_load(r, a->c, head.str(),
                   {{"instruction", "load2dv2"},
                    {"dtype", name(p.dtype)},
                    {"path", path_name(p.src, p.dst)},
                    {"m_start", p.m_start},
                    {"k_start", p.k_start},
                    {"m_step", p.m_step},
                    {"k_step", p.k_step},
                    {"src_stride", p.src_stride},
                    {"dst_stride", p.dst_stride},
                    {"transpose", p.transpose}});
        return 0;
    };
}

}  // namespace ll::cli
