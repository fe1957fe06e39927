// Plan fast paths: one cell's offset without the full pass (offset_of), the
// table-driven stage places and the bulk cell colours agree with the
// element-by-element definitions they replace.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <set>

#include "core/format/format.hpp"
#include "core/format/format_plan.hpp"

using namespace ll;

namespace {

std::vector<std::vector<Pipeline>> chains() {
    std::vector<std::vector<Pipeline>> out;
    auto one = [&](Format f, Format t, Shape s, DType d) {
        out.push_back({make_pipeline({f, t, std::move(s), d})});
    };
    one(Format::ND, Format::FRACTAL_NZ, {2, 2, 28}, DType::fp16);
    one(Format::ND, Format::FRACTAL_ZZ, {3, 40, 20}, DType::fp32);
    one(Format::ND, Format::FRACTAL_ZN, {33, 17}, DType::int8);
    one(Format::NCHW, Format::NC1HWC0, {2, 19, 3, 5}, DType::fp16);
    one(Format::NHWC, Format::FRACTAL_Z, {17, 2, 3, 20}, DType::fp16);
    one(Format::FRACTAL_NZ, Format::ND, {2, 30, 20}, DType::fp16);  // crops
    one(Format::NC1HWC0, Format::NHWC, {1, 20, 3, 4}, DType::fp16);
    Pipeline a = make_pipeline({Format::NCHW, Format::NHWC, {1, 3, 4, 5}, DType::fp16});
    ConvertSpec sb{Format::NHWC, Format::NC1HWC0, a.dst_shape, DType::fp16};
    sb.shape = {1, 4, 5, 3};
    out.push_back({a, make_pipeline(sb)});
    return out;
}

}  // namespace

TEST(PlanFast, OffsetOfMatchesTheFullPass) {
    for (const auto& c : chains()) {
        Plan p = format_plan(c);
        ASSERT_TRUE(bool(p.offset_of)) << p.title;
        for (size_t k = 0; k < p.stages.size(); ++k) {
            std::vector<int64_t> off = p.offsets(k);
            int bad = 0;
            for (int64_t cell = 0; cell < p.cell_count; ++cell)
                if (p.offset_of(k, cell) != off[size_t(cell)] && ++bad < 4)
                    ADD_FAILURE() << p.title << " stage " << k << " cell " << cell << ": "
                                  << p.offset_of(k, cell) << " vs " << off[size_t(cell)];
        }
    }
}

TEST(PlanFast, StagePlacesMatchCellPlace) {
    for (const auto& c : chains()) {
        Plan p = format_plan(c);
        for (size_t k = 0; k < p.stages.size(); ++k) {
            std::vector<float> xy;
            stage_places(p, k, xy);
            std::vector<int64_t> off = p.offsets(k);
            ASSERT_EQ(xy.size(), off.size() * 2);
            for (size_t i = 0; i < off.size(); ++i) {
                if (off[i] < 0) {
                    EXPECT_TRUE(std::isnan(xy[2 * i]));
                    continue;
                }
                Place q = cell_place(p.stages[k].grid, off[i]);
                ASSERT_EQ(xy[2 * i], q.x) << p.title << " stage " << k << " cell " << i;
                ASSERT_EQ(xy[2 * i + 1], q.y) << p.title << " stage " << k << " cell " << i;
            }
        }
    }
}

// Large enough for the two-thread split and for offsets far from the tables'
// split point; deep shapes exercise the hi/lo tables.
TEST(PlanFast, PlacesOfLargeGridsMatchCellPlace) {
    for (Shape s : {Shape{1, 1 << 20}, Shape{600, 700}, Shape{3, 5, 7, 11, 13, 17}}) {
        Grid g = tensor_grid(s);
        int64_t n = numel(s);
        std::vector<int64_t> off(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) off[size_t(i)] = (i * 7919) % n;  // a permutation
        std::vector<float> xy;
        places_of_offsets(g, off.data(), n, xy);
        for (int64_t i = 0; i < n; i += 97) {
            Place q = cell_place(g, off[size_t(i)]);
            ASSERT_EQ(xy[size_t(2 * i)], q.x) << to_string(s) << " " << i;
            ASSERT_EQ(xy[size_t(2 * i + 1)], q.y) << to_string(s) << " " << i;
        }
    }
    Grid m = memory_grid(int64_t(1) << 21, DType::fp16);
    ASSERT_GT(m.band_rows, 0);
    std::vector<int64_t> off(size_t(1) << 21);
    for (size_t i = 0; i < off.size(); ++i) off[i] = int64_t(off.size() - 1 - i);
    std::vector<float> xy;
    places_of_offsets(m, off.data(), int64_t(off.size()), xy);
    for (size_t i = 0; i < off.size(); i += 101) {
        Place q = cell_place(m, off[i]);
        ASSERT_EQ(xy[2 * i], q.x) << i;
        ASSERT_EQ(xy[2 * i + 1], q.y) << i;
    }
}

TEST(PlanFast, BulkColoursMatchCellColour) {
    for (const auto& c : chains()) {
        Plan p = format_plan(c);
        for (ColourMode m : all_colour_modes()) {
            std::vector<Rgba8> col(size_t(p.cell_count));
            cell_colours(p, m, fractal_elems(p.dtype), col.data());
            for (int64_t i = 0; i < p.cell_count; ++i) {
                Rgba8 want = cell_colour(p, m, i, fractal_elems(p.dtype));
                for (int ch = 0; ch < 4; ++ch)
                    ASSERT_LE(std::abs(int(col[size_t(i)][size_t(ch)]) - int(want[size_t(ch)])), 1)
                        << p.title << " " << name(m) << " cell " << i;
            }
        }
    }
}

// A tall stack of blocks (NC1HWC0 of a 32x32 picture: 32 blocks of 32x16)
// wraps into rows so the picture suits a window; places stay distinct and
// inside, and small shapes keep the classic layout.
TEST(PlanFast, FittedGridWrapsTallStacks) {
    Shape s{1, 1, 32, 32, 16};
    Extent classic = grid_extent(tensor_grid(s));
    EXPECT_LT(classic.w / classic.h, 0.05f);
    Grid g = fitted_tensor_grid(s, 1.1f);
    Extent e = grid_extent(g);
    EXPECT_GT(e.w / e.h, 0.4f);
    EXPECT_LT(e.w / e.h, 3.f);
    std::set<std::pair<float, float>> seen;
    for (int64_t o = 0; o < numel(s); ++o) {
        Place q = cell_place(g, o);
        ASSERT_GE(q.x, 0);
        ASSERT_GE(q.y, 0);
        ASSERT_LE(q.x + 1, e.w);
        ASSERT_LE(q.y + 1, e.h);
        ASSERT_TRUE(seen.insert({q.x, q.y}).second) << o;
    }
    std::vector<int64_t> off(static_cast<size_t>(numel(s)));
    for (size_t i = 0; i < off.size(); ++i) off[i] = int64_t(i);
    std::vector<float> xy;
    places_of_offsets(g, off.data(), int64_t(off.size()), xy);
    for (size_t i = 0; i < off.size(); ++i) {
        Place q = cell_place(g, int64_t(i));
        ASSERT_EQ(xy[2 * i], q.x);
        ASSERT_EQ(xy[2 * i + 1], q.y);
    }
    // The documents' NZ example keeps its classic picture.
    Shape nz{2, 2, 1, 16, 16};
    EXPECT_TRUE(fitted_tensor_grid(nz, 1.1f).wrap.empty());
    EXPECT_TRUE(fitted_tensor_grid({3, 4}, 1.1f).wrap.empty());
}

// offset_at inverts cell_place on tensor grids (classic and wrapped) and on
// memory grids, and finds nothing in the gaps between blocks and bands.
TEST(PlanFast, OffsetAtInvertsCellPlace) {
    std::vector<Grid> grids = {tensor_grid({7}),
                               tensor_grid({3, 4}),
                               tensor_grid({2, 3, 4}),
                               tensor_grid({2, 3, 2, 3, 5}),
                               fitted_tensor_grid({1, 1, 32, 32, 16}, 1.1f),
                               fitted_tensor_grid({3, 40, 2, 2, 4}, 1.1f),
                               memory_grid(1000, DType::fp16),
                               memory_grid(100000, DType::int8)};
    for (const Grid& g : grids) {
        int64_t n = numel(g.shape);
        std::set<std::pair<int64_t, int64_t>> used;
        for (int64_t o = 0; o < n; ++o) {
            Place q = cell_place(g, o);
            ASSERT_EQ(offset_at(g, q.x + 0.5f, q.y + 0.5f), o) << to_string(g.shape) << " " << o;
            ASSERT_EQ(offset_at(g, q.x, q.y), o);
            used.insert({int64_t(q.x), int64_t(q.y)});
        }
        Extent e = grid_extent(g);
        for (int64_t y = 0; y < int64_t(e.h); y += 1 + int64_t(e.h) / 50)
            for (int64_t x = 0; x < int64_t(e.w); ++x) {
                if (used.count({x, y})) continue;
                ASSERT_EQ(offset_at(g, float(x) + 0.5f, float(y) + 0.5f), -1)
                    << to_string(g.shape) << " gap " << x << "," << y;
            }
        EXPECT_EQ(offset_at(g, -0.5f, 0.5f), -1);
        EXPECT_EQ(offset_at(g, e.w + 3, 0.5f), -1);
        EXPECT_EQ(offset_at(g, 0.5f, e.h + 3), -1);
    }
}
