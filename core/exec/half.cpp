#include "core/exec/half.hpp"

#include <cmath>
#include <cstring>

namespace ll::exec {

uint16_t float_to_half(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    const uint16_t sign = uint16_t((x >> 16) & 0x8000u);
    x &= 0x7fffffffu;
    if (x >= 0x7f800000u) return uint16_t(sign | (x > 0x7f800000u ? 0x7e00u : 0x7c00u));
    if (x >= 0x477ff000u) return uint16_t(sign | 0x7c00u);  // >= 65520 rounds to inf
    if (x < 0x38800000u) {
        // Subnormal half: the value in units of 2^-24, rounded to nearest even
        // (the scale by 2^24 is exact, nearbyint uses the default RNE mode).
        float a;
        std::memcpy(&a, &x, 4);
        return uint16_t(sign | uint16_t(std::nearbyint(a * 16777216.0f)));
    }
    uint32_t e = (x >> 23) - 127 + 15, m = x & 0x7fffffu;
    uint32_t h = (e << 10) | (m >> 13), rest = m & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;  // carry into exponent is right
    return uint16_t(sign | h);
}

float half_to_float(uint16_t h) {
    const uint32_t sign = uint32_t(h & 0x8000u) << 16;
    const uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    float out;
    if (e == 0) {
        out = std::ldexp(float(m), -24);
        if (sign) out = -out;
        return out;
    }
    uint32_t x = sign | (e == 31 ? (0xffu << 23) | (m << 13) : ((e - 15 + 127) << 23) | (m << 13));
    std::memcpy(&out, &x, 4);
    return out;
}

}  // namespace ll::exec
