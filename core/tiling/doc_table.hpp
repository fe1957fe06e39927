// Document 003's table 15.4.1 recomputed by the tiling model: its four rows
// (layout + L1 order + L2 order), the document's printed numbers beside the
// model's, and the worst/best ratio (the document's "9.6x").
//
// Contract: table_15_4_1(Config{}) has rows NCHW + W_H_C + W_H_C (16.06 us),
// NCHW + C_W_H + C_W_H (154.14 us), NHWC + C_W_H + C_W_H (16.06 us), NHWC +
// W_H_C + W_H_C (154.14 us), ratio 9.60; it names the two settings fitted to
// the table (access units 64/16 B, l2_passes 4). formula_only(c) sets them
// to the document's own formula (8): no access unit, one SRAM pass.
#pragma once

#include <string>
#include <vector>

#include "core/tiling/tiling.hpp"

namespace ll::tiling {

struct DocRow {
    std::string config;           // "NCHW + W_H_C + W_H_C"
    std::string layout = "NCHW";  // a view layout name (see check_layout)
    Order order;                  // L1 and L2 order (the table uses the same for both)
    double doc_l1 = 0, doc_l2 = 0, doc_us = 0;  // as printed in 15.4.1
    Result model;
};

struct DocTable {
    std::vector<DocRow> rows;
    double ratio = 0;                 // slowest / fastest total of the model
    double doc_ratio = 9.6;           // "全匹配 vs 全不匹配的性能差异可达 9.6 倍"
    std::vector<std::string> fitted;  // the settings not in the document, named with values
    bool formula_only = false;
};

// The four rows on `base`'s shape, tiles and memory model.
DocTable table_15_4_1(const Config& base);
// `c` with the fitted settings removed: formula (8) alone.
Config formula_only(Config c);

}  // namespace ll::tiling
