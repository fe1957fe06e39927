// Grid labels core builds for every stage (core/plan_labels.hpp): axis names
// from the format's shape names, index ticks, fractal tags, memory addresses;
// the colour legend's range; the tiling stride note. Issue 13.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "core/exec/img2col.hpp"
#include "core/exec/plans.hpp"
#include "core/format/format.hpp"
#include "core/format/format_plan.hpp"
#include "core/plan_labels.hpp"
#include "core/plan_legend.hpp"
#include "core/tiling/stride_note.hpp"

using namespace ll;
using namespace ll::tiling;

namespace {

std::vector<std::string> texts(const Stage& s, Label::Kind k, Label::Side side) {
    std::vector<std::string> out;
    for (const Label& l : s.labels)
        if (l.kind == k && l.side == side) out.push_back(l.text);
    return out;
}

bool has(const std::vector<std::string>& v, const std::string& t) {
    return std::find(v.begin(), v.end(), t) != v.end();
}

Plan nz_plan() {
    return format_plan({make_pipeline({Format::ND, Format::FRACTAL_NZ, {2, 2, 28}, DType::fp16})});
}

}  // namespace

TEST(PlanLabels, TickStepIsOneTwoFive) {
    EXPECT_EQ(tick_step(10, 128), 1);
    EXPECT_EQ(tick_step(128, 128), 1);
    EXPECT_EQ(tick_step(129, 128), 2);
    EXPECT_EQ(tick_step(300, 128), 5);
    EXPECT_EQ(tick_step(4096, 128), 50);
}

// Every stage of ND -> FRACTAL_NZ (2,2,28) fp16 is labelled: the last axis's
// name above, the one before at the corner, ticks for each index, a tag per
// block, addresses on the memory stage.
TEST(PlanLabels, EveryNzStageHasAxesTicksAndTags) {
    Plan p = nz_plan();
    ASSERT_GE(p.stages.size(), 4u);
    int named = 0;  // the two stages the row-tick rule is checked on by name
    for (const Stage& s : p.stages) {
        SCOPED_TRACE(s.label);
        const Shape& g = s.grid.shape;
        if (s.grid.linear) {
            EXPECT_TRUE(has(texts(s, Label::address, Label::left_of), "f0 0x0"));
            EXPECT_EQ(texts(s, Label::tick, Label::above).size(), size_t(s.grid.row_elems));
            continue;
        }
        ASSERT_EQ(s.axes.size(), s.shape.size());
        const size_t r = g.size();
        auto above = texts(s, Label::tick, Label::above);
        ASSERT_EQ(above.size(), size_t(g[r - 1]));
        EXPECT_EQ(above.front(), "0");
        EXPECT_EQ(above.back(), std::to_string(g[r - 1] - 1));
        auto axes = texts(s, Label::axis, Label::above);
        EXPECT_TRUE(has(axes, s.axes[r - 1])) << s.axes[r - 1];
        EXPECT_TRUE(has(axes, s.axes[r - 2])) << s.axes[r - 2];
        int64_t blocks = 1;
        for (size_t a = 0; a + 2 < r; ++a) blocks *= g[a];
        // Row ticks beside every block on the left edge, 0..rows-1 each at
        // the block's rows, when there are at most kRowTickBlocks of them
        // (stage 0's two blocks, b=0 and b=1); else beside the first only
        // (the reshape's 32 blocks of 2 rows).
        int64_t on_edge = 0;
        for (int64_t b = 0; b < blocks; ++b)
            if (cell_place(s.grid, b * g[r - 1] * g[r - 2]).x == 0) ++on_edge;
        if (s.label == "source ND") {
            ++named;
            EXPECT_EQ(on_edge, 2);
        }
        if (s.label == "reshape") {
            ++named;
            EXPECT_GT(on_edge, kRowTickBlocks);
        }
        int64_t left = 0;
        for (int64_t b = 0; b < blocks; ++b) {
            const Place at = cell_place(s.grid, b * g[r - 1] * g[r - 2]);
            // (these blocks' rows are few: a tick each, within kMaxTicks)
            const bool every = on_edge <= kRowTickBlocks && on_edge * g[r - 2] <= kMaxTicks;
            if (at.x != 0 || (!every && b > 0)) continue;
            ++left;
            for (int64_t i = 0; i < g[r - 2]; ++i) {
                const auto it = std::find_if(s.labels.begin(), s.labels.end(), [&](const Label& l) {
                    return l.kind == Label::tick && l.side == Label::left_of &&
                           l.y == at.y + float(i) + 0.5f;
                });
                ASSERT_NE(it, s.labels.end()) << "block " << b << " row " << i;
                EXPECT_EQ(it->text, std::to_string(i));
            }
        }
        EXPECT_GE(left, 1);
        EXPECT_EQ(texts(s, Label::tick, Label::left_of).size(), size_t(g[r - 2] * left));
        EXPECT_EQ(texts(s, Label::tag, Label::above).size(), size_t(r >= 3 ? blocks : 0));
    }
    EXPECT_EQ(named, 2);
    // The fractal stage: (B, N1, M1, M0, N0) = (2, 2, 1, 16, 16); its tags
    // name batch, fractal column and fractal row in the documents' letters.
    const Stage& nz = p.stages[p.stages.size() - 2];
    EXPECT_EQ(nz.shape, (Shape{2, 2, 1, 16, 16}));
    auto tags = texts(nz, Label::tag, Label::above);
    EXPECT_TRUE(has(tags, "b=0 n1=0 m1=0"));
    EXPECT_TRUE(has(tags, "b=1 n1=1 m1=0"));
    EXPECT_TRUE(has(texts(nz, Label::axis, Label::above), "N0"));
    EXPECT_TRUE(has(texts(nz, Label::axis, Label::above), "M0"));
    // Tag of block (b=1, n1=1) sits at that block's top-left cell.
    for (const Label& l : nz.labels)
        if (l.text == "b=1 n1=1 m1=0") {
            Place q = cell_place(nz.grid, (1 * 2 + 1) * 256);
            EXPECT_EQ(l.x, q.x);
            EXPECT_EQ(l.y, q.y);
        }
}

// The memory stage: a fractal address at the start of every 512-byte
// fractal (16 rows of 32 B for fp16), named with its fractal index.
TEST(PlanLabels, MemoryStageAddressesEveryFractal) {
    Plan p = nz_plan();
    const Stage& m = p.stages.back();
    ASSERT_TRUE(m.grid.linear);
    const int64_t n = m.grid.shape[0], fracs = n * 2 / 512;
    std::vector<std::string> all;
    for (const Label& l : m.labels)
        if (l.kind == Label::address) all.push_back(l.text);
    for (int64_t f = 0; f < fracs; ++f) {
        char buf[48];
        std::snprintf(buf, sizeof buf, "f%lld 0x%llx", (long long)f, (unsigned long long)(f * 512));
        EXPECT_TRUE(has(all, buf)) << buf;
    }
}

// Long axes thin their ticks in core: at most kMaxTicks per axis.
TEST(PlanLabels, LongAxesKeepATickBudget) {
    Stage s = stage("big", "", {4096, 4096}, tensor_grid({4096, 4096}));
    s.axes = {"M", "N"};
    add_grid_labels(s, 16);
    auto above = texts(s, Label::tick, Label::above);
    EXPECT_LE(int64_t(above.size()), kMaxTicks);
    EXPECT_EQ(above[1], "50");
}

// img2col: the matrix carries (n,oh,ow) / (c,kh,kw) headers; the padded
// input draws its whole frame, bottom/right padding included at stride 2.
TEST(PlanLabels, Img2colHeadersAndPaddedFrame) {
    exec::Img2colSpec s;
    s.n = 1, s.c = 2, s.h = 5, s.w = 5;
    s.win.kh = s.win.kw = 3;
    s.win.stride_h = s.win.stride_w = 2;
    s.win.pad_top = s.win.pad_bottom = s.win.pad_left = s.win.pad_right = 1;
    Plan p = exec::img2col_plan(s);
    ASSERT_EQ(p.stages.size(), 3u);
    auto axes = texts(p.stages[2], Label::axis, Label::above);
    EXPECT_TRUE(has(axes, "(n,oh,ow)"));
    EXPECT_TRUE(has(axes, "(c,kh,kw)"));
    int frames = 0;
    for (const Box& b : p.stages[1].boxes)
        if (b.kind == Box::outline && b.w == 7 && b.h == 7) ++frames;
    EXPECT_EQ(frames, 2);  // one per channel: 5 + 1 + 1 each way
}

// The value legend spans the values the picture holds, not 0..255.
TEST(PlanLegend, ValueRangeComesFromThePicture) {
    Plan p;
    p.src_shape = {1, 2, 2};
    p.src = {0, 1, 2, 3};
    p.cell_count = 4;
    p.values = {0, 40, 111, 7};
    ColourLegend l = colour_legend(p, ColourMode::value);
    EXPECT_EQ(l.lo, "0");
    EXPECT_EQ(l.hi, "111");
    EXPECT_TRUE(l.grey);
    EXPECT_EQ(l.grey_hi, 111);
    p.values.clear();
    EXPECT_EQ(colour_legend(p, ColourMode::value).hi, "3");  // no picture: source index
}

// The memory caption names fractals only for fractal formats and does not
// read as if one fractal held the whole buffer.
TEST(PlanLabels, MemoryCaptionNamesFractalsOnlyForFractalFormats) {
    Plan nz = nz_plan();
    const std::string f = nz.stages.back().formula;
    EXPECT_NE(f.find("one fractal = 512 B = 256 elements"), std::string::npos) << f;
    EXPECT_NE(f.find("buffer: 1024 elements = 2048 B"), std::string::npos) << f;
    Plan hd =
        format_plan({make_pipeline({Format::NCHW, Format::NC1HWC0, {1, 3, 4, 4}, DType::fp16})});
    const std::string g = hd.stages.back().formula;
    EXPECT_EQ(g.find("fractal"), std::string::npos) << g;
    // 3 channels in C0 = 16: 13 of every 16 elements are padding, and it says so.
    EXPECT_NE(g.find("padding 208 of them (81.2%)"), std::string::npos) << g;
    EXPECT_NE(f.find("padding 912 of them (89.1%)"), std::string::npos) << f;
}

TEST(StrideNote, SaysWhyLargeStridesCostTheSame) {
    Hierarchy h;
    EXPECT_EQ(saturating_stride(DType::fp16, h.dram), 32);
    EXPECT_EQ(stride_note(2, DType::fp16, h.dram), "");
    const std::string n = stride_note(3136, DType::fp16, h.dram);
    EXPECT_NE(n.find("64 B DRAM access unit"), std::string::npos) << n;
    EXPECT_NE(n.find("32 elements"), std::string::npos) << n;
    EXPECT_NE(n.find("0.03125"), std::string::npos) << n;
    EXPECT_EQ(stride_note(56, DType::fp16, h.dram).find("0.03125") != std::string::npos, true);
}
