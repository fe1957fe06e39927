// Shapes, strides and coordinates: plain vectors of int64 with free functions.
//
// Contract (row-major):
//   row_major_strides({2,3,4}) == {12,4,1};  to_string({2,3,4}) == "(2,3,4)"
//   unravel(17, {2,3,4}) == {1,1,1};          ravel({1,1,1}, {2,3,4}) == 17
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ll {

using Shape = std::vector<int64_t>;
using Coord = std::vector<int64_t>;

// Largest element count the engine accepts for one tensor (2^40): far above
// any real buffer, far below int64 overflow in byte arithmetic.
constexpr int64_t kMaxElements = int64_t(1) << 40;

// Product of dims; throws UsageError when it overflows or passes kMaxElements.
int64_t numel(const Shape& s);
Shape row_major_strides(const Shape& s);
std::string to_string(const Shape& s);  // "(2,3,4)"; "()" for rank 0

// Parses "2,3,4" (spaces allowed). Throws UsageError with key `what` (e.g.
// "shape") for empty, non-numeric, negative or zero dims, or overflow.
Shape parse_shape(const std::string& text, const std::string& what = "shape");
// Same syntax, but zero and negative values allowed (offsets, steps, ...).
std::vector<int64_t> parse_int_list(const std::string& text, const std::string& what);

Coord unravel(int64_t linear, const Shape& s);
int64_t ravel(const Coord& c, const Shape& s);

inline int64_t ceil_div(int64_t a, int64_t b) {
    return (a + b - 1) / b;
}
inline int64_t round_up(int64_t a, int64_t b) {
    return ceil_div(a, b) * b;
}

}  // namespace ll
