// Where one cell of a format Plan sits in memory, as the explorer's inspector
// shows it: its source element, its index in the destination tensor, its
// element offset, byte address and, for fractal formats, which 512-byte
// fractal, 32-byte row and column; for other formats its 32-byte row and the
// element in it. The numbers are the engine's (one place computes them); the
// app only words them.
//
// Example: ND (2,2,28) fp16 -> FRACTAL_NZ, cell 19 (source element 31,
// logical (0,1,3)): destination (0,0,0,1,3), offset 19, byte 0x26 (38),
// fractal 0, row 1, column 3. int4 cells share a byte: offset 5 is byte 2,
// high nibble.
#pragma once

#include <cstdint>

#include "core/plan.hpp"
#include "core/shape.hpp"

namespace ll {

struct CellAddress {
    int64_t source = -1;       // source element (row-major in p.src_shape), -1 padding
    Coord logical;             // the source element's index (empty for padding)
    Coord destination;         // index in the destination tensor (the stage before memory)
    int64_t offset = 0;        // element offset in the destination buffer
    int64_t byte = 0;          // byte address (offset * bits / 8)
    bool high_nibble = false;  // 4-bit types: the cell is the byte's upper half
    // 512-byte fractal formats (the last stage's label names a FRACTAL_*):
    bool fractal = false;
    int64_t fractal_index = 0, fractal_row = 0;  // 512-byte block, 32-byte row in it
    // Every format: the 32-byte row and the element in it (in a fractal the
    // element is the fractal's column).
    int64_t row32 = 0, element_in_row = 0;
};

// `offset`: the cell's element offset at the last stage (memory), when the
// caller holds it already (the renderer caches it); else pass -1 and it is
// read from the plan. `cell` must be in 0..p.cell_count-1.
CellAddress cell_address(const Plan& p, int64_t cell, int64_t offset = -1);

}  // namespace ll
