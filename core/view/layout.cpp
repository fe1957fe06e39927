#include "core/view/layout.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "core/error.hpp"

namespace ll::view {

int64_t Mode::size() const {
    int64_t n = 1;
    for (const auto& s : subs) n *= s.size;
    return n;
}

int64_t Mode::operator()(int64_t i) const {
    int64_t off = 0;
    for (size_t k = subs.size(); k-- > 0;) {
        off += (i % subs[k].size) * subs[k].stride;
        i /= subs[k].size;
    }
    return off;
}

Shape Layout::shape() const {
    Shape s;
    for (const auto& m : modes) s.push_back(m.size());
    return s;
}

int64_t Layout::size() const {
    int64_t n = 1;
    for (const auto& m : modes) n *= m.size();
    return n;
}

int64_t Layout::operator()(const Coord& c) const {
    int64_t off = offset;
    for (size_t i = 0; i < modes.size(); ++i) off += modes[i](c[i]);
    return off;
}

bool Layout::flat() const {
    return std::all_of(modes.begin(), modes.end(), [](const Mode& m) { return m.flat(); });
}

std::vector<int64_t> Layout::strides() const {
    std::vector<int64_t> st;
    for (const auto& m : modes) st.push_back(m.subs.back().stride);
    return st;
}

Layout make_layout(const Shape& shape, const std::vector<int64_t>& strides, int64_t offset) {
    if (shape.size() != strides.size())
        throw UsageError("shape " + ll::to_string(shape) + " has rank " +
                         std::to_string(shape.size()) + " but " + std::to_string(strides.size()) +
                         " strides were given; expected one stride per dim");
    for (int64_t st : strides)
        if (st > kMaxElements || st < -kMaxElements)
            throw UsageError("stride " + std::to_string(st) +
                             " is out of range; expected |stride| <= 2^40");
    Layout l;
    l.offset = offset;
    for (size_t i = 0; i < shape.size(); ++i) l.modes.push_back(Mode{{{shape[i], strides[i]}}});
    return l;
}

Layout row_major(const Shape& shape) {
    return make_layout(shape, row_major_strides(shape));
}

Layout layout_from_order(const Shape& logical, const std::vector<int64_t>& order) {
    size_t r = logical.size();
    std::vector<bool> seen(r, false);
    bool ok = order.size() == r;
    for (int64_t d : order) {
        if (!ok || d < 0 || d >= int64_t(r) || seen[size_t(d)]) {
            ok = false;
            break;
        }
        seen[size_t(d)] = true;
    }
    if (!ok)
        throw UsageError("layout order (" +
                         [&] {
                             std::string s;
                             for (size_t i = 0; i < order.size(); ++i)
                                 s += (i ? "," : "") + std::to_string(order[i]);
                             return s;
                         }() +
                         ") is not a permutation of 0.." + std::to_string(int64_t(r) - 1) +
                         "; expected each dim of the shape exactly once");
    std::vector<int64_t> st(r, 1);
    int64_t acc = 1;
    for (size_t k = r; k-- > 0;) {
        st[size_t(order[k])] = acc;
        acc *= logical[size_t(order[k])];
    }
    return make_layout(logical, st);
}

namespace {

struct Token {
    char letter;    // upper case
    bool upper;     // as written
    int64_t block;  // 0: whole dim or outer part
};

std::string canonical_axes(const std::string& letters) {
    auto subset = [&](const std::string& family) {
        return std::all_of(letters.begin(), letters.end(),
                           [&](char c) { return family.find(c) != std::string::npos; });
    };
    for (const char* family : {"NCDHW", "GOIDHW", "ABCDEF"}) {
        if (!subset(family)) continue;
        std::string axes;
        for (const char* p = family; *p; ++p)
            if (letters.find(*p) != std::string::npos) axes += *p;
        return axes;
    }
    return "";
}

}  // namespace

Layout layout_from_name(const std::string& name, const Shape& logical) {
    auto bad = [&](const std::string& why) {
        return UsageError("layout '" + name + "': " + why +
                          "; expected a memory order over the logical axes such as NCHW, NHWC, "
                          "CHWN, NDHWC, OHWI, ba, or a blocked tag such as nChw16c or NCHW8h8w");
    };
    std::vector<Token> toks;
    int64_t num = 0;
    bool any_block = false;
    for (char ch : name) {
        unsigned char u = static_cast<unsigned char>(ch);
        if (std::isdigit(u)) {
            if (num > 1000000) throw bad("block size too large");
            num = num * 10 + (ch - '0');
        } else if (std::isalpha(u)) {
            if (num > 0 && std::isupper(u))
                throw bad("a block size must precede a lowercase letter");
            toks.push_back({char(std::toupper(u)), bool(std::isupper(u)), num});
            any_block = any_block || num > 0;
            num = 0;
        } else {
            throw bad(std::string("unexpected character '") + ch + "'");
        }
    }
    if (num > 0) throw bad("trailing number without a dim letter");
    if (toks.empty()) throw bad("empty name");
    std::string letters;
    for (const auto& t : toks)
        if (letters.find(t.letter) == std::string::npos) letters += t.letter;
    std::string axes = canonical_axes(letters);
    if (axes.empty()) throw bad("unknown or mixed axis letters");
    if (axes.size() != logical.size())
        throw bad("names " + std::to_string(axes.size()) + " axes but the shape " +
                  ll::to_string(logical) + " has rank " + std::to_string(logical.size()));

    // Size of every token: blocks as written, the outer part what remains.
    std::vector<int64_t> tsize(toks.size(), 0);
    for (size_t a = 0; a < axes.size(); ++a) {
        int64_t blocks = 1;
        int outer = 0;
        bool outer_upper = false;
        for (const auto& t : toks) {
            if (t.letter != axes[a]) continue;
            if (t.block > 0) {
                blocks *= t.block;
            } else {
                ++outer;
                outer_upper = t.upper;
            }
        }
        if (blocks > 1 && !outer_upper)
            throw bad(std::string("blocked axis ") + axes[a] + " must be written in upper case");
        if (outer != 1)
            throw bad(std::string("axis ") + axes[a] +
                      " must appear exactly once without a block size");
        if (logical[a] % blocks != 0)
            throw bad(std::string("block ") + std::to_string(blocks) + " does not divide " +
                      axes[a] + " = " + std::to_string(logical[a]));
        if (!any_block) continue;
        for (size_t k = 0; k < toks.size(); ++k)
            if (toks[k].letter == axes[a])
                tsize[k] = toks[k].block > 0 ? toks[k].block : logical[a] / blocks;
    }
    if (!any_block)
        for (size_t k = 0; k < toks.size(); ++k) tsize[k] = logical[axes.find(toks[k].letter)];

    std::vector<int64_t> tstride(toks.size(), 1);
    int64_t acc = 1;
    for (size_t k = toks.size(); k-- > 0;) {
        tstride[k] = acc;
        acc *= tsize[k];
    }
    Layout l;
    for (size_t a = 0; a < axes.size(); ++a) {
        Mode m;
        for (size_t k = 0; k < toks.size(); ++k)  // the outer (unblocked) token first
            if (toks[k].letter == axes[a] && toks[k].block == 0)
                m.subs.push_back({tsize[k], tstride[k]});
        for (size_t k = 0; k < toks.size(); ++k)
            if (toks[k].letter == axes[a] && toks[k].block > 0)
                m.subs.push_back({tsize[k], tstride[k]});
        l.modes.push_back(m);
    }
    return l;
}

Layout layout_from_spec(const std::string& spec, const Shape& logical) {
    bool order = !spec.empty() && std::all_of(spec.begin(), spec.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) || c == ',' || c == ' ';
    });
    if (order) return layout_from_order(logical, parse_int_list(spec, "layout"));
    return layout_from_name(spec, logical);
}

std::vector<SubMode> flatten(const Layout& l) {
    std::vector<SubMode> out;
    for (const auto& m : l.modes) out.insert(out.end(), m.subs.begin(), m.subs.end());
    return out;
}

std::vector<SubMode> coalesce(std::vector<SubMode> subs) {
    std::vector<SubMode> out;
    for (const auto& s : subs) {
        if (s.size == 1) continue;
        if (!out.empty() && out.back().stride == s.size * s.stride) {
            out.back() = {out.back().size * s.size, s.stride};
        } else {
            out.push_back(s);
        }
    }
    if (out.empty()) out.push_back({1, 0});
    return out;
}

Mode coalesce(const Mode& m) {
    Mode r{coalesce(m.subs)};
    // A size-1 mode keeps its stride: it is printed and used by unsqueeze.
    if (r.size() == 1) r.subs = {{1, m.subs.back().stride}};
    return r;
}

bool same_map(const Layout& a, const Layout& b) {
    if (a.shape() != b.shape() || a.offset != b.offset) return false;
    for (size_t i = 0; i < a.modes.size(); ++i) {
        auto x = coalesce(a.modes[i].subs), y = coalesce(b.modes[i].subs);
        if (a.modes[i].size() == 1) continue;
        if (!(x == y)) return false;
    }
    return true;
}

bool is_contiguous(const Layout& l) {
    int64_t expected = 1;
    auto subs = flatten(l);
    for (size_t k = subs.size(); k-- > 0;) {
        if (subs[k].size == 1) continue;
        if (subs[k].stride != expected) return false;
        expected *= subs[k].size;
    }
    return true;
}

int64_t distinct_offsets(const Layout& l) {
    int64_t n = 1;
    for (const auto& s : flatten(l))
        if (s.stride != 0) n *= s.size;
    return n;
}

namespace {

void print_tuple(std::ostream& os, const Layout& l, bool strides) {
    os << "(";
    for (size_t i = 0; i < l.modes.size(); ++i) {
        if (i) os << ",";
        const auto& m = l.modes[i];
        if (m.flat()) {
            os << (strides ? m.subs[0].stride : m.subs[0].size);
            continue;
        }
        os << "(";
        for (size_t k = 0; k < m.subs.size(); ++k)
            os << (k ? "," : "") << (strides ? m.subs[k].stride : m.subs[k].size);
        os << ")";
    }
    os << ")";
}

}  // namespace

std::string to_string(const Layout& l) {
    std::ostringstream os;
    print_tuple(os, l, false);
    os << ":";
    print_tuple(os, l, true);
    if (l.offset != 0) os << (l.offset > 0 ? "+" : "") << l.offset;
    return os.str();
}

std::string grid_string(const Layout& l, int64_t max_cells) {
    int64_t n = l.size();
    if (n > max_cells) return "";
    Shape s = l.shape();
    std::ostringstream os;
    if (s.empty()) {
        os << l(Coord{}) << "\n";
        return os.str();
    }
    int64_t cols = s.back();
    int64_t rows = s.size() >= 2 ? s[s.size() - 2] : 1;
    size_t lead = s.size() >= 2 ? s.size() - 2 : 0;
    Shape lead_shape(s.begin(), s.begin() + long(lead));
    int64_t blocks = numel(lead_shape);
    int width = 1;
    for (int64_t i = 0; i < n; ++i)
        width = std::max(width, int(std::to_string(l(unravel(i, s))).size()));
    for (int64_t b = 0; b < blocks; ++b) {
        Coord c = unravel(b, lead_shape);
        if (lead > 0) {
            os << "[";
            for (size_t k = 0; k < lead; ++k) os << c[k] << ",";
            os << ":,:]\n";
        }
        c.resize(s.size(), 0);
        for (int64_t r = 0; r < rows; ++r) {
            if (s.size() >= 2) c[lead] = r;
            for (int64_t q = 0; q < cols; ++q) {
                c.back() = q;
                std::string v = std::to_string(l(c));
                os << (q ? " " : "  ") << std::string(size_t(width) - v.size(), ' ') << v;
            }
            os << "\n";
        }
    }
    return os.str();
}

}  // namespace ll::view
