// The two-level tiling cost model (core/tiling/tiling.hpp) against document
// 003, section 15.4.1, and against its own contract.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "core/error.hpp"
#include "core/tiling/tiling.hpp"

using namespace ll;
using namespace ll::tiling;

namespace {

Config doc_config(const char* layout, const char* l1, const char* l2) {
    Config c;  // defaults: (1,64,56,56) fp32, tile (16,14,14), sub-tile (4,7,7)
    c.layout = check_layout(layout);
    c.l1_order = parse_order(l1);
    c.l2_order = parse_order(l2);
    return c;
}

// The document prints efficiencies with two decimals and times with one.
std::string r2(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.2f", v);
    return b;
}
std::string r1(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.1f", v);
    return b;
}

Dim contiguous_dim(const std::string& l) {
    return l == "NCHW" ? Dim::W : Dim::C;
}

}  // namespace

TEST(TilingModel, DocumentMatchedRows) {
    for (auto [layout, order] : {std::pair{"NCHW", "W_H_C"}, std::pair{"NHWC", "C_W_H"}}) {
        const Result r = evaluate(doc_config(layout, order, order));
        EXPECT_EQ(r2(r.l1.efficiency), "0.90") << layout;
        EXPECT_EQ(r2(r.l2.efficiency), "0.90") << layout;
        EXPECT_EQ(r1(r.total_us), "16.1") << layout;
        EXPECT_EQ(r.l1.stride, 1);
        EXPECT_EQ(r.l2.stride, 1);
    }
}

TEST(TilingModel, DocumentMismatchedRowNhwc) {
    const Result r = evaluate(doc_config("NHWC", "W_H_C", "W_H_C"));
    EXPECT_EQ(r.l1.stride, 64);  // W steps over the tensor's 64 channels in DRAM
    EXPECT_EQ(r.l2.stride, 16);  // ... and over the tile's 16 channels in SRAM
    EXPECT_EQ(r2(r.l1.efficiency), "0.06");
    EXPECT_DOUBLE_EQ(r.l1.efficiency, 4.0 / 64);  // one 64 B burst per 4 B element
    EXPECT_DOUBLE_EQ(r.l2.efficiency, 4.0 / 16);  // one 16 B SRAM word per element
    EXPECT_EQ(r1(r.total_us), "154.1");
    const Result m = evaluate(doc_config("NHWC", "C_W_H", "C_W_H"));
    EXPECT_EQ(r1(r.total_us / m.total_us), "9.6");
    EXPECT_NE(r.l1.reasoning.find("stride 64"), std::string::npos) << r.l1.reasoning;
    EXPECT_NE(r.l1.reasoning.find("64 B DRAM access unit"), std::string::npos) << r.l1.reasoning;
}

// With access units (the default) the NCHW row comes out as the table prints
// it, with the strides section 15.2 prints (3136 in DRAM, 196 in the tile).
TEST(TilingModel, DocumentMismatchedRowNchw) {
    const Result r = evaluate(doc_config("NCHW", "C_W_H", "C_W_H"));
    EXPECT_EQ(r.l1.stride, 3136);
    EXPECT_EQ(r.l2.stride, 196);
    EXPECT_EQ(r.l1.source_strides[0], 3136);
    EXPECT_EQ(r.l2.source_strides[0], 196);
    EXPECT_EQ(r2(r.l1.efficiency), "0.06");
    EXPECT_EQ(r2(r.l2.efficiency), "0.25");
    EXPECT_EQ(r1(r.total_us), "154.1");
    const Result m = evaluate(doc_config("NCHW", "W_H_C", "W_H_C"));
    EXPECT_EQ(r1(r.total_us / m.total_us), "9.6");
}

// The four rows do not depend on which buffer the stride is read in once the
// access unit bounds eta: every mismatched stride is at least one unit.
TEST(TilingModel, TableIsTheSameInEitherStrideBasis) {
    for (auto [layout, order] : {std::pair{"NCHW", "W_H_C"}, std::pair{"NCHW", "C_W_H"},
                                 std::pair{"NHWC", "C_W_H"}, std::pair{"NHWC", "W_H_C"}}) {
        Config c = doc_config(layout, order, order);
        const double src = evaluate(c).total_us;
        c.basis = StrideBasis::destination;
        EXPECT_NEAR(evaluate(c).total_us, src, 1e-9) << layout << " " << order;
    }
}

// Formula (8) literally (no access unit): what the document's own rule gives.
// Destination strides reproduce the NHWC row but give 1888 us for NCHW + C_W_H
// (1/196, 1/49); source strides (15.2's 3136 and 196) match no row at all.
TEST(TilingModel, LiteralFormula8) {
    auto literal = [](const char* layout, const char* order, StrideBasis b) {
        Config c = doc_config(layout, order, order);
        c.mem.dram.access_bytes = 0;
        c.mem.sram.access_bytes = 0;
        c.basis = b;
        return evaluate(c);
    };
    const Result nhwc_dst = literal("NHWC", "W_H_C", StrideBasis::destination);
    EXPECT_EQ(nhwc_dst.l1.stride, 16);
    EXPECT_EQ(nhwc_dst.l2.stride, 4);
    EXPECT_EQ(r1(nhwc_dst.total_us), "154.1");
    const Result nchw_dst = literal("NCHW", "C_W_H", StrideBasis::destination);
    EXPECT_EQ(nchw_dst.l1.stride, 196);
    EXPECT_EQ(nchw_dst.l2.stride, 49);
    EXPECT_DOUBLE_EQ(nchw_dst.l1.efficiency, 1.0 / 196);
    EXPECT_EQ(r1(nchw_dst.total_us), "1888.2");
    EXPECT_EQ(r1(literal("NHWC", "W_H_C", StrideBasis::source).total_us), "616.6");
    const Result nchw_src = literal("NCHW", "C_W_H", StrideBasis::source);
    EXPECT_DOUBLE_EQ(nchw_src.l1.efficiency, 1.0 / 3136);
    EXPECT_EQ(r1(nchw_src.total_us), "26435.1");
    // Matched rows do not care: stride 1 is 0.9 in every reading.
    EXPECT_EQ(r1(literal("NCHW", "W_H_C", StrideBasis::source).total_us), "16.1");
}

// The fitted factor: without the 4 SRAM->register passes no row's time matches.
TEST(TilingModel, L2PassesIsTheFittedFactor) {
    Config c = doc_config("NCHW", "W_H_C", "W_H_C");
    c.l2_passes = 1;
    EXPECT_EQ(r2(evaluate(c).total_us), "10.70");
    c = doc_config("NHWC", "W_H_C", "W_H_C");
    c.l2_passes = 1;
    EXPECT_EQ(r2(evaluate(c).total_us), "134.87");
}

// The shared formula (core/memory/access.hpp) as the tiling model calls it:
// element size from the dtype's bits, the memory's access unit.
TEST(TilingModel, StrideEfficiencyWithAccessUnit) {
    auto eta = [](int64_t stride, int bits, int64_t unit) {
        return access_efficiency(stride, bits / 8.0, unit);
    };
    EXPECT_DOUBLE_EQ(eta(1, 32, 64), 0.9);
    EXPECT_DOUBLE_EQ(eta(2, 32, 64), 0.5);        // 8 B apart: 8 per burst
    EXPECT_DOUBLE_EQ(eta(16, 32, 64), 1.0 / 16);  // exactly one per burst
    EXPECT_DOUBLE_EQ(eta(3136, 32, 64), 1.0 / 16);
    EXPECT_DOUBLE_EQ(eta(3136, 32, 0), 1.0 / 3136);  // no unit: formula (8)
    EXPECT_DOUBLE_EQ(eta(100, 16, 16), 2.0 / 16);    // fp16, 16 B words
    EXPECT_DOUBLE_EQ(eta(3, 64, 8), 0.9);            // unit = element: never above 0.9
    EXPECT_DOUBLE_EQ(eta(7, 32, 0), 1.0 / 7);
    MemLevel dram;
    dram.access_bytes = 64;
    EXPECT_DOUBLE_EQ(read_efficiency(3136, DType::fp32, dram), 1.0 / 16);
}

TEST(TilingModel, MixedCasesAndL1First) {
    for (const std::string l : {"NCHW", "NHWC"}) {
        const char* good = l == "NCHW" ? "W_H_C" : "C_W_H";
        const char* bad = l == "NCHW" ? "C_W_H" : "W_H_C";
        const Result both = evaluate(doc_config(l.c_str(), good, good));
        const Result l1_only = evaluate(doc_config(l.c_str(), good, bad));
        const Result l2_only = evaluate(doc_config(l.c_str(), bad, good));
        const Result none = evaluate(doc_config(l.c_str(), bad, bad));
        // Each level depends on its own order only.
        EXPECT_DOUBLE_EQ(l1_only.l1.time_us, both.l1.time_us);
        EXPECT_DOUBLE_EQ(l1_only.l2.time_us, none.l2.time_us);
        EXPECT_DOUBLE_EQ(l2_only.l1.time_us, none.l1.time_us);
        EXPECT_DOUBLE_EQ(l2_only.l2.time_us, both.l2.time_us);
        // Design guidance 2: if one level must mismatch, keep L1 matched.
        EXPECT_LT(both.total_us, l1_only.total_us);
        EXPECT_LT(l1_only.total_us, l2_only.total_us);
        EXPECT_LT(l2_only.total_us, none.total_us);
    }
}

// True when the contiguous dimension steps (extent > 1) in every tile and every
// sub-tile, edge ones included; otherwise "matched" is a name only (a block
// one channel wide has no C to walk along, and the next dimension decides).
bool steps_everywhere(int64_t extent, int64_t tile, int64_t sub) {
    auto ok = [](int64_t e, int64_t b) { return b > 1 && (e % b == 0 || e % b > 1); };
    if (!ok(extent, tile) || !ok(tile, sub)) return false;
    return extent % tile == 0 || ok(extent % tile, std::min(sub, extent % tile));
}

TEST(TilingModel, MatchedOrderNeverSlowerAtEitherLevel) {
    const Extent3 tiles[] = {{16, 14, 14}, {8, 7, 28}, {64, 2, 56}, {6, 5, 9}, {12, 11, 10}};
    int checked = 0;
    for (const std::string& l : offered_layouts())
        for (DType t : {DType::fp32, DType::fp16, DType::int8})
            for (const Extent3& tile : tiles) {
                Config c;
                c.layout = l;
                c.dtype = t;
                c.l1_tile = tile;
                c.l2_tile = {std::max<int64_t>(1, tile.c / 2), std::max<int64_t>(1, tile.h / 2),
                             std::max<int64_t>(1, tile.w / 2)};
                const Dim cd = contiguous_dim(l);
                const int64_t ext = cd == Dim::W ? 56 : 64;
                if (!steps_everywhere(ext, tile[cd], c.l2_tile[cd])) continue;
                ++checked;
                for (const Order& m : all_orders()) {
                    if (m.inner_to_outer[0] != cd) continue;
                    for (const Order& x : all_orders()) {
                        if (x.inner_to_outer[0] == cd) continue;
                        c.l1_order = c.l2_order = m;
                        const Result rm = evaluate(c);
                        c.l1_order = c.l2_order = x;
                        const Result rx = evaluate(c);
                        EXPECT_LE(rm.l1.time_us, rx.l1.time_us) << l << to_string(tile);
                        EXPECT_LE(rm.l2.time_us, rx.l2.time_us) << l << to_string(tile);
                    }
                }
            }
    EXPECT_GT(checked, 20);
}

TEST(TilingModel, TimeScalesLinearlyWithBytesAtFixedEfficiency) {
    Config c = doc_config("NHWC", "W_H_C", "C_W_H");
    const Result one = evaluate(c);
    c.shape[0] = 3;  // three images: three times the bytes, same strides
    const Result three = evaluate(c);
    EXPECT_EQ(three.l1.bytes, 3 * one.l1.bytes);
    EXPECT_DOUBLE_EQ(three.l1.efficiency, one.l1.efficiency);
    EXPECT_NEAR(three.total_us, 3 * one.total_us, 1e-9 * three.total_us);
    EXPECT_NEAR(three.total_energy_uj, 3 * one.total_energy_uj, 1e-9 * three.total_energy_uj);
    // Time is bytes / (bandwidth * eta) at each level.
    EXPECT_NEAR(one.l1.time_us, double(one.l1.bytes) / (100e3 * one.l1.efficiency), 1e-9);
    EXPECT_NEAR(one.l2.time_us, double(one.l2.bytes) / (500e3 * one.l2.efficiency), 1e-9);
}

TEST(TilingModel, BytesPerLevel) {
    const Config c = doc_config("NCHW", "W_H_C", "W_H_C");
    const Result r = evaluate(c);
    const int64_t tensor_bytes = 64 * 56 * 56 * 4;
    EXPECT_EQ(r.l1.bytes, tensor_bytes);
    EXPECT_EQ(r.l2.bytes, tensor_bytes * c.l2_passes);
    EXPECT_EQ(r.l1.blocks, 4 * 4 * 4);
    EXPECT_EQ(r.l2.blocks, 64 * 4 * 2 * 2);
    EXPECT_EQ(r.tile_bytes, 16 * 14 * 14 * 4);
    EXPECT_TRUE(r.fits_sram);
    EXPECT_TRUE(r.fits_registers);
}

// Brute force: walk every tile and sub-tile of an uneven tiling, take each
// block's own stride, and sum bytes / (bandwidth * eta).
TEST(TilingModel, EdgeTilesMatchBlockByBlockSum) {
    for (const StrideBasis basis : {StrideBasis::source, StrideBasis::destination})
        for (const auto& [unit1, unit2] : {std::pair{0, 0}, std::pair{64, 16}, std::pair{16, 8}})
            for (const char* layout : {"NCHW", "NHWC", "NC1HWC0"})
                for (const char* order : {"W_H_C", "C_W_H", "H_C_W"}) {
                    Config c = doc_config(layout, order, order);
                    c.shape = {2, 20, 11, 13};
                    c.l1_tile = {8, 4, 5};
                    c.l2_tile = {3, 3, 2};
                    c.dtype = DType::fp16;
                    c.basis = basis;
                    c.mem.dram.access_bytes = unit1;
                    c.mem.sram.access_bytes = unit2;
                    const int64_t c0 = 16;
                    auto padded = [&](int64_t ch) {
                        return c.layout == "NC1HWC0" ? (ch + c0 - 1) / c0 * c0 : ch;
                    };
                    // Stride of the block's stepping dimension in `frame`; eta from it,
                    // at least one 2-byte element per `unit` bytes (never above 0.9).
                    auto eta = [&](const Extent3& b, const Extent3& frame, const Order& o,
                                   int unit) {
                        for (Dim d : o.inner_to_outer) {
                            if (b[d] == 1) continue;
                            const auto s = frame_strides(c.layout, c.dtype, frame);
                            if (s[int(d)] == 1) return 0.9;
                            double e = 1.0 / double(s[int(d)]);
                            if (unit > 0) e = std::min(0.9, std::max(e, 2.0 / unit));
                            return e;
                        }
                        return 0.9;
                    };
                    const bool src = basis == StrideBasis::source;
                    const Extent3 tensor{20, 11, 13};
                    double t1 = 0, t2 = 0;
                    for (int64_t n = 0; n < c.shape[0]; ++n)
                        for (int64_t c1 = 0; c1 < 20; c1 += 8)
                            for (int64_t h1 = 0; h1 < 11; h1 += 4)
                                for (int64_t w1 = 0; w1 < 13; w1 += 5) {
                                    const Extent3 tile{std::min<int64_t>(8, 20 - c1),
                                                       std::min<int64_t>(4, 11 - h1),
                                                       std::min<int64_t>(5, 13 - w1)};
                                    t1 +=
                                        double(padded(tile.c) * tile.h * tile.w * 2) /
                                        (100e3 * eta(tile, src ? tensor : tile, c.l1_order, unit1));
                                    for (int64_t c2 = 0; c2 < tile.c; c2 += 3)
                                        for (int64_t h2 = 0; h2 < tile.h; h2 += 3)
                                            for (int64_t w2 = 0; w2 < tile.w; w2 += 2) {
                                                const Extent3 sub{
                                                    std::min<int64_t>(3, tile.c - c2),
                                                    std::min<int64_t>(3, tile.h - h2),
                                                    std::min<int64_t>(2, tile.w - w2)};
                                                t2 += double(c.l2_passes * padded(sub.c) * sub.h *
                                                             sub.w * 2) /
                                                      (500e3 * eta(sub, src ? tile : sub,
                                                                   c.l2_order, unit2));
                                            }
                                }
                    const Result r = evaluate(c);
                    EXPECT_NEAR(r.l1.time_us, t1, 1e-9 * t1)
                        << layout << " " << order << " " << name(basis) << " " << unit1;
                    EXPECT_NEAR(r.l2.time_us, t2, 1e-9 * t2)
                        << layout << " " << order << " " << name(basis) << " " << unit2;
                    EXPECT_EQ(r.l1.blocks, 2 * 3 * 3 * 3);
                }
}

TEST(TilingModel, Nc1hwc0UsesC0FromDtype) {
    Config c = doc_config("NC1HWC0", "W_H_C", "W_H_C");
    c.dtype = DType::fp16;  // C0 = 16
    EXPECT_EQ(evaluate(c).l1.stride, 16);
    c.dtype = DType::int8;  // C0 = 32
    EXPECT_EQ(evaluate(c).l1.stride, 32);
    c.l1_order = c.l2_order = parse_order("C_W_H");
    EXPECT_DOUBLE_EQ(evaluate(c).l1.efficiency, kContiguousEfficiency);
}

TEST(TilingModel, InnermostDimWithExtentOneDoesNotStep) {
    Config c = doc_config("NCHW", "W_H_C", "W_H_C");
    c.l1_tile = {16, 14, 1};  // W never steps inside the tile: H does
    c.l2_tile = {4, 7, 1};
    Result r = evaluate(c);
    EXPECT_EQ(r.l1.innermost, Dim::H);
    EXPECT_EQ(r.l1.stride, 56);  // a one-column tile read from DRAM jumps a row
    c.basis = StrideBasis::destination;
    r = evaluate(c);
    EXPECT_EQ(r.l1.stride, 1);  // ... but lands contiguous in the one-column tile
}

TEST(TilingModel, SetupTimeIsPerBlock) {
    Config c = doc_config("NCHW", "W_H_C", "W_H_C");
    const Result base = evaluate(c);
    c.mem.dram.setup_ns = 100;
    const Result r = evaluate(c);
    EXPECT_NEAR(r.l1.time_us - base.l1.time_us, double(r.l1.blocks) * 0.1, 1e-9);
    EXPECT_DOUBLE_EQ(r.l1.efficiency, base.l1.efficiency);
}

TEST(TilingModel, OrderParsing) {
    EXPECT_EQ(to_string(parse_order("w_h_c")), "W_H_C");
    EXPECT_EQ(all_orders().size(), 6u);
    for (const char* bad : {"W_H", "W_W_C", "X_H_C", "WHC", "W_H_C_", ""})
        EXPECT_THROW(parse_order(bad), UsageError) << bad;
    EXPECT_THROW(check_layout("NDHWC"), UsageError);
    EXPECT_THROW(check_layout("CHWN"), UsageError);  // N must stay outermost
    EXPECT_EQ(check_layout("nhwc"), "NHWC");
    EXPECT_EQ(check_layout("nc1hwc0"), "NC1HWC0");
}

TEST(TilingModel, BadConfigsAreUsageErrors) {
    Config c;
    c.l1_tile = {0, 14, 14};
    EXPECT_THROW(evaluate(c), UsageError);
    c = Config();
    c.l1_tile = {128, 14, 14};  // larger than C = 64
    EXPECT_THROW(evaluate(c), UsageError);
    c = Config();
    c.l2_tile = {32, 7, 7};  // larger than the tile
    EXPECT_THROW(evaluate(c), UsageError);
    c = Config();
    c.mem.dram.bandwidth_gbps = 0;
    EXPECT_THROW(evaluate(c), UsageError);
    c = Config();
    c.mem.sram.bandwidth_gbps = -5;
    EXPECT_THROW(evaluate(c), UsageError);
    c = Config();
    c.mem.reg.bandwidth_gbps = 0;
    EXPECT_THROW(evaluate(c), UsageError);
    c = Config();
    c.mem.dram.access_bytes = -1;
    EXPECT_THROW(evaluate(c), UsageError);
    c = Config();
    c.l2_passes = 0;
    EXPECT_THROW(evaluate(c), UsageError);
    c = Config();
    c.shape = {64, 56, 56};
    EXPECT_THROW(evaluate(c), UsageError);
    EXPECT_THROW(parse_extent("16,14", "--l1-tile"), UsageError);
    EXPECT_THROW(parse_extent("16,0,14", "--l1-tile"), UsageError);
}

// The same properties on random configurations, in every reading of the
// model (stride basis, access units on or off): a matched order is never
// slower than a mismatched one at the same level, and N images cost N times
// one image.
TEST(TilingModel, RandomConfigurationsKeepTheProperties) {
    uint64_t seed = 12345;
    auto next = [&](int64_t lo, int64_t hi) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        return lo + int64_t((seed >> 33) % uint64_t(hi - lo + 1));
    };
    int checked = 0;
    for (int iter = 0; iter < 400; ++iter) {
        Config c;
        c.layout = offered_layouts()[size_t(next(0, 2))];
        c.dtype = std::vector<DType>{DType::fp32, DType::fp16, DType::int8}[size_t(next(0, 2))];
        c.shape = {1, next(1, 96), next(1, 40), next(1, 40)};
        c.l1_tile = {next(1, c.shape[1]), next(1, c.shape[2]), next(1, c.shape[3])};
        c.l2_tile = {next(1, c.l1_tile.c), next(1, c.l1_tile.h), next(1, c.l1_tile.w)};
        c.basis = next(0, 1) ? StrideBasis::source : StrideBasis::destination;
        const bool units = next(0, 1);
        c.mem.dram.access_bytes = units ? 64 : 0;
        c.mem.sram.access_bytes = units ? 16 : 0;
        const Dim cd = contiguous_dim(c.layout);
        const int64_t ext = cd == Dim::C ? c.shape[1] : c.shape[3];
        const bool ok = steps_everywhere(ext, c.l1_tile[cd], c.l2_tile[cd]);
        const Result base = evaluate(c);
        Config n3 = c;
        n3.shape[0] = 3;
        EXPECT_NEAR(evaluate(n3).total_us, 3 * base.total_us, 1e-9 * base.total_us);
        if (!ok) continue;
        ++checked;
        for (const Order& m : all_orders()) {
            if (m.inner_to_outer[0] != cd) continue;
            for (const Order& x : all_orders()) {
                if (x.inner_to_outer[0] == cd) continue;
                c.l1_order = c.l2_order = m;
                const Result rm = evaluate(c);
                c.l1_order = c.l2_order = x;
                const Result rx = evaluate(c);
                EXPECT_LE(rm.l1.time_us, rx.l1.time_us * (1 + 1e-12))
                    << c.layout << to_string(c.l1_tile) << to_string(m) << to_string(x);
                EXPECT_LE(rm.l2.time_us, rx.l2.time_us * (1 + 1e-12))
                    << c.layout << to_string(c.l2_tile) << to_string(m) << to_string(x);
            }
        }
    }
    EXPECT_GT(checked, 50);
}
