// GPU side (document 004, "GPU做卷积"): three tabs.
//
// Sections: class GpuPanel (settings, keys) | draw (tab bar) | matrix helpers |
// Winograd (draw_winograd, draw_chain, draw_input) | Tensor Core
// (draw_tensor_core, draw_tile_map) | cuDNN time share (draw_cudnn) |
// presentation mode (draw_present).
//
//   Winograd: F(2x2, 3x3) on a real small input. On the left the input
//     (channel 0) with the chosen 4x4 input tile and its 2x2 output tile
//     framed (click a tile to choose it); on the right the tile's chain
//     d, g -> U = G g G^T, V = B^T d B, M = U (.) V, Y = A^T M A, beside the
//     direct convolution it must equal; above, the multiplication counts
//     (16 vs 36 per tile, totals for Winograd, direct and im2col + GEMM).
//   Tensor Core: D = A x B + C on 4x4 tiles on real numbers (core's
//     tensor_core_run), the operation counts for a GEMM against the Cube's
//     fractal steps, and a 16x16 Cube fractal coloured by the 4x4 Tensor
//     Core tile each element belongs to (core's tile_map).
//   cuDNN time share: the lecture's table as grouped bars (share of each run
//     per kernel role; the NCHW <-> NHWC transform of the Tensor Core GEMM run
//     annotated), the table under it, export to PNG/SVG/CSV.
//   Presentation mode: the tab's picture alone (left/right change tab), its
//     formula and counts in the caption.
// Everything shown comes from core/gpu (winograd_run, cudnn_time_share); the
// CLI twins are `winograd`, `tensorcore` and `cudnn`.
//
// Scene keys: tab ("winograd" | "tensorcore" | "cudnn"), tc_m, tc_k, tc_n, height, width, channels,
// filters, seed, reals, tile_row, tile_col, export (a path without extension: writes .png, .svg and
// .csv of the time-share plot).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <utility>

#include "app/i18n/tr.hpp"
#include "app/i18n/tr_text.hpp"
#include "app/panels/compute_widgets.hpp"
#include "app/panels/panel.hpp"
#include "app/panels/present.hpp"
#include "app/panels/scene_reader.hpp"
#include "app/plot/gpu_plots.hpp"
#include "app/plot/imgui_plot.hpp"
#include "app/render/present.hpp"
#include "core/error.hpp"
#include "core/gpu/tensor_core.hpp"
#include "core/gpu/time_share.hpp"
#include "core/gpu/winograd.hpp"

namespace ll::gui {

namespace {

const char* const kTabs[] = {"winograd", "tensorcore", "cudnn"};

struct GpuSettings {
    gpu::WinogradParams p;
    bool reals = false;
    gpu::TensorCoreParams tc;
    int tab = 0;  // 0 Winograd, 1 Tensor Core, 2 cuDNN
    nlohmann::json to_json() const {
        return {{"tab", kTabs[tab]},      {"tc_m", tc.m},           {"tc_k", tc.k},
                {"tc_n", tc.n},           {"height", p.height},     {"width", p.width},
                {"channels", p.channels}, {"filters", p.filters},   {"seed", p.seed},
                {"reals", reals},         {"tile_row", p.tile_row}, {"tile_col", p.tile_col}};
    }
};

class GpuPanel : public Panel {
  public:
    GpuPanel() : runs_(gpu::cudnn_time_share()), share_(runs_) { rebuild(); }
    const char* title() const override { return trn("GPU side"); }
    void draw(AppContext& ctx) override;
    nlohmann::json save_settings() const override { return set_.to_json(); }
    nlohmann::json probe() const override {
        return {{"screen", {{"input", input_probe_}, {"tile_map", tile_labels_}}}};
    }
    void load_settings(const nlohmann::json& j) override {
        SceneReader r(j, "gpu");
        r.only({"tab", "tc_m", "tc_k", "tc_n", "height", "width", "channels", "filters", "seed",
                "reals", "tile_row", "tile_col", "export"});
        std::string tab = kTabs[set_.tab];
        r.get_choice("tab", tab, {kTabs[0], kTabs[1], kTabs[2]});
        GpuSettings s = set_;
        s.tab = tab == kTabs[0] ? 0 : tab == kTabs[1] ? 1 : 2;
        r.get("tc_m", s.tc.m, 1, 4096);
        r.get("tc_k", s.tc.k, 1, 4096);
        r.get("tc_n", s.tc.n, 1, 4096);
        r.get("height", s.p.height, 3, 1024);
        r.get("width", s.p.width, 3, 1024);
        r.get("channels", s.p.channels, 1, 64);
        r.get("filters", s.p.filters, 1, 64);
        int64_t seed = s.p.seed;
        r.get("seed", seed, 0, 0xffffffffLL);
        s.p.seed = uint32_t(seed);
        r.get("reals", s.reals);
        r.get("tile_row", s.p.tile_row, 0, 511);
        r.get("tile_col", s.p.tile_col, 0, 511);
        s.p.values = s.reals ? gpu::Values::reals : gpu::Values::integers;
        try {
            gpu::check(s.p);
        } catch (const std::exception& e) {
            r.rethrow(e);
        }
        set_ = s;
        select_tab_ = true;
        rebuild();
        if (r.has("export")) {
            std::string base;
            r.get("export", base);
            export_all(base);
        }
    }

  private:
    void rebuild() {
        set_.p.values = set_.reals ? gpu::Values::reals : gpu::Values::integers;
        try {
            run_ = std::make_unique<gpu::WinogradRun>(gpu::winograd_run(set_.p));
            tc_ = gpu::tensor_core_run(set_.tc);
            error_.clear();
            bad_.clear();
        } catch (const UsageError& e) {
            error_ = e.what();
            bad_ = e.key();
        }
    }
    void export_all(const std::string& base) {
        plot::check_writable(base + ".png");
        plot::write_png(share_.spec, base + ".png", 1200, 640);
        plot::write_svg(share_.spec, base + ".svg", 1200, 640);
        plot::write_csv(share_.spec, base + ".csv");
        export_msg_ = tr("wrote ") + base + ".png, .svg, .csv";
    }
    void draw_present(AppContext& ctx);
    void draw_winograd();
    void draw_chain(float scale, bool constants);
    void draw_input(float w, float h);
    void draw_cudnn();
    void draw_tensor_core();

    GpuSettings set_;
    std::unique_ptr<gpu::WinogradRun> run_;
    gpu::TensorCoreRun tc_;
    std::vector<gpu::ShareRun> runs_;
    plot::TimeSharePlot share_;
    std::string error_, bad_, export_msg_, tc_error_, tc_bad_;
    // --dump-view: the Winograd input grid as the last frame drew it.
    nlohmann::json input_labels_ = nlohmann::json::array(), input_probe_ = nullptr;
    nlohmann::json tile_labels_ = nlohmann::json::array();  // the Tensor Core map's rows
    char export_path_[512] = "/tmp/cudnn_time_share";
    bool select_tab_ = true;
};

void GpuPanel::draw(AppContext& ctx) {
    if (ctx.present) {
        draw_present(ctx);
        return;
    }
    if (!ImGui::BeginTabBar("gpu_tabs")) return;
    const ImGuiTabItemFlags f0 = select_tab_ && set_.tab == 0 ? ImGuiTabItemFlags_SetSelected : 0;
    const ImGuiTabItemFlags f1 = select_tab_ && set_.tab == 1 ? ImGuiTabItemFlags_SetSelected : 0;
    const ImGuiTabItemFlags f2 = select_tab_ && set_.tab == 2 ? ImGuiTabItemFlags_SetSelected : 0;
    select_tab_ = false;
    if (ImGui::BeginTabItem(tr_id("Winograd F(2x2, 3x3)"), nullptr, f0)) {
        set_.tab = 0;
        draw_winograd();
        ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem(tr_id("Tensor Core 4x4"), nullptr, f1)) {
        set_.tab = 1;
        draw_tensor_core();
        ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem(tr_id("cuDNN time share"), nullptr, f2)) {
        set_.tab = 2;
        draw_cudnn();
        ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
}

// The text of one matrix entry ("-0" shown as "0").
std::string entry_text(double v) {
    char t[32];
    std::snprintf(t, sizeof t, "%.4g", v == 0 ? 0.0 : v);
    return t;
}

// Column width of a matrix drawn by draw_matrix: its widest entry plus a margin.
float matrix_cell_width(const gpu::Mat& m) {
    float w = ImGui::CalcTextSize("-0").x;
    for (double v : m.v) w = std::max(w, ImGui::CalcTextSize(entry_text(v).c_str()).x);
    return w + ImGui::GetFontSize();
}

// Width a matrix with its title takes.
float matrix_width(const char* title, const gpu::Mat& m) {
    return std::max(ImGui::CalcTextSize(title).x, matrix_cell_width(m) * float(m.cols));
}

// One matrix as a titled grid of numbers; `tint` colours the frame.
void draw_matrix(const char* title, const gpu::Mat& m, ImU32 tint) {
    ImGui::BeginGroup();
    ImGui::TextUnformatted(title);
    const float cw = matrix_cell_width(m), ch = ImGui::GetTextLineHeight() + 4;
    const ImVec2 o = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    dl->AddRect(o, ImVec2(o.x + cw * float(m.cols), o.y + ch * float(m.rows)), tint, 0, 0, 2);
    for (int i = 0; i < m.rows; ++i)
        for (int j = 0; j < m.cols; ++j) {
            const std::string t = entry_text(m.at(i, j));
            const ImVec2 ts = ImGui::CalcTextSize(t.c_str());
            dl->AddText(ImVec2(o.x + cw * float(j + 1) - ts.x - 4, o.y + ch * float(i) + 2), text,
                        t.c_str());
        }
    ImGui::Dummy(ImVec2(cw * float(m.cols), ch * float(m.rows)));
    ImGui::EndGroup();
}

// The next matrix on the same row when `width` still fits, else on a new row.
void next_matrix(float width) {
    ImGui::SameLine(0, ImGui::GetFontSize() * 1.5f);
    compute::wrap_for(width);
}

// The Tensor Core tab's 16x16 fractal map; its row labels go to *labels.
std::pair<ImVec2, ImVec2> draw_tile_map(ImVec2 avail, nlohmann::json* labels);

void GpuPanel::draw_winograd() {
    const float em = ImGui::GetFontSize();
    bool ch = false;
    gpu::WinogradParams& p = set_.p;
    ch |= compute::labelled_int("H", p.height, 60, bad_ == "height");
    ImGui::SameLine();
    ch |= compute::labelled_int("W", p.width, 60, bad_ == "width");
    ImGui::SameLine();
    ch |= compute::labelled_int("C", p.channels, 60, bad_ == "channels");
    ImGui::SameLine();
    ch |= compute::labelled_int("K", p.filters, 60, bad_ == "filters");
    ImGui::SameLine();
    int64_t seed = p.seed;
    if (compute::labelled_int(trn("seed"), seed, 60)) {
        p.seed = uint32_t(std::clamp<int64_t>(seed, 0, 0xffffffffLL));
        ch = true;
    }
    ImGui::SameLine();
    ch |= compute::labelled_int(trn("tile row"), p.tile_row, 60, bad_ == "tile_row");
    ImGui::SameLine();
    ch |= compute::labelled_int(trn("tile col"), p.tile_col, 60, bad_ == "tile_col");
    ImGui::SameLine();
    compute::wrap_for(8 * em);
    ch |= ImGui::Checkbox(tr_id("real values"), &set_.reals);
    if (ch) rebuild();
    if (!error_.empty()) {
        ImGui::TextColored(compute::err_colour(), "%s", tr_text("error: " + error_).c_str());
        return;
    }
    const gpu::WinogradRun& r = *run_;
    const gpu::WinogradCounts& c = r.counts;
    ImGui::TextWrapped(
        tr("Y = A^T [ (G g G^T) (.) (B^T d B) ] A.  Per 2x2 output tile: %lld multiplications "
           "against %lld direct.  In all (%lld tiles x C %lld x K %lld): Winograd %lld, direct "
           "%lld, im2col + GEMM %lld on a %lld x %lld matrix (%.2fx the input) -> %.2fx fewer "
           "with Winograd."),
        static_cast<long long>(c.tile_mults), static_cast<long long>(c.direct_tile_mults),
        static_cast<long long>(c.tiles_h * c.tiles_w), static_cast<long long>(p.channels),
        static_cast<long long>(p.filters), static_cast<long long>(c.winograd_mults),
        static_cast<long long>(c.direct_mults), static_cast<long long>(c.gemm_mults),
        static_cast<long long>(c.im2col_rows), static_cast<long long>(c.im2col_cols),
        c.im2col_expansion, c.ratio());
    ImGui::TextWrapped(
        tr("Transforms: data %lld additions per tile, output %lld additions per tile, filter "
           "%lld multiplications once per filter."),
        static_cast<long long>(c.data_transform.adds),
        static_cast<long long>(c.output_transform.adds),
        static_cast<long long>(c.filter_transform.mults));
    const bool equal = gpu::winograd_to_json(r)["check"]["equal"].get<bool>();
    ImGui::TextColored(equal ? render::theme_colour(render::Role::done) : compute::err_colour(),
                       tr("check: %zu outputs, max |Winograd - direct| = %.3g -> %s"),
                       r.direct.size(), r.max_abs_diff,
                       equal ? tr("equal to direct convolution") : tr("DIFFERENT"));
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float left = std::max(avail.x * 0.38f, 12 * em);
    ImGui::BeginChild("input", ImVec2(left, 0), true);
    draw_input(ImGui::GetContentRegionAvail().x, ImGui::GetContentRegionAvail().y);
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("chain", ImVec2(0, 0), true, ImGuiWindowFlags_HorizontalScrollbar);
    draw_chain(1.0f, true);
    ImGui::EndChild();
}

// The chosen tile's chain d, g -> V, U -> M -> Y beside the direct
// convolution, then (if `constants`) the transform matrices; text scaled by
// `scale`.
void GpuPanel::draw_chain(float scale, bool constants) {
    const gpu::WinogradRun& r = *run_;
    const gpu::WinogradParams& p = set_.p;
    ImGui::SetWindowFontScale(scale);
    const ImU32 blue = IM_COL32(80, 140, 230, 255), green = IM_COL32(70, 180, 90, 255),
                orange = IM_COL32(230, 150, 50, 255), red = IM_COL32(220, 80, 70, 255);
    char t[96];
    std::snprintf(t, sizeof t, tr("d: input tile (%lld, %lld)"), static_cast<long long>(p.tile_row),
                  static_cast<long long>(p.tile_col));
    const char* v_t = tr("V = B^T d B  (additions only)");
    const char* u_t = tr("U = G g G^T  (once per filter)");
    const char* m_t =
        p.channels > 1 ? tr("M = sum_c U (.) V  (16 mults per c)") : tr("M = U (.) V  (16 mults)");
    // One row per step: the data transform, the filter transform (once per
    // filter), the element-wise product and the output transform.
    draw_matrix(t, r.d, blue);
    next_matrix(matrix_width(v_t, r.V));
    draw_matrix(v_t, r.V, blue);
    ImGui::Spacing();
    draw_matrix(tr("g: filter 0"), r.g, green);
    next_matrix(matrix_width(u_t, r.U));
    draw_matrix(u_t, r.U, green);
    ImGui::Spacing();
    draw_matrix(m_t, r.M, orange);
    next_matrix(matrix_width("Y = A^T M A", r.Y));
    draw_matrix("Y = A^T M A", r.Y, red);
    next_matrix(matrix_width(tr("direct convolution"), r.Y_direct));
    draw_matrix(tr("direct convolution"), r.Y_direct, red);
    if (!constants) {
        ImGui::SetWindowFontScale(1.0f);
        return;
    }
    ImGui::Spacing();
    ImGui::Separator();
    ImGui::TextWrapped("%s",
                       tr("Transform matrices (constants; B^T and A^T only add and subtract)"));
    draw_matrix("B^T", r.BT, blue);
    next_matrix(matrix_width("G", r.G));
    draw_matrix("G", r.G, green);
    next_matrix(matrix_width("A^T", r.AT));
    draw_matrix("A^T", r.AT, red);
    ImGui::SetWindowFontScale(1.0f);
}

// The input's channel 0 as a grid of values, its rows and columns named (H,
// W) and numbered; the chosen 4x4 input tile and its 2x2 output tile framed.
// The values grow with the cells (at 1600x1000 they were body-size text in
// 97 px cells). Clicking a cell chooses the tile over it.
void GpuPanel::draw_input(float w, float h) {
    const gpu::WinogradRun& r = *run_;
    const gpu::WinogradParams& p = r.params;
    ImGui::TextWrapped(tr("input, channel 0 (%lld x %lld); click to choose a tile"),
                       static_cast<long long>(p.height), static_cast<long long>(p.width));
    h -= ImGui::GetTextLineHeightWithSpacing() * 5;  // the captions above and below
    // Room for the axis names and index ticks: a line above, a column left.
    char last[24];
    std::snprintf(last, sizeof last, "%lld", static_cast<long long>(p.height - 1));
    const float lh = ImGui::GetTextLineHeight();
    const float left = ImGui::CalcTextSize("H").x + ImGui::CalcTextSize(last).x + 10;
    const float top = 2 * lh + 4;
    const float cell =
        std::max(4.0f, std::min((w - 4 - left) / float(p.width), (h - 4 - top) / float(p.height)));
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const ImVec2 o(at.x + left, at.y + top);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const char* widest = p.values == gpu::Values::integers ? "-4" : "-0.00";
    const bool numbers = ImGui::CalcTextSize(widest).x + 4 < cell;
    // Value text: a third of the cell high, never below body size, at most
    // 2.5 times it, and narrower than the cell.
    const float body = ImGui::GetFontSize();
    float num_px = std::clamp(cell * 0.34f, body, 2.5f * body);
    num_px = std::max(body, std::min(num_px, body * (cell - 8) / ImGui::CalcTextSize(widest).x));
    const ImU32 grid = ImGui::GetColorU32(ImGuiCol_Border),
                text = ImGui::GetColorU32(ImGuiCol_Text),
                dim = ImGui::ColorConvertFloat4ToU32(render::theme_colour(render::Role::dim));
    // Axis names and index ticks, every k-th when cells are narrower than a number.
    input_labels_ = nlohmann::json::array();
    auto label = [&](const std::string& t, const char* kind, ImVec2 pos, ImU32 col) {
        const ImVec2 ts = ImGui::CalcTextSize(t.c_str());
        dl->AddText(pos, col, t.c_str());
        input_labels_.push_back(
            {{"text", t}, {"kind", kind}, {"rect", {pos.x, pos.y, ts.x, ts.y}}});
    };
    label("H", "axis", ImVec2(at.x, at.y), text);
    label("W", "axis",
          ImVec2(o.x + cell * float(p.width) / 2 - ImGui::CalcTextSize("W").x / 2, at.y), text);
    const int64_t every = cell >= ImGui::CalcTextSize(last).x + 6       ? 1
                          : cell * 2 >= ImGui::CalcTextSize(last).x + 6 ? 2
                                                                        : 5;
    char t[24];
    for (int64_t x = 0; x < p.width; x += every) {
        std::snprintf(t, sizeof t, "%lld", static_cast<long long>(x));
        label(t, "tick",
              ImVec2(o.x + cell * (float(x) + 0.5f) - ImGui::CalcTextSize(t).x / 2, at.y + lh + 2),
              dim);
    }
    for (int64_t y = 0; y < p.height; y += every) {
        std::snprintf(t, sizeof t, "%lld", static_cast<long long>(y));
        label(t, "tick",
              ImVec2(o.x - 6 - ImGui::CalcTextSize(t).x, o.y + cell * (float(y) + 0.5f) - lh / 2),
              dim);
    }
    const gpu::TileWindow tile = gpu::tile_input_window(p);  // the elements the tile reads
    const int64_t y0 = tile.row, x0 = tile.col;
    for (int64_t y = 0; y < p.height; ++y)
        for (int64_t x = 0; x < p.width; ++x) {
            const ImVec2 a(o.x + cell * float(x), o.y + cell * float(y));
            const ImVec2 b(a.x + cell, a.y + cell);
            const bool in_tile = y >= y0 && y < y0 + tile.size && x >= x0 && x < x0 + tile.size;
            if (in_tile) dl->AddRectFilled(a, b, IM_COL32(80, 140, 230, 70));
            dl->AddRect(a, b, grid);
            if (numbers) {
                std::snprintf(t, sizeof t, p.values == gpu::Values::integers ? "%.0f" : "%.2f",
                              r.input[size_t(y * p.width + x)]);
                const ImVec2 ts = ImGui::GetFont()->CalcTextSizeA(num_px, 1e9f, 0, t);
                dl->AddText(ImGui::GetFont(), num_px,
                            ImVec2(a.x + (cell - ts.x) / 2, a.y + (cell - ts.y) / 2), text, t);
            }
        }
    input_probe_ = {{"origin", {o.x, o.y}},
                    {"cell", cell},
                    {"number_px", numbers ? num_px : 0.f},
                    {"body_px", body},
                    {"labels", input_labels_}};
    // The 4x4 input tile (past the edge: zero padding) and the outputs it makes.
    dl->AddRect(ImVec2(o.x + cell * float(x0), o.y + cell * float(y0)),
                ImVec2(o.x + cell * float(x0 + 4), o.y + cell * float(y0 + 4)),
                IM_COL32(80, 140, 230, 255), 0, 0, 3);
    dl->AddRect(ImVec2(o.x + cell * float(x0 + 1), o.y + cell * float(y0 + 1)),
                ImVec2(o.x + cell * float(x0 + 3), o.y + cell * float(y0 + 3)),
                IM_COL32(220, 80, 70, 255), 0, 0, 2);
    ImGui::SetCursorScreenPos(o);
    ImGui::InvisibleButton("input_grid", ImVec2(std::max(1.0f, cell * float(p.width)),
                                                std::max(1.0f, cell * float(p.height))));
    if (ImGui::IsItemClicked()) {
        const ImVec2 m = ImGui::GetIO().MousePos;
        const int64_t ty = std::clamp<int64_t>(int64_t((m.y - o.y) / cell) / 2, 0,
                                               r.counts.tiles_h - 1),
                      tx = std::clamp<int64_t>(int64_t((m.x - o.x) / cell) / 2, 0,
                                               r.counts.tiles_w - 1);
        set_.p.tile_row = ty;
        set_.p.tile_col = tx;
        rebuild();
    }
    ImGui::SetCursorScreenPos(ImVec2(at.x, ImGui::GetCursorScreenPos().y));
    ImGui::TextWrapped("%s", tr("blue: the 4x4 input tile d; red: the 2x2 outputs it gives "
                                "(centred on the window of each 3x3 filter position)"));
}

void GpuPanel::draw_tensor_core() {
    bool ch = false;
    ch |= compute::labelled_int("GEMM M", set_.tc.m, 60, tc_bad_ == "m");
    ImGui::SameLine();
    ch |= compute::labelled_int("K", set_.tc.k, 60, tc_bad_ == "k");
    ImGui::SameLine();
    ch |= compute::labelled_int("N", set_.tc.n, 60, tc_bad_ == "n");
    if (ch) {
        try {
            tc_ = gpu::tensor_core_run(set_.tc);
            tc_bad_.clear();
            tc_error_.clear();
        } catch (const UsageError& e) {
            tc_error_ = e.what();
            tc_bad_ = e.key();
        }
    }
    if (!tc_error_.empty()) {
        ImGui::TextColored(compute::err_colour(), "%s", tr_text("error: " + tc_error_).c_str());
        return;
    }
    const gpu::TensorCoreRun& r = tc_;
    ImGui::TextWrapped(
        tr("Volta's Tensor Core: D = A x B + C on 4x4 tiles, fp16 A and B, fp32 C and D, one "
           "4x4x4 operation (%lld MACs) per clock. The Cube does 16x16x16 (%lld MACs) per cycle: "
           "%lld Tensor Core operations' worth."),
        static_cast<long long>(r.tile_macs_each), static_cast<long long>(r.cube_macs_each),
        static_cast<long long>(r.tensor_cores_per_cube));
    ImGui::TextWrapped(
        tr("GEMM %lld x %lld x %lld: %lld Tensor Core operations (utilisation %.1f%%) "
           "against %lld Cube step(s) (utilisation %.1f%%)."),
        static_cast<long long>(set_.tc.m), static_cast<long long>(set_.tc.k),
        static_cast<long long>(set_.tc.n), static_cast<long long>(r.tile_ops),
        100 * r.tile_utilisation, static_cast<long long>(r.cube_steps), 100 * r.cube_utilisation);
    auto mat = [](const std::vector<double>& v) {
        gpu::Mat m(4, 4);
        m.v = v;
        return m;
    };
    draw_matrix("D = A x B + C", mat(r.d), IM_COL32(220, 80, 70, 255));
    next_matrix(matrix_width("A (fp16)", mat(r.a)));
    draw_matrix("A (fp16)", mat(r.a), IM_COL32(80, 140, 230, 255));
    next_matrix(matrix_width("B (fp16)", mat(r.b)));
    draw_matrix("B (fp16)", mat(r.b), IM_COL32(70, 180, 90, 255));
    next_matrix(matrix_width("C (fp32)", mat(r.c)));
    draw_matrix("C (fp32)", mat(r.c), IM_COL32(230, 150, 50, 255));
    ImGui::TextColored(r.equal ? render::theme_colour(render::Role::done) : compute::err_colour(),
                       "%s",
                       r.equal ? tr("check: D equals the direct product") : tr("check: D DIFFERS"));
    ImGui::Separator();
    ImGui::TextWrapped(
        tr("A 16x16 fp16 Cube fractal (512 B, rows of 32 B), each element coloured "
           "and numbered by the 4x4 Tensor Core tile it belongs to: one 4x4 operand "
           "spans %d fractal rows, 8 bytes of each; the Cube takes the whole fractal "
           "as one operand."),
        gpu::rows_per_tile());
    draw_tile_map(ImGui::GetContentRegionAvail(), &tile_labels_);
}

// The 16x16 Cube fractal coloured and numbered by 4x4 Tensor Core tile
// (core's tile_map), as large as `avail` allows; returns the grid's rectangle.
std::pair<ImVec2, ImVec2> draw_tile_map(ImVec2 avail, nlohmann::json* labels) {
    const float em = ImGui::GetFontSize();
    const std::vector<std::vector<int>> map = gpu::tile_map();
    const float cell = std::max(6.0f, std::min(avail.x - 4 * em, avail.y - 2) / 16.0f);
    const ImVec2 o(ImGui::GetCursorScreenPos().x + 3 * em, ImGui::GetCursorScreenPos().y);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImU32 text = IM_COL32(20, 20, 20, 255);
    const bool numbers = ImGui::CalcTextSize("15").x + 2 < cell;
    // Row names every 1st, 2nd or 4th row, so they never run into each other
    // (at 1024x768 x1.5 the 15 px rows drew 24 px names over each other).
    const float lh = ImGui::GetTextLineHeight();
    const int every = cell >= lh ? 1 : 2 * cell >= lh ? 2 : 4;
    *labels = nlohmann::json::array();
    for (int y = 0; y < 16; ++y) {
        char t[16];
        std::snprintf(t, sizeof t, "r%d", y);
        const ImVec2 ts = ImGui::CalcTextSize(t);
        // A thinned name stands at the top of its run of rows.
        const ImVec2 at(o.x - ts.x - 4,
                        o.y + cell * float(y) + (every == 1 ? (cell - ts.y) / 2 : 0));
        if (y % every == 0) {
            dl->AddText(at, ImGui::GetColorU32(ImGuiCol_Text), t);
            labels->push_back({{"text", t}, {"kind", "tick"}, {"rect", {at.x, at.y, ts.x, ts.y}}});
        }
        for (int x = 0; x < 16; ++x) {
            const int tile = map[size_t(y)][size_t(x)];
            const plot::Color c = plot::palette(tile % 8);
            const uint8_t shade = tile / 8 ? 40 : 0;  // tiles 8..15 lighter
            const ImVec2 a(o.x + cell * float(x), o.y + cell * float(y));
            dl->AddRectFilled(a, ImVec2(a.x + cell, a.y + cell),
                              IM_COL32(std::min(255, c.r + shade), std::min(255, c.g + shade),
                                       std::min(255, c.b + shade), 255));
            dl->AddRect(a, ImVec2(a.x + cell, a.y + cell), IM_COL32(0, 0, 0, 60));
            if (numbers) {
                std::snprintf(t, sizeof t, "%d", tile);
                const ImVec2 s = ImGui::CalcTextSize(t);
                dl->AddText(ImVec2(a.x + (cell - s.x) / 2, a.y + (cell - s.y) / 2), text, t);
            }
        }
    }
    for (int b = 0; b <= 4; ++b) {  // the 4x4 tiles' borders
        const float v = cell * 4 * float(b);
        dl->AddLine(ImVec2(o.x + v, o.y), ImVec2(o.x + v, o.y + cell * 16), IM_COL32(0, 0, 0, 200),
                    2);
        dl->AddLine(ImVec2(o.x, o.y + v), ImVec2(o.x + cell * 16, o.y + v), IM_COL32(0, 0, 0, 200),
                    2);
    }
    ImGui::Dummy(ImVec2(cell * 16 + 3 * em, cell * 16));
    return {o, ImVec2(o.x + cell * 16, o.y + cell * 16)};
}

void GpuPanel::draw_cudnn() {
    const float em = ImGui::GetFontSize();
    ImGui::TextWrapped(
        "%s",
        tr("cuDNN on NVIDIA Volta (document 004): where each convolution run spends its time. "
           "Shares are computed from the lecture's kernel times. Only the Tensor Core GEMM run "
           "converts NCHW <-> NHWC: its kernels want NHWC and the framework hands NCHW."));
    const float table_h = ImGui::GetTextLineHeightWithSpacing() * 12 + em * 3;
    const float plot_h = std::max(12 * em, ImGui::GetContentRegionAvail().y - table_h);
    plot::show_plot("share", share_.spec, ImVec2(0, plot_h));
    if (ImGui::BeginTable(
            "kernels", 6,
            ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
        for (const char* h :
             {trn("run"), trn("function"), trn("role"), trn("time"), trn("share"), trn("lecture")})
            ImGui::TableSetupColumn(tr(h));
        ImGui::TableHeadersRow();
        for (const gpu::ShareRun& r : runs_)
            for (size_t i = 0; i < r.kernels.size(); ++i) {
                const gpu::Kernel& k = r.kernels[i];
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(i == 0 ? tr_text(r.name()).c_str() : "");
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(k.function.c_str());
                ImGui::TableNextColumn();
                if (k.role == gpu::KernelRole::layout_transform)
                    ImGui::TextColored(render::theme_colour(render::Role::accent), "%s",
                                       tr_text(gpu::role_name(k.role)).c_str());
                else
                    ImGui::TextUnformatted(tr_text(gpu::role_name(k.role)).c_str());
                ImGui::TableNextColumn();
                ImGui::Text("%.2f", k.time);
                ImGui::TableNextColumn();
                ImGui::Text("%.1f%%", 100 * r.share(i));
                ImGui::TableNextColumn();
                ImGui::Text("%d%%", k.doc_percent);
            }
        ImGui::EndTable();
    }
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(tr("Export"));
    ImGui::SameLine();
    ImGui::SetNextItemWidth(16 * em);
    ImGui::InputTextWithHint("##path", tr("path without extension"), export_path_,
                             sizeof export_path_);
    ImGui::SameLine();
    if (ImGui::Button("PNG + SVG + CSV")) {
        try {
            export_all(export_path_);
        } catch (const UsageError& e) {
            export_msg_ = tr_text(std::string("error: ") + e.what());
        }
    }
    if (!export_msg_.empty()) {
        ImGui::SameLine();
        ImGui::TextUnformatted(export_msg_.c_str());
    }
}

// Presentation mode: the tab's picture fills the slide (left/right change
// tab); the caption is the formula and core's counts that the tab prints
// above its picture.
void GpuPanel::draw_present(AppContext& ctx) {
    for (Key k : ctx.keys) {
        if (k == Key::left) set_.tab = (set_.tab + 2) % 3;
        if (k == Key::right) set_.tab = (set_.tab + 1) % 3;
    }
    select_tab_ = true;  // back in the window, the tab shown here is the one selected
    char buf[320];
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const ImVec2 o = ImGui::GetCursorScreenPos();
    if (set_.tab == 0) {
        ctx.caption.title = "Winograd F(2x2, 3x3): Y = A^T [U (.) V] A";
        if (!error_.empty()) {
            ctx.caption.formula = tr_text("error: " + error_);
            return;
        }
        const gpu::WinogradCounts& c = run_->counts;
        std::snprintf(buf, sizeof buf,
                      tr("per 2x2 tile %lld mults vs %lld direct; in all %lld vs %lld "
                         "(im2col + GEMM %lld)"),
                      static_cast<long long>(c.tile_mults),
                      static_cast<long long>(c.direct_tile_mults),
                      static_cast<long long>(c.winograd_mults),
                      static_cast<long long>(c.direct_mults), static_cast<long long>(c.gemm_mults));
        ctx.caption.formula = buf;
        // Three rows of matrices take about 21 lines: the type grows to fill
        // the slide, the input grid's captions and ticks with it.
        const float scale =
            std::clamp(avail.y / (21 * ImGui::GetTextLineHeightWithSpacing()), 1.0f, 2.2f);
        const float left = std::floor(avail.x * 0.34f);
        ImGui::BeginChild("input", ImVec2(left, avail.y), true);
        ImGui::SetWindowFontScale(scale);
        draw_input(ImGui::GetContentRegionAvail().x, ImGui::GetContentRegionAvail().y);
        ImGui::SetWindowFontScale(1.0f);
        ImGui::EndChild();
        ImGui::SameLine();
        ImGui::BeginChild("chain", ImVec2(0, avail.y), true, ImGuiWindowFlags_HorizontalScrollbar);
        draw_chain(scale, false);
        ImGui::EndChild();
        note_diagram(o, ImVec2(o.x + avail.x, o.y + avail.y));
    } else if (set_.tab == 1) {
        if (!tc_error_.empty()) {
            ctx.caption.title = "Tensor Core 4x4";
            ctx.caption.formula = tr_text("error: " + tc_error_);
            return;
        }
        const gpu::TensorCoreRun& r = tc_;
        std::snprintf(buf, sizeof buf,
                      tr("Tensor Core 4x4x4 (%lld MACs) vs Cube 16x16x16 (%lld) = %lld of them"),
                      static_cast<long long>(r.tile_macs_each),
                      static_cast<long long>(r.cube_macs_each),
                      static_cast<long long>(r.tensor_cores_per_cube));
        ctx.caption.title = buf;
        std::snprintf(buf, sizeof buf,
                      tr("fp16 fractal by 4x4 tile; GEMM %lldx%lldx%lld: %lld ops (%.1f%%) vs "
                         "%lld Cube steps (%.1f%%)"),
                      static_cast<long long>(set_.tc.m), static_cast<long long>(set_.tc.k),
                      static_cast<long long>(set_.tc.n), static_cast<long long>(r.tile_ops),
                      100 * r.tile_utilisation, static_cast<long long>(r.cube_steps),
                      100 * r.cube_utilisation);
        ctx.caption.formula = buf;
        const std::pair<ImVec2, ImVec2> g = draw_tile_map(avail, &tile_labels_);
        note_diagram(g.first, g.second);
    } else {
        ctx.caption.title = tr("cuDNN on Volta: time share per kernel role");
        ctx.caption.formula = tr("only the Tensor Core GEMM run converts NCHW <-> NHWC");
        plot::show_plot("share", share_.spec, avail);
        note_diagram(ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    }
}

}  // namespace

std::unique_ptr<Panel> make_gpu_panel() {
    return std::make_unique<GpuPanel>();
}

}  // namespace ll::gui
