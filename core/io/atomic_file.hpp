// Writing files so that a reader never sees a partial one.
//
// Contract: write_file_atomic(path, bytes) writes to a temporary file in the
// same folder, then renames it over `path`; on any failure the temporary is
// removed, `path` is untouched, and UsageError says what went wrong, e.g.
//   write_file_atomic("/no/such/dir/x.npy", "...") throws
//   "cannot write '/no/such/dir/x.npy': No such file or directory; expected a
//    path in an existing, writable folder"
#pragma once

#include <atomic>
#include <cstddef>
#include <initializer_list>
#include <string>

namespace ll {

void write_file_atomic(const std::string& path, const void* data, size_t size);
void write_file_atomic(const std::string& path, const std::string& bytes);
// The file is the pieces one after the other (a header, then a tensor's
// bytes where they lie: no copy of the whole file in memory).
struct FilePiece {
    const void* data;
    size_t size;
};
void write_file_atomic(const std::string& path, std::initializer_list<FilePiece> pieces);

// A temporary file some other writer fills (a video's "<name>.part"): while
// the guard lives, SIGINT, SIGTERM or SIGHUP remove it before the process
// dies, as they do write_file_atomic's temporaries. At most 8 at a time
// (more are simply not guarded). The guard neither creates nor removes the
// file otherwise.
class TempFileGuard {
  public:
    explicit TempFileGuard(const std::string& tmp);
    ~TempFileGuard();
    TempFileGuard(const TempFileGuard&) = delete;
    TempFileGuard& operator=(const TempFileGuard&) = delete;

  private:
    int slot_ = -1;
    std::atomic<bool>* claimed_ = nullptr;
};

}  // namespace ll
