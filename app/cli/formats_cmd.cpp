// `layoutlab formats`: every format the engine knows, the first command a
// class runs. For each format: its logical axes, the conversion that builds
// it with the pipeline formula read off that conversion's steps, the stored
// (physical) axes, and the dtypes it accepts with the fractal / C0 / alignment
// size each one gets (all from make_pipeline on a small example, so the
// listing is what `convert` does). Then the dtypes.
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/cli/command.hpp"
#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core/format/format.hpp"
#include "core/validate_only.hpp"

namespace ll::cli {

namespace {

std::string join(const std::vector<std::string>& v, const char* sep = ", ") {
    std::string r;
    for (size_t i = 0; i < v.size(); ++i) r += (i ? sep : "") + v[i];
    return r;
}

// "16x16" for a fractal, "C0=16" for NC1HWC0, "align=8" for ND_ALIGN, "" for plain.
std::string size_text(const Pipeline& p) {
    std::string r;
    for (const auto& f : p.fractals) {
        if (!r.empty()) r += " ";
        if (f.rows > 0)
            r += std::to_string(f.rows) + "x" + std::to_string(f.cols);
        else
            r += f.col_name + "=" + std::to_string(f.cols);
    }
    return r;
}

struct Row {
    Format f;
    std::vector<std::string> axes, stored;
    std::string formula, built_from;
    std::vector<std::pair<DType, std::string>> dtypes;  // accepted, with sizes
    std::vector<std::string> rejected;
};

Row row_of(Format f) {
    Row r;
    r.f = f;
    r.axes = axis_names(f);
    r.formula = pipeline_formula(f);
    const ConvertSpec ex = example_conversion(f);
    r.built_from = ex.from == f ? "" : name(ex.from);
    const Pipeline p = make_pipeline(ex);
    // Stored axes: the side of the example that is f.
    if (!p.steps.empty() && !is_plain(f)) {
        const Step& s = ex.to == f ? p.steps.back() : p.steps.front();
        r.stored = ex.to == f ? s.axes_after : s.axes_before;
    } else {
        r.stored = r.axes;
    }
    for (DType t : all_dtypes()) {
        ConvertSpec s = example_conversion(f, t);
        try {
            const Pipeline q = make_pipeline(s);
            // The side of f: the example's destination unless f is its source.
            r.dtypes.emplace_back(t, ex.to == f ? size_text(q) : "");
        } catch (const UsageError&) {
            r.rejected.push_back(name(t));
        }
    }
    return r;
}

}  // namespace

Runner setup_formats(CLI::App& sub) {
    auto json = std::make_shared<bool>(false);
    sub.add_flag("--json", *json, "print JSON instead of text");
    return [json]() {
        work_begins();  // nothing to check beyond the flags
        std::vector<Row> rows;
        for (Format f : all_formats()) rows.push_back(row_of(f));
        if (*json) {
            nlohmann::json j;
            j["formats"] = nlohmann::json::array();
            for (const Row& r : rows) {
                nlohmann::json fj = {{"name", name(r.f)},
                                     {"plain", is_plain(r.f)},
                                     {"axes", r.axes},
                                     {"stored_axes", r.stored},
                                     {"formula", r.formula},
                                     {"built_from", r.built_from},
                                     {"rejected_dtypes", r.rejected}};
                fj["dtypes"] = nlohmann::json::array();
                for (const auto& [t, size] : r.dtypes) {
                    nlohmann::json dj = {{"name", name(t)}};
                    if (!size.empty()) dj["size"] = size;
                    fj["dtypes"].push_back(dj);
                }
                j["formats"].push_back(fj);
            }
            for (DType t : all_dtypes())
                j["dtypes"].push_back({{"name", name(t)},
                                       {"bits", bits(t)},
                                       {"storage_only", is_storage_only(t)},
                                       {"elems_per_32b", elems_per_32b(t)}});
            std::cout << j.dump(2) << "\n";
            return 0;
        }
        std::cout << "formats (" << rows.size() << "):\n";
        for (const Row& r : rows) {
            std::cout << "\n" << name(r.f) << (is_plain(r.f) ? "  (plain)" : "") << "\n";
            std::cout << "  axes:    (" << join(r.axes) << ")";
            if (r.stored != r.axes) std::cout << "  stored as (" << join(r.stored) << ")";
            std::cout << "\n  formula: " << r.formula << "\n";
            std::cout << "  dtypes:";
            bool sized = false;
            for (const auto& d : r.dtypes) sized = sized || !d.second.empty();
            if (!sized) {
                std::cout << " all " << r.dtypes.size() << "\n";
            } else {
                std::cout << "\n";
                std::string line = "   ";
                for (const auto& [t, size] : r.dtypes) {
                    const std::string item = std::string(" ") + name(t) + " " + size;
                    if (line.size() + item.size() > 96) {
                        std::cout << line << "\n";
                        line = "   ";
                    }
                    line += item + ";";
                }
                std::cout << line << "\n";
            }
            if (!r.rejected.empty()) std::cout << "  rejects: " << join(r.rejected) << "\n";
        }
        std::cout << "\ndtypes:";
        for (DType t : all_dtypes())
            std::cout << " " << name(t) << "(" << bits(t) << "b"
                      << (is_storage_only(t) ? ", storage" : "") << ")";
        std::cout << "\n(storage: moved as bit codes, never decoded; fractal rows are 32 bytes)\n";
        return 0;
    };
}

}  // namespace ll::cli
