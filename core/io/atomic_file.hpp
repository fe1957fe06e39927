// Writing files so that a reader never sees a partial one.
//
// Contract: write_file_atomic(path, bytes) writes to a temporary file in the
// same folder, then renames it over `path`; on any failure the temporary is
// removed, `path` is untouched, and UsageError says what went wrong, e.g.
//   write_file_atomic("/no/such/dir/x.npy", "...") throws
//   "cannot write '/no/such/dir/x.npy': No such file or directory; expected a
//    path in an existing, writable folder"
#pragma once

#include <cstddef>
#include <string>

namespace ll {

void write_file_atomic(const std::string& path, const void* data, size_t size);
void write_file_atomic(const std::string& path, const std::string& bytes);

}  // namespace ll
