// `layoutlab pipeline`: a tiled Matmul (or the conv case study through
// img2col, --conv) scheduled on one AI Core: the tiling, the buffer map, each
// unit's busy cycles and utilisation, the bound, total cycles and time; JSON,
// a Chrome trace, the instruction CSV and the timeline as SVG/PNG.
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "app/cli/command.hpp"
#include "app/plot/pipeline_plots.hpp"
#include "core/aicore/sweep.hpp"
#include "core/error.hpp"
#include "core/exec/window_args.hpp"
#include "core/validate_only.hpp"

namespace ll::cli {

namespace {

using namespace ll::aicore;

struct PipelineArgs {
    int64_t m = 1024, k = 1024, n = 1024;
    std::string dtype = "fp16", product = "a2", double_buffer = "on", order;
    int64_t base_m = 0, base_n = 0, base_k = 0, step_ka = 0, step_kb = 0;
    int l0c_slots = 0;
    bool conv = false, json = false;
    exec::ConvParams cp = exec::conv_case_study();
    std::string pad = "1", stride = "1", dilation = "1";
    // cost overrides (0 = the product's default)
    double mte2_bw = 0, mte1_a_bw = 0, mte1_b_bw = 0, fixpipe_bw = 0, mte3_bw = 0, clock = 0;
    int64_t cube_cycles = 0;
    int top = 0;
    std::string trace, csv, svg, png;
    int width = 1200, height = 420;
};

nlohmann::json tiling_json(const Tiling& t) {
    return {{"base_m", t.base_m},     {"base_n", t.base_n},     {"base_k", t.base_k},
            {"step_ka", t.step_ka},   {"step_kb", t.step_kb},   {"depth_a1", t.depth_a1},
            {"depth_b1", t.depth_b1}, {"l0_slots", t.l0_slots}, {"l0c_slots", t.l0c_slots},
            {"order", name(t.order)}};
}

nlohmann::json schedule_json(const Schedule& s, const Product& prod, bool swept) {
    nlohmann::json units = nlohmann::json::object();
    for (int u = 0; u < kUnitCount; ++u)
        units[name(Unit(u))] = {{"busy_cycles", s.units[u].busy},
                                {"instructions", s.units[u].count},
                                {"utilisation", s.units[u].utilisation}};
    nlohmann::json bufs = nlohmann::json::object();
    for (const BufferUse& b : s.buffers.buffers) {
        nlohmann::json pl = nlohmann::json::array();
        for (const Placement& p : b.slots)
            pl.push_back({{"tile", p.tile}, {"address", p.addr}, {"bytes", p.bytes}});
        bufs[name(b.buf)] = {{"capacity", b.capacity}, {"peak_bytes", b.peak}, {"placements", pl}};
    }
    nlohmann::json checks = nlohmann::json::array();
    for (const Check& c : s.checks())
        checks.push_back({{"what", c.what}, {"lhs", c.lhs}, {"rhs", c.rhs}, {"ok", c.ok}});
    const Costs& c = s.costs;
    return {{"problem",
             {{"m", s.problem.m},
              {"k", s.problem.k},
              {"n", s.problem.n},
              {"dtype", ll::name(s.problem.dtype)},
              {"conv", s.problem.conv},
              {"describe", s.problem.describe()}}},
            {"product", {{"id", prod.id}, {"name", prod.name}}},
            {"tiling", tiling_json(s.tiling)},
            {"tiling_from_sweep", swept},
            {"costs",
             {{"clock_ghz", c.clock_ghz},
              {"mte2_bytes_per_cycle", c.mte2_bytes_per_cycle},
              {"mte2_latency", c.mte2_latency},
              {"mte1_l0a_bytes_per_cycle", c.mte1_l0a_bytes_per_cycle},
              {"mte1_l0b_bytes_per_cycle", c.mte1_l0b_bytes_per_cycle},
              {"mte1_latency", c.mte1_latency},
              {"cube_cycles_per_step", c.cube_cycles_per_step},
              {"fixpipe_bytes_per_cycle", c.fixpipe_bytes_per_cycle},
              {"fixpipe_latency", c.fixpipe_latency},
              {"vector_bytes_per_repeat", c.vector_bytes_per_repeat},
              {"vector_cycles_per_repeat", c.vector_cycles_per_repeat},
              {"mte3_bytes_per_cycle", c.mte3_bytes_per_cycle},
              {"mte3_latency", c.mte3_latency},
              {"scalar_cycles_per_block", c.scalar_cycles_per_block}}},
            {"total_cycles", s.total_cycles},
            {"microseconds", s.micros()},
            {"cube_steps", s.cube_steps},
            {"blocks", s.blocks},
            {"k_chunks", s.k_chunks},
            {"gm_read_bytes", s.gm_read_bytes},
            {"gm_write_bytes", s.gm_write_bytes},
            {"prologue_cycles", s.first_cube_start},
            {"epilogue_cycles", s.total_cycles - s.last_cube_end},
            {"units", units},
            {"bound", name(s.bound)},
            {"buffers", bufs},
            {"checks", checks}};
}

void print_text(const Schedule& s, const Product& prod, bool swept, const Schedule* other) {
    std::printf("pipeline: %s on %s\n", s.problem.describe().c_str(), prod.name.c_str());
    std::printf("tiling%s: %s\n", swept ? " (best of the sweep)" : "", s.tiling.describe().c_str());
    std::printf("  %lld output blocks x %lld k chunks, %lld Cube fractal steps\n\n",
                (long long)s.blocks, (long long)s.k_chunks, (long long)s.cube_steps);
    std::printf("buffers:\n");
    for (const BufferUse& b : s.buffers.buffers) {
        std::printf("  %-4s %9s of %-9s %5.1f%%:", name(b.buf), human_bytes(b.peak).c_str(),
                    human_bytes(b.capacity).c_str(), 100.0 * double(b.peak) / double(b.capacity));
        for (const Placement& p : b.slots)
            std::printf("  %s @0x%llx %s", p.tile.c_str(), (unsigned long long)p.addr,
                        human_bytes(p.bytes).c_str());
        std::printf("\n");
    }
    std::printf("\n%-8s %14s %8s %12s\n", "unit", "busy cycles", "util", "instructions");
    for (int u = 0; u < kUnitCount; ++u) {
        const UnitStats& st = s.units[u];
        std::printf("%-8s %14lld %7.1f%% %12lld%s\n", name(Unit(u)), (long long)st.busy,
                    100 * st.utilisation, (long long)st.count,
                    Unit(u) == s.bound ? "  <- bound" : "");
    }
    std::printf("\ntotal %lld cycles = %.2f us at %.3g GHz; bound: %s\n", (long long)s.total_cycles,
                s.micros(), s.costs.clock_ghz, name(s.bound));
    std::printf("prologue %lld cycles (to the first Mmad), epilogue %lld cycles (after the last)\n",
                (long long)s.first_cube_start, (long long)(s.total_cycles - s.last_cube_end));
    if (other)
        std::printf("%s buffering: %lld cycles (%.2fx)\n",
                    other->tiling.double_buffered() ? "double" : "single",
                    (long long)other->total_cycles,
                    double(other->total_cycles) / double(s.total_cycles));
    std::printf("checks:\n");
    for (const Check& c : s.checks())
        std::printf("  [%s] %s: %lld vs %lld\n", c.ok ? "ok" : "FAILED", c.what.c_str(),
                    (long long)c.lhs, (long long)c.rhs);
}

}  // namespace

Runner setup_pipeline(CLI::App& sub) {
    auto a = std::make_shared<PipelineArgs>();
    sub.add_option("--m", a->m, "rows of A and C")->capture_default_str();
    sub.add_option("--k", a->k, "columns of A, rows of B")->capture_default_str();
    sub.add_option("--n", a->n, "columns of B and C")->capture_default_str();
    sub.add_option("--dtype", a->dtype, "fp16, bf16 or int8")->capture_default_str();
    sub.add_option("--base-m", a->base_m, "L0 tile rows (multiple of 16; default: sweep's best)");
    sub.add_option("--base-n", a->base_n, "L0 tile columns (multiple of 16)");
    sub.add_option("--base-k", a->base_k, "L0 tile depth (multiple of 16 fp16, 32 int8)");
    sub.add_option("--step-ka", a->step_ka, "baseK chunks per L1 load of A");
    sub.add_option("--step-kb", a->step_kb, "baseK chunks per L1 load of B");
    sub.add_option("--double-buffer", a->double_buffer, "on (ping/pong) or off")
        ->capture_default_str();
    sub.add_option("--l0c-slots", a->l0c_slots,
                   "L0C slots, 1 or 2 (default: 2 with double buffering, or the sweep's)");
    sub.add_option("--order", a->order, "m (M moves fastest) or n; default: sweep's best");
    sub.add_option("--product", a->product, "a2 (Atlas A2 training) or training (Atlas training)")
        ->capture_default_str();
    sub.add_flag("--conv", a->conv, "the conv case study through img2col (conv options below)");
    sub.add_option("--batch", a->cp.n, "conv: batch N (default 10)");
    sub.add_option("--cin", a->cp.cin, "conv: input channels (default 32)");
    sub.add_option("--cout", a->cp.cout, "conv: output channels (default 64)");
    sub.add_option("--h", a->cp.h, "conv: input height (default 28)");
    sub.add_option("--w", a->cp.w, "conv: input width (default 28)");
    sub.add_option("--kh", a->cp.win.kh, "conv: kernel height (default 3)");
    sub.add_option("--kw", a->cp.win.kw, "conv: kernel width (default 3)");
    sub.add_option("--pad", a->pad, "conv: p | ph,pw | t,b,l,r (default 1)");
    sub.add_option("--stride", a->stride, "conv: s | sh,sw (default 1)");
    sub.add_option("--dilation", a->dilation, "conv: d | dh,dw (default 1)");
    sub.add_option("--mte2-bw", a->mte2_bw, "GM->L1 bytes/cycle (default: the product's)");
    sub.add_option("--mte1-a-bw", a->mte1_a_bw, "L1->L0A bytes/cycle (default 512)");
    sub.add_option("--mte1-b-bw", a->mte1_b_bw, "L1->L0B bytes/cycle (default 256)");
    sub.add_option("--fixpipe-bw", a->fixpipe_bw, "L0C->GM bytes/cycle (default 64)");
    sub.add_option("--mte3-bw", a->mte3_bw, "UB->GM bytes/cycle (default 64)");
    sub.add_option("--cube-cycles", a->cube_cycles, "cycles per fractal step (default 1)");
    sub.add_option("--clock", a->clock, "GHz (default: the product's)");
    sub.add_option("--top", a->top, "also print the sweep's best N tilings");
    sub.add_option("--trace", a->trace, "write a Chrome trace-event JSON (Perfetto)");
    sub.add_option("--csv", a->csv, "write every instruction as CSV");
    sub.add_option("--svg", a->svg, "write the timeline as SVG");
    sub.add_option("--png", a->png, "write the timeline as PNG");
    sub.add_option("--width", a->width, "plot width, px")->capture_default_str();
    sub.add_option("--height", a->height, "plot height, px")->capture_default_str();
    sub.add_flag("--json", a->json, "print JSON instead of text");
    return [a, &sub]() {
        const Product& prod = product_by_id(a->product);
        if (a->double_buffer != "on" && a->double_buffer != "off")
            throw UsageError("--double-buffer '" + a->double_buffer + "'; expected on or off");
        if (!a->order.empty() && a->order != "m" && a->order != "n")
            throw UsageError("--order '" + a->order + "'; expected m or n");
        const bool db = a->double_buffer == "on";
        Problem p;
        if (a->conv) {
            for (const char* o : {"--m", "--k", "--n"})
                if (sub.count(o))
                    throw UsageError(std::string(o) +
                                     " with --conv; expected the conv options (--batch, --cin, "
                                     "--cout, --h, --w, --kh, --kw, ...) instead");
            exec::ConvParams cp = a->cp;
            cp.dtype = dtype_from_name(a->dtype);
            exec::apply_window_lists(cp.win, a->pad, a->stride, a->dilation);
            p = conv_problem(cp);
        } else {
            p = gemm_problem(a->m, a->k, a->n, dtype_from_name(a->dtype));
        }
        Costs c = default_costs(prod);
        auto over = [](double& field, double v, CLI::App& s, const char* opt) {
            if (s.count(opt)) field = v;
        };
        over(c.mte2_bytes_per_cycle, a->mte2_bw, sub, "--mte2-bw");
        over(c.mte1_l0a_bytes_per_cycle, a->mte1_a_bw, sub, "--mte1-a-bw");
        over(c.mte1_l0b_bytes_per_cycle, a->mte1_b_bw, sub, "--mte1-b-bw");
        over(c.fixpipe_bytes_per_cycle, a->fixpipe_bw, sub, "--fixpipe-bw");
        over(c.mte3_bytes_per_cycle, a->mte3_bw, sub, "--mte3-bw");
        over(c.clock_ghz, a->clock, sub, "--clock");
        if (sub.count("--cube-cycles")) c.cube_cycles_per_step = a->cube_cycles;
        c.validate();
        if (a->top < 0)
            throw UsageError("--top " + std::to_string(a->top) + "; expected 0 or more");
        for (const std::string* f : {&a->trace, &a->csv, &a->svg, &a->png})
            if (!f->empty()) plot::check_writable(*f);
        work_begins();  // the tiling sweep below is the work

        // Default tiling: the sweep's best; given options override it.
        const bool all_given =
            a->base_m && a->base_n && a->base_k && a->step_ka && a->step_kb && !a->order.empty();
        std::unique_ptr<SweepResult> sw;
        Tiling t;
        t.set_double_buffer(db);
        if (!all_given || a->top > 0) {
            sw = std::make_unique<SweepResult>(sweep(p, prod, c, db));
            if (sw->rows.empty())
                throw UsageError("no tiling of " + p.describe() + " fits " + prod.name +
                                 "; expected a smaller problem");
            if (!all_given) t = sw->rows.front().tiling;
        }
        if (a->base_m) t.base_m = a->base_m;
        if (a->base_n) t.base_n = a->base_n;
        if (a->base_k) t.base_k = a->base_k;
        if (a->step_ka) t.step_ka = a->step_ka;
        if (a->step_kb) t.step_kb = a->step_kb;
        if (sub.count("--step-ka") && a->step_ka < 1)
            throw UsageError("--step-ka " + std::to_string(a->step_ka) + "; expected 1 or more");
        if (sub.count("--step-kb") && a->step_kb < 1)
            throw UsageError("--step-kb " + std::to_string(a->step_kb) + "; expected 1 or more");
        for (const char* o : {"--base-m", "--base-n", "--base-k"})
            if (sub.count(o) && (o[7] == 'm'   ? a->base_m
                                 : o[7] == 'n' ? a->base_n
                                               : a->base_k) < 16)
                throw UsageError(std::string(o) +
                                 " below 16; expected a multiple of 16 (a fractal)");
        if (!a->order.empty()) t.order = a->order == "m" ? Order::m_first : Order::n_first;
        if (sub.count("--l0c-slots")) {
            if (a->l0c_slots != 1 && a->l0c_slots != 2)
                throw UsageError("--l0c-slots " + std::to_string(a->l0c_slots) +
                                 "; expected 1 or 2");
            t.l0c_slots = a->l0c_slots;
        }
        const Schedule s = simulate(p, t, prod, c, true);
        s.check_lives();
        Tiling u = t;
        u.set_double_buffer(!db);
        if (!db) u.l0c_slots = t.l0c_slots;  // compare the same L0C
        std::unique_ptr<Schedule> other;
        try {
            other = std::make_unique<Schedule>(simulate(p, u, prod, c, false));
        } catch (const UsageError&) {
            // The other buffering does not fit: nothing to compare.
        }
        if (!a->trace.empty()) plot::write_file(a->trace, chrome_trace(s));
        if (!a->csv.empty()) plot::write_file(a->csv, instructions_csv(s));
        if (!a->svg.empty() || !a->png.empty()) {
            const plot::TimelinePlot tl(s);
            if (!a->svg.empty()) plot::write_svg(tl.spec, a->svg, a->width, a->height);
            if (!a->png.empty()) plot::write_png(tl.spec, a->png, a->width, a->height);
        }
        const size_t top = sw ? std::min(sw->rows.size(), size_t(a->top)) : 0;
        if (a->json) {
            nlohmann::json j = schedule_json(s, prod, !all_given);
            if (other)
                j[db ? "single_buffer" : "double_buffer"] = {{"total_cycles", other->total_cycles},
                                                             {"bound", name(other->bound)}};
            if (sw) {
                j["sweep"] = {{"tilings", sw->rows.size()}, {"skipped", sw->skipped}};
                j["sweep"]["top"] = nlohmann::json::array();
                for (size_t i = 0; i < top; ++i)
                    j["sweep"]["top"].push_back({{"tiling", tiling_json(sw->rows[i].tiling)},
                                                 {"total_cycles", sw->rows[i].total_cycles},
                                                 {"l1_bytes", sw->rows[i].l1_bytes},
                                                 {"estimated", sw->rows[i].estimated},
                                                 {"bound", name(sw->rows[i].bound)}});
            }
            std::cout << j.dump(2) << "\n";
            return 0;
        }
        print_text(s, prod, !all_given, other.get());
        if (sw)
            std::printf(
                "\nsweep: %zu tilings fit, %lld do not (est. = extrapolated from the "
                "first %lld blocks' steady state)\n",
                sw->rows.size(), (long long)sw->skipped, (long long)(2 * kEstimateBlocks));
        for (size_t i = 0; i < top; ++i) {
            const SweepRow& r = sw->rows[i];
            std::printf("  %2zu. %-72s %12lld cycles%s  L1 %s  bound %s\n", i + 1,
                        r.tiling.describe().c_str(), (long long)r.total_cycles,
                        r.estimated ? " (est.)" : "", human_bytes(r.l1_bytes).c_str(),
                        name(r.bound));
        }
        for (const std::string* f : {&a->trace, &a->csv, &a->svg, &a->png})
            if (!f->empty()) std::printf("wrote %s\n", f->c_str());
        return 0;
    };
}

}  // namespace ll::cli
