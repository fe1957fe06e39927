// The window: hosts the panels of the registry, the menu, settings that are
// remembered between runs, and the headless modes (screenshot, benchmark,
// screenshots on a signal for tests). All modes run the same frame code.
//
// Sections: [options] [config] [scene from flags] [host] [run]
#include "app/gui/gui.hpp"

// glad before GLFW, so GLFW does not pull in a system GL header.
#include <glad/gl.h>
//
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#include "app/gui/platform.hpp"
#include "app/panels/explorer_scene.hpp"
#include "app/panels/panel.hpp"
#include "app/render/plan_view.hpp"
#include "core/checked.hpp"
#include "core/error.hpp"
#include "core/io/atomic_file.hpp"
#include "core/io/input_file.hpp"
#include "core/io/json_input.hpp"

namespace ll::gui {

// ---- [options] ------------------------------------------------------------------

void add_options(CLI::App& app, Options& o) {
    const CLI::Validator non_empty_path(
        [](const std::string& v) {
            return v.empty() ? std::string("empty file name; expected a path") : std::string();
        },
        "PATH");
    std::string ids;
    for (const PanelEntry& e : panel_registry()) ids += std::string(ids.empty() ? "" : ", ") + e.id;
    app.add_option("--panel", o.panel, "panel shown full-window: " + ids);
    app.add_option("--scene", o.scene,
                   "open a scene file (JSON, at most 16 MiB, nested at most 64 deep)");
    app.add_option("--from", o.from, "source format, e.g. ND, NCHW");
    app.add_option("--to", o.to, "target format, e.g. FRACTAL_NZ, NC1HWC0");
    app.add_option("--via", o.via, "a plain format the data passes through first, e.g. NHWC");
    app.add_option("--shape", o.shape, "logical shape, e.g. 2,2,28");
    app.add_option("--dtype", o.dtype, "element type, e.g. fp16");
    app.add_option("--c0", o.c0, "C0 override (0 = 32 B / sizeof(dtype))");
    app.add_option("--fractal", o.fractal, "fractal override RxC, e.g. 16x16");
    app.add_option("--pad-value", o.pad_value, "value written into padding");
    app.add_option("--image", o.image, "a PNG or JPEG shown as an RGB tensor");
    app.add_option("--colour", o.colour,
                   "colour mode: source-index, row, column, channel, fractal, value");
    app.add_option("--stage", o.stage,
                   "stage shown: a number (fractional between stages) or 'last'");
    app.add_option("--screenshot", o.screenshot, "render the scene, write this PNG and exit")
        ->check(non_empty_path);
    app.add_option("--dump-view", o.dump_view, "with --screenshot: write the view cameras as JSON")
        ->check(non_empty_path);
    app.add_option("--size", o.size, "window size WxH")->capture_default_str();
    app.add_option("--theme", o.theme, "dark or light");
    app.add_option("--ui-scale", o.ui_scale, "font/UI scale for projectors, 0.5..4, e.g. 1.5");
    app.add_option("--bench-frames", o.bench_frames,
                   "render N animating frames and print frame times");
    app.add_option("--screenshot-on-signal", o.signal_dir,
                   "tests: on SIGUSR1 write <dir>/shot-<n>.png");
    app.add_flag("--no-config", o.no_config, "do not read or write ~/.config/layoutlab");
}

namespace {

void parse_size(const std::string& s, int& w, int& h) {
    if (std::sscanf(s.c_str(), "%dx%d", &w, &h) != 2 || w < 64 || h < 64 || w > 8192 || h > 8192)
        throw UsageError("--size: '" + s + "' is not a size; expected WxH such as 1600x1000");
}

// ---- [config] -------------------------------------------------------------------

struct Settings {
    bool dark = true;
    float ui_scale = 1.0f;
    int width = 1280, height = 800;
};

// $XDG_CONFIG_HOME/layoutlab or ~/.config/layoutlab; "" when disabled
// (--no-config, LAYOUTLAB_NO_CONFIG=1) or when no home is known.
std::string config_dir(bool disabled) {
    const char* off = std::getenv("LAYOUTLAB_NO_CONFIG");
    if (disabled || (off && *off && std::string(off) != "0")) return "";
    const char* xdg = std::getenv("XDG_CONFIG_HOME");
    const char* home = std::getenv("HOME");
    std::string base;
    if (xdg && *xdg)
        base = xdg;
    else if (home && *home)
        base = std::string(home) + "/.config";
    else
        return "";
    return base + "/layoutlab";
}

std::string read_text(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

void write_text_atomic(const std::string& path, const std::string& text) {
    std::string tmp = path + ".tmp";
    std::ofstream out(tmp);
    out << text;
    out.close();
    if (!out || std::rename(tmp.c_str(), path.c_str()) != 0) std::remove(tmp.c_str());
}

Settings load_settings_file(const std::string& dir) {
    Settings s;
    if (dir.empty()) return s;
    // Our own file, but a user can edit it: read bounded and checked; a
    // missing or bad file means the defaults (the window still opens).
    try {
        const nlohmann::json j = read_json_file(dir + "/settings.json", "settings", 1 << 20);
        if (!j.is_object()) return s;
        Settings r;
        if (j.contains("theme")) r.dark = json_string(j["theme"], "theme") != "light";
        if (j.contains("ui_scale"))
            r.ui_scale = float(json_float(j["ui_scale"], "ui_scale", 0.5, 4));
        if (j.contains("width")) r.width = int(json_int(j["width"], "width", 320, 8192));
        if (j.contains("height")) r.height = int(json_int(j["height"], "height", 240, 8192));
        return r;
    } catch (const UsageError&) {
        return s;
    }
}

void save_settings_file(const std::string& dir, const Settings& s) {
    if (dir.empty()) return;
    std::string parent = dir.substr(0, dir.find_last_of('/'));
    ::mkdir(parent.c_str(), 0755);
    ::mkdir(dir.c_str(), 0755);
    nlohmann::json j = {{"theme", s.dark ? "dark" : "light"},
                        {"ui_scale", s.ui_scale},
                        {"width", s.width},
                        {"height", s.height}};
    write_text_atomic(dir + "/settings.json", j.dump(2) + "\n");
    size_t n = 0;
    const char* ini = ImGui::SaveIniSettingsToMemory(&n);
    write_text_atomic(dir + "/imgui.ini", std::string(ini, n));
}

// ---- [scene from flags] -----------------------------------------------------------

// The id of the full-window panel: --panel, else the scene file's "panel",
// else the first entry of the registry (the explorer).
std::string main_panel_id(const Options& o, nlohmann::json& panel_scene) {
    std::string id = o.panel;
    if (!o.scene.empty()) {
        auto j = read_json_file(o.scene, "--scene", kMaxJsonFileBytes);
        if (!j.is_object()) throw UsageError("--scene: '" + o.scene + "' is not a JSON object");
        if (j.contains("panel")) {
            if (!j["panel"].is_string())
                throw UsageError("--scene: \"panel\" must be a panel id string");
            std::string sid = j["panel"].get<std::string>();
            if (id.empty()) id = sid;
            if (sid != id)
                throw UsageError("--scene: the file is for panel '" + sid + "' but --panel is '" +
                                 id + "'");
            j.erase("panel");
        }
        panel_scene = j;
    }
    if (id.empty()) id = panel_registry().front().id;
    if (!find_panel(id)) {
        std::string ids;
        for (const PanelEntry& e : panel_registry())
            ids += std::string(ids.empty() ? "" : ", ") + e.id;
        throw UsageError("--panel: '" + id + "' is not a panel; expected one of " + ids);
    }
    return id;
}

// The scene JSON a run starts with: the file, then each flag given on top.
nlohmann::json initial_scene(const Options& o) {
    nlohmann::json j;
    if (!o.scene.empty()) {
        Scene s = load_scene_file(o.scene);
        j = to_json(s);
    } else {
        j = to_json(Scene{});
    }
    auto set = [&](const char* key, const std::string& v) {
        if (!v.empty()) j[key] = v;
    };
    set("from", o.from);
    set("to", o.to);
    set("via", o.via);
    set("shape", o.shape);
    set("dtype", o.dtype);
    set("fractal", o.fractal);
    set("image", o.image);
    set("colour", o.colour);
    set("stage", o.stage);
    if (!o.image.empty() && o.colour.empty()) j["colour"] = "value";
    if (!o.image.empty() && o.from.empty() && o.scene.empty()) {
        j["from"] = "NCHW";
        if (o.to.empty()) j["via"] = "NHWC", j["to"] = "NC1HWC0";
    }
    auto num = [&](const char* key, const std::string& v, const char* flag) {
        if (v.empty()) return;
        char* end = nullptr;
        double d = std::strtod(v.c_str(), &end);
        if (end == v.c_str() || *end)
            throw UsageError(std::string(flag) + ": '" + v + "' is not a number");
        j[key] = d;
    };
    num("pad_value", o.pad_value, "--pad-value");
    if (!o.c0.empty()) {
        char* end = nullptr;
        long long c = std::strtoll(o.c0.c_str(), &end, 10);
        if (end == o.c0.c_str() || *end) throw UsageError("--c0: '" + o.c0 + "' is not an integer");
        j["c0"] = c;
    }
    if (!o.scene.empty()) {
        std::string d = o.scene.substr(
            0, o.scene.find_last_of('/') == std::string::npos ? 0 : o.scene.find_last_of('/'));
        j["_base_dir"] = d.empty() ? "." : d;
    }
    return j;
}

// ---- [host] ---------------------------------------------------------------------

std::atomic<int> g_signal_shots{0};
std::atomic<bool> g_quit{false};
extern "C" void on_usr1(int) {
    g_signal_shots.fetch_add(1);
}
extern "C" void on_term(int) {
    g_quit.store(true);
}

struct PanelSlot {
    const PanelEntry* entry;
    std::unique_ptr<Panel> panel;
    bool open = false;
};

class Host {
  public:
    Host(Platform& pf, Settings st, const std::string& main_id) : pf_(pf), st_(st) {
        for (const PanelEntry& e : panel_registry()) {
            if (main_id == e.id) main_ = slots_.size();
            slots_.push_back({&e, nullptr, false});
        }
        slots_[main_].panel = slots_[main_].entry->make();
        slots_[main_].open = true;
        apply_style();
    }
    Panel& main_panel() { return *slots_[main_].panel; }
    const Settings& settings() const { return st_; }
    bool busy() const {
        for (const auto& s : slots_)
            if (s.panel && s.open && s.panel->busy()) return true;
        return false;
    }
    void update(double dt) {
        for (auto& s : slots_)
            if (s.panel && s.open) s.panel->update(dt);
    }
    void frame();

  private:
    void apply_style();
    Platform& pf_;
    Settings st_;
    float applied_scale_ = -1;
    bool applied_dark_ = false;
    std::vector<PanelSlot> slots_;
    size_t main_ = 0;  // the full-window panel
    AppContext ctx_;
};

void Host::apply_style() {
    if (applied_scale_ == st_.ui_scale && applied_dark_ == st_.dark) return;
    ImGuiStyle style;
    if (st_.dark)
        ImGui::StyleColorsDark(&style);
    else
        ImGui::StyleColorsLight(&style);
    style.WindowRounding = 0;
    style.FrameRounding = 3;
    style.ScaleAllSizes(st_.ui_scale);
    ImGui::GetStyle() = style;
    if (applied_scale_ != st_.ui_scale) pf_.set_fonts(st_.ui_scale);
    applied_scale_ = st_.ui_scale;
    applied_dark_ = st_.dark;
}

void Host::frame() {
    apply_style();  // between frames: may rebuild the font atlas
    pf_.new_frame();
    ctx_.ui_scale = st_.ui_scale;
    ctx_.dark_theme = st_.dark;
    ctx_.status.clear();
    ctx_.keys.clear();
    for (int k : pf_.take_key_presses()) {
        if (k == GLFW_KEY_SPACE) ctx_.keys.push_back(Key::space);
        if (k == GLFW_KEY_LEFT) ctx_.keys.push_back(Key::left);
        if (k == GLFW_KEY_RIGHT) ctx_.keys.push_back(Key::right);
        if (k == GLFW_KEY_HOME) ctx_.keys.push_back(Key::home);
        if (k == GLFW_KEY_END) ctx_.keys.push_back(Key::end);
    }
    float menu_h = 0;
    if (ImGui::BeginMainMenuBar()) {
        if (ImGui::BeginMenu("View")) {
            std::string group;
            for (size_t i = 0; i < slots_.size(); ++i) {
                if (i == main_) continue;
                PanelSlot& s = slots_[i];
                if (ImGui::MenuItem((std::string(s.entry->group) + " > " + s.entry->title).c_str(),
                                    nullptr, s.open)) {
                    s.open = !s.open;
                    if (s.open && !s.panel) s.panel = s.entry->make();
                }
            }
            if (slots_.size() == 1) ImGui::TextDisabled("(no other panels yet)");
            ImGui::EndMenu();
        }
        if (ImGui::BeginMenu("Settings")) {
            if (ImGui::MenuItem("Dark theme", nullptr, st_.dark)) st_.dark = true;
            if (ImGui::MenuItem("Light theme", nullptr, !st_.dark)) st_.dark = false;
            ImGui::Separator();
            for (float s : {1.0f, 1.25f, 1.5f, 2.0f}) {
                char buf[32];
                std::snprintf(buf, sizeof buf, "UI scale %.0f%%", double(s * 100));
                if (ImGui::MenuItem(buf, nullptr, st_.ui_scale == s)) st_.ui_scale = s;
            }
            ImGui::EndMenu();
        }
        menu_h = ImGui::GetWindowSize().y;
        ImGui::EndMainMenuBar();
    }
    ImGuiIO& io = ImGui::GetIO();
    ImGui::SetNextWindowPos(ImVec2(0, menu_h));
    ImGui::SetNextWindowSize(ImVec2(io.DisplaySize.x, io.DisplaySize.y - menu_h));
    ImGui::Begin(slots_[main_].entry->title, nullptr,
                 ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
                     ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoBringToFrontOnFocus |
                     ImGuiWindowFlags_NoSavedSettings);
    ctx_.dt = io.DeltaTime;
    slots_[main_].panel->draw(ctx_);
    ImGui::End();
    for (size_t i = 0; i < slots_.size(); ++i) {
        PanelSlot& s = slots_[i];
        if (i == main_ || !s.open || !s.panel) continue;
        ImGui::SetNextWindowSize(ImVec2(720 * st_.ui_scale, 520 * st_.ui_scale),
                                 ImGuiCond_FirstUseEver);
        if (ImGui::Begin(s.entry->title, &s.open)) s.panel->draw(ctx_);
        ImGui::End();
    }
    if (!ctx_.status.empty()) {
        ImDrawList* fg = ImGui::GetForegroundDrawList();
        ImVec2 ts = ImGui::CalcTextSize(ctx_.status.c_str());
        ImVec2 p(io.DisplaySize.x - ts.x - 12, menu_h > 0 ? (menu_h - ts.y) / 2 : 2);
        fg->AddText(p, IM_COL32(255, 210, 120, 255), ctx_.status.c_str());
    }
}

std::vector<unsigned char> read_pixels(Platform& pf, int& w, int& h) {
    pf.framebuffer_size(w, h);
    std::vector<unsigned char> px(size_t(w) * size_t(h) * 4), flipped(px.size());
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
    size_t row = size_t(w) * 4;
    for (int y = 0; y < h; ++y)
        std::copy_n(&px[size_t(h - 1 - y) * row], row, &flipped[size_t(y) * row]);
    for (size_t i = 3; i < flipped.size(); i += 4) flipped[i] = 255;
    return flipped;
}

void check_writable(const std::string& path, const char* what) {
    std::string probe = path + ".probe";
    std::ofstream f(probe);
    if (!f)
        throw UsageError(std::string(what) + ": cannot write '" + path +
                         "'; expected a writable path");
    f.close();
    std::remove(probe.c_str());
}

double percentile(std::vector<double> v, double q) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    size_t i = std::min(v.size() - 1, size_t(q * double(v.size() - 1) + 0.5));
    return v[i];
}

}  // namespace

// ---- [run] ----------------------------------------------------------------------

int run(const Options& o) {
    int w = 0, h = 0;
    parse_size(o.size, w, h);
    bool headless = !o.screenshot.empty() || o.bench_frames > 0;
    if (o.bench_frames < 0) throw UsageError("--bench-frames: expected a positive frame count");
    if (!o.theme.empty() && o.theme != "dark" && o.theme != "light")
        throw UsageError("--theme: '" + o.theme + "' is unknown; expected dark or light");
    if (o.ui_scale != 0) checked_float(o.ui_scale, "--ui-scale", 0.5, 4);  // nan, inf too
    if (!o.dump_view.empty() && o.screenshot.empty())
        throw UsageError(
            "--dump-view: needs --screenshot (the view is dumped after the "
            "screenshot's frame); expected --screenshot FILE.png --dump-view FILE.json");
    if (!o.screenshot.empty()) check_writable(o.screenshot, "--screenshot");
    if (!o.dump_view.empty()) check_writable(o.dump_view, "--dump-view");
    // Usage errors come before any window opens.
    nlohmann::json scene;
    std::string main_id = main_panel_id(o, scene);
    bool explorer = main_id == panel_registry().front().id;
    // The benchmark animates, unless the scene file says "playing": false
    // (then it times redraws at rest: a pan, a hover).
    const bool rest = scene.is_object() && scene.contains("playing") && scene["playing"] == false;
    if (explorer) {
        scene = initial_scene(o);
    } else {
        for (const std::string* f : {&o.from, &o.to, &o.via, &o.shape, &o.dtype, &o.c0, &o.fractal,
                                     &o.pad_value, &o.image, &o.colour, &o.stage})
            if (!f->empty())
                throw UsageError("--panel " + main_id +
                                 ": scene flags (--from, --shape, --stage, ...) belong to the "
                                 "explorer; give the panel's settings in a --scene file");
    }

    std::string cfg_dir = config_dir(o.no_config || headless);
    Settings st = load_settings_file(cfg_dir);
    bool size_given = o.size != "1280x800";
    if (headless || size_given || cfg_dir.empty()) st.width = w, st.height = h;
    if (!o.theme.empty()) st.dark = o.theme == "dark";
    if (o.ui_scale != 0) st.ui_scale = o.ui_scale;

    PlatformConfig cfg;
    cfg.width = st.width;
    cfg.height = st.height;
    // A screenshot shows what the window settles to: pictures of resting
    // stages are built at once rather than on a worker thread.
    render::PlanGpu::set_synchronous_pictures(!o.screenshot.empty());
    cfg.visible = !headless;
    cfg.vsync = !headless;
    Platform platform(cfg);
    if (!cfg_dir.empty()) {
        std::string ini = read_text(cfg_dir + "/imgui.ini");
        if (!ini.empty()) ImGui::LoadIniSettingsFromMemory(ini.c_str(), ini.size());
    }
    int code = 0;
    {
        Host host(platform, st, main_id);
        if (o.bench_frames > 0 && explorer && !rest) scene["playing"] = true, scene["loop"] = true;
        if (!scene.is_null()) host.main_panel().load_settings(scene);

        if (!o.signal_dir.empty()) {
            std::signal(SIGUSR1, on_usr1);
            std::signal(SIGTERM, on_term);
        }
        using clock = std::chrono::steady_clock;
        auto last = clock::now();
        int frames = 0, shots_done = 0;
        std::vector<double> cpu_ms, gpu_ms, wall_ms;
        GLuint query = 0;
        bool timer = o.bench_frames > 0 && GLAD_GL_VERSION_3_3;
        if (timer) glGenQueries(1, &query);
        int extra = 2;  // frames drawn after an event before waiting again
        while (!platform.should_close() && !g_quit.load()) {
            bool busy = host.busy() || extra > 0 || headless;
            if (!busy)
                platform.wait_events(o.signal_dir.empty() ? -1.0 : 0.1);
            else
                platform.wait_events(0);
            if (!busy) extra = 2;
            if (extra > 0) --extra;
            auto now = clock::now();
            double dt = std::chrono::duration<double>(now - last).count();
            last = now;
            if (!o.screenshot.empty()) dt = 0;
            if (o.bench_frames > 0) dt = 1.0 / 30;
            auto t0 = clock::now();
            host.update(std::min(dt, 0.1));
            host.frame();
            double cpu = 0, wall = 0;
            if (timer) glBeginQuery(GL_TIME_ELAPSED, query);
            bool shot = !o.screenshot.empty() && ++frames == 3;
            bool signal_shot = g_signal_shots.load() > shots_done;
            platform.render(
                st.dark ? 0.10f : 0.94f, st.dark ? 0.11f : 0.94f, st.dark ? 0.13f : 0.95f, [&] {
                    cpu = std::chrono::duration<double, std::milli>(clock::now() - t0).count();
                    if (timer) glEndQuery(GL_TIME_ELAPSED);
                    if (o.bench_frames > 0) {
                        glFinish();
                        wall = std::chrono::duration<double, std::milli>(clock::now() - t0).count();
                    }
                    if (shot) {
                        int fw = 0, fh = 0;
                        auto px = read_pixels(platform, fw, fh);
                        write_png_atomic(o.screenshot, fw, fh, px.data(), "--screenshot");
                    }
                    if (signal_shot) {
                        int fw = 0, fh = 0;
                        auto px = read_pixels(platform, fw, fh);
                        std::string base = o.signal_dir + "/shot-" + std::to_string(shots_done);
                        write_png_atomic(base + ".png", fw, fh, px.data(), "signal");
                        ++shots_done;
                    }
                });
            if (shot) {
                if (!o.dump_view.empty()) {
                    nlohmann::json j = host.main_panel().save_settings();
                    j["window"] = {w, h};
                    try {
                        write_file_atomic(o.dump_view, j.dump(2) + "\n");
                    } catch (const UsageError& e) {
                        throw UsageError(std::string("--dump-view: ") + e.what());
                    }
                }
                break;
            }
            if (o.bench_frames > 0) {
                if (timer) {
                    GLuint64 ns = 0;
                    glGetQueryObjectui64v(query, GL_QUERY_RESULT, &ns);
                    gpu_ms.push_back(double(ns) / 1e6);
                }
                cpu_ms.push_back(cpu);
                wall_ms.push_back(wall);
                if (++frames >= o.bench_frames) break;
            }
        }
        if (o.bench_frames > 0) {
            nlohmann::json j = host.main_panel().save_settings();
            auto text = [&j](const char* k) {
                auto it = j.find(k);
                return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
            };
            std::printf("bench: %d frames at %dx%d, scene %s -> %s shape %s\n", frames, w, h,
                        text("from").c_str(), text("to").c_str(), text("shape").c_str());
            std::printf("cpu ms/frame: median %.3f p95 %.3f\n", percentile(cpu_ms, 0.5),
                        percentile(cpu_ms, 0.95));
            if (timer)
                std::printf("gpu ms/frame (GL_TIME_ELAPSED): median %.3f p95 %.3f\n",
                            percentile(gpu_ms, 0.5), percentile(gpu_ms, 0.95));
            else
                std::printf("gpu ms/frame: timer queries unavailable\n");
            std::printf("wall ms/frame (cpu + glFinish): median %.3f p95 %.3f\n",
                        percentile(wall_ms, 0.5), percentile(wall_ms, 0.95));
        }
        if (query) glDeleteQueries(1, &query);
        if (!cfg_dir.empty()) {
            Settings out = host.settings();
            glfwGetWindowSize(platform.window(), &out.width, &out.height);
            save_settings_file(cfg_dir, out);
        }
        render::release_shared_gl();
    }
    return code;
}

}  // namespace ll::gui
