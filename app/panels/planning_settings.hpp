// What a layout-planning scene file holds: the graph (an example's name, or
// a graph object / example name / JSON file path), the memory model (core's
// netplan::MemoryModel), the strategies picked per mismatched edge, the
// selection, the tab, and the NoC demo (core's netplan::NocConfig, with the
// hops travelled and playing). Read through the one SceneReader: types and
// keys are checked here, names (edges, strategies, nodes) and values by the
// engine when the panel applies them. Pure data, no GL: tests/app
// round-trips it.
//
// Example: {"example": "conv-relu-conv", "picked": {"relu->conv2":
// "consumer_read"}, "tab": "strategies"}; {"noc": {"speed": 2}} throws a
// UsageError with key() "noc.speed".
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "app/panels/scene_reader.hpp"
#include "core/netplan/noc.hpp"
#include "core/netplan/strategy.hpp"

namespace ll::gui {

struct PlanningSettings {
    static constexpr const char* kTabs[3] = {"strategies", "edit", "noc"};

    std::string example;                        // an example graph, or "" for `graph`
    nlohmann::json graph;                       // object, example name or file path
    netplan::MemoryModel model;                 // dram/sram GB/s, element and burst bytes, dma
    std::map<std::string, std::string> picked;  // "producer->consumer" -> strategy
    std::string select;                         // a mismatched edge, "" for the first
    std::string strategy;                       // a pick for `select` (read only)
    std::string select_node;                    // "" for none
    int tab = 0;                                // kTabs
    netplan::NocConfig noc;
    double noc_step = 0;  // hops travelled
    bool noc_playing = false;

    nlohmann::json to_json() const;
    // Keys absent keep their values, except as a scene has always meant:
    // picked, select, strategy and select_node absent mean none; a "noc"
    // object without step or playing means 0 and false.
    void read(const SceneReader& r);
};

}  // namespace ll::gui
