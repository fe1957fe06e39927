// The example graphs shipped in assets/graphs/, built in so that
// `layoutlab plan --example NAME` works from any folder.
#include "core/netplan/examples.hpp"

#include "core/error.hpp"

namespace ll::netplan {

namespace {

struct Example {
    const char* name;
    const char* json;
};

// Keep in sync with assets/graphs/*.json (tests compare them).
const Example
    kExamples[] =
        {
            {"conv-relu-conv",
             R"json({"name":"conv-relu-conv","nodes":[{"name":"x","op":"Input","shape":[1,64,56,56],"layout":"NCHW"},{"name":"conv1","op":"Conv","inputs":["x"],"layout":"NCHW","compute_order":"NCHW"},{"name":"relu","op":"ReLU","inputs":["conv1"]},{"name":"conv2","op":"Conv","inputs":["relu"],"input_layouts":["NHWC"],"layout":"NHWC","compute_order":"NHWC"}]})json"},
            {"one-producer-many-consumers",
             R"json({"name":"one-producer-many-consumers","nodes":[{"name":"x","op":"Input","shape":[1,64,56,56],"layout":"NCHW"},{"name":"conv1","op":"Conv","inputs":["x"],"layout":"NCHW"},{"name":"relu","op":"ReLU","inputs":["conv1"]},{"name":"branch_a","op":"Conv","inputs":["relu"],"input_layouts":["NHWC"],"shape":[1,32,56,56],"layout":"NHWC"},{"name":"branch_b","op":"Conv","inputs":["relu"],"input_layouts":["NHWC"],"shape":[1,32,56,56],"layout":"NHWC"},{"name":"branch_c","op":"Pool","inputs":["relu"],"input_layouts":["NHWC"],"shape":[1,64,28,28],"layout":"NHWC"}]})json"},
            {"many-producers",
             R"json({"name":"many-producers","nodes":[{"name":"x","op":"Input","shape":[1,64,56,56],"layout":"NCHW"},{"name":"conv_a","op":"Conv","inputs":["x"],"layout":"NCHW"},{"name":"conv_b","op":"Conv","inputs":["x"],"input_layouts":["NCHW"],"layout":"NHWC"},{"name":"sum","op":"Add","inputs":["conv_a","conv_b"]},{"name":"pool","op":"Pool","inputs":["sum"],"shape":[1,64,28,28]}]})json"},
            // A write-time decision at relu1 also fixes conv3's edge (decisions feed back).
            {"conv-chain", R"json({"name":"conv-chain","nodes":[{"name":"x","op":"Input","shape":[1,64,56,56],"layout":"NCHW"},{"name":"conv1","op":"Conv","inputs":["x"],"layout":"NCHW"},{"name":"relu1","op":"ReLU","inputs":["conv1"],"compute_order":"NHWC"},{"name":"conv2","op":"Conv","inputs":["relu1"],"input_layouts":["NHWC"],"compute_order":"NHWC"},{"name":"relu2","op":"ReLU","inputs":["conv2"]},{"name":"conv3","op":"Conv","inputs":["relu2"],"input_layouts":["NHWC"],"layout":"NHWC"}]})json"},
};

}  // namespace

std::vector<std::string> example_names() {
    std::vector<std::string> v;
    for (const auto& e : kExamples) v.push_back(e.name);
    return v;
}

Graph example_graph(const std::string& name) {
    for (const auto& e : kExamples)
        if (name == e.name) return parse_graph_text(e.json);
    std::string all;
    for (const auto& e : kExamples) all += (all.empty() ? "" : ", ") + std::string(e.name);
    throw UsageError("example", "unknown example '" + name + "'; expected one of " + all);
}

}  // namespace ll::netplan
