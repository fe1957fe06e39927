// Views: a Layout over one storage plus what a framework tensor keeps beside
// it (element size, base address), and the zero-copy operations on it.
//
// Contract: every op returns a view whose index x reads the element that the
// same op applied to a materialised (copied, row-major) tensor puts at x.
// Ops change only metadata, except where a strided layout cannot express the
// result; then the result is a copy: a new contiguous storage (storage id + 1)
// filled with the previous view's elements in row-major order, and `source`
// points at that previous view. resolve() follows those copies back.
//
// Worked example (the seed document's numbers, fp32):
//   x = View(row_major({2,3,4}))            (2,3,4):(12,4,1)
//   transpose:1,2                           (2,4,3):(12,1,4)   same storage
//   reshape:6,4                             copies: (6,4):(4,1) on storage 1
//   View(row_major({10,20})) slice:2:8,5:15 (6,10):(20,1)+45
//   View(row_major({3}))     expand:4,3     (4,3):(0,1)
//
// Op syntax (parse_op), dims are 0-based:
//   permute:0,2,3,1    transpose:1,2    reshape:6,4    expand:4,3 (-1 keeps a dim)
//   slice:2:8,5:15     one start:stop[:step] per dim, empty parts default to
//                      0:size:1, omitted trailing dims are kept whole
//                      (slice:0:10:2,: and slice:::2 are valid)
//   select:d,i         index i of dim d, dropping the dim (x[:, i] is select:1,i)
//   squeeze[:d]        unsqueeze:d       repeat:2,1 (tile each dim)   contiguous
//   gather:d:i,j,...   indices i,j,... of dim d, in that order, repeats allowed
//                      (index_select); an arithmetic run of indices stays a
//                      view, any other list is an index array (a copy that
//                      `gather` records, so resolve() still reaches storage 0)
//   im2col:kh,kw[,sh,sw[,dh,dw]]   windows of the last two dims (H,W), no
//                      padding; leading dims act as channels. Result
//                      (OH*OW, C*KH*KW): row = output pixel, column = (c,kh,kw).
//                      With ReshapeRule::hierarchical and flat H,W modes it is
//                      the overlapping-stride layout (no copy)
//                      ((OH,OW),(C..,KH,KW)):((sH*sh,sW*sw),(..,sH*dh,sW*dw));
//                      otherwise one copy that `im2col` records.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/view/layout.hpp"

namespace ll::view {

// How a copy's storage was filled from its source: row-major (no Gather), or
// the source gathered along `dim` through `index` (storage shape = the
// source's shape with dim resized to index.size()).
struct Gather {
    size_t dim = 0;
    std::vector<int64_t> index;
};

// An im2col window: kernel, stride, dilation and the output it gives
// (im2col_params below).
struct Im2col {
    int64_t kh = 1, kw = 1, sh = 1, sw = 1, dh = 1, dw = 1;
    int64_t oh = 0, ow = 0, channels = 1;
};

struct View {
    Layout layout;
    int elem_bits = 32;
    int64_t base = 0;  // byte address of storage element 0
    int storage = 0;   // 0: the original storage; k: the k-th copy
    int64_t storage_elems = 0;
    std::shared_ptr<const View> source;    // for a copy: the view it was filled from
    std::shared_ptr<const Gather> gather;  // with source: filled by a gather, not row-major
    std::shared_ptr<const Im2col> im2col;  // with source: filled as the im2col matrix of it

    Shape shape() const { return layout.shape(); }
    int64_t element_offset(const Coord& c) const { return layout(c); }
    int64_t address(const Coord& c) const { return base + layout(c) * elem_bits / 8; }
};

// A contiguous view over a fresh storage of exactly layout's extent.
View make_view(const Layout& layout, int elem_bits = 32, int64_t base = 0);

enum class OpKind {
    permute,
    transpose,
    slice,
    select,
    reshape,
    expand,
    squeeze,
    unsqueeze,
    repeat,
    contiguous,
    gather,
    im2col
};
enum class Category { bijective, expanding, selecting };

struct Range {
    int64_t start = 0, stop = -1, step = 1;  // stop < 0: to the end
    bool has_start = false, has_stop = false;
};

struct Op {
    OpKind kind = OpKind::contiguous;
    std::vector<int64_t> ints;  // dims, shape or repeats
    std::vector<Range> ranges;  // slice
    std::string text;           // as written, for messages
};

const char* name(OpKind k);
const char* name(Category c);
Category category(OpKind k);

// Throws UsageError "op 'text': ...; expected ..." for bad syntax or names.
Op parse_op(const std::string& text);

// How a reshape that a single stride per dim cannot express is handled:
// strided (PyTorch's view rule: copy), or hierarchical (keep (outer, inner)
// sub-modes, copying only when even those cannot express it; used by fusion).
enum class ReshapeRule { strided, hierarchical };

struct Applied {
    View view;
    bool copied = false;
};

// Throws UsageError naming the op and what is expected when the op does not
// fit the view (bad permutation, slice out of bounds, count change, ...).
Applied apply(const View& v, const Op& op, ReshapeRule rule = ReshapeRule::strided);

// What running `op` alone on `in` moves, in elements: nothing when the
// result is a view of in's storage, else the copy's reads (a selecting op
// reads only what it keeps, an expanding one each input element once) and
// writes (its whole output). With `contiguous_output` the result must also
// lie row-major (an executor that materialises every step): a free view
// then has to be contiguous too, so a transpose costs a copy while a
// reshape of a contiguous tensor stays free. The views panel asks without,
// fusion's unfused execution with; both get their numbers here.
struct StepCost {
    bool moves = false;
    int64_t reads = 0, writes = 0;            // elements
    int64_t read_bytes = 0, write_bytes = 0;  // the same in bytes (int4: rounded up)
};
StepCost step_cost(const View& in, const Op& op, bool contiguous_output = false);

// The view copied into a new contiguous storage (the result of .contiguous()).
View materialize(const View& v);

// Offset in the ORIGINAL storage (storage 0) that index c of v reads.
int64_t resolve(const View& v, const Coord& c);

// The coordinate of v.source that element `storage_index` of v's storage
// holds (row-major for a plain copy, through the index array for a gather,
// window by window for an im2col copy).
// v must have a source.
Coord source_coord(const View& v, int64_t storage_index);

// Output shape and window of an im2col op on `in` (rank >= 2); throws
// UsageError when the window does not fit.
Im2col im2col_params(const Op& op, const Shape& in);

}  // namespace ll::view
