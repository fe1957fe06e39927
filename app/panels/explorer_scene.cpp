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

Scene read_scene(const SceneReader& r, const std::string& base_dir) {
    // Every key a scene may hold; the report keys --dump-view adds are
    // accepted (and ignored) so that a dump loads back as a scene.
    r.only({"from", "to", "via", "shape", "dtype", "c0", "fractal", "src_fractal", "heads",
            "groups", "pad_value", "image", "colour", "stage", "speed", "loop", "cameras", "select",
            "playing", "_base_dir",
            // staged motion ("none", "row", "block"), read by the explorer panel:
            "waves",
            // written by older --dump-view files (now under "probe"), ignored:
            "inspect", "shape_field", "stages", "cells", "block_size", "plan_ms", "gpu_load_ms",
            "follow", "sidebar", "padding"});
    Scene s;
    r.get("from", s.from);
    r.get("to", s.to);
    r.get("via", s.via);
    if (r.has("shape")) {
        if (r.at("shape").is_string()) {
            r.get("shape", s.shape);
        } else {
            std::vector<int64_t> dims;
            r.get_list("shape", dims, kMaxRank, 1, kMaxElements);
            std::string t;
            for (int64_t d : dims) t += (t.empty() ? "" : ",") + std::to_string(d);
            s.shape = t;
        }
    }
    r.get("dtype", s.dtype);
    r.get("c0", s.c0, 0, kMaxC0);
    r.get("fractal", s.fractal);
    r.get("src_fractal", s.src_fractal);
    r.get("pad_value", s.pad_value, -DBL_MAX, DBL_MAX);
    r.get("image", s.image);
    if (!s.image.empty()) s.image = resolve(s.image, base_dir);
    r.get("heads", s.heads, 0, kMaxElements);
    r.get("groups", s.groups, 0, kMaxElements);
    std::vector<std::string> colours;
    for (ColourMode m : all_colour_modes()) colours.push_back(name(m));
    r.get_choice("colour", s.colour, colours);
    if (r.has("stage")) {
        // A stage number (fractional while gliding) or "last"; checked
        // against the plan's stages when the plan is built (parse_stage).
        if (r.at("stage").is_number()) {
            double v = 0;
            r.get("stage", v, 0, 1e9);
            s.stage = number_text(v);
        } else if (r.at("stage").is_string()) {
            r.get("stage", s.stage);
        } else {
            r.fail("stage", r.at("stage"), "a stage number or \"last\"");
        }
    }
    r.get("speed", s.speed, 0.f, float(kMaxSpeed));
    r.get("loop", s.loop);
    bool playing = false;  // read by the panel (ExplorerPanel::load_settings)
    r.get("playing", playing);
    r.get("select", s.select, -1, kMaxElements);
    r.get_choice("waves", s.waves, {"none", "row", "block"});
    if (r.has("cameras")) {
        const auto& cams = r.at("cameras");
        const char* one = "{\"zoom\", \"pan_x\", \"pan_y\"} or null";
        if (!cams.is_array() || cams.size() > 2)
            r.fail("cameras", cams, std::string("a list of at most 2 cameras, each ") + one);
        for (size_t i = 0; i < cams.size(); ++i) {
            if (cams[i].is_null()) continue;
            const SceneReader c = r.item("cameras", i);
            if (!cams[i].is_object())
                r.fail(("cameras[" + std::to_string(i) + "]").c_str(), cams[i], one);
            c.only({"zoom", "pan_x", "pan_y"});
            CameraSetting& cam = s.cameras[i];
            cam.set = true;
            c.get("zoom", cam.zoom, 1e-6f, 1e6f);
            c.get("pan_x", cam.pan_x, -1e12f, 1e12f);
            c.get("pan_y", cam.pan_y, -1e12f, 1e12f);
        }
    }
    return s;
}

Scene scene_from_json(const nlohmann::json& j, const std::string& base_dir) {
    return read_scene(SceneReader(j, "explorer"), base_dir);
}

Scene load_scene_file(const std::string& path) {
    // Bounded: a regular file of at most 16 MiB, nesting at most 64 deep.
    nlohmann::json j = read_json_file(path, "--scene", kMaxJsonFileBytes);
    return scene_from_json(j, dir_of(path));
}

void save_scene_file(const Scene& s, const std::string& path) {
    write_file_atomic(path, to_json(s).dump(2) + "\n");
}

std::string error_field(const UsageError& e) {
    // The engine's key names the parameter; the explorer has one field for
    // the three format choices, one for heads and groups, one for both
    // fractal sizes and one for the padding value.
    const std::string& k = e.key();
    if (k == "from" || k == "to" || k == "via" || k == "from_to") return "format";
    if (k == "heads_groups" || k == "groups") return "heads";
    if (k == "src_fractal") return "fractal";
    if (k == "pad_value") return "pad";
    return k;
}

namespace {

// Too many cells for one window: memory for positions grows 16 B per cell.
constexpr int64_t kMaxCells = int64_t(1) << 25;
// Largest picture file read (PNG/JPEG).
constexpr int64_t kMaxImageFileBytes = int64_t(64) << 20;

// "RxC" -> rows, cols; `key` names the field the error is about.
void parse_rxc(const std::string& text, const char* key, int64_t& rows, int64_t& cols) {
    long long r = 0, k = 0;
    if (std::sscanf(text.c_str(), "%lldx%lld", &r, &k) != 2 || r <= 0 || k <= 0)
        throw UsageError(key, "'" + text + "' is not RxC; expected e.g. 16x16");
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
            parse_rxc(s.src_fractal, "src_fractal", c.src_fractal_rows, c.src_fractal_cols);
    }
    c.from = format_from_name(from);
    c.to = format_from_name(to);
    c.shape = std::move(shape);
    c.dtype = dtype_from_name(s.dtype);
    c.c0 = s.c0;
    c.pad_value = s.pad_value;
    if (!s.fractal.empty()) parse_rxc(s.fractal, "fractal", c.fractal_rows, c.fractal_cols);
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
        try {
            check_input_file(s.image, "", kMaxImageFileBytes);
        } catch (const UsageError& e) {
            throw UsageError("image", e.what());
        }
        if (!stbi_info(s.image.c_str(), &iw, &ih, &n))
            throw UsageError("image", "cannot read '" + s.image + "' (" + stbi_failure_reason() +
                                          "); expected a PNG or JPEG file");
        if (int64_t(iw) * int64_t(ih) * 3 > kMaxCells)
            throw UsageError(
                "image", "'" + s.image + "' is " + std::to_string(iw) + "x" + std::to_string(ih) +
                             " pixels, " + std::to_string(int64_t(iw) * int64_t(ih) * 3) +
                             " cells with 3 channels, over the window's limit of " +
                             std::to_string(kMaxCells) + "; expected a smaller picture");
        unsigned char* data = stbi_load(s.image.c_str(), &iw, &ih, &n, 3);
        if (!data)
            throw UsageError("image", "cannot read '" + s.image + "'; expected a PNG or JPEG file");
        pixels.assign(data, data + size_t(iw) * size_t(ih) * 3);
        stbi_image_free(data);
        shape = image_tensor_shape(format_from_name(s.from), ih, iw);
    } else {
        shape = parse_shape(s.shape, "shape");
    }
    std::optional<Format> via;
    if (!s.via.empty()) via = format_from_name(s.via);
    std::vector<Pipeline> chain = conversion_chain(spec_of(s, s.from, s.to, shape), via);
    int64_t cells = numel(chain.back().dst_shape);
    if (cells > kMaxCells)
        throw UsageError(
            "shape",
            std::to_string(cells) +
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
        throw UsageError("stage",
                         "'" + text + "' is not a stage; expected 0.." + buf + " or 'last'");
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
