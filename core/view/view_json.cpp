#include "core/view/view_json.hpp"

namespace ll::view {

nlohmann::json layout_json(const Layout& l) {
    nlohmann::json strides = nlohmann::json::array();
    for (const auto& m : l.modes) {
        if (m.flat()) {
            strides.push_back(m.subs[0].stride);
            continue;
        }
        nlohmann::json sub = nlohmann::json::array();
        for (const auto& s : m.subs) sub.push_back(s.stride);
        strides.push_back(sub);
    }
    return {{"layout", to_string(l)},
            {"shape", l.shape()},
            {"strides", strides},
            {"offset", l.offset},
            {"contiguous", is_contiguous(l)}};
}

nlohmann::json agu_json(const Agu& a) {
    return {
        {"base", a.base}, {"bounds", a.bounds}, {"strides", a.strides}, {"elem_bits", a.elem_bits}};
}

}  // namespace ll::view
