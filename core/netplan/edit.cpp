#include "core/netplan/edit.hpp"

#include "core/error.hpp"

namespace ll::netplan {

namespace {

const Node& find(const Graph& g, const std::string& name, const char* what) {
    const int i = g.index_of(name);
    if (i < 0)
        throw UsageError(std::string(what) + ": no node named '" + name +
                         "'; expected one of the graph's nodes");
    return g.nodes[size_t(i)];
}

void check_new_name(const Graph& g, const Node& n) {
    if (n.name.empty()) throw UsageError("new node: empty name; expected a name");
    if (g.index_of(n.name) >= 0)
        throw UsageError("new node: the name '" + n.name + "' is taken; expected a new name (" +
                         unique_name(g, n.name) + " is free)");
}

// Validates the edited copy, then takes it.
void commit(Graph& g, Graph edited) {
    validate(edited);
    g = std::move(edited);
}

}  // namespace

std::string unique_name(const Graph& g, const std::string& base) {
    for (int k = 1;; ++k) {
        std::string s = base + std::to_string(k);
        if (g.index_of(s) < 0) return s;
    }
}

void insert_after(Graph& g, const std::string& after, Node node) {
    (void)find(g, after, "insert after");
    check_new_name(g, node);
    Graph e = g;
    for (Node& u : e.nodes)
        for (std::string& in : u.inputs)
            if (in == after) in = node.name;
    node.inputs = {after};
    e.nodes.push_back(std::move(node));
    commit(g, std::move(e));
}

void add_consumer(Graph& g, const std::string& of, Node node) {
    (void)find(g, of, "add consumer");
    check_new_name(g, node);
    Graph e = g;
    node.inputs = {of};
    e.nodes.push_back(std::move(node));
    commit(g, std::move(e));
}

void remove_node(Graph& g, const std::string& name) {
    const Node& n = find(g, name, "remove");
    if (n.inputs.empty())
        throw UsageError("remove: '" + name + "' is a " + op_name(n.op) +
                         " with no input to reconnect its users to; expected an operator node");
    const std::string feed = n.inputs[0];
    Graph e = g;
    e.nodes.erase(e.nodes.begin() + g.index_of(name));
    for (Node& u : e.nodes)
        for (std::string& in : u.inputs)
            if (in == name) in = feed;
    commit(g, std::move(e));
}

}  // namespace ll::netplan
