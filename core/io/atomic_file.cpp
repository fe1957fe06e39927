#include "core/io/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include "core/error.hpp"

namespace ll {

namespace {

[[noreturn]] void fail(const std::string& path, int err) {
    throw UsageError("cannot write '" + path + "': " + std::strerror(err) +
                     "; expected a path in an existing, writable folder");
}

}  // namespace

void write_file_atomic(const std::string& path, const void* data, size_t size) {
    if (path.empty()) throw UsageError("empty output path; expected a file name");
    // mkstemp needs a writable template in the destination's folder so that
    // the final rename stays on one file system (and is atomic).
    std::string tmpl = path + ".tmp-XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    const int fd = ::mkstemp(buf.data());
    if (fd < 0) fail(path, errno);
    const std::string tmp(buf.data());
    const auto* p = static_cast<const char*>(data);
    size_t left = size;
    while (left > 0) {
        const ssize_t n = ::write(fd, p, left);
        if (n < 0) {
            if (errno == EINTR) continue;
            const int err = errno;
            ::close(fd);
            ::unlink(tmp.c_str());
            fail(path, err);
        }
        p += n;
        left -= static_cast<size_t>(n);
    }
    // mkstemp creates 0600; give the file the usual rw-r--r-- (changing the
    // process umask to read it would race with other threads).
    if (::fchmod(fd, 0644) != 0) {
        const int err = errno;
        ::close(fd);
        ::unlink(tmp.c_str());
        fail(path, err);
    }
    if (::close(fd) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        fail(path, err);
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        fail(path, err);
    }
}

void write_file_atomic(const std::string& path, const std::string& bytes) {
    write_file_atomic(path, bytes.data(), bytes.size());
}

}  // namespace ll
