// libFuzzer target: the operator-graph reader (bounded JSON parse, node
// checks, topological sort) and the shape/layout propagation that follows it
// in `layoutlab plan`. Any input must give a graph or a UsageError.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.hpp"
#include "core/netplan/graph.hpp"
#include "core/netplan/propagate.hpp"
#include "core/netplan/strategy.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        ll::netplan::Graph g = ll::netplan::parse_graph_text(text);
        ll::netplan::propagate(g);
        if (g.nodes.size() <= 64) ll::netplan::plan_network(g, ll::netplan::MemoryModel{}, {});
        ll::netplan::parse_graph(ll::netplan::graph_to_json(g));  // round trip
    } catch (const ll::UsageError&) {
    }
    return 0;
}
