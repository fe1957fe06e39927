// `layoutlab load2d`: the LoadData 2D (v1) instruction
// (document 001), the fractal copies they make and, for every destination
// element, the source element it holds.
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/cli/command.hpp"
#include "core/exec/load2d.hpp"
#include "core/exec/report.hpp"

namespace ll::cli {

namespace {

struct Load2dArgs {
    exec::Load2dParams p;
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

Runner setup_load2d(CLI::App& sub) {
    auto a = std::make_shared<Load2dArgs>();
    sub.add_option("--dtype", a->dtype, "element type (default fp16); fractal = 16 x 32 bytes");
    sub.add_option("--path", a->path, "data path SRC->DST: GM->A1|B1|A2|B2, A1->A2, B1->B2");
    sub.add_option("--src-fractals", a->p.src_fractals, "source size in 512-byte fractals")
        ->required();
    sub.add_option("--start-index", a->p.start_index, "startIndex: first source fractal, 0..65535");
    sub.add_option("--repeat", a->p.repeat, "repeatTimes: fractals to copy, 1..255 (default 1)");
    sub.add_option("--src-stride", a->p.src_stride,
                   "srcStride: fractals from one source start to the next, 0..65535 (default 0)");
    sub.add_option("--dst-gap", a->p.dst_gap,
                   "dstGap: fractals between one destination END and the next start (default 0)");
    sub.add_option("--sid", a->p.sid, "sid: reserved, must be 0");
    sub.add_flag("--transpose", a->p.transpose,
                 "ifTranspose: transpose each 16x16 fractal (16-bit, L1->L0 only)");
    sub.add_flag("--decrement", a->p.decrement, "addrMode decrement: step the source backwards");
    sub.add_flag("--json", a->json, "print JSON (fractals, dst_of) instead of text");
    return [a]() {
        exec::Load2dParams p = a->p;
        p.dtype = dtype_from_name(a->dtype);
        exec::Path path = exec::parse_path(a->path, exec::Op::load2d);
        p.src = path.src;
        p.dst = path.dst;
        exec::LoadResult r = exec::load2d(p);
        if (!a->json)
            std::cout << "Load2D " << name(p.dtype) << " " << name(p.src) << "->" << name(p.dst)
                      << ": startIndex " << p.start_index << ", repeatTimes " << p.repeat
                      << ", srcStride " << p.src_stride << ", dstGap " << p.dst_gap
                      << (p.transpose ? ", transpose" : "") << (p.decrement ? ", decrement" : "")
                      << "\n";
        print(r, a->json,
              {{"instruction", "load2d"},
               {"dtype", name(p.dtype)},
               {"path", std::string(name(p.src)) + "->" + name(p.dst)},
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
