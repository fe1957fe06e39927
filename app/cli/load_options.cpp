#include "app/cli/load_options.hpp"

#include <iostream>

#include "core/exec/report.hpp"

namespace ll::cli {

void add_load_options(CLI::App& sub, LoadCommon& c, int64_t& src_fractals, int64_t& sid,
                      bool& transpose, const char* transpose_help) {
    sub.add_option("--dtype", c.dtype, "element type (default fp16); fractal = 16 x 32 bytes");
    sub.add_option("--path", c.path,
                   "data path SRC->DST: GM->A1|B1|A2|B2, A1->A2, B1->B2 (default A1->A2)");
    sub.add_option("--src-fractals", src_fractals, "source size in 512-byte fractals")->required();
    sub.add_option("--sid", sid, "sid: reserved, must be 0");
    sub.add_option("--product", c.product,
                   "whose Table 1 applies (document 001): " + exec::product_ids() +
                       " (default any: the union)");
    sub.add_flag("--transpose", transpose, transpose_help);
    sub.add_flag("--json", c.json, "print JSON (fractals, dst_of) instead of text");
}

std::string path_name(exec::Buffer src, exec::Buffer dst) {
    return std::string(name(src)) + "->" + name(dst);
}

void print_load(const exec::LoadResult& r, const LoadCommon& c, const std::string& headline,
                nlohmann::json params) {
    if (c.json) {
        nlohmann::json j = exec::load_json(r);
        params["product"] = c.product;
        j["params"] = std::move(params);
        std::cout << j.dump() << "\n";
    } else {
        std::cout << headline
                  << "\nproduct: " << exec::product_name(exec::product_from_id(c.product)) << "\n"
                  << exec::load_text(r);
    }
}

}  // namespace ll::cli
