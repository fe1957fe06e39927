// The one animation clock of every animated panel: a position on a range
// (a stage, a loop step, a window position) that glides towards a target or
// plays forward, advanced only in update(dt). Panels keep one per animation;
// recording and presentation drive it the same way.
//
// Example: stages 0..4 at 1.5 stages/s: `Playhead p{0, 4}; p.step(+1);`
// then update(0.1) three times moves value 0 -> 0.15 -> 0.3 -> 0.45; the
// playhead is busy() until value reaches target 1.
#pragma once

#include <vector>

#include "app/panels/panel.hpp"

namespace ll::gui {

struct Playhead {
    double lo = 0, hi = 0;  // the range; value and target stay inside it
    double value = 0;       // where the picture is (fractional while moving)
    double target = 0;      // where a step or a seek is heading
    double speed = 1.5;     // range units per second
    bool playing = false;   // moves forward on its own, one unit after another
    bool loop = false;      // when playing past hi, start again at lo

    Playhead() = default;
    Playhead(double lo_, double hi_) : lo(lo_), hi(hi_) {}

    // Advance by dt seconds (dt < 0, NaN or inf count as 0).
    void update(double dt);
    bool busy() const { return playing || value != target; }

    // Sets a new range, keeping value and target inside it.
    void set_range(double lo_, double hi_);
    // Jump at once (scrubbing, a scene file).
    void seek(double v);
    // Glide to v.
    void go(double v);
    // One whole unit forward or back from the target (stops playing).
    void step(int d);
    void toggle();
    // The whole unit the playhead shows (value rounded down, in range).
    long long whole() const;
};

// The playhead's range as the panel's recording timeline (Panel::timeline),
// and showing position t at rest (Panel::seek).
Timeline timeline_of(const Playhead& p, const char* unit);
void seek_at_rest(Playhead& p, double t);

// Space toggles, left/right step, Home/End jump; true when a key was used.
bool apply_keys(Playhead& p, const std::vector<Key>& keys);

}  // namespace ll::gui
