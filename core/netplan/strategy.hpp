// Deciding how to resolve each layout mismatch (sections 11-13 of the
// layout-transformation document) and the address configuration that
// implements the decision (section 14: AGUs, a DMA with read and write AGUs).
//
// Candidates for one mismatched edge (tensor of S bytes, source layout Ls
// stored by the producer, target layout Ld expected by the consumer):
//   producer_write        producer writes Ld in its own loop order (write time)
//   consumer_read         consumer reads Ls in its own loop order (read time)
//   memory_copy_fused     producer writes Ls; the DMA that loads the tensor
//                         on chip reads Ls contiguously (read AGU) and writes
//                         Ld into SRAM (write AGU): no extra DRAM traffic
//   standalone_transform  a separate transform op: 2 S extra DRAM traffic
//   offline               weights only: transformed once before inference
// Time model: a DRAM stream of B bytes takes B / (bandwidth * efficiency),
// efficiency = contiguous_efficiency (0.9, section 15.4) when the innermost
// loop has stride 1, else max(1/stride, element/burst) (a burst is fetched
// for every element once the stride passes it). SRAM is word-addressed, so
// the DMA's scattered SRAM writes run at sram bandwidth without burst loss.
//
// Choice (section 13.3 decision tree, most specific first):
//   1. producer is a Weight                         -> offline
//   2. consumer fed by several producers whose layouts differ -> consumer_read
//   3. one producer, >= 2 consumers, all wanting Ld  -> producer_write (once),
//      unless the k fused copies cost less than that single write plus k
//      reads (whole-tensor times): then the cost decides (memory_copy_fused,
//      rule_id many_like_consumers_cost) and the rule text shows both
//   4. >= 2 consumers wanting different layouts: <= 2 consumers -> consumer_read;
//      more -> compare write continuity with the mean read continuity
//   5. otherwise the cheapest candidate (ties: producer_write, consumer_read,
//      memory_copy_fused, standalone_transform), as in sections 12.3 and 16.
// A consumer left behind by a write-time decision for its siblings reads the
// stored layout (rule_id reads_written_layout).
//
// Decisions feed back into propagation: plan_network decides the first
// undecided mismatch (consumers in topological order), re-propagates with the
// decisions made so far (a write-time decision changes what the producer
// stores, and everything downstream follows; a fused copy or standalone
// transform hands the consumer the target layout), and repeats. So a
// mismatch further down may disappear (conv1 NCHW -> relu -> conv2 wanting
// NHWC -> relu -> conv3 wanting NHWC: a write-time decision at relu fixes
// conv3's edge) or appear (a sibling that was happy with the old layout).
// Earlier decisions whose mismatch went away lapse. `picks` (edge -> strategy)
// replace the rule's choice where that candidate is feasible; a write-time
// pick is ruled out when another decision has the producer store a
// different layout.
//
// Worked example (section 16, fp32, 100 GB/s DRAM): conv1(NCHW) -> relu ->
// conv2(NHWC), tensor (1,64,56,56): memory_copy_fused, dma_read_strides
// (200704, 3136, 56, 1), dma_write_strides (200704, 1, 3584, 64); at index
// (0,32,28,28) the NCHW offset is 101948 and the NHWC offset 102176.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/memory/access.hpp"
#include "core/netplan/propagate.hpp"

namespace ll::netplan {

struct MemoryModel {
    double dram_gbps = 100;  // GB/s (section 15.1 table)
    double sram_gbps = 500;
    int64_t elem_bytes = 4;  // the document's examples are float32
    int64_t burst_bytes = 64;
    double contiguous_efficiency = 0.9;
    bool dma = true;  // activations reach the consumer through a DMA copy
    // Work budget of plan_network: nodes x (mismatched edges + 1), the node
    // propagations its decision rounds may run; refused above this at once.
    int64_t max_steps = 50'000'000;
};

// Throws UsageError naming the field for non-positive values.
void check(const MemoryModel& m);
// ll::access_efficiency (core/memory/access.hpp, shared with the tiling
// model) with this model's element size, burst and contiguous efficiency.
double access_efficiency(const MemoryModel& m, int64_t stride_elems);

enum class Strategy { ProducerWrite, ConsumerRead, MemoryCopyFused, Standalone, Offline };
const char* strategy_name(Strategy s);
// Throws UsageError naming `what` and listing the names when unknown.
Strategy strategy_from_name(const std::string& name, const std::string& what);

struct Candidate {
    Strategy strategy = Strategy::ProducerWrite;
    bool feasible = true;
    std::string why_not;          // when infeasible
    double dram_bytes = 0;        // run-time DRAM traffic for this tensor
    double extra_dram_bytes = 0;  // over one write + one read
    double time_us = 0;           // run-time time of the tensor's write + read path
    std::string detail;           // strides and efficiencies, for people
};

using NamedStrides = std::vector<std::pair<std::string, std::vector<int64_t>>>;

struct Decision {
    size_t edge = 0;  // index into Propagation::edges
    std::string producer, consumer, origin;
    Shape shape;
    Order source, target;  // stored by the producer / expected by the consumer
    int64_t tensor_bytes = 0;
    Strategy strategy = Strategy::MemoryCopyFused;
    std::string rule_id;  // offline_weights, several_producers, many_like_consumers(_cost),
                          // few_mixed_consumers, mixed_consumers_write,
                          // mixed_consumers_read, reads_written_layout, cheapest,
                          // picked
    std::string rule;     // the reason, for people
    std::vector<Candidate> candidates;
    NamedStrides strides;  // address configuration, in the document's order
    Order producer_loop;   // the producer's compute order (walks its write)
    Order consumer_loop;   // the order the consumer reads its input in
    Order stored_layout;   // layout the tensor has in DRAM after the decision
    Coord example_index;   // the centre of the tensor
    int64_t example_source_offset = 0, example_target_offset = 0;
    int round = 0;          // 1 = decided first; decisions of one round share it
    bool appeared = false;  // the edge matched before earlier decisions changed layouts
    bool picked = false;    // the strategy was picked by hand
};

using Picks = std::map<size_t, Strategy>;  // edge -> strategy

// "relu->conv2" (or "a->cat:1" for another input slot) for an edge, and back;
// an unknown edge throws UsageError naming `what` and listing the edges.
std::string edge_name(const Graph& g, const Edge& e);
size_t edge_from_name(const Graph& g, const Propagation& p, const std::string& name,
                      const std::string& what);

struct NetPlan {
    Propagation initial;      // before any decision
    Propagation propagation;  // with every decision applied
    Decisions applied;        // what the decisions feed back
    std::vector<Decision> decisions;
    MemoryModel model;
};

NetPlan plan_network(const Graph& g, const MemoryModel& m = {}, const Picks& picks = {});
// Candidates for one edge, as if it were the only consumer (exposed for the
// panel, which lets people pick a strategy themselves).
std::vector<Candidate> edge_candidates(const Graph& g, const Propagation& p, size_t edge,
                                       const MemoryModel& m);
// Fills strides, stored layout and example of d for strategy s.
void configure(Decision& d, Strategy s);

// One address stream of a decision: the strides of d.strides[k] walked by
// the loop nest that uses them (producer loops for the producer's write,
// consumer loops for its read, the source layout's order for the DMA and
// transform copies, which read contiguously).
struct AddressStream {
    std::string name;
    Order loop;
    std::vector<int64_t> strides;
};
std::vector<AddressStream> address_streams(const Decision& d);
// Element offsets of the first `count` iterations of the stream's loop nest
// over `shape`. For the section 16 DMA: read 0,1,2,3,..., write 0,64,128,...
std::vector<int64_t> stream_offsets(const Shape& shape, const AddressStream& s, size_t count);

nlohmann::json plan_to_json(const Graph& g, const NetPlan& plan);

}  // namespace ll::netplan
