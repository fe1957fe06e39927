#include "core/shape.hpp"

#include <cctype>

#include "core/checked.hpp"
#include "core/error.hpp"

namespace ll {

int64_t numel(const Shape& s) {
    int64_t n = 1;
    for (int64_t d : s) {
        if (d < 0)
            throw UsageError("negative dimension " + std::to_string(d) + " in shape " +
                             to_string(s));
        if (d != 0 && n > kMaxElements / d)
            throw UsageError("shape " + to_string(s) +
                             " has more than 2^40 elements; expected a tensor that fits in memory");
        n *= d;
    }
    return n;
}

Shape row_major_strides(const Shape& s) {
    Shape st(s.size(), 1);
    for (size_t i = s.size(); i-- > 1;) st[i - 1] = st[i] * s[i];
    return st;
}

std::string to_string(const Shape& s) {
    std::string r = "(";
    for (size_t i = 0; i < s.size(); ++i) {
        if (i) r += ",";
        r += std::to_string(s[i]);
    }
    return r + ")";
}

std::vector<int64_t> parse_int_list(const std::string& text, const std::string& what) {
    std::vector<int64_t> out;
    size_t i = 0;
    auto bad = [&](const std::string& why) {
        return usage_error(
            what, why + " in '" + text + "'; expected comma-separated integers such as 2,3,4");
    };
    if (text.find_first_not_of(" \t") == std::string::npos) throw bad("empty list");
    while (i <= text.size()) {
        size_t j = text.find(',', i);
        if (j == std::string::npos) j = text.size();
        std::string tok = text.substr(i, j - i);
        size_t a = tok.find_first_not_of(" \t"), b = tok.find_last_not_of(" \t");
        if (a == std::string::npos) throw bad("empty entry");
        tok = tok.substr(a, b - a + 1);
        size_t k = (tok[0] == '-' || tok[0] == '+') ? 1 : 0;
        if (k == tok.size()) throw bad("'" + tok + "' is not a number");
        for (size_t p = k; p < tok.size(); ++p)
            if (!std::isdigit(static_cast<unsigned char>(tok[p])))
                throw bad("'" + tok + "' is not a number");
        if (tok.size() - k > 18) throw bad("'" + tok + "' is too large");
        out.push_back(std::stoll(tok));
        i = j + 1;
        if (j == text.size()) break;
    }
    return out;
}

Shape parse_shape(const std::string& text, const std::string& what) {
    Shape s = parse_int_list(text, what);
    check_rank(s.size(), what);
    for (int64_t d : s)
        if (d <= 0)
            throw usage_error(what, "dimension " + std::to_string(d) + " in '" + text +
                                        "' must be a positive integer");
    try {
        numel(s);
    } catch (const UsageError& e) {
        throw usage_error(what, e.what());
    }
    return s;
}

Coord unravel(int64_t linear, const Shape& s) {
    Coord c(s.size(), 0);
    for (size_t i = s.size(); i-- > 0;) {
        c[i] = linear % s[i];
        linear /= s[i];
    }
    return c;
}

int64_t ravel(const Coord& c, const Shape& s) {
    int64_t r = 0;
    for (size_t i = 0; i < s.size(); ++i) r = r * s[i] + c[i];
    return r;
}

}  // namespace ll
