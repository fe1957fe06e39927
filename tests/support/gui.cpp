#include "tests/support/gui.hpp"

#include <cstdint>
#include <set>

namespace ll::test {

// tests/support/xvfb.sh: xvfb-run, with the command writing its own status to
// a file, so the command's exit status comes back even when xvfb-run's
// clean-up fails.
#define LAYOUTLAB_XVFB "sh '" LAYOUTLAB_SOURCE_DIR "/tests/support/xvfb.sh' "
const char* const kXvfb = "timeout 60 " LAYOUTLAB_XVFB;

std::string xvfb(int seconds) {
    return "timeout " + std::to_string(seconds) + " " LAYOUTLAB_XVFB;
}

std::string app_exe() {
#ifdef LAYOUTLAB_EXE
    return shell_quote(LAYOUTLAB_EXE);
#else
    return "layoutlab";  // built without the app: GUI tests are not registered
#endif
}

RunResult run_app(const std::string& args) {
    return run_shell(std::string(kXvfb) + app_exe() + " --no-config " + args);
}

Image panel_screenshot(const std::string& dir, const std::string& id, const std::string& settings,
                       const std::string& name, const std::string& size, std::string* err) {
    std::string png = dir + "/" + name + ".png";
    std::string args = "--panel " + id + " --size " + size + " --screenshot " + shell_quote(png);
    if (!settings.empty()) {
        std::string js = dir + "/" + name + ".json";
        run_shell("cat > " + shell_quote(js) + " <<'EOF_JSON'\n" + settings + "\nEOF_JSON\n");
        args += " --scene " + shell_quote(js);
    }
    RunResult r = run_app(args);
    if (err) *err = r.err;
    if (r.code != 0) return Image{};
    return load_png(png);
}

Driven drive_app(const std::string& dir, const std::string& app_args, const std::string& steps,
                 int shots) {
    const std::string script = R"SH(set -u
D="$1"
"$2" --no-config $3 --screenshot-on-signal "$D" &
pid=$!
wid=$(timeout 20 xdotool search --sync --onlyvisible --name LayoutLab | head -n1)
[ -n "$wid" ] || { kill $pid; echo "no window" >&2; exit 3; }
xdotool windowfocus --sync "$wid" 2>/dev/null || true
sleep 0.5
shoot() {
  kill -USR1 $pid
  for i in $(seq 100); do [ -f "$D/shot-$1.png" ] && return 0; sleep 0.1; done
  echo "no shot $1" >&2
}
)SH";
    const std::string sh = dir + "/drive.sh";
    run_shell("cat > " + shell_quote(sh) + " <<'EOF_SCRIPT'\n" + script + steps +
              "\nkill $pid; wait $pid\nexit 0\nEOF_SCRIPT\n");
    Driven d;
    d.run = run_shell(std::string(kXvfb) + "sh " + shell_quote(sh) + " " + shell_quote(dir) + " " +
                      app_exe() + " " + shell_quote(app_args));
    for (int i = 0; i < shots; ++i)
        d.shots.push_back(load_png(dir + "/shot-" + std::to_string(i) + ".png"));
    return d;
}

int distinct_colours(const Image& im) {
    std::set<uint32_t> seen;
    for (size_t i = 0; i + 3 < im.rgba.size(); i += 4 * 7)
        seen.insert(uint32_t(im.rgba[i]) << 16 | uint32_t(im.rgba[i + 1]) << 8 | im.rgba[i + 2]);
    return int(seen.size());
}

double difference(const Image& a, const Image& b) {
    if (a.width != b.width || a.height != b.height) return 1.0;
    size_t diff = 0;
    for (size_t i = 0; i < a.rgba.size(); i += 4)
        if (a.rgba[i] != b.rgba[i] || a.rgba[i + 1] != b.rgba[i + 1] ||
            a.rgba[i + 2] != b.rgba[i + 2])
            ++diff;
    return double(diff) / double(a.rgba.size() / 4);
}

}  // namespace ll::test
