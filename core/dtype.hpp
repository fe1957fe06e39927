// Element types known to the engine.
//
// Contract: bits(t) is the storage width; bytes are fractional only for int4,
// which is packed two elements per byte (low nibble first).
//   dtype_from_name("fp16") == DType::fp16, bits(DType::fp16) == 16,
//   elems_per_32b(DType::fp16) == 16  (the fractal row / C0 rule).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ll {

enum class DType : uint8_t { int4, int8, uint8, int16, fp16, bf16, fp32, int32 };

const char* name(DType t);
int bits(DType t);
// Throws UsageError naming the accepted names. Accepts aliases
// (float16/half, float32/float, bfloat16).
DType dtype_from_name(const std::string& s);
const std::vector<DType>& all_dtypes();
std::string dtype_names();  // "int4, int8, ..." for messages

// Elements in 32 bytes: the fractal row width and the default C0 / K0.
inline int64_t elems_per_32b(DType t) {
    return 256 / bits(t);
}

// Bytes occupied by n elements (int4 rounds up to whole bytes).
inline int64_t bytes_for(DType t, int64_t n) {
    return (n * bits(t) + 7) / 8;
}

bool is_float(DType t);
// A value a user asks to store as t (a padding value): integer types need a
// whole number within their range, float types take any value (NaN and inf
// included, as NumPy does). UsageError naming `what` otherwise, e.g.
//   check_value_fits(int8, 1000, "--pad-value") throws "--pad-value: 1000
//   does not fit int8; expected an integer in [-128, 127]"
void check_value_fits(DType t, double v, const std::string& what);

}  // namespace ll
