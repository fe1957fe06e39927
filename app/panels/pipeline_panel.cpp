// The AI Core at work: a tiled Matmul (or the conv case study through
// img2col) scheduled on MTE2, MTE1, Cube, Vector, FixPipe, MTE3 and Scalar.
// Lanes per unit with one bar per instruction (coloured by output block,
// hover for what it moves and its flags), a time cursor that scrubs, the
// buffers beside the lanes filling and emptying slot by slot, sliders for the
// tiling, total time vs tile size, the sweep as a ranked table and a Pareto
// plot, exports (PNG/SVG/CSV through app/plot, the Chrome trace). Clicking a
// MTE1 or Cube bar opens the LoadData or Cube panel on that instruction.
//
// Everything drawn comes from core/aicore (Schedule, occupancy_at, describe,
// sweep, size_curve); the panel only maps cycles and bytes to pixels.
//
// Sections: [settings] scene file in/out, [model] rebuild, [draw] controls,
// timeline + buffers, plots and sweep, export.
#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "app/i18n/tr.hpp"
#include "app/i18n/tr_text.hpp"
#include "app/panels/compute_widgets.hpp"
#include "app/panels/panel.hpp"
#include "app/panels/playhead_panel.hpp"
#include "app/panels/present.hpp"
#include "app/plot/imgui_plot.hpp"
#include "app/plot/pipeline_plots.hpp"
#include "core/aicore/instr_fractals.hpp"
#include "core/aicore/sweep.hpp"
#include "core/error.hpp"

namespace ll::gui {

namespace {

using namespace ll::aicore;

ImU32 im(plot::Color c, uint8_t a = 255) {
    return IM_COL32(c.r, c.g, c.b, a);
}
ImU32 block_colour(int32_t block) {
    return im(plot::palette(int(block % 7)));
}

const char* kPlots[] = {trn("Timeline"), trn("Total time vs tile size"),
                        trn("Sweep: time vs L1 footprint")};

class PipelinePanel : public PlayheadPanel {
  public:
    // play_ (PlayheadPanel): the cycle shown, the whole run in 8 s.
    PipelinePanel() : PlayheadPanel("cycle", Playhead()) {
        conv_ = true;
        rebuild(true);
    }
    const char* title() const override { return "Pipeline"; }
    void draw(AppContext& ctx) override;
    nlohmann::json save_settings() const override;
    nlohmann::json probe() const override;
    void load_settings(const nlohmann::json& j) override;

  private:
    void rebuild(bool resweep);
    void draw_controls();
    void draw_timeline(AppContext& ctx, float height);
    void draw_present(AppContext& ctx);
    void draw_buffers(ImVec2 p0, ImVec2 p1);
    void draw_export();
    void export_all(const std::string& base);
    const plot::PlotSpec* export_spec() const;
    void open_instruction(AppContext& ctx, int32_t id);

    // settings
    int product_ = 0;
    bool conv_ = true;
    int64_t m_ = 1024, k_ = 1024, n_ = 1024;
    int dtype_ = 0;  // fp16, bf16, int8
    Tiling tiling_;
    bool double_ = true;
    bool cursor_placed_ = false;  // false: the first schedule shows a third into the run
    float zoom_ = 1, pan_ = 0;    // view: [pan, pan + total/zoom]
    int export_plot_ = 0;
    int tab_ = 0, select_tab_ = -1;  // 0 time vs tile size, 1 sweep
    char export_path_[512] = "/tmp/pipeline";
    // engine results
    std::string error_;
    Problem problem_;
    std::unique_ptr<Schedule> sched_;
    std::unique_ptr<Schedule> other_;  // the other buffering, same tiling
    std::unique_ptr<SweepResult> sweep_;
    std::vector<SizePoint> curves_[3];
    std::unique_ptr<plot::TimelinePlot> timeline_plot_;
    std::unique_ptr<plot::SizeCurvePlot> size_plot_;
    std::unique_ptr<plot::PipelinePareto> pareto_;
    std::vector<std::vector<int32_t>> lane_;  // instruction ids per unit, by start
    // animation / view state
    int32_t hovered_ = -1;
    std::string export_msg_;
    nlohmann::json screen_ = nlohmann::json::object();
};

const DType kTypes[] = {DType::fp16, DType::bf16, DType::int8};
const char* kTypeNames[] = {"fp16", "bf16", "int8"};

// ---- [settings] ---------------------------------------------------------------------------

nlohmann::json PipelinePanel::save_settings() const {
    return {{"product", products()[size_t(product_)].id},
            {"conv", conv_},
            {"m", m_},
            {"k", k_},
            {"n", n_},
            {"dtype", kTypeNames[dtype_]},
            {"base_m", tiling_.base_m},
            {"base_n", tiling_.base_n},
            {"base_k", tiling_.base_k},
            {"step_ka", tiling_.step_ka},
            {"step_kb", tiling_.step_kb},
            {"double_buffer", double_},
            {"l0c_slots", tiling_.l0c_slots},
            {"order", tiling_.order == Order::m_first ? "m" : "n"},
            {"cursor", int64_t(play_.value)},
            {"export_plot", export_plot_},
            {"tab", tab_ == 0 ? "sizes" : "sweep"}};
}

nlohmann::json PipelinePanel::probe() const {
    return {{"total_cycles", sched_ ? sched_->total_cycles : 0},
            {"bound", sched_ ? name(sched_->bound) : ""},
            {"error", error_},
            {"screen", screen_}};
}

void PipelinePanel::load_settings(const nlohmann::json& j) {
    compute::SceneReader r(j, "Pipeline");
    // Every key save_settings writes is accepted (total_cycles, bound, error
    // and screen are read-outs, ignored here), so a saved scene loads again.
    r.only({"product", "conv",   "m",           "k",       "n",       "dtype",
            "base_m",  "base_n", "base_k",      "step_ka", "step_kb", "double_buffer",
            "order",   "cursor", "export_plot", "export",  "tab",     "total_cycles",
            "bound",   "error",  "l0c_slots",   "screen"});
    if (r.has("product")) {
        std::string id;
        r.get("product", id);
        try {
            const Product& p = product_by_id(id);
            product_ = int(&p - &products()[0]);
        } catch (const UsageError& e) {
            throw UsageError(std::string("Pipeline scene: product: ") + e.what());
        }
    }
    r.get("conv", conv_);
    r.get("m", m_, 1, int64_t(1) << 24);
    r.get("k", k_, 1, int64_t(1) << 24);
    r.get("n", n_, 1, int64_t(1) << 24);
    if (r.has("dtype")) {
        std::string d;
        r.get("dtype", d);
        auto it = std::find_if(std::begin(kTypeNames), std::end(kTypeNames),
                               [&](const char* q) { return d == q; });
        if (it == std::end(kTypeNames)) r.fail("dtype", j.at("dtype"), "fp16, bf16 or int8");
        dtype_ = int(it - std::begin(kTypeNames));
    }
    const bool given = r.has("base_m") || r.has("base_n") || r.has("base_k");
    r.get("double_buffer", double_);
    rebuild(true);  // the sweep's best, then the scene's overrides
    r.get("base_m", tiling_.base_m, 16, 1 << 20);
    r.get("base_n", tiling_.base_n, 16, 1 << 20);
    r.get("base_k", tiling_.base_k, 16, 1 << 20);
    r.get("step_ka", tiling_.step_ka, 1, 1024);
    r.get("step_kb", tiling_.step_kb, 1, 1024);
    r.get("l0c_slots", tiling_.l0c_slots, 1, 2);
    if (r.has("order")) {
        std::string o;
        r.get("order", o);
        if (o != "m" && o != "n") r.fail("order", j.at("order"), "\"m\" or \"n\"");
        tiling_.order = o == "m" ? Order::m_first : Order::n_first;
    }
    r.get("export_plot", export_plot_, 0, 2);
    if (r.has("tab")) {
        std::string t;
        r.get("tab", t);
        if (t != "sizes" && t != "sweep") r.fail("tab", j.at("tab"), "\"sizes\" or \"sweep\"");
        tab_ = select_tab_ = t == "sizes" ? 0 : 1;
    }
    (void)given;
    rebuild(false);
    if (!error_.empty()) throw UsageError("Pipeline scene: " + error_);
    int64_t c = int64_t(play_.value);
    r.get("cursor", c, 0, sched_->total_cycles);
    play_.seek(double(c));
    if (r.has("export")) {
        std::string base;
        r.get("export", base);
        export_all(base);
    }
}

// ---- [model] ------------------------------------------------------------------------------

void PipelinePanel::rebuild(bool resweep) {
    error_.clear();
    const Product& prod = products()[size_t(product_)];
    const Costs c = default_costs(prod);
    try {
        problem_ = conv_ ? conv_problem(exec::conv_case_study())
                         : gemm_problem(m_, k_, n_, kTypes[dtype_]);
        if (conv_) {
            dtype_ = 0;
            m_ = problem_.m;
            k_ = problem_.k;
            n_ = problem_.n;
        }
        if (resweep) {
            sweep_ = std::make_unique<SweepResult>(sweep(problem_, prod, c, double_));
            pareto_ = std::make_unique<plot::PipelinePareto>(*sweep_);
            if (sweep_->rows.empty()) throw UsageError("no tiling fits " + prod.name);
            tiling_ = sweep_->rows.front().tiling;
        }
        const int l0c = tiling_.l0c_slots;
        tiling_.set_double_buffer(double_);
        if (double_) tiling_.l0c_slots = l0c;  // the sweep may keep one L0C slot
        sched_ = std::make_unique<Schedule>(simulate(problem_, tiling_, prod, c, true));
        sched_->check_lives();
        Tiling u = tiling_;
        u.set_double_buffer(!double_);
        try {
            other_ = std::make_unique<Schedule>(simulate(problem_, u, prod, c, false));
        } catch (const UsageError&) {
            other_.reset();
        }
        for (int w = 0; w < 3; ++w) curves_[w] = size_curve(problem_, tiling_, prod, c, w);
        size_plot_ =
            std::make_unique<plot::SizeCurvePlot>(curves_, tiling_.base_m, sched_->total_cycles);
        timeline_plot_ = std::make_unique<plot::TimelinePlot>(*sched_);
        lane_.assign(kUnitCount, {});
        for (size_t i = 0; i < sched_->instrs.size(); ++i)
            lane_[size_t(sched_->instrs[i].unit)].push_back(int32_t(i));
        const double total = double(sched_->total_cycles);
        play_.speed = std::max(1.0, total / 8.0);  // the run in 8 s
        play_.set_range(0, total);
        if (!cursor_placed_) play_.seek(total / 3);
        cursor_placed_ = true;
    } catch (const UsageError& e) {
        error_ = e.what();
        sched_.reset();
        other_.reset();
        timeline_plot_.reset();
        size_plot_.reset();
    }
    hovered_ = -1;
}

// ---- [draw] -------------------------------------------------------------------------------

void PipelinePanel::draw_controls() {
    bool changed = false, resweep = false;
    const float em = ImGui::GetFontSize();
    std::vector<const char*> prods;
    for (const Product& p : products()) prods.push_back(p.id.c_str());
    ImGui::TextUnformatted(tr("Product"));
    if (ImGui::Combo("##product", &product_, prods.data(), int(prods.size()))) resweep = true;
    ImGui::TextWrapped("%s", tr_text(products()[size_t(product_)].name).c_str());
    ImGui::Separator();
    if (ImGui::Checkbox(tr_id("conv case study"), &conv_)) resweep = true;
    if (!conv_) {
        int64_t* dims[3] = {&m_, &k_, &n_};
        const char* names[3] = {"M", "K", "N"};
        for (int i = 0; i < 3; ++i) {
            if (i) {
                ImGui::SameLine();
                compute::wrap_for(5.5f * em);
            }
            ImGui::SetNextItemWidth(4.5f * em);
            if (ImGui::InputScalar(names[i], ImGuiDataType_S64, dims[i], nullptr, nullptr, "%lld",
                                   ImGuiInputTextFlags_EnterReturnsTrue))
                resweep = true;
        }
        ImGui::SetNextItemWidth(6 * em);
        if (ImGui::Combo(tr_id("dtype"), &dtype_, kTypeNames, 3)) resweep = true;
    } else {
        ImGui::TextWrapped(tr("N10 Cin32 Cout64 28x28 3x3 fp16 = GEMM %lldx%lldx%lld"),
                           (long long)m_, (long long)k_, (long long)n_);
    }
    ImGui::Separator();
    ImGui::TextUnformatted(tr("Tiling (L0 tile and L1 steps)"));
    if (!error_.empty() && !sched_ && problem_.m == 0) return;
    const char* bn[3] = {"baseM", "baseN", "baseK"};
    int64_t* bv[3] = {&tiling_.base_m, &tiling_.base_n, &tiling_.base_k};
    for (int w = 0; w < 3; ++w) {
        const std::vector<int64_t> cand = base_candidates(problem_, w);
        if (cand.empty()) continue;
        int idx = int(std::lower_bound(cand.begin(), cand.end(), *bv[w]) - cand.begin());
        idx = std::min(idx, int(cand.size()) - 1);
        char label[32];
        std::snprintf(label, sizeof label, "%lld", (long long)cand[size_t(idx)]);
        if (ImGui::SliderInt(bn[w], &idx, 0, int(cand.size()) - 1, label)) {
            *bv[w] = cand[size_t(idx)];
            changed = true;
        }
    }
    int step = int(tiling_.step_ka);
    if (ImGui::SliderInt(tr_id("stepK"), &step, 1, 16)) {
        tiling_.step_ka = tiling_.step_kb = step;
        changed = true;
    }
    if (ImGui::Checkbox(tr_id("double buffer"), &double_)) resweep = true;
    if (double_) {
        bool two = tiling_.l0c_slots == 2;
        ImGui::SameLine();
        compute::wrap_for(ImGui::CalcTextSize(tr("L0C ping/pong")).x + 2.5f * em);
        if (ImGui::Checkbox(tr_id("L0C ping/pong"), &two)) {
            tiling_.l0c_slots = two ? 2 : 1;
            changed = true;
        }
    }
    int order = int(tiling_.order);
    ImGui::TextUnformatted(tr("order"));
    ImGui::SameLine();
    if (ImGui::RadioButton(tr_id("M-first"), &order, 0)) changed = true;
    ImGui::SameLine();
    compute::wrap_for(ImGui::CalcTextSize(tr("N-first")).x + 2.5f * em);
    if (ImGui::RadioButton(tr_id("N-first"), &order, 1)) changed = true;
    tiling_.order = Order(order);
    if (ImGui::Button(tr_id("best tiling (sweep)"))) resweep = true;
    if (resweep)
        rebuild(true);
    else if (changed)
        rebuild(false);

    ImGui::Separator();
    if (!error_.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, compute::err_colour());
        ImGui::TextWrapped(tr("error: %s"), tr_text(error_).c_str());
        ImGui::PopStyleColor();
        return;
    }
    const Schedule& s = *sched_;
    ImGui::Text(tr("total %lld cycles"), (long long)s.total_cycles);
    ImGui::Text(tr("  = %.2f us at %.3g GHz"), s.micros(), s.costs.clock_ghz);
    ImGui::TextWrapped(tr("bound: %s; Cube steps %lld"), name(s.bound), (long long)s.cube_steps);
    if (other_)
        ImGui::TextWrapped(tr("%s buffering: %lld cycles (%.2fx)"),
                           double_ ? tr("single") : tr("double"), (long long)other_->total_cycles,
                           double(other_->total_cycles) / double(s.total_cycles));
    if (ImGui::BeginTable("units", 3,
                          ImGuiTableFlags_Borders | ImGuiTableFlags_SizingStretchProp)) {
        ImGui::TableSetupColumn(tr("unit"));
        ImGui::TableSetupColumn(tr("busy"));
        ImGui::TableSetupColumn(tr("util"));
        ImGui::TableHeadersRow();
        for (int u = 0; u < kUnitCount; ++u) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(name(Unit(u)));
            ImGui::TableNextColumn();
            ImGui::Text("%lld", (long long)s.units[u].busy);
            ImGui::TableNextColumn();
            ImGui::Text("%.1f%%%s", 100 * s.units[u].utilisation, Unit(u) == s.bound ? " *" : "");
        }
        ImGui::EndTable();
    }
    for (const Check& c : s.checks())
        ImGui::TextWrapped("%s %s", c.ok ? "[ok]" : "[FAILED]", tr_text(c.what).c_str());
}

void PipelinePanel::draw_buffers(ImVec2 p0, ImVec2 p1) {
    // Columns beside the lanes (address grows downwards), or rows under them
    // (address grows rightwards) when the window is narrow.
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const std::vector<Occupancy> occ = occupancy_at(*sched_, int64_t(play_.value));
    const size_t nb = sched_->buffers.buffers.size();
    const float em = ImGui::GetFontSize();
    const bool columns = (p1.x - p0.x) < (p1.y - p0.y) * 1.5f;
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    const ImU32 frame = ImGui::GetColorU32(ImGuiCol_Border);
    const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    for (size_t b = 0; b < nb; ++b) {
        const BufferUse& u = sched_->buffers.buffers[b];
        float x0, x1, y0, y1;  // the bar
        char line[64];
        std::snprintf(line, sizeof line, "%s", human_bytes(occ[b].live_bytes).c_str());
        if (columns) {
            const float colw = (p1.x - p0.x) / float(nb);
            x0 = p0.x + colw * float(b) + 3;
            x1 = x0 + colw - 6;
            y0 = p0.y + 2.4f * em;
            y1 = p1.y - 0.2f * em;
            dl->AddText(ImVec2(x0, p0.y), text, name(u.buf));
            dl->AddText(ImVec2(x0, p0.y + 1.1f * em), dim, line);
        } else {
            const float rowh = (p1.y - p0.y) / float(nb);
            y0 = p0.y + rowh * float(b) + 2;
            y1 = y0 + rowh - 4;
            x0 = p0.x + 5 * em;
            x1 = p1.x - 2;
            dl->AddText(ImVec2(p0.x, y0), text, name(u.buf));
            if (rowh > 2.2f * em) dl->AddText(ImVec2(p0.x, y0 + 1.1f * em), dim, line);
        }
        dl->AddRect(ImVec2(x0, y0), ImVec2(x1, y1), frame);
        for (size_t k = 0; k < u.slots.size(); ++k) {
            const Placement& pl = u.slots[k];
            const float fa = float(double(pl.addr) / double(u.capacity));
            const float fz = float(double(pl.addr + pl.bytes) / double(u.capacity));
            const ImVec2 a =
                columns ? ImVec2(x0 + 1, y0 + (y1 - y0) * fa) : ImVec2(x0 + (x1 - x0) * fa, y0 + 1);
            const ImVec2 z =
                columns ? ImVec2(x1 - 1, y0 + (y1 - y0) * fz) : ImVec2(x0 + (x1 - x0) * fz, y1 - 1);
            const bool live = occ[b].slot_live[k] != 0;
            if (live) dl->AddRectFilled(a, z, block_colour(occ[b].slot_block[k]));
            dl->AddRect(a, z, frame);
            // "A1 ping" -> "A ping" fits a narrow slot
            std::string tag = tr_text(pl.tile.substr(0, 1) + pl.tile.substr(pl.tile.rfind(' ')));
            if (z.y - a.y > em && z.x - a.x > ImGui::CalcTextSize(tag.c_str()).x + 4) {
                dl->AddText(ImVec2(a.x + 3, a.y + 1), live ? IM_COL32(0, 0, 0, 255) : text,
                            tag.c_str());
            }
            if (ImGui::IsMouseHoveringRect(a, z)) {
                const std::string holds = live ? tr("holds output block ") +
                                                     std::to_string(occ[b].slot_block[k]) +
                                                     tr(" at the cursor")
                                               : std::string(tr("empty at the cursor"));
                ImGui::SetTooltip(tr("%s in %s at 0x%llx, %s of %s\n%s"), pl.tile.c_str(),
                                  name(u.buf), (unsigned long long)pl.addr,
                                  human_bytes(pl.bytes).c_str(), human_bytes(u.capacity).c_str(),
                                  holds.c_str());
            }
        }
    }
}

void PipelinePanel::draw_timeline(AppContext& ctx, float height) {
    const Schedule& s = *sched_;
    const float em = ImGui::GetFontSize();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float full = ImGui::GetContentRegionAvail().x;
    // Buffers beside the lanes when there is room, else under them.
    const bool beside = full > 55 * em;
    const float buf_w =
        beside ? std::min(full * 0.3f, 5 * em * float(s.buffers.buffers.size())) : 0;
    const float buf_h = beside ? 0 : std::max(6 * em, height * 0.35f);
    const float label_w = 4.5f * em, lanes_w = full - buf_w - label_w - (beside ? em : 0);
    const float axis_h = 1.6f * em;
    const float lanes_h = height - buf_h;
    const float lane_h = (lanes_h - axis_h) / kUnitCount;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    const ImU32 grid = ImGui::GetColorU32(ImGuiCol_Border);
    const double total = double(std::max<int64_t>(1, s.total_cycles));
    const double span = total / zoom_;
    pan_ = float(std::clamp(double(pan_), 0.0, total - span));
    const double v0 = pan_;
    const float lx0 = origin.x + label_w, lx1 = lx0 + lanes_w;
    auto xof = [&](double c) { return lx0 + float((c - v0) / span) * lanes_w; };
    ImGui::InvisibleButton("lanes", ImVec2(label_w + lanes_w, lanes_h));
    const bool hover = ImGui::IsItemHovered();
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    screen_["lanes"] = compute::rect_json(ImVec2(lx0, origin.y), ImVec2(lx1, origin.y + lanes_h));
    // The labels as drawn, for --dump-view: the ruler's ticks, the lanes' names.
    nlohmann::json labels = nlohmann::json::array();
    auto noted = [&](ImVec2 at, ImU32 col, const char* t, const char* kind) {
        dl->AddText(at, col, t);
        const ImVec2 ts = ImGui::CalcTextSize(t);
        labels.push_back({{"text", t}, {"kind", kind}, {"rect", {at.x, at.y, ts.x, ts.y}}});
    };
    // ruler: about one tick per 6 em
    for (double t : plot::nice_ticks(v0, v0 + span, std::max(2, int(lanes_w / (6 * em))))) {
        const float x = xof(t);
        if (x < lx0 - 1 || x > lx1 + 1) continue;
        dl->AddLine(ImVec2(x, origin.y + axis_h - 4), ImVec2(x, origin.y + lanes_h), grid);
        noted(ImVec2(x + 2, origin.y), text, plot::tick_label(t).c_str(), "tick");
    }
    noted(ImVec2(origin.x, origin.y), ImGui::GetColorU32(ImGuiCol_TextDisabled), tr("cycles"),
          "axis");
    hovered_ = -1;
    screen_.erase("cube_bar");
    screen_.erase("mte1_bar");
    dl->PushClipRect(ImVec2(origin.x, origin.y), ImVec2(lx1, origin.y + lanes_h), true);
    for (int u = 0; u < kUnitCount; ++u) {
        const float y0 = origin.y + axis_h + lane_h * float(u), y1 = y0 + lane_h - 3;
        const bool idle = s.units[u].count == 0;
        const float ty = (y0 + y1) / 2 - em * (idle && lane_h > 2.2f * em ? 1.0f : 0.5f);
        noted(ImVec2(origin.x, ty), text, name(Unit(u)), "axis");
        if (idle && lane_h > 2.2f * em)
            noted(ImVec2(origin.x, ty + em), ImGui::GetColorU32(ImGuiCol_TextDisabled), tr("idle"),
                  "caption");
        dl->AddRectFilled(ImVec2(lx0, y0), ImVec2(lx1, y1), ImGui::GetColorU32(ImGuiCol_FrameBg));
        const std::vector<int32_t>& ids = lane_[size_t(u)];
        // first instruction ending after the view start
        auto it = std::lower_bound(ids.begin(), ids.end(), v0, [&](int32_t id, double v) {
            return double(s.instrs[size_t(id)].end) < v;
        });
        float run0 = -1, run1 = -1;
        for (; it != ids.end(); ++it) {
            const Instr& in = s.instrs[size_t(*it)];
            if (double(in.start) > v0 + span) break;
            const float x0 = xof(double(in.start)), x1 = std::max(x0 + 1.0f, xof(double(in.end)));
            if (x1 - x0 < 3) {  // too thin to tell apart: one merged run
                if (run0 >= 0 && x0 <= run1 + 1) {
                    run1 = std::max(run1, x1);
                } else {
                    if (run0 >= 0)
                        dl->AddRectFilled(ImVec2(run0, y0 + 2), ImVec2(run1, y1 - 2),
                                          im(plot::unit_color(Unit(u), false)));
                    run0 = x0;
                    run1 = x1;
                }
            } else {
                dl->AddRectFilled(ImVec2(x0, y0 + 2), ImVec2(x1 - 1, y1 - 2),
                                  block_colour(in.block));
                // The first whole bar of MTE1 and Cube, for --dump-view (GUI tests click it).
                const char* key = Unit(u) == Unit::cube   ? "cube_bar"
                                  : Unit(u) == Unit::mte1 ? "mte1_bar"
                                                          : nullptr;
                if (key && !screen_.contains(key) && x0 >= lx0)
                    screen_[key] = compute::rect_json(ImVec2(x0, y0 + 2), ImVec2(x1 - 1, y1 - 2));
            }
            if (hover && mouse.y >= y0 && mouse.y < y1 && mouse.x >= x0 && mouse.x < x1)
                hovered_ = *it;
        }
        if (run0 >= 0)
            dl->AddRectFilled(ImVec2(run0, y0 + 2), ImVec2(run1, y1 - 2),
                              im(plot::unit_color(Unit(u), false)));
    }
    // the cursor
    const float cx = xof(play_.value);
    dl->AddLine(ImVec2(cx, origin.y), ImVec2(cx, origin.y + lanes_h), IM_COL32(230, 40, 40, 255),
                2);
    dl->PopClipRect();
    screen_["labels"] = labels;
    screen_["timeline"] = compute::rect_json(origin, ImVec2(lx1, origin.y + lanes_h));
    if (hovered_ >= 0) {
        const Instr& in = s.instrs[size_t(hovered_)];
        const float x0 = xof(double(in.start)), x1 = std::max(x0 + 1.0f, xof(double(in.end)));
        const float y0 = origin.y + axis_h + lane_h * float(int(in.unit));
        dl->AddRect(ImVec2(x0, y0 + 1), ImVec2(x1, y0 + lane_h - 2), text, 0, 0, 2);
        std::string tip = tr_text(describe(s, hovered_));
        if (in.unit == Unit::mte1 || in.unit == Unit::cube)
            tip += in.unit == Unit::cube ? tr("\n(click: open the Cube panel on it)")
                                         : tr("\n(click: open the LoadData panel on it)");
        ImGui::SetTooltip("%s", tip.c_str());
        if (ImGui::IsMouseClicked(0)) open_instruction(ctx, hovered_);
    } else if (hover && ImGui::IsMouseDown(0) && mouse.x >= lx0) {
        play_.seek(std::clamp(v0 + double(mouse.x - lx0) / lanes_w * span, 0.0, total));
    }
    if (hover && ImGui::GetIO().MouseWheel != 0) {
        const double at = v0 + double(mouse.x - lx0) / lanes_w * span;
        zoom_ = std::clamp(zoom_ * (ImGui::GetIO().MouseWheel > 0 ? 1.25f : 0.8f), 1.0f, 1e6f);
        const double ns = total / zoom_;
        pan_ = float(std::clamp(at - double(mouse.x - lx0) / lanes_w * ns, 0.0, total - ns));
    }
    // buffers beside (or under) the lanes
    const ImVec2 b0 =
        beside ? ImVec2(lx1 + em, origin.y) : ImVec2(origin.x, origin.y + lanes_h + 4);
    const ImVec2 b1(origin.x + full, origin.y + height);
    if (!beside) ImGui::Dummy(ImVec2(full, buf_h));
    screen_["buffers"] = compute::rect_json(b0, b1);
    draw_buffers(b0, b1);
}

void PipelinePanel::open_instruction(AppContext& ctx, int32_t id) {
    // The instruction in the Cube's and LoadData's units, from core
    // (core/aicore/instr_fractals.hpp).
    const Instr& in = sched_->instrs[size_t(id)];
    if (in.unit == Unit::cube) {
        const MmadFractals f = mmad_fractals(in, problem_);
        ctx.open_requests.push_back(
            {"cube",
             {{"m1", f.m1}, {"k1", f.k1}, {"n1", f.n1}, {"int8", problem_.dtype == DType::int8}}});
    } else if (in.op == Op::load_a_l0 || in.op == Op::load_b_l0) {
        // The L0 tile's fractals, read from the L1 tile that holds it.
        const exec::Load2dParams l = l0_load_params(in, problem_, tiling_);
        ctx.open_requests.push_back(
            {"loaddata",
             {{"mode", "load2d"},
              {"dtype", kTypeNames[dtype_]},
              {"path", std::string(exec::name(l.src)) + "->" + exec::name(l.dst)},
              {"load2d",
               {{"src_fractals", l.src_fractals},
                {"start_index", l.start_index},
                {"repeat", l.repeat},
                {"src_stride", l.src_stride},
                {"dst_gap", l.dst_gap}}}}});
    }
}

// ---- [export] -----------------------------------------------------------------------------

const plot::PlotSpec* PipelinePanel::export_spec() const {
    switch (export_plot_) {
        case 0:
            return timeline_plot_ ? &timeline_plot_->spec : nullptr;
        case 1:
            return size_plot_ ? &size_plot_->spec : nullptr;
        default:
            return pareto_ ? &pareto_->spec : nullptr;
    }
}

void PipelinePanel::export_all(const std::string& base) {
    const plot::PlotSpec* spec = export_spec();
    if (!spec || !sched_) throw UsageError("Pipeline: nothing to export; expected a valid tiling");
    plot::check_writable(base + ".png");
    plot::write_png(*spec, base + ".png", 1200, 480);
    plot::write_svg(*spec, base + ".svg", 1200, 480);
    plot::write_csv(*spec, base + ".csv");
    plot::write_file(base + ".trace.json", chrome_trace(*sched_));
    export_msg_ = tr("wrote ") + base + ".png, .svg, .csv, .trace.json";
}

void PipelinePanel::draw_export() {
    const float em = ImGui::GetFontSize();
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(tr("Export"));
    ImGui::SameLine();
    ImGui::SetNextItemWidth(14 * em);
    const char* plots[3] = {tr(kPlots[0]), tr(kPlots[1]), tr(kPlots[2])};
    ImGui::Combo("##plot", &export_plot_, plots, 3);
    ImGui::SameLine();
    compute::wrap_for(16 * em);
    ImGui::SetNextItemWidth(14 * em);
    ImGui::InputTextWithHint("##path", "path without extension", export_path_, sizeof export_path_);
    for (const char* ext : {"PNG", "SVG", "CSV", "trace"}) {
        ImGui::SameLine();
        compute::wrap_for(ImGui::CalcTextSize(ext).x + 2 * ImGui::GetStyle().FramePadding.x);
        if (ImGui::Button(ext)) {
            std::string lower = ext;
            for (char& ch : lower) ch = char(std::tolower(static_cast<unsigned char>(ch)));
            const std::string path =
                std::string(export_path_) + (lower == "trace" ? ".trace.json" : "." + lower);
            try {
                const plot::PlotSpec* spec = export_spec();
                if (!spec || !sched_)
                    throw UsageError("nothing to export; expected a valid tiling");
                plot::check_writable(path);
                if (lower == "png")
                    plot::write_png(*spec, path, 1200, 480);
                else if (lower == "svg")
                    plot::write_svg(*spec, path, 1200, 480);
                else if (lower == "csv")
                    plot::write_csv(*spec, path);
                else
                    plot::write_file(path, chrome_trace(*sched_));
                export_msg_ = tr("wrote ") + path;
            } catch (const UsageError& e) {
                export_msg_ = std::string("error: ") + e.what();
            }
        }
    }
    if (!export_msg_.empty()) ImGui::TextUnformatted(export_msg_.c_str());
}

// Presentation mode: the units' lanes and the buffers fill the slide; the
// caption says where the cursor is in the run.
void PipelinePanel::draw_present(AppContext& ctx) {
    if (!sched_) {
        ImGui::TextWrapped("Nothing to show: %s", error_.c_str());
        return;
    }
    for (Key k : ctx.keys)
        if (k == Key::space) play_.toggle();
    const ImVec2 a = ImGui::GetCursorScreenPos(), avail = ImGui::GetContentRegionAvail();
    draw_timeline(ctx, avail.y);
    note_diagram(a, ImVec2(a.x + avail.x, a.y + avail.y));
    char buf[160];
    std::snprintf(buf, sizeof buf, "Pipeline: cycle %.0f of %lld", play_.value,
                  (long long)sched_->total_cycles);
    ctx.caption.title = buf;
    std::snprintf(buf, sizeof buf, "M x K x N = %lld x %lld x %lld, %s buffering", (long long)m_,
                  (long long)k_, (long long)n_, double_ ? "double" : "single");
    ctx.caption.formula = buf;
}

void PipelinePanel::draw(AppContext& ctx) {
    if (ctx.present) {
        draw_present(ctx);
        return;
    }
    const float sc = ctx.ui_scale, em = ImGui::GetFontSize();
    const float win_w = ImGui::GetContentRegionAvail().x;
    ImGui::BeginChild("controls", ImVec2(std::min(300 * sc, 0.32f * win_w), 0), true);
    ImGui::PushItemWidth(-ImGui::CalcTextSize(tr("baseM  ")).x);
    draw_controls();
    ImGui::PopItemWidth();
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("views", ImVec2(0, 0), false);
    if (!sched_) {
        ImGui::TextWrapped(tr("Nothing to show: %s"), error_.c_str());
        ImGui::EndChild();
        return;
    }
    if (ImGui::Button(play_.playing ? tr_id("pause") : tr_id("play"))) play_.toggle();
    for (Key k : ctx.keys)
        if (k == Key::space) play_.toggle();
    ImGui::SameLine();
    float cur = float(play_.value);
    ImGui::SetNextItemWidth(std::max(8 * em, ImGui::GetContentRegionAvail().x - 18 * em));
    if (ImGui::SliderFloat(tr_id("cycle"), &cur, 0, float(sched_->total_cycles), "%.0f")) {
        play_.seek(cur);
        play_.playing = false;
    }
    ImGui::SameLine();
    if (ImGui::Button(tr_id("zoom out"))) zoom_ = 1, pan_ = 0;
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", tr("wheel zoom, drag scrub, hover flags, click MTE1/Cube"));
    ImGui::PopStyleColor();
    const float avail = ImGui::GetContentRegionAvail().y;
    const float tl_h = std::max(14 * em, avail * 0.55f);
    draw_timeline(ctx, tl_h);
    if (ImGui::BeginTabBar("pipeline_tabs")) {
        const float plot_h = std::max(9 * em, ImGui::GetContentRegionAvail().y - 4.2f * em);
        auto flags = [&](int i) {
            return select_tab_ == i ? ImGuiTabItemFlags_SetSelected : ImGuiTabItemFlags_None;
        };
        if (ImGui::BeginTabItem(tr_id("Time vs tile size"), nullptr, flags(0))) {
            tab_ = 0;
            plot::show_plot("sizes", size_plot_->spec, ImVec2(0, plot_h));
            ImGui::EndTabItem();
        }
        if (ImGui::BeginTabItem(tr_id("Sweep"), nullptr, flags(1))) {
            tab_ = 1;
            const float full = ImGui::GetContentRegionAvail().x;
            const bool two = full > 60 * em;
            if (pareto_)
                plot::show_plot("pareto", pareto_->spec, ImVec2(two ? full * 0.5f : full, plot_h));
            if (two) ImGui::SameLine();
            if (sweep_ && ImGui::BeginTable("ranking", 5,
                                            ImGuiTableFlags_Borders | ImGuiTableFlags_ScrollY |
                                                ImGuiTableFlags_RowBg,
                                            ImVec2(0, plot_h))) {
                ImGui::TableSetupScrollFreeze(0, 1);
                ImGui::TableSetupColumn("#");
                ImGui::TableSetupColumn(tr("base M x N x K, step, order"));
                ImGui::TableSetupColumn(tr("cycles"));
                ImGui::TableSetupColumn("L1");
                ImGui::TableSetupColumn(tr("bound"));
                ImGui::TableHeadersRow();
                const size_t n = std::min<size_t>(sweep_->rows.size(), 200);
                for (size_t i = 0; i < n; ++i) {
                    const SweepRow& r = sweep_->rows[i];
                    ImGui::TableNextRow();
                    ImGui::TableNextColumn();
                    ImGui::Text("%zu", i + 1);
                    ImGui::TableNextColumn();
                    char d[96];
                    std::snprintf(d, sizeof d, "%lldx%lldx%lld s%lld %s",
                                  (long long)r.tiling.base_m, (long long)r.tiling.base_n,
                                  (long long)r.tiling.base_k, (long long)r.tiling.step_ka,
                                  name(r.tiling.order));
                    if (ImGui::Selectable(d, false, ImGuiSelectableFlags_SpanAllColumns)) {
                        tiling_ = r.tiling;
                        rebuild(false);
                    }
                    ImGui::TableNextColumn();
                    ImGui::Text("%lld%s", (long long)r.total_cycles, r.estimated ? "~" : "");
                    ImGui::TableNextColumn();
                    ImGui::TextUnformatted(human_bytes(r.l1_bytes).c_str());
                    ImGui::TableNextColumn();
                    ImGui::TextUnformatted(name(r.bound));
                }
                ImGui::EndTable();
            }
            ImGui::EndTabItem();
        }
        ImGui::EndTabBar();
        select_tab_ = -1;
    }
    draw_export();
    ImGui::EndChild();
}

}  // namespace

std::unique_ptr<Panel> make_pipeline_panel() {
    return std::make_unique<PipelinePanel>();
}

}  // namespace ll::gui
