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
};
constexpr Info kInfo[] = {
    {DType::int4, "int4", 4, false},   {DType::int8, "int8", 8, false},
    {DType::uint8, "uint8", 8, false}, {DType::int16, "int16", 16, false},
    {DType::fp16, "fp16", 16, true},   {DType::bf16, "bf16", 16, true},
    {DType::fp32, "fp32", 32, true},   {DType::int32, "int32", 32, false},
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

const std::vector<DType>& all_dtypes() {
    static const std::vector<DType> v = {DType::int4, DType::int8, DType::uint8, DType::int16,
                                         DType::fp16, DType::bf16, DType::fp32,  DType::int32};
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

DType dtype_from_name(const std::string& s) {
    for (const auto& i : kInfo)
        if (s == i.name) return i.t;
    if (s == "float16" || s == "half") return DType::fp16;
    if (s == "float32" || s == "float") return DType::fp32;
    if (s == "bfloat16") return DType::bf16;
    throw UsageError("unknown dtype '" + s + "'; expected one of " + dtype_names());
}

void check_value_fits(DType t, double v, const std::string& what) {
    if (is_float(t)) return;
    const int b = bits(t);
    const bool sign = t != DType::uint8;
    const double lo = sign ? -std::ldexp(1.0, b - 1) : 0;
    const double hi = sign ? std::ldexp(1.0, b - 1) - 1 : std::ldexp(1.0, b) - 1;
    if (!std::isfinite(v) || v != std::floor(v) || v < lo || v > hi)
        throw UsageError(what + ": " + number_text(v) + " does not fit " + name(t) +
                         "; expected an integer in [" + std::to_string(int64_t(lo)) + ", " +
                         std::to_string(int64_t(hi)) + "]");
}

}  // namespace ll
