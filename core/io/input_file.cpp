#include "core/io/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/error.hpp"

namespace ll {

namespace {

const char* kind_of(mode_t m) {
    if (S_ISDIR(m)) return "a directory";
    if (S_ISFIFO(m)) return "a FIFO (named pipe)";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISSOCK(m)) return "a socket";
    return "not a regular file";
}

std::string prefix(const std::string& what) {
    return what.empty() ? std::string() : what + ": ";
}

}  // namespace

std::string bytes_text(int64_t n) {
    char b[64];
    if (n >= (int64_t(1) << 30))
        std::snprintf(b, sizeof b, "%lld bytes (%.1f GiB)", (long long)n,
                      double(n) / double(int64_t(1) << 30));
    else if (n >= (int64_t(1) << 20))
        std::snprintf(b, sizeof b, "%lld bytes (%.1f MiB)", (long long)n,
                      double(n) / double(int64_t(1) << 20));
    else
        std::snprintf(b, sizeof b, "%lld bytes", (long long)n);
    return b;
}

InputFile::InputFile(const std::string& path, const std::string& what, int64_t max_bytes)
    : path_(path), what_(what) {
    if (path.empty()) throw UsageError(prefix(what) + "empty file name; expected a path to a file");
    // O_NONBLOCK: opening a FIFO with no writer would otherwise wait forever.
    fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd_ < 0)
        throw UsageError(prefix(what) + "cannot read '" + path + "': " + std::strerror(errno) +
                         "; expected an existing, readable file");
    struct stat st {};
    if (::fstat(fd_, &st) != 0) {
        const int err = errno;
        ::close(fd_);
        throw UsageError(prefix(what) + "cannot read '" + path + "': " + std::strerror(err));
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd_);
        throw UsageError(prefix(what) + "'" + path + "' is " + kind_of(st.st_mode) +
                         ", not a regular file; expected a file");
    }
    size_ = int64_t(st.st_size);
    if (size_ > max_bytes) {
        ::close(fd_);
        throw UsageError(prefix(what) + "'" + path + "' has " + bytes_text(size_) +
                         ", over the limit of " + bytes_text(max_bytes) +
                         " for this kind of file; expected a smaller file");
    }
    // Regular files never block; clear the flag anyway for plain reads.
    const int fl = ::fcntl(fd_, F_GETFL);
    if (fl >= 0) ::fcntl(fd_, F_SETFL, fl & ~O_NONBLOCK);
}

InputFile::~InputFile() {
    if (fd_ >= 0) ::close(fd_);
}

std::string InputFile::read(int64_t n) {
    std::string out(size_t(n), '\0');
    read_into(out.data(), n);
    return out;
}

void InputFile::read_into(void* dst, int64_t n) {
    auto* out = static_cast<char*>(dst);
    int64_t got = 0;
    while (got < n) {
        const ssize_t r = ::read(fd_, out + got, size_t(n - got));
        if (r < 0) {
            if (errno == EINTR) continue;
            throw UsageError(prefix(what_) + "cannot read '" + path_ +
                             "': " + std::strerror(errno));
        }
        if (r == 0) break;
        got += r;
    }
    if (got < n)
        throw UsageError(prefix(what_) + "'" + path_ + "' ended after " + std::to_string(got) +
                         " of " + std::to_string(n) +
                         " bytes (changed while read?); expected a stable file");
}

void check_input_file(const std::string& path, const std::string& what, int64_t max_bytes) {
    InputFile f(path, what, max_bytes);
}

std::string read_input_file(const std::string& path, const std::string& what, int64_t max_bytes) {
    InputFile f(path, what, max_bytes);
    return f.read(f.size());
}

}  // namespace ll
