// Sections: [buffers] [stage preparation] [pictures] [stage slots]
#include "app/render/plan_gpu.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <future>
#include <limits>

#include "app/render/gl_programs.hpp"

namespace ll::render {

// ---- [buffers] ----------------------------------------------------------------

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
        if (s.dim) glDeleteBuffers(1, &s.dim);
        if (s.block_dim) glDeleteBuffers(1, &s.block_dim);
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
    pending_colours_.clear();
    pending_block_colours_.clear();
    colours_dirty_ = false;
    if (!plan_) return;
    auto t0 = std::chrono::steady_clock::now();
    int64_t n = plan_->cell_count;
    int64_t fe = fractal_elems(plan_->dtype);
    std::vector<Rgba8> col(static_cast<size_t>(n));
    cell_colours(*plan_, m, fe, col.data());
    if (block_count_ > 0) {
        // Block colour: the mean of its data cells; all padding stays padding.
        std::vector<Rgba8>& bc = pending_block_colours_;
        bc.assign(static_cast<size_t>(block_count_), Rgba8{0, 0, 0, 0});
        for (int64_t b = 0; b < block_count_; ++b) {
            int64_t lo = b * block_size_, hi = std::min(n, lo + block_size_);
            uint64_t sum[3] = {0, 0, 0}, cnt = 0;
            for (int64_t i = lo; i < hi; ++i) {
                const Rgba8& c = col[size_t(i)];
                if (c[3] == 0) continue;
                sum[0] += c[0], sum[1] += c[1], sum[2] += c[2], ++cnt;
            }
            if (cnt > 0)
                bc[size_t(b)] = {uint8_t(sum[0] / cnt), uint8_t(sum[1] / cnt),
                                 uint8_t(sum[2] / cnt), 255};
        }
    }
    small_colours_.clear();
    if (n <= kSmallPlan)
        small_colours_ = std::move(col);  // kept: labels read it, and sync() uploads it
    else
        pending_colours_ = std::move(col);  // freed once uploaded
    colours_dirty_ = true;
    load_ms_ += ms_since(t0);
}

void PlanGpu::sync() {
    if (!colours_dirty_) return;
    colours_dirty_ = false;
    auto t0 = std::chrono::steady_clock::now();
    const std::vector<Rgba8>& col = pending_colours_.empty() ? small_colours_ : pending_colours_;
    if (!colours_) glGenBuffers(1, &colours_);
    glBindBuffer(GL_ARRAY_BUFFER, colours_);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(col.size() * 4), col.data(), GL_STATIC_DRAW);
    if (!pending_block_colours_.empty()) {
        if (!block_colours_) glGenBuffers(1, &block_colours_);
        glBindBuffer(GL_ARRAY_BUFFER, block_colours_);
        glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(pending_block_colours_.size() * 4),
                     pending_block_colours_.data(), GL_STATIC_DRAW);
    }
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    pending_colours_ = {};
    pending_block_colours_ = {};
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
    const int64_t n = plan.cell_count;
    const std::vector<int64_t>& dimmed = plan.stages[size_t(k)].dim;
    if (!dimmed.empty()) {
        pr.dim.assign(size_t(n), 0);
        for (int64_t c : dimmed)
            if (c >= 0 && c < n) pr.dim[size_t(c)] = 255;
        if (block_count > 0) {
            pr.block_dim.assign(size_t(block_count), 0);
            for (int64_t b = 0; b < block_count; ++b) {
                int64_t lo = b * block_size, hi = std::min(n, lo + block_size), on = 0;
                for (int64_t i = lo; i < hi; ++i) on += pr.dim[size_t(i)] != 0;
                pr.block_dim[size_t(b)] = uint8_t(255 * on / std::max<int64_t>(1, hi - lo));
            }
        }
    }
    if (block_count > 0) {
        // Block rectangle: bounding box of its visible cells; when the cells
        // are scattered (the bounding box is much bigger than the block), a
        // square of the block's area at its first cell instead.
        std::vector<float>& rect = pr.rect;
        rect.assign(size_t(block_count) * 4, kHidden);
        pr.bounds.assign(size_t(block_count) * 4, 0.f);
        pr.partial.assign(size_t(block_count), 0);
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
    // Texel alpha (picture.frag): 255 data, 204 dimmed data, 128 padding,
    // 96 dimmed padding, 0 no cell.
    std::vector<uint8_t> dimmed;
    if (!plan.stages[size_t(k)].dim.empty()) {
        dimmed.assign(size_t(plan.cell_count), 0);
        for (int64_t c : plan.stages[size_t(k)].dim)
            if (c >= 0 && c < plan.cell_count) dimmed[size_t(c)] = 1;
    }
    for (int64_t i = 0; i < plan.cell_count; ++i) {
        float x = xy[size_t(2 * i)], y = xy[size_t(2 * i + 1)];
        if (!(x >= 0 && y >= 0 && x < float(w) && y < float(h))) continue;  // hidden (NaN)
        Rgba8 c = col[size_t(i)];
        const bool dim = !dimmed.empty() && dimmed[size_t(i)];
        c[3] = c[3] == 0 ? (dim ? 96 : 128) : (dim ? 204 : 255);
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
    sync();
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
    // Dim buffers exist only for stages that dim cells (a slot may have held one).
    auto upload_dim = [](unsigned& buf, const std::vector<uint8_t>& v) {
        if (v.empty()) {
            if (buf) glDeleteBuffers(1, &buf);
            buf = 0;
            return;
        }
        if (!buf) glGenBuffers(1, &buf);
        glBindBuffer(GL_ARRAY_BUFFER, buf);
        glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(v.size()), v.data(), GL_STATIC_DRAW);
    };
    upload_dim(s.dim, pr.dim);
    upload_dim(s.block_dim, pr.block_dim);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    load_ms_ += ms_since(t0);
    return s;
}

}  // namespace ll::render
