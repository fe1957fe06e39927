// `layoutlab plan`: layout propagation through an operator graph and a
// decision (with costs) for every layout mismatch; the text follows the
// shape of the end-to-end printout of the layout-transformation document.
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/cli/command.hpp"
#include "app/cli/limits.hpp"
#include "core/error.hpp"
#include "core/netplan/examples.hpp"
#include "core/netplan/strategy.hpp"

namespace ll::cli {

namespace {

using namespace ll::netplan;

struct PlanOptions {
    std::string graph, example;
    bool json = false;
    MemoryModel model;
    bool no_dma = false;
    std::vector<std::string> picks;
};

std::string fixed(double v, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

std::string pad(const std::string& s, size_t w) {
    return s.size() >= w ? s + " " : s + std::string(w - s.size(), ' ');
}

std::string index_label(const Decision& d) {
    static const char* letters4 = "nchw";
    std::string s;
    for (size_t i = 0; i < d.example_index.size(); ++i) {
        if (i) s += ", ";
        if (d.example_index.size() == 4) s += std::string(1, letters4[i]) + "=";
        s += std::to_string(d.example_index[i]);
    }
    return d.example_index.size() == 4 ? s : "(" + s + ")";
}

void print_text(const Graph& g, const NetPlan& plan) {
    const Propagation& p = plan.propagation;
    const std::string rule(60, '=');
    std::cout << rule << "\nLayout planning: " << (g.name.empty() ? "graph" : g.name) << "\n"
              << rule << "\n\n--- propagated layouts (decisions applied) ---\n";
    for (size_t i = 0; i < g.nodes.size(); ++i) {
        std::cout << "  " << pad(g.nodes[i].name, 12) << pad(op_name(g.nodes[i].op), 10)
                  << pad(to_string(p.nodes[i].shape), 18) << pad(order_name(p.nodes[i].layout), 6)
                  << " " << p.nodes[i].rule;
        if (plan.initial.nodes[i].layout != p.nodes[i].layout)
            std::cout << " (" << order_name(plan.initial.nodes[i].layout)
                      << " before the decisions)";
        std::cout << "\n";
    }
    auto decision_no = [&](size_t edge) -> size_t {
        for (size_t k = 0; k < plan.decisions.size(); ++k)
            if (plan.decisions[k].edge == edge) return k + 1;
        return 0;
    };
    std::cout << "edges:\n";
    for (size_t k = 0; k < p.edges.size(); ++k) {
        const Edge& e = p.edges[k];
        std::cout << "  "
                  << pad(g.nodes[size_t(e.producer)].name + " -> " +
                             g.nodes[size_t(e.consumer)].name,
                         26)
                  << pad(order_name(e.produced), 6);
        if (size_t n = decision_no(k))
            std::cout << " MISMATCH " << order_name(plan.decisions[n - 1].source) << " -> "
                      << order_name(plan.decisions[n - 1].target) << ": decision " << n << " ("
                      << strategy_name(plan.decisions[n - 1].strategy) << ")";
        else if (plan.initial.edges[k].mismatch())
            std::cout << " ok (was " << order_name(plan.initial.edges[k].produced)
                      << ", fixed by an earlier decision)";
        else
            std::cout << (e.expected ? " ok" : " ok (any layout)");
        std::cout << "\n";
    }
    std::cout << "\nmismatches before deciding: " << plan.initial.mismatches.size()
              << ", decisions: " << plan.decisions.size() << " (memory model: DRAM "
              << fixed(plan.model.dram_gbps, 0) << " GB/s, SRAM " << fixed(plan.model.sram_gbps, 0)
              << " GB/s, " << plan.model.elem_bytes << " B elements, " << plan.model.burst_bytes
              << " B bursts" << (plan.model.dma ? ", DMA" : ", no DMA") << ")\n";
    if (plan.decisions.empty()) std::cout << "Layouts match, no transformation needed\n";

    for (size_t k = 0; k < plan.decisions.size(); ++k) {
        const Decision& d = plan.decisions[k];
        std::string src = order_name(d.source), dst = order_name(d.target);
        std::cout << "\n"
                  << rule << "\nDecision " << (k + 1) << ": " << d.producer << " -> " << d.consumer
                  << " (round " << d.round
                  << (d.appeared ? ", appeared after an earlier decision" : "")
                  << (d.picked ? ", picked by hand" : "") << ")\n"
                  << "scene: " << d.origin << " -> " << d.consumer;
        if (d.origin != d.producer) std::cout << " (through " << d.producer << ")";
        std::cout << "\ntensor shape: " << tuple_string(d.shape) << "\n"
                  << "data size: " << fixed(double(d.tensor_bytes) / 1024.0, 1) << " KB\n"
                  << "\n--- step 1: layout analysis ---\n"
                  << "layout mismatch: " << (d.source != d.target ? "True" : "False") << "\n"
                  << "  source layout (" << src << "): " << tuple_string(d.source) << "\n"
                  << "  target layout (" << dst << "): " << tuple_string(d.target) << "\n"
                  << "\n--- step 2: strategy selection ---\n"
                  << "  " << pad("candidate", 22) << pad("DRAM bytes", 12) << pad("extra", 12)
                  << pad("time us", 10) << "how\n";
        for (const Candidate& c : d.candidates) {
            std::cout << "  " << pad(strategy_name(c.strategy), 22)
                      << pad(std::to_string(int64_t(c.dram_bytes)), 12)
                      << pad(std::to_string(int64_t(c.extra_dram_bytes)), 12)
                      << pad(c.feasible ? fixed(c.time_us, 2) : "-", 10)
                      << (c.feasible ? c.detail : "not possible: " + c.why_not) << "\n";
        }
        std::cout << "  rule: " << d.rule << "\n"
                  << "selected strategy: " << strategy_name(d.strategy) << "\n"
                  << "\n--- step 3: address configuration ---\n"
                  << "  strategy: " << strategy_name(d.strategy) << "\n";
        for (const auto& [key, v] : d.strides)
            std::cout << "  " << key << ": " << tuple_string(v) << "\n";
        std::cout << "  stored layout: " << order_name(d.stored_layout) << "\n"
                  << "\n--- step 4: address example ---\n"
                  << "  test index (" << index_label(d) << "):\n"
                  << "  " << src << " offset: " << d.example_source_offset << "\n"
                  << "  " << dst << " offset: " << d.example_target_offset << "\n"
                  << "  offset difference: "
                  << std::llabs(d.example_target_offset - d.example_source_offset) << "\n";
    }
    std::cout << "\n" << rule << "\nplan done\n" << rule << "\n";
}

}  // namespace

Runner setup_plan(CLI::App& sub) {
    auto o = std::make_shared<PlanOptions>();
    sub.add_option("--graph", o->graph, "operator graph (JSON file, see assets/graphs/)");
    std::string names;
    for (const auto& n : example_names()) names += (names.empty() ? "" : ", ") + n;
    sub.add_option("--example", o->example, "built-in example graph: " + names);
    sub.add_flag("--json", o->json, "print JSON instead of text");
    sub.add_option("--bandwidth", o->model.dram_gbps, "DRAM bandwidth in GB/s (default 100)");
    sub.add_option("--sram-bandwidth", o->model.sram_gbps, "SRAM bandwidth in GB/s (default 500)");
    sub.add_option("--elem-bytes", o->model.elem_bytes, "bytes per element (default 4, float32)");
    sub.add_option("--burst", o->model.burst_bytes, "DRAM burst in bytes (default 64)");
    sub.add_option("--max-steps", o->model.max_steps,
                   "refuse graphs needing more node propagations (nodes x (mismatched edges + 1)) "
                   "than this; at most 20000 nodes")
        ->capture_default_str()
        ->check(positive_whole());
    sub.add_flag("--no-dma", o->no_dma, "no DMA copy between ops (rules out memory_copy_fused)");
    sub.add_option("--pick", o->picks,
                   "EDGE=STRATEGY, e.g. relu->conv2=consumer_read: overrides the planner's "
                   "choice on that edge where feasible (repeatable)");
    return [o]() {
        if (o->graph.empty() == o->example.empty())
            throw UsageError(
                "plan: give exactly one of --graph FILE or --example NAME; expected "
                "e.g. --example conv-relu-conv");
        Graph g = o->graph.empty() ? example_graph(o->example) : load_graph_file(o->graph);
        MemoryModel m = o->model;
        m.dma = !o->no_dma;
        Picks picks;
        if (!o->picks.empty()) {
            Propagation p = propagate(g);
            for (const auto& spec : o->picks) {
                auto eq = spec.rfind('=');
                if (eq == std::string::npos)
                    throw UsageError("--pick '" + spec +
                                     "': expected EDGE=STRATEGY, e.g. relu->conv2=consumer_read");
                picks[edge_from_name(g, p, spec.substr(0, eq), "--pick")] =
                    strategy_from_name(spec.substr(eq + 1), "--pick");
            }
        }
        NetPlan plan = plan_network(g, m, picks);
        if (o->json)
            std::cout << plan_to_json(g, plan).dump(2) << "\n";
        else
            print_text(g, plan);
        return 0;
    };
}

}  // namespace ll::cli
