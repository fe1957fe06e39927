#include "app/render/waves_gpu.hpp"

#include <glad/gl.h>

#include <vector>

namespace ll::render {

WaveSet::~WaveSet() {
    if (buf_) glDeleteBuffers(1, &buf_);
}

void WaveSet::set(std::shared_ptr<const Plan> p, WaveBy by) {
    plan_ = std::move(p);
    by_ = by;
    k_ = -1;
    w_ = Waves{};
}

const Waves& WaveSet::step(int k) {
    if (k == k_ || !plan_) return w_;
    k_ = k;
    // Past kMaxCells the view draws blocks of cells anyway, and grouping
    // would sort every cell on the UI thread: all at once.
    w_ =
        plan_->cell_count <= kMaxCells ? stage_waves(*plan_, size_t(std::max(k, 0)), by_) : Waves{};
    if (w_.count > 1) {
        std::vector<float> f(w_.wave.begin(), w_.wave.end());
        if (!buf_) glGenBuffers(1, &buf_);
        glBindBuffer(GL_ARRAY_BUFFER, buf_);
        glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(f.size() * sizeof(float)), f.data(),
                     GL_STATIC_DRAW);
        glBindBuffer(GL_ARRAY_BUFFER, 0);
    }
    return w_;
}

float WaveSet::cell_t(int k, int64_t cell, float t) {
    const Waves& w = step(k);
    float u = w.count > 1 && cell >= 0 && size_t(cell) < w.wave.size()
                  ? wave_t(t, w.wave[size_t(cell)], w.count)
                  : t;
    return u * u * (3 - 2 * u);
}

}  // namespace ll::render
