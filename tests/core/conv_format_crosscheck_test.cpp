// The conv pipeline's own NC1HWC0 and FRACTAL_Z index math held against the
// format engine (core/format), element by element, for both Cube dtypes.
#include <gtest/gtest.h>

#include "core/exec/conv.hpp"
#include "core/format/format.hpp"

using namespace ll;

namespace {

exec::ConvParams params(DType t, int64_t n, int64_t cin, int64_t cout, int64_t h, int64_t w,
                        int64_t k) {
    exec::ConvParams p;
    p.dtype = t;
    p.n = n;
    p.cin = cin;
    p.cout = cout;
    p.h = h;
    p.w = w;
    p.win = exec::Window2d{k, k, 1, 1, 1, 1, 0, 0, 0, 0};
    return p;
}

}  // namespace

TEST(ConvFormatCrossCheck, InputNC1HWC0MatchesFormatEngine) {
    for (DType t : {DType::fp16, DType::int8})
        for (auto p : {params(t, 2, 32, 64, 5, 4, 3), params(t, 1, 19, 3, 4, 6, 1),
                       params(t, 3, 33, 5, 3, 3, 2)}) {
            ConvertSpec s;
            s.from = Format::NCHW;
            s.to = Format::NC1HWC0;
            s.shape = {p.n, p.cin, p.h, p.w};
            s.dtype = t;
            Pipeline pl = make_pipeline(s);
            ASSERT_EQ(pl.dst_shape, exec::conv_shapes(p).at("input_5hd")) << name(t);
            EXPECT_EQ(element_map(pl), exec::input_5hd_map(p)) << name(t) << " Cin " << p.cin;
        }
}

TEST(ConvFormatCrossCheck, WeightFractalZMatchesFormatEngine) {
    for (DType t : {DType::fp16, DType::int8})
        for (auto p : {params(t, 1, 32, 64, 5, 5, 3), params(t, 1, 19, 3, 4, 6, 1),
                       params(t, 1, 33, 17, 3, 3, 2)}) {
            ConvertSpec s;
            s.from = Format::NCHW;
            s.to = Format::FRACTAL_Z;
            s.shape = {p.cout, p.cin, p.win.kh, p.win.kw};
            s.dtype = t;
            Pipeline pl = make_pipeline(s);
            // Same element order; the format engine may spell the shape in
            // more axes, so compare the element counts and maps.
            ASSERT_EQ(numel(pl.dst_shape), numel(exec::conv_shapes(p).at("b_fractal")))
                << name(t) << " " << to_string(pl.dst_shape);
            EXPECT_EQ(element_map(pl), exec::weight_fractal_map(p))
                << name(t) << " Cin " << p.cin << " Cout " << p.cout << " dst "
                << to_string(pl.dst_shape);
        }
}
