#include "core/view/fuse.hpp"

#include <algorithm>
#include <string>

#include "core/dtype.hpp"
#include "core/validate_only.hpp"

namespace ll::view {

namespace {

int64_t bytes(int bits, int64_t n) {
    return (n * bits + 7) / 8;
}

// Distinct storage-0 offsets read by a composite or overlapping map;
// enumerated while small, bounded by the input size beyond that.
int64_t distinct_composite(const View& v, int64_t input_elems) {
    int64_t n = v.layout.size();
    if (n > (int64_t(1) << 22)) return std::min(n, input_elems);
    std::vector<int64_t> offs;
    offs.reserve(size_t(n));
    Shape s = v.shape();
    for (int64_t i = 0; i < n; ++i) offs.push_back(resolve(v, unravel(i, s)));
    std::sort(offs.begin(), offs.end());
    return int64_t(std::unique(offs.begin(), offs.end()) - offs.begin());
}

std::optional<std::vector<int64_t>> as_permutation(const Layout& in, const Layout& out) {
    if (in.rank() != out.rank() || in.offset != out.offset) return std::nullopt;
    std::vector<int64_t> perm(out.rank(), -1);
    std::vector<bool> used(in.rank(), false);
    for (int unit = 0; unit < 2; ++unit)  // non-trivial modes first, then size-1 modes in order
        for (size_t i = 0; i < out.rank(); ++i) {
            bool trivial = out.modes[i].size() == 1;
            if (trivial != (unit == 1)) continue;
            auto want = coalesce(out.modes[i].subs);
            for (size_t j = 0; j < in.rank(); ++j) {
                if (used[j] || in.modes[j].size() != out.modes[i].size()) continue;
                if (!trivial && !(coalesce(in.modes[j].subs) == want)) continue;
                perm[i] = int64_t(j);
                used[j] = true;
                break;
            }
            if (perm[i] < 0) return std::nullopt;
        }
    return perm;
}

}  // namespace

std::string map_string(const View& v) {
    std::string s = to_string(v.layout);
    for (const View* p = &v; p->source; p = p->source.get()) {
        const View& src = *p->source;
        if (p->im2col) {
            const Im2col& q = *p->im2col;
            s += " -> im2col (" + std::to_string(q.oh * q.ow) + "," +
                 std::to_string(q.channels * q.kh * q.kw) + ") of " + std::to_string(q.kh) + "x" +
                 std::to_string(q.kw) + " windows of " + ll::to_string(src.shape());
        } else if (p->gather) {
            Shape fill = src.shape();
            const auto& g = *p->gather;
            fill[g.dim] = int64_t(g.index.size());
            std::string idx;
            for (size_t i = 0; i < g.index.size() && i < 16; ++i)
                idx += (i ? "," : "") + std::to_string(g.index[i]);
            if (g.index.size() > 16) idx += ",...";
            s += " -> " + ll::to_string(fill) + " gathered along dim " + std::to_string(g.dim) +
                 " by [" + idx + "]";
        } else {
            s += " -> row-major index of " + ll::to_string(src.shape());
        }
        s += " -> " + to_string(src.layout);
    }
    return s;
}

double expansion(const FuseStep& s) {
    return double(numel(s.out_shape)) / double(std::max<int64_t>(1, numel(s.in_shape)));
}

Fused fuse(const View& input, const std::vector<Op>& ops) {
    Fused f;
    f.input = input;
    View cur = input;
    View eager = input;  // the unfused execution's current tensor
    const int bits = input.elem_bits;
    for (const Op& op : ops) {
        FuseStep st;
        st.op = op;
        st.category = category(op.kind);
        st.in_shape = cur.shape();
        Applied a = apply(cur, op, ReshapeRule::hierarchical);
        st.out_shape = a.view.shape();
        st.copied = a.copied;
        st.map = a.view;
        // Unfused, the step runs on the previous step's buffer (the input as
        // it lies, or the last one written) and leaves a contiguous one: free
        // when that is the same buffer (a reshape, squeeze or leading slice).
        StepCost cost = step_cost(eager, op, true);
        st.reads = cost.reads;
        st.writes = cost.writes;
        eager = cost.moves ? make_view(row_major(st.out_shape), bits) : apply(eager, op).view;
        f.unfused_moved_bytes += bytes(bits, st.reads) + bytes(bits, st.writes);
        f.steps.push_back(st);
        cur = a.view;
    }
    f.result = cur;
    // Every op has been applied and checked; counting the distinct offsets
    // read (up to 2^22 of them one by one) and the rest is the analysis.
    work_begins();
    bool overlapping =
        std::any_of(ops.begin(), ops.end(), [](const Op& o) { return o.kind == OpKind::im2col; });
    f.composite = cur.storage != input.storage;
    const Layout& in = input.layout;
    const Layout& out = cur.layout;
    if (!f.composite) {
        f.identity = same_map(in, out);
        f.permutation = as_permutation(in, out);
        // The output lies in the input storage as it is (the same map, or a
        // contiguous run of it: a reshape, a leading slice).
        f.moves_nothing =
            (in.offset == out.offset && coalesce(flatten(in)) == coalesce(flatten(out))) ||
            is_contiguous(out);
        // im2col's windows overlap: distinct_offsets() assumes they do not.
        f.distinct_reads = overlapping ? distinct_composite(cur, in.size()) : distinct_offsets(out);
    } else {
        f.distinct_reads = distinct_composite(cur, in.size());
    }
    f.moved_bytes = f.moves_nothing ? 0 : bytes(bits, f.distinct_reads) + bytes(bits, out.size());
    return f;
}

}  // namespace ll::view
