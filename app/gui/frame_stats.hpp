// Per-frame cost split for `--bench-frames`: how much of a frame's CPU time
// is the app's own (panels building their draw data, ImGui building its
// vertex lists, the plan view choosing what to draw) and how much is the GL
// driver's (submitting the draw lists, our draw calls, glFinish).
//
// Scopes add the calling thread's CPU time (and wall time) to one part of
// the current frame; parts nest (a plan-view GL call inside the plan-view
// callback inside the ImGui draw-list submission), and report() subtracts
// the inner parts from the outer ones. Off unless enable(true): a Scope then
// costs one branch.
//
//   frame_stats::enable(true);
//   frame_stats::frame_begin();
//   { frame_stats::Scope s(frame_stats::Part::app_frame); host.frame(); }
//   ...
//   frame_stats::frame_end();
//   std::fputs(frame_stats::report().c_str(), stdout);
#pragma once

#include <string>

namespace ll::gui::frame_stats {

enum class Part {
    app_frame,      // update + panels (ImGui widgets, plan view draw data)
    imgui_render,   // ImGui::Render: ImGui's own vertex lists
    gl_submit,      // ImGui_ImplOpenGL3_RenderDrawData, callbacks included
    plan_callback,  // the plan view's GL callback (inside gl_submit)
    plan_gl,        // GL calls of that callback (inside plan_callback)
    gl_finish,      // glFinish: waiting for the rasteriser
    count
};

void enable(bool on);
bool enabled();
void frame_begin();
void frame_end();

class Scope {
  public:
    explicit Scope(Part p);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

  private:
    Part part_;
    double cpu0_ = 0, wall0_ = 0;
    bool on_ = false;
};

// Medians over the recorded frames, one line per derived part:
//   app own (panels + ImGui + plan view logic) and GL driver (submission,
//   plan view GL calls, glFinish wall time).
std::string report();

}  // namespace ll::gui::frame_stats
