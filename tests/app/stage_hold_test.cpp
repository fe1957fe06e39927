// StageHold: playing with a pinned element stops on every whole stage.
#include "app/panels/stage_hold.hpp"

#include <gtest/gtest.h>

using ll::gui::StageHold;

TEST(StageHold, StopsOnEveryStageThenMovesOn) {
    StageHold h;
    h.hold_s = 1.0;
    float s = 0.f;
    s = h.advance(s, 1.f, 0.5);  // 0.5
    EXPECT_FLOAT_EQ(s, 0.5f);
    s = h.advance(s, 1.f, 0.7);  // would pass 1: stops on it
    EXPECT_FLOAT_EQ(s, 1.f);
    EXPECT_TRUE(h.holding());
    s = h.advance(s, 1.f, 0.6);  // still holding
    EXPECT_FLOAT_EQ(s, 1.f);
    s = h.advance(s, 1.f, 0.6);  // hold over after 0.4 s; 0.2 s of motion left
    EXPECT_FALSE(h.holding());
    EXPECT_NEAR(s, 1.2f, 1e-5);
    // A big frame never skips a stage.
    s = h.advance(s, 1.f, 5.0);
    EXPECT_FLOAT_EQ(s, 2.f);
    h.reset();
    EXPECT_FALSE(h.holding());
}
