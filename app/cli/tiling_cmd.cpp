// `layoutlab tiling`: one two-level tiling configuration through the cost
// model of document 003, section 15 (defaults: the first row of its table).
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "app/cli/command.hpp"
#include "app/cli/tiling_options.hpp"
#include "app/plot/tiling_plots.hpp"
#include "core/io/atomic_file.hpp"
#include "core/tiling/doc_table.hpp"
#include "core/tiling/tiling.hpp"
#include "core/tiling/traverse.hpp"
#include "core/validate_only.hpp"

namespace ll::cli {

namespace {

struct TilingArgs {
    TilingModelOptions model;
    std::string l1_tile = "16,14,14", l2_tile = "4,7,7", l1_order = "W_H_C", l2_order = "W_H_C";
    std::string svg, png, csv, plot = "heatmap";
    bool json = false, table = false, formula_only = false, traverse = false;
};

nlohmann::json strides_json(const std::array<int64_t, 3>& s) {
    return {{"C", s[0]}, {"H", s[1]}, {"W", s[2]}};
}

nlohmann::json level_json(const tiling::LevelResult& l) {
    return {{"name", l.name},
            {"order", tiling::to_string(l.order)},
            {"innermost", std::string(1, tiling::dim_char(l.innermost))},
            {"stride", l.stride},
            {"access_bytes", l.access_bytes},
            {"source_strides", strides_json(l.source_strides)},
            {"destination_strides", strides_json(l.dest_strides)},
            {"efficiency", l.efficiency},
            {"reasoning", l.reasoning},
            {"blocks", l.blocks},
            {"bytes", l.bytes},
            {"bandwidth_gbps", l.bandwidth_gbps},
            {"time_us", l.time_us},
            {"setup_us", l.setup_us},
            {"energy_uj", l.energy_uj}};
}

std::string fmt(const char* f, double v) {
    char b[64];
    std::snprintf(b, sizeof b, f, v);
    return b;
}

std::string strides_text(const std::array<int64_t, 3>& s) {
    return std::to_string(s[0]) + "/" + std::to_string(s[1]) + "/" + std::to_string(s[2]);
}

void print_text(const tiling::Config& c, const tiling::Result& r) {
    std::cout << "tiling: shape " << ll::to_string(c.shape) << " " << name(c.dtype) << " "
              << c.layout << ", L1 tile " << tiling::to_string(c.l1_tile) << " order "
              << tiling::to_string(c.l1_order) << ", L2 sub-tile " << tiling::to_string(c.l2_tile)
              << " order " << tiling::to_string(c.l2_order) << "\n        " << c.l2_passes
              << " SRAM->register pass(es) per tile, strides read in the " << name(c.basis)
              << " buffer, access units DRAM " << c.mem.dram.access_bytes << " B / SRAM "
              << c.mem.sram.access_bytes << " B\n\n";
    std::printf("%-22s %-6s %-5s %-7s %-16s %-14s %-8s %-10s %-11s %-10s\n", "level", "order",
                "steps", "stride", "src C/H/W", "dst C/H/W", "eff", "bytes", "time", "energy");
    for (const tiling::LevelResult* l : {&r.l1, &r.l2})
        std::printf("%-22s %-6s %-5c %-7lld %-16s %-14s %-8s %-10lld %-11s %-10s\n",
                    l->name.c_str(), tiling::to_string(l->order).c_str(),
                    tiling::dim_char(l->innermost), (long long)l->stride,
                    strides_text(l->source_strides).c_str(), strides_text(l->dest_strides).c_str(),
                    fmt("%.4g", l->efficiency).c_str(), (long long)l->bytes,
                    fmt("%.2f us", l->time_us).c_str(), fmt("%.2f uJ", l->energy_uj).c_str());
    std::printf("%-22s %-6s %-5s %-7s %-16s %-14s %-8s %-10lld %-11s %-10s\n", "total", "", "", "",
                "", "", "", (long long)(r.l1.bytes + r.l2.bytes),
                fmt("%.2f us", r.total_us).c_str(), fmt("%.2f uJ", r.total_energy_uj).c_str());
    std::cout << "\nwhy:\n  L1: " << r.l1.reasoning << "\n  L2: " << r.l2.reasoning << "\n";
    std::cout << "\nfootprint: tile " << r.tile_bytes << " B in SRAM ("
              << (r.fits_sram ? "fits" : "DOES NOT FIT") << " " << c.mem.sram.capacity_bytes
              << " B), sub-tile " << r.subtile_bytes << " B in registers ("
              << (r.fits_registers ? "fits" : "DOES NOT FIT") << " " << c.mem.reg.capacity_bytes
              << " B)\n";
}

// `--table`: document 003's table 15.4.1 as one slide-ready table (a
// Markdown pipe table), the model beside the printed numbers, the ratio, and
// the settings fitted to it named; --csv exports it, --json prints it.
int print_table(const tiling::Config& c, const TilingArgs& a) {
    const tiling::DocTable t = tiling::table_15_4_1(c);
    const std::string title = "Table 15.4.1 (document 003): " + ll::to_string(c.shape) + " " +
                              name(c.dtype) + ", L1 tile " + tiling::to_string(c.l1_tile) +
                              ", L2 sub-tile " + tiling::to_string(c.l2_tile);
    if (!a.csv.empty()) {
        std::string csv =
            "configuration,L1 efficiency,L2 efficiency,total us,document L1,document L2,"
            "document us\n";
        for (const auto& r : t.rows)
            csv += r.config + "," + fmt("%.4f", r.model.l1.efficiency) + "," +
                   fmt("%.4f", r.model.l2.efficiency) + "," + fmt("%.2f", r.model.total_us) + "," +
                   fmt("%.2f", r.doc_l1) + "," + fmt("%.2f", r.doc_l2) + "," +
                   fmt("%.1f", r.doc_us) + "\n";
        csv += "ratio," + fmt("%.2f", t.ratio) + ",,,,," + fmt("%.1f", t.doc_ratio) + "\n";
        write_file_atomic(a.csv, csv);
    }
    if (a.json) {
        nlohmann::json j = {{"title", title},
                            {"ratio", t.ratio},
                            {"document_ratio", t.doc_ratio},
                            {"formula_only", t.formula_only},
                            {"fitted_settings",
                             {{"access_bytes", {c.mem.dram.access_bytes, c.mem.sram.access_bytes}},
                              {"l2_passes", c.l2_passes}}}};
        for (const auto& r : t.rows)
            j["rows"].push_back(
                {{"configuration", r.config},
                 {"l1_efficiency", r.model.l1.efficiency},
                 {"l2_efficiency", r.model.l2.efficiency},
                 {"total_us", r.model.total_us},
                 {"document", {{"l1", r.doc_l1}, {"l2", r.doc_l2}, {"us", r.doc_us}}}});
        if (!a.csv.empty()) j["csv"] = a.csv;
        std::cout << j.dump(2) << "\n";
        return 0;
    }
    std::cout << title << (t.formula_only ? " - formula (8) alone" : "") << "\n\n";
    std::printf("| %-22s | %-7s | %-7s | %-11s | %-24s |\n", "configuration", "L1 eff", "L2 eff",
                "total", "document (L1, L2, total)");
    std::printf("|%s|%s|%s|%s|%s|\n", std::string(24, '-').c_str(), std::string(9, '-').c_str(),
                std::string(9, '-').c_str(), std::string(13, '-').c_str(),
                std::string(26, '-').c_str());
    for (const auto& r : t.rows) {
        const std::string doc =
            fmt("%.2f, ", r.doc_l1) + fmt("%.2f, ", r.doc_l2) + fmt("%.1f us", r.doc_us);
        std::printf("| %-22s | %-7s | %-7s | %-11s | %-24s |\n", r.config.c_str(),
                    fmt("%.4f", r.model.l1.efficiency).c_str(),
                    fmt("%.4f", r.model.l2.efficiency).c_str(),
                    fmt("%.2f us", r.model.total_us).c_str(), doc.c_str());
    }
    std::printf("\nall matched vs all mismatched: %.2fx (document: %.1fx)\n", t.ratio, t.doc_ratio);
    std::cout << (t.formula_only ? "fitted settings switched off (formula (8) alone):\n"
                                 : "settings fitted to the table, not in the document:\n");
    for (const auto& f : t.fitted) std::cout << "  " << f << "\n";
    if (!t.formula_only) std::cout << "the document's formula (8) alone: add --formula-only\n";
    if (!a.csv.empty()) std::cout << "wrote " << a.csv << "\n";
    return 0;
}

}  // namespace

Runner setup_tiling(CLI::App& sub) {
    auto a = std::make_shared<TilingArgs>();
    a->model.add(sub, "0,0");
    sub.add_option("--l1-tile", a->l1_tile, "L1 tile C,H,W (DRAM->SRAM)")->capture_default_str();
    sub.add_option("--l2-tile", a->l2_tile, "L2 sub-tile C,H,W (SRAM->registers)")
        ->capture_default_str();
    sub.add_option("--l1-order", a->l1_order,
                   "L1 tile order, innermost first (W_H_C visits W first)")
        ->capture_default_str();
    sub.add_option("--l2-order", a->l2_order, "L2 sub-tile order, innermost first")
        ->capture_default_str();
    sub.add_option("--plot", a->plot,
                   "what --svg/--png/--csv show: heatmap, efficiency, time, tilesize")
        ->capture_default_str();
    sub.add_option("--svg", a->svg, "write the plot as SVG");
    sub.add_option("--png", a->png, "write the plot as PNG");
    sub.add_option("--csv", a->csv, "write the plot's data as CSV");
    sub.add_flag("--json", a->json, "print JSON instead of text");
    sub.add_flag("--table", a->table,
                 "document 003's table 15.4.1: its four rows by this model, the printed numbers "
                 "beside them and the ratio, as one table (--csv exports it)");
    sub.add_flag("--formula-only", a->formula_only,
                 "drop the two settings fitted to the table (access units, L2 passes): formula "
                 "(8) alone");
    sub.add_flag("--traverse", a->traverse,
                 "print the visiting order instead: every L1 tile's origin and the address of "
                 "its first access in the tensor, and the same for the sub-tiles of the first "
                 "tile (addresses in the tile)");
    return [a]() {
        tiling::Config c = a->model.config();
        if (a->formula_only) c = tiling::formula_only(c);
        if (a->table) {
            if (!a->svg.empty() || !a->png.empty())
                throw UsageError("--table: exports as --csv; expected --csv (or no --svg/--png)");
            if (!a->csv.empty()) plot::check_writable(a->csv);
            work_begins();
            return print_table(c, *a);
        }
        c.l1_tile = tiling::parse_extent(a->l1_tile, "--l1-tile");
        c.l2_tile = tiling::parse_extent(a->l2_tile, "--l2-tile");
        c.l1_order = tiling::parse_order(a->l1_order, "--l1-order");
        c.l2_order = tiling::parse_order(a->l2_order, "--l2-order");
        const tiling::Result r = tiling::evaluate(c);
        for (const std::string* p : {&a->svg, &a->png, &a->csv})
            if (!p->empty()) plot::check_writable(*p);
        work_begins();
        if (!a->svg.empty() || !a->png.empty() || !a->csv.empty()) {
            std::unique_ptr<plot::OrderHeatmap> heat;
            std::unique_ptr<plot::LevelBars> bars;
            std::unique_ptr<plot::TileSizeLines> lines;
            const plot::PlotSpec* spec = nullptr;
            if (a->plot == "heatmap") {
                heat = std::make_unique<plot::OrderHeatmap>(c);
                spec = &heat->spec;
            } else if (a->plot == "efficiency" || a->plot == "time") {
                bars = std::make_unique<plot::LevelBars>(c);
                spec = a->plot == "time" ? &bars->time : &bars->efficiency;
            } else if (a->plot == "tilesize") {
                lines = std::make_unique<plot::TileSizeLines>(c, tiling::Dim::W);
                spec = &lines->spec;
            } else {
                throw UsageError("--plot: unknown plot '" + a->plot +
                                 "'; expected heatmap, efficiency, time or tilesize");
            }
            if (!a->csv.empty()) plot::write_csv(*spec, a->csv);
            if (!a->svg.empty()) plot::write_svg(*spec, a->svg);
            if (!a->png.empty()) plot::write_png(*spec, a->png);
        }
        if (a->traverse) {
            if (a->json)
                std::cout << tiling::traversal_json(c).dump(2) << "\n";
            else
                std::cout << tiling::traversal_text(c);
            return 0;
        }
        if (a->json) {
            nlohmann::json j = {
                {"shape", c.shape},
                {"layout", c.layout},
                {"dtype", name(c.dtype)},
                {"l1_tile", extent_json(c.l1_tile)},
                {"l2_tile", extent_json(c.l2_tile)},
                {"l1_order", tiling::to_string(c.l1_order)},
                {"l2_order", tiling::to_string(c.l2_order)},
                {"l2_passes", c.l2_passes},
                {"stride_basis", name(c.basis)},
                {"access_bytes", {c.mem.dram.access_bytes, c.mem.sram.access_bytes}},
                {"l1_efficiency", r.l1.efficiency},
                {"l2_efficiency", r.l2.efficiency},
                {"l1_us", r.l1.time_us},
                {"l2_us", r.l2.time_us},
                {"total_us", r.total_us},
                {"total_energy_uj", r.total_energy_uj},
                {"tile_bytes", r.tile_bytes},
                {"subtile_bytes", r.subtile_bytes},
                {"fits_sram", r.fits_sram},
                {"fits_registers", r.fits_registers},
                {"levels", {level_json(r.l1), level_json(r.l2)}}};
            std::cout << j.dump(2) << "\n";
        } else {
            print_text(c, r);
        }
        return 0;
    };
}

}  // namespace ll::cli
