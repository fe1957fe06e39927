// `layoutlab agu`: address streams of an AGU, of a DMA with two AGUs (a
// layout-changing copy, --to), or of a scatter-gather engine (--gather).
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/cli/command.hpp"
#include "app/cli/limits.hpp"
#include "core/checked.hpp"
#include "core/error.hpp"
#include "core/validate_only.hpp"
#include "core/view/args.hpp"
#include "core/view/view_json.hpp"

namespace ll::cli {

namespace {

struct AguArgs {
    std::string shape, layout, to, bounds, strides, gather, dtype, base = "0", dst_base = "0";
    int64_t elem_size = 0, count = 16, width = 16, burst = 64, max_steps = 1'000'000;
    bool json = false;
};

std::string hex(int64_t v) {
    std::ostringstream os;
    os << "0x" << std::hex << v;
    return os.str();
}

nlohmann::json stats_json(const view::StreamStats& s) {
    return {{"count", s.count},
            {"truncated", s.truncated},
            {"runs", s.runs},
            {"longest_run", s.longest_run},
            {"deltas", s.deltas}};
}

void print_stats(const char* what, const view::StreamStats& s) {
    std::cout << what << ": " << (s.truncated ? "first " : "") << s.count << " addresses, "
              << s.runs << " contiguous runs (longest " << s.longest_run << "), address deltas";
    for (int64_t d : s.deltas) std::cout << " " << d;
    std::cout << "\n";
}

// One AGU's stream: JSON, or text with each step's logical index when the
// walked shape is known (nullptr for raw --bounds/--strides).
int print_agu(const view::Agu& g, int64_t count, bool json, const Shape* shape) {
    view::StreamStats st = view::stream_stats(g);
    auto events = view::stream(g, 0, count);
    if (json) {
        nlohmann::json ev = nlohmann::json::array();
        for (const auto& e : events) ev.push_back({e.step, e.address});
        nlohmann::json j = {{"engine", "agu"},
                            {"agu", view::agu_json(g)},
                            {"stats", stats_json(st)},
                            {"stream", ev}};
        std::cout << j.dump(2) << "\n";
        return 0;
    }
    std::cout << "agu " << view::to_string(g) << "\n";
    print_stats("stream", st);
    for (const auto& e : events) {
        std::cout << "  " << e.step;
        if (shape) std::cout << " " << ll::to_string(unravel(e.element, *shape));
        std::cout << ": " << hex(e.address) << "\n";
    }
    return 0;
}

}  // namespace

Runner setup_agu(CLI::App& sub) {
    auto a = std::make_shared<AguArgs>();
    sub.add_option("--shape", a->shape, "logical shape of the tensor walked (with --layout)");
    sub.add_option("--layout", a->layout, "its layout (NCHW, NHWC, nChw16c, 0,2,3,1, ...)");
    sub.add_option("--to", a->to, "destination layout: model a DMA copy from --layout to this");
    sub.add_option("--bounds", a->bounds, "raw AGU loop bounds, outermost first (with --strides)");
    sub.add_option("--strides", a->strides, "raw AGU strides in elements, one per bound");
    sub.add_option("--gather", a->gather,
                   "scatter-gather: element indices to gather, e.g. 0,16,32,33");
    sub.add_option("--width", a->width, "scatter-gather: elements per request (default 16)");
    sub.add_option("--burst", a->burst, "scatter-gather: burst size in bytes (default 64)");
    sub.add_option("--dtype", a->dtype, "element type (default fp32)");
    sub.add_option("--elem-size", a->elem_size, "element size in bytes (instead of --dtype)");
    sub.add_option("--base", a->base, "byte address of the (source) buffer");
    sub.add_option("--dst-base", a->dst_base, "byte address of the DMA destination buffer");
    sub.add_option("--count", a->count, "addresses to list (default 16)");
    sub.add_option("--max-steps", a->max_steps, "refuse listing more addresses (--count) than this")
        ->capture_default_str()
        ->check(positive_whole());
    sub.add_flag("--json", a->json, "print JSON instead of text");
    return [a]() {
        using namespace ll::view;
        int bits = elem_bits_from(a->dtype, a->elem_size);
        int64_t base = parse_address(a->base, "--base");
        if (a->count < 0)
            throw UsageError("--count " + std::to_string(a->count) + "; expected >= 0");
        // The budget is checked where each engine starts its work (check_work
        // ends a validate-only run, so every input check comes before it).
        auto budget = [&] {
            check_work(double(a->count), a->max_steps, "agu --count", "listed addresses",
                       "--max-steps");
        };
        nlohmann::json j;

        if (!a->gather.empty()) {
            ScatterGather sg{a->width, bits, base, a->burst};
            GatherReport r = gather(sg, parse_int_list(a->gather, "--gather"));
            budget();
            j = {{"engine", "scatter_gather"},
                 {"width", a->width},
                 {"burst_bytes", a->burst},
                 {"elements", r.elements},
                 {"requests", r.requests.size()},
                 {"runs", r.runs},
                 {"bursts", r.bursts}};
            nlohmann::json reqs = nlohmann::json::array();
            for (const auto& q : r.requests)
                reqs.push_back({{"first", q.first},
                                {"addresses", q.addresses},
                                {"runs", q.runs},
                                {"bursts", q.bursts}});
            j["request_list"] = reqs;
            if (a->json) {
                std::cout << j.dump(2) << "\n";
                return 0;
            }
            std::cout << "scatter-gather: width " << a->width << ", burst " << a->burst << " B, "
                      << r.elements << " elements in " << r.requests.size() << " requests, "
                      << r.runs << " contiguous runs, " << r.bursts << " bursts\n";
            for (size_t i = 0; i < r.requests.size() && int64_t(i) < a->count; ++i) {
                std::cout << "  request " << i << ":";
                for (int64_t ad : r.requests[i].addresses) std::cout << " " << hex(ad);
                std::cout << "  (" << r.requests[i].runs << " runs, " << r.requests[i].bursts
                          << " bursts)\n";
            }
            return 0;
        }

        if (!a->bounds.empty() || !a->strides.empty()) {
            if (a->bounds.empty() || a->strides.empty() || !a->shape.empty())
                throw UsageError(
                    "--bounds and --strides go together, without --shape; expected "
                    "e.g. --bounds 2,3 --strides 3,1");
            Layout l = make_layout(parse_shape(a->bounds, "--bounds"),
                                   parse_int_list(a->strides, "--strides"));
            const Agu g = agu_from_layout(l, bits, base);
            budget();
            return print_agu(g, a->count, a->json, nullptr);
        }

        if (a->shape.empty())
            throw UsageError(
                "nothing to model; expected --shape (with --layout, and --to for a DMA), "
                "--bounds with --strides, or --gather");
        Shape shape = parse_shape(a->shape);
        Layout src = a->layout.empty() ? row_major(shape) : layout_from_spec(a->layout, shape);
        if (a->to.empty()) {
            const Agu g = agu_from_layout(src, bits, base);
            budget();
            return print_agu(g, a->count, a->json, &shape);
        }
        Layout dst = layout_from_spec(a->to, shape);
        Dma d = make_dma(src, dst, bits, base, parse_address(a->dst_base, "--dst-base"));
        budget();
        StreamStats rs = stream_stats(d.read), ws = stream_stats(d.write);
        j = {{"engine", "dma"},
             {"read", agu_json(d.read)},
             {"write", agu_json(d.write)},
             {"read_stats", stats_json(rs)},
             {"write_stats", stats_json(ws)}};
        nlohmann::json ev = nlohmann::json::array();
        auto events = stream(d, 0, a->count);
        for (const auto& e : events) ev.push_back({e.step, e.read, e.write});
        j["stream"] = ev;
        if (a->json) {
            std::cout << j.dump(2) << "\n";
            return 0;
        }
        std::cout << "dma " << ll::to_string(shape) << ": " << to_string(src) << " -> "
                  << to_string(dst) << "\n"
                  << to_string(d) << "\n";
        print_stats("read stream ", rs);
        print_stats("write stream", ws);
        for (const auto& e : events)
            std::cout << "  " << e.step << " " << ll::to_string(unravel(e.step, shape)) << ": read "
                      << hex(e.read) << " -> write " << hex(e.write) << "\n";
        return 0;
    };
}

}  // namespace ll::cli
