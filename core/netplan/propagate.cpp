#include "core/netplan/propagate.hpp"

#include <string_view>
#include <unordered_map>

#include "core/checked.hpp"
#include "core/error.hpp"

namespace ll::netplan {

namespace {

std::string where(const Node& n) {
    return "node '" + n.name + "'";
}

Order parse_or(const nlohmann::json& j, const Order& fallback, size_t rank,
               const std::string& what) {
    if (j.is_null()) return fallback;
    return order_from_json(j, rank, what);
}

void require_rank(const Node& n, const Shape& s, size_t rank, const std::string& input) {
    if (s.size() != rank)
        throw UsageError(where(n) + " (" + op_name(n.op) + "): input '" + input + "' has rank " +
                         std::to_string(s.size()) + " " + to_string(s) + "; expected rank " +
                         std::to_string(rank) + " (rank mismatch)");
}

}  // namespace

Propagation propagate(const Graph& g, const Decisions& decided) {
    Propagation p;
    p.nodes.resize(g.nodes.size());
    // Name -> index once (a lookup per edge would make long chains quadratic),
    // and each node's origin: the op that set its layout, through
    // elementwise ops (a walk per edge would make them cubic).
    std::unordered_map<std::string_view, int> index;
    index.reserve(g.nodes.size());
    for (size_t i = 0; i < g.nodes.size(); ++i) index.emplace(g.nodes[i].name, int(i));
    std::vector<int> origin(g.nodes.size());
    for (size_t i = 0; i < g.nodes.size(); ++i) {
        const Node& n = g.nodes[i];
        NodeLayout& out = p.nodes[i];
        std::vector<const NodeLayout*> in;
        std::vector<int> in_idx;
        for (const auto& name : n.inputs) {
            const auto found = index.find(name);
            const int k = found == index.end() ? -1 : found->second;
            if (k < 0 || size_t(k) >= i)
                throw UsageError(where(n) + ": input '" + name +
                                 "' is not defined before it; expected a validated graph");
            in.push_back(&p.nodes[size_t(k)]);
            in_idx.push_back(k);
        }
        out.expected.assign(in.size(), std::nullopt);
        // What slot s is handed: the producer's stored layout unless a
        // transform on the edge delivers another.
        auto delivered = [&](size_t s) {
            auto it = decided.deliveries.find({int(i), int(s)});
            return it != decided.deliveries.end() ? it->second : in[s]->layout;
        };
        auto slot_layout = [&](size_t s, const Order& fallback) {
            const nlohmann::json& j =
                s < n.input_layouts.size() ? n.input_layouts[s] : nlohmann::json();
            return parse_or(j, fallback, in[s]->shape.size(),
                            where(n) + " input_layouts[" + std::to_string(s) + "]");
        };
        if (!n.shape.empty() && n.op != OpKind::Input && n.op != OpKind::Weight &&
            n.op != OpKind::Reshape && n.op != OpKind::Conv && n.op != OpKind::Pool)
            throw UsageError(where(n) + " (" + op_name(n.op) +
                             "): the output shape is inferred; expected no \"shape\"");
        switch (n.op) {
            case OpKind::Input:
            case OpKind::Weight:
                out.shape = n.shape;
                out.layout = parse_or(n.layout, identity_order(n.shape.size()), n.shape.size(),
                                      where(n) + " layout");
                out.rule = n.op == OpKind::Weight ? "constant (stated layout)" : "stated layout";
                break;
            case OpKind::Conv:
            case OpKind::Pool: {
                require_rank(n, in[0]->shape, 4, n.inputs[0]);
                out.shape = n.shape.empty() ? in[0]->shape : n.shape;
                if (out.shape.size() != 4)
                    throw UsageError(where(n) + ": output shape " + to_string(out.shape) +
                                     " has rank " + std::to_string(out.shape.size()) +
                                     "; expected rank 4 (rank mismatch)");
                if (out.shape[0] != in[0]->shape[0])
                    throw UsageError(where(n) + ": output batch " + std::to_string(out.shape[0]) +
                                     " differs from input batch " +
                                     std::to_string(in[0]->shape[0]) + "; expected equal N");
                Order stated = parse_or(n.layout, identity_order(4), 4, where(n) + " layout");
                out.expected[0] = slot_layout(0, stated);
                // Conv keeps the spatial layout it reads in (section 6.2).
                out.layout = n.layout.is_null() ? delivered(0) : stated;
                if (in.size() > 1) {
                    require_rank(n, in[1]->shape, 4, n.inputs[1]);
                    out.expected[1] = slot_layout(1, identity_order(4));
                }
                out.rule = "conv/pool: keeps the spatial layout it reads";
                break;
            }
            case OpKind::MatMul: {
                const Shape& a = in[0]->shape;
                const Shape& b = in[1]->shape;
                if (a.size() < 2 || a.size() != b.size())
                    throw UsageError(where(n) + " (MatMul): operand ranks " +
                                     std::to_string(a.size()) + " and " + std::to_string(b.size()) +
                                     "; expected equal ranks >= 2 (rank mismatch)");
                size_t r = a.size();
                if (a[r - 1] != b[r - 2])
                    throw UsageError(where(n) + " (MatMul): K of " + to_string(a) +
                                     " differs from K of " + to_string(b) +
                                     "; expected [..,M,K] x [..,K,N]");
                out.shape = a;
                out.shape[r - 1] = b[r - 1];
                out.expected[0] = slot_layout(0, identity_order(r));
                out.expected[1] = slot_layout(1, identity_order(r));
                out.layout = parse_or(n.layout, identity_order(r), r, where(n) + " layout");
                out.rule = "matmul: stated operand layouts";
                break;
            }
            case OpKind::ReLU:
            case OpKind::Add:
            case OpKind::Mul: {
                out.shape = in[0]->shape;
                for (size_t s = 1; s < in.size(); ++s) {
                    require_rank(n, in[s]->shape, out.shape.size(), n.inputs[s]);
                    if (in[s]->shape != out.shape)
                        throw UsageError(where(n) + ": input '" + n.inputs[s] + "' has shape " +
                                         to_string(in[s]->shape) + "; expected " +
                                         to_string(out.shape) + " like '" + n.inputs[0] + "'");
                }
                if (n.layout.is_null()) {
                    out.layout = in[0]->layout;  // identity propagation
                    for (size_t s = 1; s < in.size(); ++s) out.expected[s] = out.layout;
                } else {
                    out.layout = order_from_json(n.layout, out.shape.size(), where(n) + " layout");
                    for (size_t s = 0; s < in.size(); ++s) out.expected[s] = out.layout;
                }
                for (size_t s = 0; s < in.size(); ++s)
                    if (s < n.input_layouts.size() && !n.input_layouts[s].is_null())
                        out.expected[s] = slot_layout(s, out.layout);
                out.rule = "elementwise: identity";
                break;
            }
            case OpKind::Transpose: {
                const Shape& s = in[0]->shape;
                Order perm = n.perm;
                if (perm.size() != s.size() || !is_permutation(perm))
                    throw UsageError(where(n) + " (Transpose): perm " + tuple_string(perm) +
                                     " does not fit input rank " + std::to_string(s.size()) +
                                     "; expected a permutation of 0.." +
                                     std::to_string(int64_t(s.size()) - 1) + " (rank mismatch)");
                Order inv(perm.size());
                for (size_t k = 0; k < perm.size(); ++k) inv[size_t(perm[k])] = int64_t(k);
                out.shape.resize(s.size());
                for (size_t k = 0; k < perm.size(); ++k) out.shape[k] = s[size_t(perm[k])];
                out.layout.resize(s.size());
                for (size_t k = 0; k < s.size(); ++k) out.layout[k] = inv[size_t(in[0]->layout[k])];
                out.rule = "transpose: storage order renamed through the permutation";
                break;
            }
            case OpKind::Reshape: {
                if (numel(n.shape) != numel(in[0]->shape))
                    throw UsageError(where(n) + " (Reshape): " + to_string(in[0]->shape) + " has " +
                                     std::to_string(numel(in[0]->shape)) + " elements, shape " +
                                     to_string(n.shape) + " has " + std::to_string(numel(n.shape)) +
                                     "; expected equal counts");
                out.shape = n.shape;
                out.expected[0] = identity_order(in[0]->shape.size());
                out.layout = identity_order(n.shape.size());
                out.rule = "reshape: needs a contiguous input";
                break;
            }
            case OpKind::Concat: {
                out.shape = in[0]->shape;
                int64_t r = int64_t(out.shape.size());
                if (n.axis < 0 || n.axis >= r)
                    throw UsageError(where(n) + " (Concat): axis " + std::to_string(n.axis) +
                                     " out of range; expected 0.." + std::to_string(r - 1));
                for (size_t s = 1; s < in.size(); ++s) {
                    require_rank(n, in[s]->shape, size_t(r), n.inputs[s]);
                    for (int64_t d = 0; d < r; ++d)
                        if (d != n.axis && in[s]->shape[size_t(d)] != out.shape[size_t(d)])
                            throw UsageError(where(n) + " (Concat): input '" + n.inputs[s] +
                                             "' shape " + to_string(in[s]->shape) +
                                             " differs off the axis; expected equal dims");
                    out.shape[size_t(n.axis)] = checked_add(
                        out.shape[size_t(n.axis)], in[s]->shape[size_t(n.axis)],
                        where(n) + " (Concat): the dimension along the axis", kMaxElements);
                }
                out.layout = parse_or(n.layout, in[0]->layout, size_t(r), where(n) + " layout");
                for (size_t s = 0; s < in.size(); ++s)
                    if (s > 0 || !n.layout.is_null()) out.expected[s] = slot_layout(s, out.layout);
                out.rule = "concat: one layout for all inputs";
                break;
            }
        }
        try {
            (void)numel(out.shape);  // the element cap holds for every inferred shape
        } catch (const UsageError& e) {
            throw UsageError(where(n) + ": " + e.what());
        }
        origin[i] = is_elementwise(n.op) && !in_idx.empty() ? origin[size_t(in_idx[0])] : int(i);
        out.natural = out.layout;
        // Conv/Pool without a stated output layout loop in the order of the
        // input layout they ask for (not the one they happen to be handed).
        const Order& loops = (n.op == OpKind::Conv || n.op == OpKind::Pool) && n.layout.is_null()
                                 ? *out.expected[0]
                                 : out.layout;
        out.compute_order =
            parse_or(n.compute_order, loops, out.shape.size(), where(n) + " compute_order");
        if (auto w = decided.writes.find(int(i)); w != decided.writes.end()) {
            if (w->second.size() != out.shape.size() || !is_permutation(w->second))
                throw UsageError(where(n) + ": a write-time layout " + tuple_string(w->second) +
                                 " does not fit rank " + std::to_string(out.shape.size()));
            out.layout = w->second;
            if (out.layout != out.natural)
                out.rule += "; stored " + order_name(out.layout) + " by a write-time decision";
        }
        for (size_t s = 0; s < in.size(); ++s) {
            Edge e;
            e.producer = in_idx[s];
            e.consumer = int(i);
            e.slot = int(s);
            e.shape = in[s]->shape;
            e.produced = in[s]->layout;
            e.expected = out.expected[s];
            e.delivered = delivered(s);
            // Walk back through elementwise chains to the op that set the layout.
            e.origin = g.nodes[size_t(origin[size_t(in_idx[s])])].name;
            if (e.mismatch()) p.mismatches.push_back(p.edges.size());
            p.edges.push_back(std::move(e));
        }
    }
    return p;
}

}  // namespace ll::netplan
