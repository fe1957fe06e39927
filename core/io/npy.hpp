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

// Largest .npy header accepted (NumPy writes under 200 bytes; its own reader
// refuses more than 10000 by default).
constexpr int64_t kMaxNpyHeaderBytes = int64_t(1) << 20;
// Largest .npy file read by default: 4 GiB.
constexpr int64_t kMaxNpyFileBytes = int64_t(4) << 30;

struct NpyHeader {
    DType dtype = DType::fp32;
    Shape shape;
    int64_t data_offset = 0;  // bytes before the data
    int64_t data_bytes = 0;   // numel(shape) * itemsize
};

// The header of a .npy file from its first bytes (at least up to the end of
// the header); UsageError naming `what` when malformed.
NpyHeader parse_npy_header(const std::string& bytes, const std::string& what);

// `what` names the source in messages (usually the file path).
NpyArray parse_npy(const std::string& bytes, const std::string& what);
// Reads the header first and checks the file's size against it before
// reading the data: trailing bytes, truncation, FIFOs, devices and files over
// max_bytes are refused without reading the data.
NpyArray read_npy(const std::string& path, int64_t max_bytes = kMaxNpyFileBytes);

std::string npy_bytes(DType t, const Shape& shape, const void* data, size_t size);
// Writes atomically (see atomic_file.hpp).
void write_npy(const std::string& path, DType t, const Shape& shape, const void* data, size_t size);

}  // namespace ll
