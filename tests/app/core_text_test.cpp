// The engine's text as the Chinese window shows it (app/i18n/tr_text.hpp):
// every stage label, stage formula, caption and box label that core builds
// for the window's pictures is enumerated through core's own functions and
// must come back in Chinese whenever it holds an English word, while the
// CLI's English (core's strings themselves) stays untouched.
#include "app/i18n/tr_text.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "app/i18n/text_audit.hpp"
#include "app/i18n/tr.hpp"
#include "app/i18n/tr_chain.hpp"
#include "app/panels/scene_reader.hpp"
#include "core/checked.hpp"
#include "core/compare.hpp"
#include "core/exec/cube_plan.hpp"
#include "core/exec/plans.hpp"
#include "core/format/format.hpp"
#include "core/format/format_plan.hpp"
#include "core/format/narrate.hpp"
#include "core/gpu/systolic.hpp"
#include "core/gpu/tensor_core.hpp"
#include "core/gpu/winograd.hpp"
#include "core/plan.hpp"
#include "core/tiling/traverse.hpp"
#include "core/view/scatter.hpp"

using ll::i18n::Lang;

namespace {

// A run of three or more ASCII lowercase letters: an English word
// ("pad", "source"); "X[n][c][h][w]", "NC1HWC0" and "(M1*M0, N)" hold none.
bool has_english_word(std::string s) {
    // Function names in formulas are not words to translate.
    for (const char* f : {"ceil(", "floor(", "min(", "max("})
        for (size_t at = s.find(f); at != std::string::npos; at = s.find(f))
            s.erase(at, std::char_traits<char>::length(f));
    // Nor are hexadecimal numbers ("byte 0xee").
    for (size_t at = s.find("0x"); at != std::string::npos; at = s.find("0x", at)) {
        size_t end = at + 2;
        while (end < s.size() && std::isxdigit(static_cast<unsigned char>(s[end]))) ++end;
        s.erase(at, end - at);
    }
    int run = 0;
    for (char c : s) {
        run = (c >= 'a' && c <= 'z') ? run + 1 : 0;
        if (run >= 3) return true;
    }
    return false;
}

// A translation with the names docs/GLOSSARY.md keeps English taken out.
std::string without_kept_names(std::string s) {
    for (const char* name : {"Cube", "Tiling", "Winograd", "Tensor Core", "img2col", "gather",
                             "reshape", "transpose", "concat", "matmul", "conv/pool", "eta"})
        for (size_t at; (at = s.find(name)) != std::string::npos;)
            s.erase(at, std::char_traits<char>::length(name));
    return s;
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
        const std::string zh = tr_text(en);
        if (!has_cjk(zh) || has_english_word(without_kept_names(zh)))
            untranslated.insert(en + "  ->  " + zh);
    }
    // A " -> " chain the window translates phrase by phrase (tr_chain.hpp).
    void chain(const std::string& en) {
        if (!has_english_word(en)) return;
        ++checked;
        const std::string zh = tr_chain(en);
        if (!has_cjk(zh) || has_english_word(without_kept_names(zh)))
            untranslated.insert(en + "  ->  " + zh);
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

TEST(CoreText, FollowOneElementNarrationIsTranslated) {
    // The explorer's follow strip shows core's narration (core/format/
    // narrate.hpp) through tr_text: every stage's sentence and the journey,
    // for every cell of document 000's example and of a 4-D format.
    ZhScope zh;
    ll::ConvertSpec nz;
    nz.from = ll::Format::ND, nz.to = ll::Format::FRACTAL_NZ, nz.shape = {2, 28};
    ll::ConvertSpec c5;
    c5.from = ll::Format::NCHW, c5.to = ll::Format::NC1HWC0, c5.shape = {1, 20, 2, 2};
    ll::ConvertSpec i4 = nz;  // int4: bytes with nibbles
    i4.dtype = ll::DType::int4;
    Checker c;
    for (const ll::ConvertSpec& spec : {nz, c5, i4}) {
        const ll::Plan p = ll::format_plan({ll::make_pipeline(spec)});
        for (int64_t cell = 0; cell < p.cell_count; cell += 7) {
            c.chain(ll::narration(p, cell));
            for (size_t k = 0; k < p.stages.size(); ++k) c.chain(ll::narrate_step(p, k, cell));
        }
    }
    EXPECT_GT(c.checked, 100u);
    c.report();
    // Document 000's sentence, whole.
    const ll::Plan p = ll::format_plan({ll::make_pipeline(nz)});
    EXPECT_EQ(tr_chain(ll::narration(p, 19)),
              "第 1 行，第 3 列 -> (M1,M0,N1,N0) (0,1,0,3) -> 分形 (0,0)，第 1 行，第 3 列 -> "
              "偏移 19，字节 0x26");
}

TEST(CoreText, EngineErrorsTheWindowShowsAreTranslated) {
    // Each panel shows the engine's UsageError as "error: <what()>" through
    // tr_text. The parameter's key stays (the field it names is framed red);
    // everything else must read Chinese.
    ZhScope zh;
    std::vector<ll::UsageError> errors;
    auto collect = [&](auto&& f) {
        try {
            f();
            ADD_FAILURE() << "no error thrown";
        } catch (const ll::UsageError& e) {
            errors.push_back(e);
        }
    };
    collect([] {
        ll::gpu::WinogradParams w;
        w.height = 2000;
        ll::gpu::check(w);
    });
    collect([] {
        ll::gpu::WinogradParams w;
        w.tile_row = 40;
        ll::gpu::check(w);
    });
    collect([] {
        ll::gpu::SystolicParams s;
        s.rows = 99;
        ll::gpu::check(s);
    });
    collect([] {
        ll::gpu::TensorCoreParams t;
        t.m = 0;
        ll::gpu::check(t);
    });
    collect([] { ll::view::scatter({}, {}); });
    collect([] { ll::checked_mul(int64_t(1) << 40, int64_t(1) << 40, "shape"); });
    collect([] { ll::checked_float(1e9, "ui_scale", 0.5, 4); });
    collect([] {
        int64_t v = 0;
        ll::gui::SceneReader(nlohmann::json{{"width", "x"}}, "scatter").get("width", v, 1, 4096);
    });
    collect([] {
        ll::gui::SceneReader(nlohmann::json{{"colour", 1}}, "scatter").only({"width", "burst"});
    });
    collect([] {
        std::string tab;
        ll::gui::SceneReader(nlohmann::json{{"tab", "x"}}, "gpu")
            .get_choice("tab", tab, {"winograd", "cudnn"});
    });
    ASSERT_EQ(errors.size(), 10u);
    for (const ll::UsageError& e : errors) {
        const std::string en = std::string("error: ") + e.what();
        std::string zh_text = tr_text(en);
        EXPECT_TRUE(has_cjk(zh_text)) << en;
        // Keys and values the user typed stay as they are.
        for (const std::string& keep :
             {e.key(), std::string("ui_scale"), std::string("width"), std::string("colour"),
              std::string("winograd"), std::string("cudnn"), std::string("burst"),
              std::string("tab"), std::string("scatter"), std::string("gpu")})
            for (size_t at; !keep.empty() && (at = zh_text.find(keep)) != std::string::npos;)
                zh_text.erase(at, keep.size());
        EXPECT_FALSE(has_english_word(zh_text)) << en << "\n -> " << tr_text(en);
    }
    EXPECT_EQ(tr_text("error: height: 2000 is out of range; expected input rows H in 3..1024"),
              "错误：height：2000 超出范围；应为3..1024 范围内的输入行数 H");
}

TEST(CoreText, CompareSummaryIsTranslated) {
    ZhScope zh;
    ll::ConvertSpec a;
    a.from = ll::Format::ND, a.to = ll::Format::FRACTAL_NZ, a.shape = {2, 16, 28};
    ll::ConvertSpec b = a;
    b.to = ll::Format::FRACTAL_ZN;
    const ll::Plan pa = ll::format_plan({ll::make_pipeline(a)});
    const ll::Plan pb = ll::format_plan({ll::make_pipeline(b)});
    const std::string en = ll::compare_layouts(pa, pb).summary();
    EXPECT_TRUE(has_cjk(tr_text(en))) << en;
    EXPECT_FALSE(has_english_word(tr_text(en))) << tr_text(en);
}

TEST(CoreText, TheAuditRecordsLookupsThatFoundNothing) {
    // --dump-text's "misses" (app/i18n/text_audit.hpp): tr() and tr_text()
    // in Chinese that returned their English, including a part of a text
    // that a template matched.
    ll::i18n::audit::enable();
    ZhScope zh;
    EXPECT_EQ(tr_text("no entry for this text"), "no entry for this text");
    EXPECT_STREQ(tr("no catalog entry either"), "no catalog entry either");
    EXPECT_EQ(tr_text("error: untranslated detail here"), "错误：untranslated detail here");
    const nlohmann::json misses = ll::i18n::audit::report()["misses"];
    for (const char* m :
         {"no entry for this text", "no catalog entry either", "untranslated detail here"})
        EXPECT_NE(std::find(misses.begin(), misses.end(), m), misses.end()) << m;
    // Translated text is no miss, nor is the lookup of a core text in the
    // window's own catalog on the way to a template.
    for (const auto& m : misses) EXPECT_NE(m.get<std::string>(), "source FRACTAL_NZ");
    EXPECT_EQ(tr_text("source FRACTAL_NZ"), "源 FRACTAL_NZ");
    // The report is a temporary: keep it while its "misses" are walked (a
    // range-for over report()["misses"] read freed memory, found by ASan).
    const nlohmann::json after = ll::i18n::audit::report();
    for (const auto& m : after.at("misses")) EXPECT_NE(m.get<std::string>(), "source FRACTAL_NZ");
}
