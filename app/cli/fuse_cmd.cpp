// `layoutlab fuse`: a chain of transforms composed into one read map, with
// each step's class and the bytes moved unfused (every step materialised,
// free when its output is its input buffer as it lies)
// against fused (one pass).
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/cli/command.hpp"
#include "core/validate_only.hpp"
#include "core/view/args.hpp"
#include "core/view/fuse.hpp"
#include "core/view/view_json.hpp"

namespace ll::cli {

namespace {

struct FuseArgs {
    std::string shape, layout, dtype;
    int64_t elem_size = 0;
    std::vector<std::string> ops;
    bool json = false;
};

std::string list(const std::vector<int64_t>& v) {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
    return s;
}

}  // namespace

Runner setup_fuse(CLI::App& sub) {
    auto a = std::make_shared<FuseArgs>();
    sub.add_option("--shape", a->shape, "logical shape of the input, e.g. 1,64,56,56")->required();
    sub.add_option(
        "--layout", a->layout,
        "memory order of the input (NCHW, NHWC, nChw16c, 0,2,3,1, ...); default row-major");
    sub.add_option("--dtype", a->dtype, "element type (default fp32)");
    sub.add_option("--elem-size", a->elem_size, "element size in bytes (instead of --dtype)");
    sub.add_option("--op", a->ops,
                   "transform, applied in order (repeatable); same syntax as `layoutlab view`:\n"
                   "  bijective: permute:0,2,3,1 transpose:1,2 reshape:1,64,3136 contiguous\n"
                   "             unsqueeze:d\n"
                   "  expanding: expand:4,3 repeat:2,1\n"
                   "             im2col:kh,kw[,sh,sw[,dh,dw]] windows of the last two dims,\n"
                   "             no padding -> (OH*OW, C*KH*KW), fused as overlapping strides\n"
                   "  selecting: slice:0:4:2,: select:d,i squeeze[:d]\n"
                   "             gather:d:i,j,... indices of dim d in that order (repeats ok),\n"
                   "             fused as an index array")
        ->required();
    sub.add_flag("--json", a->json, "print JSON instead of text");
    return [a]() {
        using namespace ll::view;
        Shape shape = parse_shape(a->shape);
        int bits = elem_bits_from(a->dtype, a->elem_size);
        Layout in = a->layout.empty() ? row_major(shape) : layout_from_spec(a->layout, shape);
        std::vector<Op> ops;
        for (const auto& t : a->ops) ops.push_back(parse_op(t));
        Fused f = fuse(make_view(in, bits), ops);
        work_begins();

        if (a->json) {
            nlohmann::json j;
            j["input"] = layout_json(in);
            j["elem_bits"] = bits;
            nlohmann::json steps = nlohmann::json::array();
            for (const auto& s : f.steps)
                steps.push_back({{"op", s.op.text},
                                 {"category", name(s.category)},
                                 {"in_shape", s.in_shape},
                                 {"out_shape", s.out_shape},
                                 {"map", to_string(s.map.layout)},
                                 {"composite", s.map.storage != 0},
                                 {"expansion", expansion(s)},
                                 {"reads", s.reads},
                                 {"writes", s.writes}});
            j["steps"] = steps;
            j["fused"] = to_string(f.result.layout);
            j["fused_layout"] = layout_json(f.result.layout);
            j["composite"] = f.composite;
            j["identity"] = f.identity;
            j["permutation"] = f.permutation ? nlohmann::json(*f.permutation) : nlohmann::json();
            j["moves_nothing"] = f.moves_nothing;
            j["distinct_reads"] = f.distinct_reads;
            j["moved_bytes"] = f.moved_bytes;
            j["unfused_moved_bytes"] = f.unfused_moved_bytes;
            std::cout << j.dump(2) << "\n";
            return 0;
        }
        std::cout << "input " << to_string(in) << "\n";
        for (size_t i = 0; i < f.steps.size(); ++i) {
            const auto& s = f.steps[i];
            std::cout << std::setw(2) << i + 1 << " " << std::left << std::setw(20) << s.op.text
                      << std::setw(10) << name(s.category) << " " << ll::to_string(s.in_shape)
                      << " -> " << ll::to_string(s.out_shape) << "   composed map "
                      << to_string(s.map.layout);
            if (s.category == Category::expanding)
                std::cout << "  x" << std::fixed << std::setprecision(2) << expansion(s)
                          << std::defaultfloat;
            if (s.map.gather)
                std::cout << " (through an index array)";
            else if (s.map.storage)
                std::cout << " (after a copy)";
            std::cout << std::right << "\n";
        }
        std::cout << "fused read map: " << map_string(f.result);
        if (f.composite)
            std::cout
                << "\n  (no single layout expresses the chain: the one pass composes the maps)";
        std::cout << "\n";
        if (f.identity)
            std::cout << "the chain is the identity: nothing moves\n";
        else if (f.moves_nothing)
            std::cout << "the result is the input's memory as it lies: nothing moves\n";
        else if (f.permutation)
            std::cout << "a pure permutation of the input dims: (" << list(*f.permutation) << ")\n";
        std::cout << "bytes moved: unfused " << f.unfused_moved_bytes
                  << " (each step that is not a view of its input buffer reads it and writes"
                  << " a new one), fused " << f.moved_bytes << " (one read of " << f.distinct_reads
                  << " elements, one write)";
        if (f.moved_bytes > 0)
            std::cout << ", " << std::fixed << std::setprecision(2)
                      << double(f.unfused_moved_bytes) / double(f.moved_bytes) << "x less";
        std::cout << "\n";
        return 0;
    };
}

}  // namespace ll::cli
