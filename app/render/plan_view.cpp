// Sections: [GL helpers] [PlanGpu] [PlanView: input + overlays] [PlanView: GL]
#include "app/render/plan_view.hpp"

#include "app/gui/frame_stats.hpp"

#include <glad/gl.h>
#include <layoutlab_shaders.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <limits>
#include <stdexcept>
#include <string>

namespace ll::render {

// ---- [GL helpers] -------------------------------------------------------------

namespace {

constexpr float kHidden = -1e30f;

struct SharedGl {
    GLuint draw = 0, pick = 0, picture = 0;
    GLuint pick_fbo = 0, pick_tex = 0;
    bool ready = false;
};
SharedGl& shared() {
    static SharedGl s;
    return s;
}

GLuint compile(GLenum type, const char* src) {
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, nullptr);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[2048];
        glGetShaderInfoLog(s, sizeof log, nullptr, log);
        throw std::runtime_error(std::string("shader compile failed: ") + log);
    }
    return s;
}

GLuint link(const char* vs, const char* fs) {
    GLuint v = compile(GL_VERTEX_SHADER, vs), f = compile(GL_FRAGMENT_SHADER, fs);
    GLuint p = glCreateProgram();
    glAttachShader(p, v);
    glAttachShader(p, f);
    glLinkProgram(p);
    glDeleteShader(v);
    glDeleteShader(f);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[2048];
        glGetProgramInfoLog(p, sizeof log, nullptr, log);
        throw std::runtime_error(std::string("shader link failed: ") + log);
    }
    return p;
}

SharedGl& gl() {
    SharedGl& s = shared();
    if (s.ready) return s;
    s.draw = link(shaders::cells_vert, shaders::cells_frag);
    s.pick = link(shaders::cells_vert, shaders::cells_pick_frag);
    s.picture = link(shaders::picture_vert, shaders::picture_frag);
    glGenTextures(1, &s.pick_tex);
    glBindTexture(GL_TEXTURE_2D, s.pick_tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R32I, 1, 1, 0, GL_RED_INTEGER, GL_INT, nullptr);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glGenFramebuffers(1, &s.pick_fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, s.pick_fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, s.pick_tex, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glBindTexture(GL_TEXTURE_2D, 0);
    s.ready = true;
    return s;
}

float lum(const Rgba8& c) {
    return 0.299f * c[0] + 0.587f * c[1] + 0.114f * c[2];
}

}  // namespace

void release_shared_gl() {
    SharedGl& s = shared();
    if (!s.ready) return;
    glDeleteProgram(s.draw);
    glDeleteProgram(s.pick);
    glDeleteProgram(s.picture);
    glDeleteFramebuffers(1, &s.pick_fbo);
    glDeleteTextures(1, &s.pick_tex);
    s = SharedGl{};
}

// ---- [PlanGpu] ----------------------------------------------------------------

PlanGpu::PlanGpu() = default;

PlanGpu::~PlanGpu() {
    if (pic_job_.valid()) pic_job_.wait();
    drop_pictures();
    drop_slots();
    if (colours_) glDeleteBuffers(1, &colours_);
    if (block_colours_) glDeleteBuffers(1, &block_colours_);
}

void PlanGpu::drop_slots() {
    for (Slot& s : slots_) {
        if (s.cells) glDeleteBuffers(1, &s.cells);
        if (s.blocks) glDeleteBuffers(1, &s.blocks);
        s = Slot{};
    }
}

void PlanGpu::drop_pictures() {
    for (Picture& p : pictures_) {
        if (p.tex) glDeleteTextures(1, &p.tex);
        p = Picture{};
    }
    if (pic_job_.valid()) pic_job_.wait();  // its plan or colours are stale
    pic_job_ = {};
}

namespace {
double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

void PlanGpu::set_plan(std::shared_ptr<const Plan> p) {
    if (ahead_.valid()) ahead_.wait();  // it holds the old plan alive; let it finish
    ahead_ = {};
    ahead_k_ = -1;
    auto t0 = std::chrono::steady_clock::now();
    load_ms_ = 0;
    drop_slots();
    drop_pictures();
    plan_ = std::move(p);
    memo_cell_ = -1;
    inverse_.clear();
    inverse_k_ = -1;
    small_places_.clear();
    final_offsets_.clear();
    if (!plan_) return;
    int64_t n = plan_->cell_count;
    block_size_ = fractal_elems(plan_->dtype);
    // At most 16K blocks: llvmpipe's vertex stage allocates per drawn vertex
    // every frame, so the block count, not the cell count, sets the frame cost.
    while (ceil_div(n, block_size_) > (int64_t(1) << 14)) block_size_ *= 4;
    block_count_ = n > 65536 ? ceil_div(n, block_size_) : 0;
    final_identity_ = -1;  // large plans: found out on first inspect
    if (n <= kSmallPlan) {
        small_places_.resize(plan_->stages.size());
        for (size_t k = 0; k < plan_->stages.size(); ++k) stage_places(*plan_, k, small_places_[k]);
        final_offsets_ = plan_->offsets(plan_->stages.size() - 1);
    }
    load_ms_ += ms_since(t0);
    set_colours(mode_);
}

void PlanGpu::set_colours(ColourMode m) {
    mode_ = m;
    drop_pictures();
    if (!plan_) return;
    auto t0 = std::chrono::steady_clock::now();
    int64_t n = plan_->cell_count;
    int64_t fe = fractal_elems(plan_->dtype);
    std::vector<Rgba8> col(static_cast<size_t>(n));
    cell_colours(*plan_, m, fe, col.data());
    if (!colours_) glGenBuffers(1, &colours_);
    glBindBuffer(GL_ARRAY_BUFFER, colours_);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(n * 4), col.data(), GL_STATIC_DRAW);
    if (block_count_ > 0) {
        // Block colour: the mean of its data cells; all padding stays padding.
        std::vector<Rgba8> bc(static_cast<size_t>(block_count_));
        for (int64_t b = 0; b < block_count_; ++b) {
            int64_t lo = b * block_size_, hi = std::min(n, lo + block_size_);
            uint64_t sum[3] = {0, 0, 0}, cnt = 0;
            for (int64_t i = lo; i < hi; ++i) {
                const Rgba8& c = col[size_t(i)];
                if (c[3] == 0) continue;
                sum[0] += c[0], sum[1] += c[1], sum[2] += c[2], ++cnt;
            }
            if (cnt == 0)
                bc[size_t(b)] = {0, 0, 0, 0};
            else
                bc[size_t(b)] = {uint8_t(sum[0] / cnt), uint8_t(sum[1] / cnt),
                                 uint8_t(sum[2] / cnt), 255};
        }
        if (!block_colours_) glGenBuffers(1, &block_colours_);
        glBindBuffer(GL_ARRAY_BUFFER, block_colours_);
        glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(block_count_ * 4), bc.data(), GL_STATIC_DRAW);
    }
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    small_colours_.clear();
    if (n <= kSmallPlan) small_colours_ = std::move(col);
    load_ms_ += ms_since(t0);
}

Place PlanGpu::place(size_t k, int64_t cell) {
    if (!plan_ || cell < 0 || cell >= plan_->cell_count || k >= plan_->stages.size())
        return {NAN, NAN};
    if (!small_places_.empty())
        return {small_places_[k][size_t(2 * cell)], small_places_[k][size_t(2 * cell + 1)]};
    int64_t o = plan_->offset_of ? plan_->offset_of(k, cell) : plan_->offsets(k)[size_t(cell)];
    if (o < 0) return {NAN, NAN};
    return cell_place(plan_->stages[k].grid, o);
}

int64_t PlanGpu::final_offset(int64_t cell) const {
    if (!plan_ || cell < 0 || cell >= plan_->cell_count) return -1;
    if (!final_offsets_.empty()) return final_offsets_[size_t(cell)];
    if (plan_->offset_of) return plan_->offset_of(plan_->stages.size() - 1, cell);
    // Otherwise one full pass per newly inspected cell, not per frame.
    if (cell != memo_cell_) {
        memo_cell_ = cell;
        memo_offset_ = plan_->offsets(plan_->stages.size() - 1)[size_t(cell)];
    }
    return memo_offset_;
}

int64_t PlanGpu::cell_at(size_t k, int64_t offset) {
    if (!plan_ || offset < 0 || k >= plan_->stages.size()) return -1;
    if (k + 1 == plan_->stages.size()) {
        if (final_identity_ < 0) {  // cells are usually the final buffer's elements
            std::vector<int64_t> fin = plan_->offsets(k);
            final_identity_ = 1;
            for (size_t i = 0; i < fin.size() && final_identity_; ++i)
                final_identity_ = fin[i] == int64_t(i);
        }
        if (final_identity_) return offset < plan_->cell_count ? offset : -1;
    }
    if (int(k) != inverse_k_) {
        std::vector<int64_t> off = plan_->offsets(k);
        int64_t m = 0;
        for (int64_t o : off) m = std::max(m, o + 1);
        inverse_.assign(size_t(m), -1);
        for (size_t i = 0; i < off.size(); ++i)
            if (off[i] >= 0) inverse_[size_t(off[i])] = int32_t(i);
        inverse_k_ = int(k);
    }
    return offset < int64_t(inverse_.size()) ? inverse_[size_t(offset)] : -1;
}

namespace {

// Stage k's instance data, computed off the GL thread: cell places (hidden
// cells far away) and, for large plans, the block rectangles.
// `places`: the stage's places when already known (small plans keep them).
PlanGpu::Prepared prepare_stage(const Plan& plan, int k, int64_t block_size, int64_t block_count,
                                const std::vector<float>* places = nullptr) {
    PlanGpu::Prepared pr;
    pr.k = k;
    std::vector<float>& xy = pr.xy;
    if (places)
        xy = *places;
    else
        stage_places(plan, size_t(k), xy);
    for (float& v : xy)
        if (std::isnan(v)) v = kHidden;
    if (block_count > 0) {
        // Block rectangle: bounding box of its visible cells; when the cells
        // are scattered (the bounding box is much bigger than the block), a
        // square of the block's area at its first cell instead.
        std::vector<float>& rect = pr.rect;
        rect.assign(size_t(block_count) * 4, kHidden);
        pr.bounds.assign(size_t(block_count) * 4, 0.f);
        pr.partial.assign(size_t(block_count), 0);
        int64_t n = plan.cell_count;
        float side = std::ceil(std::sqrt(float(block_size)));
        for (int64_t b = 0; b < block_count; ++b) {
            int64_t lo = b * block_size, hi = std::min(n, lo + block_size);
            float x0 = 1e30f, y0 = 1e30f, x1 = -1e30f, y1 = -1e30f, fx = 0, fy = 0;
            bool any = false, hidden = false;
            for (int64_t i = lo; i < hi; ++i) {
                float x = xy[size_t(2 * i)], y = xy[size_t(2 * i + 1)];
                if (x == kHidden) {
                    hidden = true;
                    continue;
                }
                if (!any) fx = x, fy = y;
                any = true;
                x0 = std::min(x0, x), y0 = std::min(y0, y);
                x1 = std::max(x1, x + 1), y1 = std::max(y1, y + 1);
            }
            float* bb = &pr.bounds[size_t(4 * b)];
            bb[0] = x0, bb[1] = y0, bb[2] = x1, bb[3] = y1;
            pr.partial[size_t(b)] = hidden;
            if (!any) continue;
            float* r = &rect[size_t(4 * b)];
            if ((x1 - x0) * (y1 - y0) > 4.f * float(block_size)) {
                r[0] = fx, r[1] = fy, r[2] = side, r[3] = side;
            } else {
                r[0] = x0, r[1] = y0, r[2] = x1 - x0, r[3] = y1 - y0;
            }
        }
    }
    return pr;
}

}  // namespace

namespace {

bool g_sync_pictures = false;

// Stage k as an image of its grid: each cell's colour at its place.
PlanGpu::PictureImage build_picture(const Plan& plan, int k, ColourMode m, int max_side) {
    PlanGpu::PictureImage img;
    img.k = k;
    Extent e = grid_extent(plan.stages[size_t(k)].grid);
    int w = int(std::ceil(e.w)), h = int(std::ceil(e.h));
    if (w <= 0 || h <= 0 || w > max_side || h > max_side) return img;  // quads instead
    std::vector<float> xy;
    stage_places(plan, size_t(k), xy);
    std::vector<Rgba8> col(size_t(plan.cell_count));
    cell_colours(plan, m, fractal_elems(plan.dtype), col.data());
    img.w = w;
    img.h = h;
    img.px.assign(size_t(w) * size_t(h), Rgba8{0, 0, 0, 0});
    for (int64_t i = 0; i < plan.cell_count; ++i) {
        float x = xy[size_t(2 * i)], y = xy[size_t(2 * i + 1)];
        if (!(x >= 0 && y >= 0 && x < float(w) && y < float(h))) continue;  // hidden (NaN)
        Rgba8 c = col[size_t(i)];
        c[3] = c[3] == 0 ? 128 : 255;
        img.px[size_t(int(y)) * size_t(w) + size_t(int(x))] = c;
    }
    return img;
}

}  // namespace

void PlanGpu::set_synchronous_pictures(bool on) {
    g_sync_pictures = on;
}

void PlanGpu::upload_picture(PictureImage img) {
    Picture* slot = &pictures_[0];
    for (Picture& p : pictures_)
        if (p.used < slot->used) slot = &p;
    if (slot->tex) glDeleteTextures(1, &slot->tex);
    *slot = Picture{};
    slot->k = img.k;
    slot->used = ++clock_;
    if (img.w == 0) return;  // too big: stays a texture-less marker
    glGenTextures(1, &slot->tex);
    glBindTexture(GL_TEXTURE_2D, slot->tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, img.w, img.h, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 img.px.data());
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glBindTexture(GL_TEXTURE_2D, 0);
    slot->w = img.w;
    slot->h = img.h;
}

const PlanGpu::Picture* PlanGpu::picture(int k) {
    if (!plan_ || k < 0 || k >= int(plan_->stages.size())) return nullptr;
    for (Picture& p : pictures_)
        if (p.k == k) {
            p.used = ++clock_;
            return p.tex ? &p : nullptr;
        }
    if (max_texture_ == 0) glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_texture_);
    if (pic_job_.valid() && (g_sync_pictures || pic_job_.wait_for(std::chrono::seconds(0)) ==
                                                    std::future_status::ready)) {
        upload_picture(pic_job_.get());
        for (Picture& p : pictures_)
            if (p.k == k) return p.tex ? &p : nullptr;
    }
    if (g_sync_pictures) {
        upload_picture(build_picture(*plan_, k, mode_, max_texture_));
        for (Picture& p : pictures_)
            if (p.k == k) return p.tex ? &p : nullptr;
    }
    if (!pic_job_.valid()) {
        std::shared_ptr<const Plan> plan = plan_;
        ColourMode m = mode_;
        int side = max_texture_;
        pic_job_ = std::async(std::launch::async,
                              [plan, k, m, side] { return build_picture(*plan, k, m, side); });
    }
    return nullptr;
}

void PlanGpu::prefetch(int k) {
    if (!plan_ || !small_places_.empty() || k < 0 || k >= int(plan_->stages.size())) return;
    for (const Slot& s : slots_)
        if (s.k == k) return;
    if (ahead_k_ == k) return;
    if (ahead_.valid() && ahead_.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
        return;  // one at a time
    std::shared_ptr<const Plan> plan = plan_;
    int64_t bs = block_size_, bc = block_count_;
    ahead_ = std::async(std::launch::async,
                        [plan, k, bs, bc] { return prepare_stage(*plan, k, bs, bc); });
    ahead_k_ = k;
}

const PlanGpu::Slot& PlanGpu::stage(int k) {
    ++clock_;
    for (Slot& s : slots_)
        if (s.k == k) {
            s.used = clock_;
            return s;
        }
    Slot* victim = &slots_[0];
    for (Slot& s : slots_)
        if (s.used < victim->used) victim = &s;
    Slot& s = *victim;
    auto t0 = std::chrono::steady_clock::now();
    s.k = k;
    s.used = clock_;
    Prepared pr;
    if (!small_places_.empty()) {
        pr = prepare_stage(*plan_, k, block_size_, block_count_, &small_places_[size_t(k)]);
    } else if (ahead_k_ == k && ahead_.valid()) {
        pr = ahead_.get();  // prepared while the previous stages glided
        ahead_k_ = -1;
    } else {
        pr = prepare_stage(*plan_, k, block_size_, block_count_);
    }
    if (!s.cells) glGenBuffers(1, &s.cells);
    glBindBuffer(GL_ARRAY_BUFFER, s.cells);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(pr.xy.size() * sizeof(float)), pr.xy.data(),
                 GL_STATIC_DRAW);
    s.bounds = std::move(pr.bounds);
    s.partial = std::move(pr.partial);
    if (block_count_ > 0) {
        if (!s.blocks) glGenBuffers(1, &s.blocks);
        glBindBuffer(GL_ARRAY_BUFFER, s.blocks);
        glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(pr.rect.size() * sizeof(float)), pr.rect.data(),
                     GL_STATIC_DRAW);
    }
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    load_ms_ += ms_since(t0);
    return s;
}

// ---- [PlanView: input + overlays] --------------------------------------------

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

Camera PlanView::fitted(PlanGpu& gpu, int k0, int k1) const {
    Camera c = cam_;
    const Plan* p = gpu.plan();
    if (!p || size_.x < 8 || size_.y < 8) return c;
    float w = 1, h = 1;
    bool linear = false;
    for (int k = k0; k <= k1; ++k) {
        Extent e = grid_extent(p->stages[size_t(k)].grid);
        w = std::max(w, e.w);
        h = std::max(h, e.h);
        linear |= p->stages[size_t(k)].grid.linear;
    }
    // Room on the left for the byte addresses of memory rows.
    float margin = 12, left = linear ? 64 : margin;
    c.zoom = std::min((size_.x - left - margin) / w, (size_.y - 2 * margin) / h);
    c.zoom = std::clamp(c.zoom, 1e-4f, 80.f);
    c.pan_x = -((size_.x - left - margin) / c.zoom - w) / 2 - left / c.zoom;
    c.pan_y = -(size_.y / c.zoom - h) / 2;
    return c;
}

void PlanView::fit(PlanGpu& gpu, int k0, int k1) {
    cam_ = fitted(gpu, k0, k1);
}

void PlanView::draw(PlanGpu& gpu, float s, ImVec2 size, const ViewStyle& style) {
    gpu_ = &gpu;
    dark_ = style.dark;
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
    int last = int(p->stages.size()) - 1;
    s = std::clamp(s, 0.f, float(last));
    ka_ = std::min(int(std::floor(s)), last);
    t_ = s - float(ka_);
    // Resting on a stage needs only that stage resident: two views at rest
    // plus one gliding fit the three slots, so no stage is re-uploaded per frame.
    kb_ = t_ > 0 ? std::min(ka_ + 1, last) : ka_;
    if (fit_pending_) {
        int k1 = fit_k1_ < 0 ? last : std::min(fit_k1_, last);
        fit(gpu, std::min(fit_k0_, k1), k1);
        fit_pending_ = false;
    }

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
    }
    if (ImGui::IsItemDeactivated() && !dragged_) clicked_ = true;

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
    hover_draw_ = hovered_ >= 0 ? hovered_ : style.highlight;
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

    // Memory grid lines: every 32-byte row (when rows are tall enough) and
    // every 512-byte fractal, faded in as the linear stage comes in.
    for (int side = 0; side < 2; ++side) {
        int k = side == 0 ? ka_ : kb_;
        float alpha = side == 0 ? 1.f - t_ : t_;
        if (ka_ == kb_ && side == 1) break;
        const Grid& g = p->stages[size_t(k)].grid;
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
                bool room = b == 0 || 2 * cam_.zoom >= ImGui::CalcTextSize("0x0000").x;
                if (frac && room && cam_.zoom >= 3.f && r < rows_here) {
                    char buf[32];
                    std::snprintf(buf, sizeof buf, "0x%llx",
                                  (unsigned long long)((b * band_rows + r) * 32));
                    dl->AddText(ImVec2(a0.x - ImGui::CalcTextSize(buf).x - 4, y + 1), fc, buf);
                }
            }
            if (frac_lines) {  // band sides
                float yt = to_screen(0, 0).y, yb = to_screen(0, float(rows_here)).y;
                dl->AddLine(ImVec2(a0.x, yt), ImVec2(a0.x, yb), fc, 1.f);
                dl->AddLine(ImVec2(a1.x, yt), ImVec2(a1.x, yb), fc, 1.f);
            }
        }
    }

    // Stage boxes (labelled rectangles) of the nearer stage.
    const Stage& near = p->stages[size_t(t_ < 0.5f ? ka_ : kb_)];
    for (const Box& b : near.boxes) {
        ImVec2 a = to_screen(b.x, b.y), c = to_screen(b.x + b.w, b.y + b.h);
        if (c.x < origin_.x || a.x > end.x || c.y < origin_.y || a.y > end.y) continue;
        ImU32 col = b.kind == Box::fractal
                        ? IM_COL32(255, 200, 80, 220)
                        : (style.dark ? IM_COL32(200, 200, 210, 160) : IM_COL32(60, 60, 70, 160));
        dl->AddRect(a, c, col, 0, 0, b.kind == Box::fractal ? 2.f : 1.f);
        if (!b.label.empty())
            dl->AddText(ImVec2(a.x, a.y - ImGui::GetFontSize() - 1), col, b.label.c_str());
    }

    // Source indices printed in the cells of small plans.
    auto lerp_place = [&](int64_t cell, float& x, float& y) {
        Place a = gpu.place(size_t(ka_), cell), b = gpu.place(size_t(kb_), cell);
        float tt = t_ * t_ * (3 - 2 * t_);  // same easing as the shader
        if (std::isnan(a.x) && std::isnan(b.x)) return false;
        if (std::isnan(a.x)) a = b;
        if (std::isnan(b.x)) b = a;
        x = a.x + (b.x - a.x) * tt;
        y = a.y + (b.y - a.y) * tt;
        return true;
    };
    const auto& cols = gpu.small_colours();
    if (style.show_numbers && !cols.empty() && p->cell_count <= 16384) {
        float fs = std::min(cam_.zoom * 0.42f, ImGui::GetFontSize() * 1.2f);
        if (fs >= 9.f) {
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
                char buf[24];
                std::snprintf(buf, sizeof buf, "%lld", (long long)src);
                ImVec2 ts = font->CalcTextSizeA(fs, 1e9f, 0, buf);
                if (ts.x > cam_.zoom * 0.95f) continue;
                ImU32 tc = lum(cols[size_t(i)]) > 140 ? IM_COL32(0, 0, 0, 255)
                                                      : IM_COL32(255, 255, 255, 255);
                dl->AddText(font, fs,
                            ImVec2(a.x + (cam_.zoom - ts.x) / 2, a.y + (cam_.zoom - ts.y) / 2), tc,
                            buf);
            }
        }
    }

    // The path of the highlighted cell through every stage.
    if (style.show_path && hover_draw_ >= 0 && (!cols.empty() || p->offset_of)) {
        std::vector<ImVec2> pts;
        for (size_t k = 0; k < p->stages.size(); ++k) {
            Place q = gpu.place(k, hover_draw_);
            if (std::isnan(q.x)) continue;
            pts.push_back(to_screen(q.x + 0.5f, q.y + 0.5f));
        }
        ImU32 pc = style.dark ? IM_COL32(255, 255, 255, 200) : IM_COL32(20, 20, 20, 200);
        if (pts.size() >= 2) dl->AddPolyline(pts.data(), int(pts.size()), pc, 0, 2.f);
        for (size_t i = 0; i < pts.size(); ++i) {
            dl->AddCircleFilled(pts[i], 4.f, pc);
            char buf[24];
            std::snprintf(buf, sizeof buf, "%zu", i);
            dl->AddText(ImVec2(pts[i].x + 5, pts[i].y - 16), pc, buf);
        }
    }
    dl->PopClipRect();
    ImGui::PopID();
}

// ---- [PlanView: GL] -------------------------------------------------------------

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
}

namespace {

// Binds the instance attributes of cells (or blocks) of stages a and b.
// `first`: the first cell drawn (instance 0 of the draw), for cells only.
void bind_instances(PlanGpu& gpu, int ka, int kb, bool blocks, int64_t first = 0) {
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
    bind_instances(gpu, ka_, kb_, false);
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
        static const bool no_cull = std::getenv("LAYOUTLAB_NO_CULL") != nullptr;
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
            bind_instances(*gpu_, ka_, kb_, false, first);
            glUniform1i(id_base, GLint(first));
            glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, GLsizei(count));
            b = e;
        }
    } else {
        gui::frame_stats::Scope stats_gl(gui::frame_stats::Part::plan_gl);
        bind_instances(*gpu_, ka_, kb_, lod_);
        GLsizei count = GLsizei(lod_ ? gpu_->block_count() : gpu_->cell_count());
        glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, count);
    }
    glBindVertexArray(0);
}

}  // namespace ll::render
