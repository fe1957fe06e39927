// GLFW window + GL 3.3 core context (glad) + Dear ImGui, behind a few calls.
#pragma once

#include <functional>
#include <string>
#include <vector>

struct GLFWwindow;

namespace ll::gui {

struct PlatformConfig {
    int width = 1280, height = 800;
    std::string title = "LayoutLab";
    bool visible = true;  // false for headless capture
    bool vsync = true;
};

class Platform {
  public:
    // Throws UsageError when no display or no GL 3.3 context is available.
    explicit Platform(const PlatformConfig& cfg);
    ~Platform();
    Platform(const Platform&) = delete;
    Platform& operator=(const Platform&) = delete;

    bool should_close() const;
    // Waits for input: timeout < 0 blocks until an event, 0 only polls.
    void wait_events(double timeout);
    // (Re)builds the font atlas for a UI scale and the current language:
    // DejaVu Sans (ImGui's own font when missing) with the CJK characters
    // needed merged in (app/i18n/fonts.hpp). Call between frames.
    void set_fonts(float scale);
    void new_frame();  // start an ImGui frame
    // Draws ImGui; `before_swap` runs after drawing, before the buffers swap
    // (the place to read pixels back).
    void render(float clear_r, float clear_g, float clear_b,
                const std::function<void()>& before_swap = {});
    void framebuffer_size(int& w, int& h) const;
    // GLFW key codes pressed (or repeated) since the last call.
    std::vector<int> take_key_presses();
    GLFWwindow* window() const { return window_; }

  private:
    GLFWwindow* window_ = nullptr;
    bool device_objects_ = false;  // ImGui's GL objects created (set_fonts)
};

}  // namespace ll::gui
