// PlanGpu: the GPU copy of one ll::Plan — a colour per cell and the cell
// places of at most three stages at a time (uploaded once per stage, never
// per frame), plus a coarse level of detail (blocks of consecutive cells) for
// when cells shrink below a pixel, and a resting stage as one texture. Several
// PlanViews (app/render/plan_view.hpp) may share one PlanGpu.
//
// No GL call happens before the first draw: set_plan and set_colours only
// compute on the CPU (colours, small plans' places), and sync(), which every
// draw runs, uploads what changed. So a panel owning a PlanGpu can be built,
// loaded from a scene and driven (update, seek, save_settings) without a GL
// context (the scene fuzz target, CLI twins). Destroying one that never drew
// makes no GL call either.
#pragma once

#include <cstdint>
#include <future>
#include <memory>
#include <vector>

#include "core/plan.hpp"

namespace ll::render {

class PlanGpu {
  public:
    PlanGpu();
    ~PlanGpu();
    PlanGpu(const PlanGpu&) = delete;
    PlanGpu& operator=(const PlanGpu&) = delete;

    void set_plan(std::shared_ptr<const Plan> p);
    // Same, colouring once in mode m (set_plan + set_colours colours twice).
    void set_plan(std::shared_ptr<const Plan> p, ColourMode m) {
        mode_ = m;
        set_plan(std::move(p));
    }
    void set_colours(ColourMode m);
    // Uploads the colours that set_plan/set_colours recorded, if they changed
    // since the last upload (a flag test otherwise). Needs the GL context;
    // stage() runs it, so PlanView::draw does.
    void sync();
    const Plan* plan() const { return plan_.get(); }
    ColourMode colour_mode() const { return mode_; }
    int64_t cell_count() const { return plan_ ? plan_->cell_count : 0; }

    // Place of one cell at stage k (CPU side; NaN when hidden). Cached for
    // plans up to kSmallPlan cells; larger plans walk the one cell's steps.
    Place place(size_t k, int64_t cell);
    // Offset of `cell` inside the last stage's tensor.
    int64_t final_offset(int64_t cell) const;
    // The cell at `offset` of stage k's tensor, -1 none (padding not yet
    // there). Large plans keep one stage's inverse map, built on first use.
    int64_t cell_at(size_t k, int64_t offset);
    static constexpr int64_t kSmallPlan = int64_t(1) << 20;

    // GL buffers for stage k (cells: vec2 per cell; blocks: vec4 per block).
    struct Slot {
        int k = -1;
        unsigned cells = 0, blocks = 0;
        // Stage::dim as one byte per cell / per block (0 none .. 255 all
        // dimmed); 0 when the stage dims no cell.
        unsigned dim = 0, block_dim = 0;
        uint64_t used = 0;
        // Large plans: true bounding box of each block's cells (x0, y0, x1,
        // y1; x0 > x1 when all hidden), so a zoomed-in view draws only the
        // blocks it can see. `partial`: the block has cells hidden in this
        // stage (they sit at their place in the other stage while gliding).
        std::vector<float> bounds;
        std::vector<uint8_t> partial;
    };
    const Slot& stage(int k);
    // Start preparing stage k on a worker thread (large plans; one at a
    // time), so stage(k) later only uploads.
    void prefetch(int k);
    struct Prepared {
        int k = -1;
        std::vector<float> xy, rect, bounds;
        std::vector<uint8_t> partial, dim, block_dim;
    };
    unsigned colour_buffer() const { return colours_; }
    unsigned block_colour_buffer() const { return block_colours_; }
    int64_t block_size() const { return block_size_; }
    int64_t block_count() const { return block_count_; }
    const std::vector<Rgba8>& small_colours() const { return small_colours_; }
    // CPU milliseconds spent since the last set_plan on colours, stage places
    // and uploads (the cost of changing the scene, for --dump-view).
    double load_ms() const { return load_ms_; }

    // A stage at rest as one texture, one texel per cell place (RGBA8;
    // alpha 255 data, 128 padding, 0 no cell): large plans draw it instead of
    // hundreds of thousands of small quads. Built on a worker thread.
    struct Picture {
        int k = -1;
        unsigned tex = 0;
        int w = 0, h = 0;  // grid extent in cells (0: too big for a texture)
        uint64_t used = 0;
    };
    // Stage k's picture when ready (nullptr: none yet; its build has been
    // started, one at a time, unless synchronous builds are on).
    const Picture* picture(int k);
    bool picture_pending() const { return pic_job_.valid(); }
    // Headless captures build pictures at once, so a screenshot shows what
    // the window settles to.
    static void set_synchronous_pictures(bool on);
    struct PictureImage {  // a picture's pixels, before upload
        int k = -1, w = 0, h = 0;
        std::vector<Rgba8> px;
    };

  private:
    void drop_slots();
    void drop_pictures();
    void upload_picture(PictureImage img);
    Picture pictures_[2];
    std::future<PictureImage> pic_job_;
    int max_texture_ = 0;  // GL_MAX_TEXTURE_SIZE, asked once
    std::shared_ptr<const Plan> plan_;
    ColourMode mode_ = ColourMode::source_index;
    unsigned colours_ = 0, block_colours_ = 0;
    int64_t block_size_ = 1, block_count_ = 0;
    Slot slots_[3];
    uint64_t clock_ = 0;
    // Small plans: every stage's places kept on the CPU (paths, labels).
    std::vector<std::vector<float>> small_places_;
    std::vector<Rgba8> small_colours_;
    // Colours not yet uploaded (large plans; small plans upload
    // small_colours_) and the LOD blocks' colours; cleared by sync().
    std::vector<Rgba8> pending_colours_, pending_block_colours_;
    bool colours_dirty_ = false;
    std::vector<int64_t> final_offsets_;
    mutable int64_t memo_cell_ = -1, memo_offset_ = -1;  // final_offset of a large plan
    int final_identity_ = -1;  // last stage's offsets == cell ids: 1 yes, 0 no, -1 unknown
    double load_ms_ = 0;
    std::future<Prepared> ahead_;
    int ahead_k_ = -1;
    std::vector<int32_t> inverse_;  // offset -> cell of stage inverse_k_
    int inverse_k_ = -1;
};

}  // namespace ll::render
