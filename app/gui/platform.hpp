// GLFW window + GL 3.3 core context (glad) + Dear ImGui, behind four calls.
#pragma once

#include <string>

struct GLFWwindow;

namespace ll::gui {

struct PlatformConfig {
    int width = 1280, height = 800;
    std::string title = "LayoutLab";
    bool visible = true;  // false for headless capture
};

class Platform {
public:
    // Throws UsageError when no display or no GL 3.3 context is available.
    explicit Platform(const PlatformConfig& cfg);
    ~Platform();
    Platform(const Platform&) = delete;
    Platform& operator=(const Platform&) = delete;

    bool should_close() const;
    void new_frame();        // poll/wait events, start an ImGui frame
    void render();           // draw ImGui, swap buffers
    GLFWwindow* window() const { return window_; }

private:
    GLFWwindow* window_ = nullptr;
};

}  // namespace ll::gui
