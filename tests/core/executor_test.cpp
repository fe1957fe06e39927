// Executor: every conversion, every dtype, random shapes. The destination
// must hold exactly the values the ElementMap names (distinct source values),
// padding must carry the pad value, and the inverse must give back every
// element.
#include <gtest/gtest.h>

#include <random>

#include "core/format/format.hpp"
#include "core/format/scalar.hpp"
#include "tests/core/format_reference.hpp"

using namespace ll;

namespace {

struct Conv {
    Format from, to;
    size_t rank;
};
const Conv kConvs[] = {
    {Format::ND, Format::FRACTAL_NZ, 2},
    {Format::ND, Format::FRACTAL_NZ, 3},
    {Format::ND, Format::FRACTAL_ZZ, 3},
    {Format::ND, Format::FRACTAL_ZN, 2},
    {Format::ND, Format::FRACTAL_ZN, 4},
    {Format::NCHW, Format::NC1HWC0, 4},
    {Format::NHWC, Format::NC1HWC0, 4},
    {Format::NCHW, Format::FRACTAL_Z, 4},
    {Format::NHWC, Format::FRACTAL_Z, 4},
    {Format::HWCN, Format::FRACTAL_Z, 4},
    {Format::NDHWC, Format::NDC1HWC0, 5},
    {Format::NCDHW, Format::NDC1HWC0, 5},
    {Format::NDHWC, Format::FRACTAL_Z_3D, 5},
    {Format::NCDHW, Format::FRACTAL_Z_3D, 5},
    {Format::NCHW, Format::NHWC, 4},
    {Format::HWCN, Format::NCHW, 4},
    {Format::NDHWC, Format::NCDHW, 5},
    {Format::ND, Format::NCHW, 4},
    {Format::FRACTAL_NZ, Format::FRACTAL_ZN, 3},
    {Format::NC1HWC0, Format::FRACTAL_Z, 4},
    {Format::FRACTAL_Z_3D, Format::NDC1HWC0, 5},
};

Pipeline mk(const Conv& c, const Shape& s, DType t, double pad = 0) {
    ConvertSpec sp;
    sp.from = c.from;
    sp.to = c.to;
    sp.shape = s;
    sp.dtype = t;
    sp.pad_value = pad;
    return make_pipeline(sp);
}

// Distinct-as-possible values that every dtype can hold exactly.
double value_for(DType t, int64_t i) {
    switch (t) {
        case DType::int4:
            return static_cast<double>(i % 15 - 7);
        case DType::int8:
            return static_cast<double>(i % 255 - 127);
        case DType::uint8:
            return static_cast<double>(i % 255);
        case DType::uint16:
            return static_cast<double>(i % 65535);
        case DType::bf16:
            return static_cast<double>(i % 255);
        case DType::fp16:
            return static_cast<double>(i % 2047);
        case DType::int16:
            return static_cast<double>(i % 65535 - 32767);
        default:  // storage-only 8-bit codes wrap at 256
            return static_cast<double>(is_storage_only(t) ? i % 255 : i);
    }
}

std::vector<uint8_t> make_source(DType t, int64_t n) {
    std::vector<uint8_t> b(static_cast<size_t>(bytes_for(t, n)));
    for (int64_t i = 0; i < n; ++i) store_element(t, b.data(), i, value_for(t, i));
    return b;
}

double pad_for(DType t) {
    if (!is_float(t) && int_min(t) == 0) return 200;  // unsigned and storage-only codes
    return t == DType::int4 ? -3 : -1;
}

}  // namespace

TEST(Executor, EveryConversionEveryDtypeAgreesWithMapAndRoundTrips) {
    std::mt19937 rng(42);
    for (const Conv& c : kConvs) {
        for (DType t : all_dtypes()) {
            for (int trial = 0; trial < 3; ++trial) {
                Shape s = ref::random_shape(rng, c.rank, c.rank == 5 ? 7 : c.rank == 4 ? 13 : 45);
                const double pad = pad_for(t);
                Pipeline p = mk(c, s, t, pad);
                const std::string what = std::string(name(c.from)) + "->" + name(c.to) + " " +
                                         name(t) + " " + to_string(s);
                const int64_t ns = numel(p.src_shape), nd = numel(p.dst_shape);
                const std::vector<uint8_t> src = make_source(t, ns);
                Executor ex(p);
                ASSERT_EQ(ex.src_bytes(), static_cast<int64_t>(src.size())) << what;
                const std::vector<uint8_t> dst = ex.run(src);
                const ElementMap m = element_map(p);
                ASSERT_EQ(static_cast<int64_t>(m.size()), nd);
                for (int64_t i = 0; i < nd; ++i) {
                    const int64_t j = m[static_cast<size_t>(i)];
                    const double want = j < 0 ? pad : value_for(t, j);
                    ASSERT_EQ(load_element(t, dst.data(), i), want) << what << " dst " << i;
                }
                // Back again: every real element returns; source slots that
                // were padding (a fractal source) come back as the pad value.
                std::vector<uint8_t> want = src;
                std::vector<bool> used(static_cast<size_t>(ns), false);
                for (int64_t j : m)
                    if (j >= 0) used[static_cast<size_t>(j)] = true;
                for (int64_t j = 0; j < ns; ++j)
                    if (!used[static_cast<size_t>(j)]) store_element(t, want.data(), j, pad);
                if (is_plain(c.from)) {
                    EXPECT_EQ(want, src) << what << ": plain source lost data";
                }
                Executor back(inverse(p));
                EXPECT_EQ(back.run(dst), want) << what;
            }
        }
    }
}

// Forward then backward on real bytes gives the source back even where
// the values are arbitrary bit patterns (fp16 NaNs included: bytes move,
// nothing is converted).
TEST(Executor, RoundTripsArbitraryBytes) {
    std::mt19937 rng(3);
    for (DType t : {DType::fp16, DType::fp32, DType::int8}) {
        Conv c{Format::ND, Format::FRACTAL_NZ, 3};
        Pipeline p = mk(c, {3, 37, 53}, t);
        std::vector<uint8_t> src(static_cast<size_t>(Executor(p).src_bytes()));
        for (auto& b : src) b = static_cast<uint8_t>(rng());
        EXPECT_EQ(Executor(inverse(p)).run(Executor(p).run(src)), src) << name(t);
    }
}

TEST(Executor, DocumentExampleValues) {
    Pipeline p = mk({Format::ND, Format::FRACTAL_NZ, 3}, {2, 2, 28}, DType::fp16);
    std::vector<uint8_t> src(2 * 2 * 28 * 2);
    for (int i = 0; i < 112; ++i) store_element(DType::fp16, src.data(), i, i);
    auto dst = Executor(p).run(src);
    ASSERT_EQ(dst.size(), 2u * 2 * 16 * 16 * 2);
    EXPECT_EQ(load_element(DType::fp16, dst.data(), 16), 28);
    EXPECT_EQ(load_element(DType::fp16, dst.data(), 256), 16);
    EXPECT_EQ(load_element(DType::fp16, dst.data(), 256 + 16 + 11), 55);
    EXPECT_EQ(load_element(DType::fp16, dst.data(), 256 + 16 + 12), 0);
    EXPECT_EQ(load_element(DType::fp16, dst.data(), 3 * 256 + 16 + 11), 111);
}

TEST(Executor, LargerShapesThroughTheFastPaths) {
    // Big enough that the tiled 2-D and memcpy leaves are used, with padding.
    const Conv cs[] = {{Format::ND, Format::FRACTAL_NZ, 2},
                       {Format::NCHW, Format::NC1HWC0, 4},
                       {Format::NCHW, Format::NHWC, 4},
                       {Format::HWCN, Format::FRACTAL_Z, 4}};
    const Shape shapes[] = {{300, 517}, {2, 37, 29, 67}, {2, 5, 61, 70}, {3, 3, 70, 45}};
    for (int k = 0; k < 4; ++k) {
        Pipeline p = mk(cs[k], shapes[k], DType::fp32, 7);
        const int64_t ns = numel(p.src_shape);
        auto src = make_source(DType::fp32, ns);
        auto dst = Executor(p).run(src);
        const ElementMap m = element_map(p);
        for (size_t i = 0; i < m.size(); ++i)
            ASSERT_EQ(load_element(DType::fp32, dst.data(), static_cast<int64_t>(i)),
                      m[i] < 0 ? 7.0 : static_cast<double>(m[i]))
                << name(cs[k].to) << " " << i;
        EXPECT_EQ(Executor(inverse(p)).run(dst), src);
    }
}

// A destination past 8 MiB takes the streaming-store path; check it whole.
TEST(Executor, LargeDestinationWithPadding) {
    Pipeline p = mk({Format::ND, Format::FRACTAL_NZ, 2}, {3000, 1500}, DType::fp16, 5);
    ASSERT_GE(Executor(p).dst_bytes(), int64_t(8) << 20);
    std::vector<uint8_t> src(static_cast<size_t>(Executor(p).src_bytes()));
    for (size_t i = 0; i < src.size() / 2; ++i)
        store_element(DType::fp16, src.data(), static_cast<int64_t>(i),
                      static_cast<double>(i % 2000));
    auto dst = Executor(p).run(src);
    const ElementMap m = element_map(p);
    for (size_t i = 0; i < m.size(); ++i)
        ASSERT_EQ(load_element(DType::fp16, dst.data(), static_cast<int64_t>(i)),
                  m[i] < 0 ? 5.0 : static_cast<double>(m[i] % 2000))
            << i;
    EXPECT_EQ(Executor(inverse(p)).run(dst), src);
}

// The C-blocking conversions run as 2-D tile transposes (whole SIMD blocks
// plus ragged edges). Shapes chosen to hit each branch: C below C0, C an
// exact multiple, odd C above C0; H*W below, at and off the block size; a
// padded axis on the unit-stride side (N of HWCN, N of ZN); a C0 that is not
// a multiple of the block (--c0 5, 12, 24); and every dtype (int4 included).
TEST(Executor, TiledTransposesEveryBranch) {
    struct Case {
        Format from, to;
        Shape shape;
        int64_t c0;
    };
    const Case cases[] = {
        {Format::NCHW, Format::NC1HWC0, {2, 3, 5, 7}, 0},
        {Format::NCHW, Format::NC1HWC0, {1, 16, 4, 4}, 0},
        {Format::NCHW, Format::NC1HWC0, {1, 64, 8, 8}, 0},
        {Format::NCHW, Format::NC1HWC0, {2, 37, 3, 11}, 0},
        {Format::NCHW, Format::NC1HWC0, {1, 40, 1, 1}, 0},
        {Format::NCHW, Format::NC1HWC0, {1, 21, 6, 6}, 5},
        {Format::NCHW, Format::NC1HWC0, {2, 30, 5, 9}, 12},
        {Format::NCHW, Format::NC1HWC0, {1, 50, 4, 9}, 24},
        {Format::NCDHW, Format::NDC1HWC0, {1, 20, 3, 5, 6}, 0},
        {Format::NCHW, Format::FRACTAL_Z, {37, 20, 3, 3}, 0},
        {Format::HWCN, Format::FRACTAL_Z, {3, 3, 20, 37}, 0},
        {Format::HWCN, Format::FRACTAL_Z, {1, 2, 33, 64}, 0},
        {Format::NCDHW, Format::FRACTAL_Z_3D, {17, 9, 2, 3, 3}, 0},
        {Format::ND, Format::FRACTAL_ZN, {45, 70}, 0},
        {Format::ND, Format::FRACTAL_ZN, {3, 17, 33}, 0},
        {Format::NCHW, Format::NHWC, {2, 70, 9, 11}, 0},
        {Format::HWCN, Format::NCHW, {5, 7, 3, 33}, 0},
    };
    for (const Case& c : cases) {
        for (DType t : all_dtypes()) {
            ConvertSpec sp;
            sp.from = c.from;
            sp.to = c.to;
            sp.shape = c.shape;
            sp.dtype = t;
            sp.c0 = c.c0;
            sp.pad_value = pad_for(t);
            const Pipeline p = make_pipeline(sp);
            const std::string what = std::string(name(c.from)) + "->" + name(c.to) + " " + name(t) +
                                     " " + to_string(c.shape) + " c0=" + std::to_string(p.c0);
            const auto src = make_source(t, numel(p.src_shape));
            const auto dst = Executor(p).run(src);
            const ElementMap m = element_map(p);
            for (size_t i = 0; i < m.size(); ++i) {
                const double want = m[i] < 0 ? sp.pad_value : value_for(t, m[i]);
                ASSERT_EQ(load_element(t, dst.data(), static_cast<int64_t>(i)), want)
                    << what << " dst " << i;
            }
            EXPECT_EQ(Executor(inverse(p)).run(dst), src) << what;
        }
    }
}

TEST(Executor, RejectsWrongBufferSize) {
    Pipeline p = mk({Format::ND, Format::FRACTAL_NZ, 2}, {4, 4}, DType::fp16);
    EXPECT_THROW(Executor(p).run(std::vector<uint8_t>(3)), std::invalid_argument);
}

// scratch_bytes: a one-pass conversion allocates nothing beside its buffers;
// fractal -> fractal through the plain form may hold that plain tensor.
TEST(Executor, ScratchBytesIsThePlainFormBetweenTwoPasses) {
    EXPECT_EQ(
        Executor(mk({Format::ND, Format::FRACTAL_NZ, 2}, {100, 37}, DType::fp16)).scratch_bytes(),
        0);
    EXPECT_EQ(
        Executor(mk({Format::NCHW, Format::HWCN, 4}, {3, 5, 7, 9}, DType::fp32)).scratch_bytes(),
        0);
    // NZ (3,20,45) -> ZN goes through ND (3,20,45): 2,700 fp32 elements.
    const Executor ex(mk({Format::FRACTAL_NZ, Format::FRACTAL_ZN, 3}, {3, 20, 45}, DType::fp32));
    EXPECT_EQ(ex.scratch_bytes(), 4 * 3 * 20 * 45);
    // int4 packs two to a byte, rounded up.
    const Executor e4(mk({Format::FRACTAL_NZ, Format::FRACTAL_ZN, 3}, {1, 3, 5}, DType::int4));
    EXPECT_EQ(e4.scratch_bytes(), 8);
}
