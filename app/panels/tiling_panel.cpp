// Tiling explorer: pick a tensor, layout, tiles and orders; watch the L1
// tiles and L2 sub-tiles being visited in order with each address jump drawn;
// live plots of efficiency and time per level, total time over L1 x L2 order,
// time vs tile size; the sweep's ranking and Pareto front; PNG/SVG/CSV export.
//
// State: the settings (saved); the Result, the plot objects and the two
// pictures (engine data from core/tiling, rebuilt when a setting changes);
// play_ (the animation, a Playhead advanced in update()). Every address, visiting order and
// efficiency shown comes from core/tiling (tiling.hpp, traverse.hpp); the
// pictures are core Plans drawn by the cell renderer (app/render/plan_view).
//
// Sections: [class] [engine data] [scene settings] [sweep and export]
// [controls] [traversal] [draw]
#include <imgui.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>

#include "app/i18n/tr.hpp"
#include "app/i18n/tr_text.hpp"
#include "app/panels/compact.hpp"
#include "app/panels/compute_widgets.hpp"
#include "app/panels/panel.hpp"
#include "app/panels/playhead_panel.hpp"
#include "app/panels/present.hpp"
#include "app/panels/tiling_settings.hpp"
#include "app/plot/imgui_plot.hpp"
#include "app/plot/tiling_plots.hpp"
#include "app/render/grid_labels.hpp"
#include "app/render/overlays.hpp"
#include "app/render/plan_view.hpp"
#include "app/render/present.hpp"
#include "core/error.hpp"
#include "core/tiling/stride_note.hpp"
#include "core/tiling/sweep.hpp"
#include "core/tiling/tiling.hpp"
#include "core/tiling/traverse.hpp"

namespace ll::gui {

namespace {

using namespace ll::tiling;

std::string fmt1(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.4g", v);
    return b;
}

const char* kPlotNames[] = {trn("Efficiency per level"), trn("Time per level"),
                            trn("Order heatmap"), trn("Time vs tile size"),
                            trn("Sweep: time vs footprint")};
// Scene-file names of the plots (export_plot) and of the tabs (tab).
const auto& kPlotIds = TilingSettings::kPlotIds;
const auto& kTabIds = TilingSettings::kTabIds;
const char* kTabNames[] = {trn("Traversal"), trn("Levels"), trn("Order heatmap"), trn("Tile size"),
                           trn("Sweep")};

// ---- [class] -----------------------------------------------------------------------

class TilingPanel : public PlayheadPanel {
  public:
    TilingPanel() : PlayheadPanel("sub-tile", initial_playhead()) { rebuild(); }
    const char* title() const override { return "Tiling"; }
    void update(double dt) override {
        if (error_.empty()) play_.update(dt);
    }
    Timeline timeline() const override {
        if (!error_.empty()) return {};
        return PlayheadPanel::timeline();
    }
    void seek(double t) override {
        // The timeline's end shows the last sub-tile: step total_steps()
        // would draw sub-tile 0 of the last tile and save a step that
        // load_settings refuses.
        seek_at_rest(play_, std::clamp(t, 0.0, double(total_steps() - 1)));
    }
    void draw(AppContext& ctx) override;
    nlohmann::json save_settings() const override;
    void load_settings(const nlohmann::json& j) override;
    // --dump-view: the reads each address strip's zoom drew, L1 then L2
    // (a 14-wide row of a block shows 14 reads; it once showed 9).
    // "labels": the grid labels drawn on the tensor and the tile pictures.
    // "screen": where the last frame drew the settings column, its headings,
    // the traversal toolbar's items and the two pictures' canvases.
    nlohmann::json probe() const override {
        nlohmann::json p = {{"zoom_reads", zoom_reads_},
                            {"labels",
                             {render::labels_json(tensor_view_.drawn_labels()),
                              render::labels_json(tile_view_.drawn_labels())}}};
        if (!screen_.empty()) p["screen"] = screen_;
        return p;
    }

  private:
    void rebuild();
    void build_pictures();
    static std::string show(render::PlanGpu& gpu, render::PlanView& view,
                            const std::function<Plan()>& make);
    void run_sweep();
    const plot::PlotSpec* export_spec() const;
    void export_all(const std::string& base);  // base.png, base.svg, base.csv
    void draw_controls();
    void draw_traversal(const AppContext& ctx);
    void draw_present(AppContext& ctx);
    void draw_export();
    void draw_level(render::PlanView& view, render::PlanGpu& gpu, const Visit& now,
                    const Visit* before, const BlockGrid& blocks, float height,
                    const AppContext& ctx);
    int64_t total_steps() const { return steps_; }
    static Playhead initial_playhead() {
        Playhead p(0, 1);
        p.speed = 6;
        p.playing = true;
        p.loop = true;
        return p;
    }

    // settings (speed, step and playing live in play_ while the panel runs)
    TilingSettings set_;
    std::array<int64_t, 2> zoom_reads_{{0, 0}};  // drawn in the last frame (probe)
    int select_tab_ = 0;  // frames left to force set_.tab (a scene asked for it)
    // engine data
    Config cfg_;
    Result res_;
    std::string error_;
    int64_t l1_count_ = 1;  // L1 tiles per image
    int64_t steps_ = 1;     // the animation's steps (core's traversal_steps)
    // The pictures: the tensor in DRAM and the current tile in SRAM (core
    // Plans, held by the renderer; the tile's is rebuilt when the current
    // tile's extent changes).
    Extent3 tile_plan_frame_{0, 0, 0};
    std::string picture_error_, tile_picture_error_;  // why a picture is not drawn
    render::PlanGpu tensor_gpu_, tile_gpu_;
    render::PlanView tensor_view_, tile_view_;
    float aspect_ = 1.6f;  // width / height the pictures' (C,H,W) stages were shaped for
    std::unique_ptr<plot::LevelBars> bars_;
    std::unique_ptr<plot::OrderHeatmap> heat_;
    std::unique_ptr<plot::TileSizeLines> lines_;
    std::unique_ptr<SweepResult> sweep_;
    bool sweep_setup_default_ = false;  // the sweep ran with 50/5 ns setup costs
    bool sweep_stale_ = false;          // settings changed since the sweep ran
    bool compact_ = false;              // short window: notes and export fold (draw())
    std::unique_ptr<plot::SweepScatter> scatter_;
    // animation (the sub-tile shown, looping) and export
    char export_path_[512] = "/tmp/tiling_plot";
    std::string export_msg_;
    nlohmann::json screen_ = nlohmann::json::object();  // the last frame's rectangles (probe)
};

// [x0, y0, x1, y1] of the last item, for the probe.
nlohmann::json item_rect() {
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    return {a.x, a.y, b.x, b.y};
}

// ---- [engine data] -----------------------------------------------------------------

void TilingPanel::rebuild() {
    error_.clear();
    try {
        for (int& d : set_.shape) d = std::max(1, d);
        for (int i = 0; i < 3; ++i) {
            set_.l1[i] = std::clamp(set_.l1[i], 1, set_.shape[i + 1]);
            set_.l2[i] = std::clamp(set_.l2[i], 1, set_.l1[i]);
        }
        set_.layout = std::clamp(set_.layout, 0, int(offered_layouts().size()) - 1);
        set_.dtype = std::clamp(set_.dtype, 0, int(all_dtypes().size()) - 1);
        set_.o1 = std::clamp(set_.o1, 0, 5);
        set_.o2 = std::clamp(set_.o2, 0, 5);
        const Config c = set_.config();
        res_ = evaluate(c);
        cfg_ = c;
        l1_count_ = l1_grid(c).size();
        steps_ = traversal_steps(c);
        build_pictures();
        bars_ = std::make_unique<plot::LevelBars>(c);
        heat_ = std::make_unique<plot::OrderHeatmap>(c);
        lines_ = std::make_unique<plot::TileSizeLines>(c, Dim(set_.lines_dim));
        play_.set_range(0, double(total_steps()));
        if (play_.value >= double(total_steps())) play_.seek(0);
        sweep_stale_ = sweep_ != nullptr;
    } catch (const UsageError& e) {
        error_ = e.what();
    }
}

// The tensor's picture now; the tile's when draw_traversal() knows the tile.
void TilingPanel::build_pictures() {
    picture_error_.clear();
    tile_picture_error_.clear();
    tile_plan_frame_ = {0, 0, 0};
    picture_error_ = show(tensor_gpu_, tensor_view_, [&] { return tensor_plan(cfg_, aspect_); });
}

// Hands the plan make() builds to the renderer, framed, coloured by read
// order; "" or, when core refuses the picture, why (and an empty canvas).
std::string TilingPanel::show(render::PlanGpu& gpu, render::PlanView& view,
                              const std::function<Plan()>& make) {
    try {
        gpu.set_plan(std::make_shared<const Plan>(make()), ColourMode::source_index);
        view.set_follow(true);
        view.request_fit(0, 0);
        return "";
    } catch (const UsageError& e) {
        gpu.set_plan(nullptr);
        return e.what();
    }
}

// ---- [scene settings] --------------------------------------------------------------
//
// The keys and their checks are TilingSettings' (app/panels/tiling_settings.hpp).

nlohmann::json TilingPanel::save_settings() const {
    TilingSettings s = set_;
    s.speed = float(play_.speed);
    s.step = play_.value;
    s.playing = play_.playing;
    s.sweep = sweep_ != nullptr;
    return s.to_json();
}

void TilingPanel::load_settings(const nlohmann::json& j) {
    TilingSettings s = set_;
    s.speed = float(play_.speed);
    s.step = play_.value;
    s.playing = play_.playing;
    s.sweep = false;
    const SceneReader r(j, "tiling");
    s.read(r);
    set_ = s;
    rebuild();
    if (!error_.empty()) throw UsageError("tiling scene: " + error_);
    if (s.step >= double(total_steps()))
        throw UsageError("step", "tiling scene: step = " + std::to_string(int64_t(s.step)) +
                                     "; expected 0.." + std::to_string(total_steps() - 1));
    play_.speed = s.speed;
    play_.playing = s.playing;
    if (r.has("step")) play_.seek(s.step);
    if (r.has("tab")) select_tab_ = 3;
    if (s.sweep || (set_.tab == 4 && set_.export_plot == 4 && !s.export_base.empty())) run_sweep();
    if (!s.export_base.empty()) export_all(s.export_base);
}

// ---- [sweep and export] ------------------------------------------------------------

void TilingPanel::run_sweep() {
    SweepSpec s;
    s.base = cfg_;
    // Without a per-block cost every matched tiling costs the same and the
    // front collapses to a one-element tile; like `layoutlab sweep`, use
    // 50 ns per tile and 5 ns per sub-tile unless the user set costs.
    sweep_setup_default_ = cfg_.mem.dram.setup_ns == 0 && cfg_.mem.sram.setup_ns == 0;
    if (sweep_setup_default_) {
        s.base.mem.dram.setup_ns = 50;
        s.base.mem.sram.setup_ns = 5;
    }
    sweep_ = std::make_unique<SweepResult>(sweep(s));
    sweep_stale_ = false;
    scatter_ = sweep_->rows.empty() ? nullptr : std::make_unique<plot::SweepScatter>(*sweep_);
}

const plot::PlotSpec* TilingPanel::export_spec() const {
    switch (set_.export_plot) {
        case 0:
            return bars_ ? &bars_->efficiency : nullptr;
        case 1:
            return bars_ ? &bars_->time : nullptr;
        case 2:
            return heat_ ? &heat_->spec : nullptr;
        case 3:
            return lines_ ? &lines_->spec : nullptr;
        default:
            return scatter_ ? &scatter_->spec : nullptr;
    }
}

void TilingPanel::export_all(const std::string& base) {
    const plot::PlotSpec* spec = export_spec();
    if (!spec)
        throw UsageError("tiling panel: nothing to export for " +
                         std::string(kPlotIds[set_.export_plot]) + "; run the sweep first");
    for (const char* ext : {"png", "svg", "csv"}) plot::check_writable(base + "." + ext);
    plot::write_png(*spec, base + ".png");
    plot::write_svg(*spec, base + ".svg");
    plot::write_csv(*spec, base + ".csv");
    export_msg_ = tr("wrote ") + base + ".png, .svg, .csv";
}

// ---- [controls] --------------------------------------------------------------------

void TilingPanel::draw_controls() {
    bool changed = false;
    {
        const ImVec2 a = ImGui::GetWindowPos();
        screen_["controls"] = {a.x, a.y, a.x + ImGui::GetWindowContentRegionMax().x,
                               a.y + ImGui::GetWindowHeight()};
    }
    // Headings wrap in a narrow column (a projector cut "L1 tile (C, H, W): DRAM ->").
    auto heading = [&](const char* text) {
        ImGui::TextWrapped("%s", text);
        screen_["headings"].push_back(item_rect());
    };
    heading(tr("Tensor (N, C, H, W)"));
    changed |= ImGui::SliderInt("N", &set_.shape[0], 1, 8);
    changed |= ImGui::SliderInt("C", &set_.shape[1], 1, 512);
    changed |= ImGui::SliderInt("H", &set_.shape[2], 1, 224);
    changed |= ImGui::SliderInt("W", &set_.shape[3], 1, 224);
    std::vector<const char*> layouts;
    for (const std::string& l : offered_layouts()) layouts.push_back(l.c_str());
    changed |= ImGui::Combo(tr_id("layout"), &set_.layout, layouts.data(), int(layouts.size()));
    std::vector<const char*> dts;
    for (DType t : all_dtypes()) dts.push_back(name(t));
    changed |= ImGui::Combo(tr_id("dtype"), &set_.dtype, dts.data(), int(dts.size()));
    ImGui::Separator();
    heading(tr("L1 tile (C, H, W): DRAM -> SRAM"));
    changed |= ImGui::SliderInt(tr_id("tile C"), &set_.l1[0], 1, set_.shape[1]);
    changed |= ImGui::SliderInt(tr_id("tile H"), &set_.l1[1], 1, set_.shape[2]);
    changed |= ImGui::SliderInt(tr_id("tile W"), &set_.l1[2], 1, set_.shape[3]);
    std::vector<std::string> on;
    for (const Order& o : all_orders()) on.push_back(to_string(o));
    std::vector<const char*> op;
    for (const auto& s : on) op.push_back(s.c_str());
    changed |= ImGui::Combo(tr_id("L1 order"), &set_.o1, op.data(), 6);
    heading(tr("L2 sub-tile (C, H, W): SRAM -> registers"));
    changed |= ImGui::SliderInt(tr_id("sub C"), &set_.l2[0], 1, set_.l1[0]);
    changed |= ImGui::SliderInt(tr_id("sub H"), &set_.l2[1], 1, set_.l1[1]);
    changed |= ImGui::SliderInt(tr_id("sub W"), &set_.l2[2], 1, set_.l1[2]);
    changed |= ImGui::Combo(tr_id("L2 order"), &set_.o2, op.data(), 6);
    ImGui::Separator();
    changed |= ImGui::SliderInt(tr_id("L2 passes"), &set_.passes, 1, 16);
    const char* bases[] = {tr("source (15.2: 3136, 196)"), tr("destination (tile, sub-tile)")};
    changed |= ImGui::Combo(tr_id("stride basis"), &set_.basis, bases, 2);
    changed |= ImGui::SliderInt(tr_id("DRAM burst B"), &set_.access[0], 0, 256);
    changed |= ImGui::SliderInt(tr_id("SRAM word B"), &set_.access[1], 0, 128);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "%s", tr("a strided read fetches one access unit per element, so eta >= element size / "
                     "unit; 0 = formula (8) alone (eta = 1/stride)"));
    changed |= ImGui::SliderFloat(tr_id("DRAM GB/s"), &set_.bw[0], 1, 2000, "%.0f");
    changed |= ImGui::SliderFloat(tr_id("SRAM GB/s"), &set_.bw[1], 1, 5000, "%.0f");
    changed |= ImGui::SliderFloat(tr_id("Reg GB/s"), &set_.bw[2], 1, 20000, "%.0f");
    changed |= ImGui::SliderFloat(tr_id("setup ns/tile"), &set_.setup[0], 0, 500, "%.0f");
    changed |= ImGui::SliderFloat(tr_id("setup ns/sub"), &set_.setup[1], 0, 50, "%.1f");
    if (ImGui::Button(tr_id("Document row 1"))) {
        const int shape[4] = {1, 64, 56, 56}, l1[3] = {16, 14, 14}, l2[3] = {4, 7, 7};
        std::copy(shape, shape + 4, set_.shape);
        std::copy(l1, l1 + 3, set_.l1);
        std::copy(l2, l2 + 3, set_.l2);
        set_.layout = set_.o1 = set_.o2 = set_.basis = 0;
        set_.dtype = 6;
        set_.passes = 4;
        set_.setup[0] = set_.setup[1] = 0;
        set_.bw[0] = 100, set_.bw[1] = 500, set_.bw[2] = 2000;
        set_.access[0] = 64, set_.access[1] = 16;
        changed = true;
    }
    ImGui::SameLine();
    if (ImGui::Button(tr_id("Row 4 (NHWC W_H_C)"))) {
        set_.layout = 1;
        set_.o1 = set_.o2 = 0;
        changed = true;
    }
    if (changed) rebuild();
}

// ---- [traversal] -------------------------------------------------------------------

// The buffer a level reads, as a line of addresses: every element of the
// current block as a tick on the whole buffer, then a zoom on its first
// accesses with an arc and the address jump for each step, so "stride 3136"
// is a distance on screen. The addresses come from core (access_offsets);
// this only draws them. Returns how many reads the zoom drew (the probe's
// "zoom_reads").
int64_t draw_address_strip(const Config& c, const Extent3& frame, const Index3& org,
                           const Extent3& block, const Order& o, const char* buffer,
                           const char* block_name, const MemLevel& mem, bool dark, bool model_eta) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImU32 ink = dark ? IM_COL32(200, 200, 210, 255) : IM_COL32(40, 40, 50, 255);
    const ImU32 bg = dark ? IM_COL32(55, 55, 65, 255) : IM_COL32(215, 215, 225, 255);
    const ImU32 hit = IM_COL32(240, 150, 30, 255), arc = IM_COL32(230, 60, 60, 255);
    const int64_t numel = frame_elems(c.layout, c.dtype, frame);
    const int64_t es_bits = bits(c.dtype);
    const float line = ImGui::GetTextLineHeightWithSpacing();
    const float avail = ImGui::GetContentRegionAvail().x - 8;
    // The zoom shows at least one whole row of the block along the order's
    // innermost axis (a 14-wide row shows 14 reads), at most 64.
    const int64_t row = block[o.inner_to_outer[0]];
    const int64_t kShow = std::min<int64_t>(64, std::max<int64_t>(9, row));
    const std::vector<int64_t> first = access_offsets(c, frame, org, block, o, kShow);
    const int64_t jump = first.size() > 1 ? first[1] - first[0] : 0;
    // Caption: the rule, in numbers.
    char cap[256];
    if (first.size() < 2) {
        std::snprintf(cap, sizeof cap, tr("%s in %s: the %s is one element"), tr(buffer),
                      mem.name.c_str(), tr(block_name));
    } else if (jump == 1) {
        std::snprintf(cap, sizeof cap,
                      tr("%s addresses read by this %s in %s order: each step +1 element -> "
                         "contiguous, eta %.2g"),
                      tr(buffer), tr(block_name), to_string(o).c_str(), kContiguousEfficiency);
    } else {
        const double jb = double(jump) * double(es_bits) / 8.0;
        const double eta = read_efficiency(jump, c.dtype, mem);
        std::snprintf(cap, sizeof cap,
                      tr("%s addresses read by this %s in %s order: each step %+lld elements "
                         "(%.0f B)%s -> eta %.4g%s"),
                      tr(buffer), tr(block_name), to_string(o).c_str(), (long long)jump, jb,
                      mem.access_bytes > 0 && std::fabs(jb) >= double(mem.access_bytes)
                          ? tr(", one access unit per element")
                          : "",
                      eta, model_eta ? "" : tr(" (the model is set to destination strides)"));
    }
    ImGui::TextWrapped("%s", cap);
    // Why a larger stride costs no more (the model's access unit, from core).
    const std::string why = stride_note(jump, c.dtype, mem);
    if (!why.empty()) ImGui::TextWrapped("(%s)", why.c_str());
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    // Whole buffer with every element of the block as a tick.
    const float x0 = p0.x + 4, y0 = p0.y + 2, h0 = std::round(0.75f * ImGui::GetFontSize());
    dl->AddRectFilled(ImVec2(x0, y0), ImVec2(x0 + avail, y0 + h0), bg);
    auto xat = [&](int64_t a) { return x0 + float(double(a) / double(numel)) * avail; };
    {
        const int64_t total = block.c * block.h * block.w;
        const std::vector<int64_t> all =
            access_offsets(c, frame, org, block, o, std::min<int64_t>(total, 1 << 16));
        float last = -1;
        for (int64_t a : all) {
            const float x = std::floor(xat(a));
            if (x == last) continue;
            dl->AddLine(ImVec2(x + 0.5f, y0), ImVec2(x + 0.5f, y0 + h0), hit);
            last = x;
        }
    }
    char end[64];
    std::snprintf(end, sizeof end, "%lld", (long long)numel);
    dl->AddText(ImVec2(x0, y0 + h0 + 1), ink, "0");
    dl->AddText(ImVec2(x0 + avail - ImGui::CalcTextSize(end).x, y0 + h0 + 1), ink, end);
    // Zoom on the first accesses: address range [lo, hi] spread over the width.
    const float zy = y0 + h0 + 2 * line + 14, zh = 14;
    if (first.size() > 1) {
        const int64_t lo = *std::min_element(first.begin(), first.end());
        const int64_t hi = *std::max_element(first.begin(), first.end());
        const int64_t span = std::max<int64_t>(hi - lo + 1, 16);
        const float zw = avail * 0.9f, zx = x0 + avail * 0.05f;
        auto zat = [&](int64_t a) { return zx + (float(double(a - lo) + 0.5) / float(span)) * zw; };
        // Bracket from the zoomed range on the whole buffer to the zoom strip.
        dl->AddLine(ImVec2(xat(lo), y0 + h0), ImVec2(zx, zy), ink);
        dl->AddLine(ImVec2(xat(lo + span), y0 + h0), ImVec2(zx + zw, zy), ink);
        dl->AddRectFilled(ImVec2(zx, zy), ImVec2(zx + zw, zy + zh), bg);
        const float cw = std::max(3.0f, zw / float(span));
        for (int64_t a : first)
            dl->AddRectFilled(ImVec2(zat(a) - cw / 2, zy), ImVec2(zat(a) + cw / 2, zy + zh), hit);
        if (span <= 128)  // element borders, when cells are wide enough to see
            for (int64_t a = 0; a <= span; ++a) {
                const float x = zx + float(a) / float(span) * zw;
                dl->AddLine(ImVec2(x, zy), ImVec2(x, zy + zh), bg, 1.5f);
            }
        // One arc per step, labelled with its jump when there is room.
        float label_end = -1e30f;
        for (size_t i = 1; i < first.size(); ++i) {
            const ImVec2 a(zat(first[i - 1]), zy), b(zat(first[i]), zy);
            const float rise = std::min(22.0f, 6 + std::fabs(b.x - a.x) / 4);
            dl->AddBezierCubic(a, ImVec2(a.x, a.y - rise), ImVec2(b.x, b.y - rise), b, arc, 1.8f);
            char t[32];
            std::snprintf(t, sizeof t, "%+lld", (long long)(first[i] - first[i - 1]));
            const ImVec2 ts = ImGui::CalcTextSize(t);
            const float tx = (a.x + b.x) / 2 - ts.x / 2;
            if (i == 1 || (ts.x + 4 < std::fabs(b.x - a.x) && tx > label_end)) {
                dl->AddText(ImVec2(tx, zy - rise - ts.y), arc, t);
                label_end = tx + ts.x + 4;
            }
        }
        char l[64], r[64];
        std::snprintf(l, sizeof l, "%lld", (long long)lo);
        std::snprintf(r, sizeof r, "%lld", (long long)(lo + span - 1));
        dl->AddText(ImVec2(zx, zy + zh + 1), ink, l);
        dl->AddText(ImVec2(zx + zw - ImGui::CalcTextSize(r).x, zy + zh + 1), ink, r);
    }
    ImGui::Dummy(ImVec2(avail, zy + zh + line + 4 - p0.y));
    return first.size() > 1 ? int64_t(first.size()) : 0;
}

// One level's picture: the plan (tensor or tile) drawn by the cell renderer at
// set_.memory (0: as (C,H,W), 1: in memory), then, over the (C,H,W) stage, the
// block being read now and an arrow from the one read before with the jump of
// their first addresses (core's visit_overlay).
void TilingPanel::draw_level(render::PlanView& view, render::PlanGpu& gpu, const Visit& now,
                             const Visit* before, const BlockGrid& blocks, float height,
                             const AppContext& ctx) {
    const Plan* plan = gpu.plan();
    if (!plan) return;
    render::ViewStyle vs;
    vs.dark = ctx.dark_theme;
    vs.show_numbers = false;
    vs.sparse_tags = true;  // chips on all 64 blocks cluttered the slide
    const ImVec2 size(ImGui::GetContentRegionAvail().x, height);
    const ImVec2 at = ImGui::GetCursorScreenPos();
    view.draw(gpu, set_.memory, size, vs);
    screen_["pictures"].push_back({at.x, at.y, at.x + size.x, at.y + size.y});
    // This moment's overlays (the block read now, the jump from the one
    // before) come from core and are drawn by the renderer's overlay painter,
    // over the (C,H,W) stage only: in memory a block is scattered.
    if (set_.memory < 0.5f) {
        const ImVec2 o = view.origin();
        render::OverlayFrame of;
        of.dl = ImGui::GetWindowDrawList();
        of.clip_min = o;
        of.clip_max = ImVec2(o.x + size.x, o.y + size.y);
        of.at = [&view](float x, float y) { return view.to_screen(x, y); };
        of.zoom = view.camera().zoom;
        of.dark = ctx.dark_theme;
        of.dl->PushClipRect(of.clip_min, of.clip_max, true);
        render::draw_overlays(of, visit_overlay(plan->stages[0].grid, now, before));
        of.dl->PopClipRect();
    }
    // Hovered element: its coordinates, its block's visit number, its address.
    const int64_t cell = view.hovered();
    if (cell >= 0 && cell < plan->cell_count && plan->offset_of) {
        const Coord e = unravel(plan->offset_of(0, cell), plan->stages[0].shape);
        const Index3 b{e[0] / blocks.block.c, e[1] / blocks.block.h, e[2] / blocks.block.w};
        const Order& order = &gpu == &tensor_gpu_ ? cfg_.l1_order : cfg_.l2_order;
        ImGui::SetTooltip(
            tr("element (c,h,w) = (%lld,%lld,%lld)\naddress %lld in %s\n%s #%lld of %lld"),
            (long long)e[0], (long long)e[1], (long long)e[2], (long long)plan->offset_of(1, cell),
            tr_text(plan->stages[1].label).c_str(),
            tr_text(&gpu == &tensor_gpu_ ? "L1 tile" : "L2 sub-tile").c_str(),
            (long long)blocks.rank(order, b) + 1, (long long)blocks.size());
    }
}

void TilingPanel::draw_traversal(const AppContext& ctx) {
    // The toolbar's widths grow with the font, and an item that no longer
    // fits the row starts a new one (a projector cut the step slider in half).
    const float em = ImGui::GetFontSize();
    const ImGuiStyle& style = ImGui::GetStyle();
    auto next = [&](float w) {
        screen_["toolbar"].push_back(item_rect());
        ImGui::SameLine(0, style.ItemSpacing.x);
        compute::wrap_for(w);
    };
    screen_["toolbar"] = nlohmann::json::array();
    ImGui::Checkbox(tr_id("play"), &play_.playing);
    next(9 * em + style.ItemInnerSpacing.x + ImGui::CalcTextSize(tr_id("sub-tiles / s")).x);
    ImGui::SetNextItemWidth(9 * em);
    float speed = float(play_.speed);
    if (ImGui::SliderFloat(tr_id("sub-tiles / s"), &speed, 0.5f, 200.0f, "%.1f",
                           ImGuiSliderFlags_Logarithmic))
        play_.speed = speed;
    next(8 * em);
    ImGui::SetNextItemWidth(8 * em);
    ImGui::SliderFloat("##memory", &set_.memory, 0, 1,
                       set_.memory < 0.5f ? "as (C,H,W)" : "in memory");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "%s", tr("slide to move every element to its address in the buffer (and back)"));
    next(10 * em);
    float st = float(play_.value);
    ImGui::SetNextItemWidth(-1);
    if (ImGui::SliderFloat("##step", &st, 0, float(total_steps() - 1), tr("step %.0f")))
        seek_at_rest(play_, st);
    screen_["toolbar"].push_back(item_rect());
    // Which tile and sub-tile this step shows: core's clock (traversal_step).
    const TraversalStep at = traversal_step(cfg_, play_.whole());
    const int64_t k = at.tile, jj = at.sub;
    const Visit v1 = l1_visit(cfg_, k);
    const Visit p1 = l1_visit(cfg_, k > 0 ? k - 1 : 0);
    const BlockGrid sub = l2_grid(cfg_, k);
    const Visit v2 = l2_visit(cfg_, k, jj);
    const Visit p2 = l2_visit(cfg_, k, jj > 0 ? jj - 1 : 0);
    const Extent3 tensor{cfg_.shape[1], cfg_.shape[2], cfg_.shape[3]};

    // In a short window the tile's line folds with the notes (the picture's
    // label names the tile), so the pictures get the height.
    const bool notes =
        !compact_ || compact_header(tr("how the tile and sub-tile are read"), "tiling_notes");
    if (notes)
        ImGui::TextWrapped(
            tr("L1 tile %lld of %lld at (c,h,w) = %s: start address jump %+lld elements"),
            (long long)k + 1, (long long)l1_count_, to_string(v1.origin).c_str(),
            (long long)v1.jump);
    if (notes)
        ImGui::TextWrapped(tr("  elements inside: order %s steps %c, stride %lld in the tensor, "
                              "%lld in the tile (eta "
                              "%.4g)"),
                           to_string(cfg_.l1_order).c_str(), dim_char(res_.l1.innermost),
                           (long long)res_.l1.source_strides[int(res_.l1.innermost)],
                           (long long)res_.l1.dest_strides[int(res_.l1.innermost)],
                           res_.l1.efficiency);
    if (notes)
        ImGui::TextWrapped(
            tr("L2 sub-tile %lld of %lld at %s in the tile: start address jump %+lld elements in "
               "the "
               "tile; order %s steps %c, stride %lld in the tile, %lld in the sub-tile (eta %.4g)"),
            (long long)jj + 1, (long long)sub.size(), to_string(v2.origin).c_str(),
            (long long)v2.jump, to_string(cfg_.l2_order).c_str(), dim_char(res_.l2.innermost),
            (long long)res_.l2.source_strides[int(res_.l2.innermost)],
            (long long)res_.l2.dest_strides[int(res_.l2.innermost)], res_.l2.efficiency);

    const bool src = cfg_.basis == StrideBasis::source;
    const bool as_memory = set_.memory >= 0.5f;
    char l1_label[256], l2_label[256];
    if (as_memory) {
        if (notes)
            ImGui::TextWrapped(
                tr("Every element at its address in %s, rows of 32 B (bands left to right); colour "
                   "= "
                   "when it is read (blue first, red last). Hover an element for its address."),
                cfg_.layout.c_str());
        std::snprintf(l1_label, sizeof l1_label, tr("tensor %s in DRAM (%lld elements)"),
                      tiling::to_string(tensor).c_str(),
                      (long long)frame_elems(cfg_.layout, cfg_.dtype, tensor));
        std::snprintf(l2_label, sizeof l2_label, tr("current tile %s in SRAM (%lld elements)"),
                      tiling::to_string(v1.extent).c_str(),
                      (long long)frame_elems(cfg_.layout, cfg_.dtype, v1.extent));
    } else if (compact_) {
        // Short labels (two lines each in half of a projector's width).
        std::snprintf(l1_label, sizeof l1_label,
                      tr("tensor %s in DRAM, %s: %lld L1 tiles %s, read %s"),
                      tiling::to_string(tensor).c_str(), cfg_.layout.c_str(), (long long)l1_count_,
                      tiling::to_string(cfg_.l1_tile).c_str(), to_string(cfg_.l1_order).c_str());
        std::snprintf(l2_label, sizeof l2_label,
                      tr("tile %lld/%lld %s in SRAM: %lld sub-tiles %s, read %s"), (long long)k + 1,
                      (long long)l1_count_, tiling::to_string(v1.extent).c_str(),
                      (long long)sub.size(), tiling::to_string(cfg_.l2_tile).c_str(),
                      to_string(cfg_.l2_order).c_str());
    } else {
        if (notes)
            ImGui::TextWrapped("%s", tr("One H x W grid per channel (H down, W across; c = 0, 1, "
                                        "... left to right, then "
                                        "down); colour = when each element is read (blue first, "
                                        "red last). Hover an element "
                                        "for its address."));
        std::snprintf(l1_label, sizeof l1_label,
                      tr("tensor (C,H,W) %s in DRAM, %s: boxes = its %lld L1 tiles %s, read %s"),
                      tiling::to_string(tensor).c_str(), cfg_.layout.c_str(), (long long)l1_count_,
                      tiling::to_string(cfg_.l1_tile).c_str(), to_string(cfg_.l1_order).c_str());
        std::snprintf(l2_label, sizeof l2_label,
                      tr("current tile %s in SRAM: boxes = its %lld L2 sub-tiles %s, read %s"),
                      tiling::to_string(v1.extent).c_str(), (long long)sub.size(),
                      tiling::to_string(cfg_.l2_tile).c_str(), to_string(cfg_.l2_order).c_str());
    }
    // The pictures fill what the address strips (about 6 lines) leave; in a
    // short window the strips fold under a header below both pictures, which
    // then take all but their labels (about 3 lines) and that header.
    const float line = ImGui::GetTextLineHeightWithSpacing();
    // Compact: the taller of the two labels (wrapped in half the width) and
    // the strips' header are all that sit under the pictures' top.
    const float half_w = ImGui::GetContentRegionAvail().x / 2 - 2 * ImGui::GetStyle().CellPadding.x;
    const float label_h = std::max(ImGui::CalcTextSize(l1_label, nullptr, false, half_w).y,
                                   ImGui::CalcTextSize(l2_label, nullptr, false, half_w).y);
    const float below = compact_ ? label_h + line + 2 * ImGui::GetStyle().FramePadding.y +
                                       4 * ImGui::GetStyle().ItemSpacing.y
                                 : 8 * line + 30 * ctx.ui_scale;
    const float h = std::max(200.0f * ctx.ui_scale, ImGui::GetContentRegionAvail().y - below);
    // Shape the (C,H,W) stages to the views: rebuild both pictures when the
    // views' proportions drift from what they were made for.
    {
        const float col_w = (ImGui::GetContentRegionAvail().x - style.ItemSpacing.x) / 2;
        const float want = std::clamp(col_w / h, 0.25f, 8.0f);
        if (std::fabs(std::log(want / aspect_)) > 0.2f) {
            aspect_ = want;
            build_pictures();
        }
    }
    if (!(v1.extent == tile_plan_frame_)) {
        tile_picture_error_ =
            show(tile_gpu_, tile_view_, [&] { return tile_plan(cfg_, k, aspect_); });
        tile_plan_frame_ = v1.extent;
    }
    if (compact_) zoom_reads_ = {{0, 0}};  // unless the folded strips draw
    auto strip = [&](int level) {
        if (level == 0)
            zoom_reads_[0] =
                draw_address_strip(cfg_, tensor, v1.origin, v1.extent, cfg_.l1_order, trn("tensor"),
                                   trn("tile"), cfg_.mem.dram, ctx.dark_theme, src);
        else
            zoom_reads_[1] = draw_address_strip(cfg_, v1.extent, v2.origin, v2.extent,
                                                cfg_.l2_order, trn("tile"), trn("sub-tile"),
                                                cfg_.mem.sram, ctx.dark_theme, src);
    };

    // L1 (tensor, DRAM) on the left, L2 (current tile, SRAM) on the right.
    if (!ImGui::BeginTable("levels", 2, ImGuiTableFlags_SizingStretchSame)) return;
    ImGui::TableNextColumn();
    ImGui::TextWrapped("%s", l1_label);
    auto no_picture = [](const std::string& why) {
        ImGui::PushStyleColor(ImGuiCol_Text, render::theme_colour(render::Role::accent));
        ImGui::TextWrapped(tr("no picture: %s (the numbers hold)"), why.c_str());
        ImGui::PopStyleColor();
    };
    if (!picture_error_.empty())
        no_picture(picture_error_);
    else
        draw_level(tensor_view_, tensor_gpu_, v1, k > 0 ? &p1 : nullptr, l1_grid(cfg_), h, ctx);
    if (!compact_) strip(0);
    ImGui::TableNextColumn();
    ImGui::TextWrapped("%s", l2_label);
    if (!tile_picture_error_.empty())
        no_picture(tile_picture_error_);
    else
        draw_level(tile_view_, tile_gpu_, v2, jj > 0 ? &p2 : nullptr, sub, h, ctx);
    if (!compact_) strip(1);
    ImGui::EndTable();
    if (compact_ &&
        compact_header(tr("address strips: what this tile and sub-tile read"), "tiling_strips") &&
        ImGui::BeginTable("strips", 2, ImGuiTableFlags_SizingStretchSame)) {
        ImGui::TableNextColumn();
        strip(0);
        ImGui::TableNextColumn();
        strip(1);
        ImGui::EndTable();
    }
}

// ---- [draw] ------------------------------------------------------------------------

void TilingPanel::draw_export() {
    // Items flow onto the next line when the window is too narrow (large UI scales).
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    auto same_line_if_fits = [&](float w) {
        const float x = ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x;
        if (x + w <= right) ImGui::SameLine();
    };
    const float em = ImGui::GetFontSize();
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(tr("Export"));
    ImGui::SameLine();
    ImGui::SetNextItemWidth(14 * em);
    const char* plots[5];
    for (int i = 0; i < 5; ++i) plots[i] = tr(kPlotNames[i]);
    ImGui::Combo("##plot", &set_.export_plot, plots, 5);
    same_line_if_fits(16 * em);
    ImGui::SetNextItemWidth(16 * em);
    ImGui::InputTextWithHint("##path", "path without extension", export_path_, sizeof export_path_);
    const plot::PlotSpec* spec = export_spec();
    for (const char* ext : {"png", "svg", "csv"}) {
        char label[16];
        std::snprintf(label, sizeof label, "%s", ext);
        for (char& ch : label) ch = char(std::toupper(static_cast<unsigned char>(ch)));
        same_line_if_fits(ImGui::CalcTextSize(label).x + 2 * ImGui::GetStyle().FramePadding.x);
        if (ImGui::Button(label)) {
            const std::string path = std::string(export_path_) + "." + ext;
            try {
                if (!spec) throw UsageError("nothing to export yet; expected a run sweep first");
                plot::check_writable(path);
                if (ext[0] == 'p')
                    plot::write_png(*spec, path);
                else if (ext[0] == 's')
                    plot::write_svg(*spec, path);
                else
                    plot::write_csv(*spec, path);
                export_msg_ = tr("wrote ") + path;
            } catch (const UsageError& e) {
                export_msg_ = std::string("error: ") + e.what();
            }
        }
    }
    if (!export_msg_.empty()) ImGui::TextUnformatted(export_msg_.c_str());
}

// Presentation mode: the tab in view fills the slide. Traversal: the tensor
// (L1 tiles) and the current tile (L2 sub-tiles) side by side, the caption
// naming the tile read now; the other tabs: their plot, full size.
void TilingPanel::draw_present(AppContext& ctx) {
    if (!error_.empty()) {
        ImGui::TextWrapped("error: %s", error_.c_str());
        return;
    }
    for (Key key : ctx.keys)
        if (key == Key::space) play_.toggle();
    const ImVec2 a = ImGui::GetCursorScreenPos(), avail = ImGui::GetContentRegionAvail();
    ctx.caption.title = std::string("Tiling: ") + kTabNames[std::clamp(set_.tab, 0, 4)];
    if (set_.tab != 0) {
        const plot::PlotSpec* spec = nullptr;
        if (set_.tab == 1 && bars_) spec = &bars_->efficiency;
        if (set_.tab == 2 && heat_) spec = &heat_->spec;
        if (set_.tab == 3 && lines_) spec = &lines_->spec;
        if (set_.tab == 4 && scatter_) spec = &scatter_->spec;
        if (spec) {
            plot::show_plot("present", *spec, avail);
            note_diagram(a, ImVec2(a.x + avail.x, a.y + avail.y));
        }
        return;
    }
    {  // the (C,H,W) pictures shaped to the slide's two columns
        const float col_w = (avail.x - ImGui::GetStyle().ItemSpacing.x) / 2;
        const float want = std::clamp(col_w / std::max(1.f, avail.y), 0.25f, 8.0f);
        if (std::fabs(std::log(want / aspect_)) > 0.2f) {
            aspect_ = want;
            build_pictures();
        }
    }
    const TraversalStep at = traversal_step(cfg_, play_.whole());
    const int64_t k = at.tile, jj = at.sub;
    const Visit v1 = l1_visit(cfg_, k), p1 = l1_visit(cfg_, k > 0 ? k - 1 : 0);
    const BlockGrid sub = l2_grid(cfg_, k);
    const Visit v2 = l2_visit(cfg_, k, jj), p2 = l2_visit(cfg_, k, jj > 0 ? jj - 1 : 0);
    if (!(v1.extent == tile_plan_frame_)) {
        tile_picture_error_ =
            show(tile_gpu_, tile_view_, [&] { return tile_plan(cfg_, k, aspect_); });
        tile_plan_frame_ = v1.extent;
    }
    char buf[256];
    std::snprintf(buf, sizeof buf, "L1 tile %lld of %lld at (c,h,w) = %s, sub-tile %lld of %lld",
                  (long long)k + 1, (long long)l1_count_, to_string(v1.origin).c_str(),
                  (long long)jj + 1, (long long)sub.size());
    ctx.caption.title = buf;
    std::snprintf(buf, sizeof buf, "order %s, start address jump %+lld elements, eta %.3g",
                  to_string(cfg_.l1_order).c_str(), (long long)v1.jump, res_.l1.efficiency);
    ctx.caption.formula = buf;
    if (!ImGui::BeginTable("levels", 2, ImGuiTableFlags_SizingStretchSame)) return;
    ImGui::TableNextColumn();
    if (picture_error_.empty())
        draw_level(tensor_view_, tensor_gpu_, v1, k > 0 ? &p1 : nullptr, l1_grid(cfg_), avail.y,
                   ctx);
    ImGui::TableNextColumn();
    if (tile_picture_error_.empty())
        draw_level(tile_view_, tile_gpu_, v2, jj > 0 ? &p2 : nullptr, sub, avail.y, ctx);
    ImGui::EndTable();
}

void TilingPanel::draw(AppContext& ctx) {
    screen_ = nlohmann::json::object();
    if (ctx.present) {
        draw_present(ctx);
        return;
    }
    // A short window (a projector): the settings column narrows, the export
    // row and the traversal's longer notes fold under headers (compact_).
    compact_ = compact_layout();
    const float ctl_w = compact_
                            ? std::min(330 * ctx.ui_scale, ImGui::GetContentRegionAvail().x * 0.3f)
                            : 330 * ctx.ui_scale;
    if (set_.sidebar) {
        ImGui::BeginChild("controls", ImVec2(ctl_w, 0), true);
        ImGui::PushItemWidth(-ImGui::CalcTextSize(tr("setup ns/tile  ")).x);
        draw_controls();
        ImGui::PopItemWidth();
        ImGui::EndChild();
        ImGui::SameLine();
    }
    ImGui::BeginChild("views", ImVec2(0, 0), false);
    // << hides the settings column (on a projector the pictures get its room).
    if (ImGui::Button(set_.sidebar ? "<<" : ">>")) set_.sidebar = !set_.sidebar;
    screen_["sidebar_button"] = item_rect();
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", set_.sidebar ? tr("hide the controls (more room for the picture)")
                                             : tr("show the controls"));
    ImGui::SameLine();
    if (!error_.empty()) {
        ImGui::TextColored(render::theme_colour(render::Role::error), tr("error: %s"),
                           tr_text(error_).c_str());
        ImGui::EndChild();
        return;
    }
    ImGui::TextWrapped(tr("L1 eff %.4g, L2 eff %.4g, L1 %.2f us + L2 %.2f us = %.2f us, %.2f uJ"),
                       res_.l1.efficiency, res_.l2.efficiency, res_.l1.time_us, res_.l2.time_us,
                       res_.total_us, res_.total_energy_uj);
    if (!compact_ || compact_header(tr("Export a plot (PNG, SVG, CSV)"), "tiling_export"))
        draw_export();
    // A tab asked for by a scene is forced for a few frames (ImGui applies
    // SetSelected one frame late); otherwise set_.tab follows the user's clicks.
    auto tab = [&](int i) {
        const ImGuiTabItemFlags f = select_tab_ > 0 && set_.tab == i ? ImGuiTabItemFlags_SetSelected
                                                                     : ImGuiTabItemFlags_None;
        const bool open = ImGui::BeginTabItem(tr_id(kTabNames[i]), nullptr, f);
        if (open && select_tab_ == 0 && set_.tab != i) {
            set_.tab = i;  // the export combo follows the plot on screen
            const int plot_of_tab[] = {set_.export_plot, 1, 2, 3, 4};
            set_.export_plot = plot_of_tab[i];
        }
        return open;
    };
    if (select_tab_ > 0) --select_tab_;
    if (ImGui::BeginTabBar("tiling_tabs")) {
        if (tab(0)) {
            draw_traversal(ctx);
            ImGui::EndTabItem();
        }
        if (tab(1)) {
            ImGui::TextWrapped("L1: %s", tr_text(res_.l1.reasoning).c_str());
            ImGui::TextWrapped("L2: %s", tr_text(res_.l2.reasoning).c_str());
            // Side by side when each plot gets 560 px (times the UI scale), else stacked.
            // Their height fills the tab (a fixed 340 px left half a desk empty).
            const float sc = ctx.ui_scale, full = ImGui::GetContentRegionAvail().x;
            const bool two = full / 2 - 4 >= 560 * sc;
            const float left = ImGui::GetContentRegionAvail().y - ImGui::GetStyle().ItemSpacing.y;
            const float w = two ? full / 2 - 4 : full,
                        h = std::max(150 * sc, two ? left : left / 2 - 4);
            plot::show_plot("eff", bars_->efficiency, ImVec2(w, h));
            screen_["plots"].push_back(item_rect());
            if (two) ImGui::SameLine();
            plot::show_plot("time", bars_->time, ImVec2(w, h));
            screen_["plots"].push_back(item_rect());
            ImGui::EndTabItem();
        }
        if (tab(2)) {
            plot::show_plot(
                "heat", heat_->spec,
                ImVec2(0, std::max(240 * ctx.ui_scale, ImGui::GetContentRegionAvail().y)));
            screen_["plots"].push_back(item_rect());
            ImGui::EndTabItem();
        }
        if (tab(3)) {
            const char* dims[] = {"C", "H", "W"};
            ImGui::SetNextItemWidth(80 * ctx.ui_scale);
            if (ImGui::Combo(tr_id("vary L1 tile in"), &set_.lines_dim, dims, 3))
                lines_ = std::make_unique<plot::TileSizeLines>(cfg_, Dim(set_.lines_dim));
            plot::show_plot(
                "lines", lines_->spec,
                ImVec2(0, std::max(240 * ctx.ui_scale, ImGui::GetContentRegionAvail().y)));
            screen_["plots"].push_back(item_rect());
            ImGui::EndTabItem();
        }
        if (tab(4)) {
            if (ImGui::Button(tr_id("Run sweep (every order x divisor tile sizes)"))) {
                try {
                    run_sweep();
                } catch (const UsageError& e) {
                    export_msg_ = std::string("error: ") + e.what();
                }
            }
            if (sweep_ && sweep_stale_) {
                ImGui::SameLine();
                ImGui::TextColored(render::theme_colour(render::Role::accent), "%s",
                                   tr("settings changed since this sweep: run it again"));
            }
            if (sweep_ && scatter_) {
                ImGui::TextWrapped(
                    tr("%zu configurations; Pareto front %zu points; setup %s ns per tile, %s ns "
                       "per "
                       "sub-tile%s"),
                    sweep_->rows.size(), sweep_->pareto.size(),
                    sweep_setup_default_ ? "50" : fmt1(set_.setup[0]).c_str(),
                    sweep_setup_default_ ? "5" : fmt1(set_.setup[1]).c_str(),
                    sweep_setup_default_
                        ? " (the sweep's defaults: with no per-block cost every matched tiling "
                          "costs the same)"
                        : "");
                plot::show_plot("scatter", scatter_->spec, ImVec2(0, 380 * ctx.ui_scale));
                if (ImGui::BeginTable("rank", 8, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg)) {
                    for (const char* h : {"rank", "L1 tile", "L2 sub-tile", "L1", "L2", "L1 eff",
                                          "L2 eff", "total us"})
                        ImGui::TableSetupColumn(h);
                    ImGui::TableHeadersRow();
                    for (size_t i = 0; i < std::min<size_t>(20, sweep_->ranking.size()); ++i) {
                        const SweepRow& r = sweep_->rows[sweep_->ranking[i]];
                        ImGui::TableNextRow();
                        ImGui::TableNextColumn();
                        ImGui::Text("%zu", i + 1);
                        ImGui::TableNextColumn();
                        ImGui::TextUnformatted(tiling::to_string(r.tile).c_str());
                        ImGui::TableNextColumn();
                        ImGui::TextUnformatted(tiling::to_string(r.sub).c_str());
                        ImGui::TableNextColumn();
                        ImGui::TextUnformatted(to_string(all_orders()[r.l1_order]).c_str());
                        ImGui::TableNextColumn();
                        ImGui::TextUnformatted(to_string(all_orders()[r.l2_order]).c_str());
                        ImGui::TableNextColumn();
                        ImGui::Text("%.4g", double(r.l1_eff));
                        ImGui::TableNextColumn();
                        ImGui::Text("%.4g", double(r.l2_eff));
                        ImGui::TableNextColumn();
                        ImGui::Text("%.2f", r.total_us());
                    }
                    ImGui::EndTable();
                }
            }
            ImGui::EndTabItem();
        }
        ImGui::EndTabBar();
    }
    ImGui::EndChild();
}

}  // namespace

std::unique_ptr<Panel> make_tiling_panel() {
    return std::make_unique<TilingPanel>();
}

}  // namespace ll::gui
