#include "core/format/format_plan.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>

#include "core/error.hpp"
#include "core/plan_labels.hpp"

namespace ll {

namespace {

// Offset before step st of the element at offset o after it; -1 when the
// element is padding the step added.
int64_t step_back(const Step& st, int64_t o) {
    if (st.kind == StepKind::reshape) return o;
    const Shape& a = st.after;
    const Shape& b = st.before;
    Coord ca(a.size()), cb(b.size());
    for (size_t i = a.size(); i-- > 0;) {
        ca[i] = o % a[i];
        o /= a[i];
    }
    if (st.kind == StepKind::transpose) {
        for (size_t i = 0; i < a.size(); ++i) cb[size_t(st.perm[i])] = ca[i];
    } else {  // pad or crop: same coordinates; padded ones have no source
        for (size_t i = 0; i < b.size(); ++i) {
            if (ca[i] >= b[i]) return -1;
            cb[i] = ca[i];
        }
    }
    int64_t out = 0;
    for (size_t i = 0; i < b.size(); ++i) out = out * b[i] + cb[i];
    return out;
}

// Width/height the explorer's views are shaped like (each about half a window).
constexpr float kAspect = 1.1f;

int channel_axis_of(Format f) {
    std::string letters = axis_letters(f);
    auto pos = letters.find('C');
    return pos == std::string::npos ? -1 : int(pos);
}

// Axis names as the stage draws them: the step's symbolic names when they
// match the rank ("..." leading names dropped), else none.
std::vector<std::string> named_axes(const std::vector<std::string>& names, size_t rank) {
    std::vector<std::string> out;
    for (const std::string& n : names)
        if (n != "...") out.push_back(n);
    if (out.size() != rank) return {};
    return out;
}

std::vector<std::string> source_axes(const Pipeline& q) {
    if (!q.steps.empty()) {
        std::vector<std::string> a = named_axes(q.steps.front().axes_before, q.src_shape.size());
        if (!a.empty()) return a;
    }
    std::string letters = axis_letters(q.from);
    if (letters.size() != q.src_shape.size()) return {};
    std::vector<std::string> out;
    for (char ch : letters) out.emplace_back(1, ch);
    return out;
}

}  // namespace

Plan format_plan(const std::vector<Pipeline>& chain_in) {
    if (chain_in.empty()) throw UsageError("empty conversion chain; expected at least one step");
    auto chain = std::make_shared<const std::vector<Pipeline>>(chain_in);
    const std::vector<Pipeline>& c = *chain;
    for (size_t i = 1; i < c.size(); ++i)
        if (c[i].src_shape != c[i - 1].dst_shape || c[i].from != c[i - 1].to)
            throw UsageError(std::string("cannot chain ") + name(c[i - 1].to) + " " +
                             to_string(c[i - 1].dst_shape) + " into " + name(c[i].from) + " " +
                             to_string(c[i].src_shape) + "; expected matching format and shape");
    Plan p;
    const Pipeline& first = c.front();
    const Pipeline& lastp = c.back();
    p.title = std::string(name(first.from));
    for (const Pipeline& q : c) p.title += std::string(" -> ") + name(q.to);
    p.dtype = first.dtype;
    p.src_shape = first.src_shape;
    p.channel_axis = channel_axis_of(first.from);
    p.cell_count = numel(lastp.dst_shape);

    // Composed maps: for pipeline i, the index of each cell in pipeline i's
    // destination buffer (-1 when the cell is padding added later).
    // idx_in_dst[i][cell]; the last one is the identity (kept implicit).
    auto idx = std::make_shared<std::vector<std::vector<int64_t>>>(c.size());
    std::vector<int64_t> cur;  // cell -> index in dst of pipeline i
    for (size_t i = c.size(); i-- > 0;) {
        if (i + 1 < c.size()) {
            ElementMap m = element_map(c[i + 1]);
            if (cur.empty()) {
                cur = std::move(m);
            } else {
                for (int64_t& v : cur) v = v < 0 ? -1 : m[size_t(v)];
            }
            (*idx)[i] = cur;
        }
    }
    {
        ElementMap m0 = element_map(first);
        if (c.size() == 1) {
            p.src = std::move(m0);
        } else {
            const std::vector<int64_t>& to0 = (*idx)[0];
            p.src.resize(to0.size());
            for (size_t j = 0; j < to0.size(); ++j) p.src[j] = to0[j] < 0 ? -1 : m0[size_t(to0[j])];
        }
    }

    // Stage list and, per stage, which pipeline and which step it shows.
    struct Ref {
        size_t pipe, step;  // step == steps.size() + 1: memory of the destination
    };
    auto refs = std::make_shared<std::vector<Ref>>();
    auto add = [&](Stage s, Ref r) {
        p.stages.push_back(std::move(s));
        refs->push_back(r);
    };
    {
        Stage s;
        s.label = std::string("source ") + name(first.from);
        s.formula = std::string(name(first.from)) + " " + to_string(first.src_shape) +
                    ", one cell per element";
        s.shape = first.src_shape;
        s.grid = stage_grid(s.shape, kAspect);
        s.axes = source_axes(first);
        add(s, {0, 0});
    }
    for (size_t i = 0; i < c.size(); ++i) {
        const Pipeline& q = c[i];
        for (size_t k = 0; k < q.steps.size(); ++k) {
            Stage s;
            s.label = q.steps[k].label();
            s.formula = q.steps[k].caption;
            s.shape = q.steps[k].after;
            s.grid = stage_grid(s.shape, kAspect);
            s.axes = named_axes(q.steps[k].axes_after, s.shape.size());
            add(s, {i, k + 1});
        }
        Stage m;
        int64_t n = numel(q.dst_shape);
        m.label = std::string("memory ") + name(q.to);
        std::string per = bits(q.dtype) >= 8
                              ? "offset x " + std::to_string(bits(q.dtype) / 8) + " B"
                              : std::string("offset / 2 (two int4 per byte)");
        // Fractal formats are stored as 512-byte fractals; the others (NHWC,
        // NC1HWC0, ...) only drawn in 32-byte rows. The buffer's size is a
        // separate clause so it does not read as one fractal's content.
        const bool fractal = std::string(name(q.to)).find("FRACTAL") != std::string::npos;
        m.formula =
            "byte address = " + per + "; drawn in rows of 32 B" +
            (fractal ? ", one fractal = 512 B = " + std::to_string(512 * 8 / bits(q.dtype)) +
                           " elements"
                     : std::string()) +
            "; buffer: " + std::to_string(n) +
            " elements = " + std::to_string(bytes_for(q.dtype, n)) + " B";
        if (i + 1 == c.size()) {
            // How much of the buffer is padding (a 3-channel picture in
            // NC1HWC0 is 13/16 padding and looks like nothing else): say it.
            const int64_t pad = std::count(p.src.begin(), p.src.end(), int64_t(-1));
            char buf[96];
            std::snprintf(buf, sizeof buf, "; padding %lld of them (%.1f%%)", (long long)pad,
                          n > 0 ? 100.0 * double(pad) / double(n) : 0.0);
            m.formula += buf;
        }
        m.shape = {n};
        m.grid = memory_grid(n, q.dtype);
        m.axes = {"offset"};
        add(m, {i, q.steps.size() + 1});
    }

    add_grid_labels(p);

    // One cell's offset, walking the steps backwards from the pipeline's
    // destination (where the offset is the cell's index in that buffer).
    p.offset_of = [chain, idx, refs](size_t k, int64_t cell) -> int64_t {
        const Ref& r = refs->at(k);
        const Pipeline& q = (*chain)[r.pipe];
        size_t step = std::min(r.step, q.steps.size());
        int64_t o = cell;
        if (r.pipe + 1 != chain->size()) o = (*idx)[r.pipe][size_t(cell)];
        for (size_t j = q.steps.size(); j > step && o >= 0; --j) o = step_back(q.steps[j - 1], o);
        return o;
    };
    p.offsets = [chain, idx, refs](size_t k) {
        const Ref& r = refs->at(k);
        const Pipeline& q = (*chain)[r.pipe];
        size_t step = std::min(r.step, q.steps.size());
        std::vector<int64_t> off = stage_offsets(q, step);
        if (r.pipe + 1 == chain->size()) return off;
        const std::vector<int64_t>& to = (*idx)[r.pipe];
        std::vector<int64_t> out(to.size());
        for (size_t j = 0; j < to.size(); ++j) out[j] = to[j] < 0 ? -1 : off[size_t(to[j])];
        return out;
    };
    return p;
}

}  // namespace ll
