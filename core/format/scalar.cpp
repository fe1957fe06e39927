#include "core/format/scalar.hpp"

#include <cmath>
#include <cstring>

#include "core/format/format.hpp"

namespace ll {

uint16_t float_to_half(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    const uint32_t sign = (x >> 16) & 0x8000u;
    const uint32_t exp = (x >> 23) & 0xFFu;
    uint32_t man = x & 0x7FFFFFu;
    if (exp == 0xFF) return static_cast<uint16_t>(sign | 0x7C00u | (man ? 0x200u : 0u));
    int e = static_cast<int>(exp) - 127 + 15;
    if (e >= 31) return static_cast<uint16_t>(sign | 0x7C00u);
    if (e <= 0) {
        if (e < -10) return static_cast<uint16_t>(sign);
        man |= 0x800000u;
        const int shift = 14 - e;
        uint32_t h = man >> shift;
        const uint32_t rem = man & ((1u << shift) - 1u), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1u))) ++h;
        return static_cast<uint16_t>(sign | h);
    }
    uint32_t h = (static_cast<uint32_t>(e) << 10) | (man >> 13);
    const uint32_t rem = man & 0x1FFFu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;  // may carry into exp: fine
    return static_cast<uint16_t>(sign | h);
}

float half_to_float(uint16_t h) {
    const uint32_t sign = (h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1Fu, man = h & 0x3FFu;
    uint32_t x;
    if (exp == 0) {
        if (man == 0) {
            x = sign;
        } else {
            int e = -1;
            do {
                man <<= 1;
                ++e;
            } while (!(man & 0x400u));
            x = sign | (static_cast<uint32_t>(127 - 15 - e) << 23) | ((man & 0x3FFu) << 13);
        }
    } else if (exp == 31) {
        x = sign | 0x7F800000u | (man << 13);
    } else {
        x = sign | ((exp + 127 - 15) << 23) | (man << 13);
    }
    float f;
    std::memcpy(&f, &x, 4);
    return f;
}

uint16_t float_to_bf16(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    if ((x & 0x7F800000u) == 0x7F800000u && (x & 0x7FFFFFu))
        return static_cast<uint16_t>((x >> 16) | 0x40u);
    x += 0x7FFFu + ((x >> 16) & 1u);
    return static_cast<uint16_t>(x >> 16);
}

float bf16_to_float(uint16_t b) {
    uint32_t x = static_cast<uint32_t>(b) << 16;
    float f;
    std::memcpy(&f, &x, 4);
    return f;
}

uint64_t encode_scalar(DType t, double v) {
    auto as_int = [&]() -> int64_t {
        if (!std::isfinite(v)) return 0;
        if (v > 9.2e18) return INT64_MAX;
        if (v < -9.2e18) return INT64_MIN;
        return static_cast<int64_t>(v);
    };
    switch (t) {
        case DType::int4:
            return static_cast<uint64_t>(as_int()) & 0xFu;
        case DType::int8:
        case DType::uint8:
            return static_cast<uint64_t>(as_int()) & 0xFFu;
        case DType::int16:
            return static_cast<uint64_t>(as_int()) & 0xFFFFu;
        case DType::int32:
        case DType::uint32:
            return static_cast<uint64_t>(as_int()) & 0xFFFFFFFFu;
        case DType::uint16:
            return static_cast<uint64_t>(as_int()) & 0xFFFFu;
        case DType::fp8_e5m2:
        case DType::fp8_e4m3fn:
        case DType::hifloat8:
        case DType::fp4x2_e2m1:
        case DType::fp4x2_e1m2:  // storage only: the value is the bit code
            return static_cast<uint64_t>(as_int()) & 0xFFu;
        case DType::fp16:
            return float_to_half(static_cast<float>(v));
        case DType::bf16:
            return float_to_bf16(static_cast<float>(v));
        case DType::fp32: {
            float f = static_cast<float>(v);
            uint32_t x;
            std::memcpy(&x, &f, 4);
            return x;
        }
    }
    return 0;
}

double load_element(DType t, const void* buf, int64_t index) {
    const auto* b = static_cast<const uint8_t*>(buf);
    switch (t) {
        case DType::int4: {
            uint8_t byte = b[index / 2];
            int v = (index % 2) ? (byte >> 4) : (byte & 0xF);
            return v >= 8 ? v - 16 : v;
        }
        case DType::int8:
            return static_cast<int8_t>(b[index]);
        case DType::uint8:
        case DType::fp8_e5m2:
        case DType::fp8_e4m3fn:
        case DType::hifloat8:
        case DType::fp4x2_e2m1:
        case DType::fp4x2_e1m2:
            return b[index];
        case DType::uint16: {
            uint16_t v;
            std::memcpy(&v, b + index * 2, 2);
            return v;
        }
        case DType::uint32: {
            uint32_t v;
            std::memcpy(&v, b + index * 4, 4);
            return v;
        }
        case DType::int16: {
            int16_t v;
            std::memcpy(&v, b + index * 2, 2);
            return v;
        }
        case DType::fp16:
        case DType::bf16: {
            uint16_t v;
            std::memcpy(&v, b + index * 2, 2);
            return t == DType::fp16 ? half_to_float(v) : bf16_to_float(v);
        }
        case DType::fp32: {
            float v;
            std::memcpy(&v, b + index * 4, 4);
            return v;
        }
        case DType::int32: {
            int32_t v;
            std::memcpy(&v, b + index * 4, 4);
            return v;
        }
    }
    return 0;
}

void store_element(DType t, void* buf, int64_t index, double v) {
    auto* b = static_cast<uint8_t*>(buf);
    const uint64_t bitsv = encode_scalar(t, v);
    if (t == DType::int4) {
        uint8_t& byte = b[index / 2];
        if (index % 2)
            byte = static_cast<uint8_t>((byte & 0x0F) | (bitsv << 4));
        else
            byte = static_cast<uint8_t>((byte & 0xF0) | bitsv);
        return;
    }
    const int nb = bits(t) / 8;
    for (int i = 0; i < nb; ++i) b[index * nb + i] = static_cast<uint8_t>(bitsv >> (8 * i));
}

}  // namespace ll
