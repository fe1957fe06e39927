// `layoutlab scatter`: the scatter side of scatter-gather: a packed source
// written to memory at an index list, request by request; runs and bursts as
// for a gather, plus the bursts written only in part (masked writes or
// read-modify-write) and the conflicts where an index is written twice (the
// later write wins). `agu --gather` is the read side; --plan prints the
// Scatter panel's picture.
#include <iostream>

#include "app/cli/command.hpp"
#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core/plan_text.hpp"
#include "core/view/scatter.hpp"

namespace ll::cli {

namespace {

struct ScatterArgs {
    std::string indices, dtype = "fp32";
    int64_t width = 16, burst = 64;
    bool json = false, plan = false;
};

}  // namespace

Runner setup_scatter(CLI::App& sub) {
    auto a = std::make_shared<ScatterArgs>();
    sub.add_option("--indices", a->indices,
                   "destination element of each source element, e.g. 0,5,6,7")
        ->required();
    sub.add_option("--width", a->width, "elements per request (default 16)");
    sub.add_option("--burst", a->burst, "burst size in bytes (default 64)");
    sub.add_option("--dtype", a->dtype, "element type (default fp32)");
    sub.add_flag("--plan", a->plan, "also print the picture the Scatter panel draws");
    sub.add_flag("--json", a->json, "print JSON instead of text");
    return [a]() {
        std::vector<int64_t> idx;
        size_t p = 0;
        const std::string& s = a->indices;
        while (p <= s.size()) {
            const size_t q = std::min(s.find(',', p), s.size());
            const std::string tok = s.substr(p, q - p);
            try {
                size_t used = 0;
                idx.push_back(std::stoll(tok, &used));
                if (used != tok.size()) throw std::invalid_argument(tok);
            } catch (const std::exception&) {
                throw UsageError("--indices: '" + tok +
                                 "' is not an integer; expected comma-separated indices >= 0");
            }
            p = q + 1;
        }
        view::ScatterGather sg;
        sg.width = a->width;
        sg.burst_bytes = a->burst;
        sg.elem_bits = bits(dtype_from_name(a->dtype));
        view::ScatterReport r;
        try {
            r = view::scatter(sg, idx);
        } catch (const UsageError& e) {
            throw UsageError(e.key().empty() ? std::string(e.what())
                                             : "--" + e.key() + ": " + e.detail());
        }
        Plan picture;
        if (a->plan) {
            try {
                picture = view::scatter_plan(r, sg);
            } catch (const UsageError& e) {
                throw UsageError("--plan: " + e.detail());
            }
        }
        if (a->json) {
            nlohmann::json j = view::scatter_to_json(r, sg);
            if (a->plan) j["plan"] = plan_json(picture);
            std::cout << j.dump(2) << "\n";
            return 0;
        }
        std::cout << "scatter of " << r.elements << " elements, " << r.requests.size()
                  << " requests of width " << sg.width << ", " << sg.burst_bytes << " B bursts\n";
        for (size_t i = 0; i < r.requests.size(); ++i) {
            const view::ScatterRequest& q = r.requests[i];
            std::cout << "  request " << i << " (source " << q.first << "..): " << q.runs
                      << " runs, " << q.bursts << " bursts, " << q.partial_bursts
                      << " written in part\n";
        }
        std::cout << "total: " << r.runs << " runs, " << r.bursts << " bursts, " << r.partial_bursts
                  << " partial (masked write or read-modify-write)\n";
        std::cout << "conflicts: " << r.conflicts.size()
                  << (r.conflicts.empty() ? "\n" : " (the later write wins):\n");
        for (const view::ScatterConflict& c : r.conflicts) {
            std::cout << "  index " << c.index << " written by source";
            for (int64_t w : c.writers) std::cout << " " << w;
            std::cout << " -> holds " << c.writers.back() << "\n";
        }
        if (a->plan) std::cout << "\n" << plan_text(picture);
        return 0;
    };
}

}  // namespace ll::cli
