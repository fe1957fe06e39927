// Fitting memory stages to a view (core/plan_fit.hpp): the compare panel's
// ND (2,16,28) fp16 -> FRACTAL_NZ buffer, 1024 elements in 4 fractals, drawn
// in one band of 64 rows, folds into two bands of 32 rows in a square view;
// every cell keeps its offset, the labels follow the new bands.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "core/format/format_plan.hpp"
#include "core/plan_fit.hpp"

using namespace ll;

namespace {

Plan nz_plan() {
    return format_plan({make_pipeline({Format::ND, Format::FRACTAL_NZ, {2, 16, 28}, DType::fp16})});
}

bool has_label(const Stage& s, const std::string& text) {
    return std::any_of(s.labels.begin(), s.labels.end(),
                       [&](const Label& l) { return l.text == text; });
}

}  // namespace

TEST(PlanFit, MemoryStageFoldsIntoBandsThatSuitTheView) {
    Plan p = nz_plan();
    const Stage& mem = p.stages.back();
    ASSERT_TRUE(mem.grid.linear);
    ASSERT_EQ(mem.grid.shape, Shape{1024});
    const std::vector<int64_t> before = p.offsets(p.stages.size() - 1);
    const size_t tensor_labels = p.stages.front().labels.size();

    EXPECT_EQ(fit_memory_stages(p, 1.0f), 1);  // only the memory stage is linear
    EXPECT_EQ(mem.grid.band_rows, 32);
    const Extent e = grid_extent(mem.grid);
    EXPECT_EQ(e.w, 34.f);  // two bands of 16 columns and the 2-column gap
    EXPECT_EQ(e.h, 32.f);
    // The second band starts at fractal 2 and says so above it; fractal 1
    // keeps its address at the left of its first row.
    EXPECT_TRUE(has_label(mem, "f2 0x400"));
    EXPECT_TRUE(has_label(mem, "f1 0x200"));
    EXPECT_EQ(p.offsets(p.stages.size() - 1), before);
    EXPECT_EQ(p.stages.front().labels.size(), tensor_labels);  // other stages untouched
    // Cell 512 (fractal 2's first element) now stands at the top of band 2.
    const Place q = cell_place(mem.grid, 512);
    EXPECT_EQ(q.x, 18.f);
    EXPECT_EQ(q.y, 0.f);

    // The same aspect again changes nothing; a tall view goes back to one band.
    EXPECT_EQ(fit_memory_stages(p, 1.0f), 0);
    EXPECT_EQ(fit_memory_stages(p, 0.2f), 1);
    EXPECT_EQ(mem.grid.band_rows, 64);
}

TEST(PlanFit, StagesWithBoxesAndBadAspectsAreLeftAlone) {
    Plan p = nz_plan();
    Stage& mem = p.stages.back();
    const int64_t rows = mem.grid.band_rows;
    EXPECT_EQ(fit_memory_stages(p, 0.f), 0);
    EXPECT_EQ(fit_memory_stages(p, -3.f), 0);
    EXPECT_EQ(mem.grid.band_rows, rows);
    mem.boxes.push_back(Box{});
    EXPECT_EQ(fit_memory_stages(p, 1.0f), 0);
    EXPECT_EQ(mem.grid.band_rows, rows);
}
