// The scatter side of scatter-gather: the header's example, the written
// memory against a direct loop on random index lists (the later write wins),
// partial bursts counted from the bytes each request writes.
#include <gtest/gtest.h>

#include <random>

#include "core/error.hpp"
#include "core/view/scatter.hpp"

using namespace ll::view;

TEST(Scatter, HeaderExample) {
    ScatterGather sg;
    sg.width = 4;
    const ScatterReport r = scatter(sg, {0, 1, 2, 3, 8, 8});
    ASSERT_EQ(r.requests.size(), 2u);
    EXPECT_EQ(r.requests[0].runs, 1);
    EXPECT_EQ(r.requests[0].bursts, 1);
    EXPECT_EQ(r.requests[0].partial_bursts, 1);
    EXPECT_EQ(r.requests[1].partial_bursts, 1);
    ASSERT_EQ(r.conflicts.size(), 1u);
    EXPECT_EQ(r.conflicts[0].index, 8);
    EXPECT_EQ(r.conflicts[0].writers, (std::vector<int64_t>{4, 5}));
    EXPECT_EQ(r.dst, (std::vector<int64_t>{0, 1, 2, 3, -1, -1, -1, -1, 5}));
}

TEST(Scatter, FullBurstsAreNotPartial) {
    ScatterGather sg;  // fp32, width 16, 64 B bursts
    std::vector<int64_t> idx(32);
    for (int64_t i = 0; i < 32; ++i) idx[size_t(i)] = i;
    const ScatterReport r = scatter(sg, idx);
    EXPECT_EQ(r.bursts, 2);
    EXPECT_EQ(r.partial_bursts, 0);
    EXPECT_TRUE(r.conflicts.empty());
}

TEST(Scatter, RandomListsMatchADirectLoop) {
    std::mt19937 rng(3);
    for (int t = 0; t < 50; ++t) {
        ScatterGather sg;
        sg.width = 1 + int64_t(rng() % 8);
        sg.elem_bits = 8 << (rng() % 3);
        sg.burst_bytes = 16 << (rng() % 3);
        std::vector<int64_t> idx(1 + rng() % 40);
        for (auto& v : idx) v = int64_t(rng() % 50);
        const ScatterReport r = scatter(sg, idx);
        int64_t hi = 0;
        for (int64_t v : idx) hi = std::max(hi, v);
        std::vector<int64_t> mem(size_t(hi + 1), -1);
        for (size_t i = 0; i < idx.size(); ++i) mem[size_t(idx[i])] = int64_t(i);
        EXPECT_EQ(r.dst, mem);
        // Partial bursts: segments with fewer bytes written than the burst.
        int64_t partial = 0;
        const int64_t eb = sg.elem_bits / 8;
        for (size_t f = 0; f < idx.size(); f += size_t(sg.width)) {
            std::vector<int> seen(size_t((hi + 1) * eb / sg.burst_bytes + 2), 0);
            std::vector<bool> elem(size_t(hi + 1), false);
            for (size_t j = f; j < std::min(idx.size(), f + size_t(sg.width)); ++j)
                elem[size_t(idx[j])] = true;
            for (int64_t e = 0; e <= hi; ++e)
                if (elem[size_t(e)]) seen[size_t(e * eb / sg.burst_bytes)] += int(eb);
            for (int s : seen) partial += s > 0 && s < sg.burst_bytes;
        }
        EXPECT_EQ(r.partial_bursts, partial) << t;
    }
    EXPECT_THROW(scatter(ScatterGather{}, {}), ll::UsageError);
    EXPECT_THROW(scatter(ScatterGather{}, {-1}), ll::UsageError);
}

TEST(Scatter, PlanShowsWinnersPartialBurstsAndConflicts) {
    ScatterGather sg;
    sg.width = 4;
    sg.burst_bytes = 16;  // 4 fp32 elements per burst row
    const ScatterReport r = scatter(sg, {0, 1, 2, 3, 8, 8});
    const ll::Plan p = scatter_plan(r, sg);
    ASSERT_EQ(p.stages.size(), 2u);
    EXPECT_EQ(p.stages[1].shape, (ll::Shape{3, 1, 4}));
    const std::vector<int64_t> a = p.offsets(0), b = p.offsets(1);
    EXPECT_EQ(a, (std::vector<int64_t>{0, 1, 2, 3, 4, 5}));
    EXPECT_EQ(b, (std::vector<int64_t>{0, 1, 2, 3, -1, 8}));  // element 4 overwritten
    std::vector<std::string> labels;
    for (const ll::Box& x : p.stages[1].boxes)
        if (!x.label.empty()) labels.push_back(x.label);
    // Request 0 fills burst 0 whole; request 1 writes 4 of burst 2's 16 bytes.
    EXPECT_EQ(labels, (std::vector<std::string>{"partial: request 1", "conflict"}));
    // Every burst row starts with its address (issue 13: labels on every grid).
    std::vector<std::string> addresses;
    for (const ll::Label& l : p.stages[1].labels)
        if (l.kind == ll::Label::address) addresses.push_back(l.text);
    EXPECT_EQ(addresses, (std::vector<std::string>{"0x0", "0x10", "0x20"}));
}
