// Edits of an operator graph (the planning panel's buttons, and anything
// else that changes a graph): each one checks its arguments, applies the
// change to a copy, validates the result (names, input counts, cycles,
// topological order: graph.hpp) and only then replaces the graph, so a
// failed edit leaves the graph as it was.
//
// Examples on x -> conv1 -> relu -> conv2:
//   insert_after(g, "conv1", ReLU "relu1")  x -> conv1 -> relu1 -> relu -> conv2
//   add_consumer(g, "relu", Conv "conv3")   relu feeds conv2 and conv3
//   remove_node(g, "relu")                  x -> conv1 -> conv2
#pragma once

#include <string>

#include "core/netplan/graph.hpp"

namespace ll::netplan {

// `base` followed by the smallest number >= 1 that no node uses ("relu1").
std::string unique_name(const Graph& g, const std::string& base);

// Puts `node` between `after` and all of its users: node reads `after` (its
// own inputs are replaced) and every input that named `after` names node.
// Throws UsageError for an unknown `after`, an empty or taken name, or a
// graph that no longer validates.
void insert_after(Graph& g, const std::string& after, Node node);

// Adds `node` as one more user of `of`; the other users keep reading `of`.
void add_consumer(Graph& g, const std::string& of, Node node);

// Removes node `name`; its users read its first input instead. Sources
// (Input, Weight) have nothing to reconnect to and are UsageErrors, as is an
// unknown name.
void remove_node(Graph& g, const std::string& name);

}  // namespace ll::netplan
