// `layoutlab systolic`: a GEMM on a weight-stationary systolic array (TPU,
// document 004) cycle by cycle, beside the Cube's fractal steps for the same
// GEMM: tiles, cycles, utilisation, the check against the direct product;
// --cycle N prints the array's state during cycle N; --plan the picture the
// Systolic panel draws (core's systolic_plan) as plan text or JSON.
#include <cstdio>
#include <iostream>

#include "app/cli/command.hpp"
#include "core/error.hpp"
#include "core/gpu/systolic.hpp"
#include "core/plan_text.hpp"
#include "core/validate_only.hpp"

namespace ll::cli {

namespace {

struct SystolicArgs {
    gpu::SystolicParams p;
    int64_t cycle = -1;
    bool plan = false, json = false;
};

std::string flag_of(const std::string& key) {
    std::string f = "--" + key;
    for (char& c : f)
        if (c == '_') c = '-';
    return f;
}

}  // namespace

Runner setup_systolic(CLI::App& sub) {
    auto a = std::make_shared<SystolicArgs>();
    sub.add_option("--rows", a->p.rows, "PE rows of the array, 1..16 (default 4)");
    sub.add_option("--cols", a->p.cols, "PE columns of the array, 1..16 (default 4)");
    sub.add_option("--m", a->p.m, "GEMM M (rows of A and C), 1..64 (default 6)");
    sub.add_option("--k", a->p.k, "GEMM K, 1..64 (default 4)");
    sub.add_option("--n", a->p.n, "GEMM N (columns of B and C), 1..64 (default 4)");
    sub.add_option("--load-cycles-per-row", a->p.load_cycles_per_row,
                   "cycles to shift one row of weights in, 0..8 (default 1)");
    sub.add_option("--seed", a->p.seed, "seed of the integer A and B (default 1)");
    sub.add_option("--cycle", a->cycle, "print the array's state during this cycle");
    sub.add_flag("--plan", a->plan, "also print the picture the Systolic panel draws");
    sub.add_flag("--json", a->json, "print JSON instead of text");
    return [a]() {
        const gpu::SystolicParams& p = a->p;
        gpu::SystolicRun r;
        gpu::CycleState st;
        try {
            r = gpu::systolic_run(p);
            if (a->cycle >= 0 || a->cycle < -1) st = gpu::systolic_state(p, a->cycle);
        } catch (const UsageError& e) {
            if (e.key().empty()) throw;
            throw UsageError(flag_of(e.key()) + ": " + e.detail());
        }
        // The run checked the parameters and --cycle against its length (a
        // 16x16 array, 64^3 GEMM at most); building and printing the report
        // is the work.
        work_begins();
        const gpu::SystolicSummary& s = r.summary;
        if (a->json) {
            nlohmann::json j = gpu::systolic_to_json(r, p);
            if (a->cycle >= 0) {
                nlohmann::json pes = nlohmann::json::array();
                for (const gpu::PeState& pe : st.pes) pes.push_back(pe.active ? pe.m : -1);
                j["state"] = {{"cycle", st.cycle},
                              {"tile", st.tile},
                              {"loading", st.loading},
                              {"loaded_rows", st.loaded_rows},
                              {"active_pes", st.active_pes},
                              {"outputs_done", st.outputs_done},
                              {"pe_rows_m", pes}};
            }
            if (a->plan) j["plan"] = plan_json(gpu::systolic_plan(p));
            std::cout << j.dump(2) << "\n";
            return 0;
        }
        char t[256];
        std::snprintf(
            t, sizeof t,
            "weight-stationary systolic array %lldx%lld, GEMM C (%lld x %lld) = A (%lld x "
            "%lld) x B (%lld x %lld)\n",
            static_cast<long long>(p.rows), static_cast<long long>(p.cols),
            static_cast<long long>(p.m), static_cast<long long>(p.n), static_cast<long long>(p.m),
            static_cast<long long>(p.k), static_cast<long long>(p.k), static_cast<long long>(p.n));
        std::cout << t;
        std::cout << "weights stay in the PEs; A enters row i skewed by i cycles and moves right; "
                     "partial sums move down\n\ntiles (weights held, cycles):\n";
        for (const gpu::SystolicTile& tl : s.tiles) {
            std::snprintf(
                t, sizeof t,
                "  k %lld..%lld x n %lld..%lld: load %lld..%lld, stream %lld..%lld "
                "(M + Kt + Nt - 2 = %lld)\n",
                static_cast<long long>(tl.k0), static_cast<long long>(tl.k0 + tl.kt - 1),
                static_cast<long long>(tl.n0), static_cast<long long>(tl.n0 + tl.nt - 1),
                static_cast<long long>(tl.start), static_cast<long long>(tl.stream_start - 1),
                static_cast<long long>(tl.stream_start), static_cast<long long>(tl.end - 1),
                static_cast<long long>(tl.end - tl.stream_start));
            std::cout << t;
        }
        std::snprintf(t, sizeof t,
                      "\nsystolic array: %lld cycles (%lld loading weights, %lld streaming), %lld "
                      "MACs, utilisation %.1f%%\n",
                      static_cast<long long>(s.cycles), static_cast<long long>(s.load_cycles),
                      static_cast<long long>(s.stream_cycles), static_cast<long long>(s.macs),
                      100 * s.utilisation);
        std::cout << t;
        std::snprintf(t, sizeof t,
                      "Cube (fp16, 16x16x16 a cycle): %lld x %lld x %lld = %lld fractal steps = "
                      "%lld cycles, utilisation %.1f%%\n",
                      static_cast<long long>(s.cube_m1), static_cast<long long>(s.cube_k1),
                      static_cast<long long>(s.cube_n1), static_cast<long long>(s.cube_steps),
                      static_cast<long long>(s.cube_steps), 100 * s.cube_utilisation);
        std::cout << t;
        std::snprintf(t, sizeof t,
                      "check: cycle-by-cycle register simulation %s the direct product; last sum "
                      "left the array in cycle %lld; at most %lld PEs busy at once\n",
                      r.equal ? "equals" : "DIFFERS FROM",
                      static_cast<long long>(r.last_output_cycle),
                      static_cast<long long>(r.max_active_pes));
        std::cout << t;
        if (a->cycle >= 0) {
            std::cout
                << "\ncycle " << st.cycle << ": "
                << (st.tile < 0 ? std::string("done")
                                : "tile " + std::to_string(st.tile + 1) +
                                      (st.loading ? ", loading weights (" +
                                                        std::to_string(st.loaded_rows) + " rows in)"
                                                  : ", streaming"))
                << ", " << st.active_pes << " PEs busy, " << st.outputs_done
                << " outputs complete\n  PE grid (the row m of A each busy PE works on, . idle):\n";
            for (int64_t i = 0; i < p.rows; ++i) {
                std::cout << "   ";
                for (int64_t j = 0; j < p.cols; ++j) {
                    const gpu::PeState& pe = st.pes[size_t(i * p.cols + j)];
                    std::snprintf(t, sizeof t, "%4s",
                                  pe.active ? ("m" + std::to_string(pe.m)).c_str() : ".");
                    std::cout << t;
                }
                std::cout << "\n";
            }
        }
        if (a->plan) {
            try {
                std::cout << "\n" << plan_text(gpu::systolic_plan(p));
            } catch (const UsageError& e) {
                throw UsageError("--plan: " + std::string(e.what()));
            }
        }
        return 0;
    };
}

}  // namespace ll::cli
