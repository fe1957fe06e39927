// The explorer: one format conversion, animated element by element.
//
// Sections: [state] [update + keys] [controls] [legend + inspect] [stage views]
//
// Three kinds of state, kept apart: the engine's Plan (rebuilt only when a
// control changes), the saved Scene (controls, colour, stage, cameras), and
// the animation (play_, a Playhead over the stages) advanced only in update(dt).
#include <imgui.h>

#include <dirent.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>

#include "app/i18n/fonts.hpp"
#include "app/i18n/tr.hpp"
#include "app/i18n/tr_chain.hpp"
#include "app/i18n/tr_text.hpp"
#include "app/panels/explorer_scene.hpp"
#include "app/panels/panel.hpp"
#include "app/panels/playhead_panel.hpp"
#include "app/panels/present.hpp"
#include "app/panels/stage_hold.hpp"
#include "app/render/overview.hpp"
#include "app/render/plan_view.hpp"
#include "app/render/present.hpp"
#include "app/render/trail.hpp"
#include "app/render/waves_gpu.hpp"
#include "core/error.hpp"
#include "core/format/cell_address.hpp"
#include "core/format/format.hpp"
#include "core/format/narrate.hpp"
#include "core/motion.hpp"
#include "core/plan_legend.hpp"
#include "core/plan_padding.hpp"

namespace ll::gui {

namespace {

// ---- [state] -------------------------------------------------------------------

ImVec4 err_colour() {
    return render::theme_colour(render::Role::error);
}

class ExplorerPanel : public PlayheadPanel {
  public:
    ExplorerPanel() : PlayheadPanel("stage", Playhead()) {
        sync_buffers();
        rebuild();
        play_.speed = scene_.speed;
        play_.loop = scene_.loop;
    }
    const char* title() const override { return "Explorer"; }
    void update(double dt) override;
    void draw(AppContext& ctx) override;
    // Also while a resting stage's picture is being built (it shows when done).
    bool busy() const override { return PlayheadPanel::busy() || gpu_.picture_pending(); }
    nlohmann::json save_settings() const override;
    nlohmann::json probe() const override;
    void load_settings(const nlohmann::json& j) override;

  private:
    void sync_buffers();
    void show_picture_shape();
    bool rebuild();
    void handle_keys(const std::vector<Key>& keys);
    void draw_controls(AppContext& ctx);
    void draw_legend(AppContext& ctx);
    void draw_inspect();
    // What the inspector says about a cell (empty for none).
    std::vector<std::string> inspect_lines(int64_t cell) const;
    void draw_stage(AppContext& ctx);
    // Follow one element (pin, trail strip, narration) and staged motion.
    void draw_follow_controls(AppContext& ctx);
    void draw_follow_strip(AppContext& ctx, float height);
    // Height of the strip: the frames plus the wrapped narration lines.
    float follow_strip_height(AppContext& ctx, ImVec2 avail) const;
    nlohmann::json follow_probe() const;
    void draw_present(AppContext& ctx);
    // The minimap and magnifier over view v (0: logical grid, 1: pipeline).
    void draw_aids(int v, bool dark);
    // The toolbar's button that hides the controls column (projectors).
    void sidebar_button();
    bool format_combo(const char* label, std::string& value, bool allow_none, bool plain_only);
    void field_error(const char* field) const;
    float last_stage() const { return plan_ ? float(plan_->stages.size() - 1) : 0.f; }
    float stage() const { return float(play_.value); }  // where the picture is

    Scene scene_;
    std::shared_ptr<Plan> plan_;
    render::PlanGpu gpu_;
    render::PlanView views_[2];
    std::map<std::string, std::string> err_;
    char shape_buf_[128] = {}, fractal_buf_[32] = {}, image_buf_[512] = {}, save_buf_[512] = {};
    char src_fractal_buf_[32] = {};
    std::string save_msg_;
    int64_t hovered_ = -1, selected_ = -1;
    bool pending_fit_cameras_ = true;
    double build_ms_ = 0;  // building the last plan (for --dump-view)
    // Follow one element: selected_ is the pinned cell; playing holds on
    // every stage while it is set.
    StageHold hold_;
    int follow_src_ = 0;  // the "follow element" field (source index)
    std::string follow_err_;
    render::WaveSet waves_;
    std::string wave_by_ = "none";
    std::vector<render::TrailMark> trail_;
    PaddingCount padding_;  // of the plan (core counts it)
    bool sidebar_ = true;   // the controls column is shown
    bool magnifier_ = true;
    float sidebar_btn_[4] = {};  // the toggle's screen rectangle in the last frame
};

void ExplorerPanel::sync_buffers() {
    std::snprintf(shape_buf_, sizeof shape_buf_, "%s", scene_.shape.c_str());
    std::snprintf(fractal_buf_, sizeof fractal_buf_, "%s", scene_.fractal.c_str());
    std::snprintf(src_fractal_buf_, sizeof src_fractal_buf_, "%s", scene_.src_fractal.c_str());
    std::snprintf(image_buf_, sizeof image_buf_, "%s", scene_.image.c_str());
    if (!save_buf_[0]) std::snprintf(save_buf_, sizeof save_buf_, "scene.json");
}

// With a picture the shape comes from the picture (the field is read-only):
// show that shape, not the one typed before (issue 13: a stale 2,2,28).
void ExplorerPanel::show_picture_shape() {
    if (scene_.image.empty() || !plan_) return;
    std::string t;
    for (int64_t v : plan_->src_shape) t += (t.empty() ? "" : ",") + std::to_string(v);
    std::snprintf(shape_buf_, sizeof shape_buf_, "%s", t.c_str());
}

bool ExplorerPanel::rebuild() {
    err_.clear();
    try {
        auto t0 = std::chrono::steady_clock::now();
        plan_ = build_plan(scene_);
        build_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                        .count();
    } catch (const UsageError& e) {
        err_[error_field(e)] = e.what();
        return false;
    } catch (const std::bad_alloc&) {
        err_["shape"] = "out of memory; expected a smaller tensor";
        return false;
    }
    gpu_.set_plan(plan_, colour_mode_from_name(scene_.colour));
    waves_.set(plan_, wave_by_from_name(wave_by_));
    padding_ = padding_of(*plan_);
    show_picture_shape();
    views_[0].request_fit(0, 0);
    views_[1].set_follow(true);
    play_.set_range(0, last_stage());
    play_.seek(play_.value);
    hovered_ = selected_ = -1;
    return true;
}

nlohmann::json ExplorerPanel::save_settings() const {
    Scene s = scene_;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", double(stage()));
    s.stage = buf;
    s.select = selected_;
    s.waves = wave_by_;
    for (int i = 0; i < 2; ++i) {
        const render::PlanView& v = views_[i];
        s.cameras[i] = {i == 0 || !v.follow(), v.camera().zoom, v.camera().pan_x, v.camera().pan_y};
    }
    return to_json(s);
}

nlohmann::json ExplorerPanel::probe() const {
    nlohmann::json j = nlohmann::json::object();
    // Where the views sat on screen in the last frame (tests and tools).
    for (int i = 0; i < 2; ++i) {
        ImVec2 o = views_[i].origin();
        const render::Camera& c = views_[i].camera();
        j["screen"].push_back({{"origin", {o.x, o.y}},
                               {"stage", i == 0 ? 0.f : stage()},
                               {"zoom", c.zoom},
                               {"pan_x", c.pan_x},
                               {"pan_y", c.pan_y},
                               {"lod", views_[i].lod_active()},
                               {"picture", views_[i].picture_active()},
                               {"size", {views_[i].canvas_size().x, views_[i].canvas_size().y}},
                               {"numbers", views_[i].drawn_numbers()},
                               {"labels", render::labels_json(views_[i].drawn_labels())}});
    }
    j["shape_field"] = shape_buf_;  // what the (read-only with a picture) field shows
    // A pinned element is inspected whatever the mouse hovers.
    j["inspect"] = inspect_lines(selected_ >= 0 ? selected_ : hovered_);
    j["follow"] = follow_probe();
    j["stages"] = plan_ ? int(plan_->stages.size()) : 0;
    j["cells"] = plan_ ? plan_->cell_count : 0;
    j["block_size"] = gpu_.block_size();
    // Building the plan, then colours + stage places + uploads so far.
    j["plan_ms"] = build_ms_;
    j["gpu_load_ms"] = gpu_.load_ms();
    // The controls column and its toggle (projector layout tests); core's padding count.
    j["sidebar"] = {
        {"shown", sidebar_},
        {"button", {sidebar_btn_[0], sidebar_btn_[1], sidebar_btn_[2], sidebar_btn_[3]}}};
    j["padding"] = {{"cells", padding_.padding}, {"total", padding_.total}};
    return j;
}

void ExplorerPanel::load_settings(const nlohmann::json& j) {
    std::string base;
    auto b = j.find("_base_dir");
    if (b != j.end() && b->is_string()) base = b->get<std::string>();
    scene_ = scene_from_json(j, base);
    sync_buffers();
    auto t0 = std::chrono::steady_clock::now();
    plan_ = build_plan(scene_);  // throws UsageError: the caller reports it
    build_ms_ =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    gpu_.set_plan(plan_, colour_mode_from_name(scene_.colour));
    wave_by_ = scene_.waves;
    waves_.set(plan_, wave_by_from_name(wave_by_));
    padding_ = padding_of(*plan_);
    show_picture_shape();
    err_.clear();
    play_.set_range(0, last_stage());
    seek_at_rest(play_, parse_stage(scene_.stage, plan_->stages.size()));
    play_.speed = scene_.speed;
    play_.loop = scene_.loop;
    if (scene_.select >= plan_->cell_count)  // its range comes from the plan
        SceneReader(j, "explorer")
            .fail("select", j.at("select"),
                  "a cell index in -1.." + std::to_string(plan_->cell_count - 1) + " (-1: none)");
    hovered_ = -1;
    selected_ = scene_.select;
    if (selected_ >= 0 && plan_->src[size_t(selected_)] >= 0)
        follow_src_ = int(plan_->src[size_t(selected_)]);
    for (int i = 0; i < 2; ++i) {
        if (scene_.cameras[i].set) {
            render::Camera c;
            c.zoom = scene_.cameras[i].zoom;
            c.pan_x = scene_.cameras[i].pan_x;
            c.pan_y = scene_.cameras[i].pan_y;
            views_[i].set_camera(c);  // the first draw must not re-frame it
        } else {
            views_[i].request_fit(0, 0);
            views_[i].set_follow(i == 1);
        }
    }
    auto pl = j.find("playing");
    play_.playing = pl != j.end() && *pl == true;
}

// ---- [update + keys] --------------------------------------------------------------

void ExplorerPanel::update(double dt) {
    play_.loop = scene_.loop;
    if (play_.playing && selected_ >= 0) {
        // A pinned element: stop on every stage for a moment (StageHold).
        const double last = play_.hi;
        double v = hold_.advance(float(play_.value), scene_.speed, dt);
        if (v >= last) {
            if (scene_.loop && last > 0) {
                v = std::fmod(v, last);
            } else {
                v = last;
                play_.playing = false;
            }
        }
        play_.value = play_.target = v;
        return;
    }
    // Plays at the scene's speed; a step glides at least 2 stages per second.
    play_.speed = play_.playing ? scene_.speed : std::max(scene_.speed, 2.f);
    play_.update(dt);
    play_.speed = scene_.speed;
}

void ExplorerPanel::handle_keys(const std::vector<Key>& keys) {
    if (ImGui::GetIO().WantTextInput) return;  // typing in a field
    for (Key k : keys) {
        // Home and End jump; the other keys act as in every animated panel.
        if (k == Key::home || k == Key::end)
            seek_at_rest(play_, k == Key::home ? play_.lo : play_.hi);
        else
            apply_keys(play_, {k});
    }
}

// ---- [controls] --------------------------------------------------------------------

void ExplorerPanel::field_error(const char* field) const {
    auto it = err_.find(field);
    if (it == err_.end()) return;
    ImGui::PushStyleColor(ImGuiCol_Text, err_colour());
    ImGui::TextWrapped("%s", it->second.c_str());
    ImGui::PopStyleColor();
}

bool ExplorerPanel::format_combo(const char* label, std::string& value, bool allow_none,
                                 bool plain_only) {
    bool changed = false;
    if (ImGui::BeginCombo(tr_id(label), value.empty() ? tr("(direct)") : value.c_str())) {
        if (allow_none && ImGui::Selectable(tr_id("(direct)"), value.empty())) {
            value.clear();
            changed = true;
        }
        for (Format f : all_formats()) {
            if (plain_only && !is_plain(f)) continue;
            if (ImGui::Selectable(name(f), value == name(f))) {
                value = name(f);
                changed = true;
            }
        }
        ImGui::EndCombo();
    }
    return changed;
}

void ExplorerPanel::draw_controls(AppContext& ctx) {
    bool changed = false;
    ImGui::TextUnformatted(tr("Conversion"));
    ImGui::Separator();
    ImGui::PushItemWidth(-110 * ctx.ui_scale);
    changed |= format_combo(trn("source"), scene_.from, false, false);
    changed |= format_combo(trn("via"), scene_.via, true, true);
    changed |= format_combo(trn("target"), scene_.to, false, false);
    field_error("format");
    ImGui::BeginDisabled(!scene_.image.empty());
    if (ImGui::InputText(tr_id("shape"), shape_buf_, sizeof shape_buf_,
                         ImGuiInputTextFlags_EnterReturnsTrue) ||
        ImGui::IsItemDeactivatedAfterEdit()) {
        scene_.shape = shape_buf_;
        changed = true;
    }
    ImGui::EndDisabled();
    field_error("shape");
    if (ImGui::BeginCombo(tr_id("dtype"), scene_.dtype.c_str())) {
        for (DType t : all_dtypes())
            if (ImGui::Selectable(name(t), scene_.dtype == name(t))) {
                scene_.dtype = name(t);
                changed = true;
            }
        ImGui::EndCombo();
    }
    field_error("dtype");
    int c0 = int(scene_.c0);
    if (ImGui::InputInt(tr_id("C0 (0 auto)"), &c0, 0, 0, ImGuiInputTextFlags_EnterReturnsTrue) ||
        ImGui::IsItemDeactivatedAfterEdit()) {
        scene_.c0 = c0;
        changed = true;
    }
    field_error("c0");
    if (ImGui::InputText(tr_id("fractal RxC"), fractal_buf_, sizeof fractal_buf_,
                         ImGuiInputTextFlags_EnterReturnsTrue) ||
        ImGui::IsItemDeactivatedAfterEdit()) {
        scene_.fractal = fractal_buf_;
        changed = true;
    }
    if (ImGui::InputText(tr_id("source fractal"), src_fractal_buf_, sizeof src_fractal_buf_,
                         ImGuiInputTextFlags_EnterReturnsTrue) ||
        ImGui::IsItemDeactivatedAfterEdit()) {
        scene_.src_fractal = src_fractal_buf_;
        changed = true;
    }
    field_error("fractal");
    // BSH -> BSNGD (SBH -> SBNGD) with a 3-D shape: H = heads x groups x D.
    int hg[2] = {int(scene_.heads), int(scene_.groups)};
    if (ImGui::InputInt2(tr_id("heads, groups"), hg, ImGuiInputTextFlags_EnterReturnsTrue) ||
        ImGui::IsItemDeactivatedAfterEdit()) {
        scene_.heads = hg[0];
        scene_.groups = hg[1];
        changed = true;
    }
    field_error("heads");
    if (ImGui::InputDouble(tr_id("pad value"), &scene_.pad_value, 0, 0, "%g",
                           ImGuiInputTextFlags_EnterReturnsTrue) ||
        ImGui::IsItemDeactivatedAfterEdit())
        changed = true;
    field_error("pad");
    ImGui::Spacing();
    ImGui::TextUnformatted(tr("Picture (PNG/JPEG as an RGB tensor)"));
    ImGui::Separator();
    if (ImGui::InputText(tr_id("file"), image_buf_, sizeof image_buf_,
                         ImGuiInputTextFlags_EnterReturnsTrue)) {
        scene_.image = image_buf_;
        changed = true;
    }
    if (ImGui::Button(tr_id("Sample picture"))) {
        scene_.image = std::string(LAYOUTLAB_SOURCE_DIR) + "/assets/smiley.png";
        scene_.from = "NCHW", scene_.via = "NHWC", scene_.to = "NC1HWC0";
        scene_.colour = "value";
        std::snprintf(image_buf_, sizeof image_buf_, "%s", scene_.image.c_str());
        changed = true;
    }
    ImGui::SameLine();
    if (ImGui::Button(tr_id("No picture")) && !scene_.image.empty()) {
        scene_.image.clear();
        image_buf_[0] = 0;
        if (scene_.colour == "value") scene_.colour = "source-index";
        changed = true;
    }
    field_error("image");
    field_error("");
    ImGui::Spacing();
    ImGui::TextUnformatted(tr("Scene"));
    ImGui::Separator();
    ImGui::InputText(tr_id("path"), save_buf_, sizeof save_buf_);
    if (ImGui::Button(tr_id("Save"))) {
        try {
            Scene s = scene_;
            char buf[32];
            std::snprintf(buf, sizeof buf, "%g", double(stage()));
            s.stage = buf;
            for (int i = 0; i < 2; ++i)
                s.cameras[i] = {i == 0 || !views_[i].follow(), views_[i].camera().zoom,
                                views_[i].camera().pan_x, views_[i].camera().pan_y};
            save_scene_file(s, save_buf_);
            save_msg_ = std::string(tr("saved ")) + save_buf_;
        } catch (const UsageError& e) {
            save_msg_ = e.what();
        }
    }
    ImGui::SameLine();
    if (ImGui::Button(tr_id("Open"))) {
        try {
            Scene s = load_scene_file(save_buf_);
            nlohmann::json j = to_json(s);
            load_settings(j);
            save_msg_ = std::string(tr("opened ")) + save_buf_;
        } catch (const UsageError& e) {
            save_msg_ = e.what();
        }
    }
    ImGui::SameLine();
    if (ImGui::BeginCombo("##examples", tr("Examples"), ImGuiComboFlags_NoPreview)) {
        std::string dir = std::string(LAYOUTLAB_SOURCE_DIR) + "/assets/scenes";
        if (DIR* d = opendir(dir.c_str())) {
            std::vector<std::string> names;
            while (dirent* e = readdir(d)) {
                std::string n = e->d_name;
                if (n.size() > 5 && n.substr(n.size() - 5) == ".json") names.push_back(n);
            }
            closedir(d);
            std::sort(names.begin(), names.end());
            for (const std::string& n : names) {
                i18n::want_glyphs(n);  // a Chinese file name
                if (ImGui::Selectable(n.c_str())) {
                    try {
                        nlohmann::json j = to_json(load_scene_file(dir + "/" + n));
                        load_settings(j);
                        save_msg_ = tr("opened ") + n;
                    } catch (const UsageError& e) {
                        save_msg_ = e.what();
                    }
                }
            }
        }
        ImGui::EndCombo();
    }
    ImGui::SameLine();
    ImGui::TextUnformatted(tr("Examples"));
    i18n::want_glyphs(save_buf_);  // typed or opened paths may be Chinese
    if (!save_msg_.empty()) {
        i18n::want_glyphs(save_msg_);
        ImGui::TextWrapped("%s", save_msg_.c_str());
    }
    ImGui::PopItemWidth();
    if (changed) rebuild();
}

// ---- [legend + inspect] --------------------------------------------------------------

// The texts core's colour_legend() says, as catalog keys: the legend shows
// their translation.
const char* legend_text(const std::string& en) {
    static const char* const keys[] = {trn("source linear index (row-major)"),
                                       trn("source row (axis -2)"),
                                       trn("source column (last axis)"),
                                       trn("source channel (C axis)"),
                                       trn("no C axis: all 0"),
                                       trn("destination 512-byte fractal (hues cycle)"),
                                       trn("no picture: source index"),
                                       trn("pixel value, R/G/B channel")};
    for (const char* k : keys)
        if (en == k) return tr(k);
    return en.c_str();
}

void ExplorerPanel::draw_legend(AppContext& ctx) {
    ImGui::Spacing();
    ImGui::TextUnformatted(tr("Colour"));
    ImGui::Separator();
    ImGui::PushItemWidth(-110 * ctx.ui_scale);
    // The modes' names are scene values (English); shown through the catalog.
    if (ImGui::BeginCombo(tr_id("colour by"), tr_text(scene_.colour).c_str())) {
        for (ColourMode m : all_colour_modes())
            if (ImGui::Selectable((tr_text(name(m)) + "###" + name(m)).c_str(),
                                  scene_.colour == name(m))) {
                scene_.colour = name(m);
                gpu_.set_colours(m);
            }
        ImGui::EndCombo();
    }
    ImGui::PopItemWidth();
    if (!plan_) return;
    ColourMode m = colour_mode_from_name(scene_.colour);
    const ColourLegend lg = colour_legend(*plan_, m);  // core/plan_legend.hpp
    const std::string &lo = lg.lo, &hi = lg.hi;
    const char* what = legend_text(lg.what);
    ImGui::TextWrapped("%s", what);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImVec2 p = ImGui::GetCursorScreenPos();
    float w = ImGui::GetContentRegionAvail().x, h = ImGui::GetFontSize();
    const int steps = 48;
    for (int i = 0; i < steps; ++i) {
        const auto g = uint8_t(lg.grey_lo + (lg.grey_hi - lg.grey_lo) * i / (steps - 1));
        Rgba8 c = lg.grey ? Rgba8{g, g, g, 255} : colour_map(float(i) / float(steps - 1));
        if (m == ColourMode::fractal)
            c = colour_map(0.1f + 0.8f * std::fmod(float(i) * 0.618f, 1.f));
        dl->AddRectFilled(ImVec2(p.x + w * float(i) / steps, p.y),
                          ImVec2(p.x + w * float(i + 1) / steps + 1, p.y + h),
                          IM_COL32(c[0], c[1], c[2], 255));
    }
    ImGui::Dummy(ImVec2(w, h));
    ImGui::TextUnformatted(lo.c_str());
    if (!hi.empty()) {
        ImGui::SameLine(std::max(0.f, w - ImGui::CalcTextSize(hi.c_str()).x));
        ImGui::TextUnformatted(hi.c_str());
    }
    // Padding swatch, hatched like in the views.
    p = ImGui::GetCursorScreenPos();
    dl->AddRectFilled(p, ImVec2(p.x + h, p.y + h),
                      ctx.dark_theme ? IM_COL32(51, 51, 59, 255) : IM_COL32(204, 204, 209, 255));
    for (float k = 0; k < 2 * h; k += 7)
        dl->AddLine(ImVec2(p.x + std::max(0.f, k - h), p.y + std::min(h, k)),
                    ImVec2(p.x + std::min(h, k), p.y + std::max(0.f, k - h)),
                    IM_COL32(128, 128, 143, 255));
    dl->AddRect(p, ImVec2(p.x + h, p.y + h), IM_COL32(128, 128, 143, 255));
    ImGui::Dummy(ImVec2(h, h));
    ImGui::SameLine();
    ImGui::Text(tr("padding (value %g)"), scene_.pad_value);
    ImGui::Text(tr("padding ratio %lld / %lld cells = %.1f%%"), (long long)padding_.padding,
                (long long)padding_.total, 100.0 * padding_.ratio());
    ImGui::Checkbox(tr_id("magnifier over small cells"), &magnifier_);
}

std::vector<std::string> ExplorerPanel::inspect_lines(int64_t cell) const {
    std::vector<std::string> out;
    if (!plan_ || cell < 0 || cell >= plan_->cell_count) return out;
    auto tuple = [](const Coord& c) { return to_string(Shape(c.begin(), c.end())); };
    // Core works out the place (core/format/cell_address.hpp); the renderer
    // holds the memory offsets of the plan already.
    const CellAddress a = cell_address(*plan_, cell, gpu_.final_offset(cell));
    char buf[160];
    if (a.source >= 0) {
        std::snprintf(buf, sizeof buf, tr("logical index %s  (source #%lld)"),
                      tuple(a.logical).c_str(), (long long)a.source);
        out.push_back(buf);
    } else {
        out.push_back(tr("padding (no source element)"));
    }
    out.push_back(tr("destination index ") + tuple(a.destination));
    out.push_back(tr("element offset ") + std::to_string(a.offset));
    if (bits(plan_->dtype) == 4)
        std::snprintf(buf, sizeof buf, tr("byte address 0x%llx (%s nibble)"), (long long)a.byte,
                      a.high_nibble ? tr("high") : tr("low"));
    else
        std::snprintf(buf, sizeof buf, tr("byte address 0x%llx (%lld)"), (long long)a.byte,
                      (long long)a.byte);
    out.push_back(buf);
    // Only fractal formats are made of 512-byte fractals; NHWC, NC1HWC0, ...
    // are described by their 32-byte rows (as drawn).
    if (a.fractal)
        std::snprintf(buf, sizeof buf, tr("fractal %lld, row %lld, column %lld"),
                      (long long)a.fractal_index, (long long)a.fractal_row,
                      (long long)a.element_in_row);
    else
        std::snprintf(buf, sizeof buf, tr("32-byte row %lld, element %lld in it"),
                      (long long)a.row32, (long long)a.element_in_row);
    out.push_back(buf);
    return out;
}

void ExplorerPanel::draw_inspect() {
    ImGui::Spacing();
    ImGui::TextUnformatted(tr("Inspect (hover, or click a cell to pin it)"));
    ImGui::Separator();
    // A pinned cell stays in the inspector; the hovered one is listed below it.
    const std::vector<std::string> lines = inspect_lines(selected_ >= 0 ? selected_ : hovered_);
    if (lines.empty()) ImGui::TextDisabled("%s", tr("nothing under the mouse"));
    if (selected_ >= 0) ImGui::TextDisabled("%s", tr("pinned:"));
    for (const std::string& l : lines) ImGui::TextUnformatted(l.c_str());
    if (selected_ >= 0 && hovered_ >= 0 && hovered_ != selected_) {
        ImGui::TextDisabled("%s", tr("under the mouse:"));
        for (const std::string& l : inspect_lines(hovered_)) ImGui::TextDisabled("%s", l.c_str());
    }
}

// ---- [stage views] ------------------------------------------------------------------

void ExplorerPanel::draw_stage(AppContext& ctx) {
    if (!plan_) {
        ImGui::TextColored(err_colour(), "%s", tr("No plan: fix the fields on the left."));
        return;
    }
    float last = last_stage();
    // Transport: |< < play > >|, scrub slider, speed, loop.
    sidebar_button();
    ImGui::SameLine();
    if (ImGui::Button("|<")) seek_at_rest(play_, 0);
    ImGui::SameLine();
    if (ImGui::Button("<")) play_.step(-1);
    ImGui::SameLine();
    if (ImGui::Button(play_.playing ? tr_id("Pause###play") : tr_id("Play###play"),
                      ImVec2(70 * ctx.ui_scale, 0)))
        play_.toggle();
    ImGui::SameLine();
    if (ImGui::Button(">")) play_.step(+1);
    ImGui::SameLine();
    if (ImGui::Button(">|")) seek_at_rest(play_, last);
    ImGui::SameLine();
    // The slider takes what speed and loop leave; when that is too little
    // (a projector at 150%) they wrap onto the next line instead of off the edge.
    const float tail = ImGui::GetFontSize() * 17;
    const bool wrap = ImGui::GetContentRegionAvail().x - tail < ImGui::GetFontSize() * 10;
    ImGui::SetNextItemWidth(wrap ? -1.f : ImGui::GetContentRegionAvail().x - tail);
    float s = stage();
    if (ImGui::SliderFloat("##stage", &s, 0, last, tr("stage %.2f"))) seek_at_rest(play_, s);
    if (!wrap) ImGui::SameLine();
    ImGui::SetNextItemWidth(110 * ctx.ui_scale);
    ImGui::SliderFloat(tr_id("speed"), &scene_.speed, 0.1f, 4.f, tr("%.1f st/s"));
    ImGui::SameLine();
    ImGui::Checkbox(tr_id("loop"), &scene_.loop);

    // Caption of the stage in view (the nearer one while gliding).
    size_t k = size_t(std::lround(stage()));
    const Stage& st = plan_->stages[k];
    ImGui::SetWindowFontScale(1.3f);
    ImGui::TextWrapped(tr("%s   stage %zu of %zu: %s"), tr_text(plan_->title).c_str(), k,
                       plan_->stages.size() - 1, tr_text(st.label).c_str());
    ImGui::SetWindowFontScale(1.0f);
    ImGui::TextWrapped(tr("%s   ->  shape %s"), tr_text(st.formula).c_str(),
                       to_string(st.shape).c_str());

    ImVec2 avail = ImGui::GetContentRegionAvail();
    float gap = 8 * ctx.ui_scale;
    float lw = std::floor((avail.x - gap) * 0.38f), rw = avail.x - gap - lw;
    // The two views' titles wrap within their view's width (one running
    // past it pushed the memory view out of the window at 1024x768 x1.5);
    // both get the taller title's height so the views stay level.
    char left_title[256], right_title[256];
    const std::string src_shape = to_string(plan_->src_shape);
    std::snprintf(left_title, sizeof left_title, tr("Logical grid: %s %s"),
                  tr_text(plan_->stages[0].label).c_str(), src_shape.c_str());
    // A title too wide for its view breaks before the shape, not inside it
    // (ImGui wraps after a comma: "(2,2," above "28)" on the projector).
    // (The last match: a view's label can hold the same shape.)
    if (ImGui::CalcTextSize(left_title).x > lw) {
        char* at = nullptr;
        for (char* p = std::strstr(left_title, src_shape.c_str()); p;
             p = std::strstr(p + 1, src_shape.c_str()))
            at = p;
        if (at && at > left_title && at[-1] == ' ') at[-1] = '\n';
    }
    std::snprintf(right_title, sizeof right_title, tr("Pipeline -> memory (%lld cells, %s)"),
                  (long long)plan_->cell_count, name(plan_->dtype));
    const float title_h = std::max(ImGui::CalcTextSize(left_title, nullptr, false, lw).y,
                                   ImGui::CalcTextSize(right_title, nullptr, false, rw).y);
    float head = title_h + ImGui::GetStyle().ItemSpacing.y;
    auto view_title = [&](const char* text, float width) {
        const ImVec2 at = ImGui::GetCursorPos();
        ImGui::PushTextWrapPos(at.x + width);
        ImGui::TextUnformatted(text);
        ImGui::PopTextWrapPos();
        ImGui::SetCursorPos(ImVec2(at.x, at.y + head));
    };
    // A pinned element gets the trail strip and its narration under the views.
    float strip = selected_ >= 0 ? follow_strip_height(ctx, avail) : 0.f;
    float h = std::max(60.f, avail.y - head - strip);
    render::ViewStyle vs;
    vs.dark = ctx.dark_theme;
    vs.pinned = selected_;
    vs.waves = wave_by_ != "none" ? &waves_ : nullptr;

    ImGui::BeginGroup();
    view_title(left_title, lw);
    vs.highlight = views_[1].hovered() >= 0 ? views_[1].hovered() : selected_;
    vs.show_path = false;
    vs.waves = nullptr;  // the logical view rests on stage 0
    views_[0].draw(gpu_, 0.f, ImVec2(lw, h), vs);
    vs.waves = wave_by_ != "none" ? &waves_ : nullptr;
    ImGui::EndGroup();
    ImGui::SameLine(0, gap);
    ImGui::BeginGroup();
    view_title(right_title, rw);
    vs.highlight = views_[0].hovered() >= 0 ? views_[0].hovered() : selected_;
    vs.show_path = true;
    views_[1].draw(gpu_, stage(), ImVec2(rw, h), vs);
    ImGui::EndGroup();
    if (strip > 0) draw_follow_strip(ctx, strip);
    draw_aids(0, ctx.dark_theme);
    draw_aids(1, ctx.dark_theme);

    hovered_ = views_[0].hovered() >= 0 ? views_[0].hovered() : views_[1].hovered();
    // A click pins the cell under the mouse (a click on no cell unpins).
    for (auto& v : views_)
        if (v.clicked()) {
            selected_ = v.hovered();
            hold_.reset();
            if (selected_ >= 0 && plan_->src[size_t(selected_)] >= 0)
                follow_src_ = int(plan_->src[size_t(selected_)]);
        }
    if (views_[0].lod_active() || views_[1].lod_active())
        ctx.status = tr("zoomed out: cells drawn as blocks of ") +
                     std::to_string(gpu_.block_size()) + tr(" (zoom in for single cells)");
}

// ---- [follow one element] --------------------------------------------------------

void ExplorerPanel::draw_follow_controls(AppContext& ctx) {
    ImGui::Spacing();
    ImGui::TextUnformatted(tr("Follow one element"));
    ImGui::Separator();
    ImGui::PushItemWidth(-110 * ctx.ui_scale);
    if (ImGui::InputInt(tr_id("follow element"), &follow_src_, 1, 10,
                        ImGuiInputTextFlags_EnterReturnsTrue) ||
        ImGui::IsItemDeactivatedAfterEdit()) {
        int64_t c = plan_ ? cell_of_source(*plan_, follow_src_) : -1;
        follow_err_ = c < 0 ? "no element " + std::to_string(follow_src_) +
                                  "; expected a source index from 0 to " +
                                  std::to_string(plan_ ? numel(plan_->src_shape) - 1 : 0)
                            : "";
        if (c >= 0) selected_ = c, hold_.reset();
    }
    if (!follow_err_.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, err_colour());
        ImGui::TextWrapped("%s", follow_err_.c_str());
        ImGui::PopStyleColor();
    }
    ImGui::BeginDisabled(selected_ < 0);
    if (ImGui::Button(tr_id("Unpin"))) selected_ = -1;
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::TextDisabled(
        "%s", selected_ >= 0 ? tr("play holds on every stage") : tr("(click a cell to pin)"));
    if (ImGui::BeginCombo(tr_id("move in waves"), tr_text(wave_by_).c_str())) {
        for (WaveBy w : all_wave_modes())
            if (ImGui::Selectable((tr_text(name(w)) + "###" + name(w)).c_str(),
                                  wave_by_ == name(w))) {
                wave_by_ = scene_.waves = name(w);
                waves_.set(plan_, w);
            }
        ImGui::EndCombo();
    }
    ImGui::PopItemWidth();
}

// Under the views: one small frame per stage with the pinned element's place
// in that stage's own grid, then what happened to it in words (core/format/
// narrate.hpp builds the words).
float ExplorerPanel::follow_strip_height(AppContext& ctx, ImVec2 avail) const {
    if (!plan_ || selected_ < 0) return 0;
    float frames = std::max(std::min(avail.y * 0.2f, 220.f), 70.f * ctx.ui_scale);
    size_t k = size_t(std::lround(stage()));
    // Core's English sentences, shown through the catalog's templates.
    std::string step = tr_chain(narrate_step(*plan_, k, selected_)),
                all = tr_chain(narration(*plan_, selected_));
    float fs = ImGui::GetFontSize(), sp = ImGui::GetStyle().ItemSpacing.y;
    // Text at scale s wraps like the same text at width avail.x / s.
    float h1 = ImGui::CalcTextSize(step.c_str(), nullptr, false, avail.x / 1.15f).y * 1.15f;
    float h2 = ImGui::CalcTextSize(all.c_str(), nullptr, false, avail.x).y;
    return frames + h1 + h2 + 3 * sp + fs * 0.2f;
}

void ExplorerPanel::draw_follow_strip(AppContext& ctx, float height) {
    if (!plan_ || selected_ < 0) return;
    float w = ImGui::GetContentRegionAvail().x;
    size_t k = size_t(std::lround(stage()));
    // Core's English sentences, shown through the catalog's templates.
    std::string step = tr_chain(narrate_step(*plan_, k, selected_)),
                all = tr_chain(narration(*plan_, selected_));
    float sp = ImGui::GetStyle().ItemSpacing.y;
    float h1 = ImGui::CalcTextSize(step.c_str(), nullptr, false, w / 1.15f).y * 1.15f;
    float h2 = ImGui::CalcTextSize(all.c_str(), nullptr, false, w).y;
    float frames = std::max(40.f, height - h1 - h2 - 3 * sp);
    trail_ = render::draw_trail_strip(gpu_, selected_, stage(), ImVec2(w, frames), ctx.dark_theme);
    ImGui::SetWindowFontScale(1.15f);
    ImGui::TextWrapped("%s", step.c_str());
    ImGui::SetWindowFontScale(1.0f);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", all.c_str());
    ImGui::PopStyleColor();
}

nlohmann::json ExplorerPanel::follow_probe() const {
    nlohmann::json f = nlohmann::json::object();
    if (!plan_ || selected_ < 0) return f;
    f["pinned"] = selected_;
    f["source"] = plan_->src[size_t(selected_)];
    f["narration"] = narration(*plan_, selected_);
    f["step"] = narrate_step(*plan_, size_t(std::lround(stage())), selected_);
    ImVec2 m = views_[1].pin_screen();
    if (!std::isnan(m.x)) f["marker"] = {m.x, m.y};
    for (const render::TrailMark& t : trail_)
        f["trail"].push_back(
            {{"stage", t.stage},
             {"offset", t.offset},
             {"place", {t.place.x, t.place.y}},
             {"origin", {t.grid_origin.x, t.grid_origin.y}},
             {"scale", t.scale},
             {"frame", {t.frame_min.x, t.frame_min.y, t.frame_max.x, t.frame_max.y}}});
    return f;
}

void ExplorerPanel::sidebar_button() {
    if (ImGui::Button(sidebar_ ? "<<" : ">>")) sidebar_ = !sidebar_;
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    sidebar_btn_[0] = a.x, sidebar_btn_[1] = a.y, sidebar_btn_[2] = b.x, sidebar_btn_[3] = b.y;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", sidebar_ ? tr("hide the controls (more room for the picture)")
                                         : tr("show the controls"));
}

void ExplorerPanel::draw_aids(int v, bool dark) {
    // Not while playing: a lens that jumps with every stage is noise, and
    // its cell lookups would build an inverse map for each stage in turn.
    if (!plan_ || play_.playing) return;
    // View 0 rests on the source; view 1 only at rest (gliding cells are between stages).
    const int k = v == 0 ? 0 : int(std::lround(stage()));
    if (v == 1 && std::abs(stage() - float(k)) > 1e-3f) return;
    const bool on_map = render::draw_overview(views_[v], gpu_, k, dark);
    if (magnifier_ && !on_map) render::draw_magnifier(views_[v], gpu_, k, dark);
}

// Presentation mode: the pipeline view alone fills the slide; the caption
// names the stage.
void ExplorerPanel::draw_present(AppContext& ctx) {
    if (!plan_) {
        ImGui::TextColored(err_colour(), "%s",
                           tr("No plan: leave presentation mode (F5) and fix the fields."));
        return;
    }
    caption_from_stage(ctx, *plan_, stage(), plan_->title + "   ");
    render::ViewStyle vs;
    vs.dark = ctx.dark_theme;
    vs.highlight = selected_;
    vs.show_path = selected_ >= 0;
    views_[1].draw(gpu_, stage(), ImGui::GetContentRegionAvail(), vs);
    draw_aids(1, ctx.dark_theme);
    hovered_ = views_[1].hovered();
    if (views_[1].clicked()) selected_ = views_[1].hovered();
}

void ExplorerPanel::draw(AppContext& ctx) {
    handle_keys(ctx.keys);
    if (ctx.present) {
        draw_present(ctx);
        return;
    }
    // Controls take at most a third of a small window (projectors at 150%),
    // or nothing once hidden (the << button of the toolbar).
    if (sidebar_) {
        float cw = std::min(360 * ctx.ui_scale, ImGui::GetContentRegionAvail().x * 0.34f);
        ImGui::BeginChild("controls", ImVec2(cw, 0), true);
        draw_controls(ctx);
        draw_legend(ctx);
        draw_inspect();
        draw_follow_controls(ctx);
        ImGui::Spacing();
        ImGui::TextDisabled(
            "%s",
            tr("space play/pause, left/right step,\nHome/End first/last, wheel zoom, drag pan"));
        ImGui::TextDisabled("%s", tr("F5 presentation mode"));
        ImGui::EndChild();
        ImGui::SameLine();
    }
    ImGui::BeginChild("stage", ImVec2(0, 0), false,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    draw_stage(ctx);
    ImGui::EndChild();
}

}  // namespace

std::unique_ptr<Panel> make_explorer_panel() {
    return std::make_unique<ExplorerPanel>();
}

}  // namespace ll::gui
