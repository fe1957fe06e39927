// Playhead: the one animation clock of the panels (app/panels/playhead.hpp).
#include "app/panels/playhead.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using ll::gui::Key;
using ll::gui::Playhead;

TEST(Playhead, StepGlidesToTheNextWholeUnit) {
    Playhead p(0, 4);
    p.speed = 1.5;
    p.step(+1);
    EXPECT_TRUE(p.busy());
    p.update(0.1);
    EXPECT_NEAR(p.value, 0.15, 1e-12);
    for (int i = 0; i < 20; ++i) p.update(0.1);
    EXPECT_EQ(p.value, 1.0);
    EXPECT_FALSE(p.busy());
    p.step(-1);
    for (int i = 0; i < 20; ++i) p.update(0.1);
    EXPECT_EQ(p.value, 0.0);
}

TEST(Playhead, PlayStopsAtTheEndOrLoops) {
    Playhead p(0, 2);
    p.speed = 1;
    p.toggle();
    for (int i = 0; i < 30; ++i) p.update(0.1);
    EXPECT_EQ(p.value, 2.0);
    EXPECT_FALSE(p.playing);
    p.toggle();  // from the end: starts again at the start
    EXPECT_EQ(p.value, 0.0);
    p.loop = true;
    for (int i = 0; i < 25; ++i) p.update(0.1);
    EXPECT_TRUE(p.playing);
    EXPECT_NEAR(p.value, 0.5, 1e-9);
}

TEST(Playhead, HostileTimeAndSpeedNeverLeaveTheRange) {
    Playhead p(0, 3);
    for (double sp : {-1.0, 0.0, 1e39, std::numeric_limits<double>::quiet_NaN(),
                      std::numeric_limits<double>::infinity()}) {
        p.speed = sp;
        p.seek(0);
        p.playing = true;
        for (double dt : {0.016, -1.0, std::numeric_limits<double>::quiet_NaN(), 1e300}) {
            p.update(dt);
            EXPECT_TRUE(std::isfinite(p.value));
            EXPECT_GE(p.value, 0.0);
            EXPECT_LE(p.value, 3.0);
            EXPECT_GE(p.whole(), 0);
            EXPECT_LE(p.whole(), 3);
        }
    }
    p.seek(std::numeric_limits<double>::quiet_NaN());
    EXPECT_EQ(p.value, 0.0);
}

TEST(Playhead, KeysHomeEndAndSpace) {
    Playhead p(0, 5);
    apply_keys(p, {Key::end});
    EXPECT_EQ(p.target, 5.0);
    apply_keys(p, {Key::home, Key::right, Key::right});
    EXPECT_EQ(p.target, 2.0);
    apply_keys(p, {Key::space});
    EXPECT_TRUE(p.playing);
}
