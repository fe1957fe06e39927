#include "core/gpu/tensor_core.hpp"

#include <random>
#include <set>

#include "core/error.hpp"

namespace ll::gpu {

namespace {

constexpr int64_t kTile = 4, kFractal = 16, kRowBytes = 32, kElemBytes = 2;  // fp16

int64_t ceil_div(int64_t a, int64_t b) {
    return (a + b - 1) / b;
}

}  // namespace

void check(const TensorCoreParams& p) {
    for (auto [key, v] : {std::pair<const char*, int64_t>{"m", p.m}, {"k", p.k}, {"n", p.n}})
        if (v < 1 || v > 4096)
            throw UsageError(key, std::to_string(v) + " is out of range; expected 1..4096");
}

TensorCoreRun tensor_core_run(const TensorCoreParams& p) {
    check(p);
    TensorCoreRun r;
    std::mt19937 rng(p.seed);
    auto draw = [&](int span) { return double(int(rng() % uint32_t(2 * span + 1)) - span); };
    r.a.resize(16), r.b.resize(16), r.c.resize(16);
    for (double& v : r.a) v = draw(3);
    for (double& v : r.b) v = draw(3);
    for (double& v : r.c) v = draw(8);
    // The Tensor Core: fp16 products summed in fp32 onto C, one 4x4x4 op.
    r.d.resize(16);
    r.direct.resize(16);
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
            float acc = float(r.c[size_t(i * 4 + j)]);
            double ref = r.c[size_t(i * 4 + j)];
            for (int k = 0; k < 4; ++k) {
                acc += float(r.a[size_t(i * 4 + k)]) * float(r.b[size_t(k * 4 + j)]);
                ref += r.a[size_t(i * 4 + k)] * r.b[size_t(k * 4 + j)];
            }
            r.d[size_t(i * 4 + j)] = double(acc);
            r.direct[size_t(i * 4 + j)] = ref;
        }
    r.equal = r.d == r.direct;
    const double macs = double(p.m) * double(p.k) * double(p.n);
    r.tile_ops = ceil_div(p.m, kTile) * ceil_div(p.k, kTile) * ceil_div(p.n, kTile);
    r.cube_steps = ceil_div(p.m, kFractal) * ceil_div(p.k, kFractal) * ceil_div(p.n, kFractal);
    r.tile_utilisation = macs / double(r.tile_ops * r.tile_macs_each);
    r.cube_utilisation = macs / double(r.cube_steps * r.cube_macs_each);
    r.tensor_cores_per_cube = r.cube_macs_each / r.tile_macs_each;
    return r;
}

std::vector<std::vector<int>> tile_map() {
    std::vector<std::vector<int>> m(kFractal, std::vector<int>(kFractal));
    for (int64_t r = 0; r < kFractal; ++r)
        for (int64_t c = 0; c < kFractal; ++c)
            m[size_t(r)][size_t(c)] = int((r / kTile) * (kFractal / kTile) + c / kTile);
    return m;
}

int rows_per_tile() {
    // Byte address of (r, c) in a row-major fractal, divided by the row size.
    std::set<int64_t> rows;
    for (int64_t r = 0; r < kTile; ++r)
        for (int64_t c = 0; c < kTile; ++c)
            rows.insert((r * kFractal + c) * kElemBytes / kRowBytes);
    return int(rows.size());
}

nlohmann::json tensor_core_to_json(const TensorCoreRun& r, const TensorCoreParams& p) {
    return {
        {"operation", "D = A x B + C, 4x4 fp16 x 4x4 fp16 + 4x4 fp32"},
        {"seed", p.seed},
        {"A", r.a},
        {"B", r.b},
        {"C", r.c},
        {"D", r.d},
        {"direct", r.direct},
        {"equal", r.equal},
        {"gemm", {{"m", p.m}, {"k", p.k}, {"n", p.n}}},
        {"tensor_core",
         {{"ops", r.tile_ops},
          {"macs_per_op", r.tile_macs_each},
          {"utilisation", r.tile_utilisation}}},
        {"cube",
         {{"steps", r.cube_steps},
          {"macs_per_step", r.cube_macs_each},
          {"utilisation", r.cube_utilisation}}},
        {"tensor_cores_per_cube", r.tensor_cores_per_cube},
        {"fractal_tile_map", tile_map()},
        {"rows_per_tile", rows_per_tile()},
    };
}

}  // namespace ll::gpu
