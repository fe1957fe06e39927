#include "core/dtype.hpp"

#include <cmath>

#include "core/checked.hpp"
#include "core/error.hpp"

namespace ll {

namespace {
struct Info {
    DType t;
    const char* name;
    int bits;
    bool is_float;
    bool storage_only = false;
    int value_bits = 0;  // 0: bits
};
constexpr Info kInfo[] = {
    {DType::int4, "int4", 4, false},
    {DType::int8, "int8", 8, false},
    {DType::uint8, "uint8", 8, false},
    {DType::int16, "int16", 16, false},
    {DType::fp16, "fp16", 16, true},
    {DType::bf16, "bf16", 16, true},
    {DType::fp32, "fp32", 32, true},
    {DType::int32, "int32", 32, false},
    {DType::uint16, "uint16", 16, false},
    {DType::uint32, "uint32", 32, false},
    {DType::fp8_e5m2, "fp8_e5m2", 8, false, true},
    {DType::fp8_e4m3fn, "fp8_e4m3fn", 8, false, true},
    {DType::hifloat8, "hifloat8", 8, false, true},
    {DType::fp4x2_e2m1, "fp4x2_e2m1", 8, false, true, 4},
    {DType::fp4x2_e1m2, "fp4x2_e1m2", 8, false, true, 4},
};
const Info& info(DType t) {
    return kInfo[static_cast<int>(t)];
}
}  // namespace

const char* name(DType t) {
    return info(t).name;
}
int bits(DType t) {
    return info(t).bits;
}
bool is_float(DType t) {
    return info(t).is_float;
}
bool is_storage_only(DType t) {
    return info(t).storage_only;
}
int value_bits(DType t) {
    return info(t).value_bits ? info(t).value_bits : info(t).bits;
}

double int_min(DType t) {
    switch (t) {
        case DType::int4:
            return -8;
        case DType::int8:
            return -128;
        case DType::int16:
            return -32768;
        case DType::int32:
            return -2147483648.0;
        default:
            return 0;
    }
}

double int_max(DType t) {
    if (is_float(t)) return 0;
    if (is_storage_only(t)) return 255;
    switch (t) {
        case DType::int4:
            return 7;
        case DType::int8:
            return 127;
        case DType::uint8:
            return 255;
        case DType::int16:
            return 32767;
        case DType::uint16:
            return 65535;
        case DType::int32:
            return 2147483647.0;
        case DType::uint32:
            return 4294967295.0;
        default:
            return 0;
    }
}

const std::vector<DType>& all_dtypes() {
    static const std::vector<DType> v = [] {
        std::vector<DType> r;
        for (const auto& i : kInfo) r.push_back(i.t);
        return r;
    }();
    return v;
}

std::string dtype_names() {
    std::string s;
    for (const auto& i : kInfo) {
        if (!s.empty()) s += ", ";
        s += i.name;
    }
    return s;
}

DType dtype_from_name(const std::string& text) {
    // The documents' C spellings: int8_t, bfloat16_t, fp8_e5m2_t, int4b_t.
    std::string s = text;
    if (s.size() > 2 && s.compare(s.size() - 2, 2, "_t") == 0) s.resize(s.size() - 2);
    if (s == "int4b") return DType::int4;
    if (s == "bfloat16") return DType::bf16;
    for (const auto& i : kInfo)
        if (s == i.name) return i.t;
    if (s == "float16" || s == "half") return DType::fp16;
    if (s == "float32" || s == "float") return DType::fp32;
    if (s == "bfloat16") return DType::bf16;
    throw UsageError("unknown dtype '" + text + "'; expected one of " + dtype_names());
}

void check_value_fits(DType t, double v, const std::string& what) {
    if (is_float(t)) return;
    const int b = bits(t);
    const bool sign = t != DType::uint8;
    const double lo = sign ? -std::ldexp(1.0, b - 1) : 0;
    const double hi = sign ? std::ldexp(1.0, b - 1) - 1 : std::ldexp(1.0, b) - 1;
    if (!std::isfinite(v) || v != std::floor(v) || v < lo || v > hi)
        throw usage_error(what, number_text(v) + " does not fit " + name(t) +
                                    "; expected an integer in [" + std::to_string(int64_t(lo)) +
                                    ", " + std::to_string(int64_t(hi)) + "]");
}

}  // namespace ll
