// Distributed transpose on a 2D mesh (section 14.4): conservation of bytes,
// every element lands on its transposed owner, routes are XY and minimal.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "core/error.hpp"
#include "core/netplan/noc.hpp"

using namespace ll::netplan;

namespace {

struct Case {
    int64_t rows, cols, pes, mesh_cols;
};

const Case kCases[] = {{8, 8, 4, 0}, {8, 8, 4, 4},    {7, 13, 6, 0},  {16, 4, 8, 2},
                       {3, 5, 9, 3}, {32, 32, 16, 0}, {10, 10, 1, 0}, {12, 9, 5, 0}};

}  // namespace

TEST(Noc, BytesAreConserved) {
    for (const Case& k : kCases) {
        NocConfig c;
        c.rows = k.rows;
        c.cols = k.cols;
        c.pes = k.pes;
        c.mesh_cols = k.mesh_cols;
        NocPlan p = plan_distributed_transpose(c);
        int64_t sent = 0, recv = 0, by_blocks = 0, link_from_blocks = 0;
        for (size_t i = 0; i < p.sent.size(); ++i) {
            sent += p.sent[i];
            recv += p.received[i];
        }
        for (const auto& b : p.blocks) {
            by_blocks += b.bytes;
            if (b.src_pe != b.dst_pe) link_from_blocks += b.bytes * b.hops();
        }
        EXPECT_EQ(sent, recv);
        EXPECT_EQ(sent, p.network_bytes);
        EXPECT_EQ(by_blocks, k.rows * k.cols * c.elem_bytes);
        EXPECT_EQ(p.network_bytes + p.local_bytes, by_blocks);
        EXPECT_EQ(p.link_bytes_total, link_from_blocks);
        int64_t max_link = 0;
        for (const auto& [l, b] : p.link_bytes) max_link = std::max(max_link, b);
        EXPECT_EQ(max_link, p.max_link_bytes);
    }
}

TEST(Noc, EveryElementLandsOnItsTransposedOwner) {
    for (const Case& k : kCases) {
        NocConfig c;
        c.rows = k.rows;
        c.cols = k.cols;
        c.pes = k.pes;
        c.mesh_cols = k.mesh_cols;
        NocPlan p = plan_distributed_transpose(c);
        for (int64_t i = 0; i < k.rows; ++i)
            for (int64_t j = 0; j < k.cols; ++j) {
                int found = 0;
                for (const auto& b : p.blocks)
                    if (i >= b.row0 && i < b.row1 && j >= b.col0 && j < b.col1) {
                        ++found;
                        // Before: the PE owning row i; after: the PE owning row j
                        // of the (cols x rows) transpose.
                        EXPECT_EQ(b.src_pe, block_owner(i, k.rows, k.pes));
                        EXPECT_EQ(b.dst_pe, block_owner(j, k.cols, k.pes));
                        EXPECT_GE(j, block_start(b.dst_pe, k.cols, k.pes));
                        EXPECT_LT(j, block_start(b.dst_pe + 1, k.cols, k.pes));
                    }
                EXPECT_EQ(found, 1) << i << "," << j;
            }
    }
}

TEST(Noc, RoutesAreXyAndMinimal) {
    NocConfig c;
    c.rows = c.cols = 24;
    c.pes = 12;  // 3 x 4 mesh
    NocPlan p = plan_distributed_transpose(c);
    EXPECT_EQ(p.mesh_rows * p.mesh_cols, 12);
    for (const auto& b : p.blocks) {
        auto [x0, y0] = mesh_xy(b.src_pe, p.mesh_cols);
        auto [x1, y1] = mesh_xy(b.dst_pe, p.mesh_cols);
        EXPECT_EQ(b.hops(), std::llabs(x1 - x0) + std::llabs(y1 - y0));
        bool turned = false;
        for (size_t k = 0; k + 1 < b.route.size(); ++k) {
            auto [ax, ay] = mesh_xy(b.route[k], p.mesh_cols);
            auto [bx, by] = mesh_xy(b.route[k + 1], p.mesh_cols);
            EXPECT_EQ(std::llabs(ax - bx) + std::llabs(ay - by), 1);
            if (ay != by) turned = true;
            if (turned) {
                EXPECT_EQ(ax, bx) << "moved in x after y";
            }
        }
    }
}

TEST(Noc, WorkedExampleFromTheHeader) {
    NocConfig c;  // 8x8, 4 PEs, 2x2 mesh, 4-byte elements
    NocPlan p = plan_distributed_transpose(c);
    EXPECT_EQ(p.mesh_cols, 2);
    EXPECT_EQ(p.network_bytes, 12 * 16);
    EXPECT_EQ(p.local_bytes, 4 * 16);
    EXPECT_EQ(p.link_bytes.size(), 8u);
    for (const auto& [l, b] : p.link_bytes) EXPECT_EQ(b, p.max_link_bytes);
}

TEST(Noc, RejectsBadConfigs) {
    NocConfig c;
    c.pes = 0;
    EXPECT_THROW(plan_distributed_transpose(c), ll::UsageError);
    c.pes = 6;
    c.mesh_cols = 4;
    EXPECT_THROW(plan_distributed_transpose(c), ll::UsageError);
}

// The planning panel's animation runs until the longest route has arrived:
// on a 3 x 4 mesh, corner to corner is 2 + 3 = 5 hops.
TEST(Noc, MaxHopsIsTheLongestRoute) {
    NocConfig c;
    c.rows = c.cols = 24;
    c.pes = 12;
    const NocPlan p = plan_distributed_transpose(c);
    int64_t longest = 0;
    for (const auto& b : p.blocks) longest = std::max(longest, b.hops());
    EXPECT_EQ(p.max_hops, longest);
    EXPECT_EQ(p.max_hops, (p.mesh_rows - 1) + (p.mesh_cols - 1));
    c.pes = 1;  // one PE: nothing travels
    EXPECT_EQ(plan_distributed_transpose(c).max_hops, 0);
}
