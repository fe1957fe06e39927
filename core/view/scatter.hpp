// The scatter side of scatter-gather (document 003, section 14): a packed
// source of n elements written to memory at an index list, `width` elements
// per request, the mirror of gather() (core/view/agu.hpp). What differs from a
// gather, and what this model reports besides gather's runs and bursts:
//   - conflicts: an index written more than once; the later write wins, so
//     the order of requests is part of the result (a gather may read an
//     element any number of times);
//   - partial bursts: a burst segment a request writes only in part needs a
//     masked write (byte enables) or a read-modify-write, where a gather
//     simply reads the whole burst.
// Example: indices 0,1,2,3,8,8 width 4, fp32, 64 B bursts: 2 requests, one
// burst each, both partial (16 and 4 of 64 bytes), 1 conflict (index 8:
// source element 5 wins over element 4); dst = 0,1,2,3,-1,-1,-1,-1,5.
#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/plan.hpp"
#include "core/view/agu.hpp"

namespace ll::view {

struct ScatterRequest {
    int64_t first = 0;  // position of its first index
    int64_t runs = 0, bursts = 0;
    int64_t partial_bursts = 0;             // bursts this request writes only in part
    std::vector<int64_t> partial_segments;  // their burst numbers (address / burst)
};
struct ScatterConflict {
    int64_t index = 0;             // destination element
    std::vector<int64_t> writers;  // source positions writing it, in order
};
struct ScatterReport {
    std::vector<ScatterRequest> requests;
    int64_t elements = 0, runs = 0, bursts = 0, partial_bursts = 0;
    std::vector<ScatterConflict> conflicts;
    // dst[i] = the source position whose value element i holds after the
    // scatter (-1: not written), over 0 .. max index.
    std::vector<int64_t> dst;
};
// Throws UsageError for an empty or too long list, a negative or too large
// index (key "indices"), or a bad width or burst (as gather()).
ScatterReport scatter(const ScatterGather& sg, const std::vector<int64_t>& indices);

nlohmann::json scatter_to_json(const ScatterReport& r, const ScatterGather& sg);

// The picture: one cell per source element (colour: its source position).
// Stage "source": the packed source, one request per drawn row of `width`
// cells. Stage "memory": each cell at the element it writes, in rows of one
// burst (shape (rows, 1, per burst): the rows one cell apart); an element written twice shows only
// the later writer (the earlier one is hidden: overwritten). Bursts are outlined (Box::row), the
// ones a request writes only in part highlighted with "partial", conflicting elements framed
// "conflict". At most kMaxScatterCells memory elements.
constexpr int64_t kMaxScatterCells = 4096;
Plan scatter_plan(const ScatterReport& r, const ScatterGather& sg);

}  // namespace ll::view
