#include "core/plan_text.hpp"

#include <cstdio>
#include <sstream>

namespace ll {

namespace {

const char* box_kind(Box::Kind k) {
    switch (k) {
        case Box::outline:
            return "outline";
        case Box::row:
            return "row";
        case Box::fractal:
            return "fractal";
        case Box::tile:
            return "tile";
        case Box::highlight:
            return "highlight";
        case Box::buffer:
            return "buffer";
    }
    return "?";
}

// Short decimal form of a cell coordinate: "3", "2.5".
std::string num(float v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", double(v));
    return buf;
}

std::string join(const std::vector<std::string>& v) {
    std::string r = "(";
    for (size_t i = 0; i < v.size(); ++i) r += (i ? "," : "") + v[i];
    return r + ")";
}

nlohmann::json grid_json(const Grid& g) {
    nlohmann::json j = {{"linear", g.linear}};
    if (g.linear) {
        j["row_elems"] = g.row_elems;
        j["band_rows"] = g.band_rows;
    } else {
        j["wrap"] = g.wrap;
    }
    Extent e = grid_extent(g);
    j["extent"] = {e.w, e.h};
    return j;
}

}  // namespace

const char* label_kind(Label::Kind k) {
    switch (k) {
        case Label::axis:
            return "axis";
        case Label::tick:
            return "tick";
        case Label::tag:
            return "tag";
        case Label::address:
            return "address";
        case Label::caption:
            return "caption";
    }
    return "?";
}

std::string plan_text(const Plan& p, int64_t max_cells) {
    std::ostringstream o;
    o << "plan \"" << p.title << "\": " << p.cell_count << " cells, " << name(p.dtype)
      << ", source " << to_string(p.src_shape) << ", " << p.stages.size() << " stages\n";
    const bool cells = p.cell_count <= max_cells && p.offsets;
    for (size_t k = 0; k < p.stages.size(); ++k) {
        const Stage& st = p.stages[k];
        o << "stage " << k << " \"" << st.label << "\" " << to_string(st.shape);
        if (!st.axes.empty()) o << " axes " << join(st.axes);
        o << (st.grid.linear ? " memory" : " tensor") << "\n";
        if (!st.formula.empty()) o << "  formula: " << st.formula << "\n";
        if (cells) {
            std::vector<int64_t> off = p.offsets(k);
            o << "  offsets:";
            for (int64_t v : off) {
                if (v < 0)
                    o << " .";
                else
                    o << ' ' << v;
            }
            o << "\n";
        }
        for (const Box& b : st.boxes)
            o << "  box " << box_kind(b.kind) << " (" << num(b.x) << "," << num(b.y) << " "
              << num(b.w) << "x" << num(b.h) << ")"
              << (b.label.empty() ? "" : " \"" + b.label + "\"") << "\n";
        for (const Arrow& a : st.arrows)
            o << "  arrow (" << num(a.x0) << "," << num(a.y0) << ") -> (" << num(a.x1) << ","
              << num(a.y1) << ")" << (a.label.empty() ? "" : " \"" + a.label + "\"") << "\n";
        for (const Label& l : st.labels)
            o << "  label " << label_kind(l.kind) << " (" << num(l.x) << "," << num(l.y) << ") \""
              << l.text << "\"\n";
        auto cell_list = [&o](const char* what, const std::vector<int64_t>& c) {
            o << "  " << what << " " << c.size() << " cells:";
            for (size_t i = 0; i < c.size() && i < 64; ++i) o << ' ' << c[i];
            if (c.size() > 64) o << " ...";
            o << "\n";
        };
        if (!st.highlight.empty()) cell_list("highlight", st.highlight);
        for (const CellSet& m : st.marks)
            cell_list((std::string("mark ") + name(m.role)).c_str(), m.cells);
        if (!st.dim.empty()) cell_list("dim", st.dim);
    }
    if (!cells && p.cell_count > max_cells)
        o << "(offsets omitted: " << p.cell_count << " cells > " << max_cells << ")\n";
    return o.str();
}

nlohmann::json plan_json(const Plan& p, int64_t max_cells) {
    nlohmann::json j = {{"title", p.title},
                        {"cell_count", p.cell_count},
                        {"dtype", name(p.dtype)},
                        {"src_shape", p.src_shape}};
    const bool cells = p.cell_count <= max_cells && p.offsets;
    nlohmann::json stages = nlohmann::json::array();
    for (size_t k = 0; k < p.stages.size(); ++k) {
        const Stage& st = p.stages[k];
        nlohmann::json s = {{"label", st.label},
                            {"formula", st.formula},
                            {"shape", st.shape},
                            {"axes", st.axes},
                            {"grid", grid_json(st.grid)}};
        if (cells) s["offsets"] = p.offsets(k);
        nlohmann::json boxes = nlohmann::json::array();
        for (const Box& b : st.boxes)
            boxes.push_back(
                {{"kind", box_kind(b.kind)}, {"rect", {b.x, b.y, b.w, b.h}}, {"label", b.label}});
        s["boxes"] = boxes;
        nlohmann::json arrows = nlohmann::json::array();
        for (const Arrow& a : st.arrows)
            arrows.push_back({{"from", {a.x0, a.y0}}, {"to", {a.x1, a.y1}}, {"label", a.label}});
        s["arrows"] = arrows;
        nlohmann::json labels = nlohmann::json::array();
        for (const Label& l : st.labels)
            labels.push_back({{"kind", label_kind(l.kind)}, {"at", {l.x, l.y}}, {"text", l.text}});
        s["labels"] = labels;
        s["highlight"] = st.highlight;
        if (!st.marks.empty()) {
            nlohmann::json marks = nlohmann::json::array();
            for (const CellSet& m : st.marks)
                marks.push_back({{"role", name(m.role)}, {"cells", m.cells}});
            s["marks"] = std::move(marks);
        }
        if (!st.dim.empty()) s["dim"] = st.dim;
        stages.push_back(std::move(s));
    }
    j["stages"] = std::move(stages);
    if (!cells)
        j["offsets_omitted"] = "per-cell offsets are given for plans of at most " +
                               std::to_string(max_cells) + " cells; this one has " +
                               std::to_string(p.cell_count);
    return j;
}

}  // namespace ll
