// Internal to core/format: the pieces of the pipeline builder (format.cpp)
// that the Matmul formats (matmul_formats.cpp) reuse.
#pragma once

#include <string>
#include <vector>

#include "core/format/format.hpp"

namespace ll::detail {

// Caption "(axes before) -> kind -> (axes after)" in the documents' style.
void set_caption(Step& s);
// The steps that undo `fwd`, last step first (a pad becomes a crop).
std::vector<Step> inverse_steps(const std::vector<Step>& fwd);
// ND (..., M, N) of shape `nd` -> FRACTAL_NZ/ZZ/ZN: pad, reshape, transpose,
// with the fractal sides of `spec` (the source side's when `source_side`).
// Fills `fi` with the fractal used.
std::vector<Step> matrix_fractal_steps(const ConvertSpec& spec, Format target, const Shape& nd,
                                       bool source_side, FractalInfo& fi);
// Throws ElementLimitError when s holds more than kMaxConvertElements;
// `what` names the tensor ("logical shape", "padded shape").
void check_element_limit(const Shape& s, const char* what);
// The conversions make_pipeline accepts, for messages.
const char* accepted_conversions();

// Whether from -> to is one of the Matmul-format conversions, and its builder.
bool is_matmul_conversion(Format from, Format to);
Pipeline matmul_pipeline(const ConvertSpec& spec);

}  // namespace ll::detail
