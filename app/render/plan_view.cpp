// Sections: [input + overlays] [GL]
#include "app/render/plan_view.hpp"

#include "app/gui/frame_stats.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "app/render/gl_programs.hpp"
#include "app/render/grid_labels.hpp"
#include "app/render/label_scale.hpp"
#include "app/render/overlays.hpp"
#include "app/render/present.hpp"
#include "app/render/trail.hpp"

namespace ll::render {

namespace {
float lum(const Rgba8& c) {
    return 0.299f * c[0] + 0.587f * c[1] + 0.114f * c[2];
}
}  // namespace

// ---- [input + overlays] -------------------------------------------------------

PlanView::PlanView() = default;

PlanView::~PlanView() {
    if (vao_) glDeleteVertexArrays(1, &vao_);
    if (pic_vao_) glDeleteVertexArrays(1, &pic_vao_);
    if (quad_) glDeleteBuffers(1, &quad_);
}

ImVec2 PlanView::to_screen(float x, float y) const {
    return ImVec2(origin_.x + (x - cam_.pan_x) * cam_.zoom,
                  origin_.y + (y - cam_.pan_y) * cam_.zoom);
}

// The fit of stages [k0, k1] with room for labels at the scale the fit's
// cells give them (label_scale.hpp). The scale comes from a first fit with
// body-size margins; the larger margins only shrink the cells, so the labels
// drawn at the final cells' scale (no larger) fit the room kept for them, and
// the result depends on the canvas alone: stable from frame to frame.
Camera PlanView::fitted(PlanGpu& gpu, int k0, int k1) const {
    const Camera first = fitted_at(gpu, k0, k1, 1.f);
    const float s = label_text_scale(first.zoom);
    return s > 1.f ? fitted_at(gpu, k0, k1, s) : first;
}

Camera PlanView::fitted_at(PlanGpu& gpu, int k0, int k1, float label_scale) const {
    Camera c = cam_;
    const Plan* p = gpu.plan();
    if (!p || size_.x < 8 || size_.y < 8) return c;
    float w = 1, h = 1;
    LabelMargins lm;  // room for the grid labels (axis names, ticks, addresses)
    for (int k = k0; k <= k1; ++k) {
        Extent e = grid_extent(p->stages[size_t(k)].grid);
        w = std::max(w, e.w);
        h = std::max(h, e.h);
        LabelMargins m = label_margins(p->stages[size_t(k)], label_scale);
        lm.left = std::max(lm.left, m.left), lm.top = std::max(lm.top, m.top);
        lm.right = std::max(lm.right, m.right), lm.bottom = std::max(lm.bottom, m.bottom);
        lm.cells_left = std::max(lm.cells_left, m.cells_left);
        lm.cells_right = std::max(lm.cells_right, m.cells_right);
        lm.tag_left = std::max(lm.tag_left, m.tag_left), lm.tag_h = std::max(lm.tag_h, m.tag_h);
    }
    const float margin = 12, top = margin + lm.top;
    float left = margin + lm.left;
    const float right = margin + lm.right, bottom = margin + lm.bottom;
    const float wide = w + lm.cells_left + lm.cells_right;  // with labels beside the grid
    auto zoom_for = [&] {
        const float z = std::min((size_.x - left - right) / wide, (size_.y - top - bottom) / h);
        return std::clamp(z, 1e-4f, display().max_cell());
    };
    c.zoom = zoom_for();
    // Cells too small for the block tags above their blocks: room for them
    // left of the row labels (draw_labels), which only shrinks the cells.
    // (at most a third of the view: past that the cells shrink too much)
    if (lm.tag_left > lm.left && lm.tag_left <= size_.x / 3 && tags_beside(c.zoom, lm.tag_h)) {
        left = margin + lm.tag_left;
        c.zoom = zoom_for();
    }
    c.pan_x = -((size_.x - left - right) / c.zoom - wide) / 2 - left / c.zoom - lm.cells_left;
    c.pan_y = -((size_.y - top - bottom) / c.zoom - h) / 2 - top / c.zoom;
    return c;
}

void PlanView::fit(PlanGpu& gpu, int k0, int k1) {
    cam_ = fitted(gpu, k0, k1);
    fitted_size_ = size_;
}

// A camera the fit placed is placed again when the canvas changes size
// (presentation mode, a resized window, a UI scale); one moved by hand stays.
void PlanView::refit_on_resize() {
    if (fitted_size_.x <= 0 || follow_ || fit_pending_) return;
    if (std::abs(size_.x - fitted_size_.x) < 1 && std::abs(size_.y - fitted_size_.y) < 1) return;
    fit_pending_ = true;
}

// The screen rectangle the shown stage's cells cover, for the presentation
// probe (app/render/present.hpp).
void PlanView::note_diagram(PlanGpu& gpu) {
    const Plan* p = gpu.plan();
    Extent e = grid_extent(p->stages[size_t(ka_)].grid),
           f = grid_extent(p->stages[size_t(kb_)].grid);
    ImVec2 a = to_screen(0, 0), b = to_screen(std::max(e.w, f.w), std::max(e.h, f.h));
    ImVec2 end(origin_.x + size_.x, origin_.y + size_.y);
    // The labels around the grid (axes, ticks, addresses) belong to the diagram.
    for (const DrawnLabel& l : drawn_labels_) {
        a = ImVec2(std::min(a.x, l.x), std::min(a.y, l.y));
        b = ImVec2(std::max(b.x, l.x + l.w), std::max(b.y, l.y + l.h));
    }
    diagram_note(ImVec2(std::max(a.x, origin_.x), std::max(a.y, origin_.y)),
                 ImVec2(std::min(b.x, end.x), std::min(b.y, end.y)));
}

void PlanView::draw(PlanGpu& gpu, float s, ImVec2 size, const ViewStyle& style) {
    gpu_ = &gpu;
    dark_ = style.dark;
    waves_ = style.waves;
    pin_screen_ = ImVec2(NAN, NAN);
    ghost_label_ = ImVec4(NAN, NAN, NAN, NAN);
    clicked_ = false;
    const Plan* p = gpu.plan();
    ImGui::PushID(this);
    size.x = std::max(size.x, 16.f);
    size.y = std::max(size.y, 16.f);
    ImGui::InvisibleButton("canvas", size,
                           ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight);
    origin_ = ImGui::GetItemRectMin();
    size_ = size;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImVec2 end(origin_.x + size.x, origin_.y + size.y);
    dl->AddRectFilled(origin_, end,
                      style.dark ? IM_COL32(22, 24, 28, 255) : IM_COL32(250, 250, 250, 255));
    if (!p || p->stages.empty() || p->cell_count == 0) {
        ImGui::PopID();
        return;
    }
    gpu.sync();  // the colours set_plan/set_colours recorded, uploaded once
    int last = int(p->stages.size()) - 1;
    s = std::clamp(s, 0.f, float(last));
    ka_ = std::min(int(std::floor(s)), last);
    t_ = s - float(ka_);
    // Resting on a stage needs only that stage resident: two views at rest
    // plus one gliding fit the three slots, so no stage is re-uploaded per frame.
    kb_ = t_ > 0 ? std::min(ka_ + 1, last) : ka_;
    if (waves_ && t_ > 0) waves_->step(ka_);  // this step's waves, before a pick or the GL callback
    refit_on_resize();
    if (fit_pending_) {
        int k1 = fit_k1_ < 0 ? last : std::min(fit_k1_, last);
        fit(gpu, std::min(fit_k0_, k1), k1);
        fit_pending_ = false;
    }

    handle_input(gpu);

    ImGuiIO& io = ImGui::GetIO();
    const bool over = ImGui::IsItemHovered();
    lod_ = gpu.block_count() > 0 && cam_.zoom < 1.5f;
    if (over && !lod_ && cam_.zoom >= 2.f) {
        bool moved = io.MousePos.x != last_mouse_.x || io.MousePos.y != last_mouse_.y ||
                     s != last_stage_ || io.MouseWheel != 0 || io.MouseDelta.x != 0;
        if (moved) hovered_ = pick(gpu, io.MousePos);
        last_mouse_ = io.MousePos;
        last_stage_ = s;
    } else {
        hovered_ = -1;
        last_mouse_ = ImVec2(-1, -1);
    }
    hover_draw_ = style.pinned >= 0 ? style.pinned : hovered_ >= 0 ? hovered_ : style.highlight;
    // Make sure both stages are resident before the GL callback runs, and
    // have the stage after them prepared in the background while cells glide
    // (or while the following view waits for a step).
    gpu.stage(ka_);
    gpu.stage(kb_);
    if (t_ > 0 || follow_) gpu.prefetch(t_ > 0 ? kb_ + 1 : ka_ + 1);
    // At rest on a large plan with cells of a few pixels, the stage is one
    // texture (the same pixels; llvmpipe drew 300K small quads at ~7 fps).
    static const bool no_picture = std::getenv("LAYOUTLAB_NO_PICTURE") != nullptr;
    picture_ = nullptr;
    if (!no_picture && !lod_ && ka_ == kb_ && gpu.block_count() > 0 && cam_.zoom < 8.f) {
        picture_ = gpu.picture(ka_);
    }

    dl->PushClipRect(origin_, end, true);
    dl->AddCallback(
        [](const ImDrawList* l, const ImDrawCmd* c) {
            static_cast<PlanView*>(c->UserCallbackData)->render_gl(l, c);
        },
        this);
    dl->AddCallback(ImDrawCallback_ResetRenderState, nullptr);

    draw_memory_lines(dl, end, style);
    draw_stage_overlays(gpu, dl, end, style);
    draw_numbers(gpu, dl, end, style);
    draw_path(gpu, dl, style);
    dl->PopClipRect();
    note_diagram(gpu);
    ImGui::PopID();
}

// Wheel zoom about the mouse, drag to pan, click to select, double click to
// follow; the follow camera glides between the two stages' framings.
void PlanView::handle_input(PlanGpu& gpu) {
    // Input: wheel zooms about the mouse, dragging pans, a click selects.
    ImGuiIO& io = ImGui::GetIO();
    bool over = ImGui::IsItemHovered();
    if (over && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) follow_ = true;
    if (follow_) {
        // Geometric zoom blend keeps the glide even when the scales differ a lot.
        float tt = t_ * t_ * (3 - 2 * t_);
        Camera a = fitted(gpu, ka_, ka_), b = fitted(gpu, kb_, kb_);
        cam_.zoom = a.zoom * std::pow(b.zoom / a.zoom, tt);
        // Keep the framings' centres on a straight line.
        float acx = a.pan_x + size_.x / (2 * a.zoom), acy = a.pan_y + size_.y / (2 * a.zoom);
        float bcx = b.pan_x + size_.x / (2 * b.zoom), bcy = b.pan_y + size_.y / (2 * b.zoom);
        cam_.pan_x = acx + (bcx - acx) * tt - size_.x / (2 * cam_.zoom);
        cam_.pan_y = acy + (bcy - acy) * tt - size_.y / (2 * cam_.zoom);
    }
    if (over && io.MouseWheel != 0) {
        follow_ = false;
        fitted_size_ = ImVec2(0, 0);
        float f = std::pow(1.15f, io.MouseWheel);
        float cx = cam_.pan_x + (io.MousePos.x - origin_.x) / cam_.zoom;
        float cy = cam_.pan_y + (io.MousePos.y - origin_.y) / cam_.zoom;
        cam_.zoom = std::clamp(cam_.zoom * f, 1e-4f, 400.f);
        cam_.pan_x = cx - (io.MousePos.x - origin_.x) / cam_.zoom;
        cam_.pan_y = cy - (io.MousePos.y - origin_.y) / cam_.zoom;
    }
    if (ImGui::IsItemActivated()) dragged_ = false;
    if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 2.f)) {
        cam_.pan_x -= io.MouseDelta.x / cam_.zoom;
        cam_.pan_y -= io.MouseDelta.y / cam_.zoom;
        dragged_ = true;
        follow_ = false;
        fitted_size_ = ImVec2(0, 0);
    }
    if (ImGui::IsItemDeactivated() && !dragged_) clicked_ = true;
}

void PlanView::draw_memory_lines(ImDrawList* dl, ImVec2 end, const ViewStyle& style) {
    // Memory grid lines: every 32-byte row (when rows are tall enough) and
    // every 512-byte fractal, faded in as the linear stage comes in.
    for (int side = 0; side < 2; ++side) {
        int k = side == 0 ? ka_ : kb_;
        float alpha = side == 0 ? 1.f - t_ : t_;
        if (ka_ == kb_ && side == 1) break;
        const Grid& g = gpu_->plan()->stages[size_t(k)].grid;
        if (!g.linear || alpha < 0.05f) continue;
        int64_t n = g.shape[0], rows = ceil_div(n, g.row_elems);
        int64_t band_rows = g.band_rows > 0 ? g.band_rows : rows;
        int64_t bands = ceil_div(rows, band_rows);
        float y_top = cam_.pan_y, y_bot = cam_.pan_y + size_.y / cam_.zoom;
        int64_t r0 = std::max<int64_t>(0, int64_t(std::floor(y_top)));
        int64_t r1 = std::min<int64_t>(band_rows, int64_t(std::ceil(y_bot)));
        bool row_lines = cam_.zoom >= 6.f;
        bool frac_lines = cam_.zoom * 16 >= 6.f;
        if (!row_lines && !frac_lines) continue;  // keeps the frame cost free of the row count
        ImU32 rc = style.dark ? IM_COL32(120, 120, 130, int(90 * alpha))
                              : IM_COL32(90, 90, 100, int(90 * alpha));
        ImU32 fc = style.dark ? IM_COL32(255, 230, 120, int(230 * alpha))
                              : IM_COL32(200, 60, 20, int(230 * alpha));
        for (int64_t b = 0; b < bands; ++b) {
            float bx = float(b * (g.row_elems + 2));
            ImVec2 a0 = to_screen(bx, 0), a1 = to_screen(bx + float(g.row_elems), 0);
            if (a1.x < origin_.x || a0.x > end.x) continue;
            int64_t rows_here = std::min(band_rows, rows - b * band_rows);
            for (int64_t r = r0; r <= std::min(r1, rows_here); ++r) {
                bool frac = r % 16 == 0;
                if (!(frac ? frac_lines : row_lines)) continue;
                float y = to_screen(0, float(r)).y;
                dl->AddLine(ImVec2(a0.x, y), ImVec2(a1.x, y), frac ? fc : rc, frac ? 2.f : 1.f);
                // (The fractal addresses are grid labels from core: plan_labels.)
            }
            if (frac_lines) {  // band sides
                float yt = to_screen(0, 0).y, yb = to_screen(0, float(rows_here)).y;
                dl->AddLine(ImVec2(a0.x, yt), ImVec2(a0.x, yb), fc, 1.f);
                dl->AddLine(ImVec2(a1.x, yt), ImVec2(a1.x, yb), fc, 1.f);
            }
        }
    }
}

void PlanView::draw_stage_overlays(PlanGpu& gpu, ImDrawList* dl, ImVec2 end,
                                   const ViewStyle& style) {
    // Overlays from core (boxes, arrows, labels, highlighted cells) of the
    // nearer stage, faded across the glide.
    {
        const size_t kn = size_t(t_ < 0.5f ? ka_ : kb_);
        OverlayFrame of;
        of.dl = dl;
        of.clip_min = origin_;
        of.clip_max = end;
        of.at = [this](float x, float y) { return to_screen(x, y); };
        of.zoom = cam_.zoom;
        of.dark = style.dark;
        of.alpha = ka_ == kb_ ? 1.f : std::abs(t_ - 0.5f) * 2.f;
        drawn_labels_.clear();
        of.drawn = &drawn_labels_;
        of.sparse_tags = style.sparse_tags;
        of.label_scale = label_text_scale(cam_.zoom);
        draw_overlays(of, gpu.plan()->stages[kn]);
        const Stage& st = gpu.plan()->stages[kn];
        auto place = [&](int64_t cell) { return gpu.place(kn, cell); };
        if (!st.highlight.empty() && ka_ == kb_) draw_highlight(of, st.highlight, place);
        if (ka_ == kb_)
            for (const CellSet& m : st.marks) draw_cell_set(of, m, place);
    }
}

void PlanView::draw_numbers(PlanGpu& gpu, ImDrawList* dl, ImVec2 end, const ViewStyle& style) {
    const Plan* p = gpu.plan();
    // Source indices printed in the cells of small plans.
    auto lerp_place = [&](int64_t cell, float& x, float& y) {
        Place a = gpu.place(size_t(ka_), cell), b = gpu.place(size_t(kb_), cell);
        float tt =
            waves_ ? waves_->cell_t(ka_, cell, t_) : t_ * t_ * (3 - 2 * t_);  // as the shader
        if (std::isnan(a.x) && std::isnan(b.x)) return false;
        if (std::isnan(a.x)) a = b;
        if (std::isnan(b.x)) b = a;
        x = a.x + (b.x - a.x) * tt;
        y = a.y + (b.y - a.y) * tt;
        return true;
    };
    const auto& cols = gpu.small_colours();
    drawn_numbers_ = 0;
    numbers_.clear();
    if (style.show_numbers && !cols.empty() && p->cell_count <= 16384) {
        // Numbers shrink to fit their cell down to 7 px (issue 13: at 9 px
        // they vanished in the smaller cells of the later stages).
        // On big cells the cap grows with the labels (label_scale.hpp).
        float fs =
            std::min(cam_.zoom * 0.45f, ImGui::GetFontSize() * 1.2f * label_text_scale(cam_.zoom));
        if (fs >= 7.f) {
            ImFont* font = ImGui::GetFont();
            for (int64_t i = 0; i < p->cell_count; ++i) {
                int64_t src = p->src[size_t(i)];
                if (src < 0) continue;
                float x, y;
                if (!lerp_place(i, x, y)) continue;
                ImVec2 a = to_screen(x, y);
                if (a.x > end.x || a.y > end.y || a.x + cam_.zoom < origin_.x ||
                    a.y + cam_.zoom < origin_.y)
                    continue;
                if (p->number_period > 0) src %= p->number_period;
                char buf[24];
                std::snprintf(buf, sizeof buf, "%lld", (long long)src);
                if (numbers_.size() < kNumberSample) numbers_.push_back(src);
                float fn = fs;
                ImVec2 ts = font->CalcTextSizeA(fn, 1e9f, 0, buf);
                if (ts.x > cam_.zoom * 0.92f) {
                    fn = fs * cam_.zoom * 0.92f / ts.x;
                    if (fn < 7.f) continue;
                    ts = font->CalcTextSizeA(fn, 1e9f, 0, buf);
                }
                ImU32 tc = lum(cols[size_t(i)]) > 140 ? IM_COL32(0, 0, 0, 255)
                                                      : IM_COL32(255, 255, 255, 255);
                dl->AddText(font, fn,
                            ImVec2(a.x + (cam_.zoom - ts.x) / 2, a.y + (cam_.zoom - ts.y) / 2), tc,
                            buf);
                ++drawn_numbers_;
            }
        }
    }
}

void PlanView::draw_path(PlanGpu& gpu, ImDrawList* dl, const ViewStyle& style) {
    // The pinned cell where it is now, and the ghost of the stage before
    // (app/render/trail.cpp). Places of other stages are never drawn in this
    // stage's frame: they would land on unrelated cells.
    if (!style.show_path || style.pinned < 0) return;
    if (gpu.small_colours().empty() && !gpu.plan()->offset_of) return;
    PinFrame f;
    f.dl = dl;
    f.at = [this](float x, float y) { return to_screen(x, y); };
    f.zoom = cam_.zoom;
    f.dark = style.dark;
    f.ka = ka_;
    f.kb = kb_;
    f.tt = waves_ ? waves_->cell_t(ka_, style.pinned, t_) : t_ * t_ * (3 - 2 * t_);
    f.avoid = &drawn_labels_;
    f.ghost_label = &ghost_label_;
    pin_screen_ = draw_pinned(gpu, style.pinned, f);
}

// ---- [GL] ---------------------------------------------------------------------

// Uniforms the cell programs and the picture program share: the camera's
// cell -> NDC transform, the gap around a cell, the padding palette.
void PlanView::upload_view_uniforms(unsigned prog, float w, float h, bool pick_mode, ImVec2 mouse) {
    float z = cam_.zoom;
    float ox = origin_.x - cam_.pan_x * z, oy = origin_.y - cam_.pan_y * z;
    float xf[4];
    if (pick_mode) {  // the 1x1 target covers the pixel under the mouse
        xf[0] = 2 * z, xf[1] = -2 * z, xf[2] = 2 * (ox - mouse.x), xf[3] = -2 * (oy - mouse.y);
    } else {
        xf[0] = 2 * z / w, xf[1] = -2 * z / h, xf[2] = 2 * ox / w - 1, xf[3] = 1 - 2 * oy / h;
    }
    glUniform4fv(glGetUniformLocation(prog, "u_xform"), 1, xf);
    float inset = z >= 5.f ? std::min(1.f / z, 0.12f) : 0.f;
    glUniform1f(glGetUniformLocation(prog, "u_inset"), pick_mode ? 0.f : inset);
    // Dimmed cells fade towards the canvas (the colour draw() fills it with).
    if (dark_)
        glUniform4f(glGetUniformLocation(prog, "u_canvas"), 22 / 255.f, 24 / 255.f, 28 / 255.f,
                    1.f);
    else
        glUniform4f(glGetUniformLocation(prog, "u_canvas"), 250 / 255.f, 250 / 255.f, 250 / 255.f,
                    1.f);
    if (dark_) {
        glUniform4f(glGetUniformLocation(prog, "u_pad_col"), 0.20f, 0.20f, 0.23f, 1.f);
        glUniform4f(glGetUniformLocation(prog, "u_outline_col"), 0.50f, 0.50f, 0.56f, 1.f);
    } else {
        glUniform4f(glGetUniformLocation(prog, "u_pad_col"), 0.80f, 0.80f, 0.82f, 1.f);
        glUniform4f(glGetUniformLocation(prog, "u_outline_col"), 0.45f, 0.45f, 0.50f, 1.f);
    }
}

void PlanView::upload_uniforms(float w, float h, bool pick_mode, ImVec2 mouse) {
    SharedGl& g = gl();
    GLuint prog = pick_mode ? g.pick : g.draw;
    glUseProgram(prog);
    upload_view_uniforms(prog, w, h, pick_mode, mouse);
    glUniform1f(glGetUniformLocation(prog, "u_t"), t_);
    glUniform1i(glGetUniformLocation(prog, "u_hover"), lod_ && !pick_mode ? -1 : int(hover_draw_));
    glUniform1i(glGetUniformLocation(prog, "u_id_base"), 0);
    ImVec2 fs = pick_mode ? ImVec2(1, 1) : ImGui::GetDrawData()->FramebufferScale;
    glUniform2f(glGetUniformLocation(prog, "u_fb_size"), w * fs.x, h * fs.y);
    unsigned wb = waves_ && t_ > 0 && !lod_ ? waves_->buffer() : 0;
    glUniform1f(glGetUniformLocation(prog, "u_waves"), wb ? float(waves_->count()) : 1.f);
}

namespace {

// Binds the instance attributes of cells (or blocks) of stages a and b.
// `first`: the first cell drawn (instance 0 of the draw), for cells only.
void bind_instances(PlanGpu& gpu, int ka, int kb, bool blocks, int64_t first = 0,
                    unsigned waves = 0) {
    const PlanGpu::Slot& a = gpu.stage(ka);
    const PlanGpu::Slot& b = gpu.stage(kb);
    GLuint ba = blocks ? a.blocks : a.cells, bb = blocks ? b.blocks : b.cells;
    GLsizei stride = blocks ? 16 : 8;
    auto at = [&](int64_t bytes) { return reinterpret_cast<void*>(uintptr_t(first * bytes)); };
    glBindBuffer(GL_ARRAY_BUFFER, ba);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, stride, at(stride));
    glVertexAttribDivisor(1, 1);
    glBindBuffer(GL_ARRAY_BUFFER, bb);
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, stride, at(stride));
    glVertexAttribDivisor(2, 1);
    glBindBuffer(GL_ARRAY_BUFFER, blocks ? gpu.block_colour_buffer() : gpu.colour_buffer());
    glEnableVertexAttribArray(3);
    glVertexAttribPointer(3, 4, GL_UNSIGNED_BYTE, GL_TRUE, 4, at(4));
    glVertexAttribDivisor(3, 1);
    if (blocks) {
        glBindBuffer(GL_ARRAY_BUFFER, ba);
        glEnableVertexAttribArray(4);
        glVertexAttribPointer(4, 2, GL_FLOAT, GL_FALSE, 16, reinterpret_cast<void*>(8));
        glVertexAttribDivisor(4, 1);
        glBindBuffer(GL_ARRAY_BUFFER, bb);
        glEnableVertexAttribArray(5);
        glVertexAttribPointer(5, 2, GL_FLOAT, GL_FALSE, 16, reinterpret_cast<void*>(8));
        glVertexAttribDivisor(5, 1);
    } else {
        glDisableVertexAttribArray(4);
        glDisableVertexAttribArray(5);
        glVertexAttrib2f(4, 1.f, 1.f);
        glVertexAttrib2f(5, 1.f, 1.f);
    }
    // Dim per cell (or per block: the share of its cells dimmed) in each
    // stage; 0 when the stage dims nothing.
    auto bind_dim = [&](GLuint loc, unsigned buf) {
        if (!buf) {
            glDisableVertexAttribArray(loc);
            glVertexAttrib1f(loc, 0.f);
            return;
        }
        glBindBuffer(GL_ARRAY_BUFFER, buf);
        glEnableVertexAttribArray(loc);
        glVertexAttribPointer(loc, 1, GL_UNSIGNED_BYTE, GL_TRUE, 1, at(1));
        glVertexAttribDivisor(loc, 1);
    };
    bind_dim(6, blocks ? a.block_dim : a.dim);
    bind_dim(7, blocks ? b.block_dim : b.dim);
    if (waves && !blocks) {  // staged motion: one float per cell
        glBindBuffer(GL_ARRAY_BUFFER, waves);
        glEnableVertexAttribArray(8);
        glVertexAttribPointer(8, 1, GL_FLOAT, GL_FALSE, 4, at(4));
        glVertexAttribDivisor(8, 1);
    } else {
        glDisableVertexAttribArray(8);
        glVertexAttrib1f(8, 0.f);
    }
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

}  // namespace

int64_t PlanView::pick(PlanGpu& gpu, ImVec2 mouse) {
    if (!gpu.plan()) return -1;
    if (gpu.cell_count() > PlanGpu::kSmallPlan) {
        // A GPU pick would draw every cell again; at rest the grid inverts on
        // the CPU instead (no hover while cells glide).
        if (t_ > 0) return -1;
        float x = cam_.pan_x + (mouse.x - origin_.x) / cam_.zoom;
        float y = cam_.pan_y + (mouse.y - origin_.y) / cam_.zoom;
        int64_t o = offset_at(gpu.plan()->stages[size_t(ka_)].grid, x, y);
        return o < 0 ? -1 : gpu.cell_at(size_t(ka_), o);
    }
    SharedGl& g = gl();
    if (!vao_) {
        glGenVertexArrays(1, &vao_);
        glGenBuffers(1, &quad_);
        const float q[8] = {0, 0, 1, 0, 0, 1, 1, 1};
        glBindVertexArray(vao_);
        glBindBuffer(GL_ARRAY_BUFFER, quad_);
        glBufferData(GL_ARRAY_BUFFER, sizeof q, q, GL_STATIC_DRAW);
        glEnableVertexAttribArray(0);
        glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 8, nullptr);
    }
    GLint prev_fbo = 0, vp[4];
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &prev_fbo);
    glGetIntegerv(GL_VIEWPORT, vp);
    glBindFramebuffer(GL_FRAMEBUFFER, g.pick_fbo);
    glViewport(0, 0, 1, 1);
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_BLEND);
    GLint zero[4] = {0, 0, 0, 0};
    glClearBufferiv(GL_COLOR, 0, zero);
    upload_uniforms(1, 1, true, mouse);
    glBindVertexArray(vao_);
    bind_instances(gpu, ka_, kb_, false, 0, wave_buffer());
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, GLsizei(gpu.cell_count()));
    GLint id = 0;
    glReadPixels(0, 0, 1, 1, GL_RED_INTEGER, GL_INT, &id);
    glBindVertexArray(0);
    glBindFramebuffer(GL_FRAMEBUFFER, GLuint(prev_fbo));
    glViewport(vp[0], vp[1], vp[2], vp[3]);
    return id - 1;
}

// The resting stage as one textured quad over its grid (see picture.frag).
void PlanView::draw_picture(float w, float h) {
    GLuint prog = gl().picture;
    glUseProgram(prog);
    upload_view_uniforms(prog, w, h, false, ImVec2(0, 0));
    glUniform2f(glGetUniformLocation(prog, "u_size"), float(picture_->w), float(picture_->h));
    glUniform1f(glGetUniformLocation(prog, "u_zoom"),
                cam_.zoom * ImGui::GetDrawData()->FramebufferScale.x);
    Place hp{-1, -1};
    if (hover_draw_ >= 0) {
        hp = gpu_->place(size_t(ka_), hover_draw_);
        if (std::isnan(hp.x)) hp = {-1, -1};
    }
    glUniform2f(glGetUniformLocation(prog, "u_hover"), hp.x, hp.y);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, picture_->tex);
    glUniform1i(glGetUniformLocation(prog, "u_tex"), 0);
    if (!pic_vao_) {  // the unit quad alone (the cell VAO carries instance arrays)
        glGenVertexArrays(1, &pic_vao_);
        glBindVertexArray(pic_vao_);
        glBindBuffer(GL_ARRAY_BUFFER, quad_);
        glEnableVertexAttribArray(0);
        glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 8, nullptr);
        glBindBuffer(GL_ARRAY_BUFFER, 0);
    }
    glBindVertexArray(pic_vao_);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glBindVertexArray(0);
    glBindTexture(GL_TEXTURE_2D, 0);
}

void PlanView::render_gl(const ImDrawList*, const ImDrawCmd* cmd) {
    gui::frame_stats::Scope stats_cb(gui::frame_stats::Part::plan_callback);
    if (!gpu_ || !gpu_->plan()) return;
    ImDrawData* dd = ImGui::GetDrawData();
    float w = dd->DisplaySize.x, h = dd->DisplaySize.y;
    float sx = dd->FramebufferScale.x, sy = dd->FramebufferScale.y;
    int fb_w = int(w * sx), fb_h = int(h * sy);
    ImVec4 cr = cmd->ClipRect;
    glViewport(0, 0, fb_w, fb_h);
    glEnable(GL_SCISSOR_TEST);
    glScissor(int(cr.x * sx), int(float(fb_h) - cr.w * sy), int((cr.z - cr.x) * sx),
              int((cr.w - cr.y) * sy));
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    if (!vao_) {
        glGenVertexArrays(1, &vao_);
        glGenBuffers(1, &quad_);
        const float q[8] = {0, 0, 1, 0, 0, 1, 1, 1};
        glBindVertexArray(vao_);
        glBindBuffer(GL_ARRAY_BUFFER, quad_);
        glBufferData(GL_ARRAY_BUFFER, sizeof q, q, GL_STATIC_DRAW);
        glEnableVertexAttribArray(0);
        glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 8, nullptr);
    }
    if (picture_) {
        gui::frame_stats::Scope stats_gl(gui::frame_stats::Part::plan_gl);
        draw_picture(w, h);
        return;
    }
    upload_uniforms(w, h, false, ImVec2(0, 0));
    glBindVertexArray(vao_);
    if (!lod_ && gpu_->block_count() > 0) {
        // Zoomed in on a large plan: only the runs of blocks whose cells can
        // reach the canvas at this frame's t. A cell shown in both stages is
        // at mix(pa, pb, t'), inside the same mix of its block's two boxes; a
        // cell hidden in one stage waits at its place in the other.
        const PlanGpu::Slot& sa = gpu_->stage(ka_);
        const PlanGpu::Slot& sb = gpu_->stage(kb_);
        const float tt = t_ * t_ * (3 - 2 * t_);  // the shader's smoothstep
        // Tests compare the culled picture with an uncull'ed one.
        static const bool no_cull_env = std::getenv("LAYOUTLAB_NO_CULL") != nullptr;
        // Waves: each cell has its own t, so the blocks' mixed boxes do not hold.
        const bool no_cull = no_cull_env || wave_buffer() != 0;
        float vx0 = cam_.pan_x, vy0 = cam_.pan_y;
        float vx1 = vx0 + size_.x / cam_.zoom, vy1 = vy0 + size_.y / cam_.zoom;
        int64_t nb = gpu_->block_count(), bs = gpu_->block_size(), n = gpu_->cell_count();
        GLint id_base = glGetUniformLocation(gl().draw, "u_id_base");
        auto hits = [&](const float* r) {
            return r[0] <= r[2] && r[0] < vx1 && r[2] > vx0 && r[1] < vy1 && r[3] > vy0;
        };
        auto seen = [&](int64_t b) {
            if (no_cull) return true;
            const float* a = &sa.bounds[size_t(4 * b)];
            const float* c = &sb.bounds[size_t(4 * b)];
            if (a[0] <= a[2] && c[0] <= c[2]) {
                float m[4];
                for (int i = 0; i < 4; ++i) m[i] = a[i] + (c[i] - a[i]) * tt;
                if (hits(m)) return true;
            }
            // Cells hidden in one stage sit in the other stage's box.
            return (sb.partial[size_t(b)] && hits(a)) || (sa.partial[size_t(b)] && hits(c));
        };
        for (int64_t b = 0; b < nb;) {
            if (!seen(b)) {
                ++b;
                continue;
            }
            int64_t e = b + 1;
            while (e < nb && seen(e)) ++e;
            int64_t first = b * bs, count = std::min(n, e * bs) - first;
            gui::frame_stats::Scope stats_gl(gui::frame_stats::Part::plan_gl);
            bind_instances(*gpu_, ka_, kb_, false, first, wave_buffer());
            glUniform1i(id_base, GLint(first));
            glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, GLsizei(count));
            b = e;
        }
    } else {
        gui::frame_stats::Scope stats_gl(gui::frame_stats::Part::plan_gl);
        bind_instances(*gpu_, ka_, kb_, lod_, 0, lod_ ? 0 : wave_buffer());
        GLsizei count = GLsizei(lod_ ? gpu_->block_count() : gpu_->cell_count());
        glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, count);
    }
    glBindVertexArray(0);
}

}  // namespace ll::render
