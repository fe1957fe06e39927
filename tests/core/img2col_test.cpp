// img2col: explicit == implicit on every element, against a hand reference,
// and the documents' expansion example.
#include <gtest/gtest.h>

#include <random>

#include "core/error.hpp"
#include "core/exec/img2col.hpp"

using namespace ll::exec;

namespace {

Img2colSpec spec(int64_t n, int64_t c, int64_t h, int64_t w, Window2d win) {
    Img2colSpec s;
    s.n = n;
    s.c = c;
    s.h = h;
    s.w = w;
    s.win = win;
    return s;
}

// Reference: the definition, written independently as "pad, then slide".
int64_t reference_source(const Img2colSpec& s, int64_t row, int64_t col) {
    int64_t ho = s.out_h(), wo = s.out_w();
    int64_t n = row / (ho * wo), oh = row / wo % ho, ow = row % wo;
    int64_t c = col / (s.win.kh * s.win.kw), kh = col / s.win.kw % s.win.kh, kw = col % s.win.kw;
    // Coordinates in the padded image, then back.
    int64_t ph = oh * s.win.stride_h + kh * s.win.dil_h,
            pw = ow * s.win.stride_w + kw * s.win.dil_w;
    if (ph < s.win.pad_top || ph >= s.win.pad_top + s.h) return -1;
    if (pw < s.win.pad_left || pw >= s.win.pad_left + s.w) return -1;
    return ((n * s.c + c) * s.h + (ph - s.win.pad_top)) * s.w + (pw - s.win.pad_left);
}

// A window with kernel 1..max_k, stride and dilation 1..max_s, pads 0..2.
Window2d random_window(std::mt19937& rng, int max_k, int max_s) {
    auto pick = [&](int lo, int hi) {
        return int64_t(std::uniform_int_distribution<int>(lo, hi)(rng));
    };
    Window2d w;
    w.kh = pick(1, max_k);
    w.kw = pick(1, max_k);
    w.stride_h = pick(1, max_s);
    w.stride_w = pick(1, max_s);
    w.dil_h = pick(1, max_s);
    w.dil_w = pick(1, max_s);
    w.pad_top = pick(0, 2);
    w.pad_bottom = pick(0, 2);
    w.pad_left = pick(0, 2);
    w.pad_right = pick(0, 2);
    return w;
}

}  // namespace

TEST(Img2col, DocumentExample3x3With2x2) {
    Window2d win;
    win.kh = win.kw = 2;
    Img2colSpec s = spec(1, 1, 3, 3, win);
    EXPECT_EQ(s.rows(), 4);
    EXPECT_EQ(s.cols(), 4);
    // Rows a b d e / b c e f / d e g h / e f h i with a..i = 0..8.
    std::vector<int64_t> expect = {0, 1, 3, 4, 1, 2, 4, 5, 3, 4, 6, 7, 4, 5, 7, 8};
    EXPECT_EQ(img2col_index_map(s), expect);
    Img2colExpansion e = img2col_expansion(s);
    EXPECT_EQ(e.input_elements, 9);
    EXPECT_EQ(e.matrix_elements, 16);
    EXPECT_EQ(e.reuse[4], 4);  // the centre, "e"
    EXPECT_EQ(e.reuse[0], 1);
    EXPECT_EQ(e.reuse[1], 2);
    EXPECT_EQ(e.max_reuse, 4);
    EXPECT_EQ(e.padding_elements, 0);
}

TEST(Img2col, ExplicitEqualsImplicitEqualsReference) {
    std::mt19937 rng(7);
    auto pick = [&](int lo, int hi) {
        return int64_t(std::uniform_int_distribution<int>(lo, hi)(rng));
    };
    for (int trial = 0; trial < 200; ++trial) {
        const Window2d win = random_window(rng, 4, 3);
        Img2colSpec s = spec(pick(1, 2), pick(1, 3), pick(1, 9), pick(1, 9), win);
        if (s.out_h() < 1 || s.out_w() < 1) {
            EXPECT_THROW(s.validate(), ll::UsageError);
            continue;
        }
        std::vector<int64_t> m = img2col_index_map(s);
        ASSERT_EQ(int64_t(m.size()), s.rows() * s.cols());
        Img2colExpansion e = img2col_expansion(s);
        int64_t pads = 0, reads = 0;
        for (int64_t r = 0; r < s.rows(); ++r)
            for (int64_t c = 0; c < s.cols(); ++c) {
                int64_t want = reference_source(s, r, c);
                ASSERT_EQ(img2col_source(s, r, c), want) << "trial " << trial;
                ASSERT_EQ(m[size_t(r * s.cols() + c)], want);
                (want < 0 ? pads : reads)++;
            }
        EXPECT_EQ(e.padding_elements, pads);
        int64_t sum = 0;
        for (int64_t u : e.reuse) sum += u;
        EXPECT_EQ(sum, reads);
    }
}

TEST(Img2col, ValuesUsePadValue) {
    Window2d win;
    win.kh = win.kw = 3;
    win.pad_top = win.pad_bottom = win.pad_left = win.pad_right = 1;
    Img2colSpec s = spec(1, 2, 2, 2, win);
    std::vector<float> x = {1, 2, 3, 4, 5, 6, 7, 8};
    std::vector<float> m = img2col_explicit(s, x, -9.0f);
    std::vector<int64_t> idx = img2col_index_map(s);
    for (size_t i = 0; i < m.size(); ++i) EXPECT_EQ(m[i], idx[i] < 0 ? -9.0f : x[size_t(idx[i])]);
    EXPECT_THROW(img2col_explicit(s, {1, 2, 3}), ll::UsageError);
}

TEST(Img2col, BadParameters) {
    Window2d win;
    win.kh = win.kw = 2;
    Img2colSpec s = spec(1, 1, 3, 3, win);
    s.win.stride_h = 0;
    EXPECT_THROW(s.validate(), ll::UsageError);
    s = spec(1, 1, 3, 3, win);
    s.win.dil_w = 0;
    EXPECT_THROW(s.validate(), ll::UsageError);
    s = spec(1, 1, 3, 3, win);
    s.win.kh = 5;  // larger than the (unpadded) input
    EXPECT_THROW(s.validate(), ll::UsageError);
    s.win.pad_top = 1;
    s.win.pad_bottom = 1;  // now 5 fits
    EXPECT_NO_THROW(s.validate());
    s = spec(1, 1, 3, 3, win);
    s.win.pad_left = -1;
    EXPECT_THROW(s.validate(), ll::UsageError);
    try {
        s = spec(1, 1, 3, 3, win);
        s.win.stride_w = 0;
        s.validate();
        FAIL();
    } catch (const ll::UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("stride_w"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("expected"), std::string::npos) << e.what();
    }
}

TEST(Img2col, ImplicitWorksWhereExplicitIsTooLarge) {
    Window2d win;
    win.kh = win.kw = 3;
    Img2colSpec s = spec(1, 64, 4096, 4096, win);
    EXPECT_NO_THROW(s.validate());
    EXPECT_THROW(img2col_index_map(s), ll::UsageError);
    // Row 1 (ow = 1), column 4 (c 0, kh 1, kw 1) reads input (0, 0, 1, 2).
    EXPECT_EQ(img2col_source(s, 1, 4), 1 * 4096 + 2);
}

// img2col_tap: the formula's indices for one entry, as the img2col panel
// shows them; the padded index against the reference's padded coordinates.
TEST(Img2col, TapNamesEveryIndexOfTheFormula) {
    Window2d win;
    win.kh = win.kw = 2;
    win.pad_top = win.pad_bottom = win.pad_left = win.pad_right = 1;
    const Img2colSpec s = spec(1, 1, 3, 3, win);
    // Row 0 is window (0,0) over the padded 5x5; col 3 is (kh 1, kw 1): input (0,0).
    Img2colTap t = img2col_tap(s, 0, 3);
    EXPECT_EQ(t.n, 0);
    EXPECT_EQ(t.oh, 0);
    EXPECT_EQ(t.ow, 0);
    EXPECT_EQ(t.kh, 1);
    EXPECT_EQ(t.kw, 1);
    EXPECT_EQ(t.ih, 0);
    EXPECT_EQ(t.iw, 0);
    EXPECT_EQ(t.padded, 6);  // (1,1) of the 5x5 padded picture
    EXPECT_EQ(t.source, 0);
    t = img2col_tap(s, 0, 0);  // the padding corner
    EXPECT_EQ(t.ih, -1);
    EXPECT_EQ(t.iw, -1);
    EXPECT_EQ(t.padded, 0);
    EXPECT_EQ(t.source, -1);
    std::mt19937 rng(11);
    auto pick = [&](int lo, int hi) {
        return int64_t(std::uniform_int_distribution<int>(lo, hi)(rng));
    };
    for (int trial = 0; trial < 100; ++trial) {
        const Window2d w = random_window(rng, 3, 2);
        const Img2colSpec q = spec(pick(1, 2), pick(1, 3), pick(1, 7), pick(1, 7), w);
        if (q.out_h() < 1 || q.out_w() < 1) continue;
        const int64_t ph = q.h + w.pad_top + w.pad_bottom, pw = q.w + w.pad_left + w.pad_right;
        for (int64_t r = 0; r < q.rows(); ++r)
            for (int64_t c = 0; c < q.cols(); ++c) {
                const Img2colTap u = img2col_tap(q, r, c);
                ASSERT_EQ(u.source, reference_source(q, r, c));
                ASSERT_EQ((u.n * q.out_h() + u.oh) * q.out_w() + u.ow, r);
                ASSERT_EQ((u.c * w.kh + u.kh) * w.kw + u.kw, c);
                const int64_t y = u.oh * w.stride_h + u.kh * w.dil_h,
                              x = u.ow * w.stride_w + u.kw * w.dil_w;
                ASSERT_EQ(u.padded, ((u.n * q.c + u.c) * ph + y) * pw + x);
            }
    }
}
