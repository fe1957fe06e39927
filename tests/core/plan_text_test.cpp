// plan_text / plan_json: the printable twin of every picture.
#include "core/plan_text.hpp"

#include <gtest/gtest.h>

#include "core/format/format_plan.hpp"

using namespace ll;

namespace {

Plan nz_2x2x28() {
    ConvertSpec s;
    s.from = Format::ND;
    s.to = Format::FRACTAL_NZ;
    s.shape = {2, 2, 28};
    s.dtype = DType::fp16;
    return format_plan({make_pipeline(s)});
}

}  // namespace

TEST(PlanText, NzExampleStagesAxesAndOffsets) {
    Plan p = nz_2x2x28();
    std::string t = plan_text(p);
    // Stage headers with the axis names of each step.
    EXPECT_NE(t.find("plan \"ND -> FRACTAL_NZ\": 1024 cells, fp16, source (2,2,28), 5 stages"),
              std::string::npos)
        << t.substr(0, 400);
    EXPECT_NE(t.find("stage 0 \"source ND\" (2,2,28)"), std::string::npos) << t;
    EXPECT_NE(t.find("stage 4 \"memory FRACTAL_NZ\" (1024) axes (offset) memory"),
              std::string::npos)
        << t.substr(0, 400);
    // Source element (0,1,3) (linear 31) sits at offset 19 of the NZ buffer
    // (fractal 0, row 1, column 3): the documents' worked example.
    std::vector<int64_t> last = p.offsets(4);
    int found = 0;
    for (size_t c = 0; c < last.size(); ++c) {
        if (p.src[c] != 31) continue;
        EXPECT_EQ(last[c], 19);
        ++found;
    }
    EXPECT_EQ(found, 1);
    EXPECT_NE(t.find("stage 3 \"transpose(0,3,1,2,4)\" (2,2,1,16,16) axes (B,N1,M1,M0,N0)"),
              std::string::npos);
}

TEST(PlanText, JsonCarriesOffsetsUpToTheLimitOnly) {
    Plan p = nz_2x2x28();
    nlohmann::json j = plan_json(p);
    ASSERT_EQ(j["stages"].size(), 5u);
    EXPECT_EQ(j["stages"][0]["shape"], nlohmann::json({2, 2, 28}));
    EXPECT_EQ(j["stages"][4]["offsets"].size(), 1024u);
    EXPECT_FALSE(j.contains("offsets_omitted"));
    // Every stage's non-hidden offsets are distinct and inside its tensor.
    for (const auto& st : j["stages"]) {
        int64_t n = 1;
        for (int64_t d : st["shape"]) n *= d;
        std::vector<bool> seen(size_t(n), false);
        for (int64_t o : st["offsets"]) {
            if (o < 0) continue;
            ASSERT_LT(o, n);
            EXPECT_FALSE(seen[size_t(o)]);
            seen[size_t(o)] = true;
        }
    }
    nlohmann::json small = plan_json(p, 100);
    EXPECT_FALSE(small["stages"][0].contains("offsets"));
    EXPECT_NE(small["offsets_omitted"].get<std::string>().find("100"), std::string::npos);
}

TEST(PlanText, OverlaysPrint) {
    Plan p = nz_2x2x28();
    Stage& st = p.stages[4];
    Box b;
    b.x = 0;
    b.y = 0;
    b.w = 16;
    b.h = 16;
    b.kind = Box::fractal;
    b.label = "fractal 0";
    st.boxes = {b};
    st.arrows = {Arrow{0, 0, 1, 2, "next"}};
    st.labels = {Label{1, 2, "M1", Label::axis, Label::centre}};
    st.highlight = {3, 4};
    std::string t = plan_text(p, 0);
    EXPECT_NE(t.find("  box fractal (0,0 16x16) \"fractal 0\""), std::string::npos) << t;
    EXPECT_NE(t.find("  arrow (0,0) -> (1,2) \"next\""), std::string::npos) << t;
    EXPECT_NE(t.find("  label axis (1,2) \"M1\""), std::string::npos) << t;
    EXPECT_NE(t.find("  highlight 2 cells: 3 4"), std::string::npos) << t;
    EXPECT_NE(t.find("offsets omitted: 1024 cells > 0"), std::string::npos) << t;
}
