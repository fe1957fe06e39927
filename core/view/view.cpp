// View ops. Sections: [helpers] (extent, unit strides, reshape and slice
// of sub-modes, copies, gather, im2col) [names] [parse_op] [apply] (one case per op) [resolve]
#include "core/view/view.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

#include "core/checked.hpp"
#include "core/error.hpp"

namespace ll::view {

namespace {

// ---- [helpers] ------------------------------------------------------------------

std::string list(const std::vector<int64_t>& v) {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
    return s;
}

UsageError op_error(const Op& op, const std::string& why, const std::string& expected) {
    return UsageError("op '" + op.text + "': " + why + "; expected " + expected);
}

int64_t extent(const Layout& l) {
    int64_t hi = l.offset;
    for (const auto& s : flatten(l)) hi += (s.size - 1) * std::max<int64_t>(s.stride, 0);
    return hi + 1;
}

// Stride a new size-1 mode (placeholder stride 0) gets: the span of the
// modes to its right (1 + their largest offset), so a contiguous layout keeps
// row-major strides as PyTorch does. A size-1 mode's stride never changes an
// offset; it only keeps printed layouts readable.
void fix_unit_strides(Layout& l) {
    int64_t span = 1;
    for (size_t i = l.modes.size(); i-- > 0;) {
        Mode& m = l.modes[i];
        if (m.size() == 1 && (m.subs.size() != 1 || m.subs[0].stride == 0)) m.subs = {{1, span}};
        for (const auto& s : m.subs) span += (s.size - 1) * std::max<int64_t>(s.stride, 0);
    }
}

// Splits the coalesced sub-modes of `l` over `shape` (row-major, outer
// first). nullopt when some new dim does not fall on sub-mode factors.
std::optional<Layout> reshape_layout(const Layout& l, const Shape& shape) {
    std::vector<SubMode> pool = coalesce(flatten(l));
    if (pool.size() == 1 && pool[0].size == 1) pool.clear();
    size_t pos = 0;
    Layout r;
    r.offset = l.offset;
    for (int64_t d : shape) {
        Mode m;
        int64_t rem = d;
        while (rem > 1) {
            if (pos == pool.size()) return std::nullopt;
            SubMode& s = pool[pos];
            if (s.size <= rem && rem % s.size == 0) {
                m.subs.push_back(s);
                rem /= s.size;
                ++pos;
            } else if (s.size % rem == 0) {
                m.subs.push_back({rem, s.stride * (s.size / rem)});
                s.size /= rem;
                rem = 1;
            } else {
                return std::nullopt;
            }
        }
        if (m.subs.empty()) m.subs.push_back({1, 0});
        r.modes.push_back(coalesce(m));
    }
    if (pos != pool.size()) return std::nullopt;
    fix_unit_strides(r);
    return r;
}

Shape reshape_target(const View& v, const Op& op) {
    int64_t n = v.layout.size(), known = 1;
    int infer = -1;
    Shape s = op.ints;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == -1 && infer < 0) {
            infer = int(i);
        } else if (s[i] <= 0) {
            throw op_error(op, "dim " + std::to_string(s[i]) + " is not a size",
                           "positive sizes and at most one -1");
        } else {
            if (s[i] > n / known) {  // the product passes n: a mismatch, caught below
                known = n + 1;
                break;
            }
            known *= s[i];
        }
    }
    if (infer >= 0 && known > 0 && n % known == 0) s[size_t(infer)] = n / known;
    if (infer >= 0 ? (known == 0 || n % known != 0) : known != n)
        throw op_error(
            op, "reshape to (" + list(op.ints) + ") changes the element count " + std::to_string(n),
            "a shape with " + std::to_string(n) + " elements, like the input " +
                ll::to_string(v.shape()));
    return s;
}

// Broadcast and repeat grow the element count: keep it within kMaxElements.
void check_size(const Op& op, const Shape& s) {
    try {
        numel(s);
    } catch (const UsageError&) {
        throw op_error(op, "the result " + ll::to_string(s) + " has more than 2^40 elements",
                       "a result that fits in memory");
    }
}

int64_t checked_dim(const Op& op, int64_t d, size_t rank, bool allow_end = false) {
    int64_t hi = int64_t(rank) + (allow_end ? 1 : 0);
    if (d < 0 || d >= hi)
        throw op_error(op, "dim " + std::to_string(d) + " is out of range",
                       "a dim in 0.." + std::to_string(hi - 1));
    return d;
}

// A copy's storage starts at the first 32-byte boundary past the storage it
// was filled from (which, in a chain, lies past every earlier one), so each
// storage has addresses of its own: x at 0x1000 holding 24 fp32 elements
// (96 B) puts its copy at 0x1060.
int64_t next_storage_base(const View& v) {
    const int64_t bits = checked_mul(v.storage_elems, v.elem_bits, "the storage's size in bits");
    const int64_t bytes = bits / 8 + (bits % 8 != 0);
    const int64_t end = checked_add(v.base, bytes, "the end address of the storage");
    return checked_add(end, (32 - end % 32) % 32, "the next storage's base");
}

View copy_of(const View& v) {
    View r;
    r.layout = row_major(v.shape());
    r.elem_bits = v.elem_bits;
    r.base = next_storage_base(v);
    r.storage = v.storage + 1;
    r.storage_elems = v.layout.size();
    r.source = std::make_shared<const View>(v);
    return r;
}

// One mode restricted to indices start, start+step, ...; nullopt when no
// (outer, inner) strided form reaches exactly those offsets.
std::optional<Mode> slice_mode(const Mode& m, int64_t start, int64_t n, int64_t step,
                               int64_t& offset) {
    if (m.flat()) {
        offset += start * m.subs[0].stride;
        return Mode{{{n, m.subs[0].stride * step}}};
    }
    int64_t o0 = m(start);
    if (n == 1) {
        offset += o0;
        return Mode{{{1, 0}}};
    }
    int64_t d = m(start + step) - o0;
    bool arithmetic = n <= (int64_t(1) << 20);
    for (int64_t k = 2; arithmetic && k < n; ++k) arithmetic = m(start + k * step) - o0 == k * d;
    if (arithmetic) {
        offset += o0;
        return Mode{{{n, d}}};
    }
    int64_t inner = m.size() / m.subs[0].size;
    if (step == 1 && start % inner == 0 && n % inner == 0) {
        offset += (start / inner) * m.subs[0].stride;
        Mode r = m;
        r.subs[0].size = n / inner;
        return r;
    }
    return std::nullopt;
}

// gather:d:i,j,...: an arithmetic run of indices (i, i+k, i+2k, ..., k >= 0
// in offsets) is one strided mode; any other list becomes an index array.
Applied apply_gather(const View& v, const Op& op) {
    const size_t rank = v.layout.rank();
    int64_t d = checked_dim(op, op.ints[0], rank);
    std::vector<int64_t> idx(op.ints.begin() + 1, op.ints.end());
    const Mode& m = v.layout.modes[size_t(d)];
    if (idx.empty()) throw op_error(op, "no indices", "at least one index, e.g. gather:1:0,2");
    for (int64_t i : idx)
        if (i < 0 || i >= m.size())
            throw op_error(op,
                           "index " + std::to_string(i) + " is outside dim " + std::to_string(d) +
                               " of size " + std::to_string(m.size()),
                           "indices in 0.." + std::to_string(m.size() - 1));
    Shape out_shape = v.shape();
    out_shape[size_t(d)] = int64_t(idx.size());
    check_size(op, out_shape);
    Applied out{v, false};
    int64_t o0 = m(idx[0]);
    int64_t step = idx.size() > 1 ? m(idx[1]) - o0 : 0;
    bool arithmetic = step >= 0;
    for (size_t k = 2; arithmetic && k < idx.size(); ++k)
        arithmetic = m(idx[k]) - o0 == int64_t(k) * step;
    if (arithmetic) {
        out.view.layout.offset += o0;
        out.view.layout.modes[size_t(d)] = Mode{{{int64_t(idx.size()), step}}};
        fix_unit_strides(out.view.layout);
        return out;
    }
    View r = copy_of(v);
    r.layout = row_major(out_shape);
    r.storage_elems = numel(out_shape);
    auto g = std::make_shared<Gather>();
    g->dim = size_t(d);
    g->index = std::move(idx);
    r.gather = g;
    return {r, true};
}

// im2col: with the hierarchical rule and flat H and W modes, the
// overlapping-stride view; otherwise one copy filled window by window.
Applied apply_im2col(const View& v, const Op& op, ReshapeRule rule) {
    Im2col p = im2col_params(op, v.shape());
    const size_t rank = v.layout.rank();
    const Layout& in = v.layout;
    if (rule == ReshapeRule::hierarchical && in.modes[rank - 2].flat() &&
        in.modes[rank - 1].flat()) {
        int64_t sH = in.modes[rank - 2].subs[0].stride, sW = in.modes[rank - 1].subs[0].stride;
        Mode rows{{{p.oh, sH * p.sh}, {p.ow, sW * p.sw}}};
        Mode cols;
        for (size_t k = 0; k + 2 < rank; ++k)
            for (const auto& s : in.modes[k].subs) cols.subs.push_back(s);
        cols.subs.push_back({p.kh, sH * p.dh});
        cols.subs.push_back({p.kw, sW * p.dw});
        Applied out{v, false};
        out.view.layout.offset = in.offset;
        out.view.layout.modes = {coalesce(rows), coalesce(cols)};
        return out;
    }
    View r = copy_of(v);
    Shape out_shape{p.oh * p.ow, p.channels * p.kh * p.kw};
    r.layout = row_major(out_shape);
    r.storage_elems = numel(out_shape);
    r.im2col = std::make_shared<Im2col>(p);
    return {r, true};
}

}  // namespace

Im2col im2col_params(const Op& op, const Shape& in) {
    if (in.size() < 2)
        throw op_error(op, "input " + ll::to_string(in) + " has fewer than 2 dims",
                       "a tensor whose last two dims are H and W");
    Im2col p;
    const auto& a = op.ints;
    p.kh = a[0];
    p.kw = a[1];
    if (a.size() >= 4) p.sh = a[2], p.sw = a[3];
    if (a.size() >= 6) p.dh = a[4], p.dw = a[5];
    for (int64_t x : a)
        if (x < 1 || x > kMaxElements)
            throw op_error(op, "value " + std::to_string(x), "kernel, stride and dilation >= 1");
    int64_t H = in[in.size() - 2], W = in[in.size() - 1];
    int64_t eh = (p.kh - 1) * p.dh + 1, ew = (p.kw - 1) * p.dw + 1;
    if (eh > H || ew > W)
        throw op_error(op,
                       "a " + std::to_string(eh) + "x" + std::to_string(ew) +
                           " window does not fit H,W = " + std::to_string(H) + "," +
                           std::to_string(W) + " (no padding)",
                       "(kh-1)*dh+1 <= H and (kw-1)*dw+1 <= W");
    p.oh = (H - eh) / p.sh + 1;
    p.ow = (W - ew) / p.sw + 1;
    for (size_t k = 0; k + 2 < in.size(); ++k) p.channels *= in[k];
    if (p.channels > kMaxElements / p.kh / p.kw ||
        p.oh * p.ow > kMaxElements / (p.channels * p.kh * p.kw))
        throw op_error(op, "the result has more than 2^40 elements",
                       "a result that fits in memory");
    return p;
}

View make_view(const Layout& layout, int elem_bits, int64_t base) {
    View v;
    v.layout = layout;
    v.elem_bits = elem_bits;
    v.base = base;
    v.storage_elems = extent(layout);
    return v;
}

// ---- [names] --------------------------------------------------------------------

const char* name(OpKind k) {
    switch (k) {
        case OpKind::permute:
            return "permute";
        case OpKind::transpose:
            return "transpose";
        case OpKind::slice:
            return "slice";
        case OpKind::select:
            return "select";
        case OpKind::reshape:
            return "reshape";
        case OpKind::expand:
            return "expand";
        case OpKind::squeeze:
            return "squeeze";
        case OpKind::unsqueeze:
            return "unsqueeze";
        case OpKind::repeat:
            return "repeat";
        case OpKind::contiguous:
            return "contiguous";
        case OpKind::gather:
            return "gather";
        case OpKind::im2col:
            return "im2col";
    }
    return "?";
}

const char* name(Category c) {
    switch (c) {
        case Category::bijective:
            return "bijective";
        case Category::expanding:
            return "expanding";
        case Category::selecting:
            return "selecting";
    }
    return "?";
}

Category category(OpKind k) {
    switch (k) {
        case OpKind::expand:
        case OpKind::repeat:
        case OpKind::im2col:
            return Category::expanding;
        case OpKind::slice:
        case OpKind::select:
        case OpKind::squeeze:
        case OpKind::gather:
            return Category::selecting;
        default:
            return Category::bijective;
    }
}

// ---- [parse_op] -----------------------------------------------------------------

Op parse_op(const std::string& text) {
    Op op;
    op.text = text;
    size_t colon = text.find(':');
    std::string nm = text.substr(0, colon);
    std::string args = colon == std::string::npos ? "" : text.substr(colon + 1);
    const std::vector<std::pair<const char*, OpKind>> names = {
        {"permute", OpKind::permute}, {"transpose", OpKind::transpose},
        {"slice", OpKind::slice},     {"select", OpKind::select},
        {"reshape", OpKind::reshape}, {"view", OpKind::reshape},
        {"expand", OpKind::expand},   {"broadcast", OpKind::expand},
        {"squeeze", OpKind::squeeze}, {"unsqueeze", OpKind::unsqueeze},
        {"repeat", OpKind::repeat},   {"contiguous", OpKind::contiguous},
        {"gather", OpKind::gather},   {"index_select", OpKind::gather},
        {"im2col", OpKind::im2col},   {"unfold", OpKind::im2col}};
    bool found = false;
    for (const auto& [n, k] : names)
        if (nm == n) {
            op.kind = k;
            found = true;
        }
    const char* all =
        "permute:, transpose:, slice:, select:, reshape:, expand:, squeeze[:d], unsqueeze:, "
        "repeat:, contiguous, gather:d:i,j,..., im2col:kh,kw[,sh,sw[,dh,dw]]";
    if (!found) throw op_error(op, "unknown op '" + nm + "'", std::string("one of ") + all);
    auto ints = [&](const char* expected) {
        try {
            return parse_int_list(args, "op '" + text + "'");
        } catch (const UsageError&) {
            throw op_error(op, args.empty() ? "missing arguments" : "bad arguments '" + args + "'",
                           expected);
        }
    };
    switch (op.kind) {
        case OpKind::permute:
            op.ints = ints("a permutation of the dims, e.g. permute:0,2,3,1");
            break;
        case OpKind::transpose:
            op.ints = ints("two dims, e.g. transpose:1,2");
            if (op.ints.size() != 2) throw op_error(op, "needs two dims", "e.g. transpose:1,2");
            break;
        case OpKind::reshape:
            op.ints = ints("the new shape, e.g. reshape:6,4 (one -1 allowed)");
            break;
        case OpKind::expand:
            op.ints = ints("the target shape, e.g. expand:4,3 (-1 keeps a dim)");
            break;
        case OpKind::repeat:
            op.ints = ints("a repeat count per dim, e.g. repeat:2,1");
            break;
        case OpKind::select:
            op.ints = ints("a dim and an index, e.g. select:1,2");
            if (op.ints.size() != 2)
                throw op_error(op, "needs a dim and an index", "e.g. select:1,2");
            break;
        case OpKind::unsqueeze:
            op.ints = ints("one dim, e.g. unsqueeze:0");
            if (op.ints.size() != 1) throw op_error(op, "needs one dim", "e.g. unsqueeze:0");
            break;
        case OpKind::squeeze:
            if (colon != std::string::npos) {
                op.ints = ints("one dim, e.g. squeeze:0, or squeeze for all size-1 dims");
                if (op.ints.size() != 1) throw op_error(op, "needs one dim", "e.g. squeeze:0");
            }
            break;
        case OpKind::contiguous:
            if (!args.empty()) throw op_error(op, "takes no arguments", "contiguous");
            break;
        case OpKind::gather: {
            const char* expected = "a dim, a colon and the indices, e.g. gather:1:0,2,2,5";
            size_t c2 = args.find(':');
            if (c2 == std::string::npos)
                throw op_error(op, args.empty() ? "missing arguments" : "no ':' after the dim",
                               expected);
            std::vector<int64_t> dim, idx;
            try {
                dim = parse_int_list(args.substr(0, c2), "op '" + text + "'");
                idx = parse_int_list(args.substr(c2 + 1), "op '" + text + "'");
            } catch (const UsageError&) {
                throw op_error(op, "bad arguments '" + args + "'", expected);
            }
            if (dim.size() != 1) throw op_error(op, "needs exactly one dim", expected);
            op.ints = dim;
            op.ints.insert(op.ints.end(), idx.begin(), idx.end());
            break;
        }
        case OpKind::im2col:
            op.ints = ints("kh,kw[,sh,sw[,dh,dw]], e.g. im2col:3,3 or im2col:3,3,2,2");
            if (op.ints.size() != 2 && op.ints.size() != 4 && op.ints.size() != 6)
                throw op_error(op, std::to_string(op.ints.size()) + " numbers",
                               "kh,kw or kh,kw,sh,sw or kh,kw,sh,sw,dh,dw");
            break;
        case OpKind::slice: {
            const char* expected =
                "start:stop[:step] per dim, e.g. slice:2:8,5:15 or slice:0:10:2,:";
            if (args.empty()) throw op_error(op, "missing ranges", expected);
            size_t i = 0;
            while (true) {
                size_t j = args.find(',', i);
                std::string piece =
                    args.substr(i, j == std::string::npos ? std::string::npos : j - i);
                std::vector<std::string> parts{""};
                for (char ch : piece) {
                    if (ch == ':')
                        parts.push_back("");
                    else if (ch != ' ')
                        parts.back() += ch;
                }
                if (parts.size() < 2 || parts.size() > 3)
                    throw op_error(op, "range '" + piece + "' is not start:stop[:step]", expected);
                Range r;
                for (size_t p = 0; p < parts.size(); ++p) {
                    if (parts[p].empty()) continue;
                    bool digits = parts[p].size() <= 15 &&
                                  std::all_of(parts[p].begin(), parts[p].end(), [](char c) {
                                      return std::isdigit(static_cast<unsigned char>(c));
                                  });
                    if (!digits)
                        throw op_error(op,
                                       "'" + parts[p] + "' in range '" + piece +
                                           "' is not a non-negative integer",
                                       expected);
                    int64_t val = std::stoll(parts[p]);
                    if (p == 0) r.start = val, r.has_start = true;
                    if (p == 1) r.stop = val, r.has_stop = true;
                    if (p == 2) r.step = val;
                }
                if (r.step < 1)
                    throw op_error(op, "step 0 in range '" + piece + "'", "a step >= 1");
                op.ranges.push_back(r);
                if (j == std::string::npos) break;
                i = j + 1;
            }
            break;
        }
    }
    return op;
}

// ---- [apply] --------------------------------------------------------------------

StepCost step_cost(const View& in, const Op& op, bool contiguous_output) {
    Applied a = apply(in, op);
    StepCost c;
    c.moves = a.copied || (contiguous_output && !is_contiguous(a.view.layout));
    if (!c.moves) return c;
    const int64_t n_in = in.layout.size(), n_out = a.view.layout.size();
    c.writes = n_out;
    c.reads = category(op.kind) == Category::selecting ? n_out : n_in;
    c.read_bytes = (c.reads * in.elem_bits + 7) / 8;
    c.write_bytes = (c.writes * a.view.elem_bits + 7) / 8;
    return c;
}

View materialize(const View& v) {
    return copy_of(v);
}

Applied apply(const View& v, const Op& op, ReshapeRule rule) {
    const size_t rank = v.layout.rank();
    Applied out{v, false};
    Layout& l = out.view.layout;
    switch (op.kind) {
        case OpKind::permute: {
            std::vector<bool> seen(rank, false);
            bool ok = op.ints.size() == rank;
            for (int64_t d : op.ints) {
                if (!ok || d < 0 || d >= int64_t(rank) || seen[size_t(d)]) {
                    ok = false;
                    break;
                }
                seen[size_t(d)] = true;
            }
            if (!ok)
                throw op_error(op,
                               "(" + list(op.ints) + ") is not a permutation of the " +
                                   std::to_string(rank) + " dims of " + ll::to_string(v.shape()),
                               "each of 0.." + std::to_string(int64_t(rank) - 1) + " exactly once");
            for (size_t i = 0; i < rank; ++i) l.modes[i] = v.layout.modes[size_t(op.ints[i])];
            break;
        }
        case OpKind::transpose: {
            int64_t a = checked_dim(op, op.ints[0], rank), b = checked_dim(op, op.ints[1], rank);
            std::swap(l.modes[size_t(a)], l.modes[size_t(b)]);
            break;
        }
        case OpKind::slice: {
            if (op.ranges.size() > rank)
                throw op_error(
                    op,
                    std::to_string(op.ranges.size()) + " ranges for rank " + std::to_string(rank),
                    "at most one range per dim of " + ll::to_string(v.shape()));
            Shape s = v.shape();
            std::vector<int64_t> start(rank, 0), count(rank, 0), step(rank, 1);
            for (size_t i = 0; i < rank; ++i) {
                Range r = i < op.ranges.size() ? op.ranges[i] : Range{};
                int64_t a = r.has_start ? r.start : 0, b = r.has_stop ? r.stop : s[i];
                if (a >= b || b > s[i])
                    throw op_error(op,
                                   "range " + std::to_string(a) + ":" + std::to_string(b) +
                                       " is outside dim " + std::to_string(i) + " of size " +
                                       std::to_string(s[i]),
                                   "0 <= start < stop <= " + std::to_string(s[i]));
                start[i] = a;
                step[i] = r.step;
                count[i] = (b - a + r.step - 1) / r.step;
            }
            auto try_slice = [&](const Layout& src, Layout& dst) {
                dst = src;
                for (size_t i = 0; i < rank; ++i) {
                    auto m = slice_mode(src.modes[i], start[i], count[i], step[i], dst.offset);
                    if (!m) return false;
                    dst.modes[i] = *m;
                }
                return true;
            };
            if (!try_slice(v.layout, l)) {
                out.view = copy_of(v);
                out.copied = true;
                Layout base = out.view.layout;
                try_slice(base, out.view.layout);
            }
            fix_unit_strides(out.view.layout);
            break;
        }
        case OpKind::reshape: {
            Shape target = reshape_target(v, op);
            auto r = reshape_layout(v.layout, target);
            if (r && (rule == ReshapeRule::hierarchical || r->flat())) {
                l = *r;
            } else {
                out.view = copy_of(v);
                out.view.layout = row_major(target);
                out.copied = true;
            }
            break;
        }
        case OpKind::expand: {
            if (op.ints.size() < rank)
                throw op_error(op,
                               "target (" + list(op.ints) + ") has fewer dims than " +
                                   ll::to_string(v.shape()),
                               "at least " + std::to_string(rank) + " sizes");
            size_t lead = op.ints.size() - rank;
            Layout r;
            r.offset = l.offset;
            for (size_t k = 0; k < op.ints.size(); ++k) {
                int64_t t = op.ints[k];
                if (k < lead) {
                    if (t <= 0)
                        throw op_error(
                            op, "new leading dim " + std::to_string(k) + " is " + std::to_string(t),
                            "a positive size");
                    r.modes.push_back(Mode{{{t, 0}}});
                    continue;
                }
                const Mode& m = v.layout.modes[k - lead];
                if (t == -1 || t == m.size()) {
                    r.modes.push_back(m);
                } else if (m.size() == 1 && t > 0) {
                    r.modes.push_back(Mode{{{t, 0}}});
                } else {
                    throw op_error(op,
                                   "dim " + std::to_string(k - lead) + " has size " +
                                       std::to_string(m.size()) + ", cannot expand to " +
                                       std::to_string(t),
                                   "the same size, -1, or a size-1 dim to broadcast");
                }
            }
            check_size(op, r.shape());
            l = r;
            break;
        }
        case OpKind::select: {
            int64_t d = checked_dim(op, op.ints[0], rank), i = op.ints[1];
            int64_t size = v.layout.modes[size_t(d)].size();
            if (i < 0 || i >= size)
                throw op_error(op,
                               "index " + std::to_string(i) + " is outside dim " +
                                   std::to_string(d) + " of size " + std::to_string(size),
                               "0 <= index < " + std::to_string(size));
            l.offset += v.layout.modes[size_t(d)](i);
            l.modes.erase(l.modes.begin() + d);
            break;
        }
        case OpKind::squeeze: {
            if (!op.ints.empty()) {
                int64_t d = checked_dim(op, op.ints[0], rank);
                if (v.layout.modes[size_t(d)].size() != 1)
                    throw op_error(op,
                                   "dim " + std::to_string(d) + " has size " +
                                       std::to_string(v.layout.modes[size_t(d)].size()),
                                   "a size-1 dim");
                l.modes.erase(l.modes.begin() + d);
            } else {
                l.modes.erase(std::remove_if(l.modes.begin(), l.modes.end(),
                                             [](const Mode& m) { return m.size() == 1; }),
                              l.modes.end());
            }
            break;
        }
        case OpKind::unsqueeze: {
            int64_t d = checked_dim(op, op.ints[0], rank, true);
            l.modes.insert(l.modes.begin() + d, Mode{{{1, 0}}});
            fix_unit_strides(l);
            break;
        }
        case OpKind::repeat: {
            if (op.ints.size() < rank)
                throw op_error(op,
                               "(" + list(op.ints) + ") has fewer counts than dims of " +
                                   ll::to_string(v.shape()),
                               "one count per dim (extra leading counts add dims)");
            size_t lead = op.ints.size() - rank;
            Layout r;
            r.offset = l.offset;
            int64_t total = v.layout.size();  // grows by each count; checked before any product
            for (size_t k = 0; k < op.ints.size(); ++k) {
                int64_t t = op.ints[k];
                if (t <= 0)
                    throw op_error(op, "count " + std::to_string(t), "positive repeat counts");
                if (t > kMaxElements / total)
                    throw op_error(op, "the result has more than 2^40 elements",
                                   "a result that fits in memory");
                total *= t;
                Mode m = k < lead ? Mode{{{1, 0}}} : v.layout.modes[k - lead];
                m.subs.insert(m.subs.begin(), SubMode{t, 0});
                r.modes.push_back(coalesce(m));
            }
            check_size(op, r.shape());
            l = r;
            if (rule == ReshapeRule::strided && !l.flat()) {
                out.view = copy_of(out.view);
                out.copied = true;
            }
            break;
        }
        case OpKind::contiguous:
            if (!is_contiguous(v.layout)) {
                out.view = copy_of(v);
                out.copied = true;
            }
            break;
        case OpKind::gather:
            out = apply_gather(v, op);
            break;
        case OpKind::im2col:
            out = apply_im2col(v, op, rule);
            break;
    }
    if (out.view.layout.rank() > kMaxRank)
        throw op_error(op,
                       "gives rank " + std::to_string(out.view.layout.rank()) +
                           ", over the limit of " + std::to_string(kMaxRank) + " dimensions",
                       "at most " + std::to_string(kMaxRank) + " dimensions");
    return out;
}

// ---- [resolve] ------------------------------------------------------------------

int64_t resolve(const View& v, const Coord& c) {
    int64_t off = v.layout(c);
    if (!v.source) return off;
    return resolve(*v.source, source_coord(v, off));
}

Coord source_coord(const View& v, int64_t storage_index) {
    if (v.im2col) {
        const Im2col& p = *v.im2col;
        Shape in = v.source->shape();
        int64_t cols = p.channels * p.kh * p.kw;
        int64_t row = storage_index / cols, col = storage_index % cols;
        int64_t k = col % (p.kh * p.kw);
        Shape lead(in.begin(), in.end() - 2);
        Coord c = lead.empty() ? Coord{} : unravel(col / (p.kh * p.kw), lead);
        c.push_back((row / p.ow) * p.sh + (k / p.kw) * p.dh);
        c.push_back((row % p.ow) * p.sw + (k % p.kw) * p.dw);
        return c;
    }
    Shape fill = v.source->shape();
    if (!v.gather) return unravel(storage_index, fill);
    const size_t d = v.gather->dim;
    fill[d] = int64_t(v.gather->index.size());
    Coord c = unravel(storage_index, fill);
    c[d] = v.gather->index[size_t(c[d])];
    return c;
}

}  // namespace ll::view
