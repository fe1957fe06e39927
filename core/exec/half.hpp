// IEEE 754 binary16 ("fp16", "half") conversions, round to nearest even.
//
// Contract: half_to_float(float_to_half(x)) is the fp16 value nearest x (ties
// to even); overflow gives +-inf, NaN stays NaN. Worked example:
//   float_to_half(1.0f) == 0x3C00; round_to_half(0.1f) == 0.0999755859375f;
//   round_to_half(65520.0f) == inf; round_to_half(2049.0f) == 2048.0f (tie -> even)
#pragma once

#include <cstdint>

namespace ll::exec {

uint16_t float_to_half(float f);
float half_to_float(uint16_t h);
inline float round_to_half(float f) {
    return half_to_float(float_to_half(f));
}

}  // namespace ll::exec
