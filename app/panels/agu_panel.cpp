// AGU / DMA / scatter-gather: address streams drawn over memory as they are
// generated. DMA mode: the read AGU walks the source layout and the write AGU
// the destination layout in lock-step; a step counter (play / scrub; space,
// left/right, Home/End) shows which source cell is read and which
// destination cell is written, the element gliding from one to the other.
// Gather mode: the request of `width` indices at the current step, its
// contiguous runs and the bursts it touches. The pictures are core's
// (view::dma_scene, view::gather_scene), drawn by the cell renderer.
//
// Scene keys: mode ("dma" or "gather"), shape, src, dst, elem_bytes, indices,
// width, burst, speed (steps/s), step, playing. probe() (--dump-view) holds
// "screen": the cells read and written at the
// current DMA step as [x, y, size], and the canvas and picture rectangles.
//
// State: the settings (saved); the Dma / GatherReport and the scene of the
// current step (engine data, rebuilt on change); the playhead.
#include <imgui.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/i18n/tr.hpp"
#include "app/i18n/tr_text.hpp"
#include "app/panels/compute_widgets.hpp"
#include "app/panels/fitted_columns.hpp"
#include "app/panels/panel.hpp"
#include "app/panels/playhead_panel.hpp"
#include "app/panels/present.hpp"
#include "app/panels/scene_reader.hpp"
#include "app/panels/slide_text.hpp"
#include "app/panels/view_widgets.hpp"
#include "app/render/present.hpp"
#include "core/error.hpp"
#include "core/view/agu.hpp"
#include "core/view/args.hpp"
#include "core/view/layout.hpp"
#include "core/view/view_plans.hpp"

namespace ll::gui {

namespace {

constexpr int64_t kMaxStats = int64_t(1) << 22;  // keeps a reconfiguration under a frame or two

struct AguSettings {
    std::string mode = "dma";  // "dma" or "gather"
    std::string shape = "1,4,3,4", src = "NCHW", dst = "NHWC";
    std::string indices = "0,1,2,3,16,17,18,40,41,64,65,66,67,68,69,70";
    int elem_bytes = 4, width = 4, burst = 32;
    nlohmann::json to_json(const Playhead& ph) const {
        return {{"mode", mode},     {"shape", shape},           {"src", src},
                {"dst", dst},       {"elem_bytes", elem_bytes}, {"indices", indices},
                {"width", width},   {"burst", burst},           {"speed", ph.speed},
                {"step", ph.value}, {"playing", ph.playing}};
    }
};

class AguPanel : public PlayheadPanel {
  public:
    AguPanel() : PlayheadPanel("step", Playhead()) {
        play_.speed = 8;
        rebuild();
    }
    const char* title() const override { return "AGU / DMA"; }
    void draw(AppContext& ctx) override;
    void draw_present(AppContext& ctx);
    nlohmann::json save_settings() const override { return set_.to_json(play_); }
    nlohmann::json probe() const override {
        nlohmann::json p = nlohmann::json::object();
        if (!probe_.empty()) p["screen"] = probe_;
        if (!toolbar_.empty()) p["toolbar"] = toolbar_;  // the settings row's fields
        return p;
    }
    void load_settings(const nlohmann::json& j) override;

  private:
    bool dma() const { return set_.mode == "dma"; }
    int64_t total() const { return dma() ? dma_.count() : int64_t(gather_.requests.size()); }
    void rebuild();
    void draw_dma(bool dark);
    void draw_gather(bool dark);
    void ensure_scene(int64_t k, const view::Canvas& c);

    AguSettings set_;
    char shape_[64] = "", src_[64] = "", dst_[64] = "", idx_[256] = "";  // edit buffers
    view::Layout src_layout_, dst_layout_;
    view::Dma dma_;
    view::StreamStats read_stats_, write_stats_;  // computed once per configuration
    view::GatherReport gather_;
    view::DmaScene dscene_;
    view::GatherScene gscene_;
    viewui::Picture pic_;
    int64_t scene_k_ = -1;
    std::string error_, draw_error_;
    bool present_ = false;      // drawing for presentation mode (no tables)
    std::string present_line_;  // the caption's second line in presentation mode
    nlohmann::json probe_;      // the current step's cells, last frame (for dumps)
    nlohmann::json toolbar_;    // the settings fields' rectangles, last frame (for dumps)
};

// [x0, y0, x1, y1] of the last item, for the probe.
nlohmann::json item_rect() {
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    return {a.x, a.y, b.x, b.y};
}

void AguPanel::load_settings(const nlohmann::json& j) {
    SceneReader r(j, "agu");
    r.only({"mode", "shape", "src", "dst", "elem_bytes", "indices", "width", "burst", "speed",
            "step", "playing"});
    r.get_choice("mode", set_.mode, {"dma", "gather"});
    r.get("shape", set_.shape);
    r.get("src", set_.src);
    r.get("dst", set_.dst);
    r.get("indices", set_.indices);
    r.get("elem_bytes", set_.elem_bytes, 1, 16);
    r.get("width", set_.width, 1, 1024);
    r.get("burst", set_.burst, 1, 1 << 20);
    r.get("speed", play_.speed, 0.01, 1e6);
    // Each text field on its own, so the error names the key.
    try {
        if (dma()) {
            Shape sh;
            try {
                sh = parse_shape(set_.shape);
            } catch (const UsageError& e) {
                throw UsageError("shape", e.what());
            }
            for (const char* k : {"src", "dst"}) {
                try {
                    view::layout_from_spec(k[0] == 's' ? set_.src : set_.dst, sh);
                } catch (const UsageError& e) {
                    throw UsageError(k, e.what());
                }
            }
        } else {
            parse_int_list(set_.indices, "indices");
        }
    } catch (const std::exception& e) {
        r.rethrow(e);
    }
    rebuild();
    if (!error_.empty()) r.rethrow(UsageError(error_));
    double step = 0;
    r.get("step", step, 0, double(total()));
    play_.seek(step);
    bool playing = false;
    r.get("playing", playing);
    play_.playing = playing;
}

void AguPanel::rebuild() {
    std::snprintf(shape_, sizeof shape_, "%s", set_.shape.c_str());
    std::snprintf(src_, sizeof src_, "%s", set_.src.c_str());
    std::snprintf(dst_, sizeof dst_, "%s", set_.dst.c_str());
    std::snprintf(idx_, sizeof idx_, "%s", set_.indices.c_str());
    try {
        if (dma()) {
            Shape s = parse_shape(set_.shape);
            src_layout_ = view::layout_from_spec(set_.src, s);
            dst_layout_ = view::layout_from_spec(set_.dst, s);
            dma_ = view::make_dma(src_layout_, dst_layout_, set_.elem_bytes * 8);
            read_stats_ = view::stream_stats(dma_.read, 8, kMaxStats);
            write_stats_ = view::stream_stats(dma_.write, 8, kMaxStats);
        } else {
            gather_ = view::gather({set_.width, set_.elem_bytes * 8, 0, set_.burst},
                                   parse_int_list(set_.indices, "indices"));
        }
        error_.clear();
    } catch (const UsageError& e) {
        error_ = e.what();
    }
    play_.set_range(0, double(error_.empty() ? total() : 0));
    scene_k_ = -1;
    pic_.has_plan = false;
}

// Presentation mode: the address stream and the picture fill the slide (no
// settings, no transport; the keys still play and step).
void AguPanel::draw_present(AppContext& ctx) {
    if (!error_.empty()) {
        ImGui::TextWrapped("error: %s", error_.c_str());
        return;
    }
    apply_keys(play_, ctx.keys);
    char buf[128];
    std::snprintf(buf, sizeof buf, "%s: step %lld of %lld",
                  dma() ? "DMA (two AGUs)" : "scatter-gather",
                  (long long)std::min<int64_t>(play_.whole(), total()), (long long)total());
    ctx.caption.title = buf;
    present_ = true;
    // The picture's text grows with a tall slide (13 px captions under
    // 85 px cells read as footnotes); core lays the scene out for it.
    ImGui::SetWindowFontScale(slide_text_scale());
    if (dma())
        draw_dma(ctx.dark_theme);
    else
        draw_gather(ctx.dark_theme);
    ImGui::SetWindowFontScale(1.f);
    present_ = false;
    ctx.caption.formula = present_line_;
}

void AguPanel::draw(AppContext& ctx) {
    if (ctx.present) {
        draw_present(ctx);
        return;
    }
    int mode = dma() ? 0 : 1;
    bool changed = ImGui::RadioButton(tr_id("DMA (two AGUs)"), &mode, 0);
    ImGui::SameLine();
    changed |= ImGui::RadioButton(tr_id("scatter-gather"), &mode, 1);
    set_.mode = mode == 0 ? "dma" : "gather";
    const float field = ImGui::GetFontSize() * 6;
    ImGui::PushItemWidth(field);
    auto enter = ImGuiInputTextFlags_EnterReturnsTrue;
    // A field whose label no longer fits the row starts a new one (on a
    // projector "elem bytes" was cut at the right edge).
    toolbar_ = nlohmann::json::array();
    auto next = [&](const char* label) {
        toolbar_.push_back(item_rect());
        ImGui::SameLine();
        compute::wrap_for(field + ImGui::GetStyle().ItemInnerSpacing.x +
                          ImGui::CalcTextSize(tr_id(label), nullptr, true).x);
    };
    if (dma()) {
        changed |= ImGui::InputText(tr_id("shape"), shape_, sizeof shape_, enter);
        next("source layout");
        changed |= ImGui::InputText(tr_id("source layout"), src_, sizeof src_, enter);
        next("destination layout");
        changed |= ImGui::InputText(tr_id("destination layout"), dst_, sizeof dst_, enter);
    } else {
        changed |= ImGui::InputText(tr_id("indices"), idx_, sizeof idx_, enter);
        next("width");
        changed |= ImGui::InputInt(tr_id("width"), &set_.width, 0, 0, enter);
        next("burst B");
        changed |= ImGui::InputInt(tr_id("burst B"), &set_.burst, 0, 0, enter);
    }
    next("elem bytes");
    changed |= ImGui::InputInt(tr_id("elem bytes"), &set_.elem_bytes, 0, 0, enter);
    toolbar_.push_back(item_rect());
    ImGui::PopItemWidth();
    if (changed) {
        set_.shape = shape_, set_.src = src_, set_.dst = dst_, set_.indices = idx_;
        set_.elem_bytes = std::clamp(set_.elem_bytes, 1, 16);
        set_.width = std::clamp(set_.width, 1, 1024);
        set_.burst = std::clamp(set_.burst, 1, 1 << 20);
        play_.seek(0);
        rebuild();
    }
    if (!error_.empty()) {
        ImGui::TextColored(render::theme_colour(render::Role::error), tr("error: %s"),
                           tr_text(error_).c_str());
        return;
    }
    apply_keys(play_, ctx.keys);
    if (ImGui::Button(play_.playing ? tr_id("pause") : tr_id("play"))) {
        if (!play_.playing && play_.value >= play_.hi) play_.seek(0);
        play_.toggle();
    }
    ImGui::SameLine();
    ImGui::PushItemWidth(ImGui::GetFontSize() * 12);
    float st = float(play_.value);
    if (ImGui::SliderFloat(tr_id("step"), &st, 0, float(total()), "%.0f")) {
        play_.seek(std::round(st));
        play_.playing = false;
    }
    ImGui::SameLine();
    compute::wrap_for(ImGui::GetFontSize() * 12 + ImGui::CalcTextSize(tr_id("steps/s")).x);
    float speed = float(play_.speed);
    if (ImGui::SliderFloat(tr_id("steps/s"), &speed, 1, 200, "%.0f", ImGuiSliderFlags_Logarithmic))
        play_.speed = speed;
    ImGui::PopItemWidth();
    if (dma())
        draw_dma(ctx.dark_theme);
    else
        draw_gather(ctx.dark_theme);
}

void AguPanel::ensure_scene(int64_t k, const view::Canvas& c) {
    if (k == scene_k_ && !pic_.needs_layout(c)) return;
    bool refit = pic_.needs_layout(c);
    try {
        if (dma()) {
            dscene_ = view::dma_scene(dma_, k, c);
            pic_.set(dscene_.plan, c, refit);
        } else {
            gscene_ =
                view::gather_scene(gather_, {set_.width, set_.elem_bytes * 8, 0, set_.burst}, k, c);
            pic_.set(gscene_.plan, c, refit);
        }
        draw_error_.clear();
    } catch (const UsageError& e) {
        draw_error_ = e.what();
        pic_.has_plan = false;
    }
    scene_k_ = k;
}

void AguPanel::draw_dma(bool dark) {
    const view::StreamStats &rs = read_stats_, &ws = write_stats_;
    if (!present_)
        ImGui::Text(
            tr("read stream: %lld contiguous runs; write stream: %lld runs (%s%lld addresses)"),
            static_cast<long long>(rs.runs), static_cast<long long>(ws.runs),
            rs.truncated ? tr("first ") : "", static_cast<long long>(rs.count));
    const int64_t n = dma_.count();
    const int64_t k = std::min<int64_t>(play_.whole(), n);  // elements already moved
    // The address streams as generated: the last steps up to this one, each
    // with its delta from the step before (the AGU's current stride).
    const int64_t last = std::min(k, n - 1);
    auto rows = view::dma_rows(dma_, src_layout_.shape(), std::max<int64_t>(0, last - 5), last);
    // A fixed height (the last six steps), so the picture below keeps its
    // place; in a short window (a projector at UI scale 1.5) it keeps to a
    // quarter of the height, so the memory strips keep cells that hold text.
    const float row_h = ImGui::GetFrameHeightWithSpacing();
    const int64_t fit =
        std::clamp<int64_t>(int64_t(ImGui::GetContentRegionAvail().y * 0.25f / row_h) - 1, 2, 6);
    const float table_h = row_h * float(std::min<int64_t>(n, fit) + 1) + 4;
    ImVec4 dim = dark ? ImVec4(0.65f, 0.65f, 0.65f, 1) : ImVec4(0.35f, 0.35f, 0.35f, 1);
    // Presentation mode: the step's addresses go to the caption, not a table.
    present_line_.clear();
    if (present_ && !rows.empty()) {
        const auto& e = rows.back();
        char buf[160];
        std::snprintf(buf, sizeof buf, "element %s: read 0x%llx (%+lld), write 0x%llx (%+lld)",
                      ll::to_string(e.element).c_str(), static_cast<unsigned long long>(e.read),
                      static_cast<long long>(e.read_delta),
                      static_cast<unsigned long long>(e.write),
                      static_cast<long long>(e.write_delta));
        present_line_ = buf;
    }
    if (!present_ && ImGui::BeginTable(tr_id("streams"), 4,
                                       ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit |
                                           ImGuiTableFlags_ScrollY,
                                       ImVec2(0, table_h))) {
        // The cells' text first, so each column starts as wide as its widest
        // line (the first frame clipped "(0,0,0,0)" to "(0" while ImGui
        // measured it).
        std::vector<std::array<std::string, 4>> cells;
        char b[96];
        for (const auto& e : rows) {
            std::array<std::string, 4> t;
            std::snprintf(b, sizeof b, "%lld%s", static_cast<long long>(e.step),
                          e.step == k ? tr(" (next)") : "");
            t[0] = b;
            t[1] = ll::to_string(e.element);
            std::snprintf(b, sizeof b, "0x%llx  (%+lld)", static_cast<unsigned long long>(e.read),
                          static_cast<long long>(e.read_delta));
            t[2] = b;
            std::snprintf(b, sizeof b, "0x%llx  (%+lld)", static_cast<unsigned long long>(e.write),
                          static_cast<long long>(e.write_delta));
            t[3] = b;
            cells.push_back(t);
        }
        setup_fitted_columns({tr("step"), tr("element"), tr("read AGU address (delta)"),
                              tr("write AGU address (delta)")},
                             cells);
        ImGui::TableHeadersRow();
        for (size_t i = 0; i < rows.size(); ++i) {
            ImVec4 col = rows[i].step == k ? ImGui::GetStyleColorVec4(ImGuiCol_Text) : dim;
            ImGui::TableNextRow();
            for (const std::string& t : cells[i]) {
                ImGui::TableNextColumn();
                ImGui::TextColored(col, "%s", t.c_str());
            }
        }
        ImGui::EndTable();
    }
    view::Canvas c = viewui::canvas_here();
    ensure_scene(k, c);
    probe_ = nlohmann::json();
    if (!draw_error_.empty()) {
        ImGui::TextWrapped("(%s)", tr_text(draw_error_).c_str());
        return;
    }
    // Between whole steps the element glides from its source to its destination.
    float glide = k < n ? float(play_.value - double(k)) : 0.f;
    pic_.draw(glide, ImVec2(c.w, c.h), dark);
    probe_ = pic_.probe();
    if (dscene_.read_cell >= 0) {
        probe_["read_cell"] = pic_.rect(dscene_.read_place);
        probe_["write_cell"] = pic_.rect(dscene_.write_place);
    }
    probe_["per_row"] = dscene_.per_row;
    int64_t h = pic_.view.hovered();
    if (h >= 0 && dscene_.plan.src[size_t(h)] >= 0)
        ImGui::SetTooltip(
            tr("element %s (stream step %lld)"),
            ll::to_string(unravel(dscene_.plan.src[size_t(h)], src_layout_.shape())).c_str(),
            static_cast<long long>(dscene_.plan.src[size_t(h)]));
}

void AguPanel::draw_gather(bool dark) {
    const auto& g = gather_;
    if (!present_)
        ImGui::Text(tr("%lld elements in %zu requests of width %d: %lld contiguous runs, %lld "
                       "bursts of %d B"),
                    static_cast<long long>(g.elements), g.requests.size(), set_.width,
                    static_cast<long long>(g.runs), static_cast<long long>(g.bursts), set_.burst);
    const int64_t k = std::min<int64_t>(play_.whole(), int64_t(g.requests.size()));
    // The address stream as issued: one row per request up to the current one.
    const float table_h = ImGui::GetFrameHeightWithSpacing() *
                              float(std::min<int64_t>(int64_t(g.requests.size()), 6) + 1) +
                          4;
    ImVec4 dim = dark ? ImVec4(0.65f, 0.65f, 0.65f, 1) : ImVec4(0.35f, 0.35f, 0.35f, 1);
    present_line_.clear();
    if (present_) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "%lld contiguous runs, %lld bursts of %d B",
                      static_cast<long long>(g.runs), static_cast<long long>(g.bursts), set_.burst);
        present_line_ = buf;
    }
    if (!present_ && ImGui::BeginTable(tr_id("requests"), 4,
                                       ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit |
                                           ImGuiTableFlags_ScrollY,
                                       ImVec2(0, table_h))) {
        int64_t last = std::min<int64_t>(k, int64_t(g.requests.size()) - 1);
        std::vector<std::array<std::string, 4>> cells;
        for (int64_t r = std::max<int64_t>(0, last - 5); r <= last; ++r) {
            const auto& q = g.requests[size_t(r)];
            std::array<std::string, 4> t;
            char b[40];
            for (int64_t a : q.addresses) {
                std::snprintf(b, sizeof b, "%s0x%llx", t[1].empty() ? "" : " ",
                              static_cast<unsigned long long>(a));
                t[1] += b;
            }
            std::snprintf(b, sizeof b, "%lld%s", static_cast<long long>(r),
                          r == k ? tr(" (now)") : "");
            t[0] = b;
            t[2] = std::to_string(q.runs);
            t[3] = std::to_string(q.bursts);
            cells.push_back(t);
        }
        setup_fitted_columns(
            {tr("request"), tr("byte addresses issued together"), tr("runs"), tr("bursts")}, cells);
        ImGui::TableHeadersRow();
        for (size_t i = 0; i < cells.size(); ++i) {
            const bool now = std::max<int64_t>(0, last - 5) + int64_t(i) == k;
            ImVec4 col = now ? ImGui::GetStyleColorVec4(ImGuiCol_Text) : dim;
            ImGui::TableNextRow();
            for (const std::string& t : cells[i]) {
                ImGui::TableNextColumn();
                ImGui::TextColored(col, "%s", t.c_str());
            }
        }
        ImGui::EndTable();
    }
    view::Canvas c = viewui::canvas_here();
    ensure_scene(k, c);
    probe_ = nlohmann::json();
    if (!draw_error_.empty()) {
        ImGui::TextWrapped("(%s)", tr_text(draw_error_).c_str());
        return;
    }
    pic_.draw(0, ImVec2(c.w, c.h), dark);
    probe_ = pic_.probe();
    probe_["request_cells"] = nlohmann::json::array();
    for (int64_t cell : gscene_.request_cells)
        probe_["request_cells"].push_back(pic_.rect(cell, 0));
}

}  // namespace

std::unique_ptr<Panel> make_agu_panel() {
    return std::make_unique<AguPanel>();
}

}  // namespace ll::gui
