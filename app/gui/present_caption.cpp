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

// Draws `text` at `size` into width w, shrinking it until it fits, so a long
// formula is never cut off at the window's edge: down to body size, and
// below it to kMinScale of it (the explorer's memory stage of NC1HWC0 at
// 1024x768 x1.5 needs 0.85 of body size); only past that is it cut.
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
    dl->PushClipRect(p, ImVec2(p.x + w, p.y + size * 1.3f), true);
    dl->AddText(font, s, ImVec2(x, p.y), col, text.c_str());
    dl->PopClipRect();
    g_lines.push_back({text, x, p.y, ts.x, ts.y, p.x, p.x + w});
}
}  // namespace

const std::vector<CaptionLine>& caption_lines() {
    return g_lines;
}

float caption_height() {
    const float f = ImGui::GetFontSize();
    return f * (kTitleScale + kFormulaScale) * 1.2f + ImGui::GetStyle().WindowPadding.y;
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
    if (!formula.empty())
        fitted_text(dl, ImVec2(pos.x, pos.y + f * kTitleScale * 1.2f), w, f * kFormulaScale,
                    render::ink(render::Role::accent, dark), formula);
}

}  // namespace ll::gui
