// Naive reference for the view tests: a dense row-major tensor whose
// elements are the storage offsets they came from, and every view op written
// as an explicit copy. A view is right when, for every index, resolve() finds
// the same storage offset that the reference copied there.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "core/view/view.hpp"

namespace ll::view::ref {

struct Dense {
    Shape shape;
    std::vector<int64_t> data;  // storage-0 offset held by each element, row-major
    int64_t at(const Coord& c) const { return data[size_t(ravel(c, shape))]; }
};

inline Dense from_view(const View& v) {
    Dense d{v.shape(), {}};
    for (int64_t i = 0; i < numel(d.shape); ++i) d.data.push_back(resolve(v, unravel(i, d.shape)));
    return d;
}

template <class F>
Dense build(const Shape& shape, F&& f) {
    Dense d{shape, {}};
    for (int64_t i = 0; i < numel(shape); ++i) d.data.push_back(f(unravel(i, shape)));
    return d;
}

// The op applied by copying, as a framework without views would do it.
inline Dense apply(const Dense& in, const Op& op) {
    const Shape& s = in.shape;
    size_t r = s.size();
    switch (op.kind) {
        case OpKind::permute: {
            Shape o;
            for (int64_t p : op.ints) o.push_back(s[size_t(p)]);
            return build(o, [&](const Coord& c) {
                Coord i(r);
                for (size_t k = 0; k < r; ++k) i[size_t(op.ints[k])] = c[k];
                return in.at(i);
            });
        }
        case OpKind::transpose: {
            Shape o = s;
            std::swap(o[size_t(op.ints[0])], o[size_t(op.ints[1])]);
            return build(o, [&](const Coord& c) {
                Coord i = c;
                std::swap(i[size_t(op.ints[0])], i[size_t(op.ints[1])]);
                return in.at(i);
            });
        }
        case OpKind::slice: {
            Shape o = s, start(r, 0), step(r, 1);
            for (size_t k = 0; k < op.ranges.size(); ++k) {
                const Range& g = op.ranges[k];
                start[k] = g.has_start ? g.start : 0;
                int64_t stop = g.has_stop ? g.stop : s[k];
                step[k] = g.step;
                o[k] = (stop - start[k] + g.step - 1) / g.step;
            }
            return build(o, [&](const Coord& c) {
                Coord i(r);
                for (size_t k = 0; k < r; ++k) i[k] = start[k] + c[k] * step[k];
                return in.at(i);
            });
        }
        case OpKind::select: {
            Shape o = s;
            o.erase(o.begin() + op.ints[0]);
            return build(o, [&](const Coord& c) {
                Coord i = c;
                i.insert(i.begin() + op.ints[0], op.ints[1]);
                return in.at(i);
            });
        }
        case OpKind::reshape: {
            Shape o = op.ints;
            int64_t known = 1;
            for (int64_t d : o)
                if (d > 0) known *= d;
            for (auto& d : o)
                if (d == -1) d = numel(s) / known;
            return Dense{o, in.data};
        }
        case OpKind::expand:
        case OpKind::repeat: {
            Shape o = op.ints;
            size_t lead = o.size() - r;
            bool rep = op.kind == OpKind::repeat;
            for (size_t k = 0; k < o.size(); ++k) {
                int64_t old = k < lead ? 1 : s[k - lead];
                if (rep) o[k] *= old;
                if (!rep && o[k] == -1) o[k] = old;
            }
            return build(o, [&](const Coord& c) {
                Coord i(r);
                for (size_t k = 0; k < r; ++k) i[k] = c[k + lead] % s[k];
                return in.at(i);
            });
        }
        case OpKind::squeeze: {
            Shape o;
            for (size_t k = 0; k < r; ++k)
                if (s[k] != 1 || (!op.ints.empty() && int64_t(k) != op.ints[0])) o.push_back(s[k]);
            return Dense{o, in.data};
        }
        case OpKind::unsqueeze: {
            Shape o = s;
            o.insert(o.begin() + op.ints[0], 1);
            return Dense{o, in.data};
        }
        case OpKind::contiguous:
            return in;
        case OpKind::gather: {
            size_t d = size_t(op.ints[0]);
            Shape o = s;
            o[d] = int64_t(op.ints.size()) - 1;
            return build(o, [&](const Coord& c) {
                Coord i = c;
                i[d] = op.ints[size_t(c[d]) + 1];
                return in.at(i);
            });
        }
        case OpKind::im2col: {
            // Written out directly from the definition, not via im2col_params.
            const auto& a = op.ints;
            int64_t kh = a[0], kw = a[1], sh = a.size() > 2 ? a[2] : 1,
                    sw = a.size() > 2 ? a[3] : 1, dh = a.size() > 4 ? a[4] : 1,
                    dw = a.size() > 4 ? a[5] : 1;
            int64_t H = s[r - 2], W = s[r - 1];
            int64_t oh = (H - (kh - 1) * dh - 1) / sh + 1, ow = (W - (kw - 1) * dw - 1) / sw + 1;
            Shape lead(s.begin(), s.end() - 2);
            int64_t ch = numel(lead);
            return build({oh * ow, ch * kh * kw}, [&](const Coord& c) {
                int64_t y = c[0] / ow, x = c[0] % ow;
                int64_t k = c[1] % (kh * kw), ci = c[1] / (kh * kw);
                Coord i = lead.empty() ? Coord{} : unravel(ci, lead);
                i.push_back(y * sh + (k / kw) * dh);
                i.push_back(x * sw + (k % kw) * dw);
                return in.at(i);
            });
        }
    }
    return in;
}

// Every index of v reads what the reference holds there.
inline ::testing::AssertionResult same_elements(const View& v, const Dense& d) {
    if (v.shape() != d.shape)
        return ::testing::AssertionFailure() << "shape " << ll::to_string(v.shape())
                                             << " vs reference " << ll::to_string(d.shape);
    for (int64_t i = 0; i < numel(d.shape); ++i) {
        Coord c = unravel(i, d.shape);
        if (resolve(v, c) != d.data[size_t(i)])
            return ::testing::AssertionFailure()
                   << "index " << ll::to_string(c) << " reads " << resolve(v, c) << ", reference "
                   << d.data[size_t(i)] << " (layout " << to_string(v.layout) << ")";
    }
    return ::testing::AssertionSuccess();
}

// ---- random op chains ---------------------------------------------------------

inline std::vector<int64_t> factor(int64_t n) {
    std::vector<int64_t> f;
    for (int64_t p = 2; p * p <= n; ++p)
        while (n % p == 0) f.push_back(p), n /= p;
    if (n > 1) f.push_back(n);
    return f;
}

inline std::string join(const std::vector<int64_t>& v) {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
    return s;
}

// A random op (as text) that is valid for shape s; keeps the element count small.
inline std::string random_op(std::mt19937& g, const Shape& s) {
    auto pick = [&](int64_t lo, int64_t hi) {
        return std::uniform_int_distribution<int64_t>(lo, hi)(g);
    };
    size_t r = s.size();
    int64_t n = numel(s);
    for (;;) {
        switch (pick(0, 11)) {
            case 0: {
                if (r == 0) break;
                std::vector<int64_t> p(r);
                for (size_t i = 0; i < r; ++i) p[i] = int64_t(i);
                std::shuffle(p.begin(), p.end(), g);
                return "permute:" + join(p);
            }
            case 1:
                if (r < 2) break;
                return "transpose:" + std::to_string(pick(0, int64_t(r) - 1)) + "," +
                       std::to_string(pick(0, int64_t(r) - 1));
            case 2: {
                if (r == 0) break;
                std::string t = "slice:";
                for (size_t k = 0; k < r; ++k) {
                    int64_t a = pick(0, s[k] - 1), b = pick(a + 1, s[k]), st = pick(1, 3);
                    t += (k ? "," : "") + std::to_string(a) + ":" + std::to_string(b) +
                         (st > 1 ? ":" + std::to_string(st) : "");
                }
                return t;
            }
            case 3: {
                auto f = factor(n);
                std::shuffle(f.begin(), f.end(), g);
                size_t dims = size_t(pick(1, 4));
                std::vector<int64_t> o(dims, 1);
                for (int64_t p : f) o[size_t(pick(0, int64_t(dims) - 1))] *= p;
                return "reshape:" + join(o);
            }
            case 4: {
                if (n > 512) break;
                std::vector<int64_t> o = s;
                bool any = false;
                for (auto& d : o)
                    if (d == 1 && pick(0, 1)) d = pick(2, 3), any = true;
                if (!any || pick(0, 1)) o.insert(o.begin(), pick(1, 3));
                return "expand:" + join(o);
            }
            case 5: {
                for (size_t k = 0; k < r; ++k)
                    if (s[k] == 1) return "squeeze:" + std::to_string(k);
                break;
            }
            case 6:
                if (r >= 5) break;
                return "unsqueeze:" + std::to_string(pick(0, int64_t(r)));
            case 7: {
                if (n > 256 || r == 0) break;
                std::vector<int64_t> o(r, 1);
                o[size_t(pick(0, int64_t(r) - 1))] = pick(2, 3);
                return "repeat:" + join(o);
            }
            case 8:
                return "contiguous";
            case 9: {
                if (r == 0) break;
                int64_t d = pick(0, int64_t(r) - 1);
                return "select:" + std::to_string(d) + "," +
                       std::to_string(pick(0, s[size_t(d)] - 1));
            }
            case 10: {  // a random index list, repeats and any order
                if (r == 0 || n > 512) break;
                int64_t d = pick(0, int64_t(r) - 1);
                std::string t = "gather:" + std::to_string(d) + ":";
                for (int64_t k = pick(1, 5); k > 0; --k)
                    t += std::to_string(pick(0, s[size_t(d)] - 1)) + (k > 1 ? "," : "");
                return t;
            }
            case 11: {
                if (r < 2 || n > 256) break;
                int64_t H = s[r - 2], W = s[r - 1];
                int64_t kh = pick(1, std::min<int64_t>(H, 3)),
                        kw = pick(1, std::min<int64_t>(W, 3));
                std::string t = "im2col:" + std::to_string(kh) + "," + std::to_string(kw);
                if (pick(0, 1)) {
                    int64_t dh = (kh > 1 && (H - 1) / (kh - 1) >= 2) ? pick(1, 2) : 1;
                    int64_t dw = (kw > 1 && (W - 1) / (kw - 1) >= 2) ? pick(1, 2) : 1;
                    t += "," + std::to_string(pick(1, 2)) + "," + std::to_string(pick(1, 2)) + "," +
                         std::to_string(dh) + "," + std::to_string(dw);
                }
                return t;
            }
        }
    }
}

// A random starting view: row-major, a random memory order, or a blocked tag.
inline View random_view(std::mt19937& g) {
    auto pick = [&](int64_t lo, int64_t hi) {
        return std::uniform_int_distribution<int64_t>(lo, hi)(g);
    };
    switch (pick(0, 2)) {
        case 0: {
            Shape s;
            for (int64_t k = pick(1, 4); k > 0; --k) s.push_back(pick(1, 5));
            return make_view(row_major(s));
        }
        case 1: {
            Shape s;
            for (int64_t k = pick(2, 4); k > 0; --k) s.push_back(pick(1, 5));
            std::vector<int64_t> p(s.size());
            for (size_t i = 0; i < p.size(); ++i) p[i] = int64_t(i);
            std::shuffle(p.begin(), p.end(), g);
            return make_view(layout_from_order(s, p));
        }
        default: {
            const char* tags[] = {"nChw4c", "NCHW2h2w", "NHWC", "nChw2c"};
            Shape s{pick(1, 2), 4 * pick(1, 2), 2 * pick(1, 2), 2 * pick(1, 3)};
            return make_view(layout_from_name(tags[pick(0, 3)], s));
        }
    }
}

}  // namespace ll::view::ref
