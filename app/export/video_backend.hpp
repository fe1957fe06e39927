// Internal to app/export: what one container's writer does for VideoEncoder,
// and the entry point of the FFmpeg module (video_codecs.cpp, built as
// liblayoutlab_video.so and loaded by video_encoder.cpp when check_output
// is asked about an mp4, webm or gif, or at the first frame of one).
#pragma once

#include <cstdint>
#include <string>

#include "app/export/video_encoder.hpp"

namespace ll::video {

struct VideoEncoder::Impl {
    virtual ~Impl() = default;
    // RGBA, top row first; index counts from 0. Throws UsageError.
    virtual void add(const uint8_t* rgba, int w, int h, int64_t index) = 0;
    virtual void finish() = 0;
    virtual std::string codec() const = 0;
    int w = 0, h = 0;  // the video's size (even for mp4 and webm)
};

// The module's one exported function, looked up by this name (the number
// changes with Impl or this signature, so that a module of another build is
// not taken for this one): a writer for
// mp4, webm or gif into `tmp` (the ".part" file), sized from the first
// frame's w x h. Throws UsageError (the writer cannot open the file or the
// codec).
using OpenFn = VideoEncoder::Impl* (*)(Container c, const char* tmp, int w, int h, int fps);
inline constexpr const char* kOpenSymbol = "ll_video_open_v1";
inline constexpr const char* kModuleName = "liblayoutlab_video.so";

}  // namespace ll::video
