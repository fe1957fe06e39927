// The engine's text as the Chinese window shows it (app/i18n/tr_text.hpp):
// every stage label, stage formula, caption and box label that core builds
// for the window's pictures is enumerated through core's own functions and
// must come back in Chinese whenever it holds an English word, while the
// CLI's English (core's strings themselves) stays untouched.
#include "app/i18n/tr_text.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "app/i18n/tr.hpp"
#include "core/exec/cube_plan.hpp"
#include "core/exec/plans.hpp"
#include "core/format/format.hpp"
#include "core/format/format_plan.hpp"
#include "core/plan.hpp"
#include "core/tiling/traverse.hpp"

using ll::i18n::Lang;

namespace {

// A run of three or more ASCII lowercase letters: an English word
// ("pad", "source"); "X[n][c][h][w]", "NC1HWC0" and "(M1*M0, N)" hold none.
bool has_english_word(std::string s) {
    // Function names in formulas are not words to translate.
    for (const char* f : {"ceil(", "floor(", "min(", "max("})
        for (size_t at = s.find(f); at != std::string::npos; at = s.find(f))
            s.erase(at, std::char_traits<char>::length(f));
    int run = 0;
    for (char c : s) {
        run = (c >= 'a' && c <= 'z') ? run + 1 : 0;
        if (run >= 3) return true;
    }
    return false;
}

bool has_cjk(const std::string& s) {
    // UTF-8 lead bytes 0xE3..0xE9 open U+3000..U+9FFF (CJK punctuation and ideographs).
    for (unsigned char c : s)
        if (c >= 0xE3 && c <= 0xE9) return true;
    return false;
}

struct Checker {
    std::set<std::string> untranslated;
    size_t checked = 0;
    void text(const std::string& en) {
        // Names the glossary keeps in English (docs/GLOSSARY.md).
        for (const char* name : {"img2col", "cube", "gather"})
            if (en == name) return;
        if (!has_english_word(en)) return;
        ++checked;
        if (!has_cjk(tr_text(en))) untranslated.insert(en);
    }
    void plan(const ll::Plan& p) {
        text(p.title);
        for (const ll::Stage& s : p.stages) {
            text(s.label);
            text(s.formula);
            for (const auto& b : s.boxes) text(b.label);
            for (const auto& a : s.arrows) text(a.label);
            for (const auto& l : s.labels)
                if (l.kind == ll::Label::caption || l.kind == ll::Label::axis) text(l.text);
        }
    }
    void report() const {
        for (const std::string& s : untranslated)
            ADD_FAILURE() << "core text shown in English in the Chinese window: \"" << s << "\"";
    }
};

struct ZhScope {
    ZhScope() { ll::i18n::set_language(Lang::zh); }
    ~ZhScope() { ll::i18n::set_language(Lang::en); }
};

}  // namespace

TEST(CoreText, ExactEntriesAndTemplates) {
    ll::i18n::set_language(Lang::en);
    EXPECT_EQ(tr_text("source FRACTAL_NZ"), "source FRACTAL_NZ");  // English: as is
    ZhScope zh;
    EXPECT_EQ(tr_text("pad"), "填充");
    EXPECT_EQ(tr_text("source FRACTAL_NZ"), "源 FRACTAL_NZ");
    EXPECT_EQ(tr_text("transpose(0,3,1,2,4)"), "转置(0,3,1,2,4)");
    // A placeholder's text is looked up in turn: the step name inside a caption.
    EXPECT_EQ(tr_text("(..., B, M, N) -> pad -> (..., B, M1*M0, N)"),
              "(..., B, M, N) -> 填充 -> (..., B, M1*M0, N)");
    // Clauses after "; " are translated each on its own.
    EXPECT_EQ(tr_text("write NHWC stride 64 (eff 0.062); read NCHW stride 1 (eff 0.900)"),
              "写 NHWC，步长 64（效率 0.062）；读 NCHW，步长 1（效率 0.900）");
    // A placeholder does not reach over ": " (fusion's "step N op: cost" is not
    // "step {0} of {1}").
    EXPECT_EQ(tr_text("step 1 reshape:1,4,6: free, a view of the buffer before"),
              "第 1 步 reshape:1,4,6：无开销，前一缓冲区的视图");
    // Nothing matches: the English comes back unchanged.
    EXPECT_EQ(tr_text("no entry matches this"), "no entry matches this");
    EXPECT_EQ(tr_text(""), "");
}

TEST(CoreText, WrappedCaptionsAreTranslatedWhole) {
    ZhScope zh;
    // Core wraps a long caption into labels; the lines are translated as one
    // text and cut back into as many lines, none empty.
    const std::vector<std::string> en = {"storage 0 (never moves), 4 B per", "element"};
    const std::vector<std::string> out = ll::i18n::tr_lines(en);
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0] + out[1], "存储 0（从不移动），每个元素 4 B");
    EXPECT_FALSE(out[0].empty());
    EXPECT_FALSE(out[1].empty());
    // Lines nothing translates as a whole are looked up one by one.
    EXPECT_EQ(ll::i18n::tr_lines({"pad", "no entry"}),
              (std::vector<std::string>{"填充", "no entry"}));
}

TEST(CoreText, CatalogIsWellFormed) {
    // Every template's translation uses exactly the placeholders of its English.
    for (const auto& [en, zh] : ll::i18n::zh_core_entries()) {
        for (int k = 0; k < 10; ++k) {
            const std::string ph = "{" + std::to_string(k) + "}";
            EXPECT_EQ(en.find(ph) != std::string::npos, zh.find(ph) != std::string::npos)
                << "\"" << en << "\" -> \"" << zh << "\": " << ph;
        }
        EXPECT_EQ(en.find("}{"), std::string::npos) << "two placeholders touch: " << en;
    }
    EXPECT_GT(ll::i18n::zh_core_entries().size(), 20u);
}

TEST(CoreText, EveryFormatConversionStageIsTranslated) {
    ZhScope zh;
    Checker c;
    for (ll::Format f : ll::all_formats()) {
        const ll::ConvertSpec spec = ll::example_conversion(f);
        const ll::Pipeline p = ll::make_pipeline(spec);
        c.plan(ll::format_plan({p}));
        if (!p.steps.empty()) c.plan(ll::format_plan({ll::inverse(p)}));
        for (ll::DType t : {ll::DType::int8, ll::DType::fp32}) try {
                c.plan(ll::format_plan({ll::make_pipeline(ll::example_conversion(f, t))}));
            } catch (const std::exception&) {
                // a format without this dtype
            }
    }
    EXPECT_GT(c.checked, 100u);
    c.report();
}

TEST(CoreText, ConvCubeImg2colAndTilingPicturesAreTranslated) {
    ZhScope zh;
    Checker c;
    c.plan(ll::exec::conv_a_plan(ll::exec::conv_case_study()));
    ll::exec::Img2colSpec s;
    s.n = 1, s.c = 2, s.h = 5, s.w = 5;
    s.win = ll::exec::conv_case_study().win;
    c.plan(ll::exec::img2col_plan(s));
    const ll::exec::CubeScene cube = ll::exec::cube_case_study();
    c.plan(ll::exec::cube_plan(cube, 0));
    c.plan(ll::exec::cube_plan(cube, cube.steps() / 2));
    ll::tiling::Config t;
    c.plan(ll::tiling::tensor_plan(t));
    c.plan(ll::tiling::tile_plan(t, 0));
    EXPECT_GT(c.checked, 5u);
    c.report();
}
