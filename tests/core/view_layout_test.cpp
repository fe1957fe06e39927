// Layout: printing, named and blocked layouts, contiguity, coalesce.
#include "core/view/layout.hpp"

#include <gtest/gtest.h>

#include <set>

#include "core/error.hpp"

namespace ll::view {

TEST(ViewLayout, RowMajorPrintsAndMaps) {
    Layout x = row_major({2, 3, 4});
    EXPECT_EQ(to_string(x), "(2,3,4):(12,4,1)");
    EXPECT_EQ(x.strides(), (std::vector<int64_t>{12, 4, 1}));
    EXPECT_TRUE(is_contiguous(x));
    for (int64_t i = 0; i < x.size(); ++i) EXPECT_EQ(x(unravel(i, x.shape())), i);
}

// The seed document's (1,64,56,56) example: NCHW and NHWC strides in logical
// N,C,H,W order, and the offsets of index (0,32,28,28). The document prints
// 101920 for NHWC, which its own strides do not give (see docs/ERRATA.md).
TEST(ViewLayout, DocumentNchwNhwcGolden) {
    Shape s{1, 64, 56, 56};
    Layout nchw = layout_from_name("NCHW", s), nhwc = layout_from_name("NHWC", s);
    EXPECT_EQ(nchw.strides(), (std::vector<int64_t>{200704, 3136, 56, 1}));
    EXPECT_EQ(nhwc.strides(), (std::vector<int64_t>{200704, 1, 3584, 64}));
    EXPECT_EQ(nchw({0, 32, 28, 28}), 101948);
    EXPECT_EQ(nhwc({0, 32, 28, 28}), 32 * 1 + 28 * 3584 + 28 * 64);
    EXPECT_EQ(nhwc({0, 32, 28, 28}), 102176);
    EXPECT_TRUE(same_map(nhwc, layout_from_order(s, {0, 2, 3, 1})));
}

TEST(ViewLayout, NamedOrdersAreBijections) {
    Shape s{2, 3, 4, 5};
    for (const char* n : {"NCHW", "NHWC", "CHWN", "HWCN", "nhwc", "WHCN"}) {
        Layout l = layout_from_name(n, s);
        std::set<int64_t> seen;
        for (int64_t i = 0; i < l.size(); ++i) seen.insert(l(unravel(i, s)));
        EXPECT_EQ(int64_t(seen.size()), l.size()) << n;
        EXPECT_EQ(*seen.rbegin(), l.size() - 1) << n;
    }
    EXPECT_EQ(layout_from_name("CHWN", s).strides(), (std::vector<int64_t>{1, 40, 10, 2}));
    EXPECT_EQ(layout_from_name("NDHWC", {1, 2, 3, 4, 5}).strides(),
              (std::vector<int64_t>{120, 1, 40, 10, 2}));
    EXPECT_EQ(layout_from_name("ba", {3, 4}).strides(), (std::vector<int64_t>{1, 3}));
    EXPECT_EQ(layout_from_name("OHWI", {8, 3, 2, 2}).strides(),
              (std::vector<int64_t>{12, 1, 6, 3}));
}

// nChw16c: C split into (C/16, 16); the inner 16 channels are innermost.
TEST(ViewLayout, BlockedChannelLayout) {
    Shape s{1, 32, 2, 2};
    Layout l = layout_from_name("nChw16c", s);
    EXPECT_EQ(to_string(l), "(1,(2,16),2,2):(128,(64,1),32,16)");
    EXPECT_FALSE(l.flat());
    for (int64_t n = 0; n < 1; ++n)
        for (int64_t c = 0; c < 32; ++c)
            for (int64_t h = 0; h < 2; ++h)
                for (int64_t w = 0; w < 2; ++w)
                    EXPECT_EQ(l({n, c, h, w}), (((n * 2 + c / 16) * 2 + h) * 2 + w) * 16 + c % 16);
}

// The document's NCHW tiled 8x8 on H,W: n, c, h_tile, w_tile, h_in, w_in.
TEST(ViewLayout, TiledHw) {
    Shape s{1, 2, 16, 24};
    Layout l = layout_from_name("NCHW8h8w", s);
    for (int64_t i = 0; i < l.size(); ++i) {
        Coord c = unravel(i, s);
        int64_t ht = c[2] / 8, wt = c[3] / 8, hi = c[2] % 8, wi = c[3] % 8;
        EXPECT_EQ(l(c), ((((c[0] * 2 + c[1]) * 2 + ht) * 3 + wt) * 8 + hi) * 8 + wi);
    }
}

TEST(ViewLayout, BadNamesAreRejected) {
    Shape s{2, 16, 4, 4};
    for (const char* bad : {"NCH", "NCHWX", "NCCW", "nChw5c", "", "NC-HW", "nchw16c", "NC8HW"})
        EXPECT_THROW(layout_from_name(bad, s), UsageError) << bad;
    EXPECT_THROW(layout_from_order(s, {0, 1, 1, 2}), UsageError);
    EXPECT_THROW(make_layout({2, 3}, {1}), UsageError);
    EXPECT_THROW(make_layout({2, 3}, {1, int64_t(1) << 50}), UsageError);
}

TEST(ViewLayout, CoalesceMergesContiguousNeighbours) {
    EXPECT_EQ(coalesce(flatten(row_major({2, 3, 4}))), (std::vector<SubMode>{{24, 1}}));
    EXPECT_EQ(coalesce(flatten(make_layout({2, 3, 4}, {12, 1, 3}))),
              (std::vector<SubMode>{{2, 12}, {3, 1}, {4, 3}}));
    EXPECT_EQ(coalesce(std::vector<SubMode>{{4, 0}, {3, 0}, {1, 7}}),
              (std::vector<SubMode>{{12, 0}}));
    EXPECT_EQ(coalesce(std::vector<SubMode>{{1, 5}}), (std::vector<SubMode>{{1, 0}}));
}

TEST(ViewLayout, ContiguityIgnoresUnitDims) {
    EXPECT_TRUE(is_contiguous(make_layout({1, 3, 4}, {99, 4, 1})));
    EXPECT_FALSE(is_contiguous(make_layout({2, 4, 3}, {12, 1, 4})));
    EXPECT_FALSE(is_contiguous(make_layout({4, 3}, {0, 1})));
    EXPECT_EQ(distinct_offsets(make_layout({4, 3}, {0, 1})), 3);
}

TEST(ViewLayout, GridShowsOffsets) {
    EXPECT_EQ(grid_string(make_layout({2, 3}, {1, 2})), "  0 2 4\n  1 3 5\n");
    std::string g = grid_string(row_major({2, 2, 2}));
    EXPECT_NE(g.find("[1,:,:]"), std::string::npos) << g;
    EXPECT_EQ(grid_string(row_major({100, 100})), "");
    EXPECT_EQ(to_string(make_layout({6, 10}, {20, 1}, 45)), "(6,10):(20,1)+45");
}

}  // namespace ll::view
