// The Matmul high-level formats of document 000 (last section) as steps of
// the same pipeline engine: reshape (moves nothing), transpose, pad.
//
// Every one of BSH, SBH, BSNGD, SBNGD, BNGS1S2 and BMNK stores the same five
// quantities in some order: batch B, heads N, groups G, the matrix rows S (M)
// and the matrix columns D (K), with H = N x G x D:
//   BSH, BSNGD        memory order B S N G D
//   SBH, SBNGD        memory order S B N G D
//   BNGS1S2, BMNK     memory order B N G S D (one S x D matrix per (b, n, g))
// A conversion between two of them is: reshape the source's logical shape to
// its five axes (when it merges some), transpose to the destination's order
// (when it differs), reshape to the destination's logical shape. When neither
// side names N and G they are left out (three axes B, S, D).
// To FRACTAL_NZ/ZZ/ZN: first to BMNK, then ND's pad -> reshape -> transpose on
// the batch of matrices; backwards the same steps undone.
// VECTOR (K) is reshaped to a 1 x K matrix, which the fractal pads to 16 rows.
// ND -> ND_ALIGN pads the last axis with zeros to a multiple of 32 bytes.
#include <algorithm>
#include <map>

#include "core/error.hpp"
#include "core/format/format.hpp"
#include "core/format/format_detail.hpp"

namespace ll::detail {

namespace {

bool is_mm(Format f) {
    switch (f) {
        case Format::BSH:
        case Format::SBH:
        case Format::BSNGD:
        case Format::SBNGD:
        case Format::BNGS1S2:
        case Format::BMNK:
            return true;
        default:
            return false;
    }
}
bool is_five(Format f) {
    return f == Format::BSNGD || f == Format::SBNGD || f == Format::BNGS1S2;
}
bool is_fractal(Format f) {
    return f == Format::FRACTAL_NZ || f == Format::FRACTAL_ZZ || f == Format::FRACTAL_ZN;
}
bool is_new(Format f) {
    return is_mm(f) || f == Format::ND_ALIGN || f == Format::VECTOR;
}

// Roles, in the canonical order B N G S D of the batch of matrices.
enum Role { rB, rS, rN, rG, rD };
using Roles = std::vector<Role>;

Roles memory_order(Format f) {
    switch (f) {
        case Format::BSH:
        case Format::BSNGD:
            return {rB, rS, rN, rG, rD};
        case Format::SBH:
        case Format::SBNGD:
            return {rS, rB, rN, rG, rD};
        default:
            return {rB, rN, rG, rS, rD};
    }
}

// The logical axes of a format as groups of roles (a merged axis holds
// several), with their labels.
struct Axis {
    Roles roles;
    std::string label;
};
std::vector<Axis> logical_axes(Format f) {
    switch (f) {
        case Format::BSH:
            return {{{rB}, "B"}, {{rS}, "S"}, {{rN, rG, rD}, "H"}};
        case Format::SBH:
            return {{{rS}, "S"}, {{rB}, "B"}, {{rN, rG, rD}, "H"}};
        case Format::BSNGD:
            return {{{rB}, "B"}, {{rS}, "S"}, {{rN}, "N"}, {{rG}, "G"}, {{rD}, "D"}};
        case Format::SBNGD:
            return {{{rS}, "S"}, {{rB}, "B"}, {{rN}, "N"}, {{rG}, "G"}, {{rD}, "D"}};
        case Format::BNGS1S2:
            return {{{rB}, "B"}, {{rN}, "N"}, {{rG}, "G"}, {{rS}, "S1"}, {{rD}, "S2"}};
        default:  // BMNK
            return {{{rB, rN, rG}, "B"}, {{rS}, "M"}, {{rD}, "K"}};
    }
}

const char* role_name(Role r) {
    static const char* n[] = {"B", "S", "N", "G", "D"};
    return n[r];
}

std::string plain_caption_part(const std::vector<std::string>& axes) {
    std::string r = "(";
    for (size_t i = 0; i < axes.size(); ++i) r += (i ? ", " : "") + axes[i];
    return r + ")";
}
// Captions name B as the single batch axis it is (no "..., B").
void caption(Step& s) {
    s.caption = plain_caption_part(s.axes_before) + " -> " + name(s.kind) + " -> " +
                plain_caption_part(s.axes_after);
}

[[noreturn]] void unsupported(Format from, Format to) {
    throw UsageError("from_to", std::string("no conversion from ") + name(from) + " to " +
                                    name(to) + "; expected one of: " + accepted_conversions());
}

void check_rank_of(Format f, const Shape& s, const std::string& hint) {
    const size_t want = f == Format::VECTOR ? 1 : logical_axes(f).size();
    if (s.size() != want)
        throw UsageError("shape", to_string(s) + " has rank " + std::to_string(s.size()) + "; " +
                                      name(f) + " expects rank " + std::to_string(want) + " (" +
                                      axis_letters(f) + ")" + hint);
}

// The five sizes from the shape given in `f`'s logical order (three-axis
// formats split their merged axis with heads x groups).
std::map<Role, int64_t> dims_of(Format f, const Shape& s, int64_t heads, int64_t groups,
                                bool five) {
    std::map<Role, int64_t> d = {{rB, 1}, {rS, 1}, {rN, 1}, {rG, 1}, {rD, 1}};
    const auto axes = logical_axes(f);
    for (size_t i = 0; i < axes.size(); ++i) {
        const Axis& a = axes[i];
        if (a.roles.size() == 1) {
            d[a.roles[0]] = s[i];
            continue;
        }
        if (!five) {  // N and G stay out: the merged axis is D (H) or B
            d[a.roles.front() == rB ? rB : rD] = s[i];
            continue;
        }
        const int64_t ng = heads * groups;
        if (s[i] % ng != 0)
            throw UsageError("heads_groups",
                             a.label + " = " + std::to_string(s[i]) +
                                 " is not a multiple of heads x groups = " + std::to_string(heads) +
                                 " x " + std::to_string(groups) + "; expected " + a.label +
                                 " = N x G x " + (a.roles.front() == rB ? "B" : "D"));
        d[rN] = heads;
        d[rG] = groups;
        d[a.roles.front() == rB ? rB : rD] = s[i] / ng;
    }
    return d;
}

struct Chain {
    std::vector<Step> steps;
    Shape src, dst;
};

// Steps X -> Y between two Matmul formats for the given sizes.
Chain mm_steps(Format x, Format y, const std::map<Role, int64_t>& d, bool five) {
    auto keep = [&](Role r) { return five || (r != rN && r != rG); };
    auto full = [&](Format f) {
        Roles o;
        for (Role r : memory_order(f))
            if (keep(r)) o.push_back(r);
        return o;
    };
    auto logical = [&](Format f, std::vector<std::string>& labels) {
        Shape s;
        for (const Axis& a : logical_axes(f)) {
            int64_t n = 1;
            std::string lab;
            for (Role r : a.roles)
                if (keep(r)) n *= d.at(r);
            lab = a.label;
            if (five && f == Format::BMNK && a.roles.size() > 1) lab = "B*N*G";
            s.push_back(n);
            labels.push_back(lab);
        }
        return s;
    };
    Chain c;
    std::vector<std::string> lx, ly;
    c.src = logical(x, lx);
    c.dst = logical(y, ly);
    const Roles fx = full(x), fy = full(y);
    Shape cur = c.src;
    std::vector<std::string> cur_axes = lx;
    // 1. reshape to the five (or three) axes when x merges some
    if (c.src.size() != fx.size()) {
        Step s;
        s.kind = StepKind::reshape;
        s.before = cur;
        s.axes_before = cur_axes;
        for (Role r : fx) {
            s.after.push_back(d.at(r));
            s.axes_after.push_back(role_name(r));
        }
        caption(s);
        cur = s.after;
        cur_axes = s.axes_after;
        c.steps.push_back(s);
    }
    // 2. transpose to y's memory order
    if (fx != fy) {
        Step s;
        s.kind = StepKind::transpose;
        s.before = cur;
        s.axes_before = cur_axes;
        for (Role r : fy) {
            const auto k = std::find(fx.begin(), fx.end(), r) - fx.begin();
            s.perm.push_back(k);
            s.after.push_back(cur[static_cast<size_t>(k)]);
            s.axes_after.push_back(cur_axes[static_cast<size_t>(k)]);
        }
        caption(s);
        cur = s.after;
        cur_axes = s.axes_after;
        c.steps.push_back(s);
    }
    // 3. reshape to y's logical shape when it merges some
    if (cur != c.dst) {
        Step s;
        s.kind = StepKind::reshape;
        s.before = cur;
        s.axes_before = cur_axes;
        s.after = c.dst;
        s.axes_after = ly;
        caption(s);
        c.steps.push_back(s);
    }
    return c;
}

// Sizes and mode of an X <-> Y pair (X, Y Matmul formats; one may be a
// fractal, standing for BMNK).
struct Sizes {
    std::map<Role, int64_t> d;
    bool five = false;
};
Sizes sizes_for(const ConvertSpec& spec, Format x, Format y) {
    Sizes z;
    const Shape& s = spec.shape;
    const bool fx = is_five(x), fy = is_five(y);
    z.five = fx || fy;
    const bool split = spec.heads > 0 || spec.groups > 0;
    if (spec.heads < 0 || spec.groups < 0)
        throw UsageError("heads_groups", "must be positive; expected e.g. 4 heads, 1 group");
    if (!z.five) {
        if (split)
            throw UsageError("heads_groups",
                             std::string(name(x)) + " -> " + name(y) +
                                 " has no N or G axis; expected BSH -> BSNGD or SBH -> SBNGD");
        check_rank_of(x, s, "");
        z.d = dims_of(x, s, 1, 1, false);
        return z;
    }
    if (s.size() == 5) {
        if (split)
            throw UsageError("heads_groups",
                             "the 5-D shape already names N and G; expected one or the other");
        const Format five_side = fx ? x : y;
        z.d = dims_of(five_side, s, 1, 1, true);
        return z;
    }
    const Format three_side = !fx ? x : y;
    if (fx && fy)
        throw UsageError("shape", to_string(s) + " has rank " + std::to_string(s.size()) + "; " +
                                      name(x) + " expects rank 5 (" + axis_letters(x) + ")");
    check_rank_of(
        three_side, s,
        std::string(", with N heads and G groups, or the 5-D shape of ") + name(fx ? x : y));
    if (spec.heads <= 0)
        throw UsageError(
            "heads", std::string("missing; ") + name(three_side) + " " + to_string(s) + " -> " +
                         name(fx ? x : y) +
                         " needs the number of heads N (and groups G, default 1) to split " +
                         (three_side == Format::BMNK ? "B into B x N x G" : "H into N x G x D"));
    z.d = dims_of(three_side, s, spec.heads, spec.groups > 0 ? spec.groups : 1, true);
    return z;
}

Pipeline finish(const ConvertSpec& spec, std::vector<Step> steps, const Shape& src,
                const Shape& dst) {
    Pipeline p;
    p.from = spec.from;
    p.to = spec.to;
    p.dtype = spec.dtype;
    p.logical_shape = spec.shape;
    p.pad_value = spec.pad_value;
    p.steps = std::move(steps);
    p.src_shape = p.steps.empty() ? src : p.steps.front().before;
    p.dst_shape = p.steps.empty() ? dst : p.steps.back().after;
    for (const auto& st : p.steps) check_element_limit(st.after, "padded shape");
    return p;
}

// x (Matmul or VECTOR) -> fractal f, forward; fi gets the fractal.
std::vector<Step> to_fractal(const ConvertSpec& spec, Format x, Format f, bool source_side,
                             FractalInfo& fi, Shape& x_shape) {
    std::vector<Step> steps;
    Shape nd;
    if (x == Format::VECTOR) {
        check_rank_of(x, spec.shape, "");
        x_shape = spec.shape;
        nd = {1, spec.shape[0]};
        std::vector<Step> fr = matrix_fractal_steps(spec, f, nd, source_side, fi);
        Step s;
        s.kind = StepKind::reshape;
        s.before = spec.shape;
        s.after = nd;
        s.axes_before = {"K"};
        s.axes_after = {"1", "K"};
        caption(s);
        steps.push_back(s);
        steps.insert(steps.end(), fr.begin(), fr.end());
        return steps;
    }
    const Sizes z = sizes_for(spec, x, Format::BMNK);
    Chain c = mm_steps(x, Format::BMNK, z.d, z.five);
    x_shape = c.src;
    std::vector<Step> fr = matrix_fractal_steps(spec, f, c.dst, source_side, fi);
    steps = c.steps;
    steps.insert(steps.end(), fr.begin(), fr.end());
    return steps;
}

Pipeline nd_align(const ConvertSpec& spec) {
    const Shape& s = spec.shape;
    const int64_t w = elems_per_32b(spec.dtype);
    Step pad;
    pad.kind = StepKind::pad;
    pad.before = s;
    pad.after = s;
    pad.after.back() = round_up(s.back(), w);
    pad.amounts.assign(s.size(), 0);
    pad.amounts.back() = pad.after.back() - s.back();
    for (size_t i = 0; i + 1 < s.size(); ++i)
        pad.axes_before.push_back(s.size() == 2 ? "M" : "D" + std::to_string(i));
    pad.axes_after = pad.axes_before;
    pad.axes_before.push_back("N");
    pad.axes_after.push_back("ceil(N/" + std::to_string(w) + ")*" + std::to_string(w));
    caption(pad);
    std::vector<Step> steps;
    if (spec.from == Format::ND && spec.to == Format::ND_ALIGN)
        steps = {pad};
    else if (spec.from == Format::ND_ALIGN && spec.to == Format::ND)
        steps = inverse_steps({pad});
    Pipeline p = finish(spec, steps, pad.after, pad.after);
    FractalInfo fi;
    fi.format = Format::ND_ALIGN;
    fi.col_name = "align";
    fi.cols = w;
    p.fractals.push_back(fi);
    return p;
}

}  // namespace

bool is_matmul_conversion(Format from, Format to) {
    if (!is_new(from) && !is_new(to)) return false;
    // ND <-> a plain Matmul format or VECTOR: the plain path (no steps).
    if ((from == Format::ND && (is_mm(to) || to == Format::VECTOR)) ||
        (to == Format::ND && (is_mm(from) || from == Format::VECTOR)))
        return false;
    return true;
}

Pipeline matmul_pipeline(const ConvertSpec& spec) {
    const Format from = spec.from, to = spec.to;
    if (spec.heads > 0 || spec.groups > 0) {
        const bool ok = (is_mm(from) || is_fractal(from)) && (is_mm(to) || is_fractal(to)) &&
                        (is_five(from) || is_five(to));
        if (!ok)
            throw UsageError("heads_groups",
                             std::string(name(from)) + " -> " + name(to) +
                                 " has no N or G axis to split; expected e.g. BSH -> BSNGD");
    }
    if (from == Format::ND_ALIGN || to == Format::ND_ALIGN) {
        const bool ok = (from == Format::ND || from == Format::ND_ALIGN) &&
                        (to == Format::ND || to == Format::ND_ALIGN);
        if (!ok) unsupported(from, to);
        return nd_align(spec);
    }
    if ((spec.src_fractal_rows > 0 || spec.src_fractal_cols > 0) && !is_fractal(from))
        throw UsageError("src_fractal", std::string("the source ") + name(from) +
                                            " has no fractal; expected a FRACTAL_NZ/ZZ/ZN source");
    if (is_mm(from) && is_mm(to)) {
        const Sizes z = sizes_for(spec, from, to);
        Chain c = mm_steps(from, to, z.d, z.five);
        return finish(spec, c.steps, c.src, c.dst);
    }
    const bool x_from = is_mm(from) || from == Format::VECTOR;
    const bool x_to = is_mm(to) || to == Format::VECTOR;
    if (from == Format::VECTOR && to == Format::VECTOR) {
        check_rank_of(from, spec.shape, "");
        return finish(spec, {}, spec.shape, spec.shape);
    }
    if (x_from && is_fractal(to)) {
        FractalInfo fi;
        Shape xs;
        auto steps = to_fractal(spec, from, to, false, fi, xs);
        Pipeline p = finish(spec, steps, xs, xs);
        p.fractals.push_back(fi);
        return p;
    }
    if (is_fractal(from) && x_to) {
        FractalInfo fi;
        Shape xs;
        auto steps = inverse_steps(to_fractal(spec, to, from, true, fi, xs));
        Pipeline p = finish(spec, steps, xs, xs);
        p.fractals.push_back(fi);
        return p;
    }
    unsupported(from, to);
}

}  // namespace ll::detail
