#include "app/panels/planning_settings.hpp"

#include <cfloat>
#include <cstdint>

namespace ll::gui {

nlohmann::json PlanningSettings::to_json() const {
    nlohmann::json j;
    if (!example.empty())
        j["example"] = example;
    else
        j["graph"] = graph;
    j["model"] = {{"dram_gbps", model.dram_gbps},
                  {"sram_gbps", model.sram_gbps},
                  {"elem_bytes", model.elem_bytes},
                  {"burst_bytes", model.burst_bytes},
                  {"dma", model.dma}};
    j["picked"] = nlohmann::json::object();
    for (const auto& [e, s] : picked) j["picked"][e] = s;
    if (!select.empty()) j["select"] = select;
    if (!select_node.empty()) j["select_node"] = select_node;
    j["tab"] = kTabs[tab];
    j["noc"] = {{"rows", noc.rows},           {"cols", noc.cols}, {"pes", noc.pes},
                {"mesh_cols", noc.mesh_cols}, {"step", noc_step}, {"playing", noc_playing}};
    return j;
}

void PlanningSettings::read(const SceneReader& r) {
    r.only(
        {"example", "graph", "model", "picked", "select", "strategy", "select_node", "tab", "noc"});
    PlanningSettings s = *this;
    if (r.has("example") && r.has("graph"))
        r.fail("graph", r.at("graph"), "\"example\" or \"graph\", not both");
    if (r.has("example")) {
        r.get("example", s.example);
        s.graph = nullptr;
    } else if (r.has("graph")) {
        const nlohmann::json& g = r.at("graph");
        if (!g.is_object() && !g.is_string())
            r.fail("graph", g, "a graph object, an example name or a file path");
        s.example.clear();
        s.graph = g;
    }
    // The engine checks the model's values (netplan::check); here, types.
    const SceneReader m = r.sub("model");
    m.only({"dram_gbps", "sram_gbps", "elem_bytes", "burst_bytes", "dma"});
    m.get("dram_gbps", s.model.dram_gbps, -DBL_MAX, DBL_MAX);
    m.get("sram_gbps", s.model.sram_gbps, -DBL_MAX, DBL_MAX);
    m.get("elem_bytes", s.model.elem_bytes, INT64_MIN, INT64_MAX);
    m.get("burst_bytes", s.model.burst_bytes, INT64_MIN, INT64_MAX);
    m.get("dma", s.model.dma);
    s.picked.clear();
    if (r.has("picked")) {
        const nlohmann::json& p = r.at("picked");
        if (!p.is_object()) r.fail("picked", p, "{\"producer->consumer\": strategy}");
        for (const auto& [e, v] : p.items()) {
            if (!v.is_string()) r.sub("picked").fail(e.c_str(), v, "a strategy name");
            s.picked[e] = v.get<std::string>();
        }
    }
    s.select.clear();
    s.strategy.clear();
    s.select_node.clear();
    r.get("select", s.select);
    r.get("strategy", s.strategy);
    r.get("select_node", s.select_node);
    if (r.has("tab")) {
        std::string t;
        r.get_choice("tab", t, {kTabs[0], kTabs[1], kTabs[2]});
        for (int i = 0; i < 3; ++i)
            if (t == kTabs[i]) s.tab = i;
    }
    if (r.has("noc")) {
        const SceneReader n = r.sub("noc");
        n.only({"rows", "cols", "pes", "mesh_cols", "step", "playing"});
        n.get("rows", s.noc.rows, INT64_MIN, INT64_MAX);  // the engine checks them
        n.get("cols", s.noc.cols, INT64_MIN, INT64_MAX);
        n.get("pes", s.noc.pes, INT64_MIN, INT64_MAX);
        n.get("mesh_cols", s.noc.mesh_cols, INT64_MIN, INT64_MAX);
        s.noc_step = 0;
        s.noc_playing = false;
        n.get("step", s.noc_step, 0.0, 1e9);
        n.get("playing", s.noc_playing);
    }
    *this = s;
}

}  // namespace ll::gui
