#include "app/panels/playhead.hpp"

#include <algorithm>
#include <cmath>

namespace ll::gui {

namespace {
double clampd(double v, double lo, double hi) {
    if (!std::isfinite(v)) return lo;
    return std::clamp(v, lo, std::max(lo, hi));
}
}  // namespace

void Playhead::update(double dt) {
    if (!std::isfinite(dt) || dt <= 0) return;
    const double sp = std::isfinite(speed) && speed > 0 ? speed : 1.0;
    if (playing) {
        value += dt * sp;
        if (value >= hi) {
            if (loop && hi > lo) {
                value = lo + std::fmod(value - lo, hi - lo);
            } else {
                value = hi;
                playing = false;
            }
        }
        target = value;
        return;
    }
    if (value == target) return;
    const double d = dt * sp;
    value = std::abs(target - value) <= d ? target : value + (target > value ? d : -d);
}

void Playhead::set_range(double lo_, double hi_) {
    lo = lo_;
    hi = std::max(lo_, hi_);
    value = clampd(value, lo, hi);
    target = clampd(target, lo, hi);
}

void Playhead::seek(double v) {
    value = target = clampd(v, lo, hi);
}

void Playhead::go(double v) {
    target = clampd(v, lo, hi);
}

void Playhead::step(int d) {
    playing = false;
    double base = d > 0 ? std::floor(target + 1e-9) : std::ceil(target - 1e-9);
    go(base + d);
}

void Playhead::toggle() {
    if (!playing && value >= hi) seek(lo);  // play again from the start
    playing = !playing;
    target = value;
}

long long Playhead::whole() const {
    return (long long)std::floor(clampd(value, lo, hi) + 1e-9);
}

Timeline timeline_of(const Playhead& p, const char* unit) {
    return {p.lo, p.hi, std::isfinite(p.speed) && p.speed > 0 ? p.speed : 1.0, unit};
}

void seek_at_rest(Playhead& p, double t) {
    p.playing = false;
    p.seek(t);
}

bool apply_keys(Playhead& p, const std::vector<Key>& keys) {
    for (Key k : keys) {
        switch (k) {
            case Key::space:
                p.toggle();
                break;
            case Key::left:
                p.step(-1);
                break;
            case Key::right:
                p.step(+1);
                break;
            case Key::home:
                p.playing = false;
                p.go(p.lo);
                break;
            case Key::end:
                p.playing = false;
                p.go(p.hi);
                break;
        }
    }
    return !keys.empty();
}

}  // namespace ll::gui
