#include "core/netplan/graph.hpp"

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "core/checked.hpp"
#include "core/error.hpp"
#include "core/io/input_file.hpp"
#include "core/io/json_input.hpp"

namespace ll::netplan {

namespace {

struct OpInfo {
    OpKind kind;
    const char* name;
    int min_inputs;
    int max_inputs;  // -1 = unbounded
};

const OpInfo kOps[] = {
    {OpKind::Input, "Input", 0, 0},
    {OpKind::Weight, "Weight", 0, 0},
    {OpKind::Conv, "Conv", 1, 2},
    {OpKind::MatMul, "MatMul", 2, 2},
    {OpKind::Pool, "Pool", 1, 1},
    {OpKind::ReLU, "ReLU", 1, 1},
    {OpKind::Add, "Add", 2, -1},
    {OpKind::Mul, "Mul", 2, -1},
    {OpKind::Transpose, "Transpose", 1, 1},
    {OpKind::Reshape, "Reshape", 1, 1},
    {OpKind::Concat, "Concat", 1, -1},
};

const OpInfo& info(OpKind k) {
    for (const auto& o : kOps)
        if (o.kind == k) return o;
    return kOps[0];
}

std::string node_ref(const std::string& name) {
    return "node '" + name + "'";
}

Shape shape_from_json(const nlohmann::json& j, const std::string& what) {
    if (!j.is_array() || j.empty())
        throw UsageError(what + ": shape must be a non-empty list of positive integers");
    check_rank(j.size(), what + ": shape");
    Shape s;
    for (const auto& e : j) {
        if (!e.is_number_integer())
            throw UsageError(what + ": shape entries must be positive integers; got " +
                             e.dump().substr(0, 40));
        s.push_back(json_int(e, what + ": shape entry", 1, kMaxElements));
    }
    try {
        numel(s);  // overflow check
    } catch (const UsageError& e) {
        throw UsageError(what + ": " + e.what());
    }
    return s;
}

}  // namespace

const char* op_name(OpKind k) {
    return info(k).name;
}

std::string op_names() {
    std::string s;
    for (const auto& o : kOps) s += (s.empty() ? "" : ", ") + std::string(o.name);
    return s;
}

OpKind op_from_name(const std::string& op, const std::string& node) {
    for (const auto& o : kOps)
        if (op == o.name) return o.kind;
    throw UsageError(node_ref(node) + ": unknown op '" + op + "'; expected one of " + op_names());
}

bool is_layout_sensitive(OpKind k) {
    return k == OpKind::Conv || k == OpKind::MatMul || k == OpKind::Pool;
}
bool is_elementwise(OpKind k) {
    return k == OpKind::ReLU || k == OpKind::Add || k == OpKind::Mul;
}

int Graph::index_of(const std::string& node) const {
    for (size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].name == node) return int(i);
    return -1;
}

void validate(Graph& g) {
    std::map<std::string, size_t> index;
    for (size_t i = 0; i < g.nodes.size(); ++i) {
        const Node& n = g.nodes[i];
        if (n.name.empty())
            throw UsageError("node #" + std::to_string(i) + " has no name; expected a unique name");
        if (!index.emplace(n.name, i).second)
            throw UsageError(node_ref(n.name) + " is defined twice; expected unique node names");
    }
    for (const Node& n : g.nodes) {
        const OpInfo& oi = info(n.op);
        int k = int(n.inputs.size());
        if (k < oi.min_inputs || (oi.max_inputs >= 0 && k > oi.max_inputs)) {
            std::string want =
                oi.max_inputs < 0 ? "at least " + std::to_string(oi.min_inputs)
                : oi.min_inputs == oi.max_inputs
                    ? std::to_string(oi.min_inputs)
                    : std::to_string(oi.min_inputs) + " to " + std::to_string(oi.max_inputs);
            throw UsageError(node_ref(n.name) + " (" + oi.name + ") has " + std::to_string(k) +
                             " inputs; expected " + want);
        }
        for (const auto& in : n.inputs)
            if (!index.count(in))
                throw UsageError(node_ref(n.name) + ": input '" + in +
                                 "' is not a node of the graph (dangling edge); expected one of "
                                 "the node names");
        if ((n.op == OpKind::Input || n.op == OpKind::Weight || n.op == OpKind::Reshape) &&
            n.shape.empty())
            throw UsageError(node_ref(n.name) + " (" + oi.name +
                             ") has no shape; expected \"shape\": [..]");
        if (n.op == OpKind::Transpose && n.perm.empty())
            throw UsageError(node_ref(n.name) +
                             " (Transpose) has no perm; expected \"perm\": [..]");
    }
    // Kahn's algorithm, always taking the earliest ready node in file order.
    std::vector<int> pending(g.nodes.size(), 0);
    std::vector<std::vector<size_t>> users(g.nodes.size());
    for (size_t i = 0; i < g.nodes.size(); ++i)
        for (const auto& in : g.nodes[i].inputs) {
            ++pending[i];
            users[index[in]].push_back(i);
        }
    std::set<size_t> ready;
    for (size_t i = 0; i < g.nodes.size(); ++i)
        if (pending[i] == 0) ready.insert(i);
    std::vector<Node> sorted;
    std::vector<bool> done(g.nodes.size(), false);
    while (!ready.empty()) {
        size_t i = *ready.begin();
        ready.erase(ready.begin());
        done[i] = true;
        sorted.push_back(g.nodes[i]);
        for (size_t u : users[i])
            if (--pending[u] == 0) ready.insert(u);
    }
    if (sorted.size() != g.nodes.size()) {
        for (size_t i = 0; i < g.nodes.size(); ++i)
            if (!done[i])
                throw UsageError(node_ref(g.nodes[i].name) +
                                 " is part of a cycle; expected an acyclic graph");
    }
    g.nodes = std::move(sorted);
}

Graph parse_graph(const nlohmann::json& j) {
    if (!j.is_object() || !j.contains("nodes") || !j["nodes"].is_array())
        throw UsageError("graph: expected an object with a \"nodes\" list");
    if (j["nodes"].size() > size_t(kMaxGraphNodes))
        throw UsageError("graph: " + std::to_string(j["nodes"].size()) +
                         " nodes, over the limit of " + std::to_string(kMaxGraphNodes) +
                         "; expected a smaller graph");
    Graph g;
    if (j.contains("name") && j["name"].is_string()) g.name = j["name"].get<std::string>();
    size_t i = 0;
    for (const auto& jn : j["nodes"]) {
        std::string label = "node #" + std::to_string(i++);
        if (!jn.is_object()) throw UsageError(label + ": expected an object");
        Node n;
        if (!jn.contains("name") || !jn["name"].is_string())
            throw UsageError(label + " has no \"name\"; expected a string name");
        n.name = jn["name"].get<std::string>();
        std::string where = node_ref(n.name);
        if (!jn.contains("op") || !jn["op"].is_string())
            throw UsageError(where + " has no \"op\"; expected one of " + op_names());
        n.op = op_from_name(jn["op"].get<std::string>(), n.name);
        if (jn.contains("inputs")) {
            if (!jn["inputs"].is_array())
                throw UsageError(where + ": \"inputs\" must be a list of node names");
            for (const auto& e : jn["inputs"]) {
                if (!e.is_string())
                    throw UsageError(where + ": \"inputs\" must be a list of node names");
                n.inputs.push_back(e.get<std::string>());
            }
        }
        if (jn.contains("shape")) n.shape = shape_from_json(jn["shape"], where);
        if (jn.contains("layout")) n.layout = jn["layout"];
        if (jn.contains("compute_order")) n.compute_order = jn["compute_order"];
        if (jn.contains("input_layouts")) {
            if (!jn["input_layouts"].is_array())
                throw UsageError(where + ": \"input_layouts\" must be a list (one per input)");
            for (const auto& e : jn["input_layouts"]) n.input_layouts.push_back(e);
            if (n.input_layouts.size() > n.inputs.size())
                throw UsageError(where + ": " + std::to_string(n.input_layouts.size()) +
                                 " input_layouts for " + std::to_string(n.inputs.size()) +
                                 " inputs; expected at most one per input");
        }
        if (jn.contains("perm")) {
            if (!jn["perm"].is_array()) throw UsageError(where + ": \"perm\" must be a list");
            check_rank(jn["perm"].size(), where + ": \"perm\"");
            for (const auto& e : jn["perm"]) {
                if (!e.is_number_integer())
                    throw UsageError(where + ": \"perm\" entries must be integers");
                n.perm.push_back(
                    json_int(e, where + ": \"perm\" entry", -int64_t(kMaxRank), int64_t(kMaxRank)));
            }
        }
        if (jn.contains("axis")) {
            if (!jn["axis"].is_number_integer())
                throw UsageError(where + ": \"axis\" must be an integer");
            n.axis =
                json_int(jn["axis"], where + ": \"axis\"", -int64_t(kMaxRank), int64_t(kMaxRank));
        }
        g.nodes.push_back(std::move(n));
    }
    validate(g);
    return g;
}

Graph parse_graph_text(const std::string& text) {
    return parse_graph(parse_json_bounded(text, "graph"));
}

Graph load_graph_file(const std::string& path) {
    // Every error about the file is about the parameter that names it.
    try {
        return parse_graph(
            parse_json_bounded(read_input_file(path, "", kMaxJsonFileBytes), "'" + path + "'"));
    } catch (const UsageError& e) {
        if (!e.key().empty()) throw;
        throw UsageError("graph", e.what());
    }
}

nlohmann::json graph_to_json(const Graph& g) {
    nlohmann::json j;
    j["name"] = g.name;
    j["nodes"] = nlohmann::json::array();
    for (const Node& n : g.nodes) {
        nlohmann::json jn;
        jn["name"] = n.name;
        jn["op"] = op_name(n.op);
        if (!n.inputs.empty()) jn["inputs"] = n.inputs;
        if (!n.shape.empty()) jn["shape"] = n.shape;
        if (!n.layout.is_null()) jn["layout"] = n.layout;
        if (!n.input_layouts.empty()) jn["input_layouts"] = n.input_layouts;
        if (!n.compute_order.is_null()) jn["compute_order"] = n.compute_order;
        if (!n.perm.empty()) jn["perm"] = n.perm;
        if (n.op == OpKind::Concat) jn["axis"] = n.axis;
        j["nodes"].push_back(jn);
    }
    return j;
}

}  // namespace ll::netplan
