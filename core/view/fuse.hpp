// Transform fusion: a chain of layout transforms composed into one index map.
//
// Every transform is an index map from output coordinates to input
// coordinates; applying the chain's view ops to the input layout composes
// those maps (ReshapeRule::hierarchical, so a reshape that a single stride
// cannot express keeps (outer, inner) sub-modes instead of copying). The
// fused map is the final layout over the INPUT storage: one read pass with
// that layout and one contiguous write does the whole chain. Only when even
// sub-modes cannot express a step does the map become a composition of
// layouts (`composite`), still evaluated in one pass by resolve().
//
// Bytes: unfused, every step is materialised (it reads what it needs from the
// previous buffer and writes its whole output), except a step whose output
// buffer is its input buffer as it lies (a reshape of the contiguous buffer:
// step_cost in view.hpp, the same function the views panel uses); fused, one read of the
// distinct input elements needed and one write of the output, and nothing at
// all when the map is the identity on memory (NCHW -> NHWC -> NCHW, or a
// reshape of a contiguous tensor).
//
// Expanding and selecting steps: im2col composes as an overlapping-stride
// layout (expansion factor = output / input elements, about kh*kw/(sh*sw));
// a gather composes as an index array (a `gather` node in the chain that
// resolve() walks), so the fused pass reads through it instead of writing
// the gathered buffer. Bytes count tensor elements only; a gather's index
// array (one int per index) is read by both executions and left out.
//
// Worked example, (1,64,56,56) fp32 NCHW, reshape:1,64,3136 then transpose:1,2
//   step 1 (1,64,3136):(200704,3136,1)    bijective
//   step 2 (1,3136,64):(200704,1,3136)    bijective
//   fused  (1,3136,64):(200704,1,3136): one strided copy,
//   moved 1,605,632 B (read + write of 802,816 B), the same as unfused: the
//   reshape is free there too, and the transpose one copy. A chain with two
//   copies, transpose:1,2 then transpose:2,3, halves it: 3,211,264 B unfused.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/view/view.hpp"

namespace ll::view {

struct FuseStep {
    Op op;
    Category category = Category::bijective;
    Shape in_shape, out_shape;
    View map;             // composed map after this step, over the input storage
    bool copied = false;  // even sub-modes could not express the step
    int64_t reads = 0;    // elements this step reads when materialised alone (0: free)
    int64_t writes = 0;   // elements it writes (0: its output is its input buffer)
};

struct Fused {
    View input;
    std::vector<FuseStep> steps;
    View result;  // the single read map (layout over the input storage)
    bool composite = false;
    bool identity = false;  // same shape, every index reads its own element
    // Output dim i is input dim permutation[i] (a pure permutation), else nullopt.
    std::optional<std::vector<int64_t>> permutation;
    bool moves_nothing = false;  // the output is the input storage as it lies
    int64_t moved_bytes = 0;     // fused: one read + one write (0 when moves_nothing)
    int64_t unfused_moved_bytes = 0;
    int64_t distinct_reads = 0;  // input elements the fused pass reads
};

// Throws UsageError naming the first op that does not fit.
Fused fuse(const View& input, const std::vector<Op>& ops);

// A read map written out through its copies and index arrays, e.g.
// "(8,4):(8,1) -> (16,4) gathered along dim 1 by [7,0,3,3] -> (16,8):(1,16)".
std::string map_string(const View& v);

// Output elements per input element of a step (> 1 for an expanding one).
double expansion(const FuseStep& s);

}  // namespace ll::view
