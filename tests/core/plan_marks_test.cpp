// Stage::marks (cell sets with a colour role) and Stage::dim in the printable
// forms of a plan (core/plan_text.hpp), which golden tests and scripts read.
#include <gtest/gtest.h>

#include <string>

#include "core/plan.hpp"
#include "core/plan_text.hpp"

namespace {

ll::Plan two_by_three() {
    ll::Plan p;
    p.title = "t";
    p.cell_count = 6;
    p.src_shape = {2, 3};
    p.src = {0, 1, 2, 3, 4, 5};
    p.offsets = [](size_t) { return std::vector<int64_t>{0, 1, 2, 3, 4, 5}; };
    p.stages.push_back(ll::stage("source", "", {2, 3}, ll::tensor_grid({2, 3})));
    return p;
}

}  // namespace

TEST(PlanMarks, RolesHaveNames) {
    EXPECT_STREQ(ll::name(ll::CellSet::current), "current");
    EXPECT_STREQ(ll::name(ll::CellSet::done), "done");
    EXPECT_STREQ(ll::name(ll::CellSet::pinned), "pinned");
}

TEST(PlanMarks, TextAndJsonListMarksAndDimmedCells) {
    ll::Plan p = two_by_three();
    ll::Stage& st = p.stages[0];
    st.highlight = {0};
    st.marks.push_back({ll::CellSet::done, {1, 2}});
    st.marks.push_back({ll::CellSet::pinned, {5}});
    st.dim = {3, 4};
    const std::string t = ll::plan_text(p);
    EXPECT_NE(t.find("  highlight 1 cells: 0\n"), std::string::npos) << t;
    EXPECT_NE(t.find("  mark done 2 cells: 1 2\n"), std::string::npos) << t;
    EXPECT_NE(t.find("  mark pinned 1 cells: 5\n"), std::string::npos) << t;
    EXPECT_NE(t.find("  dim 2 cells: 3 4\n"), std::string::npos) << t;
    const nlohmann::json j = ll::plan_json(p);
    const nlohmann::json& s = j["stages"][0];
    ASSERT_EQ(s["marks"].size(), 2u);
    EXPECT_EQ(s["marks"][0]["role"], "done");
    EXPECT_EQ(s["marks"][0]["cells"], nlohmann::json({1, 2}));
    EXPECT_EQ(s["marks"][1]["role"], "pinned");
    EXPECT_EQ(s["dim"], nlohmann::json({3, 4}));
}

TEST(PlanMarks, AStageWithoutMarksPrintsAsBefore) {
    // Existing golden outputs stay valid: no marks, no dim, no new keys.
    const ll::Plan p = two_by_three();
    const std::string t = ll::plan_text(p);
    EXPECT_EQ(t.find("mark"), std::string::npos);
    EXPECT_EQ(t.find("dim"), std::string::npos);
    const nlohmann::json j = ll::plan_json(p);
    EXPECT_FALSE(j["stages"][0].contains("marks"));
    EXPECT_FALSE(j["stages"][0].contains("dim"));
}
