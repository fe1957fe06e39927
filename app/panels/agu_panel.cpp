// AGU / DMA / scatter-gather: address streams drawn over memory as they are
// generated. DMA mode: the read AGU walks the source layout and the write AGU
// the destination layout in lock-step; a step counter (play / scrub) shows
// which source cell is read and which destination cell is written. Gather
// mode: the request of `width` indices at the current step, its contiguous
// runs and the bursts it touches.
//
// Scene keys: mode ("dma" or "gather"), shape, src, dst, elem_bytes, indices,
// width, burst, speed (steps/s), step, playing. save_settings() adds
// "screen": the cells read and written at the current DMA step as [x, y,
// size] (for tests).
//
// State: the configuration (saved); the Dma / GatherReport (engine data,
// rebuilt on change); step_ and playing_ (animation, advanced in update()).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/panels/panel.hpp"
#include "app/panels/view_widgets.hpp"
#include "core/error.hpp"
#include "core/view/agu.hpp"
#include "core/view/layout.hpp"

namespace ll::gui {

namespace {

constexpr int64_t kMaxCells = 4096;
constexpr int64_t kMaxStats = int64_t(1) << 22;  // keeps a reconfiguration under a frame or two

class AguPanel : public Panel {
  public:
    AguPanel() { rebuild(); }
    const char* title() const override { return "AGU / DMA"; }
    void update(double dt) override {
        if (!playing_) return;
        step_ += dt * speed_;
        if (step_ >= double(total())) {
            step_ = double(total());
            playing_ = false;
        }
    }
    bool busy() const override { return playing_; }
    Timeline timeline() const override { return {0, double(total()), speed_, "step"}; }
    void seek(double t) override {
        step_ = std::clamp(t, 0.0, double(total()));
        playing_ = false;
    }
    void draw(AppContext& ctx) override;
    nlohmann::json save_settings() const override {
        nlohmann::json j = {{"mode", mode_ == 0 ? "dma" : "gather"},
                            {"shape", shape_},
                            {"src", src_},
                            {"dst", dst_},
                            {"elem_bytes", elem_bytes_},
                            {"indices", idx_},
                            {"width", width_},
                            {"burst", burst_},
                            {"speed", speed_},
                            {"step", step_},
                            {"playing", playing_}};
        if (!screen_.empty()) j["screen"] = screen_;
        return j;
    }
    void load_settings(const nlohmann::json& j) override;

  private:
    int64_t total() const { return mode_ == 0 ? dma_.count() : int64_t(gather_.requests.size()); }
    void rebuild();
    void draw_dma();
    void draw_gather();

    int mode_ = 0;  // 0: DMA, 1: scatter-gather
    char shape_[64] = "1,4,3,4";
    char src_[64] = "NCHW";
    char dst_[64] = "NHWC";
    char idx_[256] = "0,1,2,3,16,17,18,40,41,64,65,66,67,68,69,70";
    int elem_bytes_ = 4, width_ = 4, burst_ = 32;
    float speed_ = 8;

    view::Layout src_layout_, dst_layout_;
    view::Dma dma_;
    view::StreamStats read_stats_, write_stats_;  // computed once per configuration
    view::GatherReport gather_;
    std::vector<int64_t> indices_;
    std::string error_;
    double step_ = 0;
    bool playing_ = false;
    nlohmann::json screen_;  // the current step's cells, last frame (for dumps)
};

void AguPanel::load_settings(const nlohmann::json& j) {
    viewui::check_keys(j, "agu",
                       {"mode", "shape", "src", "dst", "elem_bytes", "indices", "width", "burst",
                        "speed", "step", "playing"});
    auto bad = [](const char* k, const std::string& expected) {
        return UsageError(std::string("scene: '") + k + "' must be " + expected);
    };
    auto str = [&](const char* k, char* dst, size_t n) {
        if (!j.contains(k)) return;
        if (!j[k].is_string()) throw bad(k, "a string");
        std::snprintf(dst, n, "%s", j[k].get<std::string>().c_str());
    };
    auto integer = [&](const char* k, int& v, int lo, int hi) {
        if (!j.contains(k)) return;
        if (!j[k].is_number_integer() || j[k].get<int64_t>() < lo || j[k].get<int64_t>() > hi)
            throw bad(k, "an integer " + std::to_string(lo) + ".." + std::to_string(hi));
        v = j[k].get<int>();
    };
    if (j.contains("mode")) {
        const auto& m = j["mode"];
        int num = m.is_number_integer() ? m.get<int>() : -1;
        if (m == "dma" || num == 0)
            mode_ = 0;
        else if (m == "gather" || num == 1)
            mode_ = 1;
        else
            throw bad("mode", "\"dma\" or \"gather\"");
    }
    str("shape", shape_, sizeof shape_);
    str("src", src_, sizeof src_);
    str("dst", dst_, sizeof dst_);
    str("indices", idx_, sizeof idx_);
    integer("elem_bytes", elem_bytes_, 1, 16);
    integer("width", width_, 1, 1024);
    integer("burst", burst_, 1, 1 << 20);
    if (j.contains("speed")) {
        if (!j["speed"].is_number() || j["speed"].get<double>() <= 0)
            throw bad("speed", "a positive number of steps per second");
        speed_ = j["speed"].get<float>();
    }
    if (j.contains("playing")) {
        if (!j["playing"].is_boolean()) throw bad("playing", "true or false");
        playing_ = j["playing"].get<bool>();
    }
    // Each text field on its own, so the error names the key.
    try {
        if (mode_ == 0) {
            Shape sh;
            try {
                sh = parse_shape(shape_);
            } catch (const UsageError& e) {
                throw UsageError(std::string("'shape': ") + e.what());
            }
            const std::pair<const char*, const char*> layouts[] = {{"src", src_}, {"dst", dst_}};
            for (const auto& [k, v] : layouts) {
                try {
                    view::layout_from_spec(v, sh);
                } catch (const UsageError& e) {
                    throw UsageError(std::string("'") + k + "': " + e.what());
                }
            }
        } else {
            try {
                parse_int_list(idx_, "indices");
            } catch (const UsageError& e) {
                throw UsageError(std::string("'indices': ") + e.what());
            }
        }
        rebuild();
        if (!error_.empty()) throw UsageError(error_);
    } catch (const UsageError& e) {
        throw UsageError(std::string("scene: ") + e.what());
    }
    step_ = 0;
    if (j.contains("step")) {
        if (!j["step"].is_number() || j["step"].get<double>() < 0 ||
            j["step"].get<double>() > double(total()))
            throw bad("step", "a number 0.." + std::to_string(total()) +
                                  " (elements moved, or requests issued)");
        step_ = j["step"].get<double>();
    }
}

void AguPanel::rebuild() {
    try {
        elem_bytes_ = std::clamp(elem_bytes_, 1, 16);
        if (mode_ == 0) {
            Shape s = parse_shape(shape_);
            src_layout_ = view::layout_from_spec(src_, s);
            dst_layout_ = view::layout_from_spec(dst_, s);
            dma_ = view::make_dma(src_layout_, dst_layout_, elem_bytes_ * 8);
            read_stats_ = view::stream_stats(dma_.read, 8, kMaxStats);
            write_stats_ = view::stream_stats(dma_.write, 8, kMaxStats);
        } else {
            indices_ = parse_int_list(idx_, "indices");
            gather_ = view::gather({width_, elem_bytes_ * 8, 0, burst_}, indices_);
        }
        error_.clear();
    } catch (const UsageError& e) {
        error_ = e.what();
    }
    step_ = std::min(step_, double(total()));
}

void AguPanel::draw(AppContext& ctx) {
    (void)ctx;
    bool changed = ImGui::RadioButton("DMA (two AGUs)", &mode_, 0);
    ImGui::SameLine();
    changed |= ImGui::RadioButton("scatter-gather", &mode_, 1);
    ImGui::PushItemWidth(140);
    auto enter = ImGuiInputTextFlags_EnterReturnsTrue;
    if (mode_ == 0) {
        changed |= ImGui::InputText("shape", shape_, sizeof shape_, enter);
        ImGui::SameLine();
        changed |= ImGui::InputText("source layout", src_, sizeof src_, enter);
        ImGui::SameLine();
        changed |= ImGui::InputText("destination layout", dst_, sizeof dst_, enter);
    } else {
        changed |= ImGui::InputText("indices", idx_, sizeof idx_, enter);
        ImGui::SameLine();
        changed |= ImGui::InputInt("width", &width_, 0, 0, enter);
        ImGui::SameLine();
        changed |= ImGui::InputInt("burst B", &burst_, 0, 0, enter);
    }
    ImGui::SameLine();
    changed |= ImGui::InputInt("elem bytes", &elem_bytes_, 0, 0, enter);
    ImGui::PopItemWidth();
    if (changed) {
        step_ = 0;
        rebuild();
    }
    if (!error_.empty()) {
        ImGui::TextColored(ImVec4(1, 0.42f, 0.38f, 1), "error: %s", error_.c_str());
        return;
    }
    if (ImGui::Button(playing_ ? "pause" : "play")) {
        if (!playing_ && step_ >= double(total())) step_ = 0;
        playing_ = !playing_;
    }
    ImGui::SameLine();
    ImGui::PushItemWidth(260);
    float st = float(step_);
    if (ImGui::SliderFloat("step", &st, 0, float(total()), "%.0f")) {
        step_ = st;
        playing_ = false;
    }
    ImGui::SameLine();
    ImGui::SliderFloat("steps/s", &speed_, 1, 200, "%.0f", ImGuiSliderFlags_Logarithmic);
    ImGui::PopItemWidth();
    if (mode_ == 0)
        draw_dma();
    else
        draw_gather();
}

void AguPanel::draw_dma() {
    ImGui::TextUnformatted(view::to_string(dma_).c_str());
    const view::StreamStats &rs = read_stats_, &ws = write_stats_;
    ImGui::Text("read stream: %lld contiguous runs; write stream: %lld runs (%s%lld addresses)",
                static_cast<long long>(rs.runs), static_cast<long long>(ws.runs),
                rs.truncated ? "first " : "", static_cast<long long>(rs.count));
    int64_t n = dma_.count();
    if (n > kMaxCells) {
        ImGui::TextUnformatted("(too many elements to draw; use a shape under 4096 elements)");
        return;
    }
    int64_t k = std::min<int64_t>(int64_t(step_), n);  // elements already moved
    int64_t eb = elem_bytes_;
    std::vector<int64_t> src_elem(size_t(n), -1),
        dst_elem(size_t(n), -1);  // memory cell -> logical element
    for (const auto& e : view::stream(dma_, 0, n)) {
        src_elem[size_t(e.read / eb)] = e.step;
        if (e.step < k) dst_elem[size_t(e.write / eb)] = e.step;
    }
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImVec2 o = ImGui::GetCursorScreenPos();
    float avail = std::max(200.0f, ImGui::GetContentRegionAvail().x);
    float cell = std::clamp(avail / float(std::min<int64_t>(n, 32)), 10.0f, 24.0f);
    int64_t per_row = std::max<int64_t>(1, int64_t(avail / cell));
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    dl->AddText(o, text, ("source memory (" + view::to_string(src_layout_) + ")").c_str());
    viewui::CellRow src{ImVec2(o.x, o.y + ImGui::GetTextLineHeightWithSpacing()), cell, n, per_row};
    float y = src.origin.y + src.height() + cell;
    dl->AddText(ImVec2(o.x, y), text,
                ("destination memory (" + view::to_string(dst_layout_) + ")").c_str());
    viewui::CellRow dst{ImVec2(o.x, y + ImGui::GetTextLineHeightWithSpacing()), cell, n, per_row};
    int64_t hs = src.draw(
        dl,
        [&](int64_t c) {
            int64_t e = src_elem[size_t(c)];
            return e < 0 ? 0 : viewui::element_colour(e, n, e < k ? 0.35f : 1.0f);
        },
        nullptr);
    int64_t hd = dst.draw(
        dl,
        [&](int64_t c) {
            return dst_elem[size_t(c)] < 0 ? 0 : viewui::element_colour(dst_elem[size_t(c)], n);
        },
        nullptr);
    ImGui::Dummy(ImVec2(avail, dst.origin.y + dst.height() - o.y + 4));
    screen_ = nlohmann::json();
    if (k < n) {
        auto e = view::stream(dma_, k, 1).front();
        src.outline(dl, e.read / eb, IM_COL32(255, 255, 255, 255), 3);
        dst.outline(dl, e.write / eb, IM_COL32(255, 255, 255, 255), 3);
        dl->AddLine(src.cell_centre(e.read / eb), dst.cell_centre(e.write / eb),
                    IM_COL32(255, 255, 255, 160), 2);
        screen_ = {{"read_cell", viewui::rect_json(src.cell_pos(e.read / eb), cell)},
                   {"write_cell", viewui::rect_json(dst.cell_pos(e.write / eb), cell)}};
        ImGui::Text("step %lld, element %s: read 0x%llx -> write 0x%llx", static_cast<long long>(k),
                    ll::to_string(unravel(k, src_layout_.shape())).c_str(),
                    static_cast<unsigned long long>(e.read),
                    static_cast<unsigned long long>(e.write));
    }
    // The two address streams as generated: the last steps up to this one,
    // each with its delta from the step before (the AGU's current stride).
    int64_t last = std::min(k, n - 1), first = std::max<int64_t>(0, last - 11);
    int64_t from = std::max<int64_t>(0, first - 1);
    auto ev = view::stream(dma_, from, last - from + 1);
    if (ImGui::BeginTable("streams", 4, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit)) {
        ImGui::TableSetupColumn("step");
        ImGui::TableSetupColumn("element");
        ImGui::TableSetupColumn("read AGU address (delta)");
        ImGui::TableSetupColumn("write AGU address (delta)");
        ImGui::TableHeadersRow();
        for (size_t i = size_t(first - from); i < ev.size(); ++i) {
            const auto& e = ev[i];
            int64_t dr = i ? e.read - ev[i - 1].read : 0, dw = i ? e.write - ev[i - 1].write : 0;
            ImVec4 col = e.step == k ? ImVec4(1, 1, 1, 1) : ImVec4(0.65f, 0.65f, 0.65f, 1);
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextColored(col, "%lld%s", static_cast<long long>(e.step),
                               e.step == k ? " (next)" : "");
            ImGui::TableNextColumn();
            ImGui::TextColored(col, "%s",
                               ll::to_string(unravel(e.step, src_layout_.shape())).c_str());
            ImGui::TableNextColumn();
            ImGui::TextColored(col, "0x%llx  (%+lld)", static_cast<unsigned long long>(e.read),
                               static_cast<long long>(dr));
            ImGui::TableNextColumn();
            ImGui::TextColored(col, "0x%llx  (%+lld)", static_cast<unsigned long long>(e.write),
                               static_cast<long long>(dw));
        }
        ImGui::EndTable();
    }
    if (hs >= 0 || hd >= 0) {
        int64_t e = hs >= 0 ? src_elem[size_t(hs)] : dst_elem[size_t(hd)];
        if (e >= 0)
            ImGui::SetTooltip("element %s (stream step %lld)",
                              ll::to_string(unravel(e, src_layout_.shape())).c_str(),
                              static_cast<long long>(e));
    }
}

void AguPanel::draw_gather() {
    const auto& g = gather_;
    screen_ = nlohmann::json();
    ImGui::Text(
        "%lld elements in %zu requests of width %d: %lld contiguous runs, %lld bursts of %d B",
        static_cast<long long>(g.elements), g.requests.size(), width_,
        static_cast<long long>(g.runs), static_cast<long long>(g.bursts), burst_);
    int64_t hi = 0;
    for (int64_t i : indices_) hi = std::max(hi, i + 1);
    if (hi > kMaxCells) {
        ImGui::TextUnformatted("(indices too large to draw; keep them under 4096)");
        return;
    }
    int64_t k = std::min<int64_t>(int64_t(step_), int64_t(g.requests.size()));
    int64_t eb = elem_bytes_;
    std::vector<int64_t> req_of(size_t(hi), -1);
    for (size_t r = 0; r < g.requests.size(); ++r)
        for (int64_t a : g.requests[r].addresses) req_of[size_t(a / eb)] = int64_t(r);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImVec2 o = ImGui::GetCursorScreenPos();
    float avail = std::max(200.0f, ImGui::GetContentRegionAvail().x);
    float cell = std::clamp(avail / float(std::min<int64_t>(hi, 32)), 10.0f, 24.0f);
    int64_t per_burst = std::max<int64_t>(1, burst_ / eb);
    int64_t per_row = std::max<int64_t>(per_burst, int64_t(avail / cell) / per_burst * per_burst);
    dl->AddText(o, ImGui::GetColorU32(ImGuiCol_Text),
                "memory: one cell per element, the number is the request that reads it; "
                "white ticks are burst boundaries");
    o.y += ImGui::GetTextLineHeightWithSpacing();
    viewui::CellRow mem{o, cell, hi, per_row};
    int64_t n_req = std::max<int64_t>(1, int64_t(g.requests.size()));
    mem.draw(
        dl,
        [&](int64_t c) {
            int64_t r = req_of[size_t(c)];
            if (r < 0 || r > k) return ImU32(0);
            return viewui::element_colour(r, n_req, r == k ? 1.0f : 0.35f);
        },
        [&](int64_t c) {
            return req_of[size_t(c)] >= 0 ? std::to_string(req_of[size_t(c)]) : std::string();
        });
    // Burst boundaries: a tick every burst_ bytes.
    for (int64_t c = 0; c < hi; c += per_burst) {
        ImVec2 p = mem.cell_pos(c);
        dl->AddLine(p, ImVec2(p.x, p.y + cell), IM_COL32(255, 255, 255, 200), 2);
    }
    ImGui::Dummy(ImVec2(avail, mem.height() + ImGui::GetTextLineHeightWithSpacing() + 4));
    if (k < int64_t(g.requests.size())) {
        const auto& q = g.requests[size_t(k)];
        for (int64_t a : q.addresses) mem.outline(dl, a / eb, IM_COL32(255, 255, 255, 255), 3);
        ImGui::Text("request %lld: %zu addresses, %lld runs, %lld bursts",
                    static_cast<long long>(k), q.addresses.size(), static_cast<long long>(q.runs),
                    static_cast<long long>(q.bursts));
    }
    // The address stream as issued: one row per request up to the current one.
    if (ImGui::BeginTable("requests", 4,
                          ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit)) {
        ImGui::TableSetupColumn("request");
        ImGui::TableSetupColumn("byte addresses issued together");
        ImGui::TableSetupColumn("runs");
        ImGui::TableSetupColumn("bursts");
        ImGui::TableHeadersRow();
        int64_t last = std::min<int64_t>(k, int64_t(g.requests.size()) - 1);
        for (int64_t r = std::max<int64_t>(0, last - 11); r <= last; ++r) {
            const auto& q = g.requests[size_t(r)];
            std::string addrs;
            for (int64_t a : q.addresses) {
                char b[24];
                std::snprintf(b, sizeof b, "%s0x%llx", addrs.empty() ? "" : " ",
                              static_cast<unsigned long long>(a));
                addrs += b;
            }
            ImVec4 col = r == k ? ImVec4(1, 1, 1, 1) : ImVec4(0.65f, 0.65f, 0.65f, 1);
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextColored(col, "%lld%s", static_cast<long long>(r), r == k ? " (now)" : "");
            ImGui::TableNextColumn();
            ImGui::TextColored(col, "%s", addrs.c_str());
            ImGui::TableNextColumn();
            ImGui::TextColored(col, "%lld", static_cast<long long>(q.runs));
            ImGui::TableNextColumn();
            ImGui::TextColored(col, "%lld", static_cast<long long>(q.bursts));
        }
        ImGui::EndTable();
    }
}

}  // namespace

std::unique_ptr<Panel> make_agu_panel() {
    return std::make_unique<AguPanel>();
}

}  // namespace ll::gui
