// `layoutlab load2dv2`: the LoadData 2D v2 instruction
// (document 001), the fractal copies they make and, for every destination
// element, the source element it holds.
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/cli/command.hpp"
#include "core/exec/load2d.hpp"
#include "core/exec/report.hpp"

namespace ll::cli {

namespace {

struct Load2dV2Args {
    exec::Load2dV2Params p;
    std::string dtype = "fp16", path = "A1->A2";
    bool json = false;
};

void print(const exec::LoadResult& r, bool json, nlohmann::json head) {
    if (json) {
        nlohmann::json j = exec::load_json(r);
        j["params"] = std::move(head);
        std::cout << j.dump() << "\n";
    } else {
        std::cout << exec::load_text(r);
    }
}

}  // namespace

Runner setup_load2dv2(CLI::App& sub) {
    auto a = std::make_shared<Load2dV2Args>();
    sub.add_option("--dtype", a->dtype, "element type (default fp16)");
    sub.add_option("--path", a->path, "data path SRC->DST (default A1->A2)");
    sub.add_option("--src-fractals", a->p.src_fractals, "source size in 512-byte fractals")
        ->required();
    sub.add_option("--m-start", a->p.m_start, "mStartPosition, unit 16 rows (one fractal)");
    sub.add_option("--k-start", a->p.k_start, "kStartPosition, unit 32 bytes (one fractal)");
    sub.add_option("--m-step", a->p.m_step, "mStep: fractals along M, 0..255 (default 1)");
    sub.add_option("--k-step", a->p.k_step, "kStep: fractals along K, 0..255 (default 1)");
    sub.add_option("--src-stride", a->p.src_stride,
                   "srcStride: fractals between K-neighbours in the source (default 1)");
    sub.add_option("--dst-stride", a->p.dst_stride,
                   "dstStride: fractals between K-neighbours in the destination (default 1)");
    sub.add_option("--sid", a->p.sid, "sid: reserved, must be 0");
    sub.add_flag("--transpose", a->p.transpose,
                 "ifTranspose (L1->L0 only; b8: mStep even, b4: mStep %4, b32: kStep even)");
    sub.add_flag("--json", a->json, "print JSON (fractals, dst_of) instead of text");
    return [a]() {
        exec::Load2dV2Params p = a->p;
        p.dtype = dtype_from_name(a->dtype);
        exec::Path path = exec::parse_path(a->path, exec::Op::load2d);
        p.src = path.src;
        p.dst = path.dst;
        exec::LoadResult r = exec::load2d_v2(p);
        if (!a->json)
            std::cout << "Load2Dv2 " << name(p.dtype) << " " << name(p.src) << "->" << name(p.dst)
                      << ": m " << p.m_start << "+" << p.m_step << ", k " << p.k_start << "+"
                      << p.k_step << ", srcStride " << p.src_stride << ", dstStride "
                      << p.dst_stride << (p.transpose ? ", transpose" : "") << "\n";
        print(r, a->json,
              {{"instruction", "load2dv2"},
               {"dtype", name(p.dtype)},
               {"path", std::string(name(p.src)) + "->" + name(p.dst)},
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
