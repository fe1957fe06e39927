// `layoutlab view`: apply view ops to a tensor and see strides, offset,
// copies and the address of an index.
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/cli/command.hpp"
#include "core/error.hpp"
#include "core/validate_only.hpp"
#include "core/view/args.hpp"
#include "core/view/view.hpp"
#include "core/view/view_json.hpp"

namespace ll::cli {

namespace {

struct ViewArgs {
    std::string shape, layout, dtype, base = "0", index;
    int64_t elem_size = 0;
    std::vector<std::string> ops;
    bool json = false;
};

std::string hex(int64_t v) {
    std::ostringstream os;
    os << "0x" << std::hex << v;
    return os.str();
}

const char* kOpsHelp =
    "view op, applied in order (repeatable):\n"
    "  permute:0,2,3,1   transpose:1,2   reshape:6,4 (one -1 allowed)\n"
    "  slice:2:8,5:15    one start:stop[:step] per dim, comma-separated; empty\n"
    "                    parts default to 0, the size and 1; dims left out are\n"
    "                    kept whole (slice:0:10:2,: and slice:::2 are valid)\n"
    "  expand:4,3        broadcast size-1 dims / add leading dims (-1 keeps)\n"
    "  select:1,2 (index 2 of dim 1, dropping the dim)\n"
    "  squeeze[:d]  unsqueeze:d  repeat:2,1  contiguous\n"
    "  gather:1:0,2,2,5  indices 0,2,2,5 of dim 1 (index_select); an index list\n"
    "                    that is not an arithmetic run copies\n"
    "  im2col:3,3[,sh,sw[,dh,dw]]  windows over the last two dims (H,W), no\n"
    "                    padding -> (OH*OW, C*KH*KW); copies (overlapping strides)";

}  // namespace

// Ops in one chain: every step is printed, so more is never readable.
constexpr size_t kMaxViewOps = 256;

Runner setup_view(CLI::App& sub) {
    auto a = std::make_shared<ViewArgs>();
    sub.add_option("--shape", a->shape, "logical shape, e.g. 2,3,4")->required();
    sub.add_option("--layout", a->layout,
                   "memory order of the input: a name (NCHW, NHWC, CHWN, NDHWC, ...), a "
                   "blocked tag (nChw16c, NCHW8h8w) or a permutation (0,2,3,1); default row-major");
    sub.add_option("--dtype", a->dtype, "element type (default fp32)");
    sub.add_option("--elem-size", a->elem_size, "element size in bytes (instead of --dtype)");
    sub.add_option("--base", a->base, "byte address of storage element 0 (decimal or 0x hex)");
    sub.add_option(
        "--op", a->ops,
        std::string(kOpsHelp) + "\n  (at most 256 ops; results of at most 32 dimensions)");
    sub.add_option("--index", a->index, "an index of the result: print its offset and address");
    sub.add_flag("--json", a->json, "print JSON instead of text");
    return [a]() {
        using namespace ll::view;
        Shape shape = parse_shape(a->shape);
        int bits = elem_bits_from(a->dtype, a->elem_size);
        int64_t base = parse_address(a->base, "--base");
        Layout in = a->layout.empty() ? row_major(shape) : layout_from_spec(a->layout, shape);
        View v = make_view(in, bits, base);
        if (a->ops.size() > kMaxViewOps)
            throw ll::UsageError("--op: " + std::to_string(a->ops.size()) +
                                 " ops, over the limit of " + std::to_string(kMaxViewOps) +
                                 "; expected at most " + std::to_string(kMaxViewOps) + " ops");
        std::vector<Op> ops;
        for (const auto& t : a->ops) ops.push_back(parse_op(t));

        nlohmann::json steps = nlohmann::json::array();
        std::ostringstream text;
        text << "input            " << to_string(v.layout) << "  storage 0"
             << (is_contiguous(v.layout) ? ", contiguous" : "") << "\n";
        bool copied = false;
        for (const Op& op : ops) {
            Applied r = apply(v, op);
            copied = copied || r.copied;
            v = r.view;
            nlohmann::json s = layout_json(v.layout);
            s["op"] = op.text;
            s["copied"] = r.copied;
            s["storage"] = v.storage;
            steps.push_back(s);
            text << std::left << std::setw(16) << op.text << " " << to_string(v.layout)
                 << (r.copied ? "  COPY into storage " + std::to_string(v.storage) : "  view")
                 << (is_contiguous(v.layout) ? ", contiguous" : ", not contiguous") << "\n";
        }
        Coord idx;
        if (!a->index.empty()) idx = parse_index(a->index, v.shape());
        work_begins();

        if (a->json) {
            nlohmann::json j = layout_json(v.layout);
            j["copied"] = copied;
            j["storage"] = v.storage;
            j["elem_bits"] = bits;
            j["base"] = base;
            j["input"] = layout_json(in);
            j["steps"] = steps;
            if (!a->index.empty()) {
                j["index"] = idx;
                j["element_offset"] = v.element_offset(idx);
                j["address"] = v.address(idx);
                j["source_offset"] = resolve(v, idx);
            }
            std::cout << j.dump(2) << "\n";
            return 0;
        }
        std::cout << text.str();
        std::cout << "result: " << to_string(v.layout) << " on storage " << v.storage
                  << (v.storage ? " (a copy)" : " (the input's)") << ", "
                  << (is_contiguous(v.layout) ? "contiguous" : "not contiguous") << ", "
                  << "storage offset " << v.layout.offset << "\n";
        std::string grid = grid_string(v.layout, 256);
        if (!grid.empty()) std::cout << "element offsets of the result:\n" << grid;
        if (!a->index.empty()) {
            int64_t off = v.element_offset(idx);
            std::cout << "index " << ll::to_string(idx) << ": element offset " << v.layout.offset;
            Shape st = v.layout.strides();
            for (size_t i = 0; i < idx.size(); ++i)
                if (v.layout.modes[i].flat())
                    std::cout << " + " << idx[i] << "*" << st[i];
                else  // a blocked mode: its (outer, inner) digits already weighed
                    std::cout << " + " << v.layout.modes[i](idx[i]);
            std::cout << " = " << off << "; address " << hex(base) << " + " << off << "*"
                      << (bits % 8 ? std::to_string(bits) + "/8" : std::to_string(bits / 8))
                      << " = " << hex(v.address(idx)) << " (" << v.address(idx) << ")";
            if (v.storage) std::cout << "; reads input storage offset " << resolve(v, idx);
            std::cout << "\n";
        }
        return 0;
    };
}

}  // namespace ll::cli
