// What an img2col scene file holds: the engine's input (core's Img2colSpec:
// the input tensor, the kernel window, stride, dilation, padding) and the view
// (the window position shown, the matrix stage 0 input .. 2 matrix, playing).
// Pure data, no GL: tests/app/compute_settings_test.cpp round-trips it.
//
// Example: {"h": 5, "w": 5, "kh": 3, "kw": 3, "pad": 1, "position": 4}; a bad
// field throws a UsageError keyed by it ({"kh": 0} -> key() "kh").
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>

#include "app/panels/scene_reader.hpp"
#include "core/exec/img2col.hpp"

namespace ll::gui {

struct Img2colSettings {
    static constexpr int64_t kMaxC = 64;  // channels a scene may ask for

    exec::Img2colSpec spec;  // engine input
    int64_t position = 0;    // the window shown, 0..rows-1
    double stage = 2;        // 0 input, 1 padded, 2 matrix
    bool playing = false;

    // The panel's first scene: a 3x3 input, a 2x2 kernel, the matrix.
    static Img2colSettings initial();
    nlohmann::json to_json() const;
    // Keys absent from the file keep their values. Validates the spec with
    // the engine (its key under this reader) and the position against it.
    void read(const SceneReader& r);
};

}  // namespace ll::gui
