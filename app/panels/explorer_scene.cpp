#include "app/panels/explorer_scene.hpp"

#include <stb_image.h>
#include <stb_image_write.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "core/error.hpp"
#include "core/format/chain.hpp"
#include "core/format/format_plan.hpp"

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

template <class T>
T get(const nlohmann::json& j, const char* key, T fallback) {
    if (!j.contains(key)) return fallback;
    try {
        return j.at(key).get<T>();
    } catch (const nlohmann::json::exception&) {
        throw UsageError(std::string("--scene: key '") + key + "' has the wrong type");
    }
}

}  // namespace

nlohmann::json to_json(const Scene& s) {
    nlohmann::json j = {{"from", s.from},   {"to", s.to},          {"shape", s.shape},
                        {"dtype", s.dtype}, {"colour", s.colour},  {"stage", s.stage},
                        {"speed", s.speed}, {"loop", s.loop},      {"pad_value", s.pad_value},
                        {"c0", s.c0},       {"fractal", s.fractal}};
    if (!s.via.empty()) j["via"] = s.via;
    if (!s.image.empty()) j["image"] = s.image;
    if (s.select >= 0) j["select"] = s.select;
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
    Scene s;
    s.from = get(j, "from", s.from);
    s.to = get(j, "to", s.to);
    s.via = get(j, "via", s.via);
    if (j.contains("shape") && j["shape"].is_array()) {
        std::string t;
        for (const auto& d : j["shape"])
            t += (t.empty() ? "" : ",") + std::to_string(d.get<int64_t>());
        s.shape = t;
    } else {
        s.shape = get(j, "shape", s.shape);
    }
    s.dtype = get(j, "dtype", s.dtype);
    s.c0 = get<int64_t>(j, "c0", s.c0);
    s.fractal = get(j, "fractal", s.fractal);
    s.pad_value = get(j, "pad_value", s.pad_value);
    s.image = get(j, "image", s.image);
    if (!s.image.empty()) s.image = resolve(s.image, base_dir);
    s.colour = get(j, "colour", s.colour);
    if (j.contains("stage"))
        s.stage = j["stage"].is_number() ? j["stage"].dump() : get<std::string>(j, "stage", "0");
    s.speed = get(j, "speed", s.speed);
    s.loop = get(j, "loop", s.loop);
    s.select = get<int64_t>(j, "select", s.select);
    if (s.select < -1)
        throw UsageError("--scene: 'select' must be a cell index >= 0, or -1 for none");
    if (j.contains("cameras") && j["cameras"].is_array()) {
        for (size_t i = 0; i < 2 && i < j["cameras"].size(); ++i) {
            const auto& c = j["cameras"][i];
            if (!c.is_object()) continue;
            s.cameras[i].set = true;
            s.cameras[i].zoom = get(c, "zoom", 8.f);
            s.cameras[i].pan_x = get(c, "pan_x", 0.f);
            s.cameras[i].pan_y = get(c, "pan_y", 0.f);
            if (!(s.cameras[i].zoom > 0)) throw UsageError("--scene: camera zoom must be > 0");
        }
    }
    colour_mode_from_name(s.colour);  // validates
    return s;
}

Scene load_scene_file(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw UsageError("--scene: cannot read '" + path + "'; expected a scene JSON file");
    std::stringstream ss;
    ss << in.rdbuf();
    nlohmann::json j = nlohmann::json::parse(ss.str(), nullptr, false);
    if (j.is_discarded())
        throw UsageError("--scene: '" + path + "' is not valid JSON; expected a scene file");
    return scene_from_json(j, dir_of(path));
}

void save_scene_file(const Scene& s, const std::string& path) {
    std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp);
        if (!out) throw UsageError("cannot write '" + path + "'; expected a writable path");
        out << to_json(s).dump(2) << "\n";
        if (!out) {
            std::remove(tmp.c_str());
            throw UsageError("cannot write '" + path + "'; expected a writable path");
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        std::remove(tmp.c_str());
        throw UsageError("cannot write '" + path + "'; expected a writable path");
    }
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

ConvertSpec spec_of(const Scene& s, const std::string& from, const std::string& to, Shape shape) {
    ConvertSpec c;
    c.from = format_from_name(from);
    c.to = format_from_name(to);
    c.shape = std::move(shape);
    c.dtype = dtype_from_name(s.dtype);
    c.c0 = s.c0;
    c.pad_value = s.pad_value;
    if (!s.fractal.empty()) {
        long long r = 0, k = 0;
        if (std::sscanf(s.fractal.c_str(), "%lldx%lld", &r, &k) != 2 || r <= 0 || k <= 0)
            throw UsageError("--fractal: '" + s.fractal + "' is not RxC; expected e.g. 16x16");
        c.fractal_rows = r;
        c.fractal_cols = k;
    }
    return c;
}

}  // namespace

std::shared_ptr<Plan> build_plan(const Scene& s) {
    Shape shape;
    std::vector<unsigned char> pixels;
    int iw = 0, ih = 0;
    if (!s.image.empty()) {
        int n = 0;
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

void write_png_atomic(const std::string& path, int w, int h, const unsigned char* rgba,
                      const std::string& what) {
    std::string tmp = path + ".tmp.png";
    if (!stbi_write_png(tmp.c_str(), w, h, 4, rgba, w * 4)) {
        std::remove(tmp.c_str());
        throw UsageError(what + ": cannot write '" + path + "'; expected a writable path");
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        std::remove(tmp.c_str());
        throw UsageError(what + ": cannot write '" + path + "'; expected a writable path");
    }
}

}  // namespace ll::gui
