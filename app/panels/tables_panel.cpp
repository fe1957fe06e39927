// Hardware tables: document 003's tables as core builds them
// (core/gpu/hardware_tables): section 5.2 (which hardware prefers which
// layout), section 14.5 (the units for layout transforms) and table 15.4.1
// (layout vs tile order, the tiling model's numbers beside the printed ones,
// the ratio and the fitted settings named). Every row has a button that opens
// the panel showing it on the row's subject (an OpenRequest with the row's
// scene settings) and says the CLI command that prints the same. The CLI twin
// is `layoutlab hardware`.
//
// Presentation mode: one table at a time fills the slide in large type
// with its notes (left/right, Home/End choose it); the caption is its title.
//
// Scene keys: formula_only (table 15.4.1 by formula (8) alone), open (a
// table id and row, e.g. ["15.4.1", 1]: press that row's button, for tests
// and lessons).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/i18n/tr.hpp"
#include "app/i18n/tr_text.hpp"
#include "app/panels/compute_widgets.hpp"
#include "app/panels/panel.hpp"
#include "app/panels/present.hpp"
#include "app/panels/scene_reader.hpp"
#include "core/error.hpp"
#include "core/gpu/hardware_tables.hpp"

namespace ll::gui {

namespace {

class TablesPanel : public Panel {
  public:
    TablesPanel() { rebuild(); }
    const char* title() const override { return trn("Hardware tables"); }
    void draw(AppContext& ctx) override;
    // --dump-view: in presentation mode, the slide's type scale, the rows'
    // extra padding and how much of the slide's height the table and its
    // notes take ("used_px" of "slide_px").
    nlohmann::json probe() const override {
        nlohmann::json p = nlohmann::json::object();
        if (!screen_.empty()) p["screen"] = screen_;
        if (!labels_.empty()) p["tables"] = labels_;
        return p;
    }
    nlohmann::json save_settings() const override { return {{"formula_only", formula_only_}}; }
    void load_settings(const nlohmann::json& j) override {
        SceneReader r(j, "tables");
        r.only({"formula_only", "open"});
        r.get("formula_only", formula_only_);
        rebuild();
        if (r.has("open")) {
            const nlohmann::json& o = r.at("open");
            if (!o.is_array() || o.size() != 2 || !o[0].is_string() || !o[1].is_number_integer())
                r.fail("open", o, "[table id, row], e.g. [\"15.4.1\", 1]");
            for (const gpu::DocTable& t : tables_)
                if (t.id == o[0].get<std::string>()) {
                    const int64_t row = o[1].get<int64_t>();
                    if (row < 0 || row >= int64_t(t.rows.size()))
                        r.fail("open", o,
                               "a row of table " + t.id + " in 0.." +
                                   std::to_string(t.rows.size() - 1));
                    pending_ = t.rows[size_t(row)].link;
                    return;
                }
            r.fail("open", o, "a table id: 5.2, 14.5 or 15.4.1");
        }
    }

  private:
    void rebuild() {
        tables_ = {gpu::table_5_2(), gpu::table_14_5(),
                   gpu::table_15_4_1_linked(tiling::Config{}, formula_only_)};
    }
    void draw_table(AppContext& ctx, const gpu::DocTable& t);
    // Keeps the last item's place as a label of table t (kind "header" or
    // "cell", its column and row; row -1 for the header), for the probe.
    void note_label(const gpu::DocTable& t, const char* kind, int col, int row,
                    const std::string& label);
    void draw_present(AppContext& ctx);

    bool formula_only_ = false;
    std::vector<gpu::DocTable> tables_;
    gpu::TableLink pending_;      // a row opened by a scene, sent on the next frame
    int shown_ = 0;               // the table on the slide in presentation mode
    float present_scale_ = 1.3f;  // its type size, fitted to the slide
    float present_pad_ = 0;       // extra padding per row (px) once the type is at its largest
    int fitted_ = 0;              // the table present_pad_ was fitted to
    nlohmann::json screen_;       // the last slide's fit (probe)
    nlohmann::json labels_;       // {table id: [label, ...]} the last frame drew (probe)
};

// The text of a row's button: "Open " and the panel's title.
std::string open_label(const gpu::TableRow& r) {
    const PanelEntry* p = find_panel(r.link.panel);
    return tr("Open ") + std::string(p ? tr(p->title) : r.link.panel.c_str());
}

// The widest run a line cannot be broken in: a word between spaces, or one
// glyph of Chinese (which wraps anywhere).
float longest_word(const std::string& text) {
    float w = 0;
    size_t i = 0;
    while (i < text.size()) {
        size_t j = i;
        if (static_cast<unsigned char>(text[i]) >= 0x80) {
            ++j;
            while (j < text.size() && (static_cast<unsigned char>(text[j]) & 0xC0) == 0x80) ++j;
        } else {
            while (j < text.size() && text[j] != ' ' && static_cast<unsigned char>(text[j]) < 0x80)
                ++j;
        }
        if (j > i) w = std::max(w, ImGui::CalcTextSize(text.data() + i, text.data() + j).x);
        i = j > i ? j : i + 1;
    }
    return w;
}

void TablesPanel::note_label(const gpu::DocTable& t, const char* kind, int col, int row,
                             const std::string& label) {
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    const std::string text = label.substr(0, label.find("##"));  // without its ID
    labels_[t.id].push_back({{"kind", kind},
                             {"text", text},
                             {"text_w", ImGui::CalcTextSize(text.c_str()).x},
                             {"col", col},
                             {"row", row},
                             {"rect", {a.x, a.y, b.x - a.x, b.y - a.y}}});
}

void TablesPanel::draw_table(AppContext& ctx, const gpu::DocTable& t) {
    ImGui::PushID(t.id.c_str());
    const int cols = int(t.header.size()) + 1;
    // Each column's width is set from its text before the table is drawn
    // (ImGui measures it while drawing: the first frame gave wrapped columns
    // a letter's width and cut "NVIDIA" into single letters): at least its
    // longest word (a slide broke "accelerato / r"), the rest of the room
    // shared by how much more each column's longest line wants. Fixed
    // widths, set every frame (a stretch column's weight is read only in
    // the table's first frame, and a slide's type grows after it).
    const ImGuiStyle& st = ImGui::GetStyle();
    std::vector<float> want(size_t(cols), 1.f), least(size_t(cols), 1.f);
    auto widen = [&](size_t c, const std::string& text) {
        want[c] = std::max(want[c], ImGui::CalcTextSize(text.c_str()).x);
        least[c] = std::max(least[c], longest_word(text));
    };
    // A header does not wrap: its whole width.
    for (size_t c = 0; c < t.header.size(); ++c) {
        widen(c, tr_text(t.header[c]));
        least[c] = std::max(least[c], want[c]);
    }
    widen(size_t(cols - 1), tr("shown in"));
    for (const gpu::TableRow& r : t.rows) {
        for (size_t c = 0; c < r.cells.size() && c + 1 < size_t(cols); ++c)
            widen(c, tr_text(r.cells[c]));
        widen(size_t(cols - 1), r.link.panel.empty() ? std::string(tr("CLI only")) : open_label(r));
    }
    // The buttons do not wrap: their column is as wide as the widest.
    const float button_w = want[size_t(cols - 1)] + 2 * st.FramePadding.x;
    const float room =
        ImGui::GetContentRegionAvail().x - button_w - float(cols) * (2 * st.CellPadding.x + 1);
    std::vector<float> width = least;
    float need = 0, extra = 0;
    for (int c = 0; c + 1 < cols; ++c)
        need += least[size_t(c)], extra += want[size_t(c)] - least[size_t(c)];
    for (int c = 0; c + 1 < cols; ++c)
        width[size_t(c)] +=
            extra > 0 ? std::max(0.f, room - need) * (want[size_t(c)] - least[size_t(c)]) / extra
                      : 0;
    if (ImGui::BeginTable(
            "rows", cols,
            ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
        // Core's English header is the column's ID; the translation is shown.
        for (size_t c = 0; c < t.header.size(); ++c)
            ImGui::TableSetupColumn((tr_text(t.header[c]) + "###" + t.header[c]).c_str(),
                                    ImGuiTableColumnFlags_WidthFixed, width[c]);
        ImGui::TableSetupColumn(tr_id("shown in"), ImGuiTableColumnFlags_WidthFixed, button_w);
        // The header row, each name's place kept for the probe.
        ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
        for (int c = 0; c < cols; ++c) {
            ImGui::TableSetColumnIndex(c);
            const char* name = ImGui::TableGetColumnName(c);
            ImGui::TableHeader(name);
            note_label(t, "header", c, -1, name);
        }
        for (size_t i = 0; i < t.rows.size(); ++i) {
            const gpu::TableRow& r = t.rows[i];
            ImGui::TableNextRow();
            for (size_t c = 0; c < r.cells.size(); ++c) {
                ImGui::TableNextColumn();
                ImGui::TextWrapped("%s", tr_text(r.cells[c]).c_str());
                note_label(t, "cell", int(c), int(i), tr_text(r.cells[c]));
            }
            ImGui::TableNextColumn();
            ImGui::PushID(int(i));
            if (r.link.panel.empty()) {
                ImGui::TextDisabled("%s", tr("CLI only"));
            } else if (ImGui::SmallButton((open_label(r) + "###open").c_str())) {
                ctx.open_requests.push_back({r.link.panel, r.link.settings});
            }
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", r.link.cli.c_str());
            ImGui::PopID();
        }
        ImGui::EndTable();
    }
    for (const std::string& n : t.notes) {
        // Indented notes (the fitted settings) keep their indent.
        const size_t lead = std::min(n.find_first_not_of(' '), n.size());
        ImGui::TextWrapped("%s%s", n.substr(0, lead).c_str(), tr_text(n.substr(lead)).c_str());
    }
    ImGui::PopID();
}

void TablesPanel::draw_present(AppContext& ctx) {
    const int last = int(tables_.size()) - 1;
    for (Key k : ctx.keys) {
        if (k == Key::left) shown_ = std::max(0, shown_ - 1);
        if (k == Key::right || k == Key::space) shown_ = std::min(last, shown_ + 1);
        if (k == Key::home) shown_ = 0;
        if (k == Key::end) shown_ = last;
    }
    shown_ = std::clamp(shown_, 0, last);
    if (shown_ != fitted_) present_pad_ = 0, fitted_ = shown_;  // another table: fit afresh
    const gpu::DocTable& t = tables_[size_t(shown_)];
    char buf[64];
    std::snprintf(buf, sizeof buf, tr("table %d of %d: "), shown_ + 1, last + 1);
    ctx.caption.title = buf + tr_text(t.title);
    ctx.caption.formula = tr("left/right: the other tables   (`layoutlab hardware` prints them)");
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const ImVec2 o = ImGui::GetCursorScreenPos();
    ImGui::BeginChild("slide", avail, false);
    ImGui::SetWindowFontScale(present_scale_);
    const ImVec2 cell_pad = ImGui::GetStyle().CellPadding;
    ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, ImVec2(cell_pad.x, cell_pad.y + present_pad_));
    draw_table(ctx, t);
    ImGui::PopStyleVar();
    // The type grows until the table fills most of the slide (the next
    // frame's scale; at most 2.2x, where the widest
    // button of the first table still fits its column at 1600 px). A short
    // table whose type is at its largest spreads its rows instead (half the
    // slide stayed empty under table 5.2).
    const float used = std::max(1.f, ImGui::GetCursorPosY());
    const float target = avail.y * 0.8f;
    // Wrapped cells make the height grow about as the square of the type
    // (table 5.2 at the projector: 414 px at 1.3x, 621 px at 1.62x), and in
    // steps, as a word moves to the next line: the step is the square root
    // of what is missing, taken only while the table is short of 0.72 of the
    // slide or runs past it (the extra row padding left out; a linear step toward 0.8 swung
    // between 1.3x and 1.6x, never settling in the frames before a screenshot).
    const float bare_now = std::max(1.f, used - 2 * float(t.rows.size() + 1) * present_pad_);
    const float fit = std::clamp(present_scale_ * std::sqrt(target / bare_now), 1.3f, 2.2f);
    const bool off = bare_now < 0.9f * target || used > avail.y;
    const float next =
        off && std::abs(fit - present_scale_) > 0.02f * present_scale_ ? fit : present_scale_;
    // Each row (and the header) gains 2 x pad; the rest grows with the type.
    const float rows = float(t.rows.size() + 1);
    const float bare = bare_now * next / present_scale_;
    const float pad = std::clamp((target - bare) / (2 * rows), 0.f, 3 * ImGui::GetFontSize());
    present_scale_ = next;
    if (std::abs(pad - present_pad_) > 1) present_pad_ = pad;
    screen_ = {
        {"scale", present_scale_}, {"pad", present_pad_}, {"used_px", used}, {"slide_px", avail.y}};
    ImGui::SetWindowFontScale(1.0f);
    ImGui::EndChild();
    note_diagram(o, ImVec2(o.x + avail.x, o.y + avail.y));
}

void TablesPanel::draw(AppContext& ctx) {
    labels_ = nlohmann::json::object();
    if (!pending_.panel.empty()) {
        ctx.open_requests.push_back({pending_.panel, pending_.settings});
        pending_ = {};
    }
    if (ctx.present) {
        draw_present(ctx);
        return;
    }
    screen_ = nullptr;
    ImGui::TextWrapped("%s", tr("Document 003's hardware tables. Each row opens the panel that "
                                "shows it (hover a button for the CLI command; `layoutlab "
                                "hardware` prints them)."));
    for (size_t i = 0; i < tables_.size(); ++i) {
        const gpu::DocTable& t = tables_[i];
        if (!ImGui::CollapsingHeader((tr_text(t.title) + "###" + t.id).c_str(),
                                     ImGuiTreeNodeFlags_DefaultOpen))
            continue;
        if (t.id == "15.4.1" &&
            ImGui::Checkbox(tr_id("formula (8) alone (no fitted settings)"), &formula_only_)) {
            rebuild();
            break;  // tables_ changed under the loop; drawn whole next frame
        }
        draw_table(ctx, t);
        ImGui::Spacing();
    }
}

}  // namespace

std::unique_ptr<Panel> make_tables_panel() {
    return std::make_unique<TablesPanel>();
}

}  // namespace ll::gui
