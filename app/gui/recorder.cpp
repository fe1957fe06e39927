// Sections: [options] [job] [host calls] [window: menu + progress]
#include "app/gui/recorder.hpp"
#include "app/i18n/tr.hpp"

// glad before anything that could pull in a system GL header.
#include <glad/gl.h>
//
#include <imgui.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "app/render/plan_view.hpp"
#include "core/error.hpp"

namespace ll::gui {

// ---- [options] ------------------------------------------------------------------

void add_record_options(CLI::App& app, RecordOptions& o) {
    app.add_option("--record", o.record,
                   "record the animation into out.mp4 (H.264), out.gif or out.webm (VP9) and "
                   "exit; the range is --stage A..B (default: all of it)");
    app.add_option("--frames", o.frames,
                   "record the animation as numbered PNGs into this folder and exit");
    app.add_option("--fps", o.fps, "frames per second of --record / --frames")
        ->capture_default_str();
}

namespace {

// "A..B" -> {A, B}; "A" -> {A, ""}; "" -> {"", ""}.
std::pair<std::string, std::string> split_range(const std::string& s) {
    size_t dots = s.find("..");
    if (dots == std::string::npos) return {s, ""};
    return {s.substr(0, dots), s.substr(dots + 2)};
}

// A range end: a number, or "last"/"" for the timeline's end (`fallback`).
double range_end(const std::string& s, double fallback, double begin, double end,
                 const char* unit) {
    if (s.empty() || s == "last") return fallback;
    char* stop = nullptr;
    double v = std::strtod(s.c_str(), &stop);
    if (stop == s.c_str() || *stop || !std::isfinite(v))
        throw UsageError("--stage: '" + s + "' is not a number; expected A..B such as 0..2");
    if (v < begin - 1e-9 || v > end + 1e-9) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "; expected %g..%g (%ss of this animation)", begin, end,
                      unit);
        throw UsageError("--stage: " + s + " is outside the animation" + buf);
    }
    return v;
}

std::string human_bytes(double b) {
    const char* u[] = {"B", "KB", "MB", "GB"};
    int i = 0;
    while (b >= 1024 && i < 3) b /= 1024, ++i;
    char buf[32];
    std::snprintf(buf, sizeof buf, i == 0 ? "%.0f %s" : "%.1f %s", b, u[i]);
    return buf;
}

double file_bytes(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 ? double(st.st_size) : 0;
}

}  // namespace

std::optional<RecordRequest> take_record_request(const RecordOptions& o, std::string& stage) {
    if (o.record.empty() && o.frames.empty()) return std::nullopt;
    if (!o.record.empty() && !o.frames.empty())
        throw UsageError("--record and --frames: expected one of them, not both");
    if (o.fps < 1 || o.fps > 240)
        throw UsageError("--fps: " + std::to_string(o.fps) + " is out of range; expected 1..240");
    RecordRequest r;
    r.fps = o.fps;
    if (!o.record.empty()) {
        r.path = o.record;
        r.container = video::container_for(r.path, "--record");
        video::check_output(r.path, r.container, "--record");
    } else {
        r.path = o.frames;
        r.container = video::Container::frames;
        video::check_output(r.path, r.container, "--frames");
    }
    auto ab = split_range(stage);
    r.from = ab.first;
    r.to = ab.second;
    stage.clear();
    return r;
}

// ---- [job] ----------------------------------------------------------------------

struct Recorder::Job {
    // A part of the clip: positions from..to by step, or a still hold.
    struct Part {
        double from = 0, to = 0, step = 0;
        int64_t frames = 0;
        bool still = false;
    };
    std::unique_ptr<video::VideoEncoder> enc;
    std::string path;
    video::Container container = video::Container::mp4;
    int fps = 30;
    std::vector<Part> parts;
    size_t part = 0, shown = SIZE_MAX;  // the part being captured, the one shown
    int64_t total = 0, done = 0, part_done = 0;
    int warmup = 2;  // frames drawn before the first capture (layout settles)
    bool interactive = false;
    std::function<void(size_t)> show;  // lessons: show slide i
    std::chrono::steady_clock::time_point t0;
    std::vector<unsigned char> px, flipped;
};

Recorder::Recorder() = default;
Recorder::~Recorder() = default;

void Recorder::begin(const std::string& path, video::Container c, int fps, double from, double to,
                     double per_second, bool interactive) {
    if (to < from)
        throw UsageError("--stage: the range ends before it starts; expected A..B, A <= B");
    if (per_second <= 0) throw UsageError("recording: the panel's play speed is not positive");
    RecordSegment seg;
    seg.from = from;
    seg.to = to;
    seg.per_second = per_second;
    begin_segments(path, c, fps, {seg}, interactive);
}

void Recorder::begin_segments(const std::string& path, video::Container c, int fps,
                              const std::vector<RecordSegment>& segs, bool interactive) {
    auto j = std::make_unique<Job>();
    j->path = path;
    j->container = c;
    j->fps = fps;
    for (const RecordSegment& s : segs) {
        Job::Part p;
        if (s.hold > 0) {
            p.still = true;
            p.frames = std::max<int64_t>(1, std::llround(s.hold * fps));
        } else {
            if (s.per_second <= 0 || s.to < s.from)
                throw UsageError("recording: a range ends before it starts or does not move");
            p.from = s.from;
            p.to = s.to;
            p.step = s.per_second / fps;
            // Frame i shows from + i * step; the last frame shows `to` exactly.
            p.frames = int64_t(std::ceil((s.to - s.from) / p.step - 1e-6)) + 1;
        }
        j->total += p.frames;
        j->parts.push_back(p);
    }
    if (j->parts.empty()) throw UsageError("recording: nothing to record");
    j->interactive = interactive;
    j->enc = std::make_unique<video::VideoEncoder>(path, c, fps);
    j->t0 = std::chrono::steady_clock::now();
    job_ = std::move(j);
    result_.clear();
    error_.clear();
    show_result_ = false;
    // Resting stages of large plans drawn as they settle, not when a worker is done.
    render::PlanGpu::set_synchronous_pictures(true);
}

void Recorder::start_lesson(const RecordRequest& r, const std::vector<RecordSegment>& segs,
                            std::function<void(size_t)> show) {
    begin_segments(r.path, r.container, r.fps, segs, false);
    job_->show = std::move(show);
}

void Recorder::next_segment() {
    Job* j = job_.get();
    if (!j || !j->show || j->shown == j->part) return;
    j->shown = j->part;
    j->show(j->part);
}

void Recorder::start(const RecordRequest& r, const Panel& panel) {
    Timeline tl = panel.timeline();
    if (tl.end <= tl.begin)
        throw UsageError(std::string("--record: the panel '") + panel.title() +
                         "' does not animate; expected a scene with an animation (or use "
                         "--screenshot)");
    double from = range_end(r.from, tl.begin, tl.begin, tl.end, tl.unit);
    double to = range_end(r.to, tl.end, tl.begin, tl.end, tl.unit);
    begin(r.path, r.container, r.fps, from, to, tl.per_second, false);
}

void Recorder::stop(bool cancelled) {
    if (!job_) return;
    if (cancelled) result_ = "Recording cancelled; nothing was written.";
    if (job_->interactive) render::PlanGpu::set_synchronous_pictures(false);
    job_.reset();  // an unfinished encoder removes its partial file
    show_result_ = true;
}

// ---- [host calls] ----------------------------------------------------------------

void Recorder::pose(Panel& panel) {
    if (!job_) return;
    const Job::Part& p = job_->parts[job_->part];
    if (!p.still) panel.seek(std::min(p.from + double(job_->part_done) * p.step, p.to));
}

void Recorder::capture() {
    Job* j = job_.get();
    if (!j) return;
    if (j->warmup > 0) {
        --j->warmup;
        return;
    }
    try {
        GLint vp[4] = {0, 0, 0, 0};
        glGetIntegerv(GL_VIEWPORT, vp);
        const int w = vp[2], h = vp[3];
        if (w <= 0 || h <= 0) return;
        const size_t row = size_t(w) * 4;
        j->px.resize(row * size_t(h));
        j->flipped.resize(j->px.size());
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glReadBuffer(GL_BACK);
        glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, j->px.data());
        for (int y = 0; y < h; ++y)
            std::copy_n(&j->px[size_t(h - 1 - y) * row], row, &j->flipped[size_t(y) * row]);
        for (size_t i = 3; i < j->flipped.size(); i += 4) j->flipped[i] = 255;
        j->enc->add_frame(j->flipped.data(), w, h);
        ++j->part_done;
        if (j->part_done == j->parts[j->part].frames && j->part + 1 < j->parts.size()) {
            ++j->part;  // the next slide: shown by next_segment, settled by the warm-up
            j->part_done = 0;
            j->warmup = j->show ? 2 : 0;
        }
        if (++j->done < j->total) return;
        j->enc->finish();
        const double took =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - j->t0).count();
        char buf[512];
        if (j->container == video::Container::frames)
            std::snprintf(buf, sizeof buf,
                          "recorded %s/frame-00000.png .. frame-%05lld.png: %lld frames, %dx%d, "
                          "%d fps; took %.2f s",
                          j->path.c_str(), static_cast<long long>(j->total - 1),
                          static_cast<long long>(j->total), j->enc->width(), j->enc->height(),
                          j->fps, took);
        else
            std::snprintf(buf, sizeof buf,
                          "recorded %s: %lld frames, %dx%d, %d fps, %.2f s of video (%s), %s; "
                          "took %.2f s",
                          j->path.c_str(), static_cast<long long>(j->total), j->enc->width(),
                          j->enc->height(), j->fps, double(j->total) / j->fps,
                          j->enc->codec().c_str(), human_bytes(file_bytes(j->path)).c_str(), took);
        result_ = buf;
        stop(false);
    } catch (const std::exception& e) {
        error_ = e.what();
        stop(false);
    }
}

int Recorder::report() const {
    if (!error_.empty()) {
        std::fprintf(stderr, "error: %s\n", error_.c_str());
        return 2;
    }
    if (!result_.empty()) std::printf("%s\n", result_.c_str());
    return 0;
}

// ---- [window: menu + progress] -----------------------------------------------------

namespace {

void capture_callback(const ImDrawList*, const ImDrawCmd* cmd) {
    static_cast<Recorder*>(cmd->UserCallbackData)->capture();
}

const char* const kFormats[] = {"MP4 (H.264)", "GIF", "WebM (VP9)", "PNG frames"};
const char* const kExts[] = {".mp4", ".gif", ".webm", ""};

}  // namespace

void Recorder::menu(Panel& panel, const char* panel_id, float ui_scale) {
    if (!path_buf_[0]) std::snprintf(path_buf_, sizeof path_buf_, "%s.mp4", panel_id);
    // One label throughout: recorded frames show the menu bar as screenshots do.
    if (!ImGui::BeginMenu(tr_id("Record"))) return;
    const Timeline tl = panel.timeline();
    if (active()) {
        ImGui::TextDisabled(tr("recording %s (see the progress window)"), job_->path.c_str());
    } else if (tl.end <= tl.begin) {
        ImGui::TextDisabled(tr("%s has no animation to record here"), tr(panel.title()));
    } else {
        // The light theme's fields are as white as the menu: give them a tint.
        const ImVec4 bg = ImGui::GetStyleColorVec4(ImGuiCol_PopupBg);
        const bool light = bg.x + bg.y + bg.z > 1.5f;
        if (light) ImGui::PushStyleColor(ImGuiCol_FrameBg, ImVec4(0.86f, 0.87f, 0.89f, 1.0f));
        ImGui::PushItemWidth(260 * ui_scale);
        for (int i = 0; i < 4; ++i) {
            if (!ImGui::RadioButton(kFormats[i], format_ == i)) continue;
            // Keep the name, change the extension.
            std::string p = path_buf_;
            size_t slash = p.find_last_of('/'), dot = p.find_last_of('.');
            if (dot != std::string::npos && (slash == std::string::npos || dot > slash))
                p.erase(dot);
            if (i == 3 && p.empty()) p = std::string(panel_id) + "-frames";
            std::snprintf(path_buf_, sizeof path_buf_, "%s%s", p.c_str(), kExts[i]);
            format_ = i;
        }
        ImGui::InputText(format_ == 3 ? tr_id("folder") : tr_id("file"), path_buf_,
                         sizeof path_buf_);
        ImGui::SliderInt(tr_id("fps"), &fps_, 5, 60);
        if (to_ < 0 || to_ > float(tl.end)) to_ = float(tl.end);
        from_ = std::clamp(from_, float(tl.begin), to_);
        const float speed = float(tl.per_second) / 30.f;
        ImGui::DragFloat(tr_id("from"), &from_, speed, float(tl.begin), to_, "%.2f");
        ImGui::DragFloat(tr_id("to"), &to_, speed, from_, float(tl.end), "%.2f");
        ImGui::PopItemWidth();
        if (light) ImGui::PopStyleColor();
        const double seconds = (double(to_) - double(from_)) / tl.per_second;
        ImGui::TextDisabled(tr("%ss %.2f..%.2f at %.2f/s: %.1f s, %d frames"), tl.unit,
                            double(from_), double(to_), tl.per_second, seconds,
                            int(std::ceil(seconds * fps_ - 1e-6)) + 1);
        if (ImGui::Button(tr_id("Start recording"))) {
            try {
                const std::string path = path_buf_;
                video::Container c =
                    format_ == 3 ? video::Container::frames : video::container_for(path, "Record");
                video::check_output(path, c, "Record");
                begin(path, c, fps_, from_, to_, tl.per_second, true);
                menu_error_.clear();
                ImGui::CloseCurrentPopup();
            } catch (const UsageError& e) {
                menu_error_ = e.what();
            }
        }
        if (!menu_error_.empty()) {
            ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + 420 * ui_scale);
            ImGui::TextColored(ImVec4(1.0f, 0.42f, 0.38f, 1.0f), "%s", menu_error_.c_str());
            ImGui::PopTextWrapPos();
        }
    }
    ImGui::EndMenu();
}

void Recorder::end_frame(float ui_scale) {
    ImGuiIO& io = ImGui::GetIO();
    if (job_ && !job_->interactive) {
        // Headless: the frame as a whole, like --screenshot.
        ImGui::GetForegroundDrawList()->AddCallback(capture_callback, this);
        return;
    }
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize |
                                   ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                                   ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse;
    const ImVec2 corner(io.DisplaySize.x - 12 * ui_scale, io.DisplaySize.y - 12 * ui_scale);
    if (job_) {
        // On top of every window, so its draw list comes after theirs; the
        // capture runs first in it, before its own background is drawn.
        ImGui::SetNextWindowFocus();
        ImGui::SetNextWindowPos(corner, ImGuiCond_Always, ImVec2(1, 1));
        ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.f);
        ImGui::Begin("##recording", nullptr, flags | ImGuiWindowFlags_NoBackground);
        ImDrawList* dl = ImGui::GetWindowDrawList();
        dl->AddCallback(capture_callback, this);
        dl->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
        const ImVec2 p = ImGui::GetWindowPos(), s = ImGui::GetWindowSize();
        dl->AddRectFilled(p, ImVec2(p.x + s.x, p.y + s.y), ImGui::GetColorU32(ImGuiCol_PopupBg),
                          ImGui::GetStyle().WindowRounding);
        ImGui::Text(tr("Recording %s"), job_->path.c_str());
        char buf[64];
        std::snprintf(buf, sizeof buf, tr("frame %lld / %lld"), static_cast<long long>(job_->done),
                      static_cast<long long>(job_->total));
        ImGui::ProgressBar(float(job_->done) / float(job_->total), ImVec2(320 * ui_scale, 0), buf);
        if (job_->done + 1 >= job_->total && job_->container == video::Container::gif)
            ImGui::TextDisabled("%s", tr("the GIF's palette is built at the end: a moment"));
        if (ImGui::Button(tr_id("Cancel"))) stop(true);
        ImGui::End();
        ImGui::PopStyleVar();
        return;
    }
    if (!show_result_) return;
    ImGui::SetNextWindowPos(corner, ImGuiCond_Always, ImVec2(1, 1));
    ImGui::Begin("##recorded", nullptr, flags);
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + 480 * ui_scale);
    if (!error_.empty())
        ImGui::TextColored(ImVec4(1.0f, 0.42f, 0.38f, 1.0f), tr("error: %s"), error_.c_str());
    else
        ImGui::TextUnformatted(result_.c_str());
    ImGui::PopTextWrapPos();
    if (ImGui::Button(tr_id("Close"))) show_result_ = false;
    ImGui::End();
}

}  // namespace ll::gui
