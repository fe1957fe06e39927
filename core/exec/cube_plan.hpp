// The Cube scene as core data: the picture of one step of the Mmad loop (a
// row of A fractals meets a column of B fractals and accumulates into one C
// fractal) and, for problems small enough, the real values it computes.
//
// Picture (cube_plan): one cell per 16x16 block of elements, so an fp16
// fractal is one cell and an int8 A fractal (16 x 32) two cells side by side,
// an int8 B fractal (32 x 16) two cells one above the other. One stage, a 2D
// canvas: B (K1 x N1) on top; below it, A (M1 x K1, m down, k across) and C
// (M1 x N1, m down, n across) side by side, so A's row m and C's row m sit on
// the same line. A problem too tall for the window (more than 3x off its
// aspect) folds its M rows into `strips` columns of `rows` each (every strip
// an A | C pair) so the picture suits the window.
// Colours: A blue, B green, C red, brighter the more k it has summed
// (ColourMode::value; each cell's value is in Plan::values).
// Overlays: captions, the matrices' outlines, the current step's A row and B
// column (Box::tile), its A fractal, B fractal and C fractal (Box::highlight,
// their cells in Stage::highlight), arrows A -> C and B -> C.
//
// Example: M1 4, K1 3, N1 2, fp16, step 13 (k 1, n 1, m 1): canvas 6 wide
// (A 3, gap 1, C 2) by 11 high (a caption row, B 3 rows, 3 free rows, 4
// rows); A fractal [m1][k1] = cell 4 sits at (1, 8), C[n1][m1] at (5, 8).
//
// Values (CubeRun): A and B fractals filled with small integers (exact in
// fp16 and int8), C accumulated with the core's fractal kernel; values(step)
// gives the current C fractal's first row before and after that step.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "core/exec/cube.hpp"
#include "core/exec/plans.hpp"
#include "core/plan.hpp"

namespace ll::exec {

struct CubeScene {
    int64_t m1 = 4, k1 = 3, n1 = 2;
    DType dtype = DType::fp16;  // fp16 or int8
    // Throws UsageError with the key "m1", "k1", "n1" or "dtype".
    void validate() const;
    int64_t steps() const { return m1 * k1 * n1; }
};

// The lecture's convolution as a Cube problem: M1 = N*ceil(HoWo/16),
// K1 = C1*Kh*Kw, N1 = ceil(Cout/16) (490 x 18 x 4).
CubeScene cube_case_study();

// Where the picture puts things (cell units of the stage's grid).
struct CubeLayout {
    int64_t fw = 1;      // cells per fractal along k (1 fp16, 2 int8)
    int64_t strips = 1;  // M folded into this many A | C columns
    int64_t rows = 0;    // M rows per strip
    int64_t top = 0;     // y of A's and C's first row
    int64_t stride = 0;  // x distance between strips
    int64_t width = 0, height = 0;
    float a_x(int64_t m) const { return float((m / rows) * stride); }
    float c_x(int64_t m, int64_t k1) const { return a_x(m) + float(k1 * fw + 1); }
    float row_y(int64_t m) const { return float(top + m % rows); }
    float b_x(int64_t k1) const { return float(k1 * fw + 1); }
    float b_y() const { return 0; }
};
// Folds M so the canvas is close to `aspect` (width / height).
CubeLayout cube_layout(const CubeScene& s, float aspect);

// The state after `step` steps of cube_schedule (0 .. steps()).
struct CubeState {
    int64_t step = 0, steps = 0;
    bool done = false;   // step == steps: no current step
    CubeStep current{};  // the step about to run (valid unless done)
    int64_t macs = 0;    // multiply-accumulates so far
    CubeShape shape;     // per step
};
CubeState cube_state(const CubeScene& s, int64_t step);
// k products summed so far into C fractal [n][m] after `step` steps.
int64_t cube_summed(const CubeScene& s, int64_t step, int64_t n, int64_t m);

// At most this many cells (UsageError "cube" above it).
constexpr int64_t kCubePlanCells = int64_t(1) << 22;
Plan cube_plan(const CubeScene& s, int64_t step, float aspect = 1.4f);

// The current C fractal's first row before and after a step, on real numbers.
struct CubeValues {
    int64_t c_fractal = -1;
    std::vector<double> before, after;  // 16 each
};
class CubeRun {
  public:
    // Problems up to this many fractals (A + B + C) carry values.
    static constexpr int64_t kMaxFractals = 20000;
    explicit CubeRun(const CubeScene& s);
    ~CubeRun();
    bool has_values() const;
    // Empty (c_fractal -1) when done or without values. Stepping forward
    // applies only the new steps; going back replays from zero.
    CubeValues values(int64_t step);

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

nlohmann::json cube_state_json(const CubeScene& s, const CubeState& st, const CubeValues& v);
std::string cube_state_text(const CubeScene& s, const CubeState& st, const CubeValues& v);

}  // namespace ll::exec
