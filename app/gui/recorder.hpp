// Recording a panel's animation into a video (MP4, WebM, GIF) or PNG frames.
//
// The recorder replaces wall-clock time while it runs: before each frame it
// puts the main panel at the next position of its Timeline (Panel::seek),
// so frame i shows position A + i * per_second / fps whatever the machine's
// speed. The pixels are read back inside the frame's draw data (an ImGui
// draw callback), after every window is drawn and before the recorder's own
// progress window, so the clip never shows the progress bar.
//
// From the command line (`layoutlab ... --record out.mp4 [--fps 30]
// [--stage A..B]`) it records headless and the program exits; in the window
// the Record menu starts the same for the current view, with a progress bar
// and a cancel button. The host calls, per frame: pose() from update, menu()
// inside the main menu bar, end_frame() last.
#pragma once

#include <CLI/CLI.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "app/export/video_encoder.hpp"
#include "app/panels/panel.hpp"

namespace ll::gui {

struct RecordOptions {
    std::string record;  // out.mp4 | out.gif | out.webm
    std::string frames;  // a folder for numbered PNGs
    int fps = 30;
};

void add_record_options(CLI::App& app, RecordOptions& o);

// A recording asked for on the command line, checked before a window opens.
struct RecordRequest {
    std::string path;
    video::Container container = video::Container::mp4;
    int fps = 30;
    std::string from, to;  // range ends as given ("" = the timeline's end, "last")
};

// nullopt when neither --record nor --frames is given. Otherwise validates
// the path (extension, writable folder) and fps, and takes the range out of
// `stage` ("A..B", or "A" for A to the end), leaving `stage` empty: the
// recorder positions the panel itself. Throws UsageError.
std::optional<RecordRequest> take_record_request(const RecordOptions& o, std::string& stage);

// One part of a lesson's recording: a slide's play range (positions of its
// panel's timeline at per_second), or a still slide held `hold` seconds.
struct RecordSegment {
    double from = 0, to = 0, per_second = 1;
    double hold = 0;  // > 0: a still slide, not seeked
};

class Recorder {
  public:
    Recorder();
    ~Recorder();
    // Command line: records `panel`'s range; throws UsageError when the panel
    // does not animate or the range is outside its timeline.
    void start(const RecordRequest& r, const Panel& panel);
    // A lesson: the segments one after another into one file; `show(i)` is
    // called (from next_segment) before segment i's first frame.
    void start_lesson(const RecordRequest& r, const std::vector<RecordSegment>& segs,
                      std::function<void(size_t)> show);
    bool active() const { return job_ != nullptr; }
    // Host::update, first: moves a lesson recording on to its next slide.
    void next_segment();
    // Host::update, after the panels' own update: the main panel at the
    // position of the frame about to be captured.
    void pose(Panel& panel);
    // Inside the main menu bar: the Record menu (window only).
    void menu(Panel& panel, const char* panel_id, float ui_scale);
    // Last in Host::frame: the progress window and the capture callback.
    void end_frame(float ui_scale);
    // After a command-line recording: prints its summary (stdout) or its
    // error (stderr); returns the exit code (0, or 2 on an error).
    int report() const;

    // Called from the draw callback.
    void capture();

    struct Job;

  private:
    void begin(const std::string& path, video::Container c, int fps, double from, double to,
               double per_second, bool interactive);
    void begin_segments(const std::string& path, video::Container c, int fps,
                        const std::vector<RecordSegment>& segs, bool interactive);
    void stop(bool cancelled);

    std::unique_ptr<Job> job_;
    // The window's Record menu.
    int format_ = 0;
    char path_buf_[512] = {};
    int fps_ = 30;
    float from_ = 0, to_ = -1;
    std::string menu_error_;
    // The last result (window: shown until closed; command line: report()).
    std::string result_, error_;
    bool show_result_ = false;
};

}  // namespace ll::gui
