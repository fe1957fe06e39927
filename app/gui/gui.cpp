// The window: hosts the panels of the registry, the menu, settings that are
// remembered between runs, and the headless modes (screenshot, benchmark,
// screenshots on a signal for tests). All modes run the same frame code.
//
// Sections: [options] [run]. The parts live beside it: config (remembered
// settings), scene_args (the scene from flags), host (panels, menu, style),
// capture (pixels, bench statistics).
#include "app/gui/gui.hpp"

// glad before GLFW, so GLFW does not pull in a system GL header.
#include <glad/gl.h>
//
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "app/gui/capture.hpp"
#include "app/gui/config.hpp"
#include "app/gui/frame_stats.hpp"
#include "app/gui/host.hpp"
#include "app/gui/lesson_run.hpp"
#include "app/gui/platform.hpp"
#include "app/gui/present_caption.hpp"
#include "app/gui/scene_args.hpp"
#include "app/i18n/fonts.hpp"
#include "app/i18n/text_audit.hpp"
#include "app/i18n/tr.hpp"
#include "app/panels/explorer_scene.hpp"
#include "app/panels/panel.hpp"
#include "app/render/plan_view.hpp"
#include "app/render/present.hpp"
#include "core/checked.hpp"
#include "core/error.hpp"
#include "core/io/atomic_file.hpp"

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
    app.add_option("--lang", o.lang, "language of the window: en or zh (remembered)");
    app.add_option("--dump-fonts", o.dump_fonts,
                   "with --screenshot: write the font atlas's glyph coverage as JSON")
        ->check(non_empty_path);
    app.add_option("--dump-text", o.dump_text,
                   "with --screenshot: write the text the window drew, and the catalog lookups "
                   "that found no translation, as JSON")
        ->check(non_empty_path);
    app.add_option("--ui-scale", o.ui_scale, "font/UI scale for projectors, 0.5..4, e.g. 1.5");
    app.add_option("--bench-frames", o.bench_frames,
                   "render N animating frames and print frame times");
    app.add_option("--screenshot-on-signal", o.signal_dir,
                   "tests: on SIGUSR1 write <dir>/shot-<n>.png");
    app.add_flag("--no-config", o.no_config, "do not read or write ~/.config/layoutlab");
    app.add_flag("--present", o.present,
                 "presentation mode: controls hidden, the diagram fills the window above a large "
                 "caption of the stage (F5 or View > Presentation mode toggles it, Esc leaves)");
    add_record_options(app, o.rec);
    app.add_option("--lesson", o.lesson,
                   "open a lesson (JSON slides: a scene, a title and notes each; see README); "
                   "PageDown/PageUp move between slides, N hides the notes")
        ->check(non_empty_path);
    app.add_option("--slide", o.slide,
                   "with --lesson: start at slide N (1 = the first); with --record, record "
                   "that slide alone");
    app.add_option("--hold", o.hold,
                   "with --lesson --record: seconds each still slide is held (default: the "
                   "lesson's \"hold\", else 4)");
}

namespace {

// A string member of a settings object, "" when absent or not a string.
std::string text_of(const nlohmann::json& j, const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

void parse_size(const std::string& s, int& w, int& h) {
    if (std::sscanf(s.c_str(), "%dx%d", &w, &h) != 2 || w < 64 || h < 64 || w > 8192 || h > 8192)
        throw UsageError("--size: '" + s + "' is not a size; expected WxH such as 1600x1000");
}

// ---- [run] ----------------------------------------------------------------------

// --dump-view's "diagram": the screen rectangle [x0, y0, x1, y1] the frame's
// diagrams covered (app/render/present.hpp), and whether presentation mode was on.
void add_diagram_probe(nlohmann::json& j, bool present) {
    ImVec2 a, b;
    j["present"] = present;
    if (render::diagram_bounds(a, b)) j["diagram"] = {a.x, a.y, b.x, b.y};
    const render::Display& d = render::display();
    if (present) j["slide"] = {d.slide_min.x, d.slide_min.y, d.slide_max.x, d.slide_max.y};
    if (present)
        for (const CaptionLine& l : caption_lines())
            j["caption"].push_back(
                {{"text", l.text}, {"rect", {l.x, l.y, l.w, l.h}}, {"room", {l.min_x, l.max_x}}});
}

// The window's language: chosen (--lang, or remembered), else Chinese when
// the user's locale is (not in headless runs: tests and recordings must not
// depend on the environment), else English.
i18n::Lang window_language(const std::string& chosen, bool headless) {
    i18n::Lang l = i18n::Lang::en;
    if (i18n::parse_lang(chosen, l) || headless) return l;
    for (const char* var : {"LC_ALL", "LC_MESSAGES", "LANG"}) {
        const char* v = std::getenv(var);
        if (v && *v) return std::string(v).rfind("zh", 0) == 0 ? i18n::Lang::zh : i18n::Lang::en;
    }
    return l;
}

// Checks every flag before a window opens; returns the full-window panel's id
// and its scene (the explorer: the scene from the flags).
std::string prepare(const Options& o, int& w, int& h, nlohmann::json& scene, bool& rest) {
    parse_size(o.size, w, h);
    if (o.bench_frames < 0) throw UsageError("--bench-frames: expected a positive frame count");
    if (!o.theme.empty() && o.theme != "dark" && o.theme != "light")
        throw UsageError("--theme: '" + o.theme + "' is unknown; expected dark or light");
    i18n::Lang lang;
    if (!o.lang.empty() && !i18n::parse_lang(o.lang, lang))
        throw UsageError("--lang: '" + o.lang + "' is unknown; expected en or zh");
    if (!o.dump_fonts.empty() && o.screenshot.empty())
        throw UsageError(
            "--dump-fonts: needs --screenshot; expected --screenshot FILE.png "
            "--dump-fonts FILE.json");
    if (!o.dump_fonts.empty()) check_writable(o.dump_fonts, "--dump-fonts");
    if (!o.dump_text.empty() && o.screenshot.empty())
        throw UsageError(
            "--dump-text: needs --screenshot; expected --screenshot FILE.png "
            "--dump-text FILE.json");
    if (!o.dump_text.empty()) check_writable(o.dump_text, "--dump-text");
    if (o.ui_scale != 0) checked_float(o.ui_scale, "--ui-scale", 0.5, 4);  // nan, inf too
    if (!o.dump_view.empty() && o.screenshot.empty())
        throw UsageError(
            "--dump-view: needs --screenshot (the view is dumped after the "
            "screenshot's frame); expected --screenshot FILE.png --dump-view FILE.json");
    if (!o.screenshot.empty()) check_writable(o.screenshot, "--screenshot");
    if (!o.dump_view.empty()) check_writable(o.dump_view, "--dump-view");
    if (!o.lesson.empty()) return "";  // the lesson's slides choose (open_lesson)
    std::string main_id = main_panel_id(o, scene);
    // The benchmark animates, unless the scene file says "playing": false
    // (then it times redraws at rest: a pan, a hover).
    rest = scene.is_object() && scene.contains("playing") && scene["playing"] == false;
    if (main_id == panel_registry().front().id) {
        scene = initial_scene(o);
    } else {
        for (const std::string* f : {&o.from, &o.to, &o.via, &o.shape, &o.dtype, &o.c0, &o.fractal,
                                     &o.pad_value, &o.image, &o.colour, &o.stage})
            if (!f->empty())
                throw UsageError("--panel " + main_id +
                                 ": scene flags (--from, --shape, --stage, ...) belong to the "
                                 "explorer; give the panel's settings in a --scene file");
    }
    return main_id;
}

// Frame times of --bench-frames: the CPU part (update + building the frame),
// the GPU part (a GL timer query) and the wall time up to glFinish.
struct BenchStats {
    std::vector<double> cpu_ms, gpu_ms, wall_ms;
    bool timer = false;
    void print(int frames, int w, int h, const nlohmann::json& scene) const {
        std::printf("bench: %d frames at %dx%d, scene %s -> %s shape %s\n", frames, w, h,
                    text_of(scene, "from").c_str(), text_of(scene, "to").c_str(),
                    text_of(scene, "shape").c_str());
        std::printf("cpu ms/frame: median %.3f p95 %.3f\n", percentile(cpu_ms, 0.5),
                    percentile(cpu_ms, 0.95));
        if (timer)
            std::printf("gpu ms/frame (GL_TIME_ELAPSED): median %.3f p95 %.3f\n",
                        percentile(gpu_ms, 0.5), percentile(gpu_ms, 0.95));
        else
            std::printf("gpu ms/frame: timer queries unavailable\n");
        std::printf("wall ms/frame (cpu + glFinish): median %.3f p95 %.3f\n",
                    percentile(wall_ms, 0.5), percentile(wall_ms, 0.95));
        std::fputs(frame_stats::report().c_str(), stdout);
    }
};

// The frame loop every mode shares: interactive (redraw while busy or on
// input), a screenshot (third frame, dt 0), a benchmark (fixed dt).
void frame_loop(const Options& o, Platform& platform, Host& host, const Settings& st, int w, int h,
                bool recording) {
    using clock = std::chrono::steady_clock;
    const bool headless = !o.screenshot.empty() || o.bench_frames > 0 || recording;
    auto last = clock::now();
    int frames = 0, shots_done = 0;
    BenchStats bench;
    GLuint query = 0;
    bench.timer = o.bench_frames > 0 && GLAD_GL_VERSION_3_3;
    if (bench.timer) glGenQueries(1, &query);
    frame_stats::enable(o.bench_frames > 0);
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
        if (recording && !o.lesson.empty()) dt = 0;  // slides rest; the recorder moves them
        if (o.bench_frames > 0) dt = 1.0 / 30;
        auto t0 = clock::now();
        frame_stats::frame_begin();
        {
            frame_stats::Scope app(frame_stats::Part::app_frame);
            host.update(std::min(dt, 0.1));
            host.frame();
        }
        double cpu = 0, wall = 0;
        if (bench.timer) glBeginQuery(GL_TIME_ELAPSED, query);
        bool shot = !o.screenshot.empty() && ++frames == 3;
        bool signal_shot = g_signal_shots.load() > shots_done;
        platform.render(
            st.dark ? 0.10f : 0.94f, st.dark ? 0.11f : 0.94f, st.dark ? 0.13f : 0.95f, [&] {
                cpu = std::chrono::duration<double, std::milli>(clock::now() - t0).count();
                if (bench.timer) glEndQuery(GL_TIME_ELAPSED);
                if (o.bench_frames > 0) {
                    frame_stats::Scope fin(frame_stats::Part::gl_finish);
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
                j["probe"] = host.main_panel().probe();
                j["window"] = {w, h};
                add_diagram_probe(j, host.present());
                // The View menu's panel items (the probe holds what is not a setting).
                if (!j["probe"].is_object()) j["probe"] = nlohmann::json::object();
                for (const Host::ViewMenuItem& m : host.view_menu_items())
                    j["probe"]["view_menu"].push_back(
                        {{"id", m.id}, {"main", m.main}, {"open", m.open}});
                try {
                    write_file_atomic(o.dump_view, j.dump(2) + "\n");
                } catch (const UsageError& e) {
                    throw UsageError(std::string("--dump-view: ") + e.what());
                }
            }
            if (!o.dump_fonts.empty()) {
                try {
                    write_file_atomic(o.dump_fonts, i18n::font_report().dump(2) + "\n");
                } catch (const UsageError& e) {
                    throw UsageError(std::string("--dump-fonts: ") + e.what());
                }
            }
            if (!o.dump_text.empty()) {
                try {
                    write_file_atomic(o.dump_text, i18n::audit::report().dump(2) + "\n");
                } catch (const UsageError& e) {
                    throw UsageError(std::string("--dump-text: ") + e.what());
                }
            }
            break;
        }
        if (recording && !host.recorder().active()) break;
        if (o.bench_frames > 0) {
            if (bench.timer) {
                GLuint64 ns = 0;
                glGetQueryObjectui64v(query, GL_QUERY_RESULT, &ns);
                bench.gpu_ms.push_back(double(ns) / 1e6);
            }
            bench.cpu_ms.push_back(cpu);
            frame_stats::frame_end();
            bench.wall_ms.push_back(wall);
            if (++frames >= o.bench_frames) break;
        }
    }
    if (o.bench_frames > 0) bench.print(frames, w, h, host.main_panel().save_settings());
    if (query) glDeleteQueries(1, &query);
}

}  // namespace

int run(const Options& given) {
    Options o = given;
    const auto rec = take_record_request(o.rec, o.stage);  // its --stage range taken out
    int w = 0, h = 0;
    bool rest = false;
    nlohmann::json scene;
    // Usage errors come before any window opens.
    std::optional<LessonDeck> deck = open_lesson(o);
    std::string main_id = prepare(o, w, h, scene, rest);
    const size_t first_slide = o.slide > 0 ? size_t(o.slide - 1) : 0;
    if (deck) main_id = slide_panel(*deck, first_slide);
    const bool explorer = main_id == panel_registry().front().id;
    const bool headless = !o.screenshot.empty() || o.bench_frames > 0 || rec;

    std::string cfg_dir = config_dir(o.no_config || headless);
    Settings st = load_settings_file(cfg_dir);
    bool size_given = o.size != "1280x800";
    if (headless || size_given || cfg_dir.empty()) st.width = w, st.height = h;
    if (!o.theme.empty()) st.dark = o.theme == "dark";
    if (o.ui_scale != 0) st.ui_scale = o.ui_scale;
    if (!o.lang.empty()) st.lang = o.lang;
    i18n::set_language(window_language(st.lang, headless));
    if (!o.dump_text.empty()) i18n::audit::enable();

    int code = 0;
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
    // Chinese titles, notes and file names in the scene: baked with the
    // first atlas rather than in a second one a frame later.
    if (!scene.is_null()) i18n::want_glyphs_in(scene);
    {
        Host host(platform, st, main_id);
        host.set_present(o.present);
        if (o.bench_frames > 0 && explorer && !rest) scene["playing"] = true, scene["loop"] = true;
        if (!scene.is_null()) host.main_panel().load_settings(scene);
        if (deck) {
            host.set_lesson(&*deck);
            // Every slide loads once here: a bad scene is an error before anything shows.
            auto segs = check_slides(host, *deck, o.hold, first_slide);
            // --slide N --record: that slide alone; otherwise the whole lecture.
            const bool one = o.slide > 0;
            if (one) segs = {segs[first_slide]};
            if (rec)
                host.recorder().start_lesson(*rec, segs, [&host, one, first_slide](size_t i) {
                    host.show_slide(one ? first_slide : i);
                });
        } else if (rec) {
            host.recorder().start(*rec, host.main_panel());
        }
        if (!o.signal_dir.empty()) install_test_signals();
        frame_loop(o, platform, host, st, w, h, bool(rec));
        if (rec) code = host.recorder().report();
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
