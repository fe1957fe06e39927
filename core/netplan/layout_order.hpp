// Dimension-order layouts for the network planner: a layout is the order in
// which the logical dims of a dense tensor are stored, outermost first
// (section 7.1 "way 2" of the layout-transformation document).
//
// Contract: order[k] is the logical dim stored at memory position k; the
// logical strides are those of a packed tensor stored in that order.
//   order_from_name("NHWC", 4) == {0,2,3,1}
//   order_strides({1,64,56,56}, {0,2,3,1}) == {200704, 1, 3584, 64}
//   order_name({0,2,3,1}) == "NHWC";  order_name({1,0}) == "(1,0)"
//
// (This is deliberately tiny: the general strided Layout lives in core/view;
// the planner only needs packed permutations of a shape.)
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/shape.hpp"

namespace ll::netplan {

using Order = std::vector<int64_t>;

Order identity_order(size_t rank);
bool is_permutation(const Order& o);

// Names: "ND" (identity, any rank); a permutation of "NCHW" (rank 4) or of
// "NCDHW" (rank 5), letters naming logical dims. Throws UsageError naming
// `what` when the name does not fit the rank.
Order order_from_name(const std::string& name, size_t rank, const std::string& what);
// A JSON string (a name) or an array of dims. Throws UsageError naming `what`.
Order order_from_json(const nlohmann::json& j, size_t rank, const std::string& what);
nlohmann::json order_to_json(const Order& o);  // name when one exists, else array

// "NHWC" for rank 4/5 permutations, "ND" for other identities, else "(1,0)".
std::string order_name(const Order& o);
// "(0, 2, 3, 1)" as the document prints tuples.
std::string tuple_string(const std::vector<int64_t>& v);

// Logical strides (elements) of `shape` stored packed in `order`.
std::vector<int64_t> order_strides(const Shape& shape, const Order& order);
// Element offset of a logical coordinate under given strides.
int64_t offset_of(const Coord& c, const std::vector<int64_t>& strides);

// The stride seen by a loop nest that runs the logical dims in `loop_order`
// (outermost first): the stride of the innermost loop dim whose size is > 1
// (size-1 dims do not move the address). 1 for a scalar-like shape.
int64_t innermost_stride(const Shape& shape, const Order& loop_order,
                         const std::vector<int64_t>& strides);

}  // namespace ll::netplan
