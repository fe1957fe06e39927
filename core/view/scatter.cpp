#include "core/view/scatter.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>

#include "core/error.hpp"
#include "core/plan_labels.hpp"

namespace ll::view {

ScatterReport scatter(const ScatterGather& sg, const std::vector<int64_t>& indices) {
    if (indices.empty()) throw UsageError("indices", "empty list; expected at least one index");
    if (indices.size() > (size_t(1) << 20))
        throw UsageError("indices",
                         std::to_string(indices.size()) + " indices; expected at most 1048576");
    // The address side is a gather's (same checks, runs and bursts).
    const GatherReport g = gather(sg, indices);
    const int64_t eb = std::max(1, sg.elem_bits / 8);
    ScatterReport r;
    r.elements = g.elements;
    r.runs = g.runs;
    r.bursts = g.bursts;
    for (const GatherRequest& q : g.requests) {
        ScatterRequest s;
        s.first = q.first;
        s.runs = q.runs;
        s.bursts = q.bursts;
        // Bytes written per burst segment (distinct addresses only).
        std::map<int64_t, int64_t> bytes;
        std::vector<int64_t> a = q.addresses;
        std::sort(a.begin(), a.end());
        a.erase(std::unique(a.begin(), a.end()), a.end());
        for (int64_t x : a)
            for (int64_t b = x; b < x + eb; ++b) ++bytes[b / sg.burst_bytes];
        for (const auto& [seg, n] : bytes)
            if (n < sg.burst_bytes) s.partial_segments.push_back(seg);
        s.partial_bursts = int64_t(s.partial_segments.size());
        r.partial_bursts += s.partial_bursts;
        r.requests.push_back(s);
    }
    const int64_t hi = *std::max_element(indices.begin(), indices.end());
    if (hi >= (int64_t(1) << 24))
        throw UsageError("indices", "index " + std::to_string(hi) +
                                        " is too large to model; expected at most 16777215");
    r.dst.assign(size_t(hi + 1), -1);
    std::map<int64_t, std::vector<int64_t>> writers;
    for (size_t i = 0; i < indices.size(); ++i) {
        r.dst[size_t(indices[i])] = int64_t(i);  // in order: the later write wins
        writers[indices[i]].push_back(int64_t(i));
    }
    for (auto& [idx, w] : writers)
        if (w.size() > 1) r.conflicts.push_back({idx, w});
    return r;
}

namespace {

// Column ticks 0..n-1 (thinned by tick_step) above the first row, one lane
// over the tags that stand on a row's top edge ("partial: request 0"), under
// the axis name "element"; with `row_axis`, row ticks 0..rows-1 at the left
// of each row under that name at the corner (row_y: a row's top).
template <class RowY>
void add_element_ticks(Stage& s, int64_t n, const RowY& row_y, int64_t rows,
                       const std::string& row_axis) {
    const auto label = [&](float x, float y, std::string text, Label::Kind kind, Label::Side side,
                           Label::Align align, uint8_t lane, float room) {
        Label l;
        l.x = x, l.y = y, l.text = std::move(text), l.kind = kind, l.side = side;
        l.align = align, l.lane = lane, l.room = room;
        s.labels.push_back(l);
    };
    const float top = row_y(0);
    const int64_t step = tick_step(n, kMaxTicks);
    for (int64_t i = 0; i < n; i += step)
        label(float(i) + 0.5f, top, std::to_string(i), Label::tick, Label::above, Label::centre, 1,
              float(step));
    label(float(n) / 2, top, "element", Label::axis, Label::above, Label::centre, 2, 0);
    if (row_axis.empty()) return;
    label(0, top, row_axis, Label::axis, Label::above, Label::right, 2, 0);
    const int64_t row_step = tick_step(rows, kMaxTicks);
    for (int64_t row = 0; row < rows; row += row_step)
        label(0, row_y(row) + 0.5f, std::to_string(row), Label::tick, Label::left_of, Label::right,
              0, 0);
}

}  // namespace

Plan scatter_plan(const ScatterReport& r, const ScatterGather& sg) {
    const int64_t n = r.elements, mem = int64_t(r.dst.size());
    if (mem > kMaxScatterCells)
        throw UsageError("indices", "memory up to index " + std::to_string(mem - 1) +
                                        " is too large to draw; expected indices below " +
                                        std::to_string(kMaxScatterCells));
    const int64_t eb = std::max(1, sg.elem_bits / 8);
    const int64_t per_burst = std::max<int64_t>(1, sg.burst_bytes / eb);
    Plan p;
    p.title = "scatter";
    p.cell_count = n;
    p.src_shape = {n};
    p.src.resize(size_t(n));
    for (int64_t i = 0; i < n; ++i) p.src[size_t(i)] = i;
    const int64_t src_rows = (n + sg.width - 1) / sg.width;
    Stage a = stage(
        "source", "packed source, one request of " + std::to_string(sg.width) + " elements per row",
        {src_rows, 1, sg.width}, tensor_grid({src_rows, 1, sg.width}));
    a.axes = {"request", "", "element"};
    const int64_t mem_rows = (mem + per_burst - 1) / per_burst;
    Stage b = stage(
        "memory",
        "memory after the scatter, one " + std::to_string(sg.burst_bytes) + " B burst per row",
        {mem_rows, 1, per_burst}, tensor_grid({mem_rows, 1, per_burst}));
    b.axes = {"burst", "", "element"};  // rows one cell apart: room for the tags
    const auto row_y = [&](int64_t row) { return cell_place(b.grid, row * per_burst).y; };
    for (int64_t row = 0; row < mem_rows; ++row) {
        Box bx;
        bx.x = 0, bx.y = row_y(row), bx.w = float(per_burst), bx.h = 1, bx.kind = Box::row;
        b.boxes.push_back(bx);
    }
    // Bursts a request writes only in part (several requests may share one).
    std::map<int64_t, std::string> partial;
    for (size_t q = 0; q < r.requests.size(); ++q)
        for (int64_t seg : r.requests[q].partial_segments) {
            std::string& l = partial[seg - sg.base / sg.burst_bytes];
            l += (l.empty() ? "partial: request " : ", ") + std::to_string(q);
        }
    for (const auto& [row, label] : partial) {
        if (row < 0 || row >= mem_rows) continue;
        Box bx;
        bx.x = 0, bx.y = row_y(row), bx.w = float(per_burst), bx.h = 1, bx.kind = Box::tile;
        bx.label = label;
        b.boxes.push_back(bx);
    }
    for (const ScatterConflict& c : r.conflicts) {
        Box bx;
        bx.x = float(c.index % per_burst), bx.y = row_y(c.index / per_burst), bx.w = 1, bx.h = 1;
        bx.kind = Box::highlight;
        bx.label = "conflict";
        b.boxes.push_back(bx);
    }
    // Each burst row starts with its byte address, under the name "address".
    for (int64_t row = 0; row < mem_rows; ++row) {
        Label l;
        l.x = 0;
        l.y = row_y(row) + 0.5f;
        char buf[32];
        std::snprintf(buf, sizeof buf, "0x%llx",
                      static_cast<unsigned long long>(sg.base + row * sg.burst_bytes));
        l.text = buf;
        l.kind = Label::address;
        l.align = Label::right;
        l.side = Label::left_of;
        b.labels.push_back(l);
    }
    add_element_ticks(
        a, sg.width, [&](int64_t row) { return cell_place(a.grid, row * sg.width).y; }, src_rows,
        "request");
    add_element_ticks(b, per_burst, row_y, 0, "");
    {
        Label name;
        name.text = "address";
        name.kind = Label::axis;
        name.align = Label::right;
        name.side = Label::above;
        b.labels.push_back(name);
    }
    p.stages = {a, b};
    auto dst = std::make_shared<std::vector<int64_t>>(r.dst);
    p.offsets = [dst, n](size_t k) {
        std::vector<int64_t> off(size_t(n), -1);
        if (k == 0) {
            for (int64_t i = 0; i < n; ++i) off[size_t(i)] = i;
            return off;
        }
        for (size_t e = 0; e < dst->size(); ++e)
            if ((*dst)[e] >= 0) off[size_t((*dst)[e])] = int64_t(e);
        return off;
    };
    return p;
}

nlohmann::json scatter_to_json(const ScatterReport& r, const ScatterGather& sg) {
    nlohmann::json reqs = nlohmann::json::array(), conf = nlohmann::json::array();
    for (const ScatterRequest& q : r.requests)
        reqs.push_back({{"first", q.first},
                        {"runs", q.runs},
                        {"bursts", q.bursts},
                        {"partial_bursts", q.partial_bursts}});
    for (const ScatterConflict& c : r.conflicts)
        conf.push_back({{"index", c.index}, {"writers", c.writers}, {"winner", c.writers.back()}});
    return {{"width", sg.width},
            {"elem_bytes", std::max(1, sg.elem_bits / 8)},
            {"burst_bytes", sg.burst_bytes},
            {"elements", r.elements},
            {"runs", r.runs},
            {"bursts", r.bursts},
            {"partial_bursts", r.partial_bursts},
            {"requests", reqs},
            {"conflicts", conf},
            {"dst", r.dst}};
}

}  // namespace ll::view
