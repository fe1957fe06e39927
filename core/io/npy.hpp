// NumPy .npy files (format versions 1.0 and 2.0), little-endian, C order.
//
// Supported dtypes: int8 '|i1', uint8 '|u1', int16 '<i2', fp16 '<f2',
// fp32 '<f4', int32 '<i4'. int4 and bf16 have no NumPy dtype and are refused.
// Everything else (fortran_order True, big-endian, object arrays, truncated
// or trailing data, a bad magic string) is a UsageError naming the file, what
// is wrong and what is expected.
//
// Contract: npy_bytes(DType::fp16, {2,3}, data, 12) starts with "\x93NUMPY\x01\x00",
// its header is "{'descr': '<f2', 'fortran_order': False, 'shape': (2, 3), }"
// padded with spaces and '\n' to a multiple of 64 bytes, then the 12 bytes;
// parse_npy of that gives back {fp16, (2,3), the 12 bytes}.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "core/shape.hpp"

namespace ll {

struct NpyArray {
    DType dtype = DType::fp32;
    Shape shape;                // () for a NumPy scalar
    std::vector<uint8_t> data;  // numel(shape) * itemsize bytes, row-major
};

// The NumPy descr for t ('<f2', ...); UsageError for int4 and bf16.
std::string npy_descr(DType t);

// `what` names the source in messages (usually the file path).
NpyArray parse_npy(const std::string& bytes, const std::string& what);
NpyArray read_npy(const std::string& path);

std::string npy_bytes(DType t, const Shape& shape, const void* data, size_t size);
// Writes atomically (see atomic_file.hpp).
void write_npy(const std::string& path, DType t, const Shape& shape, const void* data, size_t size);

}  // namespace ll
