#include "core/tiling/doc_table.hpp"

#include <algorithm>
#include <cstdio>

namespace ll::tiling {

Config formula_only(Config c) {
    c.mem.dram.access_bytes = 0;
    c.mem.sram.access_bytes = 0;
    c.l2_passes = 1;
    return c;
}

DocTable table_15_4_1(const Config& base) {
    struct Doc {
        const char* layout;
        const char* order;
        double l1, l2, us;
    };
    // The rows as document 003 prints them (section 15.4.1).
    const Doc doc[] = {{"NCHW", "W_H_C", 0.90, 0.90, 16.1},
                       {"NCHW", "C_W_H", 0.06, 0.25, 154.1},
                       {"NHWC", "C_W_H", 0.90, 0.90, 16.1},
                       {"NHWC", "W_H_C", 0.06, 0.25, 154.1}};
    DocTable t;
    t.formula_only =
        base.mem.dram.access_bytes == 0 && base.mem.sram.access_bytes == 0 && base.l2_passes == 1;
    double lo = 0, hi = 0;
    for (const Doc& d : doc) {
        DocRow r;
        r.layout = d.layout;
        r.order = parse_order(d.order);
        r.config = std::string(d.layout) + " + " + d.order + " + " + d.order;
        r.doc_l1 = d.l1;
        r.doc_l2 = d.l2;
        r.doc_us = d.us;
        Config c = base;
        c.layout = d.layout;
        c.l1_order = c.l2_order = r.order;
        r.model = evaluate(c);
        lo = t.rows.empty() ? r.model.total_us : std::min(lo, r.model.total_us);
        hi = std::max(hi, r.model.total_us);
        t.rows.push_back(r);
    }
    t.ratio = lo > 0 ? hi / lo : 0;
    char b[160];
    std::snprintf(b, sizeof b, "access units: DRAM %lld B, SRAM %lld B (0 = formula (8) alone)",
                  (long long)base.mem.dram.access_bytes, (long long)base.mem.sram.access_bytes);
    t.fitted.push_back(b);
    std::snprintf(b, sizeof b, "L2 passes: %lld SRAM->register reads of each tile",
                  (long long)base.l2_passes);
    t.fitted.push_back(b);
    return t;
}

}  // namespace ll::tiling
