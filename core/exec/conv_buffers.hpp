// How much of each AI Core buffer the whole convolution would occupy at once:
// the reason the pipeline must be tiled. One row per buffer on the data path
//   GM -> A1 (L1) -> A2 (L0A) -> Cube -> CO1 (L0C) -> GM,  GM -> B1 (L1) -> B2 (L0B)
// with the stage of conv_shapes() it holds, its capacity in bytes (named
// model parameters, BufferSizes) and the bytes the whole problem needs there:
//   A1: input_5hd x element bytes        B1: b_fractal (FRACTAL_Z) x element bytes
//   A2: a_fractal x element bytes        B2: b_fractal x element bytes
//   CO1: c_fractal x 4 (fp32 or int32 accumulators)
// Example (the case study, fp16): A2 needs 10*49*18*16*16*2 = 4,515,840 bytes
// of 65,536: 68.9 times its capacity, so it must be tiled; B2 needs 36,864
// bytes (56%) and fits.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/exec/conv.hpp"

namespace ll::exec {

// Buffer capacities of an Ascend 910-class AI Core (bytes).
struct BufferSizes {
    int64_t l1 = int64_t(1) << 20;     // A1 and B1 share L1; each is shown against all of it
    int64_t l0a = int64_t(64) << 10;   // A2
    int64_t l0b = int64_t(64) << 10;   // B2
    int64_t l0c = int64_t(256) << 10;  // CO1
};

struct BufferUse {
    std::string name;                // "A1", "B1", "A2", "B2", "CO1"
    std::string level;               // "L1", "L0A", "L0B", "L0C"
    std::string holds;               // "input NC1HWC0"
    std::string stage;               // the conv_shapes() key of what it holds
    int64_t capacity = 0, need = 0;  // bytes
    double occupancy() const { return double(need) / double(capacity); }
    bool must_tile() const { return need > capacity; }
};

// In the order A1, B1, A2, B2, CO1.
std::vector<BufferUse> conv_occupancy(const ConvParams& p, const ConvShapes& s,
                                      const BufferSizes& b = {});
nlohmann::json occupancy_json(const std::vector<BufferUse>& u);
std::string occupancy_text(const std::vector<BufferUse>& u);
// "4.3 MB": bytes in binary units with one decimal.
std::string human_bytes(double bytes);

}  // namespace ll::exec
