// What `layoutlab load2d` and `layoutlab load2dv2` share: the options every
// LoadData 2D instruction takes (--dtype, --path, --src-fractals, --sid,
// --transpose, --json), resolving them into the instruction's parameters,
// and printing its result (text, or JSON with the parameters under "params").
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "core/exec/load2d.hpp"

namespace ll::cli {

struct LoadCommon {
    std::string dtype = "fp16", path = "A1->A2", product = "any";
    bool json = false;
};

// Adds --dtype, --path, --src-fractals (required), --sid, --transpose and
// --json, bound to `c` and to the fields of the instruction's parameters.
void add_load_options(CLI::App& sub, LoadCommon& c, int64_t& src_fractals, int64_t& sid,
                      bool& transpose, const char* transpose_help);

// Resolves --dtype and --path into the parameters (UsageError when unknown).
template <class P>
void resolve_load(const LoadCommon& c, P& p) {
    p.dtype = dtype_from_name(c.dtype);
    p.product = exec::product_from_id(c.product);
    exec::Path path = exec::parse_path(c.path, exec::Op::load2d);
    p.src = path.src;
    p.dst = path.dst;
}

// "A1->A2" for the parameters' path.
std::string path_name(exec::Buffer src, exec::Buffer dst);

// Prints the result: `headline` and the text listing, or one line of JSON
// with `params` under "params".
void print_load(const exec::LoadResult& r, const LoadCommon& c, const std::string& headline,
                nlohmann::json params);

}  // namespace ll::cli
