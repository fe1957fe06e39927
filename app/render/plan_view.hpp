// The cell renderer: draws any ll::Plan inside an ImGui window.
//
// PlanGpu owns the GPU copy of one Plan: a colour per cell, and the cell
// places of at most three stages at a time (uploaded once per stage, never per
// frame), plus a coarse level of detail (blocks of consecutive cells) for
// when cells shrink below a pixel. PlanView is one pannable, zoomable canvas
// that shows the plan at a fractional stage s (stage floor(s) -> floor(s)+1,
// interpolated in the vertex shader). Several views may share one PlanGpu.
//
// Usage in a panel:
//   gpu.set_plan(plan); gpu.set_colours(ColourMode::source_index);
//   view.draw(gpu, stage, ImVec2(w, h));        // inside ImGui::Begin/End
//   if (view.hovered() >= 0) ...                 // cell under the mouse
#pragma once

#include <imgui.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "app/render/gl_programs.hpp"
#include "app/render/grid_labels.hpp"
#include "app/render/plan_gpu.hpp"
#include "app/render/waves_gpu.hpp"
#include "core/plan.hpp"

namespace ll::render {

struct Camera {
    float zoom = 8;              // pixels per cell
    float pan_x = 0, pan_y = 0;  // cell coordinate at the canvas's top-left
};

struct ViewStyle {
    bool dark = true;
    bool show_numbers = true;  // source index printed in big enough cells
    int64_t highlight = -1;    // cell drawn highlighted (from the other view)
    bool show_path = false;    // the pinned cell's marker and ghost (app/render/trail.hpp)
    // The pinned cell: drawn highlighted whatever the mouse hovers (hover
    // never replaces a pin), -1 none.
    int64_t pinned = -1;
    // Staged motion (cells move in waves), nullptr: all at once.
    WaveSet* waves = nullptr;
    // Block tags that would sit on the cells as chips are drawn only on the
    // first block of each row and column (a grid of 64 tagged blocks reads
    // as clutter; the first row and column still say how they count), and
    // a tag stands above its block only when the gap holds it whole.
    bool sparse_tags = false;
};

class PlanView {
  public:
    PlanView();
    ~PlanView();
    PlanView(const PlanView&) = delete;
    PlanView& operator=(const PlanView&) = delete;

    // Draws the plan at fractional stage s into a canvas of `size` pixels at
    // the cursor. Handles pan (drag), zoom (wheel) and hover.
    void draw(PlanGpu& gpu, float s, ImVec2 size, const ViewStyle& style);

    int64_t hovered() const { return hovered_; }
    bool clicked() const { return clicked_; }
    Camera& camera() { return cam_; }
    // Place the camera by hand (a saved scene): no pending fit, no following.
    void set_camera(const Camera& c) {
        cam_ = c;
        fit_pending_ = false;
        follow_ = false;
        fitted_size_ = ImVec2(0, 0);
    }
    const Camera& camera() const { return cam_; }
    // Frame the whole stage range [k0, k1] in the canvas on the next draw.
    // Follow mode: the camera frames the stage in view, gliding between the
    // framings of consecutive stages as the cells glide. Panning or zooming
    // by hand turns it off; a double click turns it back on.
    void set_follow(bool on) { follow_ = on; }
    bool follow() const { return follow_; }
    // Frame stages [k0, k1] (k1 < 0: the last stage) on the next draw.
    void request_fit(int k0 = 0, int k1 = -1) {
        fit_pending_ = true;
        fit_k0_ = k0;
        fit_k1_ = k1;
    }
    bool lod_active() const { return lod_; }
    // The last draw showed the resting stage as one texture (PlanGpu::picture).
    bool picture_active() const { return picture_ != nullptr; }
    // Screen rectangle (ImGui pixels) of cell-space point p in the last draw.
    ImVec2 to_screen(float x, float y) const;
    ImVec2 origin() const { return origin_; }
    // Screen centre of the pinned cell's marker in the last draw (NaN none).
    ImVec2 pin_screen() const { return pin_screen_; }
    // The ghost's label [x0, y0, x1, y1] in the last draw (NaN: none).
    ImVec4 ghost_label() const { return ghost_label_; }
    // The grid labels the last draw showed (screen pixels), for probes.
    const std::vector<DrawnLabel>& drawn_labels() const { return drawn_labels_; }
    // Element numbers the last draw printed in cells; the canvas size.
    int64_t drawn_numbers() const { return drawn_numbers_; }
    // The first kNumberSample numbers printed, in cell order (probes).
    static constexpr size_t kNumberSample = 64;
    const std::vector<int64_t>& drawn_number_sample() const { return numbers_; }
    ImVec2 canvas_size() const { return size_; }

    // GL callback target; public for the ImGui callback trampoline.
    void render_gl(const ImDrawList* list, const ImDrawCmd* cmd);

  private:
    void fit(PlanGpu& gpu, int k0, int k1);
    void handle_input(PlanGpu& gpu);
    void refit_on_resize();
    void note_diagram(PlanGpu& gpu);
    // What the view draws over the cells with ImGui: the memory grid's row
    // and fractal lines, the stage's overlays from core, cell numbers, the
    // highlighted cell's path through the stages.
    void draw_memory_lines(ImDrawList* dl, ImVec2 end, const ViewStyle& style);
    void draw_stage_overlays(PlanGpu& gpu, ImDrawList* dl, ImVec2 end, const ViewStyle& style);
    void draw_numbers(PlanGpu& gpu, ImDrawList* dl, ImVec2 end, const ViewStyle& style);
    void draw_path(PlanGpu& gpu, ImDrawList* dl, const ViewStyle& style);
    Camera fitted(PlanGpu& gpu, int k0, int k1) const;
    Camera fitted_at(PlanGpu& gpu, int k0, int k1, float label_scale) const;
    int64_t pick(PlanGpu& gpu, ImVec2 mouse);
    void upload_uniforms(float w, float h, bool pick_mode, ImVec2 mouse);
    void upload_view_uniforms(unsigned prog, float w, float h, bool pick_mode, ImVec2 mouse);
    void draw_picture(float w, float h);
    // The wave buffer of this draw's step (0: all cells at once).
    unsigned wave_buffer() const { return waves_ && t_ > 0 && !lod_ ? waves_->buffer() : 0; }

    Camera cam_;
    bool fit_pending_ = true, follow_ = false;
    int fit_k0_ = 0, fit_k1_ = -1;
    ImVec2 origin_{0, 0}, size_{0, 0};
    ImVec2 fitted_size_{0, 0};  // canvas size of the last fit; 0 = moved by hand
    int64_t hovered_ = -1;
    bool clicked_ = false, dragged_ = false;
    bool lod_ = false;
    ImVec2 last_mouse_{-1, -1};
    float last_stage_ = -1;
    // Frame state read by render_gl.
    PlanGpu* gpu_ = nullptr;
    int ka_ = 0, kb_ = 0;
    float t_ = 0;
    int64_t hover_draw_ = -1;
    bool dark_ = true;
    const PlanGpu::Picture* picture_ = nullptr;  // the resting stage as a texture
    WaveSet* waves_ = nullptr;                   // staged motion of this draw
    ImVec2 pin_screen_{NAN, NAN};
    ImVec4 ghost_label_{NAN, NAN, NAN, NAN};
    std::vector<DrawnLabel> drawn_labels_;
    int64_t drawn_numbers_ = 0;
    std::vector<int64_t> numbers_;  // drawn_number_sample()
    unsigned vao_ = 0, quad_ = 0, pic_vao_ = 0;
};

}  // namespace ll::render
