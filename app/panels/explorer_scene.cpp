#include "app/panels/explorer_scene.hpp"

#include <stb_image.h>
#include <stb_image_write.h>

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "core/checked.hpp"
#include "core/error.hpp"
#include "core/format/chain.hpp"
#include "core/format/format.hpp"
#include "core/format/format_plan.hpp"
#include "core/io/atomic_file.hpp"
#include "core/io/input_file.hpp"
#include "core/io/json_input.hpp"

namespace ll::gui {

namespace {

bool exists(const std::string& p) {
    std::ifstream f(p);
    return bool(f);
}

std::string dir_of(const std::string& path) {
    auto slash = path.find_last_of('/');
    return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

// A relative picture path is looked up from the current folder, then next to
// the scene file, then in the source tree (so shipped scenes work anywhere).
std::string resolve(const std::string& path, const std::string& base_dir) {
    if (path.empty() || path[0] == '/' || exists(path)) return path;
    if (!base_dir.empty() && exists(base_dir + "/" + path))  // "scenes/../x.png" -> "x.png"
        return std::filesystem::path(base_dir + "/" + path).lexically_normal().string();
    std::string src = std::string(LAYOUTLAB_SOURCE_DIR) + "/" + path;
    if (exists(src)) return src;
    return path;
}

}  // namespace

nlohmann::json to_json(const Scene& s) {
    nlohmann::json j = {{"from", s.from},   {"to", s.to},          {"shape", s.shape},
                        {"dtype", s.dtype}, {"colour", s.colour},  {"stage", s.stage},
                        {"speed", s.speed}, {"loop", s.loop},      {"pad_value", s.pad_value},
                        {"c0", s.c0},       {"fractal", s.fractal}};
    if (!s.via.empty()) j["via"] = s.via;
    if (!s.src_fractal.empty()) j["src_fractal"] = s.src_fractal;
    if (s.heads > 0) j["heads"] = s.heads;
    if (s.groups > 0) j["groups"] = s.groups;
    if (!s.image.empty()) j["image"] = s.image;
    if (s.select >= 0) j["select"] = s.select;
    if (s.waves != "none") j["waves"] = s.waves;
    // Position i is view i; null = framed automatically (the right view follows the stage).
    if (s.cameras[0].set || s.cameras[1].set)
        for (const CameraSetting& c : s.cameras)
            j["cameras"].push_back(
                c.set ? nlohmann::json{{"zoom", c.zoom}, {"pan_x", c.pan_x}, {"pan_y", c.pan_y}}
                      : nlohmann::json());
    return j;
}

Scene scene_from_json(const nlohmann::json& j, const std::string& base_dir) {
    if (!j.is_object()) throw UsageError("--scene: expected a JSON object");
    // Every key a scene may hold; the report keys --dump-view adds are
    // accepted (and ignored) so that a dump loads back as a scene.
    reject_unknown_keys(j,
                        {"from", "to", "via", "shape", "dtype", "c0", "fractal", "src_fractal",
                         "heads", "groups", "pad_value", "image", "colour", "stage", "speed",
                         "loop", "cameras", "select", "playing", "panel", "_base_dir",
                         // staged motion ("none", "row", "block"), read by the explorer panel:
                         "waves",
                         // written by --dump-view, ignored on load:
                         "screen", "inspect", "shape_field", "stages", "cells", "block_size",
                         "plan_ms", "gpu_load_ms", "window", "follow"},
                        "--scene");
    auto has = [&](const char* k) { return j.contains(k); };
    auto key = [](const char* k) { return std::string("--scene: \"") + k + "\""; };
    Scene s;
    if (has("from")) s.from = json_string(j["from"], key("from"));
    if (has("to")) s.to = json_string(j["to"], key("to"));
    if (has("via")) s.via = json_string(j["via"], key("via"));
    if (has("shape")) {
        const auto& sh = j["shape"];
        if (sh.is_array()) {
            check_rank(sh.size(), key("shape"));
            std::string t;
            for (const auto& d : sh)
                t += (t.empty() ? "" : ",") +
                     std::to_string(json_int(d, key("shape") + " entry", 1, kMaxElements));
            s.shape = t;
        } else {
            s.shape = json_string(sh, key("shape"));
        }
    }
    if (has("dtype")) s.dtype = json_string(j["dtype"], key("dtype"));
    if (has("c0")) s.c0 = json_int(j["c0"], key("c0"), 0, kMaxC0);
    if (has("fractal")) s.fractal = json_string(j["fractal"], key("fractal"));
    if (has("pad_value"))
        s.pad_value = json_float(j["pad_value"], key("pad_value"), -DBL_MAX, DBL_MAX);
    if (has("image")) s.image = json_string(j["image"], key("image"));
    if (has("src_fractal")) s.src_fractal = json_string(j["src_fractal"], key("src_fractal"));
    if (has("heads")) s.heads = json_int(j["heads"], key("heads"), 0, kMaxElements);
    if (has("groups")) s.groups = json_int(j["groups"], key("groups"), 0, kMaxElements);
    if (!s.image.empty()) s.image = resolve(s.image, base_dir);
    if (has("colour")) s.colour = json_string(j["colour"], key("colour"));
    if (has("stage")) {
        const auto& st = j["stage"];
        s.stage = st.is_number() ? number_text(json_float(st, key("stage"), 0, 1e9))
                                 : json_string(st, key("stage"));
    }
    if (has("speed")) s.speed = float(json_float(j["speed"], key("speed"), 0, kMaxSpeed));
    if (has("loop")) s.loop = json_bool(j["loop"], key("loop"));
    if (has("playing")) json_bool(j["playing"], key("playing"));
    if (has("select")) s.select = json_int(j["select"], key("select"), -1, kMaxElements);
    if (has("waves")) {
        s.waves = json_string(j["waves"], key("waves"));
        if (s.waves != "none" && s.waves != "row" && s.waves != "block")
            throw UsageError(key("waves") + ": '" + s.waves + "'; expected none, row or block");
    }
    if (has("cameras")) {
        const auto& cams = j["cameras"];
        if (!cams.is_array() || cams.size() > 2)
            throw UsageError(key("cameras") + ": " + json_kind(cams) + " of " +
                             std::to_string(cams.size()) +
                             "; expected a list of at most 2 cameras, each "
                             "{\"zoom\", \"pan_x\", \"pan_y\"} or null");
        for (size_t i = 0; i < cams.size(); ++i) {
            const auto& c = cams[i];
            const std::string w = key("cameras") + "[" + std::to_string(i) + "]";
            if (c.is_null()) continue;
            if (!c.is_object())
                throw UsageError(w + ": " + json_kind(c) +
                                 "; expected {\"zoom\", \"pan_x\", \"pan_y\"} or null");
            reject_unknown_keys(c, {"zoom", "pan_x", "pan_y"}, w);
            s.cameras[i].set = true;
            if (c.contains("zoom"))
                s.cameras[i].zoom = float(json_float(c["zoom"], w + ".zoom", 1e-6, 1e6));
            if (c.contains("pan_x"))
                s.cameras[i].pan_x = float(json_float(c["pan_x"], w + ".pan_x", -1e12, 1e12));
            if (c.contains("pan_y"))
                s.cameras[i].pan_y = float(json_float(c["pan_y"], w + ".pan_y", -1e12, 1e12));
        }
    }
    colour_mode_from_name(s.colour);  // validates
    return s;
}

Scene load_scene_file(const std::string& path) {
    nlohmann::json j = read_json_file(path, "--scene", kMaxJsonFileBytes);
    return scene_from_json(j, dir_of(path));
}

void save_scene_file(const Scene& s, const std::string& path) {
    write_file_atomic(path, to_json(s).dump(2) + "\n");
}

std::string error_field(const UsageError& e) {
    // The engine's key names the parameter; the explorer has one field for
    // the three format choices and one for the padding value.
    const std::string& k = e.key();
    if (k == "from" || k == "to" || k == "via") return "format";
    if (k == "pad_value") return "pad";
    if (!k.empty()) return k;
    // Messages from parts of the engine that do not key their errors yet
    // start with the flag they are about.
    const std::string m = e.what();
    if (m.rfind("--heads", 0) == 0 || m.rfind("--groups", 0) == 0) return "heads";
    if (m.rfind("--src-fractal", 0) == 0) return "fractal";
    for (const char* f : {"shape", "c0", "fractal", "dtype", "image"})
        if (m.rfind(std::string("--") + f, 0) == 0) return f;
    if (m.rfind("--from", 0) == 0 || m.rfind("--to", 0) == 0 || m.rfind("--via", 0) == 0)
        return "format";
    if (m.rfind("--pad", 0) == 0) return "pad";
    if (m.find("shape") != std::string::npos) return "shape";
    return "";
}

namespace {

// Too many cells for one window: memory for positions grows 16 B per cell.
constexpr int64_t kMaxCells = int64_t(1) << 25;
// Largest picture file read (PNG/JPEG).
constexpr int64_t kMaxImageFileBytes = int64_t(64) << 20;

// "RxC" -> rows, cols; `flag` names the field in the message.
void parse_rxc(const std::string& text, const char* flag, int64_t& rows, int64_t& cols) {
    long long r = 0, k = 0;
    if (std::sscanf(text.c_str(), "%lldx%lld", &r, &k) != 2 || r <= 0 || k <= 0)
        throw UsageError(std::string(flag) + ": '" + text + "' is not RxC; expected e.g. 16x16");
    rows = r;
    cols = k;
}

// `first`: the scene's source side (heads and the source fractal apply there).
ConvertSpec spec_of(const Scene& s, const std::string& from, const std::string& to, Shape shape,
                    bool first = true) {
    ConvertSpec c;
    if (first) {
        c.heads = s.heads;
        c.groups = s.groups;
        if (!s.src_fractal.empty())
            parse_rxc(s.src_fractal, "--src-fractal", c.src_fractal_rows, c.src_fractal_cols);
    }
    c.from = format_from_name(from);
    c.to = format_from_name(to);
    c.shape = std::move(shape);
    c.dtype = dtype_from_name(s.dtype);
    c.c0 = s.c0;
    c.pad_value = s.pad_value;
    if (!s.fractal.empty()) parse_rxc(s.fractal, "--fractal", c.fractal_rows, c.fractal_cols);
    return c;
}

}  // namespace

std::shared_ptr<Plan> build_plan(const Scene& s) {
    Shape shape;
    std::vector<unsigned char> pixels;
    int iw = 0, ih = 0;
    if (!s.image.empty()) {
        int n = 0;
        // The file (regular, bounded) and the picture's size from its header
        // before anything is decoded: a small file can hold a huge picture.
        check_input_file(s.image, "--image", kMaxImageFileBytes);
        if (!stbi_info(s.image.c_str(), &iw, &ih, &n))
            throw UsageError("--image: cannot read '" + s.image + "' (" + stbi_failure_reason() +
                             "); expected a PNG or JPEG file");
        if (int64_t(iw) * int64_t(ih) * 3 > kMaxCells)
            throw UsageError("--image: '" + s.image + "' is " + std::to_string(iw) + "x" +
                             std::to_string(ih) + " pixels, " +
                             std::to_string(int64_t(iw) * int64_t(ih) * 3) +
                             " cells with 3 channels, over the window's limit of " +
                             std::to_string(kMaxCells) + "; expected a smaller picture");
        unsigned char* data = stbi_load(s.image.c_str(), &iw, &ih, &n, 3);
        if (!data)
            throw UsageError("--image: cannot read '" + s.image + "'; expected a PNG or JPEG file");
        pixels.assign(data, data + size_t(iw) * size_t(ih) * 3);
        stbi_image_free(data);
        shape = image_tensor_shape(format_from_name(s.from), ih, iw);
    } else {
        shape = parse_shape(s.shape, "--shape");
    }
    std::optional<Format> via;
    if (!s.via.empty()) via = format_from_name(s.via);
    std::vector<Pipeline> chain = conversion_chain(spec_of(s, s.from, s.to, shape), via);
    int64_t cells = numel(chain.back().dst_shape);
    if (cells > kMaxCells)
        throw UsageError(
            "--shape: " + std::to_string(cells) +
            " elements after conversion is too many for the window; expected at most " +
            std::to_string(kMaxCells));
    auto p = std::make_shared<Plan>(format_plan(chain));
    if (!pixels.empty())
        p->values = image_tensor_values(format_from_name(s.from), pixels.data(), ih, iw);
    return p;
}

float parse_stage(const std::string& text, size_t n) {
    float last = float(n > 0 ? n - 1 : 0);
    if (text == "last" || text == "end") return last;
    char* end = nullptr;
    float v = std::strtof(text.c_str(), &end);
    if (text.empty() || end == text.c_str() || *end != '\0' || !std::isfinite(v) || v < 0 ||
        v > last + 1e-4f) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%g", double(last));
        throw UsageError("--stage: '" + text + "' is not a stage; expected 0.." + buf +
                         " or 'last'");
    }
    return std::min(v, last);
}

namespace {
extern "C" void append_png_bytes(void* ctx, void* data, int size) {
    static_cast<std::string*>(ctx)->append(static_cast<const char*>(data), size_t(size));
}
}  // namespace

void write_png_atomic(const std::string& path, int w, int h, const unsigned char* rgba,
                      const std::string& what) {
    // Encoded in memory, then written by the checked writer: every byte and
    // the close are checked before the rename (stb's own file writer ignores
    // write errors, so a full disk left a truncated PNG behind).
    std::string png;
    if (!stbi_write_png_to_func(append_png_bytes, &png, w, h, 4, rgba, w * 4))
        throw UsageError(what + ": cannot encode a " + std::to_string(w) + "x" + std::to_string(h) +
                         " PNG; expected a smaller picture");
    try {
        write_file_atomic(path, png);
    } catch (const UsageError& e) {
        throw UsageError(what + ": " + e.what());
    }
}

}  // namespace ll::gui
