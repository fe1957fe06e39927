#include "app/gui/platform.hpp"

// glad must come before GLFW so GLFW does not pull in a system GL header.
#include <glad/gl.h>
//
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <chrono>

#include "app/gui/frame_stats.hpp"
#include "app/i18n/fonts.hpp"
#include "app/i18n/text_audit.hpp"
#include "core/error.hpp"

namespace ll::gui {

namespace {

// Key presses queued by our callback; ImGui's own callback still runs.
std::vector<int> g_presses;

void on_key(GLFWwindow* w, int key, int scancode, int action, int mods) {
    if (action == GLFW_PRESS || action == GLFW_REPEAT) g_presses.push_back(key);
    ImGui_ImplGlfw_KeyCallback(w, key, scancode, action, mods);
}

}  // namespace

std::vector<int> Platform::take_key_presses() {
    std::vector<int> out;
    out.swap(g_presses);
    return out;
}

Platform::Platform(const PlatformConfig& cfg) {
    if (!glfwInit())
        throw UsageError("cannot open a window: no display (set DISPLAY, or run under xvfb-run)");
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_VISIBLE, cfg.visible ? GLFW_TRUE : GLFW_FALSE);
    window_ = glfwCreateWindow(cfg.width, cfg.height, cfg.title.c_str(), nullptr, nullptr);
    if (!window_) {
        glfwTerminate();
        throw UsageError("cannot create an OpenGL 3.3 core window; expected a GL 3.3 driver");
    }
    glfwMakeContextCurrent(window_);
    glfwSwapInterval(cfg.vsync ? 1 : 0);
    if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress))) {
        glfwDestroyWindow(window_);
        glfwTerminate();
        throw UsageError("cannot load OpenGL 3.3 functions");
    }
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;  // the app saves settings itself, atomically
    ImGui::StyleColorsDark();
    ImGui_ImplGlfw_InitForOpenGL(window_, true);
    ImGui_ImplOpenGL3_Init("#version 330 core");
    glfwSetKeyCallback(window_, on_key);
}

Platform::~Platform() {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window_);
    glfwTerminate();
}

bool Platform::should_close() const {
    return glfwWindowShouldClose(window_);
}

void Platform::wait_events(double timeout) {
    if (timeout < 0)
        glfwWaitEvents();
    else if (timeout == 0)
        glfwPollEvents();
    else
        glfwWaitEventsTimeout(timeout);
}

void Platform::set_fonts(float scale) {
    const auto t0 = std::chrono::steady_clock::now();
    i18n::add_fonts(scale);  // DejaVu Sans + the CJK characters needed (app/i18n/fonts.hpp)
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Build();
    if (!device_objects_) {
        // Before the first frame: create the backend's device objects now,
        // font texture included. Left to the backend's first NewFrame, they
        // would rebuild the atlas from the input data cleared below (an
        // empty 512x64 texture). Later rebuilds replace the texture only
        // (recreating the device objects then left ImGui drawing nothing).
        ImGui_ImplOpenGL3_CreateDeviceObjects();
        device_objects_ = true;
    } else {
        ImGui_ImplOpenGL3_DestroyFontsTexture();
        ImGui_ImplOpenGL3_CreateFontsTexture();
    }
    // The texture is on the GPU: the TTF files (5 MB for the CJK one) and the
    // CPU copy of the pixels are not needed until the next rebuild.
    io.Fonts->ClearInputData();
    io.Fonts->ClearTexData();
    i18n::note_atlas_build_ms(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
}

void Platform::new_frame() {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
}

void Platform::framebuffer_size(int& w, int& h) const {
    glfwGetFramebufferSize(window_, &w, &h);
}

void Platform::render(float r, float g, float b, const std::function<void()>& before_swap) {
    {
        frame_stats::Scope s(frame_stats::Part::imgui_render);
        ImGui::Render();
        i18n::audit::frame_end();  // --dump-text: the frame's text, read back
    }
    int w = 0, h = 0;
    glfwGetFramebufferSize(window_, &w, &h);
    glViewport(0, 0, w, h);
    glDisable(GL_SCISSOR_TEST);
    glClearColor(r, g, b, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    {
        frame_stats::Scope s(frame_stats::Part::gl_submit);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    }
    if (before_swap) before_swap();
    glfwSwapBuffers(window_);
}

}  // namespace ll::gui
