// Pausing at every stage while an element is pinned: playing moves the
// stage on as usual, but stops on each whole stage for `hold_s` seconds so
// the class can read where the pinned element went before the next step.
// Header-only and GL-free so tests/app can check it.
#pragma once

#include <algorithm>
#include <cmath>

namespace ll::gui {

struct StageHold {
    double hold_s = 1.5;  // seconds spent on each whole stage
    double left = 0;      // of the current hold

    // The stage after advancing from s at v stages per second for dt
    // seconds, stopping (and starting a hold) at the next whole stage.
    float advance(float s, float v, double dt) {
        if (left > 0) {
            left -= dt;
            if (left > 0) return s;
            dt = -left;  // the rest of this frame moves on
            left = 0;
        }
        float next = std::floor(s + 1e-4f) + 1;
        float s2 = s + v * float(dt);
        if (s2 >= next) {
            left = hold_s;
            return next;
        }
        return s2;
    }
    bool holding() const { return left > 0; }
    void reset() { left = 0; }
};

}  // namespace ll::gui
