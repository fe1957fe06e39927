// The planning panel: an operator graph with its propagated layouts, every
// mismatch with its candidate strategies side by side, the chosen plan with
// its address streams, graph editing, and the NoC distributed transpose
// animated on a grid of PEs. Drawing helpers: app/panels/planning_canvas.*.
//
// Sections: [state] [engine] [settings] [decision] [editing] [noc] [frame]
//
// State kept apart: the engine's data (graph_, plan_, noc_; rebuilt only
// when the graph, the memory model, a pick or the NoC settings change), the
// saved settings (graph, memory model, picks, selection, tab, NoC), and the
// animation (play_, a Playhead over the hops travelled) advanced only in
// update(dt).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <optional>
#include <set>

#include "app/i18n/tr.hpp"
#include "app/i18n/tr_text.hpp"
#include "app/panels/compute_widgets.hpp"
#include "app/panels/panel.hpp"
#include "app/panels/planning_canvas.hpp"
#include "app/panels/planning_settings.hpp"
#include "app/panels/playhead_panel.hpp"
#include "app/panels/present.hpp"
#include "app/render/present.hpp"
#include "core/error.hpp"
#include "core/netplan/edit.hpp"
#include "core/netplan/examples.hpp"
#include "core/netplan/noc.hpp"
#include "core/netplan/strategy.hpp"

namespace ll::gui {

namespace {

using namespace ll::netplan;

// ---- [state] -------------------------------------------------------------------

const char* kLayouts4[] = {"NCHW", "NHWC", "NCWH", "NHCW", "CHWN", "HWCN", "NWHC"};
const auto& kTabs = PlanningSettings::kTabs;
const ImU32 kStreamColours[] = {IM_COL32(110, 170, 255, 255), IM_COL32(255, 160, 70, 255),
                                IM_COL32(140, 220, 140, 255), IM_COL32(230, 130, 230, 255)};

class PlanningPanel : public PlayheadPanel {
  public:
    PlanningPanel() : PlayheadPanel("hop", initial_hops()) {
        load_example(0);
        rebuild_noc();
    }
    const char* title() const override { return "Layout planning"; }
    void draw(AppContext& ctx) override;
    void draw_present(AppContext& ctx);
    void draw_candidate_rows(const Decision& d, double max_t, bool how = true);
    Timeline timeline() const override;
    nlohmann::json save_settings() const override;
    nlohmann::json probe() const override;
    PlanningSettings settings() const;  // what a scene file holds, from the state
    void load_settings(const nlohmann::json& j) override;

  private:
    bool dark_ = true;           // the theme of the frame being drawn (stream plots)
    float stream_h_ = 84;        // an address-stream plot's height (taller on a slide)
    float graph_scale_ = 1;      // the graph's type in the normal view, fitted to its width
    float present_graph_h_ = 0;  // the graph's height on the slide last frame, per unit of scale
    void load_example(int k);
    void replan();
    void select_first_decision();
    void graph_changed();
    void draw_toolbar();
    void draw_legend();
    void draw_decision();
    void draw_candidates(const Decision& d);
    void draw_plan(const Decision& d, bool text = true);
    void draw_plan_text(const Decision& d, float left);
    void draw_editor();
    void draw_noc();
    void rebuild_noc();
    float noc_end() const;
    const Decision* decision_for_edge(size_t edge) const;

    Graph graph_;
    NetPlan plan_;
    bool plan_ok_ = false;
    std::string error_;
    MemoryModel model_;
    Picks picks_;      // edge -> strategy chosen by hand
    int example_ = 0;  // -1: a graph of the user's own
    int selected_node_ = -1;
    // Screen rectangles of some controls, [x0, y0, x1, y1] (save_settings
    // "screen"), so tests can click them wherever the layout puts them.
    nlohmann::json screen_ = nlohmann::json::object();
    long selected_edge_ = -1;
    int tab_ = 0;
    bool tab_request_ = true;  // select tab_ on the next frame

    NocConfig noc_cfg_;
    NocPlan noc_;
    std::string noc_error_;
    static constexpr float kNocRate = 0.8f;  // hops per second while playing
    float present_scale_ = 1;                // presentation mode: the graph's font scale
    // play_ (PlayheadPanel): hops travelled, looping over 0..noc_end() and a
    // short hold at the end.
    static Playhead initial_hops() {
        Playhead p(0, 1);
        p.speed = kNocRate;
        p.loop = true;
        return p;
    }
    static constexpr float kNocHold = 0.8f;  // hops' time the finished transpose stays
};

// ---- [engine] ------------------------------------------------------------------

void PlanningPanel::load_example(int k) {
    example_ = k;
    graph_ = example_graph(example_names()[size_t(k)]);
    picks_.clear();
    selected_node_ = -1;
    replan();
    select_first_decision();
}

void PlanningPanel::replan() {
    try {
        validate(graph_);
        plan_ = plan_network(graph_, model_, picks_);
        plan_ok_ = true;
        error_.clear();
    } catch (const UsageError& e) {
        plan_ok_ = false;
        error_ = e.what();
    }
}

void PlanningPanel::select_first_decision() {
    selected_edge_ = plan_ok_ && !plan_.decisions.empty() ? long(plan_.decisions[0].edge) : -1;
}

void PlanningPanel::graph_changed() {
    example_ = -1;
    picks_.clear();  // edge numbers change with the graph
    replan();
    select_first_decision();
}

const Decision* PlanningPanel::decision_for_edge(size_t edge) const {
    for (const auto& d : plan_.decisions)
        if (d.edge == edge) return &d;
    return nullptr;
}

float PlanningPanel::noc_end() const {
    return float(std::max<int64_t>(1, noc_.max_hops));
}

// The NoC tab's blocks travelling their hops (the other tabs hold still).
Timeline PlanningPanel::timeline() const {
    if (std::string(kTabs[tab_]) != "noc") return {};
    return {0, double(noc_end()), double(kNocRate), "hop"};
}

// ---- [settings] -------------------------------------------------------------------
// Scene keys: example (name), graph (inline object, example name or JSON
// file path), model {dram_gbps, sram_gbps, elem_bytes, burst_bytes, dma},
// picked {"relu->conv2": "consumer_read"}, select ("relu->conv2"), strategy
// (a pick for the selected edge), select_node (name), tab (strategies, edit,
// noc), noc {rows, cols, pes, mesh_cols, step, playing}.

nlohmann::json PlanningPanel::save_settings() const {
    return settings().to_json();
}

PlanningSettings PlanningPanel::settings() const {
    PlanningSettings s;
    if (example_ >= 0)
        s.example = example_names()[size_t(example_)];
    else
        s.graph = graph_to_json(graph_);
    s.model = model_;
    if (plan_ok_) {
        for (const auto& [e, st] : picks_)
            if (e < plan_.propagation.edges.size())
                s.picked[edge_name(graph_, plan_.propagation.edges[e])] = strategy_name(st);
        if (selected_edge_ >= 0 && size_t(selected_edge_) < plan_.propagation.edges.size())
            s.select = edge_name(graph_, plan_.propagation.edges[size_t(selected_edge_)]);
    }
    if (selected_node_ >= 0 && size_t(selected_node_) < graph_.nodes.size())
        s.select_node = graph_.nodes[size_t(selected_node_)].name;
    s.tab = tab_;
    s.noc = noc_cfg_;
    s.noc_step = play_.value;
    s.noc_playing = play_.playing;
    return s;
}

namespace {

// The graph's texts for the probe: {"text", "kind", "rect": [x, y, w, h],
// "ink": [r, g, b], "box": [r, g, b]}.
nlohmann::json graph_texts_json(const std::vector<planning::GraphText>& texts) {
    auto rgb = [](ImU32 c) {
        return nlohmann::json{(c >> IM_COL32_R_SHIFT) & 0xFF, (c >> IM_COL32_G_SHIFT) & 0xFF,
                              (c >> IM_COL32_B_SHIFT) & 0xFF};
    };
    nlohmann::json out = nlohmann::json::array();
    for (const planning::GraphText& t : texts)
        out.push_back({{"text", t.text},
                       {"kind", t.kind},
                       {"rect", {t.at.x, t.at.y, t.size.x, t.size.y}},
                       {"ink", rgb(t.ink)},
                       {"box", rgb(t.box)}});
    return out;
}

}  // namespace

nlohmann::json PlanningPanel::probe() const {
    nlohmann::json p = nlohmann::json::object();
    if (!screen_.empty()) p["screen"] = screen_;
    return p;
}

namespace {

Graph graph_from_setting(const nlohmann::json& g) {
    if (g.is_object()) return parse_graph(g);
    if (!g.is_string())
        throw UsageError(
            "planning scene \"graph\": expected a graph object, an example name or a file path");
    std::string s = g.get<std::string>();
    for (const auto& n : example_names())
        if (n == s) return example_graph(n);
    return load_graph_file(s);
}

// A candidate's time as a bar against the slowest (max_t), or why it cannot run.
void time_cell(const Candidate& c, double max_t) {
    if (!c.feasible) {
        ImGui::TextDisabled("%s", tr("not possible"));
        return;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f us", c.time_us);
    ImGui::ProgressBar(max_t > 0 ? float(c.time_us / max_t) : 0, ImVec2(-1, 0), buf);
}

}  // namespace

void PlanningPanel::load_settings(const nlohmann::json& j) {
    const std::string what = "planning scene";
    const SceneReader r(j, "planning");
    PlanningSettings s = settings();
    s.read(r);  // keys and types; the names and values below are the engine's to check
    try {
        if (r.has("example")) {
            const auto names = example_names();
            auto it = std::find(names.begin(), names.end(), s.example);
            if (it == names.end()) (void)example_graph(s.example);  // throws, listing the names
            load_example(int(it - names.begin()));
        } else if (r.has("graph")) {
            graph_ = graph_from_setting(s.graph);
            example_ = -1;
            const auto names = example_names();
            if (s.graph.is_string())
                for (size_t k = 0; k < names.size(); ++k)
                    if (names[k] == s.graph.get<std::string>()) example_ = int(k);
        }
        model_ = s.model;
        check(model_);
        Propagation p = propagate(graph_);  // names edges; throws for a bad graph
        picks_.clear();
        for (const auto& [e, st] : s.picked)
            picks_[edge_from_name(graph_, p, e, what + " \"picked\"")] =
                strategy_from_name(st, what + " \"picked\"");
        replan();
        if (!plan_ok_) throw UsageError(error_);
        select_first_decision();
        if (!s.select.empty())
            selected_edge_ = long(edge_from_name(graph_, p, s.select, what + " \"select\""));
        if (!s.strategy.empty()) {
            if (s.select.empty() && selected_edge_ < 0)
                throw UsageError(what + " \"strategy\": no mismatch selected; expected \"select\"");
            picks_[size_t(selected_edge_)] = strategy_from_name(s.strategy, what + " \"strategy\"");
            replan();
        }
        selected_node_ = -1;
        if (!s.select_node.empty()) {
            selected_node_ = graph_.index_of(s.select_node);
            if (selected_node_ < 0)
                throw UsageError("select_node", what + " \"select_node\": no node '" +
                                                    s.select_node + "' in the graph");
        }
        if (r.has("tab")) {
            tab_ = s.tab;
            tab_request_ = true;
        }
        noc_cfg_ = s.noc;
    } catch (const nlohmann::json::exception& e) {
        throw UsageError(what + ": a value has the wrong type (" + e.what() + ")");
    }
    rebuild_noc();
    if (!noc_error_.empty()) throw UsageError(what + " \"noc\": " + noc_error_);
    seek_at_rest(play_, s.noc_step);
    play_.playing = s.noc_playing;
}

// ---- [decision] -------------------------------------------------------------------

void PlanningPanel::draw_decision() {
    if (!plan_ok_ || selected_edge_ < 0 ||
        size_t(selected_edge_) >= plan_.propagation.edges.size()) {
        ImGui::TextDisabled("%s", tr("Click an edge label in the graph (red = mismatch) to see its "
                                     "candidate strategies."));
        return;
    }
    const size_t ei = size_t(selected_edge_);
    const Edge& e = plan_.propagation.edges[ei];
    const Decision* d = decision_for_edge(ei);
    ImGui::Text(tr("edge %s: tensor %s"), edge_name(graph_, e).c_str(), to_string(e.shape).c_str());
    if (!d) {
        if (plan_.initial.edges[ei].mismatch())
            ImGui::TextColored(render::theme_colour(render::Role::done),
                               tr("was %s, expected %s: fixed by an earlier decision upstream (the "
                                  "producer now stores %s)"),
                               order_name(plan_.initial.edges[ei].produced).c_str(),
                               order_name(*e.expected).c_str(), order_name(e.produced).c_str());
        else
            ImGui::Text(tr("stored %s, %s: no transform needed"), order_name(e.produced).c_str(),
                        e.expected ? tr("expected the same") : tr("the consumer takes any layout"));
        return;
    }
    ImGui::Text(tr("%s %s -> %s %s, %.1f KB, decided in round %d%s"), order_name(d->source).c_str(),
                tuple_string(d->source).c_str(), order_name(d->target).c_str(),
                tuple_string(d->target).c_str(), double(d->tensor_bytes) / 1024.0, d->round,
                d->appeared ? tr(" (appeared after an earlier decision)") : "");
    ImGui::TextWrapped(tr("rule: %s"), tr_text(d->rule).c_str());
    draw_candidates(*d);
    if (picks_.count(ei) && ImGui::SmallButton(tr_id("back to the planner's choice"))) {
        picks_.erase(ei);
        replan();
        return;
    }
    ImGui::Separator();
    draw_plan(*d);
}

// The candidates side by side: one column each.
void PlanningPanel::draw_candidates(const Decision& d) {
    const size_t ei = d.edge;
    double max_t = 0;
    for (const auto& c : d.candidates)
        if (c.feasible) max_t = std::max(max_t, c.time_us);
    const int n = int(d.candidates.size());
    // Too narrow for a column per strategy (a projector): a row per strategy.
    float names_w = ImGui::CalcTextSize(tr("DRAM traffic")).x;
    // A column per strategy when each holds its name and its traffic (in
    // Chinese the names fit and "3136 KB (+1568 KB)" was cut at the right).
    for (const auto& c : d.candidates) {
        char traffic[64];
        std::snprintf(traffic, sizeof traffic, tr("%.0f KB (%+.0f KB)"), c.dram_bytes / 1024,
                      c.extra_dram_bytes / 1024);
        names_w += std::max(ImGui::CalcTextSize(tr_text(strategy_name(c.strategy)).c_str()).x +
                                3 * ImGui::GetFontSize(),
                            ImGui::CalcTextSize(traffic).x + 2 * ImGui::GetFontSize());
    }
    if (names_w > ImGui::GetContentRegionAvail().x) {
        draw_candidate_rows(d, max_t);
        return;
    }
    if (!ImGui::BeginTable("cands", n + 1, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg)) return;
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed,
                            ImGui::CalcTextSize(tr("DRAM traffic")).x + 8);
    for (int k = 0; k < n; ++k)
        ImGui::TableSetupColumn(tr_text(strategy_name(d.candidates[size_t(k)].strategy)).c_str());
    std::optional<Strategy> pick;
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextDisabled("%s", tr("strategy"));
    for (const auto& c : d.candidates) {
        ImGui::TableNextColumn();
        ImGui::PushID(int(c.strategy));
        bool on = d.strategy == c.strategy;
        bool can = c.feasible && (c.strategy != Strategy::Offline || on);
        if (!can) ImGui::BeginDisabled();
        if (ImGui::RadioButton(tr_text(strategy_name(c.strategy)).c_str(), on) && !on)
            pick = c.strategy;
        if (!can) ImGui::EndDisabled();
        ImGui::PopID();
    }
    auto row = [&](const char* label) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextDisabled("%s", label);
    };
    row(tr("DRAM traffic"));
    for (const auto& c : d.candidates) {
        ImGui::TableNextColumn();
        ImGui::Text(tr("%.0f KB (%+.0f KB)"), c.dram_bytes / 1024, c.extra_dram_bytes / 1024);
    }
    row(tr("time"));
    for (const auto& c : d.candidates) {
        ImGui::TableNextColumn();
        time_cell(c, max_t);
    }
    row(tr("how"));
    for (const auto& c : d.candidates) {
        ImGui::TableNextColumn();
        ImGui::TextWrapped("%s", tr_text(c.feasible ? c.detail : c.why_not).c_str());
    }
    ImGui::EndTable();
    if (pick) {
        picks_[ei] = *pick;
        replan();
    }
}

// The candidates one row each (strategy, DRAM traffic, time, how), for
// windows too narrow for a column per strategy; "how" wraps in what is left.
void PlanningPanel::draw_candidate_rows(const Decision& d, double max_t, bool how) {
    const ImGuiTableFlags flags =
        ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("cand_rows", how ? 4 : 3, flags)) return;
    const float em = ImGui::GetFontSize();
    // The first two columns as wide as their widest text from the first
    // frame on (ImGui measures while drawing: "3136 KB (+1568 KB)" was cut
    // to "15" in the frame before it knew).
    const ImGuiStyle& st = ImGui::GetStyle();
    float name_w = ImGui::CalcTextSize(tr("strategy")).x;
    float dram_w = ImGui::CalcTextSize(tr("DRAM traffic")).x;
    char buf[96];
    for (const auto& c : d.candidates) {
        name_w =
            std::max(name_w, ImGui::GetFrameHeight() + st.ItemInnerSpacing.x +
                                 ImGui::CalcTextSize(tr_text(strategy_name(c.strategy)).c_str()).x);
        std::snprintf(buf, sizeof buf, tr("%.0f KB (%+.0f KB)"), c.dram_bytes / 1024,
                      c.extra_dram_bytes / 1024);
        dram_w = std::max(dram_w, ImGui::CalcTextSize(buf).x);
    }
    ImGui::TableSetupColumn(tr("strategy"), ImGuiTableColumnFlags_WidthFixed, name_w);
    ImGui::TableSetupColumn(tr("DRAM traffic"), ImGuiTableColumnFlags_WidthFixed, dram_w);
    ImGui::TableSetupColumn(tr("time"), ImGuiTableColumnFlags_WidthFixed, 6 * em);
    if (how) ImGui::TableSetupColumn(tr("how"), ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    std::optional<Strategy> pick;
    for (const auto& c : d.candidates) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::PushID(int(c.strategy));
        const bool on = d.strategy == c.strategy;
        const bool can = c.feasible && (c.strategy != Strategy::Offline || on);
        if (!can) ImGui::BeginDisabled();
        if (ImGui::RadioButton(tr_text(strategy_name(c.strategy)).c_str(), on) && !on)
            pick = c.strategy;
        if (!can) ImGui::EndDisabled();
        ImGui::PopID();
        ImGui::TableNextColumn();
        ImGui::Text(tr("%.0f KB (%+.0f KB)"), c.dram_bytes / 1024, c.extra_dram_bytes / 1024);
        ImGui::TableNextColumn();
        time_cell(c, max_t);
        if (!how) continue;
        ImGui::TableNextColumn();
        ImGui::TextWrapped("%s", tr_text(c.feasible ? c.detail : c.why_not).c_str());
    }
    ImGui::EndTable();
    if (pick) {
        picks_[d.edge] = *pick;
        replan();
    }
}

// The plan's strides and its address example, in a column `left` wide,
// followed on the same line by what is drawn next.
void PlanningPanel::draw_plan_text(const Decision& d, float left) {
    ImGui::BeginGroup();
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + left);
    ImGui::Text(tr("plan: %s, stored in DRAM as %s"), tr_text(strategy_name(d.strategy)).c_str(),
                order_name(d.stored_layout).c_str());
    for (const auto& [k, v] : d.strides)
        ImGui::BulletText("%s: %s", tr_text(k).c_str(), tuple_string(v).c_str());
    ImGui::TextWrapped(tr("index %s: %s offset %lld, %s offset %lld"),
                       tuple_string(d.example_index).c_str(), order_name(d.source).c_str(),
                       (long long)d.example_source_offset, order_name(d.target).c_str(),
                       (long long)d.example_target_offset);
    ImGui::PopTextWrapPos();
    ImGui::Dummy(ImVec2(left, 0));
    ImGui::EndGroup();
    ImGui::SameLine(0, 24);
}

// The chosen plan: strides, the address example and the address streams.
void PlanningPanel::draw_plan(const Decision& d, bool text) {
    const float avail = ImGui::GetContentRegionAvail().x;
    const float left = std::min(460.f, avail * 0.38f);
    if (text) draw_plan_text(d, left);
    // Address streams, two per row: the first 192 element offsets each.
    const auto streams = address_streams(d);
    const float w = (ImGui::GetContentRegionAvail().x - 16) / 2;
    std::vector<std::vector<int64_t>> offs;
    for (const auto& s : streams) offs.push_back(stream_offsets(d.shape, s, 192));
    // In the normal view the plots take the height left under the table (at
    // 1600x1000 a fixed 84 px left a fifth of the window empty below them).
    const float normal_h = stream_h_;
    if (text) {
        const float line = ImGui::GetTextLineHeightWithSpacing();
        const float rows = float(std::max<size_t>(1, (streams.size() + 1) / 2));
        const float room = ImGui::GetContentRegionAvail().y - 1.3f * line;
        stream_h_ =
            std::max(normal_h, room / rows - 2 * line - 2 * ImGui::GetStyle().ItemSpacing.y);
    }
    ImGui::BeginGroup();
    ImGui::TextDisabled("%s",
                        tr("address streams: first 192 element offsets, each on its own scale"));
    for (size_t k = 0; k < streams.size(); ++k) {
        if (k % 2) ImGui::SameLine(0, 16);
        // The loop order goes on the plot's text row, so the title stays one line.
        std::string title = tr_text(streams[k].name) + " " + tuple_string(streams[k].strides);
        const std::string loops = std::string(tr("loops ")) + order_name(streams[k].loop);
        const planning::StreamPlotDrawn sd = planning::draw_stream_plot(
            title, offs[k], ImVec2(w, stream_h_), kStreamColours[k % 4], 0, dark_, loops);
        screen_["streams"].push_back({{"name", streams[k].name},
                                      {"offsets", {sd.bottom, sd.top}},
                                      {"span_px", sd.span_px},
                                      {"plot_px", sd.plot_px}});
    }
    ImGui::EndGroup();
    stream_h_ = normal_h;
}

// ---- [editing] --------------------------------------------------------------------

void PlanningPanel::draw_editor() {
    if (selected_node_ < 0 || size_t(selected_node_) >= graph_.nodes.size()) {
        ImGui::TextDisabled("%s", tr("Click a node in the graph to edit it."));
        return;
    }
    Node& n = graph_.nodes[size_t(selected_node_)];
    bool changed = false;
    size_t rank = plan_ok_ ? plan_.propagation.nodes[size_t(selected_node_)].shape.size() : 0;
    if (plan_ok_) {
        const NodeLayout& nl = plan_.propagation.nodes[size_t(selected_node_)];
        ImGui::Text(tr("node '%s' (%s): output %s stored %s, loops %s"), n.name.c_str(),
                    op_name(n.op), to_string(nl.shape).c_str(), order_name(nl.layout).c_str(),
                    order_name(nl.compute_order).c_str());
        ImGui::TextDisabled(tr("rule: %s"), tr_text(nl.rule).c_str());
    } else {
        ImGui::Text(tr("node '%s' (%s)"), n.name.c_str(), op_name(n.op));
    }
    auto layout_combo = [&](const char* label, nlohmann::json& slot) {
        std::string cur = slot.is_string() ? slot.get<std::string>() : tr("(default)");
        ImGui::SetNextItemWidth(140);
        if (ImGui::BeginCombo(tr_id(label), cur.c_str())) {
            if (ImGui::Selectable(tr_id("(default)"), slot.is_null())) {
                slot = nullptr;
                changed = true;
            }
            for (const char* l : kLayouts4)
                if (ImGui::Selectable(l, cur == l)) {
                    slot = l;
                    changed = true;
                }
            ImGui::EndCombo();
        }
    };
    if (rank == 4) {
        if (is_layout_sensitive(n.op) && !n.inputs.empty()) {
            if (n.input_layouts.empty()) n.input_layouts.resize(1);
            layout_combo(trn("preferred input layout"), n.input_layouts[0]);
            ImGui::SameLine(0, 20);
        }
        if (n.op != OpKind::Transpose && n.op != OpKind::Reshape) {
            layout_combo(trn("output layout"), n.layout);
            ImGui::SameLine(0, 20);
        }
        layout_combo(trn("compute order"), n.compute_order);
    } else {
        ImGui::TextDisabled("%s", tr("layouts are editable here for rank-4 tensors only"));
    }
    // Buttons below edit graph_ (core/netplan/edit.hpp): n must not be used after this point.
    const std::string me = n.name;
    const OpKind my_op = n.op;
    // A refused edit leaves the graph as it was; its reason goes to error_.
    auto edit = [&](const std::function<void()>& f) {
        try {
            f();
            changed = true;
        } catch (const UsageError& e) {
            error_ = e.what();
        }
    };
    if (!changed && ImGui::Button(tr_id("insert ReLU after"))) {
        Node r;
        r.name = unique_name(graph_, "relu");
        r.op = OpKind::ReLU;
        edit([&] { insert_after(graph_, me, r); });
    }
    for (const char* want : {"NHWC", "NCHW"}) {
        ImGui::SameLine();
        std::string label = tr("add ") + std::string(want) + tr(" conv consumer");
        if (!changed && rank == 4 && ImGui::Button(label.c_str())) {
            Node c;
            c.name = unique_name(graph_, "conv");
            c.op = OpKind::Conv;
            c.input_layouts = {want};
            c.layout = want;
            edit([&] { add_consumer(graph_, me, c); });
        }
    }
    ImGui::SameLine();
    const bool can_remove = !changed && my_op != OpKind::Input && my_op != OpKind::Weight;
    const bool remove = can_remove && ImGui::Button(tr_id("remove"));
    if (can_remove) {
        ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
        screen_["remove"] = {a.x, a.y, b.x, b.y};
    }
    if (remove) {
        edit([&] { remove_node(graph_, me); });
    }
    // Edits re-sort the nodes: keep the selection on the same node by name.
    if (changed) selected_node_ = graph_.index_of(me);
    if (changed) graph_changed();
}

// ---- [noc] ------------------------------------------------------------------------

void PlanningPanel::rebuild_noc() {
    try {
        noc_ = plan_distributed_transpose(noc_cfg_);
        noc_error_.clear();
        play_.set_range(0, noc_end() + kNocHold);
    } catch (const UsageError& e) {
        noc_error_ = e.what();
    }
}

void PlanningPanel::draw_noc() {
    int v[3] = {int(noc_cfg_.rows), int(noc_cfg_.cols), int(noc_cfg_.pes)};
    ImGui::SetNextItemWidth(240);
    if (ImGui::InputInt3("matrix rows, cols, PEs", v)) {
        noc_cfg_.rows = std::clamp(v[0], 1, 4096);
        noc_cfg_.cols = std::clamp(v[1], 1, 4096);
        noc_cfg_.pes = std::clamp(v[2], 1, 64);
        noc_cfg_.mesh_cols = 0;
        rebuild_noc();
    }
    ImGui::SameLine(0, 20);
    if (ImGui::Button(play_.playing ? tr_id("pause") : tr_id("play"))) play_.toggle();
    ImGui::SameLine();
    ImGui::SetNextItemWidth(200);
    float t = float(play_.value);
    if (ImGui::SliderFloat(tr_id("hops travelled"), &t, 0, noc_end(), "%.2f"))
        seek_at_rest(play_, t);
    if (!noc_error_.empty()) {
        ImGui::TextColored(render::theme_colour(render::Role::error), "%s", noc_error_.c_str());
        return;
    }
    ImGui::TextWrapped(
        tr("%lldx%lld matrix over %lld PEs on a %lldx%lld mesh (XY routing): all-to-all, PE p "
           "sends the block (its rows, PE q's columns) to PE q. %lld B cross the network, %lld B "
           "stay local; busiest link %lld B (%.3f us at %.0f GB/s)."),
        (long long)noc_cfg_.rows, (long long)noc_cfg_.cols, (long long)noc_cfg_.pes,
        (long long)noc_.mesh_rows, (long long)noc_.mesh_cols, (long long)noc_.network_bytes,
        (long long)noc_.local_bytes, (long long)noc_.max_link_bytes, noc_.time_us,
        noc_cfg_.link_gbps);
    float avail_h = ImGui::GetContentRegionAvail().y;
    // A PE holds its name and its links' byte counts at any UI scale (48 px
    // PEs under 19 px type overlapped their labels on a projector); the
    // panel scrolls when the window is shorter.
    const float min_cell = std::max(48.f, 5 * ImGui::GetFontSize());
    float cell =
        std::clamp(std::min((ImGui::GetContentRegionAvail().x * 0.55f) / float(noc_.mesh_cols),
                            (avail_h - 10) / float(noc_.mesh_rows)),
                   min_cell, std::max(190.f, min_cell));
    screen_["noc_cell"] = cell;
    ImGui::BeginGroup();
    planning::draw_noc_grid(noc_, float(play_.value), cell);
    ImGui::EndGroup();
    ImGui::SameLine(0, 20);
    ImGui::BeginChild(
        "blocks", ImVec2(0, std::max({120.f, avail_h - 4, cell * float(noc_.mesh_rows)})), true);
    if (ImGui::BeginTable("blocktab", 5, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
        ImGui::TableSetupColumn(tr("from"));
        ImGui::TableSetupColumn(tr("to"));
        ImGui::TableSetupColumn(tr("block (rows x cols)"));
        ImGui::TableSetupColumn(tr("bytes"));
        ImGui::TableSetupColumn(tr("route"));
        ImGui::TableHeadersRow();
        for (const auto& b : noc_.blocks) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::Text(tr("PE%lld"), (long long)b.src_pe);
            ImGui::TableNextColumn();
            ImGui::Text(tr("PE%lld"), (long long)b.dst_pe);
            ImGui::TableNextColumn();
            ImGui::Text("[%lld,%lld) x [%lld,%lld)", (long long)b.row0, (long long)b.row1,
                        (long long)b.col0, (long long)b.col1);
            ImGui::TableNextColumn();
            ImGui::Text("%lld", (long long)b.bytes);
            ImGui::TableNextColumn();
            std::string r;
            for (int64_t pe : b.route) r += (r.empty() ? "" : "-") + std::to_string(pe);
            ImGui::TextUnformatted(b.src_pe == b.dst_pe ? tr("local") : r.c_str());
        }
        ImGui::EndTable();
    }
    ImGui::EndChild();
}

// ---- [frame] ----------------------------------------------------------------------

void PlanningPanel::draw_toolbar() {
    // Widths grow with the font, and an item that no longer fits the row goes
    // to the next one (a projector at UI scale 1.5 cut the last two off).
    const float em = ImGui::GetFontSize();
    const ImGuiStyle& st = ImGui::GetStyle();
    auto next = [&](float field, const char* label) {
        ImGui::SameLine(0, st.ItemSpacing.x);
        compute::wrap_for(field + st.ItemInnerSpacing.x + ImGui::CalcTextSize(label).x);
    };
    const auto names = example_names();
    ImGui::SetNextItemWidth(20 * em);
    if (ImGui::BeginCombo(tr_id("example"),
                          example_ >= 0 ? names[size_t(example_)].c_str() : tr("(edited graph)"))) {
        for (size_t k = 0; k < names.size(); ++k)
            if (ImGui::Selectable(names[k].c_str(), int(k) == example_)) load_example(int(k));
        ImGui::EndCombo();
    }
    bool ch = false;
    float bw = float(model_.dram_gbps), sbw = float(model_.sram_gbps);
    int eb = int(model_.elem_bytes);
    next(11.5f * em, tr_id("DRAM GB/s"));
    ImGui::SetNextItemWidth(11.5f * em);
    ch |= ImGui::SliderFloat(tr_id("DRAM GB/s"), &bw, 10, 1000, "%.0f");
    next(11.5f * em, tr_id("SRAM GB/s"));
    ImGui::SetNextItemWidth(11.5f * em);
    ch |= ImGui::SliderFloat(tr_id("SRAM GB/s"), &sbw, 50, 4000, "%.0f");
    next(7 * em, tr_id("bytes/elem"));
    ImGui::SetNextItemWidth(7 * em);
    ch |= ImGui::SliderInt(tr_id("bytes/elem"), &eb, 1, 8);
    next(ImGui::GetFrameHeight(), tr_id("DMA between ops"));
    ch |= ImGui::Checkbox(tr_id("DMA between ops"), &model_.dma);
    if (ch) {
        model_.dram_gbps = bw;
        model_.sram_gbps = sbw;
        model_.elem_bytes = eb;
        model_.burst_bytes = std::max<int64_t>(model_.burst_bytes, model_.elem_bytes);
        replan();
    }
}

void PlanningPanel::draw_legend() {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    auto swatch = [&](ImU32 col, const char* text, bool disc) {
        float h = ImGui::GetTextLineHeight();
        // An entry that would be cut at the right starts a new row.
        compute::wrap_for(h + 4 + ImGui::CalcTextSize(tr(text)).x);
        ImVec2 p = ImGui::GetCursorScreenPos();
        if (disc)
            dl->AddCircleFilled(ImVec2(p.x + h / 2, p.y + h / 2), h / 2 - 1, col);
        else
            dl->AddRectFilled(ImVec2(p.x, p.y + 2), ImVec2(p.x + h, p.y + h - 2), col, 2);
        ImGui::Dummy(ImVec2(h, h));
        ImGui::SameLine(0, 4);
        ImGui::TextUnformatted(tr(text));
        ImGui::SameLine(0, 18);
    };
    swatch(planning::kMismatchLegend, trn("mismatch, with its decision"), true);
    swatch(planning::kFixed, trn("fixed by a decision upstream"), false);
    swatch(planning::kChanged, trn("layout changed by a decision"), false);
    swatch(IM_COL32(88, 62, 118, 255), trn("reduces: layout-sensitive"), false);
    swatch(IM_COL32(48, 70, 104, 255), trn("elementwise: passes layouts"), false);
    ImGui::NewLine();
}

// Presentation mode: the graph alone fills the slide, its text enlarged so
// the boxes grow with it (a child window's font scales with its parent's).
void PlanningPanel::draw_present(AppContext& ctx) {
    const ImVec2 a = ImGui::GetCursorScreenPos(), avail = ImGui::GetContentRegionAvail();
    screen_ = nlohmann::json::object();
    dark_ = ctx.dark_theme;
    // The decided edge (the selected one) shares the slide: the graph on top,
    // its strategies and address streams below, so the slide is not two
    // thirds empty under a one-row graph.
    const Decision* d =
        plan_ok_ && selected_edge_ >= 0 && size_t(selected_edge_) < plan_.propagation.edges.size()
            ? decision_for_edge(size_t(selected_edge_))
            : nullptr;
    // The graph's share: at most a quarter, no more than it drew last frame.
    const float graph_max = d ? avail.y * 0.24f : avail.y;
    const float graph_h = d && present_graph_h_ > 0
                              ? std::min(graph_max, present_graph_h_ * present_scale_ + 20)
                              : graph_max;
    // Never wider than the slide, from the first frame on (the fit below
    // follows the drawn size, a frame late: "conv2" was cut in frame one).
    for (int k = 0; k < 4; ++k) {
        ImGui::SetWindowFontScale(present_scale_);
        const float w = planning::graph_content_size(graph_, plan_ok_ ? &plan_ : nullptr).x;
        if (w <= avail.x - 24 || present_scale_ <= 0.7f) break;
        present_scale_ = std::max(0.7f, present_scale_ * 0.98f * (avail.x - 24) / w);
    }
    ImGui::SetWindowFontScale(present_scale_);
    // No scroll bars: the scale below makes the graph fit (a scroll bar once
    // showed, and the graph scrolled sideways instead of fitting).
    planning::GraphClick click = planning::draw_graph(
        graph_, plan_ok_ ? &plan_ : nullptr, selected_node_, selected_edge_, graph_h, false);
    {
        const ImVec2 ga = ImGui::GetItemRectMin(), gb = ImGui::GetItemRectMax();
        screen_["graph"] = {{"content", {click.content.x, click.content.y}},
                            {"box", {ga.x, ga.y, gb.x, gb.y}},
                            {"texts", graph_texts_json(click.texts)}};
    }
    ImGui::SetWindowFontScale(1.f);
    std::string edge_caption;
    if (d) {
        // The table and streams' type: a little under the UI's on a
        // projector (the plots get the height), larger on a wide window.
        const float body = std::clamp(avail.x / (70 * ImGui::GetFontSize()), 0.85f, 1.6f);
        ImGui::SetWindowFontScale(body);
        // The edge names the slide in its caption (below), so the table
        // and the streams get its line.
        const Edge& e = plan_.propagation.edges[size_t(selected_edge_)];
        char buf[256];
        std::snprintf(buf, sizeof buf, tr("edge %s: %s -> %s, tensor %s"),
                      edge_name(graph_, e).c_str(), order_name(d->source).c_str(),
                      order_name(d->target).c_str(), to_string(e.shape).c_str());
        edge_caption = buf;
        // The slide's table: strategy, traffic and time, one line each (the
        // "how" sentences stay in the normal view).
        double max_t = 0;
        for (const auto& c : d->candidates)
            if (c.feasible) max_t = std::max(max_t, c.time_us);
        // Thin rows (the radio buttons' frame padding made each row two
        // text lines tall), so the stream plots below get the height.
        ImGui::PushStyleVar(ImGuiStyleVar_FramePadding,
                            ImVec2(ImGui::GetStyle().FramePadding.x, 1));
        draw_candidate_rows(*d, max_t, false);
        ImGui::PopStyleVar();
        const float rows = float(std::max<size_t>(1, (address_streams(*d).size() + 1) / 2));
        const float line = ImGui::GetTextLineHeightWithSpacing();
        const float left =
            avail.y - (ImGui::GetCursorScreenPos().y - a.y) - 1.3f * line;  // the streams header
        stream_h_ = std::max(48.f, left / rows - 2 * line - ImGui::GetStyle().ItemSpacing.y);
        draw_plan(*d, false);
        stream_h_ = 84;
        ImGui::SetWindowFontScale(1.f);
    }
    // The graph's size grows with its text: the next frame's scale makes it
    // just fit its share of the slide (a margin for the child's padding and
    // scroll bar).
    if (click.content.x > 0 && click.content.y > 0) {
        const float fit =
            std::min((avail.x - 24) / click.content.x, (graph_max - 20) / click.content.y);
        present_graph_h_ = click.content.y / present_scale_;
        const float next = std::clamp(present_scale_ * fit, 0.7f, 2.5f);
        if (std::abs(next - present_scale_) > 0.02f) present_scale_ = next;
    }
    if (click.node >= 0) selected_node_ = click.node;
    if (click.edge >= 0) selected_edge_ = click.edge;
    note_diagram(a, ImVec2(a.x + avail.x, a.y + avail.y));
    ctx.caption.title = edge_caption.empty() ? "Layout planning" : edge_caption;
    if (plan_ok_) {
        const size_t nm = plan_.initial.mismatches.size(), nd = plan_.decisions.size();
        char buf[160];
        std::snprintf(buf, sizeof buf, "%zu mismatch%s before deciding, %zu decision%s", nm,
                      nm == 1 ? "" : "es", nd, nd == 1 ? "" : "s");
        ctx.caption.formula = buf;
    } else if (!error_.empty()) {
        ctx.caption.formula = "error: " + error_;
    }
}

void PlanningPanel::draw(AppContext& ctx) {
    if (ctx.present) {
        draw_present(ctx);
        return;
    }
    screen_ = nlohmann::json::object();
    dark_ = ctx.dark_theme;
    draw_toolbar();
    if (!error_.empty()) {
        ImGui::TextColored(render::theme_colour(render::Role::error), tr("error: %s"),
                           tr_text(error_).c_str());
        ctx.status = "planning: " + error_;
    }
    float line = ImGui::GetTextLineHeight();
    float graph_h = std::clamp(float(planning::graph_rows(graph_)) * (4 * line + 40) + 40, 180.f,
                               ImGui::GetContentRegionAvail().y * 0.42f);
    // A graph wider than the window shrinks its type (down to 0.7) before it
    // scrolls sideways (on a projector conv2 was off the right edge).
    // Fitted before drawing (fitted from the drawn size, the first frame drew
    // the graph at full size, "Conv NHWC" cut by the pane's edge in Chinese).
    const float room = ImGui::GetContentRegionAvail().x - 2 * ImGui::GetStyle().WindowPadding.x - 8;
    for (int k = 0; k < 4; ++k) {
        ImGui::SetWindowFontScale(graph_scale_);
        const float w = planning::graph_content_size(graph_, plan_ok_ ? &plan_ : nullptr).x;
        if (w <= room && (graph_scale_ >= 1 || w >= 0.85f * room)) break;
        graph_scale_ = std::clamp(graph_scale_ * 0.96f * room / std::max(1.f, w), 0.7f, 1.f);
    }
    ImGui::SetWindowFontScale(graph_scale_);
    // While the type is being fitted the graph shows no scroll bar (one that
    // appeared in the first frame stayed for the next).
    planning::GraphClick click =
        planning::draw_graph(graph_, plan_ok_ ? &plan_ : nullptr, selected_node_, selected_edge_,
                             graph_h, graph_scale_ <= 0.701f);
    ImGui::SetWindowFontScale(1.f);
    {
        const ImVec2 ga = ImGui::GetItemRectMin(), gb = ImGui::GetItemRectMax();
        screen_["graph"] = {{"content", {click.content.x, click.content.y}},
                            {"box", {ga.x, ga.y, gb.x, gb.y}},
                            {"texts", graph_texts_json(click.texts)}};
    }
    if (click.edge >= 0) {
        selected_edge_ = click.edge;
        tab_ = 0;
        tab_request_ = true;
    } else if (click.node >= 0) {
        selected_node_ = click.node;
        tab_ = 1;
        tab_request_ = true;
    }
    draw_legend();
    if (plan_ok_) {
        int rounds = 0;
        for (const auto& d : plan_.decisions) rounds = std::max(rounds, d.round);
        const size_t nm = plan_.initial.mismatches.size(), nd = plan_.decisions.size();
        ImGui::TextWrapped(
            tr("%zu mismatch%s before deciding; %zu decision%s in %d round%s (each decision "
               "re-propagates the layouts below it); * picked by hand, (new) appeared after a "
               "decision"),
            nm, nm == 1 ? "" : "es", nd, nd == 1 ? "" : "s", rounds, rounds == 1 ? "" : "s");
    }
    if (ImGui::BeginTabBar("planning_tabs")) {
        const char* labels[] = {trn("Mismatch and strategies"), trn("Edit the graph"),
                                trn("NoC distributed transpose")};
        for (int k = 0; k < 3; ++k) {
            ImGuiTabItemFlags f = tab_request_ && tab_ == k ? ImGuiTabItemFlags_SetSelected : 0;
            if (ImGui::BeginTabItem(tr_id(labels[k]), nullptr, f)) {
                if (!tab_request_) tab_ = k;
                if (k == 0) draw_decision();
                if (k == 1) draw_editor();
                if (k == 2) draw_noc();
                ImGui::EndTabItem();
            }
        }
        tab_request_ = false;
        ImGui::EndTabBar();
    }
}

}  // namespace

std::unique_ptr<Panel> make_planning_panel() {
    return std::make_unique<PlanningPanel>();
}

}  // namespace ll::gui
