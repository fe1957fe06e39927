#include "core/netplan/layout_order.hpp"

#include <algorithm>
#include <cstring>
#include <sstream>

#include "core/error.hpp"
#include "core/view/layout.hpp"

namespace ll::netplan {

namespace {

const char* axis_letters(size_t rank) {
    if (rank == 4) return "NCHW";
    if (rank == 5) return "NCDHW";
    return nullptr;
}

}  // namespace

Order identity_order(size_t rank) {
    Order o(rank);
    for (size_t i = 0; i < rank; ++i) o[i] = int64_t(i);
    return o;
}

bool is_permutation(const Order& o) {
    std::vector<bool> seen(o.size(), false);
    for (int64_t d : o) {
        if (d < 0 || d >= int64_t(o.size()) || seen[size_t(d)]) return false;
        seen[size_t(d)] = true;
    }
    return true;
}

Order order_from_name(const std::string& name, size_t rank, const std::string& what) {
    if (name == "ND") return identity_order(rank);
    const char* letters = axis_letters(rank);
    std::string expected =
        letters ? std::string("a permutation of ") + letters + " or ND"
                : std::string("ND or a list of dims (rank ") + std::to_string(rank) + ")";
    if (!letters || name.size() != rank)
        throw UsageError(what + ": layout '" + name + "' does not fit rank " +
                         std::to_string(rank) + "; expected " + expected);
    Order o;
    for (char ch : name) {
        const char* p = std::strchr(letters, ch);
        if (!p || ch == '\0')
            throw UsageError(what + ": layout '" + name + "' has unknown axis '" +
                             std::string(1, ch) + "'; expected " + expected);
        o.push_back(int64_t(p - letters));
    }
    if (!is_permutation(o))
        throw UsageError(what + ": layout '" + name + "' repeats an axis; expected " + expected);
    return o;
}

Order order_from_json(const nlohmann::json& j, size_t rank, const std::string& what) {
    if (j.is_string()) return order_from_name(j.get<std::string>(), rank, what);
    if (!j.is_array())
        throw UsageError(what +
                         ": a layout must be a name or a list of dims; expected e.g. "
                         "\"NHWC\" or [0,2,3,1]");
    Order o;
    for (const auto& e : j) {
        if (!e.is_number_integer())
            throw UsageError(what + ": layout entries must be integers; expected e.g. [0,2,3,1]");
        o.push_back(e.get<int64_t>());
    }
    if (o.size() != rank || !is_permutation(o))
        throw UsageError(what + ": layout " + tuple_string(o) + " is not a permutation of " +
                         std::to_string(rank) + " dims; expected each of 0.." +
                         std::to_string(int64_t(rank) - 1) + " once");
    return o;
}

std::string order_name(const Order& o) {
    if (const char* letters = axis_letters(o.size()); letters && is_permutation(o)) {
        std::string s;
        for (int64_t d : o) s += letters[d];
        return s;
    }
    if (o == identity_order(o.size())) return "ND";
    std::string s = "(";
    for (size_t i = 0; i < o.size(); ++i) s += (i ? "," : "") + std::to_string(o[i]);
    return s + ")";
}

nlohmann::json order_to_json(const Order& o) {
    std::string n = order_name(o);
    if (n.empty() || n[0] != '(') return n;
    return o;
}

std::string tuple_string(const std::vector<int64_t>& v) {
    std::ostringstream s;
    s << "(";
    for (size_t i = 0; i < v.size(); ++i) s << (i ? ", " : "") << v[i];
    if (v.size() == 1) s << ",";
    s << ")";
    return s.str();
}

std::vector<int64_t> order_strides(const Shape& shape, const Order& order) {
    // The stride algebra lives in core/view; a packed permutation is one flat layout.
    return view::layout_from_order(shape, order).strides();
}

int64_t offset_of(const Coord& c, const std::vector<int64_t>& strides) {
    int64_t off = 0;
    for (size_t i = 0; i < c.size() && i < strides.size(); ++i) off += c[i] * strides[i];
    return off;
}

int64_t innermost_stride(const Shape& shape, const Order& loop_order,
                         const std::vector<int64_t>& strides) {
    for (size_t k = loop_order.size(); k-- > 0;) {
        size_t d = size_t(loop_order[k]);
        if (shape[d] > 1) return strides[d];
    }
    return 1;
}

}  // namespace ll::netplan
