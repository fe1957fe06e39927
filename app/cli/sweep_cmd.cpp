// `layoutlab sweep`: every L1 order x L2 order x (tile, sub-tile) size that
// fits the on-chip capacities, ranked by time, with the Pareto front of time
// vs footprint; CSV of every configuration and a scatter plot.
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "app/cli/command.hpp"
#include "app/cli/tiling_options.hpp"
#include "app/plot/tiling_plots.hpp"
#include "core/tiling/sweep.hpp"

namespace ll::cli {

namespace {

struct SweepArgs {
    TilingModelOptions model;
    std::string c_sizes, h_sizes, w_sizes, csv, svg, png;
    int top = 10;
    int64_t max_configs = 4'000'000;
    int width = 900, height = 560;
    bool json = false;
};

nlohmann::json row_json(const tiling::SweepRow& r, size_t rank) {
    return {{"rank", rank},
            {"l1_tile", extent_json(r.tile)},
            {"l2_tile", extent_json(r.sub)},
            {"l1_order", tiling::to_string(tiling::all_orders()[r.l1_order])},
            {"l2_order", tiling::to_string(tiling::all_orders()[r.l2_order])},
            {"l1_efficiency", r.l1_eff},
            {"l2_efficiency", r.l2_eff},
            {"l1_us", r.l1_us},
            {"l2_us", r.l2_us},
            {"total_us", r.total_us()},
            {"footprint_bytes", r.footprint}};
}

std::string csv_of(const tiling::SweepResult& res) {
    std::vector<char> on_front(res.rows.size(), 0);
    for (uint32_t i : res.pareto) on_front[i] = 1;
    std::string out =
        "rank,l1_tile_c,l1_tile_h,l1_tile_w,l2_tile_c,l2_tile_h,l2_tile_w,l1_order,l2_order,"
        "l1_efficiency,l2_efficiency,l1_us,l2_us,total_us,footprint_bytes,pareto\n";
    out.reserve(res.rows.size() * 96);
    char line[256];
    const auto& orders = tiling::all_orders();
    for (size_t k = 0; k < res.ranking.size(); ++k) {
        const tiling::SweepRow& r = res.rows[res.ranking[k]];
        std::snprintf(
            line, sizeof line,
            "%zu,%lld,%lld,%lld,%lld,%lld,%lld,%s,%s,%.6g,%.6g,%.6f,%.6f,%.6f,%lld,%d\n", k + 1,
            (long long)r.tile.c, (long long)r.tile.h, (long long)r.tile.w, (long long)r.sub.c,
            (long long)r.sub.h, (long long)r.sub.w, tiling::to_string(orders[r.l1_order]).c_str(),
            tiling::to_string(orders[r.l2_order]).c_str(), double(r.l1_eff), double(r.l2_eff),
            r.l1_us, r.l2_us, r.total_us(), (long long)r.footprint, int(on_front[res.ranking[k]]));
        out += line;
    }
    return out;
}

std::vector<int64_t> sizes(const std::string& s, const char* what) {
    return s.empty() ? std::vector<int64_t>{} : parse_int_list(s, what);
}

}  // namespace

Runner setup_sweep(CLI::App& sub) {
    auto a = std::make_shared<SweepArgs>();
    a->model.add(sub, "50,5");
    sub.add_option("--c-sizes", a->c_sizes, "candidate tile sizes in C (default: divisors of C)");
    sub.add_option("--h-sizes", a->h_sizes, "candidate tile sizes in H (default: divisors of H)");
    sub.add_option("--w-sizes", a->w_sizes, "candidate tile sizes in W (default: divisors of W)");
    sub.add_option("--top", a->top, "rows of the ranking to print")->capture_default_str();
    sub.add_option("--max-configs", a->max_configs,
                   "refuse sweeps of more configurations than this (about 110 bytes each)")
        ->capture_default_str();
    sub.add_option("--csv", a->csv, "write every configuration, ranked, as CSV");
    sub.add_option("--svg", a->svg, "write the time vs footprint plot as SVG");
    sub.add_option("--png", a->png, "write the time vs footprint plot as PNG");
    sub.add_option("--width", a->width, "plot width, px")->capture_default_str();
    sub.add_option("--height", a->height, "plot height, px")->capture_default_str();
    sub.add_flag("--json", a->json, "print JSON instead of text");
    return [a]() {
        tiling::SweepSpec spec;
        spec.base = a->model.config();
        spec.candidates = {sizes(a->c_sizes, "--c-sizes"), sizes(a->h_sizes, "--h-sizes"),
                           sizes(a->w_sizes, "--w-sizes")};
        spec.max_configs = a->max_configs;
        if (a->top < 0)
            throw UsageError("--top " + std::to_string(a->top) + "; expected 0 or more");
        for (const std::string* p : {&a->csv, &a->svg, &a->png})
            if (!p->empty()) plot::check_writable(*p);
        const tiling::SweepResult res = tiling::sweep(spec);
        if (res.rows.empty())
            throw UsageError(
                "no tile fits the capacities; expected a larger --capacity or smaller sizes");
        if (!a->csv.empty()) plot::write_file(a->csv, csv_of(res));
        if (!a->svg.empty() || !a->png.empty()) {
            const plot::SweepScatter sc(res);
            if (!a->svg.empty()) plot::write_svg(sc.spec, a->svg, a->width, a->height);
            if (!a->png.empty()) plot::write_png(sc.spec, a->png, a->width, a->height);
        }
        const size_t top = std::min(res.ranking.size(), size_t(a->top));
        if (a->json) {
            nlohmann::json j = {{"shape", spec.base.shape},
                                {"layout", spec.base.layout},
                                {"dtype", name(spec.base.dtype)},
                                {"configs", res.rows.size()},
                                {"skipped_capacity", res.skipped_capacity},
                                {"best", row_json(res.rows[res.ranking[0]], 1)}};
            j["top"] = nlohmann::json::array();
            for (size_t k = 0; k < top; ++k)
                j["top"].push_back(row_json(res.rows[res.ranking[k]], k + 1));
            j["pareto"] = nlohmann::json::array();
            for (uint32_t i : res.pareto) j["pareto"].push_back(row_json(res.rows[i], 0));
            std::cout << j.dump(2) << "\n";
            return 0;
        }
        std::cout << "sweep: shape " << ll::to_string(spec.base.shape) << " "
                  << name(spec.base.dtype) << " " << spec.base.layout << ": " << res.rows.size()
                  << " configurations (" << res.skipped_capacity
                  << " tile pairs over capacity), setup " << spec.base.mem.dram.setup_ns
                  << " ns/tile, " << spec.base.mem.sram.setup_ns << " ns/sub-tile\n\n";
        std::printf("%-5s %-12s %-12s %-6s %-6s %-8s %-8s %-11s %-10s\n", "rank", "L1 tile",
                    "L2 sub-tile", "L1", "L2", "L1 eff", "L2 eff", "total", "footprint");
        for (size_t k = 0; k < top; ++k) {
            const tiling::SweepRow& r = res.rows[res.ranking[k]];
            char t[32];
            std::snprintf(t, sizeof t, "%.2f us", r.total_us());
            std::printf("%-5zu %-12s %-12s %-6s %-6s %-8.4g %-8.4g %-11s %lld B\n", k + 1,
                        tiling::to_string(r.tile).c_str(), tiling::to_string(r.sub).c_str(),
                        tiling::to_string(tiling::all_orders()[r.l1_order]).c_str(),
                        tiling::to_string(tiling::all_orders()[r.l2_order]).c_str(),
                        double(r.l1_eff), double(r.l2_eff), t, (long long)r.footprint);
        }
        std::cout << "\nPareto front (time vs footprint): " << res.pareto.size()
                  << " configurations, from " << plot::describe_row(res.rows[res.pareto.front()])
                  << " (" << res.rows[res.pareto.front()].footprint << " B) to "
                  << plot::describe_row(res.rows[res.pareto.back()]) << " ("
                  << res.rows[res.pareto.back()].footprint << " B)\n";
        return 0;
    };
}

}  // namespace ll::cli
