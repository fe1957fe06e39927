// Tiling explorer: pick a tensor, layout, tiles and orders; watch the L1
// tiles and L2 sub-tiles being visited in order with each address jump drawn;
// live plots of efficiency and time per level, total time over L1 x L2 order,
// time vs tile size; the sweep's ranking and Pareto front; PNG/SVG/CSV export.
//
// State: the settings (saved); the Result and plot objects (engine data,
// rebuilt when a setting changes); step_ / playing_ (animation, update()).
#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <memory>

#include "app/panels/panel.hpp"
#include "app/plot/imgui_plot.hpp"
#include "app/plot/tiling_plots.hpp"
#include "core/error.hpp"
#include "core/tiling/sweep.hpp"
#include "core/tiling/tiling.hpp"

namespace ll::gui {

namespace {

using namespace ll::tiling;

// Start of block (c, h, w) in elements of a buffer of `frame` extents.
int64_t block_address(const Config& c, const Extent3& frame, int64_t ch, int64_t h, int64_t w) {
    const auto s = frame_strides(c.layout, c.dtype, frame);
    if (c.layout == Layout::NC1HWC0) {
        const int64_t c0 = elems_per_32b(c.dtype);
        return (ch / c0) * frame.h * frame.w * c0 + (ch % c0) + h * s[1] + w * s[2];
    }
    return ch * s[0] + h * s[1] + w * s[2];
}

// Block counts per dimension and the visiting sequence for an order.
struct Grid {
    int64_t n[3] = {1, 1, 1};  // C, H, W
    int64_t count() const { return n[0] * n[1] * n[2]; }
    // k-th block visited (innermost dimension of `o` fastest) -> (ic, ih, iw).
    void at(const Order& o, int64_t k, int64_t out[3]) const {
        for (Dim d : o.inner_to_outer) {
            out[int(d)] = k % n[int(d)];
            k /= n[int(d)];
        }
    }
};

const char* kPlotNames[] = {"Efficiency per level", "Time per level", "Order heatmap",
                            "Time vs tile size", "Sweep: time vs footprint"};

class TilingPanel : public Panel {
  public:
    TilingPanel() { rebuild(); }
    const char* title() const override { return "Tiling"; }
    void update(double dt) override {
        if (!playing_ || !error_.empty()) return;
        step_ += dt * speed_;
        if (step_ >= double(total_steps())) step_ = 0;
    }
    bool busy() const override { return playing_; }
    void draw(AppContext& ctx) override;
    nlohmann::json save_settings() const override {
        return {{"shape", shape_}, {"layout", layout_}, {"dtype", dtype_}, {"l1", l1_},
                {"l2", l2_},       {"o1", o1_},         {"o2", o2_},       {"passes", passes_},
                {"basis", basis_}, {"setup", setup_},   {"bw", bw_},       {"speed", speed_}};
    }
    void load_settings(const nlohmann::json& j) override {
        auto arr = [&](const char* k, auto& a) {
            if (j.contains(k) && j[k].is_array() && j[k].size() == std::size(a))
                for (size_t i = 0; i < std::size(a); ++i)
                    a[i] = j[k][i].get<std::decay_t<decltype(a[0])>>();
        };
        auto num = [&](const char* k, auto& v) {
            if (j.contains(k) && j[k].is_number()) v = j[k].get<std::decay_t<decltype(v)>>();
        };
        arr("shape", shape_);
        arr("l1", l1_);
        arr("l2", l2_);
        arr("setup", setup_);
        arr("bw", bw_);
        num("layout", layout_);
        num("dtype", dtype_);
        num("o1", o1_);
        num("o2", o2_);
        num("passes", passes_);
        num("basis", basis_);
        num("speed", speed_);
        rebuild();
        if (!error_.empty()) throw UsageError("tiling panel settings: " + error_);
    }

  private:
    void rebuild();
    void draw_controls();
    void draw_traversal();
    void draw_export();
    int64_t total_steps() const { return std::max<int64_t>(1, l1_grid_.count() * sub_per_tile_); }

    // settings
    int shape_[4] = {1, 64, 56, 56};
    int layout_ = 0, dtype_ = 6, o1_ = 0, o2_ = 0, passes_ = 4, basis_ = 0;
    int l1_[3] = {16, 14, 14}, l2_[3] = {4, 7, 7};
    float setup_[2] = {0, 0}, bw_[3] = {100, 500, 2000};
    float speed_ = 6;
    // engine data
    Config cfg_;
    Result res_;
    std::string error_;
    Grid l1_grid_;
    int64_t sub_per_tile_ = 1;
    std::unique_ptr<plot::LevelBars> bars_;
    std::unique_ptr<plot::OrderHeatmap> heat_;
    std::unique_ptr<plot::TileSizeLines> lines_;
    int lines_dim_ = 2;
    std::unique_ptr<SweepResult> sweep_;
    std::unique_ptr<plot::SweepScatter> scatter_;
    // animation and export
    double step_ = 0;
    bool playing_ = true;
    int export_plot_ = 2;
    char export_path_[512] = "/tmp/tiling_plot";
    std::string export_msg_;
};

void TilingPanel::rebuild() {
    error_.clear();
    try {
        for (int& d : shape_) d = std::max(1, d);
        for (int i = 0; i < 3; ++i) {
            l1_[i] = std::clamp(l1_[i], 1, shape_[i + 1]);
            l2_[i] = std::clamp(l2_[i], 1, l1_[i]);
        }
        layout_ = std::clamp(layout_, 0, int(all_layouts().size()) - 1);
        dtype_ = std::clamp(dtype_, 0, int(all_dtypes().size()) - 1);
        o1_ = std::clamp(o1_, 0, 5);
        o2_ = std::clamp(o2_, 0, 5);
        Config c;
        c.shape = {shape_[0], shape_[1], shape_[2], shape_[3]};
        c.layout = all_layouts()[size_t(layout_)];
        c.dtype = all_dtypes()[size_t(dtype_)];
        c.l1_tile = {l1_[0], l1_[1], l1_[2]};
        c.l2_tile = {l2_[0], l2_[1], l2_[2]};
        c.l1_order = all_orders()[size_t(o1_)];
        c.l2_order = all_orders()[size_t(o2_)];
        c.l2_passes = passes_;
        c.basis = basis_ ? StrideBasis::source : StrideBasis::destination;
        c.mem.dram.setup_ns = setup_[0];
        c.mem.sram.setup_ns = setup_[1];
        c.mem.dram.bandwidth_gbps = bw_[0];
        c.mem.sram.bandwidth_gbps = bw_[1];
        c.mem.reg.bandwidth_gbps = bw_[2];
        res_ = evaluate(c);
        cfg_ = c;
        for (int i = 0; i < 3; ++i) l1_grid_.n[i] = ceil_div(shape_[i + 1], l1_[i]);
        sub_per_tile_ =
            ceil_div(l1_[0], l2_[0]) * ceil_div(l1_[1], l2_[1]) * ceil_div(l1_[2], l2_[2]);
        bars_ = std::make_unique<plot::LevelBars>(c);
        heat_ = std::make_unique<plot::OrderHeatmap>(c);
        lines_ = std::make_unique<plot::TileSizeLines>(c, Dim(lines_dim_));
        if (step_ >= double(total_steps())) step_ = 0;
    } catch (const UsageError& e) {
        error_ = e.what();
    }
}

void TilingPanel::draw_controls() {
    bool changed = false;
    ImGui::TextUnformatted("Tensor (N, C, H, W)");
    changed |= ImGui::SliderInt("N", &shape_[0], 1, 8);
    changed |= ImGui::SliderInt("C", &shape_[1], 1, 512);
    changed |= ImGui::SliderInt("H", &shape_[2], 1, 224);
    changed |= ImGui::SliderInt("W", &shape_[3], 1, 224);
    const char* layouts[] = {"NCHW", "NHWC", "NC1HWC0"};
    changed |= ImGui::Combo("layout", &layout_, layouts, 3);
    std::vector<const char*> dts;
    for (DType t : all_dtypes()) dts.push_back(name(t));
    changed |= ImGui::Combo("dtype", &dtype_, dts.data(), int(dts.size()));
    ImGui::Separator();
    ImGui::TextUnformatted("L1 tile (C, H, W): DRAM -> SRAM");
    changed |= ImGui::SliderInt("tile C", &l1_[0], 1, shape_[1]);
    changed |= ImGui::SliderInt("tile H", &l1_[1], 1, shape_[2]);
    changed |= ImGui::SliderInt("tile W", &l1_[2], 1, shape_[3]);
    std::vector<std::string> on;
    for (const Order& o : all_orders()) on.push_back(to_string(o));
    std::vector<const char*> op;
    for (const auto& s : on) op.push_back(s.c_str());
    changed |= ImGui::Combo("L1 order", &o1_, op.data(), 6);
    ImGui::TextUnformatted("L2 sub-tile (C, H, W): SRAM -> registers");
    changed |= ImGui::SliderInt("sub C", &l2_[0], 1, l1_[0]);
    changed |= ImGui::SliderInt("sub H", &l2_[1], 1, l1_[1]);
    changed |= ImGui::SliderInt("sub W", &l2_[2], 1, l1_[2]);
    changed |= ImGui::Combo("L2 order", &o2_, op.data(), 6);
    ImGui::Separator();
    changed |= ImGui::SliderInt("L2 passes", &passes_, 1, 16);
    const char* bases[] = {"destination (table)", "source (15.2 prose)"};
    changed |= ImGui::Combo("stride basis", &basis_, bases, 2);
    changed |= ImGui::SliderFloat("DRAM GB/s", &bw_[0], 1, 2000, "%.0f");
    changed |= ImGui::SliderFloat("SRAM GB/s", &bw_[1], 1, 5000, "%.0f");
    changed |= ImGui::SliderFloat("Reg GB/s", &bw_[2], 1, 20000, "%.0f");
    changed |= ImGui::SliderFloat("setup ns/tile", &setup_[0], 0, 500, "%.0f");
    changed |= ImGui::SliderFloat("setup ns/sub", &setup_[1], 0, 50, "%.1f");
    if (ImGui::Button("Document row 1")) {
        const int shape[4] = {1, 64, 56, 56}, l1[3] = {16, 14, 14}, l2[3] = {4, 7, 7};
        std::copy(shape, shape + 4, shape_);
        std::copy(l1, l1 + 3, l1_);
        std::copy(l2, l2 + 3, l2_);
        layout_ = o1_ = o2_ = basis_ = 0;
        dtype_ = 6;
        passes_ = 4;
        setup_[0] = setup_[1] = 0;
        bw_[0] = 100, bw_[1] = 500, bw_[2] = 2000;
        changed = true;
    }
    ImGui::SameLine();
    if (ImGui::Button("Row 4 (NHWC W_H_C)")) {
        layout_ = 1;
        o1_ = o2_ = 0;
        changed = true;
    }
    if (changed) rebuild();
}

void TilingPanel::draw_traversal() {
    ImGui::Checkbox("play", &playing_);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(160);
    ImGui::SliderFloat("sub-tiles / s", &speed_, 0.5f, 200.0f, "%.1f",
                       ImGuiSliderFlags_Logarithmic);
    ImGui::SameLine();
    float st = float(step_);
    ImGui::SetNextItemWidth(-1);
    if (ImGui::SliderFloat("##step", &st, 0, float(total_steps() - 1), "step %.0f")) {
        step_ = st;
        playing_ = false;
    }
    const int64_t step = int64_t(step_);
    const int64_t k = step / sub_per_tile_, j = step % sub_per_tile_;
    const Extent3 tensor{cfg_.shape[1], cfg_.shape[2], cfg_.shape[3]};
    int64_t cur[3], prev[3];
    l1_grid_.at(cfg_.l1_order, k, cur);
    l1_grid_.at(cfg_.l1_order, k > 0 ? k - 1 : 0, prev);
    auto tile_addr = [&](const int64_t t[3]) {
        return block_address(cfg_, tensor, t[0] * l1_[0], t[1] * l1_[1], t[2] * l1_[2]);
    };
    const int64_t jump1 = tile_addr(cur) - tile_addr(prev);
    const Extent3 tile{std::min<int64_t>(l1_[0], tensor.c - cur[0] * l1_[0]),
                       std::min<int64_t>(l1_[1], tensor.h - cur[1] * l1_[1]),
                       std::min<int64_t>(l1_[2], tensor.w - cur[2] * l1_[2])};
    Grid sub;
    sub.n[0] = ceil_div(tile.c, l2_[0]);
    sub.n[1] = ceil_div(tile.h, l2_[1]);
    sub.n[2] = ceil_div(tile.w, l2_[2]);
    const int64_t jj = std::min(j, sub.count() - 1);
    int64_t scur[3], sprev[3];
    sub.at(cfg_.l2_order, jj, scur);
    sub.at(cfg_.l2_order, jj > 0 ? jj - 1 : 0, sprev);
    auto sub_addr = [&](const int64_t t[3]) {
        return block_address(cfg_, tile, t[0] * l2_[0], t[1] * l2_[1], t[2] * l2_[2]);
    };
    const int64_t jump2 = sub_addr(scur) - sub_addr(sprev);

    ImGui::Text(
        "L1 tile %lld of %lld at (c,h,w) = (%lld,%lld,%lld): start address jump %+lld elements",
        (long long)k + 1, (long long)l1_grid_.count(), (long long)(cur[0] * l1_[0]),
        (long long)(cur[1] * l1_[1]), (long long)(cur[2] * l1_[2]), (long long)jump1);
    ImGui::Text(
        "  elements inside: order %s steps %c, stride %lld in the tensor, %lld in the tile (eta "
        "%.4g)",
        to_string(cfg_.l1_order).c_str(), dim_char(res_.l1.innermost),
        (long long)res_.l1.source_strides[int(res_.l1.innermost)],
        (long long)res_.l1.dest_strides[int(res_.l1.innermost)], res_.l1.efficiency);
    ImGui::Text(
        "L2 sub-tile %lld of %lld: start address jump %+lld elements in the tile; order %s steps "
        "%c,"
        " stride %lld in the tile, %lld in the sub-tile (eta %.4g)",
        (long long)jj + 1, (long long)sub.count(), (long long)jump2,
        to_string(cfg_.l2_order).c_str(), dim_char(res_.l2.innermost),
        (long long)res_.l2.source_strides[int(res_.l2.innermost)],
        (long long)res_.l2.dest_strides[int(res_.l2.innermost)], res_.l2.efficiency);

    // Two drawings: the tensor's tile grid (one H x W grid per C tile) and the
    // current tile's sub-tile grid, each with the last jump as an arrow.
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImU32 kDone = IM_COL32(120, 160, 220, 255), kTodo = IM_COL32(70, 70, 80, 255),
                kNow = IM_COL32(240, 150, 30, 255), kArrow = IM_COL32(230, 60, 60, 255);
    auto draw_grid = [&](const Grid& g, const Order& o, int64_t visited, const int64_t now[3],
                         const int64_t before[3], int64_t jump, float height, const char* label) {
        const ImVec2 origin = ImGui::GetCursorScreenPos();
        const float avail = ImGui::GetContentRegionAvail().x;
        const float gap = 8;
        const int64_t per_row = std::max<int64_t>(1, std::min<int64_t>(g.n[0], 8));
        const int64_t rows = ceil_div(g.n[0], per_row);
        const float cell =
            std::max(2.0f, std::min((avail - gap * float(per_row)) / float(per_row * g.n[2]),
                                    (height - 36 - gap * float(rows)) / float(rows * g.n[1])));
        ImGui::Text("%s", label);
        const ImVec2 o0(origin.x, origin.y + 36);  // label line, then C block names
        auto center = [&](const int64_t t[3]) {
            const int64_t gx = t[0] % per_row, gy = t[0] / per_row;
            return ImVec2(
                o0.x + float(gx) * (float(g.n[2]) * cell + gap) + (float(t[2]) + 0.5f) * cell,
                o0.y + float(gy) * (float(g.n[1]) * cell + gap) + (float(t[1]) + 0.5f) * cell);
        };
        // Visited blocks are those before `now` in the order.
        std::vector<char> seen(size_t(g.count()), 0);
        for (int64_t v = 0; v < std::min(visited, g.count()); ++v) {
            int64_t t[3];
            g.at(o, v, t);
            seen[size_t((t[0] * g.n[1] + t[1]) * g.n[2] + t[2])] = 1;
        }
        for (int64_t c = 0; c < g.n[0]; ++c)
            for (int64_t h = 0; h < g.n[1]; ++h)
                for (int64_t w = 0; w < g.n[2]; ++w) {
                    const int64_t t[3] = {c, h, w};
                    const ImVec2 m = center(t);
                    const bool is_now = c == now[0] && h == now[1] && w == now[2];
                    const ImU32 col = is_now                                        ? kNow
                                      : seen[size_t((c * g.n[1] + h) * g.n[2] + w)] ? kDone
                                                                                    : kTodo;
                    dl->AddRectFilled(ImVec2(m.x - cell / 2 + 0.5f, m.y - cell / 2 + 0.5f),
                                      ImVec2(m.x + cell / 2 - 0.5f, m.y + cell / 2 - 0.5f), col);
                }
        for (int64_t c = 0; c < g.n[0]; ++c) {
            const int64_t t[3] = {c, 0, 0};
            const ImVec2 m = center(t);
            char b[32];
            std::snprintf(b, sizeof b, "C block %lld", (long long)c);
            if (cell * float(g.n[2]) > 60 && c < per_row && g.n[0] > 1)  // first row only
                dl->AddText(ImVec2(m.x - cell / 2, m.y - cell / 2 - 17),
                            IM_COL32(170, 170, 180, 255), b);
        }
        if (visited > 0) {
            const ImVec2 a = center(before), b = center(now);
            dl->AddLine(a, b, kArrow, 2.5f);
            const ImVec2 d(b.x - a.x, b.y - a.y);
            const float len = std::sqrt(d.x * d.x + d.y * d.y);
            if (len > 1) {
                const ImVec2 u(d.x / len, d.y / len);
                dl->AddTriangleFilled(b, ImVec2(b.x - u.x * 9 - u.y * 5, b.y - u.y * 9 + u.x * 5),
                                      ImVec2(b.x - u.x * 9 + u.y * 5, b.y - u.y * 9 - u.x * 5),
                                      kArrow);
            }
            char t[48];
            std::snprintf(t, sizeof t, "%+lld", (long long)jump);
            dl->AddText(ImVec2((a.x + b.x) / 2 + 4, (a.y + b.y) / 2 - 16), kArrow, t);
        }
        ImGui::Dummy(ImVec2(avail, float(rows) * (float(g.n[1]) * cell + gap) + 36));
    };
    char l1_label[160], l2_label[160];
    std::snprintf(l1_label, sizeof l1_label,
                  "tensor %s in DRAM: %lld L1 tiles, visited %s (H down, W across)",
                  name(cfg_.layout), (long long)l1_grid_.count(), to_string(cfg_.l1_order).c_str());
    std::snprintf(l2_label, sizeof l2_label, "current tile %s in SRAM: %lld sub-tiles, visited %s",
                  tiling::to_string(tile).c_str(), (long long)sub.count(),
                  to_string(cfg_.l2_order).c_str());
    draw_grid(l1_grid_, cfg_.l1_order, k, cur, prev, jump1, 260, l1_label);
    draw_grid(sub, cfg_.l2_order, jj, scur, sprev, jump2, 200, l2_label);
}

void TilingPanel::draw_export() {
    ImGui::SetNextItemWidth(220);
    ImGui::Combo("plot", &export_plot_, kPlotNames, 5);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(260);
    ImGui::InputText("path (no extension)", export_path_, sizeof export_path_);
    const plot::PlotSpec* spec = nullptr;
    switch (export_plot_) {
        case 0:
            spec = bars_ ? &bars_->efficiency : nullptr;
            break;
        case 1:
            spec = bars_ ? &bars_->time : nullptr;
            break;
        case 2:
            spec = heat_ ? &heat_->spec : nullptr;
            break;
        case 3:
            spec = lines_ ? &lines_->spec : nullptr;
            break;
        default:
            spec = scatter_ ? &scatter_->spec : nullptr;
            break;
    }
    for (const char* ext : {"png", "svg", "csv"}) {
        ImGui::SameLine();
        char label[16];
        std::snprintf(label, sizeof label, "%s", ext);
        for (char& ch : label) ch = char(std::toupper(static_cast<unsigned char>(ch)));
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
                export_msg_ = "wrote " + path;
            } catch (const UsageError& e) {
                export_msg_ = std::string("error: ") + e.what();
            }
        }
    }
    if (!export_msg_.empty()) ImGui::TextUnformatted(export_msg_.c_str());
}

void TilingPanel::draw(AppContext& ctx) {
    ImGui::BeginChild("controls", ImVec2(330 * ctx.ui_scale, 0), true);
    draw_controls();
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("views", ImVec2(0, 0), false);
    if (!error_.empty()) {
        ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "error: %s", error_.c_str());
        ImGui::EndChild();
        return;
    }
    ImGui::Text("L1 eff %.4g, L2 eff %.4g, L1 %.2f us + L2 %.2f us = %.2f us, %.2f uJ",
                res_.l1.efficiency, res_.l2.efficiency, res_.l1.time_us, res_.l2.time_us,
                res_.total_us, res_.total_energy_uj);
    ImGui::TextWrapped("L1: %s", res_.l1.reasoning.c_str());
    ImGui::TextWrapped("L2: %s", res_.l2.reasoning.c_str());
    draw_export();
    if (ImGui::BeginTabBar("tiling_tabs")) {
        if (ImGui::BeginTabItem("Traversal")) {
            draw_traversal();
            ImGui::EndTabItem();
        }
        if (ImGui::BeginTabItem("Levels")) {
            const float w = ImGui::GetContentRegionAvail().x / 2 - 4;
            plot::show_plot("eff", bars_->efficiency, ImVec2(w, 340));
            ImGui::SameLine();
            plot::show_plot("time", bars_->time, ImVec2(w, 340));
            ImGui::EndTabItem();
        }
        if (ImGui::BeginTabItem("Order heatmap")) {
            plot::show_plot("heat", heat_->spec, ImVec2(0, 420));
            ImGui::EndTabItem();
        }
        if (ImGui::BeginTabItem("Tile size")) {
            const char* dims[] = {"C", "H", "W"};
            if (ImGui::Combo("vary L1 tile in", &lines_dim_, dims, 3))
                lines_ = std::make_unique<plot::TileSizeLines>(cfg_, Dim(lines_dim_));
            plot::show_plot("lines", lines_->spec, ImVec2(0, 420));
            ImGui::EndTabItem();
        }
        if (ImGui::BeginTabItem("Sweep")) {
            if (ImGui::Button("Run sweep (every order x divisor tile sizes)")) {
                try {
                    SweepSpec s;
                    s.base = cfg_;
                    sweep_ = std::make_unique<SweepResult>(sweep(s));
                    scatter_ = sweep_->rows.empty() ? nullptr
                                                    : std::make_unique<plot::SweepScatter>(*sweep_);
                } catch (const UsageError& e) {
                    export_msg_ = std::string("error: ") + e.what();
                }
            }
            if (sweep_ && scatter_) {
                ImGui::Text("%zu configurations; Pareto front %zu points", sweep_->rows.size(),
                            sweep_->pareto.size());
                plot::show_plot("scatter", scatter_->spec, ImVec2(0, 380));
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
