// Layout propagation through an operator graph (section 6 of the
// layout-transformation document), and the edges where a producer's layout
// differs from what its consumer expects.
//
// Rules (applied in topological order):
//   Input/Weight   the stated layout (default row-major, "ND")
//   ReLU/Add/Mul   identity: output layout = layout of input 0; further inputs
//                  are expected in that same layout
//   Transpose      permutation: output dim i is input dim perm[i]; the data do
//                  not move, so the storage order is renamed through perm^-1
//   Conv/Pool      expect input 0 in their stated layout and keep that spatial
//                  layout on the output (the channel count may change)
//   MatMul         expect both operands row-major unless stated
//   Reshape        needs a contiguous (row-major) input: any other layout is a
//                  mismatch; the output is row-major
//   Concat         all inputs in the layout of input 0 (or the stated one)
// Compute order defaults to the node's natural output layout (its loops run
// along its own storage order, whatever a write-time decision makes it store).
//
// Decisions feed back (Decisions below): a write-time decision makes a node
// store another layout, and everything downstream of it follows; a transform
// on an edge (DMA copy, standalone op, offline) hands the consumer the layout
// it asked for. Conv/Pool without a stated output layout keep the layout they
// are handed on input 0 (so a read-time transform leaves the source layout on
// their output, while a fused copy leaves the target layout).
//
// Worked example: x(NCHW) -> conv1 -> relu -> conv2(expects NHWC) gives
// relu.layout == NCHW and one mismatch on edge relu -> conv2 (slot 0):
// produced NCHW (0,1,2,3), expected NHWC (0,2,3,1), origin "conv1".
// Throws UsageError naming the node for rank or shape mismatches.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/netplan/graph.hpp"

namespace ll::netplan {

struct NodeLayout {
    Shape shape;                                 // output shape
    Order layout;                                // output storage order
    Order natural;                               // the order before a write-time decision
    Order compute_order;                         // loop order over the output's logical dims
    std::vector<std::optional<Order>> expected;  // per input slot; nullopt = any
    std::string rule;                            // which propagation rule produced the layout
};

struct Edge {
    int producer = -1;  // node indices into Graph::nodes
    int consumer = -1;
    int slot = 0;
    Shape shape;                    // the tensor carried
    Order produced;                 // layout the producer stores
    std::optional<Order> expected;  // layout the consumer wants (nullopt = any)
    Order delivered;                // layout the consumer is handed (after a transform)
    std::string origin;             // nearest upstream non-elementwise node
    bool mismatch() const { return expected && *expected != produced; }
};

// Layout decisions fed back into propagation.
struct Decisions {
    std::map<int, Order> writes;                      // node -> layout it stores
    std::map<std::pair<int, int>, Order> deliveries;  // (consumer, slot) -> layout handed over
};

struct Propagation {
    std::vector<NodeLayout> nodes;   // parallel to Graph::nodes
    std::vector<Edge> edges;         // consumer-major, slot order
    std::vector<size_t> mismatches;  // indices into edges
};

Propagation propagate(const Graph& g, const Decisions& decided = {});

}  // namespace ll::netplan
