// The palette's contract: the WCAG contrast ratio, and every text role of
// both themes at >= 4.5:1 against every surface of its theme.
#include <gtest/gtest.h>

#include "app/render/palette.hpp"

using namespace ll::render;

TEST(Palette, ContrastRatioMatchesWcag) {
    const Colour black{0, 0, 0, 255}, white{255, 255, 255, 255};
    EXPECT_NEAR(contrast_ratio(white, black), 21.0, 1e-9);
    EXPECT_NEAR(contrast_ratio(black, white), 21.0, 1e-9);  // symmetric
    EXPECT_NEAR(contrast_ratio(white, white), 1.0, 1e-12);
    // #777777 on white is the textbook borderline case: 4.48:1.
    EXPECT_NEAR(contrast_ratio({0x77, 0x77, 0x77, 255}, white), 4.48, 0.01);
    EXPECT_NEAR(relative_luminance({255, 0, 0, 255}), 0.2126, 1e-9);
}

TEST(Palette, YellowOnLightFailsAsReported) {
    // The status line's old colour on the light theme: the test must be able
    // to fail for the colours issue 13 reported as unreadable.
    const Colour yellow{255, 210, 120, 255};
    EXPECT_LT(contrast_ratio(yellow, palette(false)[Surface::window]), 4.5);
    EXPECT_LT(contrast_ratio({255, 255, 255, 255}, palette(false)[Surface::canvas]), 4.5);
}

TEST(Palette, EveryRoleReadsOnEverySurfaceOfBothThemes) {
    for (bool dark : {true, false}) {
        const Palette& p = palette(dark);
        for (int r = 0; r < kRoleCount; ++r)
            for (int s = 0; s < kSurfaceCount; ++s) {
                double c = contrast_ratio(p[Role(r)], p[Surface(s)]);
                EXPECT_GE(c, 4.5) << (dark ? "dark" : "light") << " theme: " << role_name(Role(r))
                                  << " on " << surface_name(Surface(s)) << " is " << c << ":1";
            }
    }
}

TEST(Palette, TextOnPicksTheReadableOne) {
    for (int v = 0; v < 256; v += 5) {
        Colour bg{uint8_t(v), uint8_t(255 - v), uint8_t(v / 2), 255};
        EXPECT_GE(contrast_ratio(text_on(bg), bg), 4.5) << v;
    }
}

TEST(Palette, PackedUsesImGuiByteOrder) {
    EXPECT_EQ(packed({1, 2, 3, 255}), 0xFF030201u);
    EXPECT_EQ(packed({1, 2, 3, 255}, 0.f), 0x00030201u);
}
