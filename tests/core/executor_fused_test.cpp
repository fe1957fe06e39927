// Fractal -> fractal conversions without two full passes through the plain
// tensor: the Executor runs them as one gather composed of both blockings
// (detail::compile_composed), and where blockings do not nest, slab by slab
// through a small buffer (detail::run_fused). Each case, on odd shapes
// (padding on every blocked axis) and every dtype, is checked element by
// element against the ElementMap (the scalar reference): through the
// Executor on 1 and 3 threads, and through the slabs with tiny slabs so that
// many slab edges fall inside fractals' rows, on 1 and 3 threads.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>

#include "core/format/format.hpp"
#include "core/format/gather.hpp"
#include "core/format/scalar.hpp"

using namespace ll;

namespace {

ConvertSpec spec(Format from, Format to, Shape s) {
    ConvertSpec sp;
    sp.from = from;
    sp.to = to;
    sp.shape = std::move(s);
    return sp;
}

// Element i's bit pattern.
uint64_t bits_at(DType t, const uint8_t* b, int64_t i) {
    switch (bits(t)) {
        case 4:
            return (b[i >> 1] >> ((i & 1) * 4)) & 0xFu;
        case 8:
            return b[i];
        case 16: {
            uint16_t v;
            std::memcpy(&v, b + 2 * i, 2);
            return v;
        }
        default: {
            uint32_t v;
            std::memcpy(&v, b + 4 * i, 4);
            return v;
        }
    }
}

double pad_of(DType t) {
    if (t == DType::int4) return -8;
    return (!is_float(t) || is_storage_only(t)) && int_min(t) >= 0 ? 201 : -3;
}

void expect_map(const Pipeline& p, const std::vector<uint8_t>& src, const std::vector<uint8_t>& dst,
                const ElementMap& m, const std::string& what) {
    const uint64_t pad = encode_scalar(p.dtype, p.pad_value);
    for (size_t i = 0; i < m.size(); ++i) {
        const uint64_t want = m[i] < 0 ? pad : bits_at(p.dtype, src.data(), m[i]);
        ASSERT_EQ(bits_at(p.dtype, dst.data(), static_cast<int64_t>(i)), want)
            << what << " dst " << i << " (src " << m[i] << ")";
    }
}

const ConvertSpec kCases[] = {
    spec(Format::FRACTAL_NZ, Format::FRACTAL_ZN, {3, 37, 45}),
    spec(Format::FRACTAL_ZN, Format::FRACTAL_NZ, {2, 37, 70}),
    spec(Format::FRACTAL_NZ, Format::FRACTAL_ZZ, {2, 35, 50}),
    spec(Format::FRACTAL_ZZ, Format::FRACTAL_NZ, {3, 49, 33}),
    spec(Format::FRACTAL_ZN, Format::FRACTAL_ZZ, {2, 17, 64}),
    spec(Format::FRACTAL_NZ, Format::FRACTAL_ZN, {1100, 90}),
    // No padding: int4 takes the nibble tile transpose.
    spec(Format::FRACTAL_NZ, Format::FRACTAL_ZN, {2, 128, 192}),
    spec(Format::FRACTAL_ZN, Format::FRACTAL_NZ, {128, 64}),
    spec(Format::NC1HWC0, Format::FRACTAL_Z, {33, 19, 3, 3}),
    spec(Format::FRACTAL_Z, Format::NC1HWC0, {17, 35, 2, 5}),
    spec(Format::NDC1HWC0, Format::FRACTAL_Z_3D, {300, 2, 3, 3, 21}),
    spec(Format::FRACTAL_Z_3D, Format::NDC1HWC0, {300, 3, 2, 2, 40}),
};

}  // namespace

TEST(ExecutorFused, FractalToFractalMatchesTheElementMapEveryDtype) {
    std::mt19937 rng(17);
    int int4_fused = 0, composed = 0, slabs_only = 0;
    for (ConvertSpec sp : kCases)
        for (DType t : all_dtypes()) {
            sp.dtype = t;
            sp.pad_value = pad_of(t);
            const Pipeline p = make_pipeline(sp);
            const std::string what = std::string(name(sp.from)) + "->" + name(sp.to) + " " +
                                     name(t) + " " + to_string(sp.shape);
            const Executor ex(p);
            std::vector<uint8_t> src(static_cast<size_t>(ex.src_bytes()));
            for (auto& b : src) b = static_cast<uint8_t>(rng());
            const ElementMap m = element_map(p);

            // Composed where the blockings nest (e.g. not int8 NZ -> ZN with
            // N = 45: N0 32 pads to 64, ZN's 16 to 48).
            const auto segs = detail::segments(p);
            ASSERT_EQ(segs.size(), 2u) << what;
            const bool composes =
                detail::compile_composed(segs[0].plain, segs[0].steps, segs[1].steps, 1)
                    .has_value();
            composed += composes ? 1 : 0;

            std::vector<uint8_t> dst(static_cast<size_t>(ex.dst_bytes()), 0x5A);
            ex.run(src.data(), dst.data(), 1);
            expect_map(p, src, dst, m, what + " Executor");
            if (HasFatalFailure()) return;
            std::vector<uint8_t> dst3(dst.size(), 0x3C);
            ex.run(src.data(), dst3.data(), 3);
            EXPECT_EQ(dst3, dst) << what << " Executor, 3 threads";

            // The fused path takes these pipelines (int4 where nibbles pair).
            const bool fuses = detail::fused_slab(p) > 0;
            if (bits(t) != 4) {
                EXPECT_TRUE(fuses || composes) << what;
            }
            if (!fuses) continue;
            slabs_only += composes ? 0 : 1;
            if (t == DType::int4) ++int4_fused;
            for (int threads : {1, 3}) {
                std::vector<uint8_t> small(dst.size(), 0xA5);
                ASSERT_TRUE(detail::run_fused(p, src.data(), small.data(), threads, 1)) << what;
                expect_map(p, src, small, m,
                           what + " tiny slabs, threads " + std::to_string(threads));
                if (HasFatalFailure()) return;
                EXPECT_EQ(small, dst) << what << " tiny slabs, threads " << threads;
            }
        }
    EXPECT_GT(int4_fused, 0) << "no int4 case went through the slabs";
    EXPECT_GT(composed, 0) << "no case took the composed gather";
    EXPECT_GT(slabs_only, 0) << "no case needed the slabs";
}

// int4 fuses where both sides keep the plain innermost axis innermost, so
// nibble pairs move as bytes (NZ <-> ZZ); ZN's innermost M0 pairs nibbles of
// two rows, and that walk stays on two passes.
TEST(ExecutorFused, Int4PairsFuse) {
    ConvertSpec sp = spec(Format::FRACTAL_NZ, Format::FRACTAL_ZZ, {1100, 128});
    sp.dtype = DType::int4;
    EXPECT_GT(detail::fused_slab(make_pipeline(sp)), 0);
    sp.to = Format::FRACTAL_ZN;
    EXPECT_EQ(detail::fused_slab(make_pipeline(sp)), 0);
}

// The bench's large shapes take the fused path (a slab is a piece of the
// plain tensor no larger than about 256 KiB).
TEST(ExecutorFused, BenchShapesFuseWithSlabsInL2) {
    const ConvertSpec cases[] = {
        spec(Format::FRACTAL_NZ, Format::FRACTAL_ZN, {8192, 4096}),
        spec(Format::FRACTAL_ZZ, Format::FRACTAL_NZ, {8192, 4096}),
        spec(Format::NC1HWC0, Format::FRACTAL_Z, {14576, 256, 3, 3}),
        spec(Format::FRACTAL_Z_3D, Format::NDC1HWC0, {19424, 3, 3, 3, 64}),
    };
    for (ConvertSpec sp : cases)
        for (DType t : {DType::int8, DType::fp16, DType::fp32}) {
            sp.dtype = t;
            const int64_t slab = detail::fused_slab(make_pipeline(sp));
            EXPECT_GT(slab, 0) << name(sp.from) << " " << name(t);
            EXPECT_LE(slab * bits(t) / 8, int64_t(256) << 10) << name(sp.from) << " " << name(t);
        }
}
