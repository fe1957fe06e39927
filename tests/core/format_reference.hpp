// Test-only references for the format engine, written independently of it:
//  - closed-form destination -> source formulas for each target format,
//    straight from the documents' pad/reshape/transpose descriptions;
//  - a literal step-by-step executor that walks coordinates (slow, obvious).
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "core/format/format.hpp"
#include "core/shape.hpp"

namespace ll::ref {

inline int64_t side(DType t) {
    return 32 * 8 / bits(t);
}

struct Expected {
    Shape dst;
    // destination coordinate -> source coordinate (plain axis order), or
    // empty when the element is padding.
    std::function<Coord(const Coord&)> src_of;
};

// Forward formulas, plain format `p` with logical shape `s` -> target `t`.
// r0/c0 are the fractal rows/cols (matrix formats), c0 and n0 for conv formats.
inline Expected forward(Format p, Format t, const Shape& s, int64_t rows, int64_t cols, int64_t c0,
                        int64_t n0 = 16) {
    Expected e;
    auto cd = [](int64_t a, int64_t b) { return (a + b - 1) / b; };
    if (t == Format::FRACTAL_NZ || t == Format::FRACTAL_ZZ || t == Format::FRACTAL_ZN) {
        const size_t b = s.size() - 2;
        const int64_t R = s[b], C = s[b + 1], R1 = cd(R, rows), C1 = cd(C, cols);
        e.dst.assign(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(b));
        if (t == Format::FRACTAL_NZ)
            e.dst.insert(e.dst.end(), {C1, R1, rows, cols});
        else if (t == Format::FRACTAL_ZZ)
            e.dst.insert(e.dst.end(), {R1, C1, rows, cols});
        else
            e.dst.insert(e.dst.end(), {R1, C1, cols, rows});
        e.src_of = [=](const Coord& d) -> Coord {
            Coord c(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(b));
            int64_t r, q;
            if (t == Format::FRACTAL_NZ) {
                r = d[b + 1] * rows + d[b + 2];
                q = d[b] * cols + d[b + 3];
            } else if (t == Format::FRACTAL_ZZ) {
                r = d[b] * rows + d[b + 2];
                q = d[b + 1] * cols + d[b + 3];
            } else {
                r = d[b] * rows + d[b + 3];
                q = d[b + 1] * cols + d[b + 2];
            }
            if (r >= R || q >= C) return {};
            c.push_back(r);
            c.push_back(q);
            return c;
        };
        return e;
    }
    // Convolution formats: name the plain axes.
    const std::string L = axis_letters(p);
    auto ax = [&](char ch) { return s[L.find(ch)]; };
    const bool three = L.size() == 5;
    const int64_t N = ax('N'), C = ax('C'), H = ax('H'), W = ax('W'), D = three ? ax('D') : 1;
    const int64_t Cb = cd(C, c0), Nb = cd(N, n0);
    auto make = [=](int64_t n, int64_t c, int64_t d, int64_t h, int64_t w) -> Coord {
        if (n >= N || c >= C) return {};
        Coord r;
        for (char ch : L) {
            switch (ch) {
                case 'N':
                    r.push_back(n);
                    break;
                case 'C':
                    r.push_back(c);
                    break;
                case 'D':
                    r.push_back(d);
                    break;
                case 'H':
                    r.push_back(h);
                    break;
                case 'W':
                    r.push_back(w);
                    break;
            }
        }
        return r;
    };
    if (t == Format::NC1HWC0) {
        e.dst = {N, Cb, H, W, c0};
        e.src_of = [=](const Coord& x) { return make(x[0], x[1] * c0 + x[4], 0, x[2], x[3]); };
    } else if (t == Format::NDC1HWC0) {
        e.dst = {N, D, Cb, H, W, c0};
        e.src_of = [=](const Coord& x) { return make(x[0], x[2] * c0 + x[5], x[1], x[3], x[4]); };
    } else if (t == Format::FRACTAL_Z) {
        e.dst = {Cb * H * W, Nb, n0, c0};
        e.src_of = [=](const Coord& x) {
            const int64_t c1 = x[0] / (H * W), h = x[0] / W % H, w = x[0] % W;
            return make(x[1] * n0 + x[2], c1 * c0 + x[3], 0, h, w);
        };
    } else if (t == Format::FRACTAL_Z_3D) {
        e.dst = {D * Cb * H * W, Nb, n0, c0};
        e.src_of = [=](const Coord& x) {
            const int64_t d = x[0] / (Cb * H * W), c1 = x[0] / (H * W) % Cb;
            const int64_t h = x[0] / W % H, w = x[0] % W;
            return make(x[1] * n0 + x[2], c1 * c0 + x[3], d, h, w);
        };
    }
    return e;
}

// The expected ElementMap of a forward conversion, by coordinates.
inline std::vector<int64_t> expected_map(const Expected& e, const Shape& src) {
    const int64_t n = numel(e.dst);
    std::vector<int64_t> m(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
        Coord c = e.src_of(unravel(i, e.dst));
        m[static_cast<size_t>(i)] = c.empty() ? -1 : ravel(c, src);
    }
    return m;
}

// Runs the pipeline's steps literally, carrying for every element the
// source index it came from (-1: padding). Returns the tensor after step k
// (k == steps.size(): the destination), row-major.
inline std::vector<int64_t> literal_stage(const Pipeline& p, size_t k) {
    std::vector<int64_t> cur(static_cast<size_t>(numel(p.src_shape)));
    for (size_t i = 0; i < cur.size(); ++i) cur[i] = static_cast<int64_t>(i);
    for (size_t si = 0; si < k; ++si) {
        const Step& st = p.steps[si];
        std::vector<int64_t> next(static_cast<size_t>(numel(st.after)), -1);
        for (int64_t i = 0; i < numel(st.after); ++i) {
            Coord c = unravel(i, st.after);
            if (st.kind == StepKind::reshape) {
                next[static_cast<size_t>(i)] = cur[static_cast<size_t>(i)];
            } else if (st.kind == StepKind::transpose) {
                Coord b(c.size());
                for (size_t a = 0; a < c.size(); ++a) b[static_cast<size_t>(st.perm[a])] = c[a];
                next[static_cast<size_t>(i)] = cur[static_cast<size_t>(ravel(b, st.before))];
            } else if (st.kind == StepKind::pad) {
                bool in = true;
                for (size_t a = 0; a < c.size(); ++a) in = in && c[a] < st.before[a];
                if (in)
                    next[static_cast<size_t>(i)] = cur[static_cast<size_t>(ravel(c, st.before))];
            } else {  // crop
                next[static_cast<size_t>(i)] = cur[static_cast<size_t>(ravel(c, st.before))];
            }
        }
        cur = next;
    }
    return cur;
}

// A random shape with dims in [1, hi], size-1 dims now and then.
inline Shape random_shape(std::mt19937& rng, size_t rank, int64_t hi) {
    Shape s;
    std::uniform_int_distribution<int64_t> d(1, hi);
    std::uniform_int_distribution<int> one(0, 6);
    for (size_t i = 0; i < rank; ++i) s.push_back(one(rng) == 0 ? 1 : d(rng));
    return s;
}

}  // namespace ll::ref
