// JSON forms of the view types, shared by the CLI commands and tests.
//
// Contract: layout_json(make_layout({2,3},{3,1},4)) ==
//   {"layout":"(2,3):(3,1)+4","shape":[2,3],"strides":[3,1],"offset":4,"contiguous":false}
// A hierarchical mode's stride is an array (outer first): nChw16c's C gives [64,1].
#pragma once

#include <nlohmann/json.hpp>

#include "core/view/agu.hpp"
#include "core/view/view.hpp"

namespace ll::view {

nlohmann::json layout_json(const Layout& l);
nlohmann::json agu_json(const Agu& a);

}  // namespace ll::view
