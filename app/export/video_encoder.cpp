// Sections: [names + checks] [module] [png frames] [encoder]
// (mp4, webm and gif: video_codecs.cpp, a module loaded on demand)
#include "app/export/video_encoder.hpp"

#include <dlfcn.h>
#include <stb_image_write.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "app/export/video_backend.hpp"
#include "core/error.hpp"

namespace ll::video {

// ---- [names + checks] -------------------------------------------------------------

namespace {

std::string lower_ext(const std::string& path) {
    size_t slash = path.find_last_of('/');
    size_t dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
    std::string e = path.substr(dot + 1);
    for (char& ch : e) ch = char(std::tolower(static_cast<unsigned char>(ch)));
    return e;
}

std::string folder_of(const std::string& path) {
    size_t slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

bool is_dir(const std::string& p) {
    struct stat st {};
    return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace

Container container_for(const std::string& path, const std::string& flag) {
    std::string e = lower_ext(path);
    if (e == "mp4") return Container::mp4;
    if (e == "webm") return Container::webm;
    if (e == "gif") return Container::gif;
    throw UsageError(flag + ": '" + path + "' has an unknown extension" +
                     (e.empty() ? std::string() : " '." + e + "'") +
                     "; expected .mp4, .gif or .webm (or --frames DIR for PNGs)");
}

const char* container_name(Container c) {
    switch (c) {
        case Container::mp4:
            return "mp4";
        case Container::webm:
            return "webm";
        case Container::gif:
            return "gif";
        case Container::frames:
            return "frames";
    }
    return "?";
}

namespace {
OpenFn open_fn(const std::string& flag);
}  // namespace

void check_output(const std::string& path, Container c, const std::string& flag) {
    if (path.empty()) throw UsageError(flag + ": expected a path");
    std::string dir = c == Container::frames ? path : folder_of(path);
    if (c == Container::frames && !is_dir(path)) {
        if (!is_dir(folder_of(path)) || ::access(folder_of(path).c_str(), W_OK) != 0)
            throw UsageError(flag + ": cannot create the folder '" + path +
                             "'; expected a folder, or a new one inside a writable folder");
        return;  // created when the first frame arrives
    }
    if (c != Container::frames && is_dir(path))
        throw UsageError(flag + ": '" + path + "' is a folder; expected a file path");
    if (!is_dir(dir) || ::access(dir.c_str(), W_OK) != 0)
        throw UsageError(flag + ": cannot write '" + path + "': the folder '" + dir +
                         "' does not exist or is not writable; expected a path in a writable "
                         "folder");
    if (c != Container::frames) open_fn(flag);  // before anything is rendered
}

// ---- [module] ----------------------------------------------------------------------

namespace {

// The folder of the running executable ("" when /proc cannot say).
std::string exe_folder() {
    std::string buf(4096, '\0');
    const ssize_t n = ::readlink("/proc/self/exe", buf.data(), buf.size() - 1);
    if (n <= 0) return "";
    buf.resize(static_cast<size_t>(n));
    return folder_of(buf);
}

// The FFmpeg module, loaded once: from $LAYOUTLAB_VIDEO_MODULE alone when
// it is set (a path); otherwise next to the executable (the build folder
// holds both), then where the build put it (test programs live one folder
// down), then by name (LD_LIBRARY_PATH, the system's folders). Throws a
// UsageError naming `flag` and every place tried when none loads.
OpenFn open_fn(const std::string& flag) {
    static OpenFn fn = nullptr;
    static std::string why;  // the places tried, once none loaded
    if (fn) return fn;
    std::vector<std::string> tried;
    const auto add = [&](const std::string& p) {
        if (std::find(tried.begin(), tried.end(), p) == tried.end()) tried.push_back(p);
    };
    if (const char* env = std::getenv("LAYOUTLAB_VIDEO_MODULE"); env && *env) {
        add(env);
    } else {
        const std::string here = exe_folder();
        if (!here.empty()) add(here + "/" + kModuleName);
#ifdef LAYOUTLAB_VIDEO_MODULE
        add(LAYOUTLAB_VIDEO_MODULE);
#endif
        add(kModuleName);
    }
    if (why.empty())
        for (const std::string& path : tried) {
            void* h = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
            if (!h) {
                const char* e = ::dlerror();
                why += std::string("\n  ") + (e ? e : path.c_str());
                continue;
            }
            if (auto* f = reinterpret_cast<OpenFn>(::dlsym(h, kOpenSymbol))) return fn = f;
            ::dlclose(h);
            why += "\n  " + path + ": not this build's module (no " + kOpenSymbol + ")";
        }
    throw UsageError(flag + ": recording mp4, webm or gif needs LayoutLab's video module (" +
                     kModuleName +
                     ", built beside the layoutlab executable); it could not be "
                     "loaded:" +
                     why);
}

}  // namespace

// ---- [png frames] ----------------------------------------------------------------------

namespace {

class PngFrames : public VideoEncoder::Impl {
  public:
    PngFrames(std::string dir, int width, int height) : dir_(std::move(dir)) {
        w = width;
        h = height;
        if (!is_dir(dir_) && ::mkdir(dir_.c_str(), 0755) != 0)
            throw UsageError("--frames: cannot create the folder '" + dir_ +
                             "': " + std::strerror(errno));
    }
    void add(const uint8_t* rgba, int fw, int fh, int64_t index) override {
        char name[32];
        std::snprintf(name, sizeof name, "/frame-%05lld.png", static_cast<long long>(index));
        std::string path = dir_ + name, tmp = path + ".part";
        TempFileGuard guard(tmp);  // Ctrl-C while it is written removes it
        if (!stbi_write_png(tmp.c_str(), fw, fh, 4, rgba, fw * 4) ||
            std::rename(tmp.c_str(), path.c_str()) != 0) {
            std::remove(tmp.c_str());
            throw UsageError("--frames: cannot write '" + path + "'; expected a writable folder");
        }
    }
    void finish() override {}
    std::string codec() const override { return "png"; }

  private:
    std::string dir_;
};

}  // namespace

// ---- [encoder] ---------------------------------------------------------------------------

VideoEncoder::VideoEncoder(std::string path, Container c, int fps)
    : path_(std::move(path)), c_(c), fps_(fps) {
    if (fps_ < 1 || fps_ > 240) throw UsageError("--fps: expected 1..240 frames per second");
    if (c_ != Container::frames) part_guard_ = std::make_unique<TempFileGuard>(path_ + ".part");
}

VideoEncoder::~VideoEncoder() {
    if (!finished_ && c_ != Container::frames) {
        impl_.reset();  // closes the file before it is removed
        std::remove((path_ + ".part").c_str());
    }
}

void VideoEncoder::add_frame(const uint8_t* rgba, int w, int h) {
    if (!impl_) {
        const std::string tmp = path_ + ".part";
        switch (c_) {
            case Container::mp4:
            case Container::webm:
            case Container::gif:
                impl_.reset(open_fn("recording")(c_, tmp.c_str(), w, h, fps_));
                break;
            case Container::frames:
                impl_ = std::make_unique<PngFrames>(path_, w, h);
                break;
        }
    }
    if (codec_.empty()) codec_ = impl_->codec(), w_ = impl_->w, h_ = impl_->h;
    impl_->add(rgba, w, h, frames_);
    ++frames_;
}

void VideoEncoder::finish() {
    if (finished_) return;
    if (!impl_) throw UsageError("recording: no frames were recorded");
    impl_->finish();
    impl_.reset();
    if (c_ != Container::frames) {
        const std::string tmp = path_ + ".part";
        if (std::rename(tmp.c_str(), path_.c_str()) != 0) {
            std::remove(tmp.c_str());
            throw UsageError("cannot write '" + path_ + "': " + std::strerror(errno));
        }
    }
    finished_ = true;
}

}  // namespace ll::video
