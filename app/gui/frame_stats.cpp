// Frame cost split (see frame_stats.hpp).
#include "app/gui/frame_stats.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <vector>

namespace ll::gui::frame_stats {

namespace {

constexpr size_t kParts = static_cast<size_t>(Part::count);
using Times = std::array<double, kParts>;

struct State {
    bool on = false;
    Times cpu{}, wall{};
    std::vector<Times> frames_cpu, frames_wall;
};
State& state() {
    static State s;
    return s;
}

double thread_ms() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return 1e3 * static_cast<double>(ts.tv_sec) + 1e-6 * static_cast<double>(ts.tv_nsec);
}
double wall_ms() {
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

double part(const Times& t, Part p) {
    return t[static_cast<size_t>(p)];
}

}  // namespace

void enable(bool on) {
    state().on = on;
}
bool enabled() {
    return state().on;
}

void frame_begin() {
    state().cpu.fill(0);
    state().wall.fill(0);
}

void frame_end() {
    State& s = state();
    if (!s.on) return;
    s.frames_cpu.push_back(s.cpu);
    s.frames_wall.push_back(s.wall);
}

Scope::Scope(Part p) : part_(p), on_(state().on) {
    if (!on_) return;
    cpu0_ = thread_ms();
    wall0_ = wall_ms();
}

Scope::~Scope() {
    if (!on_) return;
    State& s = state();
    s.cpu[static_cast<size_t>(part_)] += thread_ms() - cpu0_;
    s.wall[static_cast<size_t>(part_)] += wall_ms() - wall0_;
}

std::string report() {
    const State& s = state();
    std::vector<double> app, panels, imgui, plan_logic, driver, submit, plan_gl, plan_gl_wall,
        finish;
    for (size_t i = 0; i < s.frames_cpu.size(); ++i) {
        const Times& c = s.frames_cpu[i];
        const Times& w = s.frames_wall[i];
        const double logic = part(c, Part::plan_callback) - part(c, Part::plan_gl);
        const double sub =
            part(c, Part::gl_submit) - part(c, Part::plan_callback) + part(c, Part::plan_gl);
        panels.push_back(part(c, Part::app_frame));
        imgui.push_back(part(c, Part::imgui_render));
        plan_logic.push_back(logic);
        app.push_back(part(c, Part::app_frame) + part(c, Part::imgui_render) + logic);
        submit.push_back(sub - part(c, Part::plan_gl));
        plan_gl.push_back(part(c, Part::plan_gl));
        plan_gl_wall.push_back(part(w, Part::plan_gl));
        finish.push_back(part(w, Part::gl_finish));
        driver.push_back(sub + part(w, Part::gl_finish));
    }
    char buf[600];
    std::snprintf(buf, sizeof buf,
                  "app own cpu ms/frame: median %.3f (panels + draw data %.3f, ImGui::Render "
                  "%.3f, plan view callback logic %.3f)\n"
                  "gl driver ms/frame: median %.3f (ImGui submission cpu %.3f, plan view GL "
                  "calls cpu %.3f (wall %.3f), glFinish wall %.3f)\n",
                  median(app), median(panels), median(imgui), median(plan_logic), median(driver),
                  median(submit), median(plan_gl), median(plan_gl_wall), median(finish));
    return buf;
}

}  // namespace ll::gui::frame_stats
