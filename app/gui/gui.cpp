#include "app/gui/gui.hpp"

#include <glad/gl.h>
#include <imgui.h>
#include <stb_image_write.h>

#include <cstdio>
#include <vector>

#include "app/gui/platform.hpp"
#include "core/error.hpp"

namespace ll::gui {

void add_options(CLI::App& app, Options& o) {
    app.add_option("--screenshot", o.screenshot, "render, write this PNG and exit");
    app.add_option("--size", o.size, "window size WxH")->capture_default_str();
}

namespace {

void parse_size(const std::string& s, int& w, int& h) {
    if (std::sscanf(s.c_str(), "%dx%d", &w, &h) != 2 || w < 64 || h < 64 || w > 8192 || h > 8192)
        throw UsageError("--size: '" + s + "' is not a size; expected WxH such as 1600x1000");
}

void save_png(const std::string& path, int w, int h) {
    std::vector<unsigned char> px(static_cast<size_t>(w) * h * 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
    std::string tmp = path + ".tmp";
    stbi_flip_vertically_on_write(1);
    if (!stbi_write_png(tmp.c_str(), w, h, 4, px.data(), w * 4))
        throw UsageError("--screenshot: cannot write '" + path + "'; expected a writable path");
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        std::remove(tmp.c_str());
        throw UsageError("--screenshot: cannot write '" + path + "'; expected a writable path");
    }
}

}  // namespace

int run(const Options& o) {
    int w = 0, h = 0;
    parse_size(o.size, w, h);
    PlatformConfig cfg;
    cfg.width = w;
    cfg.height = h;
    cfg.visible = o.screenshot.empty();
    Platform platform(cfg);
    int frames = 0;
    while (!platform.should_close()) {
        platform.new_frame();
        ImGui::SetNextWindowPos(ImVec2(20, 20), ImGuiCond_FirstUseEver);
        ImGui::Begin("LayoutLab");
        ImGui::TextUnformatted("LayoutLab: tensor layouts on AI accelerators.");
        ImGui::End();
        platform.render();
        if (!o.screenshot.empty() && ++frames == 3) {
            save_png(o.screenshot, w, h);
            break;
        }
    }
    return 0;
}

}  // namespace ll::gui
