// Document 003's hardware tables, each row linked to the panel (and the CLI
// command) that shows it: section 5.2 (which hardware prefers which layout),
// section 14.5 (the hardware units for layout transforms) and table 15.4.1
// (layout vs tile order; its numbers are the tiling model's, see
// core/tiling/doc_table.hpp).
//
// A link names a registry panel id and the scene settings that open it on the
// row's subject (the app hands them to the panel's load_settings), plus the
// CLI command that prints the same; panel "" means no window shows it.
// Example: table_5_2().rows[1] is "Intel CPU (MKL-DNN)", "blocked (e.g.
// nChw16c)", linked to the explorer on NCHW -> NCHW16C and
// `layoutlab convert --from NCHW --to NCHW16C --shape 1,32,4,4 --stages`.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/tiling/tiling.hpp"

namespace ll::gpu {

struct TableLink {
    std::string panel;        // registry id, "" for none
    nlohmann::json settings;  // the panel's scene keys
    std::string cli;          // a command line that prints it
};

struct TableRow {
    std::vector<std::string> cells;
    TableLink link;
};

struct DocTable {
    std::string id, title;  // "5.2", "Hardware preferences (document 003, 5.2)"
    std::vector<std::string> header;
    std::vector<TableRow> rows;
    std::vector<std::string> notes;  // below the table
};

DocTable table_5_2();
DocTable table_14_5();
// Table 15.4.1 on `base`'s shape and tiles (the tiling model's numbers;
// formula_only: the document's formula (8) alone), each row linked to the
// tiling panel on that configuration.
DocTable table_15_4_1_linked(const tiling::Config& base, bool formula_only);

// The tiling panel's scene keys for a configuration.
nlohmann::json tiling_scene(const tiling::Config& c);

nlohmann::json to_json(const DocTable& t);
std::string to_text(const DocTable& t);  // a Markdown pipe table with the links

}  // namespace ll::gpu
