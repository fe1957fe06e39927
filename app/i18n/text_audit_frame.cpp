// The ImGui half of text_audit.hpp: the text a frame put on screen, read back
// from ImGui's draw data. Every glyph ImGui draws is a textured quad whose
// texture corner is that glyph's place in the font atlas, so mapping the
// corners back to code points recovers every string drawn: widgets, tables,
// menus, and text panels draw straight into draw lists (picture labels,
// captions, plot text) alike. Glyphs are joined into one string while they
// follow each other on a line; a gap wider than the glyphs' advance is a
// space. (ImGui's own text log stops at the end of the first window and
// never sees draw-list text.)
//
// Apart from text_audit.cpp so that the catalog's unit tests (tests/app/, no
// ImGui) link tr.cpp and the audit without ImGui.
#include <imgui.h>

#include <cmath>
#include <map>
#include <string>
#include <utility>

#include "app/i18n/text_audit.hpp"

namespace ll::i18n::audit {

namespace {

void append_utf8(std::string& s, uint32_t cp) {
    if (cp < 0x80) {
        s += char(cp);
    } else if (cp < 0x800) {
        s += char(0xC0 | (cp >> 6));
        s += char(0x80 | (cp & 0x3F));
    } else {
        s += char(0xE0 | (cp >> 12));
        s += char(0x80 | ((cp >> 6) & 0x3F));
        s += char(0x80 | (cp & 0x3F));
    }
}

// One drawn glyph: its font data and the quad's screen corners.
struct Placed {
    const ImFontGlyph* g = nullptr;
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    float scale() const { return g->X1 > g->X0 ? (x1 - x0) / (g->X1 - g->X0) : 1.0f; }
    float origin_x() const { return x0 - g->X0 * scale(); }  // the pen position
    float top() const { return y0 - g->Y0 * scale(); }       // the line's top
};

// Texture corner (U0, V0) -> glyph, for the atlas in use.
const std::map<std::pair<float, float>, const ImFontGlyph*>& glyph_index() {
    static std::map<std::pair<float, float>, const ImFontGlyph*> index;
    static const void* built_for = nullptr;
    static int built_glyphs = -1;
    ImFontAtlas* atlas = ImGui::GetIO().Fonts;
    int glyphs = 0;
    for (ImFont* f : atlas->Fonts) glyphs += f->Glyphs.Size;
    if (built_for != atlas->TexID || built_glyphs != glyphs) {
        index.clear();
        for (ImFont* f : atlas->Fonts)
            for (const ImFontGlyph& g : f->Glyphs)
                if (g.Visible) index.emplace(std::make_pair(g.U0, g.V0), &g);
        built_for = atlas->TexID;
        built_glyphs = glyphs;
    }
    return index;
}

}  // namespace

void frame_end() {
    if (!enabled()) return;
    const ImDrawData* dd = ImGui::GetDrawData();
    if (!dd) return;
    const auto& index = glyph_index();
    std::string text;
    Placed last;
    bool line_cut = false;  // a glyph of the line straddles its clip's left or right edge
    ImU32 line_ink = 0;     // the line's first glyph's colour
    auto flush = [&] {
        add_lines(text);
        ink(text, line_ink);
        if (line_cut) cut(text);
        line_cut = false;
        text.clear();
        last = Placed();
    };
    for (int l = 0; l < dd->CmdListsCount; ++l) {
        const ImDrawList* dl = dd->CmdLists[l];
        for (const ImDrawCmd& cmd : dl->CmdBuffer) {
            if (cmd.UserCallback) continue;
            const ImDrawIdx* idx = dl->IdxBuffer.Data + cmd.IdxOffset;
            const ImDrawVert* vtx = dl->VtxBuffer.Data + cmd.VtxOffset;
            // A glyph is two triangles (a, a+1, a+2), (a, a+2, a+3) whose
            // first corner's texture point is a glyph's (U0, V0).
            for (unsigned i = 0; i + 6 <= cmd.ElemCount; i += 3) {
                const ImDrawIdx a = idx[i];
                if (idx[i + 1] != a + 1 || idx[i + 2] != a + 2 || idx[i + 3] != a ||
                    idx[i + 4] != a + 2 || idx[i + 5] != a + 3)
                    continue;
                const ImDrawVert& v0 = vtx[a];
                const ImDrawVert& v2 = vtx[a + 2];
                auto it = index.find({v0.uv.x, v0.uv.y});
                if (it == index.end() || v2.uv.x != it->second->U1 || v2.uv.y != it->second->V1)
                    continue;
                Placed p{it->second, v0.pos.x, v0.pos.y, v2.pos.x, v2.pos.y};
                if (last.g) {
                    const float em = std::max(last.y1 - last.y0, p.y1 - p.y0);
                    const float pen = last.origin_x() + last.g->AdvanceX * last.scale();
                    const float gap = p.origin_x() - pen;
                    // One line: the same line top ('_' and 'g' sit low,
                    // but their line starts where the others' does).
                    const bool same_line = std::fabs(p.top() - last.top()) < 0.35f * em &&
                                           gap > -0.5f * em && gap < 3.0f * em;
                    if (!same_line)
                        flush();
                    else if (gap > 0.2f * em)
                        text += ' ';
                }
                if (text.empty()) line_ink = v0.col;
                append_utf8(text, p.g->Codepoint);
                const ImVec4& c = cmd.ClipRect;
                const float slack = 0.25f * (p.x1 - p.x0) + 0.5f;  // a glyph's side bearing
                if (p.y0 >= c.y - 0.5f && p.y1 <= c.w + 0.5f &&
                    ((p.x0 < c.x - slack && p.x1 > c.x) || (p.x0 < c.z && p.x1 > c.z + slack)))
                    line_cut = true;
                last = p;
                i += 3;  // the quad's second triangle
            }
            flush();
        }
    }
}

}  // namespace ll::i18n::audit
