// Scalar conversions between double and the engine's element encodings.
//
// Contract: float_to_half(1.0f) == 0x3C00, half_to_float(0x3C00) == 1.0f,
// float_to_bf16(1.0f) == 0x3F80; rounding is to nearest, ties to even;
// overflow gives +-inf; NaN stays NaN.
#pragma once

#include <cstdint>

#include "core/dtype.hpp"

namespace ll {

uint16_t float_to_half(float f);
float half_to_float(uint16_t h);
uint16_t float_to_bf16(float f);
float bf16_to_float(uint16_t b);

// The bit pattern of v in dtype t, in the low bits (int4: low nibble).
uint64_t encode_scalar(DType t, double v);

}  // namespace ll
