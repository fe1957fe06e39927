// Comparing two layouts of the same data: NZ vs ZN of one tensor, fp16 vs
// int8, NCHW -> NC1HWC0 with C0 16 vs 32. Two Plans are compared element by
// element through their source index: source element e sits at memory
// offset a in layout A and at b in layout B; the element "differs" when
// a != b. Byte addresses are compared too (the same offset is a different
// byte in fp16 and int8).
// Example: ND (2,28) fp16 -> FRACTAL_NZ vs -> FRACTAL_ZN: element 0 sits at
// offset 0 in both; element 1 at offset 1 in NZ and 16 in ZN (differs).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/plan.hpp"

namespace ll {

struct LayoutDiff {
    bool same_source = false;    // both plans read the same source shape
    int64_t compared = 0;        // source elements present in both
    int64_t offset_differs = 0;  // of those, at different element offsets
    int64_t byte_differs = 0;    // of those, at different byte addresses
    // Cells of A and of B (in their own numbering) whose element sits at a
    // different offset in the other layout, ascending.
    std::vector<int64_t> cells_a, cells_b;
    // Memory footprint, padding included.
    int64_t bytes_a = 0, bytes_b = 0;
    // One line for a caption: "812 of 1024 elements sit at different
    // offsets (812 different bytes); A 2048 B, B 2048 B".
    std::string summary() const;
};

// Compares the last stage (the memory buffer) of a and b. Plans with
// different source shapes compare nothing (same_source false, counts 0).
LayoutDiff compare_layouts(const Plan& a, const Plan& b);

// Marks d's differing cells as highlighted on the last stage of a and of b
// (the memory buffers), so the renderer outlines them.
void mark_differences(Plan& a, Plan& b, const LayoutDiff& d);

}  // namespace ll
