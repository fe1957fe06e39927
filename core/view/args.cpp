#include "core/view/args.hpp"

#include <cctype>

#include "core/checked.hpp"
#include "core/dtype.hpp"
#include "core/error.hpp"

namespace ll::view {

int elem_bits_from(const std::string& dtype, int64_t elem_size_bytes) {
    if (!dtype.empty() && elem_size_bytes != 0)
        throw UsageError("elem_size", "given with a dtype; expected one of them");
    if (!dtype.empty()) return bits(dtype_from_name(dtype));
    if (elem_size_bytes == 0) return 32;
    if (elem_size_bytes < 0 || elem_size_bytes > 64)
        throw UsageError("elem_size", std::to_string(elem_size_bytes) +
                                          "; expected a size in bytes from 1 to 64");
    return int(elem_size_bytes * 8);
}

int64_t parse_address(const std::string& text, const std::string& what) {
    std::string t = text;
    int base = 10;
    if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
        t = t.substr(2);
        base = 16;
    }
    bool ok = !t.empty() && t.size() <= (base == 16 ? 12u : 15u);
    for (char c : t)
        ok = ok && (base == 16 ? std::isxdigit(static_cast<unsigned char>(c))
                               : std::isdigit(static_cast<unsigned char>(c)));
    if (!ok)
        throw usage_error(what, "'" + text + "' is not an address; expected a non-negative " +
                                    "decimal or 0x-prefixed hex number below 2^48");
    return std::stoll(t, nullptr, base);
}

Coord parse_index(const std::string& text, const Shape& shape, const std::string& what) {
    Coord c = parse_int_list(text, what);
    if (c.size() != shape.size())
        throw usage_error(what, text + " has " + std::to_string(c.size()) +
                                    " entries; expected one per dim of the result " +
                                    ll::to_string(shape));
    for (size_t i = 0; i < c.size(); ++i)
        if (c[i] < 0 || c[i] >= shape[i])
            throw usage_error(what, text + ": entry " + std::to_string(i) + " = " +
                                        std::to_string(c[i]) + " is outside the result " +
                                        ll::to_string(shape) + "; expected 0 <= i < " +
                                        std::to_string(shape[i]));
    return c;
}

}  // namespace ll::view
