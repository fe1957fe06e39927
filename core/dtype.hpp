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

// The last seven come from document 001 (Load2D / Load2Dv2 on Atlas A2/A3 and
// Atlas 350). fp8_e5m2, fp8_e4m3fn, hifloat8 and the fp4x2 pairs are kept as
// storage types: the engine moves their bytes and shows each element as its
// bit code (0..255), it never decodes them. An fp4x2 element is one byte
// holding two 4-bit values, so sizeof(T) == 1 and a 32-byte fractal row holds
// 32 of them, as the document's 16 x (32 B / sizeof(T)) rule gives.
enum class DType : uint8_t {
    int4,
    int8,
    uint8,
    int16,
    fp16,
    bf16,
    fp32,
    int32,
    uint16,
    uint32,
    fp8_e5m2,
    fp8_e4m3fn,
    hifloat8,
    fp4x2_e2m1,
    fp4x2_e1m2
};

const char* name(DType t);
int bits(DType t);
// Throws UsageError naming the accepted names. Accepts aliases
// (float16/half, float32/float, bfloat16) and the documents' C names with
// their _t suffix (int8_t, uint16_t, bfloat16_t, int4b_t, hifloat8_t, ...).
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
// Storage-only types (the 8-bit floats and fp4x2): values are bit codes.
bool is_storage_only(DType t);
// Width of one value inside an element: 4 for int4 and the fp4x2 pairs (the
// "b4" of Load2Dv2's transpose rules), else bits(t).
int value_bits(DType t);
// Smallest and largest value an integer or storage-only element holds
// (storage-only: its code 0..255); both 0 for floating types.
double int_min(DType t);
double int_max(DType t);
// A value a user asks to store as t (a padding value): integer types need a
// whole number within their range, float types take any value (NaN and inf
// included, as NumPy does). UsageError with key `what` otherwise, e.g.
//   check_value_fits(int8, 1000, "pad_value") throws "pad_value: 1000
//   does not fit int8; expected an integer in [-128, 127]"
void check_value_fits(DType t, double v, const std::string& what);

}  // namespace ll
