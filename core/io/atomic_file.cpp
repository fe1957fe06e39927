#include "core/io/atomic_file.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
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

// Temporaries being written, so that SIGINT/SIGTERM can remove them before
// the process dies (a handler may only call async-signal-safe functions:
// unlink, signal, raise; the names are plain char arrays set beforehand).
constexpr int kSlots = 8;
constexpr size_t kPathMax = 4096;
char g_tmp[kSlots][kPathMax];
std::atomic<bool> g_used[kSlots];

extern "C" void remove_temps_and_die(int sig) {
    for (int i = 0; i < kSlots; ++i)
        if (g_used[i].load()) ::unlink(g_tmp[i]);
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

void install_cleanup_handlers() {
    static std::atomic<bool> done{false};
    if (done.exchange(true)) return;
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
        // Leave alone a handler someone else installed (the window's tests).
        struct sigaction old {};
        if (::sigaction(sig, nullptr, &old) != 0) continue;
        if (old.sa_handler != SIG_DFL) continue;
        struct sigaction sa {};
        sa.sa_handler = remove_temps_and_die;
        sigemptyset(&sa.sa_mask);
        ::sigaction(sig, &sa, nullptr);
    }
}

}  // namespace

// Claims a slot, fills the name, then publishes it.
TempFileGuard::TempFileGuard(const std::string& tmp) {
    install_cleanup_handlers();
    static std::atomic<bool> claimed[kSlots];
    if (tmp.empty() || tmp.size() >= kPathMax) return;
    for (int i = 0; i < kSlots; ++i) {
        bool expect = false;
        if (!claimed[i].compare_exchange_strong(expect, true)) continue;
        std::memcpy(g_tmp[i], tmp.c_str(), tmp.size() + 1);
        g_used[i].store(true);
        slot_ = i;
        claimed_ = &claimed[i];
        return;
    }
}

TempFileGuard::~TempFileGuard() {
    if (slot_ < 0) return;
    g_used[slot_].store(false);
    claimed_->store(false);
}

void write_file_atomic(const std::string& path, const void* data, size_t size) {
    write_file_atomic(path, {FilePiece{data, size}});
}

void write_file_atomic(const std::string& path, std::initializer_list<FilePiece> pieces) {
    if (path.empty()) throw UsageError("empty output path; expected a file name");
    // mkstemp needs a writable template in the destination's folder so that
    // the final rename stays on one file system (and is atomic).
    std::string tmpl = path + ".tmp-XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    // Signals wait while the temporary is created and registered, so none
    // can land between the two and leave it behind.
    install_cleanup_handlers();
    sigset_t block, saved;
    sigemptyset(&block);
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&block, sig);
    ::pthread_sigmask(SIG_BLOCK, &block, &saved);
    const int fd = ::mkstemp(buf.data());
    const int mk_err = errno;
    const std::string tmp(buf.data());
    TempFileGuard guard(fd >= 0 ? tmp : std::string());
    ::pthread_sigmask(SIG_SETMASK, &saved, nullptr);
    if (fd < 0) fail(path, mk_err);
    for (const FilePiece& piece : pieces) {
        const auto* p = static_cast<const char*>(piece.data);
        size_t left = piece.size;
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
