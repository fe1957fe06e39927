// `layoutlab tensorcore`: Volta's Tensor Core D = A x B + C on 4x4 tiles
// (document 004) on real numbers, its operation count for a GEMM against the
// Cube's fractal steps, and where a 4x4 operand lies in a 16x16 Cube fractal.
#include <cstdio>
#include <iostream>

#include "app/cli/command.hpp"
#include "core/error.hpp"
#include "core/gpu/tensor_core.hpp"

namespace ll::cli {

Runner setup_tensorcore(CLI::App& sub) {
    auto p = std::make_shared<gpu::TensorCoreParams>();
    auto json = std::make_shared<bool>(false);
    sub.add_option("--m", p->m, "GEMM M to count, 1..4096 (default 16)");
    sub.add_option("--k", p->k, "GEMM K to count, 1..4096 (default 16)");
    sub.add_option("--n", p->n, "GEMM N to count, 1..4096 (default 16)");
    sub.add_option("--seed", p->seed, "seed of the 4x4 example's values (default 1)");
    sub.add_flag("--json", *json, "print JSON instead of text");
    return [p, json]() {
        gpu::TensorCoreRun r;
        try {
            r = gpu::tensor_core_run(*p);
        } catch (const UsageError& e) {
            if (e.key().empty()) throw;
            throw UsageError("--" + e.key() + ": " + e.detail());
        }
        if (*json) {
            std::cout << gpu::tensor_core_to_json(r, *p).dump(2) << "\n";
            return 0;
        }
        auto mat = [](const char* name, const std::vector<double>& v) {
            std::cout << "  " << name << ":\n";
            for (int i = 0; i < 4; ++i) {
                std::cout << "   ";
                for (int j = 0; j < 4; ++j) {
                    char t[16];
                    std::snprintf(t, sizeof t, "%6g", v[size_t(i * 4 + j)]);
                    std::cout << t;
                }
                std::cout << "\n";
            }
        };
        std::cout << "Tensor Core (Volta): D = A x B + C, 4x4 fp16 A and B, fp32 C and D, one "
                     "4x4x4 operation (64 MACs) per clock\n";
        mat("A (fp16)", r.a);
        mat("B (fp16)", r.b);
        mat("C (fp32)", r.c);
        mat("D = A x B + C", r.d);
        std::cout << "check: D " << (r.equal ? "equals" : "DIFFERS FROM")
                  << " the direct product in double\n\n";
        char t[256];
        std::snprintf(t, sizeof t,
                      "GEMM %lld x %lld x %lld: %lld Tensor Core operations (utilisation %.1f%%) "
                      "against %lld Cube steps of 16x16x16 (utilisation %.1f%%); one Cube step = "
                      "%lld Tensor Core operations\n",
                      static_cast<long long>(p->m), static_cast<long long>(p->k),
                      static_cast<long long>(p->n), static_cast<long long>(r.tile_ops),
                      100 * r.tile_utilisation, static_cast<long long>(r.cube_steps),
                      100 * r.cube_utilisation, static_cast<long long>(r.tensor_cores_per_cube));
        std::cout << t;
        std::cout << "\nwhere the 4x4 operands lie in a 16x16 fp16 Cube fractal (tile number of "
                     "each element; one fractal row = 32 bytes):\n";
        const auto map = gpu::tile_map();
        for (const auto& row : map) {
            std::cout << "   ";
            for (int v : row) {
                std::snprintf(t, sizeof t, "%3d", v);
                std::cout << t;
            }
            std::cout << "\n";
        }
        std::cout << "a 4x4 operand spans " << gpu::rows_per_tile()
                  << " fractal rows (8 bytes of each); the Cube takes the whole 512-byte fractal "
                     "as one operand\n";
        return 0;
    };
}

}  // namespace ll::cli
