// Which Ascend product runs a LoadData 2D instruction, and what each one
// supports (document 001: the product table, Table 1 "T" per interface, the
// dstGap note, the Load2Dv2 list for Atlas 350).
//
// Contract:
//   check_load2d(Product::training, A1, A2, DType::fp32, false, 0)
//     throws "--dtype fp32, Atlas training series supports for Load2D: uint8, int8, uint16,
//             int16, fp16"
//   check_load2d(Product::atlas350, GM, A2, ...) throws "--path GM->A2, Atlas 350 ... supports
//             GM->A1, GM->B1, A1->A2, B1->B2"
//   check_load2d(Product::training, A1, A2, fp16, false, 1) throws "--dst-gap 1, Atlas training
//             series does not enable dstGap; expected 0"
// Product::any applies the union of every product's rules (the default when
// no --product is given): a combination is refused only when no product
// supports it.
#pragma once

#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "core/exec/buffer.hpp"

namespace ll::exec {

enum class Product {
    any,
    training,           // Atlas 训练系列产品
    inference_aicore,   // Atlas 推理系列产品 AI Core
    inference_vector,   // Atlas 推理系列产品 Vector Core: no LoadData
    a2,                 // Atlas A2 训练系列产品 / Atlas A2 推理系列产品
    a3,                 // Atlas A3 训练系列产品 / Atlas A3 推理系列产品
    infer_200i_500_a2,  // Atlas 200I/500 A2 推理产品
    atlas350            // Atlas 350 加速卡
};

const std::vector<Product>& all_products();
const char* product_id(
    Product p);  // "training", "a2", "350", ... (its id in scenes and on the command line)
const char* product_name(Product p);            // "Atlas A2 training / inference series", ...
std::string product_ids();                      // "any, training, ..." for messages
Product product_from_id(const std::string& s);  // UsageError naming the ids

// The dtypes a product's Table 1 lists for Load2D (v2 = false) or Load2Dv2
// (v2 = true) on a path; empty when the product does not run that
// instruction on that path.
std::vector<DType> load2d_dtypes(Product p, bool v2, Buffer src, Buffer dst);
// The paths a product runs the instruction on.
std::vector<std::string> load2d_paths(Product p, bool v2);
// Whether dstGap is enabled (all but the training series).
bool dst_gap_enabled(Product p);

// Throws UsageError "<parameter>, <what this product supports>" for the first
// unsupported choice: the instruction itself, the path, the dtype, dstGap.
void check_load2d(Product p, bool v2, Buffer src, Buffer dst, DType t, int64_t dst_gap);

}  // namespace ll::exec
