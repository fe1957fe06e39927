// `layoutlab cube`: the Cube scene's text twin. Prints the state after
// --step steps of the K -> N -> M loop (the current indices and fractals,
// MACs so far, and on small problems the C fractal's first row before and
// after the step, on the same small integers the panel uses); with --plan,
// the picture the Cube panel draws (core's cube_plan) as plan text or JSON.
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/cli/command.hpp"
#include "core/error.hpp"
#include "core/exec/cube_plan.hpp"
#include "core/plan_text.hpp"
#include "core/validate_only.hpp"

namespace ll::cli {

namespace {

struct CubeArgs {
    exec::CubeScene s;
    std::string dtype = "fp16";
    int64_t step = 0;
    bool case_study = false, plan = false, json = false;
};

}  // namespace

Runner setup_cube(CLI::App& sub) {
    auto a = std::make_shared<CubeArgs>();
    sub.add_option("--m1", a->s.m1, "A fractal rows (default 4)");
    sub.add_option("--k1", a->s.k1, "fractals along K (default 3)");
    sub.add_option("--n1", a->s.n1, "B fractal columns (default 2)");
    sub.add_option("--dtype", a->dtype, "fp16 (16x16x16 per step) or int8 (16x32x16)");
    sub.add_option("--step", a->step, "steps already run, 0..M1*K1*N1 (default 0)");
    sub.add_flag("--case-study", a->case_study,
                 "the lecture's convolution as a Cube problem (490 x 18 x 4)");
    sub.add_flag("--plan", a->plan, "also print the picture the Cube panel draws");
    sub.add_flag("--json", a->json, "print JSON instead of text");
    return [a]() {
        exec::CubeScene s = a->s;
        if (a->case_study) {
            const exec::CubeScene c = exec::cube_case_study();
            s.m1 = c.m1, s.k1 = c.k1, s.n1 = c.n1;
        }
        s.dtype = dtype_from_name(a->dtype);
        s.validate();
        if (a->step < 0 || a->step > s.steps())
            throw UsageError("--step: " + std::to_string(a->step) +
                             " is out of range; expected 0.." + std::to_string(s.steps()));
        work_begins();
        const exec::CubeState st = exec::cube_state(s, a->step);
        exec::CubeRun run(s);
        const exec::CubeValues v = run.values(a->step);
        if (a->json) {
            nlohmann::json j = exec::cube_state_json(s, st, v);
            if (a->plan) j["plan"] = plan_json(exec::cube_plan(s, a->step));
            std::cout << j.dump(2) << "\n";
            return 0;
        }
        std::cout << exec::cube_state_text(s, st, v);
        if (a->plan) std::cout << "\n" << plan_text(exec::cube_plan(s, a->step));
        return 0;
    };
}

}  // namespace ll::cli
