#include "core/tiling/traverse.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <sstream>

#include "core/error.hpp"
#include "core/plan_labels.hpp"

namespace ll::tiling {

namespace {

Extent3 tensor_of(const Config& c) {
    return {c.shape[1], c.shape[2], c.shape[3]};
}

nlohmann::json triple(int64_t a, int64_t b, int64_t d) {
    return nlohmann::json::array({a, b, d});
}

nlohmann::json visits_json(const std::vector<Visit>& v) {
    nlohmann::json out = nlohmann::json::array();
    for (const Visit& x : v)
        out.push_back({{"step", x.step},
                       {"origin", triple(x.origin.c, x.origin.h, x.origin.w)},
                       {"extent", triple(x.extent.c, x.extent.h, x.extent.w)},
                       {"offset", x.offset},
                       {"jump", x.jump}});
    return out;
}

// Per element of `frame` (row-major c,h,w): when the level reads it, counting
// from 0: blocks in visit order, the elements of each block in the same order.
std::vector<int64_t> read_sequence(const BlockGrid& g, const Order& o) {
    const Extent3 f = g.frame;
    const int64_t stride[3] = {f.h * f.w, f.w, 1};  // of c, h, w in row-major (C,H,W)
    const int d0 = int(o.inner_to_outer[2]), d1 = int(o.inner_to_outer[1]),
              d2 = int(o.inner_to_outer[0]);  // outermost .. innermost
    std::vector<int64_t> seq(size_t(f.c * f.h * f.w));
    int64_t next = 0;
    for (int64_t k = 0; k < g.size(); ++k) {
        const Index3 b = g.visit(o, k);
        const Index3 org = g.origin(b);
        const Extent3 e = g.extent(b);
        const int64_t n[3] = {e.c, e.h, e.w};
        const int64_t base = org.c * stride[0] + org.h * stride[1] + org.w;
        for (int64_t i = 0; i < n[d0]; ++i)
            for (int64_t j = 0; j < n[d1]; ++j) {
                const int64_t row = base + i * stride[d0] + j * stride[d1];
                for (int64_t l = 0; l < n[d2]; ++l) seq[size_t(row + l * stride[d2])] = next++;
            }
    }
    return seq;
}

// A Plan whose cells are the elements of `frame` (row-major c,h,w): stage 0
// the frame as a tensor with its blocks boxed, stage 1 the buffer in memory.
Plan frame_plan(const Config& c, const BlockGrid& g, const Order& o, const std::string& title,
                const std::string& frame_name, const std::string& memory_name,
                const std::string& block_name, float aspect) {
    const Extent3 f = g.frame;
    if (f.c * f.h * f.w > kMaxPlanCells)
        throw UsageError(frame_name + " " + to_string(f) + " has " +
                         std::to_string(f.c * f.h * f.w) + " elements, more than the " +
                         std::to_string(kMaxPlanCells) + " a picture draws; expected a smaller " +
                         frame_name);
    Plan p;
    p.title = title;
    p.dtype = c.dtype;
    // Cells are the elements in (C,H,W) row-major order, the order of the
    // stage shown first: the renderer's coarse level of detail draws runs of
    // consecutive cells as one block, so they must sit together there. The
    // "source" of every cell is the read stream: src is when the element is
    // read, so ColourMode::source_index colours the visiting order.
    const view::Layout mem = frame_layout(c.layout, c.dtype, f);
    const int64_t n_mem = frame_elems(c.layout, c.dtype, f);
    auto addr = std::make_shared<std::vector<int64_t>>(size_t(f.c * f.h * f.w));
    {
        // A view layout adds one term per mode: tabulate each axis once.
        auto table = [&](size_t m, int64_t n) {
            std::vector<int64_t> t(static_cast<size_t>(n));
            for (int64_t i = 0; i < n; ++i) t[size_t(i)] = mem.modes[m](i);
            return t;
        };
        const std::vector<int64_t> tc = table(1, f.c), th = table(2, f.h), tw = table(3, f.w);
        size_t i = 0;
        for (int64_t ch = 0; ch < f.c; ++ch)
            for (int64_t h = 0; h < f.h; ++h) {
                const int64_t row = mem.offset + mem.modes[0](0) + tc[size_t(ch)] + th[size_t(h)];
                for (int64_t w = 0; w < f.w; ++w) (*addr)[i++] = row + tw[size_t(w)];
            }
    }
    p.cell_count = int64_t(addr->size());
    p.src_shape = {p.cell_count};
    p.src = read_sequence(g, o);

    Stage logical;
    logical.label = frame_name + " (C,H,W)";
    logical.formula = std::to_string(g.size()) + " " + block_name + "s " + to_string(g.block) +
                      ", visited " + to_string(o) + "; colour = when each element is read";
    logical.shape = {f.c, f.h, f.w};
    logical.grid = fitted_tensor_grid(logical.shape, aspect);
    logical.axes = {"C", "H", "W"};
    for (int64_t k = 0; k < g.size(); ++k) {
        const Index3 b = g.visit(o, k);
        for (Box& box : block_boxes(logical.grid, g.origin(b), g.extent(b), Box::outline, ""))
            logical.boxes.push_back(std::move(box));
    }
    Stage memory;
    memory.label = memory_name;
    memory.formula = c.layout + " " + view::to_string(mem) + " (N,C,H,W):(strides)";
    memory.shape = {n_mem};
    memory.grid = memory_grid(n_mem, c.dtype);
    memory.axes = {"offset"};
    p.stages = {logical, memory};
    // The labels every grid carries (core/plan_labels.hpp): C, H and W named
    // with index ticks on both axes, a tag per channel block ("c=0", "c=1",
    // ...), and the byte address of every memory row band.
    add_grid_labels(p);
    p.offsets = [addr](size_t k) {
        if (k == 1) return *addr;
        std::vector<int64_t> id(addr->size());
        for (size_t i = 0; i < id.size(); ++i) id[i] = int64_t(i);
        return id;
    };
    p.offset_of = [addr](size_t k, int64_t cell) { return k == 1 ? (*addr)[size_t(cell)] : cell; };
    return p;
}

}  // namespace

std::string to_string(const Index3& i) {
    return "(" + std::to_string(i.c) + "," + std::to_string(i.h) + "," + std::to_string(i.w) + ")";
}

Extent3 BlockGrid::counts() const {
    return {ceil_div(frame.c, block.c), ceil_div(frame.h, block.h), ceil_div(frame.w, block.w)};
}

int64_t BlockGrid::size() const {
    const Extent3 n = counts();
    return n.c * n.h * n.w;
}

Index3 BlockGrid::visit(const Order& o, int64_t k) const {
    const Extent3 n = counts();
    int64_t out[3] = {0, 0, 0};
    for (Dim d : o.inner_to_outer) {
        out[int(d)] = k % n[d];
        k /= n[d];
    }
    return {out[0], out[1], out[2]};
}

int64_t BlockGrid::rank(const Order& o, const Index3& index) const {
    const Extent3 n = counts();
    int64_t r = 0;
    for (size_t i = 3; i-- > 0;) {
        const Dim d = o.inner_to_outer[i];
        r = r * n[d] + index[d];
    }
    return r;
}

Index3 BlockGrid::origin(const Index3& i) const {
    return {i.c * block.c, i.h * block.h, i.w * block.w};
}

Extent3 BlockGrid::extent(const Index3& i) const {
    const Index3 o = origin(i);
    return {std::min(block.c, frame.c - o.c), std::min(block.h, frame.h - o.h),
            std::min(block.w, frame.w - o.w)};
}

int64_t element_offset(const Config& c, const Extent3& frame, const Index3& e) {
    return frame_layout(c.layout, c.dtype, frame)({0, e.c, e.h, e.w});
}

std::vector<int64_t> access_offsets(const Config& c, const Extent3& frame, const Index3& origin,
                                    const Extent3& b, const Order& o, int64_t n) {
    const view::Layout mem = frame_layout(c.layout, c.dtype, frame);
    std::vector<int64_t> out;
    const int64_t total = b.c * b.h * b.w;
    out.reserve(size_t(std::max<int64_t>(0, std::min(n, total))));
    Coord at{0, 0, 0, 0};
    for (int64_t k = 0; k < std::min(n, total); ++k) {
        int64_t idx[3] = {0, 0, 0}, r = k;
        for (Dim d : o.inner_to_outer) {
            idx[int(d)] = r % b[d];
            r /= b[d];
        }
        at[1] = origin.c + idx[0];
        at[2] = origin.h + idx[1];
        at[3] = origin.w + idx[2];
        out.push_back(mem(at));
    }
    return out;
}

BlockGrid l1_grid(const Config& c) {
    return {tensor_of(c), c.l1_tile};
}

BlockGrid l2_grid(const Config& c, int64_t l1_step) {
    const BlockGrid g1 = l1_grid(c);
    return {g1.extent(g1.visit(c.l1_order, l1_step)), c.l2_tile};
}

int64_t traversal_steps(const Config& c) {
    return std::max<int64_t>(1, l1_grid(c).size() * BlockGrid{c.l1_tile, c.l2_tile}.size());
}

TraversalStep traversal_step(const Config& c, int64_t step) {
    const int64_t tiles = l1_grid(c).size();
    const int64_t slots = std::max<int64_t>(1, BlockGrid{c.l1_tile, c.l2_tile}.size());
    step = std::clamp<int64_t>(step, 0, std::max<int64_t>(1, tiles * slots) - 1);
    TraversalStep t;
    t.tile = std::min(step / slots, std::max<int64_t>(tiles, 1) - 1);
    t.sub = std::min(step % slots, l2_grid(c, t.tile).size() - 1);
    return t;
}

namespace {

Visit make_visit(const view::Layout& mem, const BlockGrid& g, const Order& o, int64_t k) {
    auto address = [&](const Index3& e) { return mem({0, e.c, e.h, e.w}); };
    Visit v;
    v.step = k;
    v.index = g.visit(o, k);
    v.origin = g.origin(v.index);
    v.extent = g.extent(v.index);
    v.offset = address(v.origin);
    if (k > 0) v.jump = v.offset - address(g.origin(g.visit(o, k - 1)));
    return v;
}

std::vector<Visit> visits(const Config& c, const BlockGrid& g, const Order& o) {
    const view::Layout mem = frame_layout(c.layout, c.dtype, g.frame);
    std::vector<Visit> v;
    const int64_t n = std::min(g.size(), kMaxVisits);
    v.reserve(size_t(n));
    for (int64_t k = 0; k < n; ++k) v.push_back(make_visit(mem, g, o, k));
    return v;
}

void check_step(int64_t step, int64_t count, const char* what) {
    if (step < 0 || step >= count)
        throw UsageError(std::string(what) + " " + std::to_string(step) + "; expected 0.." +
                         std::to_string(count - 1));
}

}  // namespace

Visit l1_visit(const Config& c, int64_t step) {
    const BlockGrid g = l1_grid(c);
    check_step(step, g.size(), "L1 step");
    return make_visit(frame_layout(c.layout, c.dtype, g.frame), g, c.l1_order, step);
}

Visit l2_visit(const Config& c, int64_t l1_step, int64_t step) {
    check_step(l1_step, l1_grid(c).size(), "L1 step");
    const BlockGrid g = l2_grid(c, l1_step);
    check_step(step, g.size(), "L2 step");
    return make_visit(frame_layout(c.layout, c.dtype, g.frame), g, c.l2_order, step);
}

std::vector<Visit> l1_visits(const Config& c) {
    validate(c);
    return visits(c, l1_grid(c), c.l1_order);
}

std::vector<Visit> l2_visits(const Config& c, int64_t l1_step) {
    validate(c);
    check_step(l1_step, l1_grid(c).size(), "L1 step");
    return visits(c, l2_grid(c, l1_step), c.l2_order);
}

nlohmann::json traversal_json(const Config& c) {
    const std::vector<Visit> l1 = l1_visits(c), l2 = l2_visits(c, 0);
    const Extent3 t = tensor_of(c);
    const int64_t kInner = 16;
    return {{"layout", c.layout},
            {"dtype", name(c.dtype)},
            {"tensor", triple(t.c, t.h, t.w)},
            {"images", c.shape[0]},
            {"l1_tile", triple(c.l1_tile.c, c.l1_tile.h, c.l1_tile.w)},
            {"l2_tile", triple(c.l2_tile.c, c.l2_tile.h, c.l2_tile.w)},
            {"l1_order", to_string(c.l1_order)},
            {"l2_order", to_string(c.l2_order)},
            {"l1_tiles", l1_grid(c).size()},
            {"l2_subtiles", l2_grid(c, 0).size()},
            {"l1_visits", visits_json(l1)},
            {"l2_visits", visits_json(l2)},
            {"l1_inner", access_offsets(c, t, l1[0].origin, l1[0].extent, c.l1_order, kInner)},
            {"l2_inner",
             access_offsets(c, l1[0].extent, l2[0].origin, l2[0].extent, c.l2_order, kInner)}};
}

std::string traversal_text(const Config& c) {
    const std::vector<Visit> l1 = l1_visits(c), l2 = l2_visits(c, 0);
    const Extent3 t = tensor_of(c);
    std::ostringstream o;
    auto list = [&](const std::vector<int64_t>& v) {
        std::string s;
        for (int64_t x : v) s += (s.empty() ? "" : " ") + std::to_string(x);
        return s;
    };
    auto rows = [&](const std::vector<Visit>& v) {
        char line[160];
        std::snprintf(line, sizeof line, "  %6s  %-16s %-16s %12s %12s\n", "step", "origin c,h,w",
                      "extent", "offset", "jump");
        o << line;
        for (const Visit& x : v) {
            std::snprintf(line, sizeof line, "  %6lld  %-16s %-16s %12lld %+12lld\n",
                          (long long)x.step, to_string(x.origin).c_str(),
                          to_string(x.extent).c_str(), (long long)x.offset, (long long)x.jump);
            o << line;
        }
    };
    o << "traversal: tensor (C,H,W) " << to_string(t) << " stored " << c.layout << " "
      << name(c.dtype) << ", image 0 of " << c.shape[0]
      << " (every image repeats this from its own base address)\n";
    o << "L1 tiles " << to_string(c.l1_tile) << " visited " << to_string(c.l1_order) << ": "
      << l1.size() << " tiles; offset = element address of the tile's first access in the "
      << "tensor\n";
    rows(l1);
    if (int64_t(l1.size()) < l1_grid(c).size())
        o << "  ... " << l1_grid(c).size() - int64_t(l1.size()) << " more tiles not listed\n";
    o << "  first tile read in " << to_string(c.l1_order) << ": "
      << list(access_offsets(c, t, l1[0].origin, l1[0].extent, c.l1_order, 16)) << " ...\n";
    o << "L2 sub-tiles " << to_string(c.l2_tile) << " of the first tile " << to_string(l1[0].extent)
      << " visited " << to_string(c.l2_order) << ": " << l2.size()
      << " sub-tiles; offset = element address in the tile as stored in SRAM\n";
    rows(l2);
    if (int64_t(l2.size()) < l2_grid(c, 0).size())
        o << "  ... " << l2_grid(c, 0).size() - int64_t(l2.size())
          << " more sub-tiles not listed\n";
    o << "  first sub-tile read in " << to_string(c.l2_order) << ": "
      << list(access_offsets(c, l1[0].extent, l2[0].origin, l2[0].extent, c.l2_order, 16))
      << " ...\n";
    return o.str();
}

std::vector<Box> block_boxes(const Grid& g, const Index3& origin, const Extent3& extent,
                             Box::Kind kind, const std::string& label) {
    std::vector<Box> out;
    const Shape& s = g.shape;  // (C,H,W)
    for (int64_t ch = origin.c; ch < origin.c + extent.c; ++ch) {
        const Place a = cell_place(g, (ch * s[1] + origin.h) * s[2] + origin.w);
        Box b;
        b.x = a.x;
        b.y = a.y;
        b.w = float(extent.w);
        b.h = float(extent.h);
        b.kind = kind;
        if (ch == origin.c) b.label = label;
        out.push_back(b);
    }
    return out;
}

Stage visit_overlay(const Grid& g, const Visit& now, const Visit* before) {
    Stage st;
    st.boxes = block_boxes(g, now.origin, now.extent, Box::highlight, "");
    if (before) {
        const Box a = block_boxes(g, before->origin, {1, before->extent.h, before->extent.w},
                                  Box::highlight, "")
                          .front();
        const Box& b = st.boxes.front();
        Arrow ar;
        ar.x0 = a.x + a.w / 2;
        ar.y0 = a.y + a.h / 2;
        ar.x1 = b.x + b.w / 2;
        ar.y1 = b.y + b.h / 2;
        ar.label = (now.jump >= 0 ? "+" : "") + std::to_string(now.jump);
        st.arrows.push_back(ar);
    }
    return st;
}

Plan tensor_plan(const Config& c, float aspect) {
    validate(c);
    const BlockGrid g = l1_grid(c);
    return frame_plan(c, g, c.l1_order, "tiling: tensor in DRAM", "tensor",
                      "DRAM (" + c.layout + ")", "L1 tile", aspect);
}

Plan tile_plan(const Config& c, int64_t l1_step, float aspect) {
    validate(c);
    check_step(l1_step, l1_grid(c).size(), "L1 step");
    const BlockGrid g = l2_grid(c, l1_step);
    return frame_plan(c, g, c.l2_order, "tiling: L1 tile in SRAM", "tile",
                      "SRAM (" + c.layout + ")", "L2 sub-tile", aspect);
}

}  // namespace ll::tiling
