// Encodes a sequence of RGBA frames into a video file through FFmpeg's
// libraries (libavformat, libavcodec, libswscale, libavfilter), or into a
// folder of numbered PNGs. No GL, no ImGui: frames come in as pixels.
//
//   VideoEncoder enc("clip.mp4", container_for("clip.mp4", "--record"), 30);
//   for (...) enc.add_frame(rgba, 1280, 720);   // top row first, 4 bytes a pixel
//   enc.finish();                                // clip.mp4 appears only now
//
// Containers and codecs:
//   .mp4   H.264 (Debian's libavcodec has libx264), yuv420p, BT.709, CRF 18,
//          preset fast, tuned for animation; the index at the front (faststart)
//   .webm  VP9 (libvpx-vp9), yuv420p, CRF 32, real-time preset for screen content
//   .gif   one palette for the whole clip (libavfilter palettegen over every
//          frame, then paletteuse with ordered dithering, so a colour map does
//          not band and unchanged areas stay unchanged between frames);
//          frames are held zlib-compressed until the palette is known
//   DIR    --frames: DIR/frame-00000.png, ... each written atomically
// Video sizes must be even for 4:2:0 chroma: an odd width or height loses its
// last column or row. A frame of another size than the first is scaled.
//
// Files are written to "<path>.part" and renamed by finish(); destroying an
// unfinished encoder (cancel, error) removes the partial file, and so does
// Ctrl-C, SIGTERM or SIGHUP while it lives (core/io/atomic_file.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/io/atomic_file.hpp"

namespace ll::video {

enum class Container { mp4, webm, gif, frames };

// The container named by a path's extension (.mp4, .webm, .gif; case
// insensitive). UsageError naming `flag` for any other.
Container container_for(const std::string& path, const std::string& flag);
const char* container_name(Container c);

// Checks, before anything is rendered, that `path` can be written: its
// folder exists and is writable (for frames: the folder itself, created
// when its parent exists); for mp4, webm and gif, that the FFmpeg module
// (video_codecs.cpp, liblayoutlab_video.so) loads. UsageError naming
// `flag` otherwise.
void check_output(const std::string& path, Container c, const std::string& flag);

class VideoEncoder {
  public:
    // Nothing is opened until the first frame (its size fixes the video's).
    VideoEncoder(std::string path, Container c, int fps);
    ~VideoEncoder();
    VideoEncoder(const VideoEncoder&) = delete;
    VideoEncoder& operator=(const VideoEncoder&) = delete;

    // RGBA, top row first, w*4 bytes a row. Throws UsageError on an
    // encoding or writing failure (the partial file is removed).
    void add_frame(const uint8_t* rgba, int w, int h);
    // Flushes the codec, writes the trailer and renames the file into place.
    void finish();
    int64_t frames() const { return frames_; }
    // The video's size (even for mp4/webm) and codec, e.g. "libx264"
    // ("png" for frames); known from the first frame on.
    int width() const { return w_; }
    int height() const { return h_; }
    const std::string& codec() const { return codec_; }
    const std::string& path() const { return path_; }

    struct Impl;

  private:
    std::string path_;
    Container c_;
    int fps_;
    int64_t frames_ = 0;
    bool finished_ = false;
    int w_ = 0, h_ = 0;
    std::string codec_;
    std::unique_ptr<Impl> impl_;
    std::unique_ptr<TempFileGuard> part_guard_;  // "<path>.part" on a signal
};

}  // namespace ll::video
