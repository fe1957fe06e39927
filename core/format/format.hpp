// Layout formats and the conversions between them, kept as data.
//
// A conversion is a Pipeline: a list of Steps (pad, reshape, transpose, and
// crop for the inverse direction), each with the shape before and after and
// a caption in the documents' symbolic style. Everything else (ElementMap,
// stage offsets, Executor) is derived from the steps.
//
// Contract, with the documents' worked example (ND -> FRACTAL_NZ, fp16):
//   ConvertSpec s{Format::ND, Format::FRACTAL_NZ, {2,2,28}, DType::fp16};
//   Pipeline p = make_pipeline(s);
//   to_string(p) == "(2,2,28) -> pad -> (2,16,32) -> reshape -> (2,1,16,2,16)"
//                   " -> transpose(0,3,1,2,4) -> (2,2,1,16,16)"
//   p.steps[2].caption ==
//       "(..., B, M1, M0, N1, N0) -> transpose -> (..., B, N1, M1, M0, N0)"
//   element_map(p)[16] == 28   (row 1 of the first fractal starts with source 28)
//   element_map(p)[32] == -1   (rows 2..15 of each fractal are padding, M = 2)
//   element_map(p)[256 + 12] == -1   (fractal N1 = 1 holds cols 16..27, then padding)
// The inverse conversion (FRACTAL_NZ -> ND, --shape (2,2,28)) has the steps
// reshape, transpose, reshape, crop and its ElementMap has no -1 entries.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core/shape.hpp"

namespace ll {

// ---- formats ----------------------------------------------------------------

enum class Format : uint8_t {
    ND,
    NCHW,
    NHWC,
    HWCN,
    NCDHW,
    NDHWC,
    NC1HWC0,
    NDC1HWC0,
    FRACTAL_NZ,
    FRACTAL_ZZ,
    FRACTAL_ZN,
    FRACTAL_Z,
    FRACTAL_Z_3D,
    // Matmul high-level formats (document 000, last section); see
    // core/format/matmul_formats.cpp for their conversions.
    BSH,       // (B, S, H), H = N x D, row-major
    SBH,       // (S, B, H)
    BSNGD,     // (B, S, N, G, D): BSH reshaped; one S x D matrix per (b, n, g)
    SBNGD,     // (S, B, N, G, D): SBH reshaped
    BNGS1S2,   // (B, N, G, S1, S2): each (b, n, g) an S1 x S2 matrix, contiguous
    BMNK,      // (B, M, K): a batch of contiguous matrices (NORMAL)
    ND_ALIGN,  // ND with the last axis zero-padded to a multiple of 32 bytes
    VECTOR,    // (K): the A operand of a GEMV, one row of K elements
    // Blocked layouts of CPU libraries (document 003 section 5.2):
    NCHW16C,  // oneDNN's nChw16c: (N, C1, H, W, 16), C padded to 16 whatever the dtype
    NCHW8H8W  // NCHW tiled 8x8 on H, W: (N, C, H1, W1, 8, 8), H and W padded to 8
};

const char* name(Format f);
// Exact names as above (case-insensitive); aliases NZ, ZZ, ZN, 5HD.
// Throws UsageError listing the valid names.
Format format_from_name(const std::string& s);
const std::vector<Format>& all_formats();
std::string format_names();  // "ND, NCHW, ..." for messages

// Plain formats keep every element exactly once, without padding.
bool is_plain(Format f);
// Rank a plain format requires: NCHW/NHWC/HWCN 4, NCDHW/NDHWC 5, ND 0
// (any rank >= 1; rank >= 2 when it feeds FRACTAL_NZ/ZZ/ZN). -1 for
// non-plain formats.
int plain_rank(Format f);
// The plain format a non-plain one is built from when no plain side is named
// (fractal <-> fractal): ND for NZ/ZZ/ZN, NCHW for NC1HWC0/FRACTAL_Z, NDHWC
// for NDC1HWC0/FRACTAL_Z_3D; a plain format is its own.
Format plain_family(Format f);
// Axis letters of a plain format's logical shape, e.g. "NCHW"; "" for ND
// (BNGS1S2 gives "BNGS1S2": use axis_names for one entry per axis).
std::string axis_letters(Format f);
// One name per axis of the logical shape a format is given by: a plain
// format's own axes ("B","N","G","S1","S2"); for a non-plain format the
// axes of the plain side it is built from ({"...","M","N"} for the matrix
// fractals and ND_ALIGN, {"N","C","H","W"} for NC1HWC0 / FRACTAL_Z, ...).
std::vector<std::string> axis_names(Format f);

// ---- pipeline ---------------------------------------------------------------

enum class StepKind : uint8_t { pad, reshape, transpose, crop };
const char* name(StepKind k);

struct Step {
    StepKind kind = StepKind::reshape;
    Shape before, after;
    // pad: elements appended at the end of each axis of `before`;
    // crop: elements removed at the end of each axis of `before`.
    std::vector<int64_t> amounts;
    // transpose: after[i] == before[perm[i]].
    std::vector<int64_t> perm;
    // Symbolic axis names before/after, e.g. {"...","B","M1","M0","N1","N0"}.
    std::vector<std::string> axes_before, axes_after;
    // "(..., B, M1, M0, N1, N0) -> transpose -> (..., B, N1, M1, M0, N0)"
    std::string caption;

    // "pad", "reshape", "crop" or "transpose(0,3,1,2,4)".
    std::string label() const;
};

// Fractal (or C0 block) sides used on one non-plain side of a conversion,
// named in the matrix's own axes: NZ rows M0 cols N0; ZZ M0 x K0; ZN K0 x N0;
// FRACTAL_Z / Z_3D N0 x C0; NC1HWC0 / NDC1HWC0 rows 0 (none), cols C0.
struct FractalInfo {
    Format format = Format::ND;
    std::string row_name, col_name;
    int64_t rows = 0, cols = 0;
};

struct Pipeline {
    Format from = Format::ND, to = Format::ND;
    DType dtype = DType::fp16;
    Shape src_shape, dst_shape;  // physical shapes of the two buffers
    Shape logical_shape;         // the --shape given (plain side)
    std::vector<Step> steps;
    std::vector<FractalInfo> fractals;  // source side first when both sides have one
    int64_t c0 = 0;                     // C0 in effect, 0 when not used
    double pad_value = 0;
};

// "(2,2,28) -> pad -> (2,16,32) -> reshape -> ..." ; just "(2,3)" with no steps.
std::string to_string(const Pipeline& p);

struct ConvertSpec {
    Format from = Format::ND, to = Format::ND;
    Shape shape;  // LOGICAL shape, in the axis order of the plain format
    DType dtype = DType::fp16;
    int64_t c0 = 0;                              // 0: 32 B / sizeof(dtype)
    int64_t fractal_rows = 0, fractal_cols = 0;  // 0: from the dtype (see FractalInfo)
    // Source side's fractal when it differs from the destination's (L0C ->
    // L1: fp32 NZ 16x16 -> 16x8); 0: the same as fractal_rows/cols.
    int64_t src_fractal_rows = 0, src_fractal_cols = 0;
    // BSH -> BSNGD (SBH -> SBNGD) with a 3-D --shape: H = heads x groups x D.
    int64_t heads = 0, groups = 0;
    double pad_value = 0;
};

// Validates the spec (UsageError keyed by the field: from_to, shape, c0,
// fractal, src_fractal, heads_groups, pad_value) and builds the steps. Supported conversions:
//   ND -> FRACTAL_NZ/ZZ/ZN; NCHW/NHWC -> NC1HWC0; NCHW/NHWC/HWCN -> FRACTAL_Z;
//   NCDHW/NDHWC -> NDC1HWC0, FRACTAL_Z_3D; each of these backwards; plain ->
//   plain (transposes NCHW/NHWC/HWCN, NCDHW/NDHWC; ND <-> plain: no steps);
//   fractal <-> fractal of the same family through its plain format (ND for
//   NZ/ZZ/ZN, NCHW for NC1HWC0/FRACTAL_Z, NDHWC for NDC1HWC0/FRACTAL_Z_3D);
//   a fractal to itself with another fractal size (src_fractal_*);
//   the Matmul formats among themselves and to/from FRACTAL_NZ/ZZ/ZN, ND <->
//   ND_ALIGN, VECTOR -> FRACTAL_NZ/ZZ/ZN (see matmul_formats.cpp).
Pipeline make_pipeline(const ConvertSpec& spec);

// The most elements one tensor of a conversion may hold: its logical shape
// and every shape its steps produce (the padded ones too).
constexpr int64_t kMaxConvertElements = int64_t(1) << 32;
// What make_pipeline throws when a tensor would pass kMaxConvertElements
// (key "shape"), so that a caller can tell that limit from other bad input.
class ElementLimitError : public UsageError {
  public:
    using UsageError::UsageError;
};
// Whether make_pipeline(spec) keeps within kMaxConvertElements: false where
// it would throw ElementLimitError; any other error in the spec is thrown.
bool within_element_limit(const ConvertSpec& spec);

// The conversion that introduces f in the documents, on a small example
// shape: ND -> FRACTAL_NZ (2,2,28), NHWC -> NC1HWC0, BSNGD -> BMNK, ...; a
// plain format with nothing to build (ND, NCHW, ...) converts to itself.
// Its steps' captions are f's pipeline formula (see pipeline_formula).
ConvertSpec example_conversion(Format f, DType t = DType::fp16);
// "ND -> FRACTAL_NZ: (..., B, M, N) -> pad -> ... -> (..., B, N1, M1, M0, N0)",
// derived from the steps of example_conversion(f); for a plain format with
// no steps "(N, C, H, W), row-major".
std::string pipeline_formula(Format f);

// The pipeline that undoes p (dst -> src); make_pipeline with from/to swapped.
Pipeline inverse(const Pipeline& p);

// ---- element maps -----------------------------------------------------------

// For every destination element, in destination memory order, the row-major
// index of its source element, or -1 for padding. Size numel(p.dst_shape).
using ElementMap = std::vector<int64_t>;
ElementMap element_map(const Pipeline& p);

// How many destination elements hold source data (the rest is padding): the
// count of element_map(p)'s entries >= 0, found from the pipeline's segments
// without building the map (a forward segment keeps every element it is
// given, an inverse one of a padding-free tensor keeps all it writes). Only a
// crop of a tensor that already holds padding builds the map to count.
int64_t data_elements(const Pipeline& p);

// For every destination element (same order as element_map), its row-major
// offset inside the tensor after step k: k == 0 is the source (-1 where the
// element is padding that does not exist yet), k == steps.size() gives
// 0..n-1. Reshape steps keep offsets. Throws std::out_of_range for k > steps.
std::vector<int64_t> stage_offsets(const Pipeline& p, size_t k);

// Shape of the tensor after step k (k == 0: p.src_shape).
Shape stage_shape(const Pipeline& p, size_t k);

// ---- executor ---------------------------------------------------------------

// Moves real bytes. Buffers hold numel(shape) elements of p.dtype, row-major
// (int4: two per byte, low nibble first). Padding is filled with p.pad_value
// converted to the dtype. Fast: a blocked strided copy, never a per-element
// coordinate walk (int4 moves nibble pairs as bytes where the layout keeps
// them together, else nibble by nibble along the same strided walk).
// Large tensors are best held in TensorBuffers (tensor_buffer.hpp), which
// ask the kernel for huge pages as NumPy does: the transposes that stride
// across many pages at once ran up to 1.5x faster on them
// (docs/PERFORMANCE.md, finding 52). Any buffer works.
class Executor {
  public:
    explicit Executor(Pipeline p);
    const Pipeline& pipeline() const { return p_; }
    int64_t src_bytes() const;
    int64_t dst_bytes() const;
    // At most how many bytes run() allocates beside src and dst: the
    // intermediate tensors of a conversion that goes through its plain form
    // in passes (two alive at once). Those that compose or fuse into one
    // pass use far less (a slab per thread), so this is an upper bound.
    int64_t scratch_bytes() const;
    // src must hold src_bytes(), dst dst_bytes() bytes; they must not overlap.
    void run(const void* src, void* dst) const;
    // The same split across `threads` threads (<= 0: all cores); the result
    // is identical for every thread count.
    void run(const void* src, void* dst, int threads) const;
    std::vector<uint8_t> run(const std::vector<uint8_t>& src) const;

  private:
    Pipeline p_;
};

// Element values as doubles (fp16/bf16 decoded) and back, for printing and
// tests. encode rounds to nearest (even) for fp16/bf16, truncates toward zero
// and wraps for integers.
double load_element(DType t, const void* buf, int64_t index);
void store_element(DType t, void* buf, int64_t index, double v);

}  // namespace ll
