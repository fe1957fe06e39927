// Compiling pipeline segments into strided gathers (see gather.hpp).
#include "core/format/gather.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>

namespace ll::detail {

namespace {

// A piece of one padded source axis: `size` values, coordinate step `astride`.
struct Sub {
    int64_t size;
    int axis;
    int64_t astride;
};
using Group = std::vector<Sub>;  // the pieces of one logical axis, outermost first

// Re-expresses the current axes (groups) as the target shape's axes. Every
// reshape in our pipelines only splits or merges axes, so the pieces can
// always be refined to fit; anything else is a bug in the pipeline builder.
std::vector<Group> reshape_groups(const std::vector<Group>& groups, const Shape& target) {
    std::vector<Sub> flat;
    for (const auto& g : groups)
        for (const auto& s : g)
            if (s.size != 1) flat.push_back(s);
    std::vector<Group> out(target.size());
    int64_t fi = static_cast<int64_t>(flat.size()) - 1;
    for (size_t t = target.size(); t-- > 0;) {
        int64_t need = target[t];
        Group g;
        while (need > 1) {
            if (fi < 0) throw std::logic_error("reshape: element counts differ");
            Sub& d = flat[static_cast<size_t>(fi)];
            if (need % d.size == 0) {
                g.insert(g.begin(), d);
                need /= d.size;
                --fi;
            } else if (d.size % need == 0) {
                g.insert(g.begin(), Sub{need, d.axis, d.astride});
                d.size /= need;
                d.astride *= need;
                need = 1;
            } else {
                throw std::logic_error("reshape is not a split or merge of axes");
            }
        }
        out[t] = g;
    }
    if (fi >= 0) throw std::logic_error("reshape: element counts differ");
    return out;
}

bool mergeable(const Level& o, const Level& i) {
    if (o.src_stride != i.src_stride * i.size || o.dst_stride != i.dst_stride * i.size)
        return false;
    if (o.axis < 0 && i.axis < 0) return true;
    return o.axis == i.axis && o.axis_stride == i.axis_stride * i.size;
}

std::vector<Level> coalesce(const std::vector<Level>& in) {
    std::vector<Level> out;
    for (const Level& l : in) {
        if (l.size == 1) continue;
        if (!out.empty() && mergeable(out.back(), l)) {
            Level m = l;
            m.size = out.back().size * l.size;
            out.back() = m;
        } else {
            out.push_back(l);
        }
    }
    return out;
}

// Tiled order (Gather::tiled): X is the innermost destination level when its
// source stride is not 1; Y the level with source stride 1. Everything else
// goes outside, by decreasing source stride, so consecutive tiles read
// neighbouring source rows.
bool tile_order(std::vector<Level>& lv) {
    if (lv.size() < 2) return false;
    const Level x = lv.back();
    if (x.dst_stride != 1 || x.src_stride == 1) return false;
    size_t yi = lv.size();
    for (size_t i = 0; i + 1 < lv.size(); ++i)
        if (lv[i].src_stride == 1) yi = i;
    if (yi == lv.size()) return false;
    const Level y = lv[yi];
    if (x.axis >= 0 && x.axis == y.axis) return false;
    std::vector<Level> outer;
    for (size_t i = 0; i + 1 < lv.size(); ++i)
        if (i != yi) outer.push_back(lv[i]);
    std::stable_sort(outer.begin(), outer.end(),
                     [](const Level& a, const Level& b) { return a.src_stride > b.src_stride; });
    lv = coalesce(outer);
    lv.push_back(y);
    lv.push_back(x);
    return true;
}

void chunk_order(std::vector<Level>& lv, int esize) {
    // Keep the innermost levels (a destination chunk of >= 512 bytes) in
    // destination order; walk the outer ones by decreasing source stride so
    // the source is read nearly in order while each chunk is written whole.
    // A level that would make the chunk much larger (e.g. all 4096 rows of
    // a matrix) is split so that only a few KiB stay in destination order;
    // otherwise one chunk could walk a whole column strip of the source.
    size_t chunk = 0;
    int64_t bytes = esize;
    while (chunk < lv.size() && bytes < 512) {
        const size_t at = lv.size() - 1 - chunk;
        Level& l = lv[at];
        if (bytes * l.size > 4096) {
            // the smallest piece that makes the chunk >= 512 bytes
            int64_t k = 1;
            for (int64_t c = 2; c < l.size && bytes * c <= 4096; ++c)
                if (l.size % c == 0) {
                    k = c;
                    if (bytes * c >= 512) break;
                }
            if (k > 1) {
                Level outer = l, inner = l;
                inner.size = k;
                outer.size = l.size / k;
                outer.src_stride = l.src_stride * k;
                outer.dst_stride = l.dst_stride * k;
                outer.axis_stride = l.axis_stride * k;
                lv[at] = inner;
                lv.insert(lv.begin() + static_cast<std::ptrdiff_t>(at), outer);
            }
        }
        bytes *= lv[lv.size() - 1 - chunk].size;
        ++chunk;
    }
    std::vector<Level> outer(lv.begin(), lv.end() - static_cast<std::ptrdiff_t>(chunk));
    std::vector<Level> inner(lv.end() - static_cast<std::ptrdiff_t>(chunk), lv.end());
    std::stable_sort(outer.begin(), outer.end(),
                     [](const Level& a, const Level& b) { return a.src_stride > b.src_stride; });
    lv = coalesce(outer);
    inner = coalesce(inner);
    lv.insert(lv.end(), inner.begin(), inner.end());
}

// See compile_gather's `nibbles`: levels in destination order (innermost
// last), rewritten in place from nibbles to bytes when the pairing holds.
bool pair_nibbles(std::vector<Level>& lv, std::vector<int64_t>& limit) {
    if (lv.empty()) return false;
    const Level& in = lv.back();
    if (in.src_stride != 1 || in.dst_stride != 1 || in.size % 2 != 0) return false;
    if (in.axis >= 0 && (in.axis_stride != 1 || limit[static_cast<size_t>(in.axis)] % 2 != 0))
        return false;
    for (size_t i = 0; i + 1 < lv.size(); ++i) {
        const Level& l = lv[i];
        if (l.src_stride % 2 != 0 || l.dst_stride % 2 != 0) return false;
        if (in.axis >= 0 && l.axis == in.axis && l.axis_stride % 2 != 0) return false;
    }
    const int axis = in.axis;
    for (size_t i = 0; i + 1 < lv.size(); ++i) {
        Level& l = lv[i];
        l.src_stride /= 2;
        l.dst_stride /= 2;
        if (axis >= 0 && l.axis == axis) l.axis_stride /= 2;
    }
    lv.back().size /= 2;
    if (axis >= 0) limit[static_cast<size_t>(axis)] /= 2;
    return true;
}

}  // namespace

void set_inner_max(std::vector<Level>& lv) {
    for (size_t i = 0; i < lv.size(); ++i) {
        lv[i].inner_max = 0;
        if (lv[i].axis < 0) continue;
        for (size_t j = i + 1; j < lv.size(); ++j)
            if (lv[j].axis == lv[i].axis) lv[i].inner_max += (lv[j].size - 1) * lv[j].axis_stride;
    }
}

namespace {

// The destination's axes as pieces of the padded source axes, outermost
// first (pieces of size 1 dropped); steps[start..] are reshapes/transposes.
std::vector<Sub> dest_pieces(const Shape& padded, const std::vector<Step>& steps, size_t start,
                             Shape& dst) {
    std::vector<Group> groups;
    for (size_t a = 0; a < padded.size(); ++a)
        groups.push_back({Sub{padded[a], static_cast<int>(a), 1}});
    Shape cur = padded;
    for (size_t k = start; k < steps.size(); ++k) {
        const Step& st = steps[k];
        if (st.kind == StepKind::transpose) {
            std::vector<Group> t;
            for (int64_t p : st.perm) t.push_back(groups[static_cast<size_t>(p)]);
            groups = t;
        } else if (st.kind == StepKind::reshape) {
            groups = reshape_groups(groups, st.after);
        } else {
            throw std::logic_error("compile_gather: pad/crop inside a segment");
        }
        cur = st.after;
    }
    dst = cur;
    std::vector<Sub> out;
    for (const auto& grp : groups)
        for (const auto& sub : grp)
            if (sub.size != 1) out.push_back(sub);
    return out;
}

// Row-major strides of a list of pieces (innermost last).
std::vector<int64_t> piece_strides(const std::vector<Sub>& pieces) {
    std::vector<int64_t> st(pieces.size());
    int64_t s = 1;
    for (size_t i = pieces.size(); i-- > 0;) {
        st[i] = s;
        s *= pieces[i].size;
    }
    return st;
}

// Padded-axis ids (compact; -1: the axis never holds padding) and limits.
std::vector<int> padded_ids(const Shape& src, const Shape& padded, Gather& g) {
    std::vector<int> id(padded.size(), -1);
    for (size_t a = 0; a < padded.size(); ++a)
        if (padded[a] != src[a]) {
            id[a] = static_cast<int>(g.limit.size());
            g.limit.push_back(src[a]);
        }
    if (g.limit.size() > 31) throw std::logic_error("compile_gather: too many padded axes");
    g.mask = g.limit.empty() ? 0u : ((1u << g.limit.size()) - 1u);
    return id;
}

// Levels in destination order -> g's walk order (see compile_gather).
void finish(Gather& g, std::vector<Level> lv, int esize, bool allow_tile, bool nibbles) {
    lv = coalesce(lv);
    if (nibbles && pair_nibbles(lv, g.limit)) {
        g.nibble_pairs = true;
        g.src_numel /= 2;
        g.dst_numel /= 2;
        esize = 1;
    }
    if (allow_tile && tile_order(lv)) {
        g.tiled = true;
    } else {
        chunk_order(lv, esize);
    }
    set_inner_max(lv);
    g.levels = lv;
}

Shape padded_of(const Shape& src, const std::vector<Step>& steps, size_t& start) {
    start = 0;
    if (!steps.empty() && steps[0].kind == StepKind::pad) {
        start = 1;
        return steps[0].after;
    }
    return src;
}

}  // namespace

Gather compile_gather(const Shape& src, const std::vector<Step>& steps, int esize, bool allow_tile,
                      bool nibbles) {
    Gather g;
    g.src = src;
    size_t start = 0;
    const Shape padded = padded_of(src, steps, start);
    const std::vector<Sub> pieces = dest_pieces(padded, steps, start, g.dst);
    g.src_numel = numel(src);
    g.dst_numel = numel(g.dst);
    const std::vector<int> id = padded_ids(src, padded, g);
    const Shape srm = row_major_strides(src);
    const std::vector<int64_t> ds = piece_strides(pieces);
    std::vector<Level> lv;
    for (size_t i = 0; i < pieces.size(); ++i) {
        const Sub& s = pieces[i];
        Level l;
        l.size = s.size;
        l.src_stride = s.astride * srm[static_cast<size_t>(s.axis)];
        l.dst_stride = ds[i];
        l.axis = id[static_cast<size_t>(s.axis)];
        l.axis_stride = l.axis < 0 ? 0 : s.astride;
        lv.push_back(l);
    }
    finish(g, lv, esize, allow_tile, nibbles);
    return g;
}

std::optional<Gather> compile_composed(const Shape& plain, const std::vector<Step>& a_steps,
                                       const std::vector<Step>& b_steps, int esize, bool allow_tile,
                                       bool nibbles) {
    Gather g;
    g.src = plain;
    size_t sa = 0, sb = 0;
    const Shape pad_a = padded_of(plain, a_steps, sa), pad_b = padded_of(plain, b_steps, sb);
    Shape src_shape;
    const std::vector<Sub> pa = dest_pieces(pad_a, a_steps, sa, src_shape);
    const std::vector<Sub> pb = dest_pieces(pad_b, b_steps, sb, g.dst);
    g.src_numel = numel(src_shape);
    g.dst_numel = numel(g.dst);
    // Only the destination's padding is written (with the pad value); the
    // source's padding is never read.
    const std::vector<int> id = padded_ids(plain, pad_b, g);
    const std::vector<int64_t> sst = piece_strides(pa), dst = piece_strides(pb);
    std::vector<Level> lv;
    for (size_t i = 0; i < pb.size(); ++i) {
        const Sub& b = pb[i];
        const auto axis = static_cast<size_t>(b.axis);
        // Cut points inside this piece: its own bounds and every source piece
        // bound on the same axis that falls inside it, each dividing the next.
        std::vector<int64_t> cuts{b.astride, b.astride * b.size};
        for (const Sub& a : pa)
            if (static_cast<size_t>(a.axis) == axis)
                for (int64_t c : {a.astride, a.astride * a.size})
                    if (c > b.astride && c < b.astride * b.size) cuts.push_back(c);
        if (pad_a[axis] > b.astride && pad_a[axis] < b.astride * b.size)
            cuts.push_back(pad_a[axis]);
        std::sort(cuts.begin(), cuts.end());
        cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
        for (size_t k = 1; k < cuts.size(); ++k)
            if (cuts[k] % cuts[k - 1] != 0) return std::nullopt;
        for (size_t k = cuts.size() - 1; k-- > 0;) {  // outermost first
            const int64_t t = cuts[k];
            Level l;
            l.size = cuts[k + 1] / t;
            l.dst_stride = dst[i] * (t / b.astride);
            // The source piece holding coordinate step t (none above the
            // source's padded extent: those coordinates are all padding).
            l.src_stride = 0;
            if (t < pad_a[axis]) {
                bool found = false;
                for (size_t j = 0; j < pa.size(); ++j) {
                    const Sub& a = pa[j];
                    if (static_cast<size_t>(a.axis) != axis || t < a.astride ||
                        t >= a.astride * a.size)
                        continue;
                    if (t % a.astride != 0 || cuts[k + 1] > a.astride * a.size) return std::nullopt;
                    l.src_stride = sst[j] * (t / a.astride);
                    found = true;
                }
                if (!found) return std::nullopt;
            } else if (id[axis] < 0) {
                return std::nullopt;  // would read past the source without padding to fill
            }
            l.axis = id[axis];
            l.axis_stride = l.axis < 0 ? 0 : t;
            lv.push_back(l);
        }
    }
    finish(g, lv, esize, allow_tile, nibbles);
    return g;
}

std::vector<Segment> segments(const Pipeline& p) {
    std::vector<Segment> out;
    const auto& st = p.steps;
    size_t i = 0;
    while (i < st.size()) {
        size_t j = i;
        bool inv = false;
        // A segment runs until a crop (inclusive) or up to the next pad.
        while (j < st.size()) {
            if (j > i && st[j].kind == StepKind::pad) break;
            if (st[j].kind == StepKind::crop) {
                inv = true;
                ++j;
                break;
            }
            ++j;
        }
        Segment s;
        s.first = i;
        s.count = j - i;
        std::vector<Step> part(st.begin() + static_cast<std::ptrdiff_t>(i),
                               st.begin() + static_cast<std::ptrdiff_t>(j));
        if (!inv) {
            // A forward segment with a pad must start with it; a crop-free run
            // that ends before a pad is still a plain forward gather.
            s.inverse = false;
            s.plain = part.front().before;
            s.steps = part;
        } else {
            s.inverse = true;
            s.plain = part.back().after;
            Pipeline tmp;
            tmp.steps = part;
            s.steps = inverse(tmp).steps;
        }
        out.push_back(s);
        i = j;
    }
    return out;
}

}  // namespace ll::detail
