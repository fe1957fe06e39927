// `layoutlab hardware`: document 003's hardware tables (section 5.2, which
// hardware prefers which layout; section 14.5, the units for layout
// transforms; table 15.4.1 by the tiling model), each row with the panel
// (`--panel ID`) and the command that show it. The Hardware tables panel
// draws the same rows with a button per link.
#include <iostream>

#include "app/cli/command.hpp"
#include "core/error.hpp"
#include "core/gpu/hardware_tables.hpp"

namespace ll::cli {

Runner setup_hardware(CLI::App& sub) {
    auto json = std::make_shared<bool>(false);
    auto formula = std::make_shared<bool>(false);
    auto only = std::make_shared<std::string>();
    sub.add_option("--table", *only, "one table: 5.2, 14.5 or 15.4.1 (default: all three)");
    sub.add_flag("--formula-only", *formula,
                 "table 15.4.1 by the document's formula (8) alone (no fitted settings)");
    sub.add_flag("--json", *json, "print JSON instead of text");
    return [json, formula, only]() {
        if (!only->empty() && *only != "5.2" && *only != "14.5" && *only != "15.4.1")
            throw UsageError("--table: unknown table '" + *only +
                             "'; expected 5.2, 14.5 or 15.4.1");
        std::vector<gpu::DocTable> tables;
        if (only->empty() || *only == "5.2") tables.push_back(gpu::table_5_2());
        if (only->empty() || *only == "14.5") tables.push_back(gpu::table_14_5());
        if (only->empty() || *only == "15.4.1")
            tables.push_back(gpu::table_15_4_1_linked(tiling::Config{}, *formula));
        if (*json) {
            nlohmann::json j = nlohmann::json::array();
            for (const gpu::DocTable& t : tables) j.push_back(gpu::to_json(t));
            std::cout << nlohmann::json{{"tables", j}}.dump(2) << "\n";
            return 0;
        }
        for (size_t i = 0; i < tables.size(); ++i)
            std::cout << (i ? "\n" : "") << gpu::to_text(tables[i]);
        return 0;
    };
}

}  // namespace ll::cli
