#include "core/format/cell_address.hpp"

#include "core/error.hpp"
#include "core/format/narrate.hpp"

namespace ll {

namespace {
constexpr int64_t kFractalBytes = 512;  // one fractal of every dtype
constexpr int64_t kRowBytes = 32;       // one fractal row, one C0 block
}  // namespace

CellAddress cell_address(const Plan& p, int64_t cell, int64_t offset) {
    if (cell < 0 || cell >= p.cell_count || p.stages.empty())
        throw UsageError("cell", std::to_string(cell) + " is not a cell; expected 0.." +
                                     std::to_string(p.cell_count - 1));
    CellAddress a;
    a.source = p.src[size_t(cell)];
    if (a.source >= 0) a.logical = unravel(a.source, p.src_shape);
    const size_t n = p.stages.size();
    if (offset < 0) offset = offset_at_stage(p, n - 1, cell);
    // The destination tensor is the stage before the flat memory stage.
    const Shape& dst = n >= 2 ? p.stages[n - 2].shape : p.stages[0].shape;
    a.offset = offset;
    a.destination = unravel(offset, dst);
    const int64_t b = bits(p.dtype);
    const int64_t bit = offset * b;
    a.byte = bit / 8;
    a.high_nibble = b < 8 && bit % 8 != 0;
    a.fractal = p.stages.back().label.find("FRACTAL") != std::string::npos;
    a.fractal_index = a.byte / kFractalBytes;
    a.fractal_row = a.byte % kFractalBytes / kRowBytes;
    a.row32 = a.byte / kRowBytes;
    a.element_in_row = bit % (kRowBytes * 8) / b;
    return a;
}

}  // namespace ll
