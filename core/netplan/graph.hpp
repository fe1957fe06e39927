// A small operator graph for layout planning (sections 6 and 12 of the
// layout-transformation document): named nodes, each one op with its input
// edges, shapes, preferred input layouts, output layout and compute order.
//
// Contract: parse_graph() accepts JSON of the form
//   {"name": "conv-relu-conv", "nodes": [
//      {"name": "x",     "op": "Input", "shape": [1,64,56,56], "layout": "NCHW"},
//      {"name": "conv1", "op": "Conv",  "inputs": ["x"], "layout": "NCHW"},
//      {"name": "relu",  "op": "ReLU",  "inputs": ["conv1"]},
//      {"name": "conv2", "op": "Conv",  "inputs": ["relu"],
//       "input_layouts": ["NHWC"], "layout": "NHWC", "compute_order": "NHWC"}]}
// and returns the nodes in topological order. It throws UsageError naming the
// node for an unknown op, a dangling input, a cycle, a wrong input count or a
// missing shape; rank and shape checks happen in propagate() (they need the
// upstream shapes). graph_to_json(parse_graph(j)) parses back to the same graph.
//
// Op kinds, and why they matter for layouts:
//   Conv, MatMul, Pool      reduce over some dims: layout-sensitive, they state
//                           the layout they want for each input (section 12.4)
//   ReLU, Add, Mul          elementwise: layout-transparent, pass layouts through
//   Transpose               zero-copy permutation of dims (perm)
//   Reshape                 needs a contiguous (row-major) input
//   Concat                  joins inputs along `axis`; all in one layout
//   Input, Weight           sources: activations (run time) and constants
//                           (weights, transformed offline, section 11)
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/netplan/layout_order.hpp"
#include "core/shape.hpp"

namespace ll::netplan {

enum class OpKind { Input, Weight, Conv, MatMul, Pool, ReLU, Add, Mul, Transpose, Reshape, Concat };

const char* op_name(OpKind k);
std::string op_names();  // "Input, Weight, Conv, ..." for messages
// Throws UsageError naming the node when the op is unknown.
OpKind op_from_name(const std::string& op, const std::string& node);
bool is_layout_sensitive(OpKind k);  // Conv, MatMul, Pool
bool is_elementwise(OpKind k);       // ReLU, Add, Mul

struct Node {
    std::string name;
    OpKind op = OpKind::Input;
    std::vector<std::string> inputs;
    Shape shape;  // output shape; empty = inferred
    // Layouts are kept as JSON until propagation knows each rank; empty = default.
    nlohmann::json layout;                      // output (and Conv/Pool input) layout
    std::vector<nlohmann::json> input_layouts;  // per input slot; null = default
    nlohmann::json compute_order;               // loop order, outermost first
    std::vector<int64_t> perm;                  // Transpose
    int64_t axis = 0;                           // Concat
};

struct Graph {
    std::string name;
    std::vector<Node> nodes;  // topological order after parse_graph/validate

    int index_of(const std::string& node) const;  // -1 when absent
};

// Checks names, ops, input counts, dangling edges and cycles; reorders the
// nodes topologically (stable: keeps the file order where it can).
void validate(Graph& g);
// Most nodes a graph may have: planning re-propagates the graph once per
// decision, so the work grows with nodes x mismatched edges.
constexpr int64_t kMaxGraphNodes = 20000;

Graph parse_graph(const nlohmann::json& j);
Graph parse_graph_text(const std::string& text);  // bad JSON -> UsageError
Graph load_graph_file(const std::string& path);
nlohmann::json graph_to_json(const Graph& g);

}  // namespace ll::netplan
