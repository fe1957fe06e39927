// AGU: nested loop counters with strides emit base + sum(counter*stride)*elem.
#include "core/view/agu.hpp"

#include <gtest/gtest.h>

namespace ll::view {

TEST(Agu, StreamFollowsLayoutOnEveryIndex) {
    for (const char* name : {"NCHW", "NHWC", "CHWN", "nChw4c", "NCHW2h2w"}) {
        Shape s{2, 8, 4, 4};
        Layout l = layout_from_name(name, s);
        Agu a = agu_from_layout(l, 32, 0x1000);
        EXPECT_EQ(a.count(), l.size());
        // The loop nest walks the flattened sub-modes; element k of the stream is
        // logical row-major index k because flatten() preserves that order.
        auto ev = stream(a, 0, a.count());
        ASSERT_EQ(int64_t(ev.size()), l.size());
        for (const auto& e : ev)
            EXPECT_EQ(e.address, 0x1000 + 4 * l(unravel(e.element, s))) << name;
    }
}

TEST(Agu, DocumentNhwcConfiguration) {
    Agu a = agu_from_layout(layout_from_name("NHWC", {1, 64, 56, 56}), 8);
    EXPECT_EQ(to_string(a), "base=0x0 bounds=(1,64,56,56) strides=(200704,1,3584,64) elem=1B");
    EXPECT_EQ(a.address({0, 32, 28, 28}), 102176);
}

TEST(Agu, StatsCountRunsAndDeltas) {
    Agu row = agu_from_layout(row_major({3, 4}), 32);
    StreamStats s = stream_stats(row);
    EXPECT_EQ(s.count, 12);
    EXPECT_EQ(s.runs, 1);
    EXPECT_EQ(s.longest_run, 12);
    Agu col = agu_from_layout(make_layout({3, 4}, {1, 3}), 32);
    StreamStats c = stream_stats(col);
    EXPECT_EQ(c.runs, 12);
    EXPECT_EQ(c.longest_run, 1);
    EXPECT_EQ(c.deltas, (std::vector<int64_t>{12, -32}));
    std::vector<int64_t> addrs;
    for (const auto& e : stream(col, 0, 100)) addrs.push_back(e.address);
    EXPECT_EQ(stream_stats(addrs, 4).runs, c.runs);
    EXPECT_EQ(stream(col, 10, 5).size(), 2u);
    StreamStats cut = stream_stats(col, 8, 5);
    EXPECT_TRUE(cut.truncated);
    EXPECT_EQ(cut.count, 5);
    EXPECT_FALSE(c.truncated);
}

}  // namespace ll::view
