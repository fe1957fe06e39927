// Text and JSON for the execution engine's results (shared by the CLI and
// the tests), so every picture has a printable twin.
//
// Contract: load_json(r) == {"fractal_rows", "fractal_cols", "fractal_elems",
// "dst_fractals", "fractals": [{"iteration","src_fractal","dst_fractal",
// "transposed"}], "dst_of": [...]}; load_text(r) lists one line per fractal
// copy and then the destination fractals, e.g. for the Load2D worked example
//   "iteration 0: src fractal 1 -> dst fractal 0"
//   "iteration 1: src fractal 3 -> dst fractal 2"
//   "dst: [0]=src 1  [1]=gap  [2]=src 3"
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "core/exec/conv.hpp"
#include "core/exec/load2d.hpp"

namespace ll::exec {

nlohmann::json load_json(const LoadResult& r);
std::string load_text(const LoadResult& r, const char* src_word = "src fractal");

nlohmann::json conv_json(const ConvParams& p, const ConvShapes& s);
std::string conv_text(const ConvParams& p, const ConvShapes& s);

}  // namespace ll::exec
