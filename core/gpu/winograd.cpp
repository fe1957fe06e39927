#include "core/gpu/winograd.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include "core/error.hpp"

namespace ll::gpu {

namespace {

constexpr int kM = 2, kR = 3, kT = kM + kR - 1;  // output tile, filter, input tile

Mat from_rows(int r, int c, std::initializer_list<double> vals) {
    Mat m(r, c);
    std::copy(vals.begin(), vals.end(), m.v.begin());
    return m;
}

void in_range(int64_t v, int64_t lo, int64_t hi, const char* key, const char* what) {
    if (v < lo || v > hi)
        throw UsageError(key, std::to_string(v) + " is out of range; expected " + what + " in " +
                                  std::to_string(lo) + ".." + std::to_string(hi));
}

// mt19937's raw output is fixed by the standard (the distributions are not), so
// the same seed gives the same tensors everywhere.
double draw(std::mt19937& rng, Values v) {
    const uint32_t x = rng();
    if (v == Values::integers) return double(int(x % 9u) - 4);
    return double(x) / 4294967296.0 * 2.0 - 1.0;
}

}  // namespace

Mat matmul(const Mat& a, const Mat& b) {
    Mat c(a.rows, b.cols);
    for (int i = 0; i < a.rows; ++i)
        for (int j = 0; j < b.cols; ++j) {
            double s = 0;
            for (int k = 0; k < a.cols; ++k) s += a.at(i, k) * b.at(k, j);
            c.at(i, j) = s;
        }
    return c;
}

Mat transpose(const Mat& a) {
    Mat t(a.cols, a.rows);
    for (int i = 0; i < a.rows; ++i)
        for (int j = 0; j < a.cols; ++j) t.at(j, i) = a.at(i, j);
    return t;
}

Mat hadamard(const Mat& a, const Mat& b) {
    Mat c(a.rows, a.cols);
    for (size_t i = 0; i < c.v.size(); ++i) c.v[i] = a.v[i] * b.v[i];
    return c;
}

OpCount constant_product_cost(const Mat& a, int b_cols) {
    OpCount c;
    for (int i = 0; i < a.rows; ++i) {
        int64_t nz = 0, mul = 0;
        for (int k = 0; k < a.cols; ++k) {
            const double x = a.at(i, k);
            if (x == 0) continue;
            ++nz;
            mul += std::fabs(x) != 1.0;
        }
        c.mults += mul * b_cols;
        c.adds += std::max<int64_t>(nz - 1, 0) * b_cols;
    }
    return c;
}

OpCount constant_product_cost_right(int a_rows, const Mat& b) {
    return constant_product_cost(transpose(b), a_rows);
}

Mat winograd_BT() {
    return from_rows(4, 4, {1, 0, -1, 0, 0, 1, 1, 0, 0, -1, 1, 0, 0, 1, 0, -1});
}
Mat winograd_G() {
    return from_rows(4, 3, {1, 0, 0, .5, .5, .5, .5, -.5, .5, 0, 0, 1});
}
Mat winograd_AT() {
    return from_rows(2, 4, {1, 1, 1, 0, 0, 1, -1, -1});
}

void check(const WinogradParams& p) {
    in_range(p.height, 3, 1024, "height", "input rows H");
    in_range(p.width, 3, 1024, "width", "input columns W");
    in_range(p.channels, 1, 64, "channels", "input channels C");
    in_range(p.filters, 1, 64, "filters", "filters K");
    if (p.height * p.width * p.channels * p.filters > (int64_t(1) << 22))
        throw UsageError("height", "H x W x C x K = " +
                                       std::to_string(p.height * p.width * p.channels * p.filters) +
                                       " is too large; expected at most 4194304");
    const int64_t th = (p.height - 2 + kM - 1) / kM, tw = (p.width - 2 + kM - 1) / kM;
    in_range(p.tile_row, 0, th - 1, "tile_row", "the tile row");
    in_range(p.tile_col, 0, tw - 1, "tile_col", "the tile column");
}

TileWindow tile_input_window(const WinogradParams& p) {
    return {p.tile_row * kM, p.tile_col * kM, kT};
}

WinogradCounts winograd_counts(const WinogradParams& p) {
    check(p);
    WinogradCounts c;
    c.out_h = p.height - kR + 1;
    c.out_w = p.width - kR + 1;
    c.tiles_h = (c.out_h + kM - 1) / kM;
    c.tiles_w = (c.out_w + kM - 1) / kM;
    c.tile_mults = kT * kT;
    c.direct_tile_mults = kM * kM * kR * kR;
    const int64_t ck = p.channels * p.filters;
    c.winograd_mults = c.tiles_h * c.tiles_w * c.tile_mults * ck;
    c.direct_mults = c.out_h * c.out_w * kR * kR * ck;
    c.gemm_mults = c.direct_mults;
    c.im2col_rows = c.out_h * c.out_w;
    c.im2col_cols = kR * kR * p.channels;
    c.im2col_expansion =
        double(c.im2col_rows * c.im2col_cols) / double(p.height * p.width * p.channels);
    auto add = [](OpCount a, OpCount b) { return OpCount{a.mults + b.mults, a.adds + b.adds}; };
    const Mat BT = winograd_BT(), G = winograd_G(), AT = winograd_AT();
    // B^T d: (4x4)(4x4); (B^T d) B: right by B = (B^T)^T.
    c.data_transform =
        add(constant_product_cost(BT, kT), constant_product_cost_right(kT, transpose(BT)));
    c.output_transform =
        add(constant_product_cost(AT, kT), constant_product_cost_right(kM, transpose(AT)));
    c.filter_transform =
        add(constant_product_cost(G, kR), constant_product_cost_right(kT, transpose(G)));
    return c;
}

WinogradRun winograd_run(const WinogradParams& p) {
    WinogradRun r;
    r.params = p;
    r.counts = winograd_counts(p);
    r.BT = winograd_BT();
    r.G = winograd_G();
    r.AT = winograd_AT();
    const WinogradCounts& c = r.counts;
    const int64_t H = p.height, W = p.width, C = p.channels, K = p.filters;
    std::mt19937 rng(p.seed);
    r.input.resize(size_t(C * H * W));
    r.filter.resize(size_t(K * C * kR * kR));
    for (double& x : r.input) x = draw(rng, p.values);
    for (double& x : r.filter) x = draw(rng, p.values);
    auto in = [&](int64_t ch, int64_t y, int64_t x) {
        return (y < H && x < W) ? r.input[size_t((ch * H + y) * W + x)] : 0.0;  // zero padding
    };
    auto filt = [&](int64_t k, int64_t ch) {
        Mat g(kR, kR);
        for (int i = 0; i < kR; ++i)
            for (int j = 0; j < kR; ++j)
                g.at(i, j) = r.filter[size_t(((k * C + ch) * kR + i) * kR + j)];
        return g;
    };
    const size_t outs = size_t(K * c.out_h * c.out_w);
    r.direct.assign(outs, 0.0);
    r.winograd.assign(outs, 0.0);
    for (int64_t k = 0; k < K; ++k)
        for (int64_t y = 0; y < c.out_h; ++y)
            for (int64_t x = 0; x < c.out_w; ++x) {
                double s = 0;
                for (int64_t ch = 0; ch < C; ++ch)
                    for (int i = 0; i < kR; ++i)
                        for (int j = 0; j < kR; ++j)
                            s += in(ch, y + i, x + j) *
                                 r.filter[size_t(((k * C + ch) * kR + i) * kR + j)];
                r.direct[size_t((k * c.out_h + y) * c.out_w + x)] = s;
            }
    const Mat B = transpose(r.BT), A = transpose(r.AT), GT = transpose(r.G);
    std::vector<Mat> U(size_t(K * C));  // filter transforms, once per filter
    for (int64_t k = 0; k < K; ++k)
        for (int64_t ch = 0; ch < C; ++ch)
            U[size_t(k * C + ch)] = matmul(matmul(r.G, filt(k, ch)), GT);
    for (int64_t ty = 0; ty < c.tiles_h; ++ty)
        for (int64_t tx = 0; tx < c.tiles_w; ++tx) {
            std::vector<Mat> V(static_cast<size_t>(C));
            for (int64_t ch = 0; ch < C; ++ch) {
                Mat d(kT, kT);
                for (int i = 0; i < kT; ++i)
                    for (int j = 0; j < kT; ++j) d.at(i, j) = in(ch, ty * kM + i, tx * kM + j);
                V[size_t(ch)] = matmul(matmul(r.BT, d), B);
                if (ty == p.tile_row && tx == p.tile_col && ch == 0) r.d = d;
            }
            for (int64_t k = 0; k < K; ++k) {
                Mat M(kT, kT);
                for (int64_t ch = 0; ch < C; ++ch) {
                    const Mat e = hadamard(U[size_t(k * C + ch)], V[size_t(ch)]);
                    for (size_t i = 0; i < M.v.size(); ++i) M.v[i] += e.v[i];
                }
                const Mat Y = matmul(matmul(r.AT, M), A);
                for (int i = 0; i < kM; ++i)
                    for (int j = 0; j < kM; ++j) {
                        const int64_t y = ty * kM + i, x = tx * kM + j;
                        if (y < c.out_h && x < c.out_w)
                            r.winograd[size_t((k * c.out_h + y) * c.out_w + x)] = Y.at(i, j);
                    }
                if (ty == p.tile_row && tx == p.tile_col && k == 0) {
                    r.g = filt(0, 0);
                    r.U = U[0];
                    r.V = V[0];
                    r.M = M;
                    r.Y = Y;
                    r.Y_direct = Mat(kM, kM);
                    for (int i = 0; i < kM; ++i)
                        for (int j = 0; j < kM; ++j) {
                            const int64_t y = ty * kM + i, x = tx * kM + j;
                            double s = 0;  // past the edge: on the zero-padded input
                            for (int64_t ch = 0; ch < C; ++ch)
                                for (int a = 0; a < kR; ++a)
                                    for (int b = 0; b < kR; ++b)
                                        s += in(ch, y + a, x + b) *
                                             r.filter[size_t((ch * kR + a) * kR + b)];
                            r.Y_direct.at(i, j) = s;
                        }
                }
            }
        }
    for (size_t i = 0; i < outs; ++i)
        r.max_abs_diff = std::max(r.max_abs_diff, std::fabs(r.winograd[i] - r.direct[i]));
    return r;
}

nlohmann::json to_json(const Mat& m) {
    nlohmann::json rows = nlohmann::json::array();
    for (int i = 0; i < m.rows; ++i) {
        nlohmann::json row = nlohmann::json::array();
        for (int j = 0; j < m.cols; ++j) row.push_back(m.at(i, j));
        rows.push_back(row);
    }
    return rows;
}

nlohmann::json winograd_to_json(const WinogradRun& r) {
    const WinogradParams& p = r.params;
    const WinogradCounts& c = r.counts;
    auto ops = [](const OpCount& o) {
        return nlohmann::json{{"mults", o.mults}, {"adds", o.adds}};
    };
    return {
        {"algorithm", "F(2x2,3x3)"},
        {"input", {{"height", p.height}, {"width", p.width}, {"channels", p.channels}}},
        {"filters", p.filters},
        {"values", p.values == Values::integers ? "integers" : "reals"},
        {"seed", p.seed},
        {"output", {{"height", c.out_h}, {"width", c.out_w}}},
        {"tiles", {{"rows", c.tiles_h}, {"cols", c.tiles_w}, {"count", c.tiles_h * c.tiles_w}}},
        {"multiplications",
         {{"winograd_per_tile", c.tile_mults},
          {"direct_per_tile", c.direct_tile_mults},
          {"winograd", c.winograd_mults},
          {"direct", c.direct_mults},
          {"im2col_gemm", c.gemm_mults},
          {"ratio", c.ratio()}}},
        {"transform_ops",
         {{"data_per_tile", ops(c.data_transform)},
          {"output_per_tile", ops(c.output_transform)},
          {"filter_per_filter", ops(c.filter_transform)}}},
        {"im2col",
         {{"rows", c.im2col_rows}, {"cols", c.im2col_cols}, {"expansion", c.im2col_expansion}}},
        {"matrices", {{"BT", to_json(r.BT)}, {"G", to_json(r.G)}, {"AT", to_json(r.AT)}}},
        {"tile",
         {{"row", p.tile_row},
          {"col", p.tile_col},
          {"d", to_json(r.d)},
          {"g", to_json(r.g)},
          {"U", to_json(r.U)},
          {"V", to_json(r.V)},
          {"M", to_json(r.M)},
          {"Y", to_json(r.Y)},
          {"Y_direct", to_json(r.Y_direct)}}},
        {"check",
         {{"outputs", int64_t(r.direct.size())},
          {"max_abs_diff", r.max_abs_diff},
          {"equal", r.max_abs_diff <= 1e-9 * double(p.channels * 9)}}},
    };
}

}  // namespace ll::gpu
