// Opening files a user names as input, so that a bad path fails at once with
// a message instead of blocking, growing without bound or reading a device.
//
// Contract: only regular files are read; the size is known (fstat) before a
// byte is read and checked against a limit; FIFOs, sockets, devices
// (/dev/zero) and directories are refused without blocking (the file is
// opened non-blocking). Errors are UsageError naming `what` (the flag), e.g.
//   read_input_file("/dev/zero", "--graph", 64 << 20) throws
//   "--graph: '/dev/zero' is a character device, not a regular file; expected
//    a file"
#pragma once

#include <cstdint>
#include <string>

namespace ll {

// Largest JSON document (graph, scene, settings) read: 16 MiB.
constexpr int64_t kMaxJsonFileBytes = int64_t(16) << 20;

class InputFile {
  public:
    // Opens and checks `path` (regular file, size <= max_bytes).
    InputFile(const std::string& path, const std::string& what, int64_t max_bytes);
    ~InputFile();
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;

    int64_t size() const { return size_; }
    const std::string& path() const { return path_; }
    // Reads exactly n bytes at the current position; UsageError on a short read.
    std::string read(int64_t n);
    // The same into dst (n bytes of room): a tensor's data without a copy.
    void read_into(void* dst, int64_t n);

  private:
    int fd_ = -1;
    int64_t size_ = 0;
    std::string path_, what_;
};

// UsageError unless `path` is a regular file of at most max_bytes (no read).
void check_input_file(const std::string& path, const std::string& what, int64_t max_bytes);

// The whole file (regular, at most max_bytes).
std::string read_input_file(const std::string& path, const std::string& what, int64_t max_bytes);

// "1.5 GiB"-style text for messages.
std::string bytes_text(int64_t n);

}  // namespace ll
