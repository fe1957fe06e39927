// Sections: [libav helpers] [video: mp4 + webm] [gif] [entry point]
//
// The FFmpeg side of recording, built as its own module
// (liblayoutlab_video.so) that the app loads only when a recording starts
// (video_encoder.cpp, [module]). Linked into the executable, FFmpeg's
// libraries and the ~160 shared libraries they need were loaded by every
// launch: 140 ms of CPU for `layoutlab --version` against 14 ms without
// them (perf stat, docs/RELIABILITY.md "CI's time").
#include "app/export/video_backend.hpp"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}
#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/error.hpp"

namespace ll::video {

namespace {

std::string av_error(int code) {
    char buf[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(code, buf, sizeof buf);
    return buf;
}

}  // namespace

// ---- [libav helpers] ----------------------------------------------------------------

namespace {

struct FrameDel {
    void operator()(AVFrame* f) const { av_frame_free(&f); }
};
using FramePtr = std::unique_ptr<AVFrame, FrameDel>;

FramePtr alloc_frame(AVPixelFormat fmt, int w, int h) {
    FramePtr f(av_frame_alloc());
    if (!f) throw UsageError("recording: out of memory");
    f->format = fmt;
    f->width = w;
    f->height = h;
    if (av_frame_get_buffer(f.get(), 0) < 0) throw UsageError("recording: out of memory");
    return f;
}

// An output file with one video stream: the muxer and the encoder.
struct Output {
    AVFormatContext* fmt = nullptr;
    AVCodecContext* enc = nullptr;
    AVStream* stream = nullptr;
    AVPacket* pkt = nullptr;
    bool header = false;
    std::string tmp;

    ~Output() {
        avcodec_free_context(&enc);
        av_packet_free(&pkt);
        if (fmt) {
            if (fmt->pb) avio_closep(&fmt->pb);
            avformat_free_context(fmt);
        }
    }

    // Opens the temporary file; `setup` sets the codec's options.
    template <class Setup>
    void open(const char* muxer, const AVCodec* codec, const std::string& tmp_path, int w, int h,
              int fps, AVPixelFormat pix, Setup setup, AVDictionary* mux_opts) {
        tmp = tmp_path;
        if (!codec)
            throw UsageError(std::string("recording: this FFmpeg has no encoder for ") + muxer);
        if (avformat_alloc_output_context2(&fmt, nullptr, muxer, tmp.c_str()) < 0 || !fmt)
            throw UsageError(std::string("recording: FFmpeg cannot write ") + muxer);
        stream = avformat_new_stream(fmt, nullptr);
        enc = avcodec_alloc_context3(codec);
        pkt = av_packet_alloc();
        if (!stream || !enc || !pkt) throw UsageError("recording: out of memory");
        enc->width = w;
        enc->height = h;
        enc->pix_fmt = pix;
        enc->time_base = AVRational{1, fps};
        enc->framerate = AVRational{fps, 1};
        enc->sample_aspect_ratio = AVRational{1, 1};
        if (fmt->oformat->flags & AVFMT_GLOBALHEADER) enc->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
        AVDictionary* copts = nullptr;
        setup(enc, &copts);
        int rc = avcodec_open2(enc, codec, &copts);
        av_dict_free(&copts);
        if (rc < 0)
            throw UsageError(std::string("recording: cannot open the ") + codec->name +
                             " encoder: " + av_error(rc));
        if (avcodec_parameters_from_context(stream->codecpar, enc) < 0)
            throw UsageError("recording: out of memory");
        stream->time_base = enc->time_base;
        stream->avg_frame_rate = enc->framerate;
        rc = avio_open(&fmt->pb, tmp.c_str(), AVIO_FLAG_WRITE);
        if (rc < 0) throw UsageError("cannot write '" + tmp + "': " + av_error(rc));
        rc = avformat_write_header(fmt, &mux_opts);
        av_dict_free(&mux_opts);
        if (rc < 0) throw UsageError("cannot write '" + tmp + "': " + av_error(rc));
        header = true;
    }

    // Sends one frame (nullptr: flush) and writes every packet that is ready.
    void send(const AVFrame* f) {
        int rc = avcodec_send_frame(enc, f);
        if (rc < 0 && rc != AVERROR_EOF)
            throw UsageError(std::string("recording: encoding failed: ") + av_error(rc));
        while ((rc = avcodec_receive_packet(enc, pkt)) >= 0) {
            av_packet_rescale_ts(pkt, enc->time_base, stream->time_base);
            pkt->stream_index = stream->index;
            rc = av_interleaved_write_frame(fmt, pkt);
            if (rc < 0) throw UsageError("cannot write '" + tmp + "': " + av_error(rc));
        }
        if (rc != AVERROR(EAGAIN) && rc != AVERROR_EOF)
            throw UsageError(std::string("recording: encoding failed: ") + av_error(rc));
    }

    void close() {
        send(nullptr);
        int rc = av_write_trailer(fmt);
        if (rc < 0) throw UsageError("cannot write '" + tmp + "': " + av_error(rc));
        rc = avio_closep(&fmt->pb);
        if (rc < 0) throw UsageError("cannot write '" + tmp + "': " + av_error(rc));
    }
};

// RGBA (any size) -> the encoder's size and pixel format. A frame one pixel
// larger than the target (an odd size) is cropped, anything else scaled.
struct Converter {
    SwsContext* sws = nullptr;
    ~Converter() { sws_freeContext(sws); }
    void convert(const uint8_t* rgba, int w, int h, AVFrame* dst, bool bt709) {
        const int tw = dst->width, th = dst->height;
        const bool crop = w >= tw && h >= th && w - tw <= 1 && h - th <= 1;
        const int sw = crop ? tw : w, sh = crop ? th : h;
        sws = sws_getCachedContext(sws, sw, sh, AV_PIX_FMT_RGBA, tw, th, AVPixelFormat(dst->format),
                                   SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, nullptr,
                                   nullptr, nullptr);
        if (!sws) throw UsageError("recording: cannot convert the frame's pixels");
        if (bt709) {
            const int* rgb = sws_getCoefficients(SWS_CS_DEFAULT);
            sws_setColorspaceDetails(sws, rgb, 1, sws_getCoefficients(SWS_CS_ITU709), 0, 0, 1 << 16,
                                     1 << 16);
        }
        if (av_frame_make_writable(dst) < 0) throw UsageError("recording: out of memory");
        const uint8_t* src[4] = {rgba, nullptr, nullptr, nullptr};
        const int stride[4] = {w * 4, 0, 0, 0};
        sws_scale(sws, src, stride, 0, sh, dst->data, dst->linesize);
    }
};

// ---- [video: mp4 + webm] -----------------------------------------------------------

class YuvVideo : public VideoEncoder::Impl {
  public:
    YuvVideo(Container c, const std::string& tmp, int width, int height, int fps) {
        w = std::max(2, width & ~1);
        h = std::max(2, height & ~1);
        const bool mp4 = c == Container::mp4;
        const AVCodec* codec = avcodec_find_encoder_by_name(mp4 ? "libx264" : "libvpx-vp9");
        if (!codec) codec = avcodec_find_encoder(mp4 ? AV_CODEC_ID_H264 : AV_CODEC_ID_VP9);
        AVDictionary* mux = nullptr;
        // The index up front: a slide or browser starts playing before the end arrives.
        if (mp4) av_dict_set(&mux, "movflags", "+faststart", 0);
        out_.open(
            mp4 ? "mp4" : "webm", codec, tmp, w, h, fps, AV_PIX_FMT_YUV420P,
            [&](AVCodecContext* enc, AVDictionary** o) {
                enc->color_range = AVCOL_RANGE_MPEG;
                enc->colorspace = AVCOL_SPC_BT709;
                enc->color_primaries = AVCOL_PRI_BT709;
                enc->color_trc = AVCOL_TRC_BT709;
                enc->gop_size = fps * 2;
                if (mp4) {
                    // UI text and flat cells: CRF 18 keeps edges clean.
                    av_dict_set(o, "preset", "fast", 0);
                    av_dict_set(o, "crf", "18", 0);
                    av_dict_set(o, "tune", "animation", 0);
                } else {
                    // Constant quality; the real-time preset tuned for screen
                    // content: 5x less CPU than "good" at cpu-used 5, 16% more
                    // bytes on the (2,2,28) NZ clip.
                    enc->bit_rate = 0;
                    av_dict_set(o, "crf", "32", 0);
                    av_dict_set(o, "deadline", "realtime", 0);
                    av_dict_set(o, "cpu-used", "7", 0);
                    av_dict_set(o, "tune-content", "screen", 0);
                    av_dict_set(o, "row-mt", "1", 0);
                }
            },
            mux);
        name_ = codec->name;
        frame_ = alloc_frame(AV_PIX_FMT_YUV420P, w, h);
    }
    void add(const uint8_t* rgba, int fw, int fh, int64_t index) override {
        conv_.convert(rgba, fw, fh, frame_.get(), true);
        frame_->pts = index;
        out_.send(frame_.get());
    }
    void finish() override { out_.close(); }
    std::string codec() const override { return name_; }

  private:
    Output out_;
    Converter conv_;
    FramePtr frame_;
    std::string name_;
};

// ---- [gif] ---------------------------------------------------------------------------

struct GraphDel {
    void operator()(AVFilterGraph* g) const { avfilter_graph_free(&g); }
};
using GraphPtr = std::unique_ptr<AVFilterGraph, GraphDel>;

AVFilterContext* add_filter(AVFilterGraph* g, const char* filter, const char* name,
                            const std::string& args) {
    AVFilterContext* f = nullptr;
    int rc = avfilter_graph_create_filter(&f, avfilter_get_by_name(filter), name,
                                          args.empty() ? nullptr : args.c_str(), nullptr, g);
    if (rc < 0)
        throw UsageError(std::string("recording: cannot set up the GIF filter ") + filter + ": " +
                         av_error(rc));
    return f;
}

std::string buffer_args(int w, int h, AVPixelFormat fmt, int fps) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "video_size=%dx%d:pix_fmt=%d:time_base=1/%d:pixel_aspect=1/1", w,
                  h, int(fmt), fps);
    return buf;
}

void link(AVFilterContext* a, AVFilterContext* b, unsigned pad = 0) {
    if (avfilter_link(a, 0, b, pad) < 0) throw UsageError("recording: cannot link GIF filters");
}

// Pass 1 feeds every frame to palettegen (a colour histogram) and keeps the
// frame deflated; finish() builds the palette, then pass 2 maps each frame
// onto it with paletteuse and encodes it.
class Gif : public VideoEncoder::Impl {
  public:
    Gif(std::string tmp, int width, int height, int fps) : tmp_(std::move(tmp)), fps_(fps) {
        w = width;
        h = height;
        gen_.reset(avfilter_graph_alloc());
        if (!gen_) throw UsageError("recording: out of memory");
        gen_src_ = add_filter(gen_.get(), "buffer", "in", buffer_args(w, h, AV_PIX_FMT_RGBA, fps));
        // Every pixel counts (not only changed ones): the still background
        // and the moving cells both get their colours.
        AVFilterContext* pg = add_filter(gen_.get(), "palettegen", "palettegen",
                                         "max_colors=256:stats_mode=full:reserve_transparent=1");
        gen_sink_ = add_filter(gen_.get(), "buffersink", "out", "");
        link(gen_src_, pg);
        link(pg, gen_sink_);
        if (avfilter_graph_config(gen_.get(), nullptr) < 0)
            throw UsageError("recording: cannot set up the GIF palette filter");
        rgba_ = alloc_frame(AV_PIX_FMT_RGBA, w, h);
    }
    void add(const uint8_t* rgba, int fw, int fh, int64_t index) override {
        const size_t n = size_t(w) * size_t(h) * 4;
        if (av_frame_make_writable(rgba_.get()) < 0) throw UsageError("recording: out of memory");
        const uint8_t* packed = rgba;
        if (fw == w && fh == h) {
            av_image_copy_plane(rgba_->data[0], rgba_->linesize[0], rgba, w * 4, w * 4, h);
        } else {  // the window changed size: scale to the first frame's
            conv_.convert(rgba, fw, fh, rgba_.get(), false);
            scaled_.resize(n);
            av_image_copy_plane(scaled_.data(), w * 4, rgba_->data[0], rgba_->linesize[0], w * 4,
                                h);
            packed = scaled_.data();
        }
        rgba_->pts = index;
        push(gen_src_, rgba_.get());
        // Keep the frame for pass 2, deflated (UI frames shrink 20-100x).
        uLongf len = compressBound(uLong(n));
        std::vector<uint8_t> z(len);
        if (compress2(z.data(), &len, packed, uLong(n), 1) != Z_OK)
            throw UsageError("recording: out of memory while keeping GIF frames");
        z.resize(len);
        z.shrink_to_fit();
        kept_.push_back(std::move(z));
    }
    void finish() override {
        if (av_buffersrc_add_frame(gen_src_, nullptr) < 0)
            throw UsageError("recording: the GIF palette filter failed");
        FramePtr pal(av_frame_alloc());
        if (av_buffersink_get_frame(gen_sink_, pal.get()) < 0)
            throw UsageError("recording: the GIF palette filter produced no palette");

        GraphPtr use(avfilter_graph_alloc());
        if (!use) throw UsageError("recording: out of memory");
        AVFilterContext* src =
            add_filter(use.get(), "buffer", "in", buffer_args(w, h, AV_PIX_FMT_RGBA, fps_));
        AVFilterContext* psrc =
            add_filter(use.get(), "buffer", "palette",
                       buffer_args(pal->width, pal->height, AVPixelFormat(pal->format), fps_));
        // Ordered (Bayer) dithering: a gradient does not band, and a colour
        // keeps the same pattern from frame to frame (no crawling noise, and
        // the GIF encoder can skip what did not change). diff_mode=rectangle
        // re-maps only the part of each frame that changed.
        AVFilterContext* pu = add_filter(use.get(), "paletteuse", "paletteuse",
                                         "dither=bayer:bayer_scale=3:diff_mode=rectangle");
        AVFilterContext* sink = add_filter(use.get(), "buffersink", "out", "");
        link(src, pu, 0);
        link(psrc, pu, 1);
        link(pu, sink);
        if (avfilter_graph_config(use.get(), nullptr) < 0)
            throw UsageError("recording: cannot set up the GIF palette filter");
        pal->pts = 0;
        push(psrc, pal.get());
        if (av_buffersrc_add_frame(psrc, nullptr) < 0)
            throw UsageError("recording: the GIF palette filter failed");

        out_.open(
            "gif", avcodec_find_encoder(AV_CODEC_ID_GIF), tmp_, w, h, fps_, AV_PIX_FMT_PAL8,
            [](AVCodecContext*, AVDictionary**) {}, nullptr);
        FramePtr mapped(av_frame_alloc());
        const size_t n = size_t(w) * size_t(h) * 4;
        auto drain = [&] {
            int rc;
            while ((rc = av_buffersink_get_frame(sink, mapped.get())) >= 0) {
                out_.send(mapped.get());
                av_frame_unref(mapped.get());
            }
            if (rc != AVERROR(EAGAIN) && rc != AVERROR_EOF)
                throw UsageError("recording: the GIF palette filter failed: " + av_error(rc));
        };
        for (size_t i = 0; i < kept_.size(); ++i) {
            // paletteuse holds the previous frame (diff_mode): write a fresh one.
            if (av_frame_make_writable(rgba_.get()) < 0)
                throw UsageError("recording: out of memory");
            scaled_.resize(n);
            uLongf len = uLongf(n);
            if (uncompress(scaled_.data(), &len, kept_[i].data(), uLong(kept_[i].size())) != Z_OK ||
                len != n)
                throw UsageError("recording: a kept GIF frame is damaged");
            std::vector<uint8_t>().swap(kept_[i]);
            av_image_copy_plane(rgba_->data[0], rgba_->linesize[0], scaled_.data(), w * 4, w * 4,
                                h);
            rgba_->pts = int64_t(i);
            push(src, rgba_.get());
            drain();
        }
        if (av_buffersrc_add_frame(src, nullptr) < 0)
            throw UsageError("recording: the GIF palette filter failed");
        drain();
        out_.close();
    }
    std::string codec() const override { return "gif"; }

  private:
    static void push(AVFilterContext* src, AVFrame* f) {
        // PUSH: run the graph now; otherwise every frame would wait, whole,
        // in the link's queue until the sink is read (palettegen's is read
        // only at the end: 173 frames of 720p held 800 MB).
        int rc = av_buffersrc_add_frame_flags(src, f,
                                              AV_BUFFERSRC_FLAG_KEEP_REF | AV_BUFFERSRC_FLAG_PUSH);
        if (rc < 0) throw UsageError("recording: the GIF palette filter failed: " + av_error(rc));
    }

    std::string tmp_;
    int fps_;
    GraphPtr gen_;
    AVFilterContext *gen_src_ = nullptr, *gen_sink_ = nullptr;
    FramePtr rgba_;
    Converter conv_;
    std::vector<uint8_t> scaled_;  // one packed frame
    std::vector<std::vector<uint8_t>> kept_;
    Output out_;
};

}  // namespace

}  // namespace ll::video

// ---- [entry point] -------------------------------------------------------------------

// (its name is video_backend.hpp's kOpenSymbol)
extern "C" __attribute__((visibility("default"))) ll::video::VideoEncoder::Impl* ll_video_open_v1(
    ll::video::Container c, const char* tmp, int w, int h, int fps) {
    using namespace ll::video;
    // The codecs' own statistics would fill the terminal; failures are
    // reported through UsageError.
    av_log_set_level(AV_LOG_ERROR);
    switch (c) {
        case Container::mp4:
        case Container::webm:
            return new YuvVideo(c, tmp, w, h, fps);
        case Container::gif:
            return new Gif(tmp, w, h, fps);
        case Container::frames:
            break;
    }
    throw ll::UsageError("recording: the video module writes mp4, webm and gif only");
}
