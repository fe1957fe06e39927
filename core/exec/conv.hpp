// The convolution pipeline of the lecture's case study, on real numbers.
//
//   input NCHW [N,Cin,H,W] -> NC1HWC0 [N,C1,H,W,C0]           (C1 = ceil(Cin/C0))
//   -> img2col [N, Ho*Wo, C1*Kh*Kw*C0]                         (columns (c1,kh,kw,c0))
//   -> A fractals, big Z small Z [N, ceil(HoWo/16), C1*Kh*Kw, 16, C0]
//   weights OIHW [Cout,Cin,Kh,Kw] -> [Cout,C1,Kh,Kw,C0] -> matrix [C1*Kh*Kw*C0, Cout]
//   -> B fractals, big Z small N [C1*Kh*Kw, ceil(Cout/16), 16, C0]
//   -> Cube, loop K -> N -> M: C fractals, big N small Z [ceil(Cout/16), N*ceil(HoWo/16), 16, 16]
//   -> padding removed [ceil(Cout/16), N, Ho, Wo, 16] -> NC1HWC0 [N, ceil(Cout/16), Ho, Wo, 16]
//   -> NCHW [N, Cout, Ho, Wo]
// C0 = K0 = 16 for fp16 and 32 for int8; N0 = M0 = 16 for both.
// Cube steps = C1*Kh*Kw * ceil(Cout/16) * N*ceil(HoWo/16).
//
// Worked example (the case study, conv_case_study()): N 10, Cin 32, Cout 64,
// 28x28, 3x3, pad 1, stride 1, fp16 -> A (10,49,18,16,16), B (18,4,16,16),
// C (4,490,16,16), output 5HD (10,4,28,28,16), 35280 fractal multiplications.
//
// Contract on numbers: conv_fp16() equals direct_conv() on the half-rounded
// inputs within fp32 rounding; conv_int8() equals direct_conv_int8() exactly.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "core/exec/img2col.hpp"
#include "core/shape.hpp"

namespace ll::exec {

struct ConvParams {
    int64_t n = 10, cin = 32, cout = 64, h = 28, w = 28;
    Window2d win{3, 3, 1, 1, 1, 1, 1, 1, 1, 1};
    DType dtype = DType::fp16;

    void validate() const;  // throws UsageError
    int64_t c0() const;     // 16 (fp16) or 32 (int8)
    int64_t out_h() const;
    int64_t out_w() const;
};

ConvParams conv_case_study();

// One stage of the pipeline: a key for scripts, a title and a one-line why.
struct ConvStage {
    std::string key;    // "input_5hd", "img2col", "a_fractal", ...
    std::string title;  // "NC1HWC0 input"
    Shape shape;
    std::string note;
};

struct ConvShapes {
    std::vector<ConvStage> stages;                  // in pipeline order
    int64_t cube_ops = 0;                           // fractal multiplications
    int64_t k1 = 0, n1 = 0, m1 = 0;                 // the Cube loop bounds (m1 includes N)
    const Shape& at(const std::string& key) const;  // throws std::out_of_range
};

ConvShapes conv_shapes(const ConvParams& p);  // validates

// The lecture's count of multiplications (document 004): kernel Kh x Kw,
// output Ho x Wo, Cin channels, Cout kernels, N images:
//   Kh*Kw*Ho*Wo*Cin*Cout*N; its example 3*3*6*6*3*4*10 = 38,880.
int64_t lecture_multiplications(const ConvParams& p);  // validates

struct ConvResultF {
    ConvShapes shapes;
    std::vector<float> output;  // NCHW
};
struct ConvResultI {
    ConvShapes shapes;
    std::vector<int32_t> output;  // NCHW
};

// Throws UsageError when running p would need a buffer of more than 2^28
// elements (shapes have no such limit); conv_fp16/conv_int8 call it first.
void check_runnable(const ConvParams& p);

// input NCHW, weight OIHW (sizes checked: UsageError). Values are rounded to
// fp16 on the way in; the Cube accumulates in fp32.
ConvResultF conv_fp16(const ConvParams& p, const std::vector<float>& input,
                      const std::vector<float>& weight);
ConvResultI conv_int8(const ConvParams& p, const std::vector<int8_t>& input,
                      const std::vector<int8_t>& weight);

// Where the pipeline puts each element, as element maps (for every
// destination element in memory order: the row-major source index, or -1 for
// zero padding). input_5hd_map: NCHW input -> [N, C1, H, W, C0];
// weight_fractal_map: OIHW weight -> FRACTAL_Z [C1*Kh*Kw, ceil(Cout/16), 16, C0].
// conv_fp16/conv_int8 fill their buffers through exactly these maps, so a test
// can hold them against the format engine's NC1HWC0 and FRACTAL_Z.
std::vector<int64_t> input_5hd_map(const ConvParams& p);
std::vector<int64_t> weight_fractal_map(const ConvParams& p);

// Plain direct convolutions, the references (double accumulation; no rounding).
std::vector<float> direct_conv(const ConvParams& p, const std::vector<float>& input,
                               const std::vector<float>& weight);
std::vector<int32_t> direct_conv_int8(const ConvParams& p, const std::vector<int8_t>& input,
                                      const std::vector<int8_t>& weight);

}  // namespace ll::exec
