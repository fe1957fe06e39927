// Format names and the construction of conversion pipelines.
//
// Every supported conversion is built from one description (a "recipe"):
// the plain format's axis names, which axes are padded to a block (C to C0,
// N to N0, M to M0, ...), the order the split axes end in, and an optional
// final merge (C1*H*W). Forward pipelines are pad -> reshape (split) ->
// transpose [-> reshape (merge)]; inverse pipelines are the same steps
// undone in reverse order, the pad becoming a crop.
//
// Sections:
//   names      format/step names, to_string(Pipeline)
//   recipes    captions, Recipe -> forward steps, inverting steps, which
//              plain formats feed which target, fractal sides per dtype,
//              validation helpers (rank, size cap 2^32, pad value)
//   pipelines  make_pipeline, inverse, stage_shape
#include "core/format/format.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

#include "core/error.hpp"
#include "core/format/format_detail.hpp"

namespace ll {

// ---- names ------------------------------------------------------------------

namespace {

struct FormatInfo {
    Format f;
    const char* name;
    int plain_rank;  // -1: not plain; 0: ND (any rank)
    const char* letters;
};
constexpr FormatInfo kFormats[] = {
    {Format::ND, "ND", 0, ""},
    {Format::NCHW, "NCHW", 4, "NCHW"},
    {Format::NHWC, "NHWC", 4, "NHWC"},
    {Format::HWCN, "HWCN", 4, "HWCN"},
    {Format::NCDHW, "NCDHW", 5, "NCDHW"},
    {Format::NDHWC, "NDHWC", 5, "NDHWC"},
    {Format::NC1HWC0, "NC1HWC0", -1, ""},
    {Format::NDC1HWC0, "NDC1HWC0", -1, ""},
    {Format::FRACTAL_NZ, "FRACTAL_NZ", -1, ""},
    {Format::FRACTAL_ZZ, "FRACTAL_ZZ", -1, ""},
    {Format::FRACTAL_ZN, "FRACTAL_ZN", -1, ""},
    {Format::FRACTAL_Z, "FRACTAL_Z", -1, ""},
    {Format::FRACTAL_Z_3D, "FRACTAL_Z_3D", -1, ""},
    {Format::BSH, "BSH", 3, "BSH"},
    {Format::SBH, "SBH", 3, "SBH"},
    {Format::BSNGD, "BSNGD", 5, "BSNGD"},
    {Format::SBNGD, "SBNGD", 5, "SBNGD"},
    {Format::BNGS1S2, "BNGS1S2", 5, "BNGS1S2"},
    {Format::BMNK, "BMNK", 3, "BMK"},
    {Format::ND_ALIGN, "ND_ALIGN", -1, ""},
    {Format::VECTOR, "VECTOR", 1, "K"},
    {Format::NCHW16C, "NCHW16C", -1, ""},
    {Format::NCHW8H8W, "NCHW8H8W", -1, ""},
};
const FormatInfo& info(Format f) {
    return kFormats[static_cast<int>(f)];
}

std::string upper(std::string s) {
    for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

}  // namespace

const char* name(Format f) {
    return info(f).name;
}
bool is_plain(Format f) {
    return info(f).plain_rank >= 0;
}
int plain_rank(Format f) {
    return info(f).plain_rank;
}
std::string axis_letters(Format f) {
    return info(f).letters;
}

const std::vector<Format>& all_formats() {
    static const std::vector<Format> v = [] {
        std::vector<Format> r;
        for (const auto& i : kFormats) r.push_back(i.f);
        return r;
    }();
    return v;
}

std::string format_names() {
    std::string s;
    for (const auto& i : kFormats) {
        if (!s.empty()) s += ", ";
        s += i.name;
    }
    return s;
}

Format format_from_name(const std::string& s) {
    const std::string u = upper(s);
    for (const auto& i : kFormats)
        if (u == i.name) return i.f;
    if (u == "NZ") return Format::FRACTAL_NZ;
    if (u == "ZZ") return Format::FRACTAL_ZZ;
    if (u == "ZN") return Format::FRACTAL_ZN;
    if (u == "5HD") return Format::NC1HWC0;
    if (u == "FRACTAL_Z3D") return Format::FRACTAL_Z_3D;
    if (u == "NORMAL") return Format::BMNK;  // Ascend's name for the BMNK batch layout
    throw UsageError("unknown format '" + s + "'; expected one of " + format_names());
}

const char* name(StepKind k) {
    switch (k) {
        case StepKind::pad:
            return "pad";
        case StepKind::reshape:
            return "reshape";
        case StepKind::transpose:
            return "transpose";
        case StepKind::crop:
            return "crop";
    }
    return "?";
}

std::string Step::label() const {
    if (kind != StepKind::transpose) return name(kind);
    std::string r = "transpose(";
    for (size_t i = 0; i < perm.size(); ++i) r += (i ? "," : "") + std::to_string(perm[i]);
    return r + ")";
}

std::string to_string(const Pipeline& p) {
    std::string r = to_string(p.src_shape);
    for (const auto& s : p.steps) r += " -> " + s.label() + " -> " + to_string(s.after);
    return r;
}

// ---- recipes ----------------------------------------------------------------

namespace {

bool is_batch_name(const std::string& n) {
    if (n.empty() || n[0] != 'B') return false;
    return std::all_of(n.begin() + 1, n.end(), [](char c) { return std::isdigit(c) != 0; });
}

// "(..., B, M1, M0, N1, N0)": batch axes collapse to "..., B" as the documents write them.
std::string symbolic(const std::vector<std::string>& axes) {
    std::string r = "(";
    bool first = true, in_batch = false;
    for (const auto& a : axes) {
        if (is_batch_name(a)) {
            if (in_batch) continue;
            in_batch = true;
            r += first ? "..., B" : ", ..., B";
            first = false;
            continue;
        }
        in_batch = false;
        r += (first ? "" : ", ") + a;
        first = false;
    }
    return r + ")";
}

}  // namespace

void detail::set_caption(Step& s) {
    s.caption = symbolic(s.axes_before) + " -> " + name(s.kind) + " -> " + symbolic(s.axes_after);
}

namespace {

using detail::set_caption;

// One forward conversion from a plain format.
struct Recipe {
    std::vector<std::string> axes;                // plain axis names, e.g. N C H W
    std::map<std::string, int64_t> block;         // axis -> block size (padded and split)
    std::vector<std::string> order;               // split axis names in destination order
    std::vector<std::vector<std::string>> merge;  // optional final grouping
};

std::vector<Step> forward_steps(const Recipe& r, const Shape& shape) {
    std::vector<Step> steps;
    const size_t n = r.axes.size();
    // pad
    Step pad;
    pad.kind = StepKind::pad;
    pad.before = shape;
    pad.axes_before = r.axes;
    for (size_t i = 0; i < n; ++i) {
        auto it = r.block.find(r.axes[i]);
        int64_t b = it == r.block.end() ? 1 : it->second;
        int64_t padded = round_up(shape[i], b);
        pad.after.push_back(padded);
        pad.amounts.push_back(padded - shape[i]);
        pad.axes_after.push_back(b == 1 ? r.axes[i] : r.axes[i] + "1*" + r.axes[i] + "0");
    }
    set_caption(pad);
    // reshape (split)
    Step split;
    split.kind = StepKind::reshape;
    split.before = pad.after;
    split.axes_before = pad.axes_after;
    for (size_t i = 0; i < n; ++i) {
        auto it = r.block.find(r.axes[i]);
        if (it == r.block.end()) {
            split.after.push_back(shape[i]);
            split.axes_after.push_back(r.axes[i]);
        } else {
            split.after.push_back(pad.after[i] / it->second);
            split.after.push_back(it->second);
            split.axes_after.push_back(r.axes[i] + "1");
            split.axes_after.push_back(r.axes[i] + "0");
        }
    }
    set_caption(split);
    // transpose
    Step tr;
    tr.kind = StepKind::transpose;
    tr.before = split.after;
    tr.axes_before = split.axes_after;
    for (const auto& a : r.order) {
        auto it = std::find(split.axes_after.begin(), split.axes_after.end(), a);
        int64_t k = it - split.axes_after.begin();
        tr.perm.push_back(k);
        tr.after.push_back(split.after[static_cast<size_t>(k)]);
        tr.axes_after.push_back(a);
    }
    set_caption(tr);
    steps.push_back(pad);
    steps.push_back(split);
    steps.push_back(tr);
    if (!r.merge.empty()) {
        Step m;
        m.kind = StepKind::reshape;
        m.before = tr.after;
        m.axes_before = tr.axes_after;
        size_t k = 0;
        for (const auto& g : r.merge) {
            int64_t size = 1;
            std::string nm;
            for (const auto& a : g) {
                size *= tr.after[k++];
                nm += (nm.empty() ? "" : "*") + a;
            }
            m.after.push_back(size);
            m.axes_after.push_back(nm);
        }
        set_caption(m);
        steps.push_back(m);
    }
    return steps;
}

Step invert(const Step& s) {
    Step r;
    r.before = s.after;
    r.after = s.before;
    r.axes_before = s.axes_after;
    r.axes_after = s.axes_before;
    switch (s.kind) {
        case StepKind::pad:
            r.kind = StepKind::crop;
            r.amounts = s.amounts;
            break;
        case StepKind::crop:
            r.kind = StepKind::pad;
            r.amounts = s.amounts;
            break;
        case StepKind::reshape:
            r.kind = StepKind::reshape;
            break;
        case StepKind::transpose:
            r.kind = StepKind::transpose;
            r.perm.assign(s.perm.size(), 0);
            for (size_t i = 0; i < s.perm.size(); ++i)
                r.perm[static_cast<size_t>(s.perm[i])] = static_cast<int64_t>(i);
            break;
    }
    set_caption(r);
    return r;
}

}  // namespace

std::vector<Step> detail::inverse_steps(const std::vector<Step>& fwd) {
    std::vector<Step> r;
    for (size_t i = fwd.size(); i-- > 0;) r.push_back(invert(fwd[i]));
    return r;
}

namespace {

using detail::inverse_steps;

// Which plain format a non-plain format is built from by default (the
// plain side used for fractal <-> fractal conversions).
Format family_plain(Format f) {
    switch (f) {
        case Format::FRACTAL_NZ:
        case Format::FRACTAL_ZZ:
        case Format::FRACTAL_ZN:
            return Format::ND;
        case Format::NC1HWC0:
        case Format::FRACTAL_Z:
        case Format::NCHW16C:
        case Format::NCHW8H8W:
            return Format::NCHW;
        case Format::NDC1HWC0:
        case Format::FRACTAL_Z_3D:
            return Format::NDHWC;
        case Format::ND_ALIGN:
            return Format::ND;
        default:
            return f;
    }
}

bool can_feed(Format plain, Format target) {
    switch (target) {
        case Format::FRACTAL_NZ:
        case Format::FRACTAL_ZZ:
        case Format::FRACTAL_ZN:
            return plain == Format::ND;
        case Format::NC1HWC0:
        case Format::NCHW16C:
        case Format::NCHW8H8W:
            return plain == Format::NCHW || plain == Format::NHWC;
        case Format::FRACTAL_Z:
            return plain == Format::NCHW || plain == Format::NHWC || plain == Format::HWCN;
        case Format::NDC1HWC0:
        case Format::FRACTAL_Z_3D:
            return plain == Format::NCDHW || plain == Format::NDHWC;
        default:
            return false;
    }
}

const char* kAccepted =
    "ND -> FRACTAL_NZ/FRACTAL_ZZ/FRACTAL_ZN; NCHW/NHWC -> NC1HWC0; NCHW/NHWC/HWCN -> "
    "FRACTAL_Z; NCDHW/NDHWC -> NDC1HWC0/FRACTAL_Z_3D; each of these backwards; "
    "NCHW/NHWC/HWCN among themselves; NCDHW/NDHWC between themselves; ND <-> any plain "
    "format of the same rank; FRACTAL_NZ/ZZ/ZN among themselves; NC1HWC0 <-> FRACTAL_Z; "
    "NDC1HWC0 <-> FRACTAL_Z_3D; a fractal to itself with another source fractal size; "
    "BSH/SBH/BSNGD/SBNGD/BNGS1S2/BMNK among themselves and to/from FRACTAL_NZ/ZZ/ZN; "
    "ND <-> ND_ALIGN; VECTOR <-> FRACTAL_NZ/ZZ/ZN; NCHW/NHWC -> NCHW16C (nChw16c) and "
    "NCHW8H8W (blocked layouts)";

std::vector<std::string> letters_of(Format f, size_t rank) {
    std::vector<std::string> r;
    std::string l = axis_letters(f);
    if (l.empty()) {  // ND: batch axes then the matrix axes, named later
        for (size_t i = 0; i < rank; ++i) r.push_back("D" + std::to_string(i));
        return r;
    }
    for (char c : l) r.push_back(std::string(1, c));
    return r;
}

std::vector<std::string> batch_names(size_t n) {
    std::vector<std::string> r;
    if (n == 1) r.push_back("B");
    for (size_t i = 0; n > 1 && i < n; ++i) r.push_back("B" + std::to_string(i));
    return r;
}

// The blocks of the CPU layouts: fixed element counts, not 32-byte rows.
constexpr int64_t kBlockedC = 16, kBlockedHW = 8;

struct Sides {
    int64_t rows = 0, cols = 0;  // fractal sides for matrix / FRACTAL_Z formats
    int64_t c0 = 0;
};

Recipe recipe_for(Format plain, Format target, size_t rank, const Sides& sd) {
    Recipe r;
    auto concat = [](std::vector<std::string> a, const std::vector<std::string>& b) {
        a.insert(a.end(), b.begin(), b.end());
        return a;
    };
    switch (target) {
        case Format::FRACTAL_NZ:
        case Format::FRACTAL_ZZ:
        case Format::FRACTAL_ZN: {
            std::string R = target == Format::FRACTAL_ZN ? "K" : "M";
            std::string C = target == Format::FRACTAL_ZZ ? "K" : "N";
            auto b = batch_names(rank - 2);
            r.axes = concat(b, {R, C});
            r.block = {{R, sd.rows}, {C, sd.cols}};
            if (target == Format::FRACTAL_NZ)
                r.order = concat(b, {C + "1", R + "1", R + "0", C + "0"});
            else if (target == Format::FRACTAL_ZZ)
                r.order = concat(b, {R + "1", C + "1", R + "0", C + "0"});
            else  // ZN: fractal stored as N0 columns of K0 contiguous elements
                r.order = concat(b, {R + "1", C + "1", C + "0", R + "0"});
            return r;
        }
        case Format::NC1HWC0:
        case Format::NDC1HWC0: {
            r.axes = letters_of(plain, rank);
            r.block = {{"C", sd.c0}};
            if (target == Format::NC1HWC0)
                r.order = {"N", "C1", "H", "W", "C0"};
            else
                r.order = {"N", "D", "C1", "H", "W", "C0"};
            return r;
        }
        case Format::NCHW16C:  // C split into 16-element blocks, innermost
            r.axes = letters_of(plain, rank);
            r.block = {{"C", kBlockedC}};
            r.order = {"N", "C1", "H", "W", "C0"};
            return r;
        case Format::NCHW8H8W:  // H and W split into 8x8 tiles, each tile contiguous
            r.axes = letters_of(plain, rank);
            r.block = {{"H", kBlockedHW}, {"W", kBlockedHW}};
            r.order = {"N", "C", "H1", "W1", "H0", "W0"};
            return r;
        case Format::FRACTAL_Z:
        case Format::FRACTAL_Z_3D: {
            r.axes = letters_of(plain, rank);
            r.block = {{"C", sd.c0}, {"N", sd.rows}};
            if (target == Format::FRACTAL_Z) {
                r.order = {"C1", "H", "W", "N1", "N0", "C0"};
                r.merge = {{"C1", "H", "W"}, {"N1"}, {"N0"}, {"C0"}};
            } else {
                r.order = {"D", "C1", "H", "W", "N1", "N0", "C0"};
                r.merge = {{"D", "C1", "H", "W"}, {"N1"}, {"N0"}, {"C0"}};
            }
            return r;
        }
        default:
            break;
    }
    throw UsageError("to", std::string("no conversion from ") + name(plain) + " to " +
                               name(target) + "; expected one of: " + kAccepted);
}

// Plain -> plain: a transpose where the axes correspond, nothing for ND.
std::vector<Step> plain_steps(Format from, Format to, const Shape& shape) {
    std::vector<Step> steps;
    if (from == Format::ND || to == Format::ND || from == to) return steps;
    std::string a = axis_letters(from), b = axis_letters(to);
    std::string sa = a, sb = b;
    std::sort(sa.begin(), sa.end());
    std::sort(sb.begin(), sb.end());
    if (sa != sb)
        throw UsageError("to", std::string("no conversion from ") + name(from) + " to " + name(to) +
                                   "; expected one of: " + kAccepted);
    Step t;
    t.kind = StepKind::transpose;
    t.before = shape;
    for (char c : a) t.axes_before.push_back(std::string(1, c));
    for (char c : b) {
        size_t k = a.find(c);
        t.perm.push_back(static_cast<int64_t>(k));
        t.after.push_back(shape[k]);
        t.axes_after.push_back(std::string(1, c));
    }
    set_caption(t);
    steps.push_back(t);
    return steps;
}

void check_rank(Format plain, Format other, const Shape& shape) {
    const size_t r = shape.size();
    std::string rs = std::to_string(r);
    if (plain == Format::ND) {
        bool matrix = other == Format::FRACTAL_NZ || other == Format::FRACTAL_ZZ ||
                      other == Format::FRACTAL_ZN;
        if (matrix && r < 2)
            throw UsageError("shape", to_string(shape) + " has rank " + rs + "; " + name(other) +
                                          " needs an ND shape of rank >= 2 (..., M, N)");
        if (is_plain(other) && other != Format::ND && static_cast<int>(r) != plain_rank(other))
            throw UsageError("shape", to_string(shape) + " has rank " + rs + "; ND <-> " +
                                          name(other) + " expects rank " +
                                          std::to_string(plain_rank(other)));
        return;
    }
    if (static_cast<int>(r) != plain_rank(plain))
        throw UsageError("shape", to_string(shape) + " has rank " + rs + "; " + name(plain) +
                                      " expects rank " + std::to_string(plain_rank(plain)) + " (" +
                                      axis_letters(plain) + ")");
}

Sides sides_for(const ConvertSpec& s, Format target) {
    Sides sd;
    const int64_t w = elems_per_32b(s.dtype);
    sd.c0 = s.c0 > 0 ? s.c0 : w;
    switch (target) {
        case Format::FRACTAL_NZ:
        case Format::FRACTAL_ZZ:
            sd.rows = 16;
            sd.cols = s.c0 > 0 ? s.c0 : w;
            break;
        case Format::FRACTAL_ZN:
            sd.rows = s.c0 > 0 ? s.c0 : w;  // K0: 32 bytes of contiguous elements
            sd.cols = 16;                   // N0
            break;
        case Format::FRACTAL_Z:
        case Format::FRACTAL_Z_3D:
            sd.rows = 16;
            break;
        default:
            break;
    }
    const bool matrix = target == Format::FRACTAL_NZ || target == Format::FRACTAL_ZZ ||
                        target == Format::FRACTAL_ZN;
    const bool fz = target == Format::FRACTAL_Z || target == Format::FRACTAL_Z_3D;
    if (s.fractal_rows > 0 || s.fractal_cols > 0) {
        if (!matrix && !fz)
            throw UsageError("fractal", std::string(name(target)) +
                                            " has no fractal to resize; expected c0 for its C0");
        if (s.fractal_rows > 0) sd.rows = s.fractal_rows;
        if (s.fractal_cols > 0) {
            if (fz && s.c0 > 0 && s.c0 != s.fractal_cols)
                throw UsageError("fractal", "columns " + std::to_string(s.fractal_cols) +
                                                " disagree with c0 " + std::to_string(s.c0) +
                                                "; expected the same C0 in both");
            sd.cols = s.fractal_cols;
            if (fz) sd.c0 = s.fractal_cols;
        }
    }
    return sd;
}

FractalInfo fractal_info(Format f, const Sides& sd) {
    FractalInfo fi;
    fi.format = f;
    switch (f) {
        case Format::FRACTAL_NZ:
            fi = {f, "M0", "N0", sd.rows, sd.cols};
            break;
        case Format::FRACTAL_ZZ:
            fi = {f, "M0", "K0", sd.rows, sd.cols};
            break;
        case Format::FRACTAL_ZN:
            fi = {f, "K0", "N0", sd.rows, sd.cols};
            break;
        case Format::FRACTAL_Z:
        case Format::FRACTAL_Z_3D:
            fi = {f, "N0", "C0", sd.rows, sd.c0};
            break;
        case Format::NC1HWC0:
        case Format::NDC1HWC0:
            fi = {f, "", "C0", 0, sd.c0};
            break;
        case Format::NCHW16C:
            fi = {f, "", "C0", 0, kBlockedC};
            break;
        case Format::NCHW8H8W:
            fi = {f, "H0", "W0", kBlockedHW, kBlockedHW};
            break;
        default:
            break;
    }
    return fi;
}

bool uses_c0(Format f) {
    return f == Format::NC1HWC0 || f == Format::NDC1HWC0 || f == Format::FRACTAL_Z ||
           f == Format::FRACTAL_Z_3D;
}

void check_pad_value(DType t, double v) {
    if (!std::isfinite(v) && !is_float(t))
        throw UsageError("pad_value", std::to_string(v) + " is not a number " + name(t) +
                                          " can hold; expected a finite integer");
    if (is_float(t)) return;
    const double lo = int_min(t), hi = int_max(t);
    if (v != std::floor(v) || v < lo || v > hi)
        throw UsageError("pad_value", std::to_string(v) + " does not fit " + name(t) +
                                          "; expected an integer in [" +
                                          std::to_string(int64_t(lo)) + ", " +
                                          std::to_string(int64_t(hi)) + "]");
}

}  // namespace

void detail::check_element_limit(const Shape& s, const char* what) {
    const int64_t n = numel(s);
    if (n > kMaxConvertElements)
        throw ElementLimitError("shape", std::string(what) + " " + to_string(s) + " has " +
                                             std::to_string(n) +
                                             " elements; expected at most 2^32");
}

bool within_element_limit(const ConvertSpec& spec) {
    try {
        (void)make_pipeline(spec);
        return true;
    } catch (const ElementLimitError&) {
        return false;
    }
}

std::vector<Step> detail::matrix_fractal_steps(const ConvertSpec& spec, Format target,
                                               const Shape& nd, bool source_side, FractalInfo& fi) {
    ConvertSpec s = spec;
    if (source_side && spec.src_fractal_rows > 0) s.fractal_rows = spec.src_fractal_rows;
    if (source_side && spec.src_fractal_cols > 0) s.fractal_cols = spec.src_fractal_cols;
    check_rank(Format::ND, target, nd);
    const Sides sd = sides_for(s, target);
    fi = fractal_info(target, sd);
    return forward_steps(recipe_for(Format::ND, target, nd.size(), sd), nd);
}

const char* detail::accepted_conversions() {
    return kAccepted;
}

Format plain_family(Format f) {
    return family_plain(f);
}

Pipeline make_pipeline(const ConvertSpec& spec) {
    if (spec.shape.empty())
        throw UsageError("shape", "empty shape; expected comma-separated dims such as 2,2,28");
    for (int64_t d : spec.shape)
        if (d <= 0)
            throw UsageError("shape", "dimension " + std::to_string(d) + " in " +
                                          to_string(spec.shape) + " must be a positive integer");
    numel(spec.shape);  // overflow check
    detail::check_element_limit(spec.shape, "logical shape");
    if (spec.c0 < 0 || spec.c0 > 4096)
        throw UsageError("c0", std::to_string(spec.c0) + " is out of range; expected 1..4096");
    if (spec.fractal_rows < 0 || spec.fractal_cols < 0 || spec.fractal_rows > 4096 ||
        spec.fractal_cols > 4096)
        throw UsageError("fractal", "sides must be in 1..4096, e.g. 16x16");
    if (spec.src_fractal_rows < 0 || spec.src_fractal_cols < 0 || spec.src_fractal_rows > 4096 ||
        spec.src_fractal_cols > 4096)
        throw UsageError("src_fractal", "sides must be in 1..4096, e.g. 16x16");
    check_pad_value(spec.dtype, spec.pad_value);
    if (detail::is_matmul_conversion(spec.from, spec.to)) return detail::matmul_pipeline(spec);
    if (spec.heads != 0 || spec.groups != 0)
        throw UsageError("heads_groups",
                         std::string("only BSH -> BSNGD and SBH -> SBNGD split H; not ") +
                             name(spec.from) + " -> " + name(spec.to));

    Pipeline p;
    p.from = spec.from;
    p.to = spec.to;
    p.dtype = spec.dtype;
    p.logical_shape = spec.shape;
    p.pad_value = spec.pad_value;
    const Format from = spec.from, to = spec.to;

    if (is_plain(from) && is_plain(to)) {
        Format pf = from == Format::ND ? to : from;
        check_rank(from == Format::ND ? Format::ND : pf, to, spec.shape);
        if (from != Format::ND) check_rank(from, from, spec.shape);
        p.steps = plain_steps(from, to, spec.shape);
        p.src_shape = spec.shape;
        p.dst_shape = p.steps.empty() ? spec.shape : p.steps.back().after;
        return p;
    }

    // Forward half (plain -> to) and backward half (from -> plain).
    std::vector<Step> back, fwd;
    Format plain;
    if (is_plain(from)) {
        plain = from;
        if (!can_feed(from, to))
            throw UsageError("from_to", std::string("no conversion from ") + name(from) + " to " +
                                            name(to) + "; expected one of: " + kAccepted);
    } else if (is_plain(to)) {
        plain = to;
        if (!can_feed(to, from))
            throw UsageError("from_to", std::string("no conversion from ") + name(from) + " to " +
                                            name(to) + "; expected one of: " + kAccepted);
    } else {
        plain = family_plain(from);
        if (family_plain(to) != plain || !can_feed(plain, to))
            throw UsageError("from_to", std::string("no conversion from ") + name(from) + " to " +
                                            name(to) + "; expected one of: " + kAccepted);
    }
    check_rank(plain, is_plain(from) ? to : from, spec.shape);
    if (!is_plain(to) && !is_plain(from)) check_rank(plain, to, spec.shape);

    // The source side may name its own fractal (L0C 16x16 -> L1 16x8).
    ConvertSpec src_spec = spec;
    if (spec.src_fractal_rows > 0) src_spec.fractal_rows = spec.src_fractal_rows;
    if (spec.src_fractal_cols > 0) src_spec.fractal_cols = spec.src_fractal_cols;
    const bool src_sized = spec.src_fractal_rows > 0 || spec.src_fractal_cols > 0;
    if (src_sized && is_plain(from))
        throw UsageError("src_fractal",
                         std::string("the source ") + name(from) +
                             " is a plain format with no fractal; expected a fractal source");
    bool resize = false;
    if (src_sized && from == to) {
        const Sides a = sides_for(src_spec, from), b = sides_for(spec, to);
        resize = a.rows != b.rows || a.cols != b.cols || a.c0 != b.c0;
    }
    if (!is_plain(from)) {
        Sides sd = sides_for(src_spec, from);
        if (spec.c0 > 0 && !uses_c0(from) && spec.fractal_cols > 0 && spec.c0 != spec.fractal_cols)
            throw UsageError("c0", "disagrees with the fractal's columns; expected one of them");
        back = inverse_steps(
            forward_steps(recipe_for(plain, from, spec.shape.size(), sd), spec.shape));
        p.fractals.push_back(fractal_info(from, sd));
        if (uses_c0(from)) p.c0 = sd.c0;
    }
    if (!is_plain(to) && (to != from || resize)) {
        Sides sd = sides_for(spec, to);
        fwd = forward_steps(recipe_for(plain, to, spec.shape.size(), sd), spec.shape);
        p.fractals.push_back(fractal_info(to, sd));
        if (uses_c0(to)) p.c0 = sd.c0;
    }
    if (from == to && !resize) back.clear();  // identity: same physical layout
    p.steps = back;
    p.steps.insert(p.steps.end(), fwd.begin(), fwd.end());
    if (p.steps.empty()) {
        // from == to, both non-plain: the buffer is left as it is.
        Sides sd = sides_for(spec, to);
        auto st = forward_steps(recipe_for(plain, to, spec.shape.size(), sd), spec.shape);
        p.src_shape = p.dst_shape = st.back().after;
    } else {
        p.src_shape = p.steps.front().before;
        p.dst_shape = p.steps.back().after;
    }
    for (const auto& s : p.steps) detail::check_element_limit(s.after, "padded shape");
    return p;
}

Pipeline inverse(const Pipeline& p) {
    ConvertSpec s;
    s.from = p.to;
    s.to = p.from;
    s.shape = p.logical_shape;
    if (is_plain(p.from) && is_plain(p.to) && !p.steps.empty()) s.shape = p.dst_shape;
    s.dtype = p.dtype;
    s.pad_value = p.pad_value;
    Pipeline r;
    r.from = p.to;
    r.to = p.from;
    r.dtype = p.dtype;
    r.src_shape = p.dst_shape;
    r.dst_shape = p.src_shape;
    r.logical_shape = s.shape;
    r.steps = inverse_steps(p.steps);
    r.fractals.assign(p.fractals.rbegin(), p.fractals.rend());
    r.c0 = p.c0;
    r.pad_value = p.pad_value;
    return r;
}

Shape stage_shape(const Pipeline& p, size_t k) {
    if (k > p.steps.size()) throw std::out_of_range("stage_shape: k past the last step");
    return k == 0 ? p.src_shape : p.steps[k - 1].after;
}

}  // namespace ll
