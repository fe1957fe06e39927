// Document 001's Table 1 per product: every product x path x dtype cell of
// Load2D and Load2Dv2 is accepted or refused as the document says. The
// expected lists are the document's own type strings ("uint8_t/int8_t/...")
// parsed here, not the engine's tables.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>

#include "core/error.hpp"
#include "core/exec/load2d.hpp"
#include "core/exec/plans.hpp"
#include "core/exec/product.hpp"

using namespace ll;
using namespace ll::exec;

namespace {

std::vector<DType> parse_types(const std::string& doc) {
    std::vector<DType> r;
    std::stringstream ss(doc);
    std::string tok;
    while (std::getline(ss, tok, '/')) r.push_back(dtype_from_name(tok));
    return r;
}

const std::vector<std::pair<Buffer, Buffer>> kPaths = {
    {Buffer::GM, Buffer::A1}, {Buffer::GM, Buffer::B1}, {Buffer::GM, Buffer::A2},
    {Buffer::GM, Buffer::B2}, {Buffer::A1, Buffer::A2}, {Buffer::B1, Buffer::B2}};

bool l1_l0(Buffer s, Buffer d) {
    return (s == Buffer::A1 && d == Buffer::A2) || (s == Buffer::B1 && d == Buffer::B2);
}

// Table 1, Load2D interface, as the document lists it.
const std::map<Product, std::string> kLoad2d = {
    {Product::training, "uint8_t/int8_t/uint16_t/int16_t/half"},
    {Product::inference_aicore, "int4b_t/uint8_t/int8_t/uint16_t/int16_t/half"},
    {Product::a2, "int4b_t/uint8_t/int8_t/uint16_t/int16_t/half/bfloat16_t/uint32_t/int32_t/float"},
    {Product::a3, "int4b_t/uint8_t/int8_t/uint16_t/int16_t/half/bfloat16_t/uint32_t/int32_t/float"},
    {Product::infer_200i_500_a2,
     "uint8_t/int8_t/uint16_t/int16_t/half/bfloat16_t/uint32_t/int32_t/float"},
    {Product::atlas350, "uint8_t/int8_t/uint16_t/int16_t/half/bfloat16_t/uint32_t/int32_t/float"},
};
// Load2Dv2: Atlas 350 only, the same list on GM->A1/B1 and A1->A2/B1->B2.
const std::string kLoad2dV2 =
    "int8_t/uint8_t/fp4x2_e2m1_t/fp4x2_e1m2_t/hifloat8_t/fp8_e5m2_t/fp8_e4m3fn_t/half/bfloat16_t/"
    "int32_t/uint32_t/float";

bool accepts_v1(Product p, Buffer s, Buffer d, DType t) {
    if (p == Product::inference_vector) return false;  // marked x
    if (p == Product::atlas350 && (d == Buffer::A2 || d == Buffer::B2) && s == Buffer::GM)
        return false;  // "仅支持如下数据通路: GM->A1; GM->B1; A1->A2; B1->B2"
    const auto v = parse_types(kLoad2d.at(p));
    if (std::find(v.begin(), v.end(), t) == v.end()) return false;
    return t != DType::int4 || l1_l0(s, d);  // "int4b_t仅支持A1->A2,B1->B2通路"
}

bool accepts_v2(Product p, Buffer s, Buffer d, DType t) {
    if (p != Product::atlas350) return false;
    if (s == Buffer::GM && (d == Buffer::A2 || d == Buffer::B2)) return false;
    const auto v = parse_types(kLoad2dV2);
    return std::find(v.begin(), v.end(), t) != v.end();
}

template <class F>
bool runs(F&& f) {
    try {
        f();
        return true;
    } catch (const UsageError& e) {
        const std::string m = e.what();
        EXPECT_EQ(m.find(','), m.find_first_of(",;")) << m;  // "<parameter>: <value>, <what ...>"
        EXPECT_EQ(m.rfind(e.key() + ": ", 0), 0u) << m;
        return false;
    }
}

}  // namespace

TEST(LoadDataProducts, EveryTable1CellOfLoad2d) {
    int accepted = 0, refused = 0;
    for (Product p : all_products()) {
        if (p == Product::any) continue;
        for (auto [s, d] : kPaths)
            for (DType t : all_dtypes()) {
                Load2dParams q;
                q.product = p;
                q.src = s;
                q.dst = d;
                q.dtype = t;
                q.src_fractals = 2;
                const bool want = accepts_v1(p, s, d, t);
                EXPECT_EQ(runs([&] { load2d(q); }), want)
                    << product_id(p) << " " << name(s) << "->" << name(d) << " " << name(t);
                (want ? accepted : refused)++;
            }
    }
    EXPECT_GT(accepted, 0);
    EXPECT_GT(refused, 0);
}

TEST(LoadDataProducts, EveryTable1CellOfLoad2dV2) {
    for (Product p : all_products()) {
        if (p == Product::any) continue;
        for (auto [s, d] : kPaths)
            for (DType t : all_dtypes()) {
                Load2dV2Params q;
                q.product = p;
                q.src = s;
                q.dst = d;
                q.dtype = t;
                q.src_fractals = 2;
                EXPECT_EQ(runs([&] { load2d_v2(q); }), accepts_v2(p, s, d, t))
                    << product_id(p) << " " << name(s) << "->" << name(d) << " " << name(t);
            }
    }
}

TEST(LoadDataProducts, AnyIsTheUnionAndV2RefusesGmToL0) {
    for (auto [s, d] : kPaths)
        for (DType t : all_dtypes()) {
            bool some = false, some2 = false;
            for (Product p : all_products())
                if (p != Product::any) {
                    some = some || accepts_v1(p, s, d, t);
                    some2 = some2 || accepts_v2(p, s, d, t);
                }
            Load2dParams q;
            q.src = s;
            q.dst = d;
            q.dtype = t;
            q.src_fractals = 2;
            EXPECT_EQ(runs([&] { load2d(q); }), some) << name(t);
            Load2dV2Params q2;
            q2.src = s;
            q2.dst = d;
            q2.dtype = t;
            q2.src_fractals = 2;
            EXPECT_EQ(runs([&] { load2d_v2(q2); }), some2) << name(t);
        }
}

TEST(LoadDataProducts, DstGapIsNotEnabledOnTheTrainingSeries) {
    Load2dParams q;
    q.src_fractals = 2;
    q.dst_gap = 1;
    q.product = Product::training;
    try {
        load2d(q);
        ADD_FAILURE() << "dstGap accepted on the training series";
    } catch (const UsageError& e) {
        EXPECT_EQ(e.key(), "dstGap");
        EXPECT_EQ(std::string(e.what()).rfind("dstGap: 1, Atlas training series", 0), 0u)
            << e.what();
    }
    q.product = Product::a2;
    EXPECT_NO_THROW(load2d(q));
}

TEST(LoadDataProducts, B2FractalsAreLabelledZnAsTheDocumentWritesThem) {
    Load2dParams q;
    q.src = Buffer::B1;
    q.dst = Buffer::B2;
    q.dtype = DType::int8;
    const LoadResult r = load2d(q);
    EXPECT_EQ(r.dst_format, "ZN");
    EXPECT_EQ(r.dst_rows, 32);  // (32 B / sizeof) x 16
    EXPECT_EQ(r.dst_cols, 16);
    q.src = Buffer::A1;
    q.dst = Buffer::A2;
    const LoadResult a = load2d(q);
    EXPECT_EQ(a.dst_format, "ZZ");
    EXPECT_EQ(a.dst_rows, 16);
    EXPECT_EQ(a.dst_cols, 32);
}

TEST(LoadDataProducts, EachDestinationBandIsTaggedWithItsFormat) {
    Load2dParams q;
    q.src = Buffer::B1;
    q.dst = Buffer::B2;
    q.dtype = DType::int8;
    q.src_fractals = 3;
    q.repeat = 3;
    q.src_stride = 1;
    const LoadResult r = load2d(q);
    const Plan p = load_plan(r, 3 * 512, DType::int8, "Load2D", "B1", "B2");
    ASSERT_EQ(p.stages.size(), 2u);
    EXPECT_EQ(p.stages[1].formula, "destination buffer, ZN 32x16 fractals");
    // Three fractal boxes, each named by its address label ("f2 0x400"); the
    // format stands once per band, above the band's right end, clear of the
    // cells (a tag over every fractal stood on the fractal before it).
    const Stage& d = p.stages[1];
    int boxes = 0, band_tops = 0;
    for (const Box& b : d.boxes)
        if (b.kind == Box::fractal) {
            EXPECT_EQ(b.label, "");
            ++boxes;
            band_tops += b.y == 0.f;
        }
    EXPECT_EQ(boxes, 3);
    int tags = 0;
    for (const Label& l : d.labels)
        if (l.text == "ZN") {
            ++tags;
            EXPECT_EQ(l.side, Label::above);
            EXPECT_EQ(l.y, 0.f);
            EXPECT_EQ(l.align, Label::right);
        }
    EXPECT_EQ(tags, band_tops);
    EXPECT_GE(tags, 1);
    // The source side names no destination format.
    for (const Label& l : p.stages[0].labels) EXPECT_NE(l.text, "ZN");
}
