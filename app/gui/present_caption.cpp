#include "app/gui/present_caption.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "app/i18n/text_audit.hpp"
#include "app/i18n/tr_text.hpp"
#include "app/render/palette.hpp"

namespace ll::gui {

namespace {
// The title reads from the back of a lecture room at 1024x768: about 1.7 lines
// of body text; the formula a little smaller.
constexpr float kTitleScale = 1.7f, kFormulaScale = 1.35f;

// The caption's lines as drawn in the last frame (--dump-view).
std::vector<CaptionLine> g_lines;

// Draws `text` at `size` into width w, centred, shrinking it until it fits:
// down to body size, and (a formula too long for two lines) below it to
// kMinScale of it; only past that is it cut.
constexpr float kMinScale = 0.6f;
void fitted_text(ImDrawList* dl, ImVec2 p, float w, float size, ImU32 col,
                 const std::string& text) {
    ImFont* font = ImGui::GetFont();
    const float body = ImGui::GetFontSize();
    float s = size;
    ImVec2 ts = font->CalcTextSizeA(s, 1e9f, 0, text.c_str());
    if (ts.x > w && ts.x > 0) s = std::max(body * kMinScale, s * w / ts.x * 0.99f);
    ts = font->CalcTextSizeA(s, 1e9f, 0, text.c_str());
    float x = p.x + std::max(0.f, (w - ts.x) / 2);
    dl->PushClipRect(p, ImVec2(p.x + w, p.y + std::max(size, s) * 1.3f), true);
    dl->AddText(font, s, ImVec2(x, p.y), col, text.c_str());
    dl->PopClipRect();
    g_lines.push_back({text, x, p.y, ts.x, ts.y, p.x, p.x + w});
}

// A formula too long for one line at body size wraps onto a second line at
// body size (the caption growing by that line from the next frame on: it
// stays within a fifth of a 1024x768 window); only one too long for two
// lines shrinks (to kMinScale) and, past that, is cut. The explorer's
// memory stages of NC1HWC0 and FRACTAL_NZ at 1024x768 x1.5 ran off the
// window's right edge.
float g_formula_h = 0;  // the formula's height in the last frame; 0 = one line

// `text` broken at spaces into at most `most` lines of w pixels at `size`
// (the last holding the rest); empty when it needs more.
std::vector<std::string> wrapped(const std::string& text, float size, float w, size_t most) {
    ImFont* font = ImGui::GetFont();
    std::vector<std::string> lines;
    const char* at = text.c_str();
    const char* end = at + text.size();
    while (at < end) {
        if (lines.size() == most) return {};
        const char* cut = font->CalcWordWrapPositionA(size / font->FontSize, at, end, w);
        if (cut == at) cut = at + 1;  // one glyph wider than w: take it anyway
        std::string line(at, cut);
        while (!line.empty() && line.back() == ' ') line.pop_back();
        if (font->CalcTextSizeA(size, 1e9f, 0, line.c_str()).x > w) return {};
        lines.push_back(line);
        at = cut;
        while (at < end && *at == ' ') ++at;
    }
    return lines;
}

void draw_formula(ImDrawList* dl, ImVec2 p, float w, float size, ImU32 col,
                  const std::string& text) {
    ImFont* font = ImGui::GetFont();
    const float body = ImGui::GetFontSize();
    g_formula_h = 0;
    const float one = font->CalcTextSizeA(size, 1e9f, 0, text.c_str()).x;
    const std::vector<std::string> two =
        one * body / size > w ? wrapped(text, body, w, 2) : std::vector<std::string>();
    if (two.size() == 2) {
        for (size_t i = 0; i < two.size(); ++i)
            fitted_text(dl, ImVec2(p.x, p.y + float(i) * body * 1.2f), w, body, col, two[i]);
        g_formula_h = 2 * body * 1.2f;
        return;
    }
    fitted_text(dl, p, w, size, col, text);  // one line, shrunk as far as it must
}
}  // namespace

const std::vector<CaptionLine>& caption_lines() {
    return g_lines;
}

float caption_height() {
    const float f = ImGui::GetFontSize();
    return f * kTitleScale * 1.2f + std::max(f * kFormulaScale * 1.2f, g_formula_h) +
           ImGui::GetStyle().WindowPadding.y;
}

void draw_caption(const AppContext::Caption& c, const char* panel_title, ImVec2 pos, float w,
                  bool dark) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float f = ImGui::GetFontSize();
    // Panels compose captions from core's English (stage labels, formulas,
    // counts); what is not Chinese yet goes through the catalog here.
    const std::string title = c.title.empty() ? std::string(panel_title) : tr_text(c.title);
    const std::string formula = tr_text(c.formula);
    i18n::audit::note(title);  // --dump-text: drawn outside ImGui's text log
    i18n::audit::note(formula);
    g_lines.clear();
    fitted_text(dl, pos, w, f * kTitleScale, render::ink(render::Role::text, dark), title);
    g_formula_h = 0;
    if (!formula.empty())
        draw_formula(dl, ImVec2(pos.x, pos.y + f * kTitleScale * 1.2f), w, f * kFormulaScale,
                     render::ink(render::Role::accent, dark), formula);
}

}  // namespace ll::gui
