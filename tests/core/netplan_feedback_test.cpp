// Decisions fed back into propagation: a write-time decision changes what a
// producer stores and everything downstream follows, so later mismatches may
// disappear or appear; a fused copy hands the consumer the target layout.
#include <gtest/gtest.h>

#include <string>

#include "core/error.hpp"
#include "core/netplan/examples.hpp"
#include "core/netplan/strategy.hpp"

using namespace ll::netplan;

namespace {

size_t edge_of(const Graph& g, const Propagation& p, const std::string& producer,
               const std::string& consumer) {
    for (size_t k = 0; k < p.edges.size(); ++k)
        if (g.nodes[size_t(p.edges[k].producer)].name == producer &&
            g.nodes[size_t(p.edges[k].consumer)].name == consumer)
            return k;
    ADD_FAILURE() << "no edge " << producer << " -> " << consumer;
    return 0;
}

const Decision* decision_on(const Graph& g, const NetPlan& plan, const std::string& producer,
                            const std::string& consumer) {
    size_t e = edge_of(g, plan.propagation, producer, consumer);
    for (const auto& d : plan.decisions)
        if (d.edge == e) return &d;
    return nullptr;
}

std::string layout_of(const Graph& g, const Propagation& p, const std::string& node) {
    return order_name(p.nodes[size_t(g.index_of(node))].layout);
}

// Every mismatch left after planning is resolved by a decision on its edge.
void expect_all_resolved(const NetPlan& plan) {
    for (size_t ei : plan.propagation.mismatches) {
        bool found = false;
        for (const auto& d : plan.decisions) found |= d.edge == ei;
        EXPECT_TRUE(found) << "edge " << ei << " is mismatched without a decision";
    }
}

// conv1 NCHW -> relu1 -> conv2 (wants NHWC, keeps what it is handed) -> relu2
// -> conv3 (wants NHWC). relu1 and conv2 loop in NHWC order.
const char* kChain = R"({"name":"chain","nodes":[
    {"name":"x","op":"Input","shape":[1,16,8,8]},
    {"name":"conv1","op":"Conv","inputs":["x"],"layout":"NCHW"},
    {"name":"relu1","op":"ReLU","inputs":["conv1"],"compute_order":"NHWC"},
    {"name":"conv2","op":"Conv","inputs":["relu1"],"input_layouts":["NHWC"],
     "compute_order":"NHWC"},
    {"name":"relu2","op":"ReLU","inputs":["conv2"]},
    {"name":"conv3","op":"Conv","inputs":["relu2"],"input_layouts":["NHWC"],"layout":"NHWC"}]})";

}  // namespace

TEST(NetplanFeedback, WriteTimeDecisionFixesTheLaterMismatch) {
    Graph g = parse_graph_text(kChain);
    NetPlan plan = plan_network(g);
    // Before deciding, conv2 keeps the NCHW it is handed and conv3 mismatches too.
    ASSERT_EQ(plan.initial.mismatches.size(), 2u);
    EXPECT_EQ(layout_of(g, plan.initial, "relu2"), "NCHW");
    // relu1 writes NHWC (its loops run in NHWC order): conv2 now reads NHWC,
    // keeps it, and conv3's edge matches without a second transform.
    ASSERT_EQ(plan.decisions.size(), 1u);
    const Decision& d = plan.decisions[0];
    EXPECT_EQ(d.producer, "relu1");
    EXPECT_EQ(d.strategy, Strategy::ProducerWrite);
    EXPECT_EQ(d.round, 1);
    EXPECT_EQ(order_name(d.source), "NCHW");  // what relu1 would have stored
    EXPECT_EQ(layout_of(g, plan.propagation, "relu1"), "NHWC");
    EXPECT_EQ(layout_of(g, plan.propagation, "conv2"), "NHWC");
    EXPECT_EQ(layout_of(g, plan.propagation, "relu2"), "NHWC");
    EXPECT_TRUE(plan.propagation.mismatches.empty());
    // The write-time decision changes what relu1 stores, not how it loops.
    EXPECT_EQ(order_name(plan.propagation.nodes[size_t(g.index_of("relu1"))].compute_order),
              "NHWC");
    EXPECT_EQ(order_name(plan.propagation.nodes[size_t(g.index_of("relu1"))].natural), "NCHW");
}

TEST(NetplanFeedback, ReadTimeDecisionLeavesTheLaterMismatch) {
    Graph g = parse_graph_text(kChain);
    size_t first = edge_of(g, propagate(g), "relu1", "conv2");
    NetPlan plan = plan_network(g, {}, {{first, Strategy::ConsumerRead}});
    ASSERT_EQ(plan.decisions.size(), 2u);
    const Decision* a = decision_on(g, plan, "relu1", "conv2");
    const Decision* b = decision_on(g, plan, "relu2", "conv3");
    ASSERT_TRUE(a && b);
    EXPECT_EQ(a->strategy, Strategy::ConsumerRead);
    EXPECT_TRUE(a->picked);
    EXPECT_EQ(a->rule_id, "picked");
    EXPECT_EQ(a->round, 1);
    EXPECT_EQ(b->round, 2);
    EXPECT_FALSE(b->appeared);
    EXPECT_EQ(layout_of(g, plan.propagation, "conv2"), "NCHW");
    expect_all_resolved(plan);
}

TEST(NetplanFeedback, FusedCopyHandsTheConsumerTheTargetLayout) {
    Graph g = parse_graph_text(kChain);
    size_t first = edge_of(g, propagate(g), "relu1", "conv2");
    NetPlan plan = plan_network(g, {}, {{first, Strategy::MemoryCopyFused}});
    ASSERT_EQ(plan.decisions.size(), 1u);
    EXPECT_EQ(plan.decisions[0].strategy, Strategy::MemoryCopyFused);
    // DRAM still holds NCHW; the DMA hands conv2 NHWC, which it keeps.
    EXPECT_EQ(layout_of(g, plan.propagation, "relu1"), "NCHW");
    const Edge& e = plan.propagation.edges[first];
    EXPECT_EQ(order_name(e.produced), "NCHW");
    EXPECT_EQ(order_name(e.delivered), "NHWC");
    EXPECT_EQ(layout_of(g, plan.propagation, "conv2"), "NHWC");
    expect_all_resolved(plan);
}

TEST(NetplanFeedback, WriteTimeDecisionCanMakeAMismatchAppear) {
    // r feeds a (wants NHWC) and, through r2, b (wants NCHW). Writing NHWC
    // for a reaches b through the elementwise r2.
    Graph g = parse_graph_text(R"({"nodes":[
        {"name":"x","op":"Input","shape":[1,16,8,8]},
        {"name":"r","op":"ReLU","inputs":["x"],"compute_order":"NHWC"},
        {"name":"a","op":"Conv","inputs":["r"],"input_layouts":["NHWC"],"layout":"NHWC"},
        {"name":"r2","op":"ReLU","inputs":["r"]},
        {"name":"b","op":"Conv","inputs":["r2"]}]})");
    NetPlan plan = plan_network(g);
    ASSERT_EQ(plan.initial.mismatches.size(), 1u);
    ASSERT_EQ(plan.decisions.size(), 2u);
    const Decision* first = decision_on(g, plan, "r", "a");
    const Decision* second = decision_on(g, plan, "r2", "b");
    ASSERT_TRUE(first && second);
    EXPECT_EQ(first->strategy, Strategy::ProducerWrite);
    EXPECT_FALSE(first->appeared);
    EXPECT_TRUE(second->appeared);
    EXPECT_EQ(second->round, 2);
    EXPECT_EQ(order_name(second->source), "NHWC");
    EXPECT_EQ(order_name(second->target), "NCHW");
    expect_all_resolved(plan);
}

TEST(NetplanFeedback, BranchIntoConcat) {
    // r (NCHW, loops NHWC) feeds k (wants NHWC) and slot 0 of cat; q feeds
    // slot 1. Concat wants every input in the layout of input 0.
    auto graph = [](const char* q_layout) {
        return parse_graph_text(std::string(R"({"nodes":[
            {"name":"x","op":"Input","shape":[1,16,8,8]},
            {"name":"p","op":"Conv","inputs":["x"],"layout":"NCHW"},
            {"name":"r","op":"ReLU","inputs":["p"],"compute_order":"NHWC"},
            {"name":"k","op":"Conv","inputs":["r"],"input_layouts":["NHWC"],"layout":"NHWC"},
            {"name":"q","op":"Conv","inputs":["x"],"input_layouts":["NCHW"],"layout":")") +
                                q_layout + R"("},
            {"name":"cat","op":"Concat","inputs":["r","q"],"axis":1}]})");
    };
    // q stores NHWC: cat's slot 1 mismatches at first, and the write-time
    // decision for k makes r (so cat) NHWC: that mismatch disappears.
    Graph g = graph("NHWC");
    NetPlan plan = plan_network(g);
    EXPECT_EQ(plan.initial.mismatches.size(), 2u);
    ASSERT_EQ(plan.decisions.size(), 1u);
    EXPECT_EQ(plan.decisions[0].consumer, "k");
    EXPECT_EQ(plan.decisions[0].strategy, Strategy::ProducerWrite);
    EXPECT_EQ(layout_of(g, plan.propagation, "cat"), "NHWC");
    EXPECT_TRUE(plan.propagation.mismatches.empty());
    // q stores NCHW: no mismatch at cat at first; after the write one
    // appears, and several producers in different layouts -> read time.
    Graph h = graph("NCHW");
    NetPlan p2 = plan_network(h);
    EXPECT_EQ(p2.initial.mismatches.size(), 1u);
    ASSERT_EQ(p2.decisions.size(), 2u);
    const Decision* at_cat = decision_on(h, p2, "q", "cat");
    ASSERT_TRUE(at_cat);
    EXPECT_TRUE(at_cat->appeared);
    EXPECT_EQ(at_cat->rule_id, "several_producers");
    EXPECT_EQ(at_cat->strategy, Strategy::ConsumerRead);
    expect_all_resolved(p2);
}

TEST(NetplanFeedback, ConflictingWritePickIsRuledOut) {
    // Mixed consumers: a and b get NHWC written for them; picking a
    // write-time transform for c (wants NCHW) would undo that.
    Graph g = parse_graph_text(R"({"nodes":[{"name":"x","op":"Input","shape":[1,16,8,8]},
        {"name":"p","op":"Conv","inputs":["x"],"compute_order":"NHWC"},
        {"name":"a","op":"Conv","inputs":["p"],"input_layouts":["NHWC"],"layout":"NHWC"},
        {"name":"b","op":"Conv","inputs":["p"],"input_layouts":["NHWC"],"layout":"NHWC"},
        {"name":"c","op":"Conv","inputs":["p"]}]})");
    size_t pc = edge_of(g, propagate(g), "p", "c");
    NetPlan plan = plan_network(g, {}, {{pc, Strategy::ProducerWrite}});
    const Decision* d = decision_on(g, plan, "p", "c");
    ASSERT_TRUE(d);
    EXPECT_EQ(d->strategy, Strategy::ConsumerRead);
    EXPECT_FALSE(d->picked);
    for (const auto& c : d->candidates)
        if (c.strategy == Strategy::ProducerWrite) {
            EXPECT_FALSE(c.feasible);
            EXPECT_NE(c.why_not.find("already stores NHWC"), std::string::npos) << c.why_not;
        }
    EXPECT_EQ(layout_of(g, plan.propagation, "p"), "NHWC");
    expect_all_resolved(plan);
}

TEST(NetplanFeedback, ExamplesSettleWithEveryMismatchResolved) {
    for (const auto& name : example_names()) {
        NetPlan plan = plan_network(example_graph(name));
        EXPECT_FALSE(plan.decisions.empty()) << name;
        expect_all_resolved(plan);
        for (const auto& d : plan.decisions) EXPECT_GE(d.round, 1) << name;
    }
}

TEST(NetplanFeedback, AddressStreamsOfTheSectionSixteenCopy) {
    NetPlan plan = plan_network(example_graph("conv-relu-conv"));
    ASSERT_EQ(plan.decisions.size(), 1u);
    const Decision& d = plan.decisions[0];
    auto streams = address_streams(d);
    ASSERT_EQ(streams.size(), 4u);
    EXPECT_EQ(streams[0].name, "dma_read_strides");
    EXPECT_EQ(stream_offsets(d.shape, streams[0], 4), (std::vector<int64_t>{0, 1, 2, 3}));
    EXPECT_EQ(stream_offsets(d.shape, streams[1], 4), (std::vector<int64_t>{0, 64, 128, 192}));
    // The 57th step wraps w and moves h: NHWC offset 56*64 = 3584.
    EXPECT_EQ(stream_offsets(d.shape, streams[1], 57).back(), 3584);
    // conv2 loops in NHWC over the NHWC buffer: contiguous.
    EXPECT_EQ(streams[3].name, "consumer_read_strides");
    EXPECT_EQ(stream_offsets(d.shape, streams[3], 3), (std::vector<int64_t>{0, 1, 2}));
    // Every stream visits each offset once over the whole tensor.
    ll::Shape small{1, 3, 2, 2};
    AddressStream s{"x", d.source, order_strides(small, d.target)};
    auto all = stream_offsets(small, s, 100);
    ASSERT_EQ(all.size(), 12u);
    std::vector<int> hits(12, 0);
    for (int64_t o : all) ++hits[size_t(o)];
    for (int h : hits) EXPECT_EQ(h, 1);
}
