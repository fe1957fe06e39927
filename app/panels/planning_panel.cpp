// The planning panel: an operator graph with its propagated layouts, every
// mismatch with its candidate strategies side by side, and the NoC
// distributed transpose animated on a grid of PEs.
//
// Sections: [state] [engine] [graph canvas] [decision] [editing] [noc]
//
// State kept apart: the engine's data (graph_, plan_, noc_; rebuilt only
// when the graph, the memory model or the NoC settings change), the saved
// settings (graph JSON, memory model, picked strategies, NoC config), and the
// animation (noc_t_, playing_) advanced only in update(dt).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "app/panels/panel.hpp"
#include "core/error.hpp"
#include "core/netplan/examples.hpp"
#include "core/netplan/noc.hpp"
#include "core/netplan/strategy.hpp"

namespace ll::gui {

namespace {

using namespace ll::netplan;

// ---- [state] -------------------------------------------------------------------

const ImU32 kNodeFill = IM_COL32(52, 72, 104, 255);
const ImU32 kNodeSensitive = IM_COL32(92, 64, 120, 255);
const ImU32 kNodeSel = IM_COL32(250, 200, 90, 255);
const ImU32 kEdgeOk = IM_COL32(150, 170, 190, 255);
const ImU32 kEdgeBad = IM_COL32(240, 90, 80, 255);
const ImU32 kText = IM_COL32(235, 235, 235, 255);
const char* kLayouts4[] = {"NCHW", "NHWC", "NCWH", "NHCW", "CHWN", "HWCN", "NWHC"};

class PlanningPanel : public Panel {
  public:
    PlanningPanel() {
        load_example(0);
        rebuild_noc();
    }
    const char* title() const override { return "Layout planning"; }
    void update(double dt) override;
    void draw(AppContext& ctx) override;
    bool busy() const override { return playing_; }
    nlohmann::json save_settings() const override;
    void load_settings(const nlohmann::json& j) override;

  private:
    void load_example(int k);
    void replan();
    void draw_model();
    void draw_graph();
    void draw_decision();
    void draw_editor();
    void draw_noc();
    void rebuild_noc();
    const Decision* decision_for_edge(size_t edge) const;

    Graph graph_;
    NetPlan plan_;
    bool plan_ok_ = false;
    std::string error_;
    MemoryModel model_;
    std::map<size_t, Strategy> picked_;  // edge -> strategy chosen by the user
    int example_ = 0;
    int selected_node_ = -1;
    long selected_edge_ = -1;

    NocConfig noc_cfg_;
    NocPlan noc_;
    std::string noc_error_;
    float noc_t_ = 0;
    bool playing_ = false;
    bool noc_open_ = false;  // open the NoC section on the next frame
};

// ---- [engine] ------------------------------------------------------------------

void PlanningPanel::load_example(int k) {
    example_ = k;
    graph_ = example_graph(example_names()[size_t(k)]);
    picked_.clear();
    selected_node_ = -1;
    selected_edge_ = -1;
    replan();
    if (plan_ok_ && !plan_.propagation.mismatches.empty())
        selected_edge_ = long(plan_.propagation.mismatches[0]);
}

void PlanningPanel::replan() {
    try {
        validate(graph_);
        plan_ = plan_network(graph_, model_);
        // The user's picks replace the planner's choice where still possible.
        for (auto& d : plan_.decisions) {
            auto it = picked_.find(d.edge);
            if (it == picked_.end()) continue;
            for (const auto& c : d.candidates)
                if (c.strategy == it->second && c.feasible) configure(d, it->second);
        }
        plan_ok_ = true;
        error_.clear();
    } catch (const UsageError& e) {
        plan_ok_ = false;
        error_ = e.what();
    }
}

const Decision* PlanningPanel::decision_for_edge(size_t edge) const {
    for (const auto& d : plan_.decisions)
        if (d.edge == edge) return &d;
    return nullptr;
}

void PlanningPanel::update(double dt) {
    if (!playing_) return;
    int64_t max_hops = 1;
    for (const auto& b : noc_.blocks) max_hops = std::max(max_hops, b.hops());
    noc_t_ += float(dt) * 0.8f;
    if (noc_t_ > float(max_hops) + 0.6f) noc_t_ = 0;
}

nlohmann::json PlanningPanel::save_settings() const {
    nlohmann::json j;
    j["graph"] = graph_to_json(graph_);
    j["model"] = {{"dram_gbps", model_.dram_gbps},
                  {"sram_gbps", model_.sram_gbps},
                  {"elem_bytes", model_.elem_bytes},
                  {"burst_bytes", model_.burst_bytes},
                  {"dma", model_.dma}};
    j["picked"] = nlohmann::json::object();
    for (const auto& [e, s] : picked_) j["picked"][std::to_string(e)] = strategy_name(s);
    j["noc"] = {{"rows", noc_cfg_.rows}, {"cols", noc_cfg_.cols}, {"pes", noc_cfg_.pes}};
    j["selected_edge"] = selected_edge_;
    j["playing"] = playing_;
    j["noc_t"] = noc_t_;
    return j;
}

void PlanningPanel::load_settings(const nlohmann::json& j) {
    if (j.contains("graph")) graph_ = parse_graph(j["graph"]);
    if (j.contains("model")) {
        const auto& m = j["model"];
        model_.dram_gbps = m.value("dram_gbps", model_.dram_gbps);
        model_.sram_gbps = m.value("sram_gbps", model_.sram_gbps);
        model_.elem_bytes = m.value("elem_bytes", model_.elem_bytes);
        model_.burst_bytes = m.value("burst_bytes", model_.burst_bytes);
        model_.dma = m.value("dma", model_.dma);
        check(model_);
    }
    picked_.clear();
    if (j.contains("picked") && j["picked"].is_object())
        for (const auto& [k, v] : j["picked"].items())
            for (Strategy s : {Strategy::ProducerWrite, Strategy::ConsumerRead,
                               Strategy::MemoryCopyFused, Strategy::Standalone})
                if (v.is_string() && v.get<std::string>() == strategy_name(s))
                    picked_[size_t(std::stoul(k))] = s;
    if (j.contains("noc")) {
        noc_cfg_.rows = j["noc"].value("rows", noc_cfg_.rows);
        noc_cfg_.cols = j["noc"].value("cols", noc_cfg_.cols);
        noc_cfg_.pes = j["noc"].value("pes", noc_cfg_.pes);
    }
    selected_edge_ = j.value("selected_edge", -1L);
    noc_open_ = j.value("noc_open", false);
    playing_ = j.value("playing", false);
    noc_t_ = j.value("noc_t", 0.0f);
    replan();
    if (!plan_ok_) throw UsageError(error_);
    rebuild_noc();
}

// ---- [graph canvas] ---------------------------------------------------------------

void PlanningPanel::draw_graph() {
    const auto& nodes = graph_.nodes;
    std::vector<int> depth(nodes.size(), 0), row(nodes.size(), 0);
    std::map<int, int> per_col;
    for (size_t i = 0; i < nodes.size(); ++i) {
        for (const auto& in : nodes[i].inputs) {
            int k = graph_.index_of(in);
            if (k >= 0 && k < int(i)) depth[i] = std::max(depth[i], depth[size_t(k)] + 1);
        }
        row[i] = per_col[depth[i]]++;
    }
    int max_rows = 1;
    for (const auto& [c, n] : per_col) max_rows = std::max(max_rows, n);
    const float col_w = 250, row_h = 74, box_w = 120, box_h = 40;
    ImVec2 size(std::max(ImGui::GetContentRegionAvail().x, 200.f),
                std::max(140.f, row_h * float(max_rows) + 30));
    ImGui::BeginChild("graph", size, true, ImGuiWindowFlags_HorizontalScrollbar);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImVec2 o = ImGui::GetCursorScreenPos();
    float width = col_w * float(per_col.size()) + 20;
    ImGui::InvisibleButton("canvas", ImVec2(std::max(width, size.x - 20), size.y - 20));
    bool clicked = ImGui::IsItemClicked(0);
    auto pos = [&](size_t i) {
        return ImVec2(o.x + 10 + col_w * float(depth[i]), o.y + 10 + row_h * float(row[i]));
    };
    // Edges first, under the nodes; their labels last, over everything.
    struct Label {
        size_t edge;
        ImVec2 a, b;
        ImU32 col;
        bool bad, sel;
    };
    std::vector<Label> labels;
    if (plan_ok_) {
        const auto& edges = plan_.propagation.edges;
        for (size_t ei = 0; ei < edges.size(); ++ei) {
            const Edge& e = edges[ei];
            ImVec2 a = pos(size_t(e.producer)), b = pos(size_t(e.consumer));
            a = ImVec2(a.x + box_w, a.y + box_h / 2);
            b = ImVec2(b.x, b.y + box_h / 2 + float(e.slot) * 8 - 4);
            bool bad = e.mismatch();
            bool sel = long(ei) == selected_edge_;
            ImU32 col = bad ? kEdgeBad : kEdgeOk;
            dl->AddBezierCubic(a, ImVec2(a.x + 40, a.y), ImVec2(b.x - 40, b.y), b, col,
                               sel ? 3.5f : 1.6f);
            dl->AddTriangleFilled(b, ImVec2(b.x - 7, b.y - 4), ImVec2(b.x - 7, b.y + 4), col);
            labels.push_back({ei, a, b, col, bad, sel});
        }
    }
    for (size_t i = 0; i < nodes.size(); ++i) {
        ImVec2 p = pos(i), q(p.x + box_w, p.y + box_h);
        dl->AddRectFilled(p, q, is_layout_sensitive(nodes[i].op) ? kNodeSensitive : kNodeFill, 5);
        dl->AddRect(p, q, int(i) == selected_node_ ? kNodeSel : IM_COL32(20, 20, 20, 255), 5, 0,
                    int(i) == selected_node_ ? 2.5f : 1.f);
        std::string l1 = nodes[i].name, l2 = op_name(nodes[i].op);
        if (plan_ok_) l2 += "  " + order_name(plan_.propagation.nodes[i].layout);
        dl->AddText(ImVec2(p.x + 6, p.y + 4), kText, l1.c_str());
        dl->AddText(ImVec2(p.x + 6, p.y + 21), IM_COL32(190, 200, 215, 255), l2.c_str());
        if (clicked && ImGui::IsMouseHoveringRect(p, q)) {
            selected_node_ = int(i);
            clicked = false;
        }
    }
    for (const Label& l : labels) {
        const Edge& e = plan_.propagation.edges[l.edge];
        const size_t ei = l.edge;
        const ImVec2 a = l.a, b = l.b;
        const ImU32 col = l.col;
        const bool bad = l.bad, sel = l.sel;
        std::string label = order_name(e.produced);
        if (bad) {
            label += " -> " + order_name(*e.expected);
            if (const Decision* d = decision_for_edge(ei))
                label += std::string("\n") + strategy_name(d->strategy);
        }
        ImVec2 ts = ImGui::CalcTextSize(label.c_str());
        ImVec2 mid((a.x + b.x - ts.x) / 2, (a.y + b.y - ts.y) / 2 - 8);
        dl->AddRectFilled(ImVec2(mid.x - 3, mid.y - 1), ImVec2(mid.x + ts.x + 3, mid.y + ts.y + 1),
                          IM_COL32(20, 24, 30, sel ? 250 : 200), 3);
        if (bad || sel)
            dl->AddRect(ImVec2(mid.x - 3, mid.y - 1), ImVec2(mid.x + ts.x + 3, mid.y + ts.y + 1),
                        col, 3);
        dl->AddText(mid, bad ? kEdgeBad : kText, label.c_str());
        if (clicked && ImGui::IsMouseHoveringRect(ImVec2(mid.x - 3, mid.y - 1),
                                                  ImVec2(mid.x + ts.x + 3, mid.y + ts.y + 1))) {
            selected_edge_ = long(ei);
            clicked = false;
        }
    }
    ImGui::EndChild();
}

// ---- [decision] -------------------------------------------------------------------

void PlanningPanel::draw_decision() {
    if (!plan_ok_ || selected_edge_ < 0 ||
        size_t(selected_edge_) >= plan_.propagation.edges.size()) {
        ImGui::TextDisabled("Click an edge label (red = mismatch) to see its strategies.");
        return;
    }
    const Edge& e = plan_.propagation.edges[size_t(selected_edge_)];
    const Decision* d = decision_for_edge(size_t(selected_edge_));
    ImGui::Text("%s -> %s  (slot %d), tensor %s", graph_.nodes[size_t(e.producer)].name.c_str(),
                graph_.nodes[size_t(e.consumer)].name.c_str(), e.slot, to_string(e.shape).c_str());
    if (!d) {
        ImGui::Text("stored %s, %s: no transform needed", order_name(e.produced).c_str(),
                    e.expected ? "expected the same" : "consumer accepts any layout");
        return;
    }
    ImGui::TextWrapped("%s %s -> %s %s, %.1f KB; rule: %s", order_name(d->source).c_str(),
                       tuple_string(d->source).c_str(), order_name(d->target).c_str(),
                       tuple_string(d->target).c_str(), double(d->tensor_bytes) / 1024.0,
                       d->rule.c_str());
    double max_t = 0;
    for (const auto& c : d->candidates)
        if (c.feasible) max_t = std::max(max_t, c.time_us);
    if (ImGui::BeginTable("cands", 5, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg)) {
        ImGui::TableSetupColumn("use", ImGuiTableColumnFlags_WidthFixed, 30);
        ImGui::TableSetupColumn("strategy", ImGuiTableColumnFlags_WidthFixed, 170);
        ImGui::TableSetupColumn("DRAM traffic", ImGuiTableColumnFlags_WidthFixed, 130);
        ImGui::TableSetupColumn("time", ImGuiTableColumnFlags_WidthFixed, 150);
        ImGui::TableSetupColumn("how");
        ImGui::TableHeadersRow();
        for (const auto& c : d->candidates) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::PushID(int(c.strategy));
            bool on = d->strategy == c.strategy;
            if (!c.feasible || c.strategy == Strategy::Offline) ImGui::BeginDisabled();
            if (ImGui::RadioButton("##use", on) && !on) {
                picked_[size_t(selected_edge_)] = c.strategy;
                ImGui::PopID();
                if (!c.feasible || c.strategy == Strategy::Offline) ImGui::EndDisabled();
                ImGui::EndTable();
                replan();
                return;
            }
            if (!c.feasible || c.strategy == Strategy::Offline) ImGui::EndDisabled();
            ImGui::PopID();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(strategy_name(c.strategy));
            ImGui::TableNextColumn();
            ImGui::Text("%.0f KB (+%.0f)", c.dram_bytes / 1024, c.extra_dram_bytes / 1024);
            ImGui::TableNextColumn();
            if (c.feasible) {
                char buf[32];
                std::snprintf(buf, sizeof buf, "%.2f us", c.time_us);
                ImGui::ProgressBar(max_t > 0 ? float(c.time_us / max_t) : 0, ImVec2(140, 0), buf);
            } else {
                ImGui::TextDisabled("n/a");
            }
            ImGui::TableNextColumn();
            ImGui::TextWrapped("%s", c.feasible ? c.detail.c_str() : c.why_not.c_str());
        }
        ImGui::EndTable();
    }
    if (picked_.count(size_t(selected_edge_)) &&
        ImGui::SmallButton("back to the planner's choice")) {
        picked_.erase(size_t(selected_edge_));
        replan();
        return;
    }
    ImGui::Separator();
    ImGui::Text("strategy: %s   (stored in DRAM as %s)", strategy_name(d->strategy),
                order_name(d->stored_layout).c_str());
    for (const auto& [k, v] : d->strides)
        ImGui::BulletText("%s: %s", k.c_str(), tuple_string(v).c_str());
    ImGui::Text("index %s: %s offset %lld, %s offset %lld", tuple_string(d->example_index).c_str(),
                order_name(d->source).c_str(), (long long)d->example_source_offset,
                order_name(d->target).c_str(), (long long)d->example_target_offset);
}

// ---- [editing] --------------------------------------------------------------------

void PlanningPanel::draw_editor() {
    if (selected_node_ < 0 || size_t(selected_node_) >= graph_.nodes.size()) {
        ImGui::TextDisabled("Click a node to edit it.");
        return;
    }
    Node& n = graph_.nodes[size_t(selected_node_)];
    ImGui::Text("node '%s' (%s)", n.name.c_str(), op_name(n.op));
    bool changed = false;
    size_t rank = plan_ok_ ? plan_.propagation.nodes[size_t(selected_node_)].shape.size() : 0;
    auto layout_combo = [&](const char* label, nlohmann::json& slot) {
        std::string cur = slot.is_string() ? slot.get<std::string>() : "(default)";
        if (ImGui::BeginCombo(label, cur.c_str())) {
            if (ImGui::Selectable("(default)", slot.is_null())) {
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
            layout_combo("preferred input layout", n.input_layouts[0]);
        }
        if (n.op != OpKind::Transpose && n.op != OpKind::Reshape)
            layout_combo("output layout", n.layout);
        layout_combo("compute order", n.compute_order);
    } else {
        ImGui::TextDisabled("layouts editable here for rank-4 tensors only");
    }
    auto unique = [&](const std::string& base) {
        for (int k = 1;; ++k) {
            std::string s = base + std::to_string(k);
            if (graph_.index_of(s) < 0) return s;
        }
    };
    // Buttons below may grow graph_.nodes: n must not be used after this point.
    const std::string me = n.name;
    const OpKind my_op = n.op;
    if (ImGui::Button("add ReLU after")) {
        Node r;
        r.name = unique("relu");
        r.op = OpKind::ReLU;
        r.inputs = {me};
        for (auto& u : graph_.nodes)
            for (auto& in : u.inputs)
                if (in == me) in = r.name;
        graph_.nodes.push_back(r);
        changed = true;
    }
    ImGui::SameLine();
    if (!changed && rank == 4 && ImGui::Button("add NHWC conv consumer")) {
        Node c;
        c.name = unique("conv");
        c.op = OpKind::Conv;
        c.inputs = {me};
        c.input_layouts = {"NHWC"};
        c.layout = "NHWC";
        graph_.nodes.push_back(c);
        changed = true;
    }
    ImGui::SameLine();
    if (!changed && my_op != OpKind::Input && my_op != OpKind::Weight && ImGui::Button("remove")) {
        // Users of the removed node read its first input instead.
        std::string feed = graph_.nodes[size_t(selected_node_)].inputs.at(0);
        graph_.nodes.erase(graph_.nodes.begin() + selected_node_);
        for (auto& u : graph_.nodes)
            for (auto& in : u.inputs)
                if (in == me) in = feed;
        selected_node_ = -1;
        changed = true;
    }
    if (changed) {
        picked_.clear();
        selected_edge_ = -1;
        replan();
        if (plan_ok_ && !plan_.propagation.mismatches.empty())
            selected_edge_ = long(plan_.propagation.mismatches[0]);
    }
}

void PlanningPanel::draw_model() {
    const auto names = example_names();
    if (ImGui::BeginCombo("example", names[size_t(example_)].c_str())) {
        for (size_t k = 0; k < names.size(); ++k)
            if (ImGui::Selectable(names[k].c_str(), int(k) == example_)) load_example(int(k));
        ImGui::EndCombo();
    }
    bool ch = false;
    float bw = float(model_.dram_gbps), sbw = float(model_.sram_gbps);
    int eb = int(model_.elem_bytes);
    ImGui::SetNextItemWidth(160);
    ch |= ImGui::SliderFloat("DRAM GB/s", &bw, 10, 1000, "%.0f");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(160);
    ch |= ImGui::SliderFloat("SRAM GB/s", &sbw, 50, 4000, "%.0f");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(100);
    ch |= ImGui::SliderInt("elem bytes", &eb, 1, 8);
    ImGui::SameLine();
    ch |= ImGui::Checkbox("DMA", &model_.dma);
    if (ch) {
        model_.dram_gbps = bw;
        model_.sram_gbps = sbw;
        model_.elem_bytes = eb;
        model_.burst_bytes = std::max<int64_t>(model_.burst_bytes, model_.elem_bytes);
        replan();
    }
}

// ---- [noc] ------------------------------------------------------------------------

void PlanningPanel::rebuild_noc() {
    try {
        noc_ = plan_distributed_transpose(noc_cfg_);
        noc_error_.clear();
    } catch (const UsageError& e) {
        noc_error_ = e.what();
    }
}

void PlanningPanel::draw_noc() {
    int v[3] = {int(noc_cfg_.rows), int(noc_cfg_.cols), int(noc_cfg_.pes)};
    ImGui::SetNextItemWidth(240);
    if (ImGui::InputInt3("rows, cols, PEs", v)) {
        noc_cfg_.rows = std::clamp(v[0], 1, 4096);
        noc_cfg_.cols = std::clamp(v[1], 1, 4096);
        noc_cfg_.pes = std::clamp(v[2], 1, 64);
        rebuild_noc();
    }
    ImGui::SameLine();
    if (ImGui::Button(playing_ ? "pause" : "play")) playing_ = !playing_;
    if (!noc_error_.empty()) {
        ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "%s", noc_error_.c_str());
        return;
    }
    ImGui::Text("%lldx%lld mesh: %lld B over the network, %lld B local, max link %lld B (%.3f us)",
                (long long)noc_.mesh_rows, (long long)noc_.mesh_cols, (long long)noc_.network_bytes,
                (long long)noc_.local_bytes, (long long)noc_.max_link_bytes, noc_.time_us);
    const float cell = 90;
    ImVec2 o = ImGui::GetCursorScreenPos();
    ImGui::Dummy(ImVec2(cell * float(noc_.mesh_cols) + 20, cell * float(noc_.mesh_rows) + 10));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    auto centre = [&](int64_t pe) {
        auto [x, y] = mesh_xy(pe, noc_.mesh_cols);
        return ImVec2(o.x + 40 + cell * float(x), o.y + 30 + cell * float(y));
    };
    for (const auto& [link, bytes] : noc_.link_bytes) {
        ImVec2 a = centre(link.first), b = centre(link.second);
        // Offset the two directions of a link so both stay visible.
        float nx = -(b.y - a.y) / cell * 5, ny = (b.x - a.x) / cell * 5;
        float w = 1 + 5 * float(bytes) / float(std::max<int64_t>(1, noc_.max_link_bytes));
        dl->AddLine(ImVec2(a.x + nx, a.y + ny), ImVec2(b.x + nx, b.y + ny),
                    IM_COL32(120, 160, 220, 200), w);
    }
    for (int64_t pe = 0; pe < noc_cfg_.pes; ++pe) {
        ImVec2 c = centre(pe);
        dl->AddRectFilled(ImVec2(c.x - 18, c.y - 18), ImVec2(c.x + 18, c.y + 18),
                          IM_COL32(60, 80, 70, 255), 4);
        std::string label = "PE" + std::to_string(pe);
        dl->AddText(ImVec2(c.x - 14, c.y - 7), kText, label.c_str());
    }
    for (const auto& b : noc_.blocks) {
        if (b.src_pe == b.dst_pe) continue;
        float t = std::clamp(noc_t_, 0.f, float(b.hops()));
        size_t k = std::min(size_t(t), b.route.size() - 2);
        float f = t - float(k);
        ImVec2 a = centre(b.route[k]), c = centre(b.route[k + 1]);
        ImVec2 p(a.x + (c.x - a.x) * f, a.y + (c.y - a.y) * f);
        float hue = float(b.src_pe) / float(std::max<int64_t>(1, noc_cfg_.pes));
        ImVec4 rgb;
        ImGui::ColorConvertHSVtoRGB(hue, 0.7f, 1.0f, rgb.x, rgb.y, rgb.z);
        float jitter = float(b.dst_pe % 4) * 3 - 4.5f;
        dl->AddCircleFilled(ImVec2(p.x + jitter, p.y + jitter), 5,
                            ImGui::ColorConvertFloat4ToU32(ImVec4(rgb.x, rgb.y, rgb.z, 1)));
    }
}

void PlanningPanel::draw(AppContext& ctx) {
    draw_model();
    if (!error_.empty()) {
        ImGui::TextColored(ImVec4(1, 0.42f, 0.38f, 1), "error: %s", error_.c_str());
        ctx.status = "planning: " + error_;
    }
    draw_graph();
    if (plan_ok_)
        ImGui::Text("%zu mismatches, %zu decisions", plan_.propagation.mismatches.size(),
                    plan_.decisions.size());
    if (ImGui::CollapsingHeader("Mismatch and strategies", ImGuiTreeNodeFlags_DefaultOpen))
        draw_decision();
    if (ImGui::CollapsingHeader("Edit the graph", ImGuiTreeNodeFlags_DefaultOpen)) draw_editor();
    if (noc_open_) {
        ImGui::SetNextItemOpen(true);
        noc_open_ = false;
    }
    if (ImGui::CollapsingHeader("NoC distributed transpose")) draw_noc();
}

}  // namespace

std::unique_ptr<Panel> make_planning_panel() {
    return std::make_unique<PlanningPanel>();
}

}  // namespace ll::gui
