// A distributed transpose over processing elements (PEs) on a 2D-mesh
// network-on-chip (section 14.4 of the layout-transformation document).
//
// A (R x C) matrix is split by rows over P PEs: PE p owns rows
// [p*R/P, (p+1)*R/P). After the transpose the (C x R) result is split the
// same way, so PE q owns original columns [q*C/P, (q+1)*C/P). Block (p, q)
// (rows of p, columns of q) therefore travels from PE p to PE q: an
// all-to-all exchange; the diagonal blocks stay local. Messages follow XY
// routing (along x to the destination column, then along y); PE id i sits
// at x = i % cols, y = i / cols.
//
// Contract: sum of bytes sent == sum of bytes received == R*C*elem - local
// bytes; element (i, j) ends on the PE that owns row j of the result.
// Worked example: R = C = 8, P = 4 on a 2x2 mesh, 4-byte elements: each block
// is 2x2 = 16 B; 12 blocks travel (192 B), 4 stay local; PE 0 -> PE 3 takes
// links 0->1 and 1->3 (2 hops); every link carries 32 B, the max link load.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

#include "core/shape.hpp"

namespace ll::netplan {

struct NocConfig {
    int64_t rows = 8, cols = 8;  // the matrix
    int64_t pes = 4;
    int64_t mesh_cols = 0;  // 0 = most square factorisation of pes
    int64_t elem_bytes = 4;
    double link_gbps = 32;  // per direction per link
    // Work budget: PE pairs x route length, refused above this before any
    // block is built (the plan keeps every route).
    int64_t max_steps = 20'000'000;
};

struct NocBlock {
    int64_t src_pe = 0, dst_pe = 0;
    int64_t row0 = 0, row1 = 0, col0 = 0, col1 = 0;  // half-open, original matrix
    int64_t bytes = 0;
    std::vector<int64_t> route;  // PEs visited, src first, dst last
    int64_t hops() const { return int64_t(route.size()) - 1; }
};

struct NocPlan {
    NocConfig config;
    int64_t mesh_rows = 1, mesh_cols = 1;
    std::vector<NocBlock> blocks;  // every (p, q) pair with a non-empty block
    std::map<std::pair<int64_t, int64_t>, int64_t> link_bytes;  // directed link -> bytes
    std::vector<int64_t> sent, received;                        // per PE, network bytes only
    int64_t local_bytes = 0, network_bytes = 0, link_bytes_total = 0, max_link_bytes = 0;
    int64_t max_hops = 0;  // the longest route: when the last block arrives, in hops
    double time_us = 0;    // max link load / link bandwidth
};

// Owner of index i when n items are split over parts (balanced, in order).
int64_t block_owner(int64_t i, int64_t n, int64_t parts);
int64_t block_start(int64_t part, int64_t n, int64_t parts);
std::pair<int64_t, int64_t> mesh_xy(int64_t pe, int64_t mesh_cols);

// Throws UsageError for non-positive sizes or a mesh that does not fit.
NocPlan plan_distributed_transpose(const NocConfig& c);
nlohmann::json noc_to_json(const NocPlan& p);

}  // namespace ll::netplan
