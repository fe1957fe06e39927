// Built-in example graphs (the same as assets/graphs/*.json).
//
// Contract: example_graph("conv-relu-conv") is the end-to-end scene of
// section 16: x(1,64,56,56, NCHW) -> conv1(NCHW) -> relu -> conv2(expects
// NHWC); "conv-chain" adds conv2 -> relu2 -> conv3 (NHWC) where one
// write-time decision settles both mismatches. Unknown names throw UsageError listing
// example_names().
#pragma once

#include <string>
#include <vector>

#include "core/netplan/graph.hpp"

namespace ll::netplan {

std::vector<std::string> example_names();
Graph example_graph(const std::string& name);

}  // namespace ll::netplan
