#include "core/netplan/strategy.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "core/checked.hpp"
#include "core/error.hpp"
#include "core/view/agu.hpp"

namespace ll::netplan {

namespace {

std::string fmt(double v, int digits = 3) {
    std::ostringstream s;
    s.precision(digits);
    s << std::fixed << v;
    return s.str();
}

double stream_us(double bytes, double eff, double gbps) {
    return bytes / (gbps * 1e3 * eff);  // GB/s == 1e3 bytes per microsecond
}

// The loop order a consumer reads its input in: its compute order when the
// loops run over the same dims as the input, else the layout it asked for.
Order read_order(const Graph& g, const Propagation& p, const Edge& e) {
    const Node& c = g.nodes[size_t(e.consumer)];
    const NodeLayout& cl = p.nodes[size_t(e.consumer)];
    bool same_dims = c.op == OpKind::Conv || c.op == OpKind::Pool || is_elementwise(c.op) ||
                     c.op == OpKind::Concat;
    // A weight's axes (Cout, Cin, Kh, Kw) are not the activations' (N, C, H,
    // W): the consumer's compute order says nothing about how it walks them.
    // It reads a weight in the layout it asks for (section 11: offline
    // leaves only that contiguous read at run time).
    if (g.nodes[size_t(e.producer)].op == OpKind::Weight) same_dims = false;
    if (same_dims && cl.compute_order.size() == e.shape.size()) return cl.compute_order;
    if (e.expected) return *e.expected;
    return e.produced;
}

// Section 13.3 analyze_continuity: 1.0 when the innermost loop runs along the
// layout's innermost (stride-1) dim, else 0.5.
double continuity(const Shape& shape, const Order& loop, const Order& layout) {
    auto st = order_strides(shape, layout);
    return innermost_stride(shape, loop, st) == 1 ? 1.0 : 0.5;
}

bool tied_or_less(double a, double b) {
    return a <= b * (1 + 1e-9);
}

}  // namespace

void check(const MemoryModel& m) {
    if (!(m.dram_gbps > 0)) throw UsageError("bandwidth", "must be > 0 GB/s; expected e.g. 100");
    if (!(m.sram_gbps > 0))
        throw UsageError("sram_bandwidth", "must be > 0 GB/s; expected e.g. 500");
    checked_float(m.dram_gbps, "bandwidth", 1e-6, 1e9);
    checked_float(m.sram_gbps, "sram_bandwidth", 1e-6, 1e9);
    if (m.elem_bytes <= 0 || m.elem_bytes > 64)
        throw UsageError("elem_bytes", "must be 1..64; expected e.g. 4 (float32)");
    if (m.burst_bytes < m.elem_bytes)
        throw UsageError("burst", "must be at least one element; expected e.g. 64");
    if (!(m.contiguous_efficiency > 0 && m.contiguous_efficiency <= 1))
        throw UsageError("contiguous efficiency must be in (0,1]; expected e.g. 0.9");
}

double access_efficiency(const MemoryModel& m, int64_t stride_elems) {
    return ll::access_efficiency(stride_elems, double(m.elem_bytes), m.burst_bytes,
                                 m.contiguous_efficiency);
}

const char* strategy_name(Strategy s) {
    switch (s) {
        case Strategy::ProducerWrite:
            return "producer_write";
        case Strategy::ConsumerRead:
            return "consumer_read";
        case Strategy::MemoryCopyFused:
            return "memory_copy_fused";
        case Strategy::Standalone:
            return "standalone_transform";
        case Strategy::Offline:
            return "offline";
    }
    return "?";
}

namespace {

std::vector<Candidate> candidates_from(const Graph& g, const Propagation& p, const Edge& e,
                                       const Order& ls, const MemoryModel& m) {
    const Order ld = e.expected ? *e.expected : ls;
    const Order& wloop = p.nodes[size_t(e.producer)].compute_order;
    const Order rloop = read_order(g, p, e);
    const auto s_src = order_strides(e.shape, ls);
    const auto s_dst = order_strides(e.shape, ld);
    const double S = double(numel(e.shape) * m.elem_bytes);
    const double ce = m.contiguous_efficiency;

    auto eff_of = [&](const Order& loop, const std::vector<int64_t>& st, int64_t* stride) {
        *stride = innermost_stride(e.shape, loop, st);
        return access_efficiency(m, *stride);
    };
    auto side = [&](const char* who, const char* layout, int64_t stride, double eff) {
        return std::string(who) + " " + layout + " stride " + std::to_string(stride) + " (eff " +
               fmt(eff, 3) + ")";
    };
    std::string src_name = order_name(ls), dst_name = order_name(ld);
    std::vector<Candidate> out;

    // producer_write stores the target layout (the producer's write AGU uses
    // its strides); consumer_read keeps the source layout (the consumer's read
    // AGU uses its strides). Either way one layout serves both sides.
    auto one_layout = [&](Strategy strategy, const std::string& name,
                          const std::vector<int64_t>& st) {
        Candidate c;
        c.strategy = strategy;
        int64_t ws, rs;
        double ew = eff_of(wloop, st, &ws), er = eff_of(rloop, st, &rs);
        c.dram_bytes = 2 * S;
        c.time_us = stream_us(S, ew, m.dram_gbps) + stream_us(S, er, m.dram_gbps);
        c.detail = side("write", name.c_str(), ws, ew) + "; " + side("read", name.c_str(), rs, er);
        return c;
    };
    out.push_back(one_layout(Strategy::ProducerWrite, dst_name, s_dst));
    out.push_back(one_layout(Strategy::ConsumerRead, src_name, s_src));
    {  // memory_copy_fused: DMA read in the source's own order, scatter into SRAM.
        Candidate c;
        c.strategy = Strategy::MemoryCopyFused;
        int64_t ws, ss;
        double ew = eff_of(wloop, s_src, &ws);
        ss = innermost_stride(e.shape, ls, s_dst);
        double dma_read = stream_us(S, ce, m.dram_gbps);
        double sram_write = stream_us(S, ce, m.sram_gbps);
        c.dram_bytes = 2 * S;
        c.time_us = stream_us(S, ew, m.dram_gbps) + std::max(dma_read, sram_write);
        c.detail = side("write", src_name.c_str(), ws, ew) + "; DMA read " + src_name +
                   " stride 1, SRAM write " + dst_name + " stride " + std::to_string(ss);
        if (!m.dma) {
            c.feasible = false;
            c.why_not = "no DMA copy between producer and consumer in this memory model";
        }
        out.push_back(c);
    }
    {  // standalone transform op: DRAM -> DRAM, read + write the whole tensor again.
        Candidate c;
        c.strategy = Strategy::Standalone;
        int64_t ws, rs;
        double ew = eff_of(wloop, s_src, &ws), er = eff_of(rloop, s_dst, &rs);
        c.dram_bytes = 4 * S;
        c.extra_dram_bytes = 2 * S;
        c.time_us = stream_us(S, ew, m.dram_gbps) + 2 * stream_us(S, ce, m.dram_gbps) +
                    stream_us(S, er, m.dram_gbps);
        c.detail = side("write", src_name.c_str(), ws, ew) + "; transform reads+writes " +
                   std::to_string(int64_t(2 * S)) + " B; " + side("read", dst_name.c_str(), rs, er);
        out.push_back(c);
    }
    if (g.nodes[size_t(e.producer)].op == OpKind::Weight) {
        Candidate c;
        c.strategy = Strategy::Offline;
        c.dram_bytes = S;  // only the consumer's read remains at run time
        c.extra_dram_bytes = -S;
        int64_t rs;
        double er = eff_of(rloop, s_dst, &rs);
        c.time_us = stream_us(S, er, m.dram_gbps);
        c.detail = "transformed once before inference (" + std::to_string(int64_t(2 * S)) +
                   " B offline); " + side("read", dst_name.c_str(), rs, er);
        out.push_back(c);
    }
    return out;
}

}  // namespace

Strategy strategy_from_name(const std::string& name, const std::string& what) {
    std::string all;
    for (Strategy s : {Strategy::ProducerWrite, Strategy::ConsumerRead, Strategy::MemoryCopyFused,
                       Strategy::Standalone, Strategy::Offline}) {
        if (name == strategy_name(s)) return s;
        all += (all.empty() ? "" : ", ") + std::string(strategy_name(s));
    }
    throw usage_error(what, "unknown strategy '" + name + "'; expected one of " + all);
}

std::string edge_name(const Graph& g, const Edge& e) {
    std::string s = g.nodes[size_t(e.producer)].name + "->" + g.nodes[size_t(e.consumer)].name;
    return e.slot ? s + ":" + std::to_string(e.slot) : s;
}

size_t edge_from_name(const Graph& g, const Propagation& p, const std::string& name,
                      const std::string& what) {
    std::string all;
    for (size_t k = 0; k < p.edges.size(); ++k) {
        std::string n = edge_name(g, p.edges[k]);
        if (n == name || (p.edges[k].slot == 0 && n + ":0" == name)) return k;
        all += (all.empty() ? "" : ", ") + n;
    }
    throw usage_error(what, "no edge '" + name + "' in the graph; expected one of " + all);
}

std::vector<Candidate> edge_candidates(const Graph& g, const Propagation& p, size_t edge,
                                       const MemoryModel& m) {
    return candidates_from(g, p, p.edges[edge], p.edges[edge].produced, m);
}

void configure(Decision& d, Strategy s) {
    d.strategy = s;
    auto src = order_strides(d.shape, d.source);
    auto dst = order_strides(d.shape, d.target);
    d.strides.clear();
    switch (s) {
        case Strategy::ProducerWrite:
            d.strides = {{"producer_write_strides", dst}, {"consumer_read_strides", dst}};
            d.stored_layout = d.target;
            break;
        case Strategy::ConsumerRead:
            d.strides = {{"producer_write_strides", src}, {"consumer_read_strides", src}};
            d.stored_layout = d.source;
            break;
        case Strategy::MemoryCopyFused: {
            // The DMA's two AGUs, as core/view models them (lock-step loop nest).
            view::Dma dma = view::make_dma(view::layout_from_order(d.shape, d.source),
                                           view::layout_from_order(d.shape, d.target), 32);
            d.strides = {{"dma_read_strides", dma.read.strides},
                         {"dma_write_strides", dma.write.strides},
                         {"producer_write_strides", src},
                         {"consumer_read_strides", dst}};
            d.stored_layout = d.source;
            break;
        }
        case Strategy::Standalone:
            d.strides = {{"producer_write_strides", src},
                         {"transform_read_strides", src},
                         {"transform_write_strides", dst},
                         {"consumer_read_strides", dst}};
            d.stored_layout = d.target;
            break;
        case Strategy::Offline:
            d.strides = {{"offline_read_strides", src},
                         {"offline_write_strides", dst},
                         {"consumer_read_strides", dst}};
            d.stored_layout = d.target;
            break;
    }
    d.example_index.assign(d.shape.size(), 0);
    for (size_t i = 0; i < d.shape.size(); ++i) d.example_index[i] = d.shape[i] / 2;
    d.example_source_offset = offset_of(d.example_index, src);
    d.example_target_offset = offset_of(d.example_index, dst);
}

namespace {

Decision make_decision(const Graph& g, const Propagation& p, size_t ei, const Order& source,
                       const MemoryModel& m) {
    const Edge& e = p.edges[ei];
    Decision d;
    d.edge = ei;
    d.producer = g.nodes[size_t(e.producer)].name;
    d.consumer = g.nodes[size_t(e.consumer)].name;
    d.origin = e.origin;
    d.shape = e.shape;
    d.source = source;
    d.target = e.expected ? *e.expected : source;
    d.tensor_bytes = numel(e.shape) * m.elem_bytes;
    d.candidates = candidates_from(g, p, e, source, m);
    d.producer_loop = p.nodes[size_t(e.producer)].compute_order;
    d.consumer_loop = read_order(g, p, e);
    return d;
}

// A write-time decision changes what the producer stores for all its
// consumers: it is ruled out when another decision already has the producer
// store a different layout.
void rule_out_conflicting_write(Decision& d, int producer, const std::map<int, Order>& writes,
                                const std::string& producer_name) {
    auto w = writes.find(producer);
    if (w == writes.end() || w->second == d.target) return;
    for (auto& c : d.candidates)
        if (c.strategy == Strategy::ProducerWrite) {
            c.feasible = false;
            c.why_not = "'" + producer_name + "' already stores " + order_name(w->second) +
                        " for another consumer (write-time decision)";
        }
}

Strategy cheapest(const Decision& d) {
    const Candidate* best = nullptr;
    for (const auto& c : d.candidates)
        if (c.feasible && c.strategy != Strategy::Offline &&
            (!best || !tied_or_less(best->time_us, c.time_us)))
            best = &c;
    return best ? best->strategy : Strategy::Standalone;
}

// The section 13.3 decision tree for the mismatched edge ei of p (most
// specific rule first). Returns the decisions it makes: ei alone, or every
// undecided mismatched edge out of the producer for the group rules.
std::vector<Decision> decide(const Graph& g, const Propagation& p, size_t ei, const MemoryModel& m,
                             const std::map<size_t, Decision>& decided, const Decisions& applied) {
    const Edge& e = p.edges[ei];
    auto make = [&](size_t k) {
        Decision d = make_decision(g, p, k, p.edges[k].produced, m);
        rule_out_conflicting_write(d, p.edges[k].producer, applied.writes, d.producer);
        return d;
    };
    Decision d = make(ei);
    const Node& prod = g.nodes[size_t(e.producer)];
    // Rule 1: weights are constants (section 11).
    if (prod.op == OpKind::Weight) {
        d.rule_id = "offline_weights";
        d.rule = "'" + d.producer + "' is a weight: transform it once, offline (section 11)";
        configure(d, Strategy::Offline);
        return {d};
    }
    // Rule 2: several producers in different layouts feed this consumer.
    std::set<Order> feeding;
    for (const auto& f : p.edges)
        if (f.consumer == e.consumer && g.nodes[size_t(f.producer)].op != OpKind::Weight)
            feeding.insert(f.produced);
    if (feeding.size() >= 2) {
        d.rule_id = "several_producers";
        d.rule = "'" + d.consumer + "' is fed by " + std::to_string(feeding.size()) +
                 " producers in different layouts: read-time transform, the consumer "
                 "adapts to each (section 13.4)";
        configure(d, Strategy::ConsumerRead);
        return {d};
    }
    // Rules 3 and 4: this producer's consumers seen together.
    std::vector<size_t> outs;
    for (size_t k = 0; k < p.edges.size(); ++k)
        if (p.edges[k].producer == e.producer) outs.push_back(k);
    std::vector<size_t> wanting;  // consumers with a stated expectation
    std::set<Order> wanted;
    for (size_t oi : outs)
        if (p.edges[oi].expected) {
            wanting.push_back(oi);
            wanted.insert(*p.edges[oi].expected);
        }
    std::vector<Decision> made;
    if (auto w = applied.writes.find(e.producer);
        wanting.size() >= 2 && w != applied.writes.end() && w->second != d.target) {
        // A write-time decision already fixed what the producer stores for
        // its other consumers: this one reads that layout (section 13.2).
        d.rule_id = "reads_written_layout";
        d.rule = "'" + d.producer + "' already stores " + order_name(w->second) +
                 " for its other consumers (write-time decision): '" + d.consumer +
                 "' reads that layout at read time (section 13.2)";
        configure(d, Strategy::ConsumerRead);
        return {d};
    }
    if (wanting.size() >= 2 && wanted.size() == 1) {
        // Whole-tensor times, for people to weigh the rule against the model:
        // one write in the target layout + k reads, versus k fused copies.
        const Order& ld = *wanted.begin();
        const double S = double(numel(e.shape) * m.elem_bytes);
        auto us = [&](double eff) { return stream_us(S, eff, m.dram_gbps); };
        const Order& wl = p.nodes[size_t(e.producer)].compute_order;
        double once =
            us(access_efficiency(m, innermost_stride(e.shape, wl, order_strides(e.shape, ld))));
        double copies = us(access_efficiency(
            m, innermost_stride(e.shape, wl, order_strides(e.shape, e.produced))));
        for (size_t oi : wanting) {
            once += us(access_efficiency(m, innermost_stride(e.shape, read_order(g, p, p.edges[oi]),
                                                             order_strides(e.shape, ld))));
            copies += us(m.contiguous_efficiency);
        }
        // Section 13.1's rule against the model's own cost: when the k fused
        // copies (DMA) are cheaper than writing the target layout once, the
        // cost decides and the decision says so.
        const bool cost_wins = m.dma && copies < once * (1 - 1e-9);
        for (size_t oi : outs) {
            if (!p.edges[oi].mismatch() || decided.count(oi)) continue;
            Decision di = make(oi);
            di.rule_id = cost_wins ? "many_like_consumers_cost" : "many_like_consumers";
            di.rule =
                "'" + d.producer + "' has " + std::to_string(wanting.size()) +
                " consumers, all expecting " + order_name(ld) +
                ": rule (section 13.1) write-time transform, done once for all: " + fmt(once, 2) +
                " us for the whole tensor | cost: " + std::to_string(wanting.size()) +
                " fused copies " + fmt(copies, 2) + " us";
            if (cost_wins) {
                di.rule += " -> they disagree, the cost decides: memory_copy_fused (" +
                           fmt(once / copies, 2) + "x faster than the rule's choice)";
                configure(di, Strategy::MemoryCopyFused);
            } else {
                di.rule += " -> the rule's choice is also the cheaper";
                configure(di, Strategy::ProducerWrite);
            }
            made.push_back(di);
        }
        if (!made.empty()) return made;
    }
    if (wanting.size() >= 2 && wanted.size() >= 2) {
        if (outs.size() <= 2) {
            d.rule_id = "few_mixed_consumers";
            d.rule = "'" + d.producer + "' has " + std::to_string(outs.size()) +
                     " consumers expecting different layouts: read-time transform "
                     "(section 13.3, rule 2)";
            configure(d, Strategy::ConsumerRead);
            return {d};
        }
        // Rule 3: the most wanted foreign layout vs reading the source as is.
        std::map<Order, int> votes;
        for (size_t oi : wanting)
            if (p.edges[oi].mismatch()) ++votes[*p.edges[oi].expected];
        Order major = votes.begin()->first;
        for (const auto& [o, v] : votes)
            if (v > votes[major]) major = o;
        const Shape& sh = e.shape;
        double wc = continuity(sh, p.nodes[size_t(e.producer)].compute_order, major);
        double rc = 0;
        for (size_t oi : wanting) rc += continuity(sh, read_order(g, p, p.edges[oi]), e.produced);
        rc /= double(wanting.size());
        bool write = wc > rc;
        std::string why = "'" + d.producer + "' has " + std::to_string(outs.size()) +
                          " consumers expecting different layouts: write continuity " + fmt(wc, 2) +
                          (write ? " > " : " <= ") + "mean read continuity " + fmt(rc, 2) +
                          " (section 13.3, rule 3)";
        if (write) {
            // Only the consumers wanting the major layout are decided now; the
            // write changes what the others see, and the next round decides
            // them against the stored layout.
            for (size_t oi : wanting) {
                if (*p.edges[oi].expected != major || decided.count(oi)) continue;
                Decision di = make(oi);
                di.rule_id = "mixed_consumers_write";
                di.rule = why + ": stored as " + order_name(major);
                configure(di, Strategy::ProducerWrite);
                made.push_back(di);
            }
        } else {
            for (size_t oi : wanting) {
                if (!p.edges[oi].mismatch() || decided.count(oi)) continue;
                Decision di = make(oi);
                di.rule_id = "mixed_consumers_read";
                di.rule = why;
                configure(di, Strategy::ConsumerRead);
                made.push_back(di);
            }
        }
        if (!made.empty()) return made;
    }
    // Rule 5: one consumer to satisfy: cheapest candidate (sections 12.3, 16).
    d.rule_id = "cheapest";
    d.rule = "single consumer: the cheapest of the candidates (sections 12.3, 16)";
    configure(d, cheapest(d));
    return {d};
}

Decisions applied_of(const Propagation& p, const std::map<size_t, Decision>& decided) {
    Decisions out;
    for (const auto& [ei, d] : decided) {
        const Edge& e = p.edges[ei];
        switch (d.strategy) {
            case Strategy::ProducerWrite:
                out.writes[e.producer] = d.target;
                break;
            case Strategy::MemoryCopyFused:
            case Strategy::Standalone:
            case Strategy::Offline:
                out.deliveries[{e.consumer, e.slot}] = d.target;
                break;
            case Strategy::ConsumerRead:
                break;
        }
    }
    return out;
}

// Brings earlier decisions up to date with a new propagation: a decision
// whose mismatch went away lapses, others get their current source and
// target. Returns true when what the decisions apply changed.
bool refresh(const Graph& g, const Propagation& p, const MemoryModel& m,
             std::map<size_t, Decision>& decided) {
    bool changed = false;
    for (auto it = decided.begin(); it != decided.end();) {
        Decision& d = it->second;
        const Edge& e = p.edges[it->first];
        const Order source = d.strategy == Strategy::ProducerWrite
                                 ? p.nodes[size_t(e.producer)].natural
                                 : e.produced;
        const Order target = e.expected ? *e.expected : source;
        if (source == target) {
            changed |= d.strategy != Strategy::ConsumerRead;
            it = decided.erase(it);
            continue;
        }
        if (target != d.target) changed |= d.strategy != Strategy::ConsumerRead;
        Decision fresh = make_decision(g, p, it->first, source, m);
        fresh.rule_id = d.rule_id;
        fresh.rule = d.rule;
        fresh.round = d.round;
        fresh.appeared = d.appeared;
        fresh.picked = d.picked;
        std::map<int, Order> others;
        for (const auto& [k, o] : decided)
            if (k != it->first && o.strategy == Strategy::ProducerWrite)
                others[p.edges[k].producer] = o.target;
        rule_out_conflicting_write(fresh, e.producer, others, fresh.producer);
        configure(fresh, d.strategy);
        d = std::move(fresh);
        ++it;
    }
    return changed;
}

}  // namespace

NetPlan plan_network(const Graph& g, const MemoryModel& m, const Picks& picks) {
    check(m);
    NetPlan plan;
    plan.model = m;
    plan.initial = propagate(g);
    const Propagation& initial = plan.initial;
    // Each decision round re-propagates the graph; the rounds are at most
    // about the mismatched edges, so bound the whole before the first round.
    check_work(double(g.nodes.size()) * double(initial.mismatches.size() + 1), m.max_steps, "plan",
               "node propagations (nodes x (mismatched edges + 1))", "max_steps");
    std::set<size_t> mismatched_at_first(initial.mismatches.begin(), initial.mismatches.end());

    // Decide the first undecided mismatch (topological order of consumers),
    // feed the decision back into propagation, and repeat: later mismatches
    // see the layouts the earlier decisions produce. Each round decides at
    // least one edge; lapsed decisions can bring an edge back, so the rounds
    // are capped.
    std::map<size_t, Decision> decided;
    const size_t cap = 4 * initial.edges.size() + 8;
    int round = 0;
    for (size_t iter = 0;; ++iter) {
        if (iter > cap)
            throw UsageError("plan: the decisions did not settle after " + std::to_string(cap) +
                             " rounds; expected a graph whose layout decisions converge");
        Decisions applied = applied_of(initial, decided);
        Propagation p = propagate(g, applied);
        if (refresh(g, p, m, decided)) continue;
        applied = applied_of(initial, decided);
        size_t next = p.edges.size();
        for (size_t ei : p.mismatches)
            if (!decided.count(ei)) {
                next = ei;
                break;
            }
        if (next == p.edges.size()) {
            plan.propagation = std::move(p);
            plan.applied = std::move(applied);
            break;
        }
        ++round;
        std::vector<Decision> made = decide(g, p, next, m, decided, applied);
        // The user's picks replace the rule's choice where possible.
        for (Decision& d : made) {
            d.round = round;
            d.appeared = !mismatched_at_first.count(d.edge);
            auto pk = picks.find(d.edge);
            if (pk == picks.end() || pk->second == d.strategy) continue;
            std::map<int, Order> others = applied.writes;
            for (const Decision& o : made)
                if (&o != &d && o.strategy == Strategy::ProducerWrite)
                    others[p.edges[o.edge].producer] = o.target;
            rule_out_conflicting_write(d, p.edges[d.edge].producer, others, d.producer);
            for (const auto& c : d.candidates)
                if (c.strategy == pk->second && c.feasible) {
                    configure(d, pk->second);
                    d.picked = true;
                    d.rule_id = "picked";
                    d.rule = std::string("picked by hand: ") + strategy_name(pk->second) +
                             " instead of the rule's choice (" + d.rule + ")";
                    break;
                }
        }
        for (Decision& d : made) decided[d.edge] = std::move(d);
    }
    for (auto& [ei, d] : decided) plan.decisions.push_back(std::move(d));
    return plan;
}

std::vector<AddressStream> address_streams(const Decision& d) {
    std::vector<AddressStream> out;
    for (const auto& [name, strides] : d.strides) {
        Order loop = d.source;  // copies read the source contiguously
        if (name.rfind("producer_", 0) == 0 && d.producer_loop.size() == d.shape.size())
            loop = d.producer_loop;
        else if (name.rfind("consumer_", 0) == 0 && d.consumer_loop.size() == d.shape.size())
            loop = d.consumer_loop;
        out.push_back({name, loop, strides});
    }
    return out;
}

std::vector<int64_t> stream_offsets(const Shape& shape, const AddressStream& s, size_t count) {
    std::vector<int64_t> out;
    if (shape.empty() || s.loop.size() != shape.size() || s.strides.size() != shape.size())
        return out;
    count = size_t(std::min<int64_t>(int64_t(count), numel(shape)));
    Coord c(shape.size(), 0);
    for (size_t i = 0; i < count; ++i) {
        out.push_back(offset_of(c, s.strides));
        // Odometer over the loop nest, innermost loop last in s.loop.
        for (size_t k = s.loop.size(); k-- > 0;) {
            size_t dim = size_t(s.loop[k]);
            if (++c[dim] < shape[dim]) break;
            c[dim] = 0;
        }
    }
    return out;
}

nlohmann::json plan_to_json(const Graph& g, const NetPlan& plan) {
    const Propagation& p = plan.propagation;
    nlohmann::json j;
    j["graph"] = g.name;
    j["memory_model"] = {{"dram_gbps", plan.model.dram_gbps},
                         {"sram_gbps", plan.model.sram_gbps},
                         {"elem_bytes", plan.model.elem_bytes},
                         {"burst_bytes", plan.model.burst_bytes},
                         {"contiguous_efficiency", plan.model.contiguous_efficiency},
                         {"dma", plan.model.dma}};
    j["nodes"] = nlohmann::json::array();
    for (size_t i = 0; i < g.nodes.size(); ++i) {
        const NodeLayout& nl = p.nodes[i];
        j["nodes"].push_back({{"name", g.nodes[i].name},
                              {"op", op_name(g.nodes[i].op)},
                              {"shape", nl.shape},
                              {"layout", order_name(nl.layout)},
                              {"initial_layout", order_name(plan.initial.nodes[i].layout)},
                              {"order", nl.layout},
                              {"compute_order", nl.compute_order},
                              {"rule", nl.rule}});
    }
    j["edges"] = nlohmann::json::array();
    for (size_t k = 0; k < p.edges.size(); ++k) {
        const Edge& e = p.edges[k];
        nlohmann::json je = {{"producer", g.nodes[size_t(e.producer)].name},
                             {"consumer", g.nodes[size_t(e.consumer)].name},
                             {"slot", e.slot},
                             {"layout", order_name(e.produced)},
                             {"delivered", order_name(e.delivered)},
                             {"mismatch", e.mismatch()},
                             {"initial_layout", order_name(plan.initial.edges[k].produced)},
                             {"initial_mismatch", plan.initial.edges[k].mismatch()}};
        je["expected"] = e.expected ? nlohmann::json(order_name(*e.expected)) : nlohmann::json();
        j["edges"].push_back(je);
    }
    j["mismatch"] = !plan.initial.mismatches.empty();
    j["initial_mismatches"] = plan.initial.mismatches.size();
    j["decisions"] = nlohmann::json::array();
    for (const Decision& d : plan.decisions) {
        nlohmann::json jd = {{"producer", d.producer},
                             {"consumer", d.consumer},
                             {"origin", d.origin},
                             {"tensor_shape", d.shape},
                             {"tensor_bytes", d.tensor_bytes},
                             {"source_layout", d.source},
                             {"target_layout", d.target},
                             {"source_layout_name", order_name(d.source)},
                             {"target_layout_name", order_name(d.target)},
                             {"strategy", strategy_name(d.strategy)},
                             {"rule_id", d.rule_id},
                             {"rule", d.rule},
                             {"round", d.round},
                             {"appeared", d.appeared},
                             {"picked", d.picked},
                             {"edge", d.edge},
                             {"stored_layout", order_name(d.stored_layout)}};
        for (const auto& [k, v] : d.strides) jd[k] = v;
        jd["address_example"] = {
            {"index", d.example_index},
            {"source_offset", d.example_source_offset},
            {"target_offset", d.example_target_offset},
            {"difference", std::llabs(d.example_target_offset - d.example_source_offset)}};
        jd["candidates"] = nlohmann::json::array();
        for (const Candidate& c : d.candidates) {
            nlohmann::json jc = {{"strategy", strategy_name(c.strategy)},
                                 {"feasible", c.feasible},
                                 {"dram_bytes", c.dram_bytes},
                                 {"extra_dram_bytes", c.extra_dram_bytes},
                                 {"time_us", c.time_us},
                                 {"detail", c.detail}};
            if (!c.feasible) jc["why_not"] = c.why_not;
            jd["candidates"].push_back(jc);
        }
        j["decisions"].push_back(jd);
    }
    // Single-mismatch graphs carry the decision's fields at the top too, as
    // the document's configuration printout does.
    if (plan.decisions.size() == 1) {
        const Decision& d = plan.decisions[0];
        j["strategy"] = strategy_name(d.strategy);
        for (const auto& [k, v] : d.strides) j[k] = v;
    }
    return j;
}

}  // namespace ll::netplan
