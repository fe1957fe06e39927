// The explorer's saved view settings (a "scene") and how a scene becomes a
// Plan. Scenes are small JSON files:
//   {"from":"ND","to":"FRACTAL_NZ","shape":"2,2,28","dtype":"fp16",
//    "stage":"last","colour":"source-index"}
// Optional keys: "via" (a plain format the data passes through first, e.g.
// NCHW -> NHWC -> NC1HWC0), "c0", "fractal" ("16x16"), "src_fractal" (the
// source's own fractal, L0C 16x16 -> L1 16x8), "heads" / "groups" (BSH ->
// BSNGD with a 3-D shape), "pad_value",
// "image" (PNG/JPEG path, relative to the scene file), "speed", "loop",
// "cameras" ([{zoom,pan_x,pan_y}] per view).
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/panels/scene_reader.hpp"
#include "core/error.hpp"
#include "core/plan.hpp"

namespace ll::gui {

// Limits of a scene's numbers (checked on load, naming the key).
constexpr int64_t kMaxC0 = 1 << 16;  // C0 beyond this is no accelerator's
constexpr double kMaxSpeed = 100;    // stages per second

struct CameraSetting {
    bool set = false;
    float zoom = 8, pan_x = 0, pan_y = 0;
};

struct Scene {
    std::string from = "ND", to = "FRACTAL_NZ", via;  // via "" = direct
    std::string shape = "2,2,28";
    std::string dtype = "fp16";
    int64_t c0 = 0;                 // 0 = 32 B / sizeof(dtype)
    std::string fractal;            // "" = from the dtype, else "RxC"
    std::string src_fractal;        // "" = the same as fractal
    int64_t heads = 0, groups = 0;  // 0 = not given
    double pad_value = 0;
    std::string image;  // picture file; overrides shape with (1,3,H,W)
    std::string colour = "source-index";
    std::string stage = "0";  // number (fractional allowed) or "last"
    float speed = 0.7f;       // stages per second
    bool loop = false;
    CameraSetting cameras[2];
    int64_t select = -1;         // the inspected cell (destination element), -1 none
    std::string waves = "none";  // staged motion: none, row or block (core/motion.hpp)
};

// JSON <-> Scene. Reading goes through the one SceneReader and throws its
// UsageError naming the bad key, e.g. {"c0": 16.5} -> key() "c0",
//   explorer scene: c0 = 16.5; expected an integer in 0..65536
// `base_dir` is where a relative "image" is looked for (after the current
// folder). The compare panel reads its two sides with r.sub("a"), r.sub("b").
nlohmann::json to_json(const Scene& s);
Scene read_scene(const SceneReader& r, const std::string& base_dir);
Scene scene_from_json(const nlohmann::json& j, const std::string& base_dir);
// Reads a scene file; UsageError ("--scene: ...") when missing or malformed.
Scene load_scene_file(const std::string& path);
// Writes atomically (temp file in the same folder, then rename).
void save_scene_file(const Scene& s, const std::string& path);

// Field an engine error is about ("shape", "format", "c0", "fractal",
// "heads", "dtype", "pad", "image", or "" for general), from its key.
std::string error_field(const UsageError& e);

// Builds the plan of a scene; throws UsageError. Pictures are loaded with
// stb_image and give the cells their real pixel values.
std::shared_ptr<Plan> build_plan(const Scene& s);

// Stage number of a scene's "stage" for a plan with n stages.
float parse_stage(const std::string& text, size_t n);

// Writes a PNG atomically; UsageError naming `what` when it cannot.
void write_png_atomic(const std::string& path, int w, int h, const unsigned char* rgba_top_first,
                      const std::string& what);

}  // namespace ll::gui
