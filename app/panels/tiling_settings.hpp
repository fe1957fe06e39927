// What a tiling scene file holds: the model's input (the tensor, layout,
// dtype, tiles, orders, passes, stride basis and memory levels, from which
// config() builds core's tiling::Config) and the view (the traversal's speed,
// step and playing, the memory slider, the tab, the tile-size plot's
// dimension, the sweep, the plot to export). Pure data, no GL: tests/app
// round-trips it.
//
// Keys (all optional): shape [N,C,H,W], layout "NCHW"|"NHWC"|"NC1HWC0",
// dtype "fp32"..., l1_tile / l2_tile [C,H,W], l1_order / l2_order "W_H_C"...,
// l2_passes, stride_basis "source"|"destination", access_bytes [DRAM,SRAM],
// bandwidth [DRAM,SRAM,registers] GB/s, setup_ns [L1,L2], speed (sub-tiles/s),
// memory (0..1: the pictures' stage, 0 as (C,H,W), 1 in memory), step,
// playing, tab, tilesize_dim "C"|"H"|"W", sweep (true: run it), export_plot,
// sidebar (false: the settings column is hidden, the pictures take its room),
// export "/path/base" (writes base.png, .svg, .csv once, at load; not saved).
// Names match in any case, or as their index. A bad value throws a UsageError
// keyed by its key ({"l1_order": "W_W_C"} -> key() "l1_order").
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "app/panels/scene_reader.hpp"
#include "core/tiling/tiling.hpp"

namespace ll::gui {

struct TilingSettings {
    static constexpr const char* kPlotIds[5] = {"efficiency", "time", "heatmap", "tilesize",
                                                "sweep"};
    static constexpr const char* kTabIds[5] = {"traversal", "levels", "heatmap", "tilesize",
                                               "sweep"};

    // the model's input (ints and floats: the panel's widgets edit them)
    int shape[4] = {1, 64, 56, 56};
    int layout = 0;      // index into tiling::offered_layouts()
    int dtype = 6;       // index into all_dtypes()
    int o1 = 0, o2 = 0;  // indices into tiling::all_orders()
    int passes = 4;
    int basis = 0;  // 0 source, 1 destination
    int l1[3] = {16, 14, 14}, l2[3] = {4, 7, 7};
    float setup[2] = {0, 0}, bw[3] = {100, 500, 2000};
    int access[2] = {64, 16};  // DRAM burst, SRAM word (bytes); 0 = formula (8) alone
    // the view
    float speed = 6;  // sub-tiles per second
    float memory = 0;
    double step = 0;
    bool playing = true;
    int tab = 0;  // kTabIds
    int lines_dim = 2;
    bool sweep = false;
    int export_plot = 2;      // kPlotIds
    bool sidebar = true;      // the settings column is shown
    std::string export_base;  // an action at load ("export"), never saved

    // The engine's Config (validated by core when evaluated).
    tiling::Config config() const;
    nlohmann::json to_json() const;
    // Keys absent keep their values; tiles are checked against the shape.
    // The step is checked by the panel (its range comes from the model).
    void read(const SceneReader& r);
};

}  // namespace ll::gui
