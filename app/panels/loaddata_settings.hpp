// What a LoadData scene file holds: which instruction (Load2D, Load2Dv2,
// Load3D), whose product table applies, the dtype and the data path, each
// instruction's parameters (core's Load2dParams / Load2dV2Params /
// Load3dParams: the engine input) and the view (stage 0 source .. 1
// destination, playing). Pure data, no GL: tests/app round-trips it.
//
// Example: {"mode": "load2d", "load2d": {"start_index": 1, "repeat": 3}};
// a bad field throws a UsageError keyed by it ({"load2d": {"repeat": "x"}}
// -> key() "load2d.repeat"). Parameter ranges are the engine's to check: a
// scene holds a load that runs, checked when the panel builds it.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "app/panels/scene_reader.hpp"
#include "core/exec/load2d.hpp"
#include "core/exec/load3d.hpp"
#include "core/exec/product.hpp"

namespace ll::gui {

struct LoadDataSettings {
    static constexpr const char* kModeKeys[3] = {"load2d", "load2dv2", "load3d"};
    static constexpr const char* kPaths[6] = {"A1->A2", "B1->B2", "GM->A1",
                                              "GM->B1", "GM->A2", "GM->B2"};

    int mode = 0;  // index into kModeKeys
    exec::Product product = exec::Product::any;
    std::string dtype = "fp16";
    int path = 0;  // index into kPaths
    exec::Load2dParams v1;
    exec::Load2dV2Params v2;
    exec::Load3dParams v3;
    double stage = 0;  // 0 the source, 1 the destination
    bool playing = false;

    // The panel's first scene: the worked examples of each instruction.
    static LoadDataSettings initial();
    nlohmann::json to_json() const;
    // Keys absent from the file keep their values.
    void read(const SceneReader& r);
};

}  // namespace ll::gui
