// Text forms the view front-ends (CLI, panels) accept, parsed in one place.
//
// Contract:
//   elem_bits_from("", 0) == 32 (fp32);  elem_bits_from("fp16", 0) == 16;
//   elem_bits_from("", 2) == 16;  both given -> UsageError.
//   parse_address("0x1000", "base") == 4096;  parse_address("64", ...) == 64.
//   parse_index("1,2", {2,3}) == {1,2};  out of bounds -> UsageError.
#pragma once

#include <cstdint>
#include <string>

#include "core/shape.hpp"

namespace ll::view {

int elem_bits_from(const std::string& dtype, int64_t elem_size_bytes);
int64_t parse_address(const std::string& text, const std::string& what);
Coord parse_index(const std::string& text, const Shape& shape, const std::string& what = "index");

}  // namespace ll::view
