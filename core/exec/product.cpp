// Document 001's product tables as data (see product.hpp).
#include "core/exec/product.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace ll::exec {

namespace {

using D = DType;

struct Info {
    Product p;
    const char* id;
    const char* name;
};
constexpr Info kInfo[] = {
    {Product::any, "any", "any product (the union of document 001's tables)"},
    {Product::training, "training", "Atlas training series"},
    {Product::inference_aicore, "inference", "Atlas inference series AI Core"},
    {Product::inference_vector, "vector-core", "Atlas inference series Vector Core"},
    {Product::a2, "a2", "Atlas A2 training / inference series"},
    {Product::a3, "a3", "Atlas A3 training / inference series"},
    {Product::infer_200i_500_a2, "200i-500-a2", "Atlas 200I/500 A2 inference product"},
    {Product::atlas350, "350", "Atlas 350 accelerator card"},
};

bool l1_to_l0(Buffer s, Buffer d) {
    return (s == Buffer::A1 && d == Buffer::A2) || (s == Buffer::B1 && d == Buffer::B2);
}

const std::vector<std::string> kAllPaths = {"GM->A1", "GM->B1", "GM->A2",
                                            "GM->B2", "A1->A2", "B1->B2"};
const std::vector<std::string> k350Paths = {"GM->A1", "GM->B1", "A1->A2", "B1->B2"};

std::string path_of(Buffer s, Buffer d) {
    return std::string(name(s)) + "->" + name(d);
}

std::string list(const std::vector<DType>& v) {
    std::string r;
    for (DType t : v) r += (r.empty() ? "" : ", ") + std::string(name(t));
    return r;
}
std::string list(const std::vector<std::string>& v) {
    std::string r;
    for (const auto& s : v) r += (r.empty() ? "" : ", ") + s;
    return r;
}

}  // namespace

const std::vector<Product>& all_products() {
    static const std::vector<Product> v = [] {
        std::vector<Product> r;
        for (const auto& i : kInfo) r.push_back(i.p);
        return r;
    }();
    return v;
}
const char* product_id(Product p) {
    return kInfo[static_cast<int>(p)].id;
}
const char* product_name(Product p) {
    return kInfo[static_cast<int>(p)].name;
}
std::string product_ids() {
    std::string r;
    for (const auto& i : kInfo) r += (r.empty() ? "" : ", ") + std::string(i.id);
    return r;
}
Product product_from_id(const std::string& s) {
    for (const auto& i : kInfo)
        if (s == i.id) return i.p;
    throw UsageError("product", "unknown product '" + s + "'; expected one of " + product_ids());
}

std::vector<std::string> load2d_paths(Product p, bool v2) {
    if (p == Product::inference_vector) return {};
    if (v2)
        return p == Product::atlas350 || p == Product::any ? k350Paths : std::vector<std::string>{};
    return p == Product::atlas350 ? k350Paths : kAllPaths;
}

std::vector<DType> load2d_dtypes(Product p, bool v2, Buffer src, Buffer dst) {
    const auto paths = load2d_paths(p, v2);
    if (std::find(paths.begin(), paths.end(), path_of(src, dst)) == paths.end()) return {};
    if (p == Product::any) {
        // The union over the products, in all_dtypes order.
        std::vector<DType> r;
        for (DType t : all_dtypes())
            for (Product q : all_products()) {
                if (q == Product::any) continue;
                auto v = load2d_dtypes(q, v2, src, dst);
                if (std::find(v.begin(), v.end(), t) != v.end()) {
                    r.push_back(t);
                    break;
                }
            }
        return r;
    }
    if (v2)  // Atlas 350, the same list on GM->A1/B1 and A1->A2/B1->B2
        return {D::int8,       D::uint8, D::fp4x2_e2m1, D::fp4x2_e1m2, D::hifloat8, D::fp8_e5m2,
                D::fp8_e4m3fn, D::fp16,  D::bf16,       D::int32,      D::uint32,   D::fp32};
    const bool l1l0 = l1_to_l0(src, dst);  // int4b_t: only A1->A2, B1->B2
    switch (p) {
        case Product::training:
            return {D::uint8, D::int8, D::uint16, D::int16, D::fp16};
        case Product::inference_aicore:
            if (l1l0) return {D::int4, D::uint8, D::int8, D::uint16, D::int16, D::fp16};
            return {D::uint8, D::int8, D::uint16, D::int16, D::fp16};
        case Product::a2:
        case Product::a3: {
            std::vector<DType> r = {D::uint8, D::int8,   D::uint16, D::int16, D::fp16,
                                    D::bf16,  D::uint32, D::int32,  D::fp32};
            if (l1l0) r.insert(r.begin(), D::int4);
            return r;
        }
        case Product::infer_200i_500_a2:
        case Product::atlas350:
            return {D::uint8, D::int8,   D::uint16, D::int16, D::fp16,
                    D::bf16,  D::uint32, D::int32,  D::fp32};
        default:
            return {};
    }
}

bool dst_gap_enabled(Product p) {
    return p != Product::training;
}

void check_load2d(Product p, bool v2, Buffer src, Buffer dst, DType t, int64_t dst_gap) {
    const char* instr = v2 ? "Load2Dv2" : "Load2D";
    const std::string who = product_name(p);
    if (p == Product::inference_vector)
        throw UsageError("product", "vector-core, " + who +
                                        " has no LoadData (document 001 marks it x); expected "
                                        "an AI Core product");
    const auto paths = load2d_paths(p, v2);
    if (paths.empty())
        throw UsageError("product", std::string(product_id(p)) + ", " + who + " does not list " +
                                        instr + "; expected product 350 for Load2Dv2");
    const std::string path = path_of(src, dst);
    if (std::find(paths.begin(), paths.end(), path) == paths.end())
        throw UsageError("path", path + ", " + who + " supports " + instr + " on " + list(paths) +
                                     "; expected one of these paths");
    const auto dts = load2d_dtypes(p, v2, src, dst);
    if (std::find(dts.begin(), dts.end(), t) == dts.end()) {
        std::string msg = std::string(name(t)) + ", " + who + " supports for " + instr + " on " +
                          path + ": " + list(dts);
        if (t == DType::int4 && !v2 && !l1_to_l0(src, dst)) msg += " (int4 only on A1->A2, B1->B2)";
        throw UsageError("dtype", msg + "; expected one of these dtypes");
    }
    if (dst_gap != 0 && !dst_gap_enabled(p))
        throw UsageError(
            "dstGap", std::to_string(dst_gap) + ", " + who + " does not enable dstGap; expected 0");
}

}  // namespace ll::exec
