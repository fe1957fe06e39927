// Graph edits (core/netplan/edit.hpp): insert after, add a consumer, remove and
// reconnect; each keeps the graph valid and a refused edit changes nothing.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "core/netplan/edit.hpp"
#include "core/netplan/examples.hpp"
#include "core/netplan/strategy.hpp"

using namespace ll::netplan;

namespace {

Graph chain() {
    return parse_graph_text(R"({"name":"t","nodes":[
        {"name":"x","op":"Input","shape":[1,64,56,56],"layout":"NCHW"},
        {"name":"conv1","op":"Conv","inputs":["x"],"layout":"NCHW"},
        {"name":"relu","op":"ReLU","inputs":["conv1"]},
        {"name":"conv2","op":"Conv","inputs":["relu"],"input_layouts":["NHWC"],"layout":"NHWC"}]})");
}

// "name<-input,input" for every node, in the graph's (topological) order.
std::string wiring(const Graph& g) {
    std::string s;
    for (const Node& n : g.nodes) {
        s += (s.empty() ? "" : " ") + n.name + "<-";
        for (size_t i = 0; i < n.inputs.size(); ++i) s += (i ? "," : "") + n.inputs[i];
    }
    return s;
}

Node op(const std::string& name, OpKind k) {
    Node n;
    n.name = name;
    n.op = k;
    return n;
}

}  // namespace

TEST(NetplanEdit, InsertAfterReroutesEveryUser) {
    Graph g = chain();
    insert_after(g, "conv1", op("relu1", OpKind::ReLU));
    EXPECT_EQ(wiring(g), "x<- conv1<-x relu1<-conv1 relu<-relu1 conv2<-relu");
    // The planner still sees one NCHW -> NHWC mismatch, now further from conv1.
    const NetPlan p = plan_network(g);
    ASSERT_EQ(p.decisions.size(), 1u);
    EXPECT_EQ(p.decisions[0].producer, "relu");
}

TEST(NetplanEdit, AddConsumerKeepsTheOtherUsers) {
    Graph g = chain();
    Node c = op("conv3", OpKind::Conv);
    c.input_layouts = {"NHWC"};
    c.layout = "NHWC";
    add_consumer(g, "relu", c);
    EXPECT_EQ(wiring(g), "x<- conv1<-x relu<-conv1 conv2<-relu conv3<-relu");
    // Two consumers wanting NHWC from one producer: section 13.1's rule 3
    // (write it once) is what the planner weighs; the cost may overrule it
    // ("_cost"), as the rule and the cost are shown side by side.
    const NetPlan p = plan_network(g);
    ASSERT_FALSE(p.decisions.empty());
    EXPECT_EQ(p.decisions[0].rule_id.rfind("many_like_consumers", 0), 0u) << p.decisions[0].rule_id;
}

TEST(NetplanEdit, RemoveReconnectsUsersToTheFirstInput) {
    Graph g = chain();
    remove_node(g, "relu");
    EXPECT_EQ(wiring(g), "x<- conv1<-x conv2<-conv1");
    remove_node(g, "conv1");
    EXPECT_EQ(wiring(g), "x<- conv2<-x");
}

TEST(NetplanEdit, NewNodesAreSortedTopologically) {
    Graph g = chain();
    insert_after(g, "x", op("relu0", OpKind::ReLU));  // appended, then sorted
    for (size_t i = 0; i < g.nodes.size(); ++i)
        for (const auto& in : g.nodes[i].inputs) EXPECT_LT(g.index_of(in), int(i)) << in;
    EXPECT_EQ(g.nodes[1].name, "relu0");
}

TEST(NetplanEdit, RefusedEditsChangeNothing) {
    Graph g = chain();
    const std::string before = wiring(g);
    EXPECT_THROW(insert_after(g, "ghost", op("r", OpKind::ReLU)), ll::UsageError);
    EXPECT_THROW(insert_after(g, "conv1", op("relu", OpKind::ReLU)), ll::UsageError);  // taken
    EXPECT_THROW(insert_after(g, "conv1", op("", OpKind::ReLU)), ll::UsageError);
    EXPECT_THROW(add_consumer(g, "ghost", op("c", OpKind::Conv)), ll::UsageError);
    EXPECT_THROW(remove_node(g, "x"), ll::UsageError);  // a source
    EXPECT_THROW(remove_node(g, "ghost"), ll::UsageError);
    // An Add needs two inputs: inserting it after a node gives it one, and
    // validation refuses; the graph stays as it was.
    EXPECT_THROW(insert_after(g, "conv1", op("add", OpKind::Add)), ll::UsageError);
    EXPECT_EQ(wiring(g), before);
    try {
        remove_node(g, "x");
    } catch (const ll::UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("'x'"), std::string::npos) << e.what();
    }
}

TEST(NetplanEdit, UniqueNames) {
    Graph g = chain();
    EXPECT_EQ(unique_name(g, "relu"), "relu1");
    insert_after(g, "conv1", op("relu1", OpKind::ReLU));
    EXPECT_EQ(unique_name(g, "relu"), "relu2");
    EXPECT_EQ(unique_name(g, "conv"), "conv3");  // conv1 and conv2 exist
}

TEST(NetplanEdit, EveryExampleSurvivesRemovingEachOperator) {
    for (const auto& name : example_names()) {
        const Graph g0 = example_graph(name);
        for (const Node& n : g0.nodes) {
            if (n.inputs.empty()) continue;
            Graph g = g0;
            try {
                remove_node(g, n.name);
            } catch (const ll::UsageError&) {
                EXPECT_EQ(wiring(g), wiring(g0)) << name << " " << n.name;
                continue;
            }
            EXPECT_EQ(g.nodes.size(), g0.nodes.size() - 1) << name << " " << n.name;
            EXPECT_LT(g.index_of(n.name), 0);
        }
    }
}
