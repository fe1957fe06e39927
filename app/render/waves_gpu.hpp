// Staged motion on the GPU: per cell, its wave number for the step the view
// is gliding through (core/motion.hpp decides the waves; this uploads them
// as one float per cell, location 6 of the cell program, and gives the CPU
// side the same per-cell parameter for numbers and the pinned marker).
#pragma once

#include <cstdint>
#include <memory>

#include "core/motion.hpp"

namespace ll::render {

class WaveSet {
  public:
    WaveSet() = default;
    ~WaveSet();
    WaveSet(const WaveSet&) = delete;
    WaveSet& operator=(const WaveSet&) = delete;

    // Plans above this many cells move all at once (see step()).
    static constexpr int64_t kMaxCells = int64_t(1) << 22;
    // Grouping for the plan p (none: every cell moves at once). Keeps the
    // plan; the waves of a step are computed when first needed.
    void set(std::shared_ptr<const Plan> p, WaveBy by);
    WaveBy by() const { return by_; }
    // The waves of the step from stage k to k+1, made current (and
    // uploaded, with a GL context) on first use.
    const Waves& step(int k);
    // GL buffer of the current step (0: none; the shader then takes wave 0
    // of 1, all at once).
    unsigned buffer() const { return w_.count > 1 ? buf_ : 0; }
    int count() const { return w_.count; }
    // Eased parameter (smoothstep, as the shader) of `cell` at step
    // parameter t of step k.
    float cell_t(int k, int64_t cell, float t);

  private:
    std::shared_ptr<const Plan> plan_;
    WaveBy by_ = WaveBy::none;
    int k_ = -1;
    Waves w_;
    unsigned buf_ = 0;
};

}  // namespace ll::render
