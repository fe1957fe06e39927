#include "core/gpu/hardware_tables.hpp"

#include <algorithm>
#include <cstdio>

#include "core/tiling/doc_table.hpp"

namespace ll::gpu {

DocTable table_5_2() {
    DocTable t;
    t.id = "5.2";
    t.title = "Which hardware prefers which layout (document 003, section 5.2)";
    t.header = {"hardware", "preferred layout"};
    t.rows = {
        {{"NVIDIA GPU (cuDNN)", "NCHW or NHWC (depends on the algorithm)"},
         {"gpu", {{"tab", "cudnn"}}, "layoutlab cudnn"}},
        {{"Intel CPU (MKL-DNN)", "blocked (e.g. nChw16c)"},
         {"explorer",
          {{"from", "NCHW"}, {"to", "NCHW16C"}, {"shape", "1,32,4,4"}, {"dtype", "fp32"}},
          "layoutlab convert --from NCHW --to NCHW16C --shape 1,32,4,4 --dtype fp32 --stages"}},
        {{"TPU", "NHWC"}, {"systolic", nlohmann::json::object(), "layoutlab systolic"}},
        {{"custom accelerator", "depends on the datapath (Ascend: NC1HWC0 and fractals)"},
         {"explorer",
          {{"from", "NHWC"}, {"to", "NC1HWC0"}, {"shape", "1,4,4,20"}, {"dtype", "fp16"}},
          "layoutlab convert --from NHWC --to NC1HWC0 --shape 1,4,4,20 --dtype fp16 --stages"}},
    };
    t.notes = {
        "The Tensor Core GEMM path converts NCHW <-> NHWC at 11% of its time (the cuDNN "
        "time share); NCHW tiled 8x8 is NCHW8H8W in the explorer."};
    return t;
}

DocTable table_14_5() {
    DocTable t;
    t.id = "14.5";
    t.title = "Hardware for layout transforms (document 003, section 14.5)";
    t.header = {"unit", "function", "where it fits", "design complexity"};
    t.rows = {
        {{"AGU", "address computation", "every case", "low"},
         {"views",
          {{"shape", "2,3,4"}, {"ops", nlohmann::json::array({"transpose:0,2"})}},
          "layoutlab view --shape 2,3,4 --op transpose:0,2"}},
        {{"DMA + two AGUs", "fused moves", "DRAM <-> SRAM", "medium"},
         {"agu", {{"mode", "dma"}}, "layoutlab agu --shape 1,4,2,2 --layout NCHW --to NHWC"}},
        {{"scatter-gather", "non-contiguous access", "complex layout transforms", "medium-high"},
         {"agu", {{"mode", "gather"}}, "layoutlab agu --gather 0,5,6,7,20,21"}},
        {{"NoC", "distributed transforms", "multi-core accelerators", "high"},
         {"", nlohmann::json::object(), "layoutlab noc --pes 4 --shape 8,8"}},
    };
    t.notes = {
        "Design rules: configurable strides in the AGU; separate read and write AGUs in "
        "the DMA; scatter-gather for high performance; NoC redistribution at scale.",
        "The scatter side (writes to an index list: partial bursts, conflicts): the "
        "Scatter panel, `layoutlab scatter --indices 0,1,2,3,8,8 --width 4`."};
    return t;
}

nlohmann::json tiling_scene(const tiling::Config& c) {
    auto e3 = [](const tiling::Extent3& e) { return nlohmann::json::array({e.c, e.h, e.w}); };
    return {{"shape", c.shape},
            {"layout", c.layout},
            {"dtype", name(c.dtype)},
            {"l1_tile", e3(c.l1_tile)},
            {"l2_tile", e3(c.l2_tile)},
            {"l1_order", tiling::to_string(c.l1_order)},
            {"l2_order", tiling::to_string(c.l2_order)},
            {"l2_passes", c.l2_passes},
            {"access_bytes", {c.mem.dram.access_bytes, c.mem.sram.access_bytes}}};
}

DocTable table_15_4_1_linked(const tiling::Config& base, bool formula_only) {
    const tiling::Config c = formula_only ? tiling::formula_only(base) : base;
    const tiling::DocTable d = tiling::table_15_4_1(c);
    DocTable t;
    t.id = "15.4.1";
    t.title = "Layout vs tile order (document 003, table 15.4.1), by the tiling model";
    t.header = {"configuration", "L1 efficiency", "L2 efficiency", "total", "document"};
    auto f = [](const char* fmt, double v) {
        char b[64];
        std::snprintf(b, sizeof b, fmt, v);
        return std::string(b);
    };
    for (const tiling::DocRow& r : d.rows) {
        tiling::Config rc = c;
        rc.layout = r.layout;
        rc.l1_order = rc.l2_order = r.order;
        const std::string o = tiling::to_string(r.order);
        t.rows.push_back(
            {{r.config, f("%.4f", r.model.l1.efficiency), f("%.4f", r.model.l2.efficiency),
              f("%.2f us", r.model.total_us),
              f("%.2f, ", r.doc_l1) + f("%.2f, ", r.doc_l2) + f("%.1f us", r.doc_us)},
             {"tiling", tiling_scene(rc),
              "layoutlab tiling --layout " + r.layout + " --l1-order " + o + " --l2-order " + o +
                  (formula_only ? " --access-bytes 0,0 --l2-passes 1" : "")}});
    }
    t.notes.push_back(f("all matched vs all mismatched: %.2fx", d.ratio) +
                      f(" (document: %.1fx)", d.doc_ratio));
    t.notes.push_back(formula_only ? "fitted settings switched off (formula (8) alone):"
                                   : "settings fitted to the table, not in the document:");
    for (const std::string& s : d.fitted) t.notes.push_back("  " + s);
    return t;
}

nlohmann::json to_json(const DocTable& t) {
    nlohmann::json rows = nlohmann::json::array();
    for (const TableRow& r : t.rows)
        rows.push_back({{"cells", r.cells},
                        {"panel", r.link.panel},
                        {"settings", r.link.settings},
                        {"cli", r.link.cli}});
    return {
        {"id", t.id}, {"title", t.title}, {"header", t.header}, {"rows", rows}, {"notes", t.notes}};
}

std::string to_text(const DocTable& t) {
    std::vector<std::string> head = t.header;
    head.push_back("shown in");
    std::vector<std::vector<std::string>> rows;
    for (const TableRow& r : t.rows) {
        std::vector<std::string> cells = r.cells;
        cells.push_back(
            (r.link.panel.empty() ? std::string("(CLI only)") : "--panel " + r.link.panel) + "; " +
            r.link.cli);
        rows.push_back(cells);
    }
    std::vector<size_t> w(head.size(), 0);
    for (size_t i = 0; i < head.size(); ++i) w[i] = head[i].size();
    for (const auto& r : rows)
        for (size_t i = 0; i < r.size() && i < w.size(); ++i) w[i] = std::max(w[i], r[i].size());
    auto line = [&](const std::vector<std::string>& cells) {
        std::string s = "|";
        for (size_t i = 0; i < w.size(); ++i) {
            const std::string c = i < cells.size() ? cells[i] : "";
            s += " " + c + std::string(w[i] - c.size(), ' ') + " |";
        }
        return s + "\n";
    };
    std::string out = t.title + "\n\n" + line(head) + "|";
    for (size_t x : w) out += std::string(x + 2, '-') + "|";
    out += "\n";
    for (const auto& r : rows) out += line(r);
    for (const std::string& n : t.notes) out += n + "\n";
    return out;
}

}  // namespace ll::gpu
