// The LoadData scene: fractals travel from L1 (A1/B1) or GM to L0 (A2/B2).
// Every parameter of Load2D v1, Load2Dv2 and Load3D is editable; the plan is
// rebuilt on each edit so its effect (start, stride, gap, transpose,
// decrement, steps, img2col windows) is visible at once, and a bad value
// shows the engine's own "<parameter> ...; expected <range>" message.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "app/panels/panel.hpp"
#include "app/render/plan_view.hpp"
#include "core/error.hpp"
#include "core/exec/load2d.hpp"
#include "core/exec/load3d.hpp"
#include "core/exec/plans.hpp"

namespace ll::gui {

namespace {

const ImVec4 kErr(1.0f, 0.42f, 0.38f, 1.0f);
const char* kModes[] = {"Load2D (v1)", "Load2Dv2", "Load3D (img2col)"};
const char* kPaths[] = {"A1->A2", "B1->B2", "GM->A1", "GM->B1", "GM->A2", "GM->B2"};

class LoadDataPanel : public Panel {
  public:
    LoadDataPanel() {
        v1_.src_fractals = 8;
        v1_.start_index = 1;
        v1_.repeat = 3;
        v1_.src_stride = 2;
        v1_.dst_gap = 1;
        v2_.src_fractals = 12;
        v2_.m_step = 2;
        v2_.k_step = 2;
        v2_.src_stride = 4;
        v2_.dst_stride = 2;
        v3_ = exec::load3d_doc_example();
        rebuild();
    }
    const char* title() const override { return "LoadData"; }
    bool busy() const override { return playing_ || std::fabs(stage_ - target_) > 1e-4f; }
    void update(double dt) override {
        if (playing_) {
            target_ = std::min(1.0f, target_ + float(dt) * 0.5f);
            if (target_ >= 1.0f) playing_ = false;
        }
        float d = target_ - stage_, step = float(dt) * 2.0f;
        stage_ = std::fabs(d) <= step ? target_ : stage_ + std::copysign(step, d);
    }
    void draw(AppContext& ctx) override;
    nlohmann::json save_settings() const override { return {{"mode", mode_}, {"dtype", dtype_}}; }
    void load_settings(const nlohmann::json& j) override {
        auto it = j.find("mode");
        if (it != j.end()) {
            if (!it->is_number_integer() || it->get<int>() < 0 || it->get<int>() > 2)
                throw UsageError("LoadData scene mode " + it->dump() + "; expected 0, 1 or 2");
            mode_ = it->get<int>();
        }
        auto dt = j.find("dtype");
        if (dt != j.end()) {
            if (!dt->is_string())
                throw UsageError("LoadData scene dtype " + dt->dump() + "; expected a name");
            dtype_ = name(dtype_from_name(dt->get<std::string>()));
        }
        rebuild();
    }

  private:
    void rebuild();
    bool edit(const char* label, int64_t& v);
    void controls();

    int mode_ = 0, path_ = 0;
    std::string dtype_ = "fp16";
    exec::Load2dParams v1_;
    exec::Load2dV2Params v2_;
    exec::Load3dParams v3_;
    exec::LoadResult result_;
    std::shared_ptr<Plan> plan_;
    render::PlanGpu gpu_;
    render::PlanView view_;
    std::string error_;
    float stage_ = 0, target_ = 0;
    bool playing_ = false;
};

void LoadDataPanel::rebuild() {
    try {
        DType t = dtype_from_name(dtype_);
        exec::Path p = exec::parse_path(kPaths[path_], exec::Op::load2d);
        int64_t src_elems = 0;
        std::string title;
        if (mode_ == 0) {
            v1_.dtype = t;
            v1_.src = p.src;
            v1_.dst = p.dst;
            result_ = exec::load2d(v1_);
            src_elems = v1_.src_fractals * result_.geom.elems();
            title = "Load2D";
        } else if (mode_ == 1) {
            v2_.dtype = t;
            v2_.src = p.src;
            v2_.dst = p.dst;
            result_ = exec::load2d_v2(v2_);
            src_elems = v2_.src_fractals * result_.geom.elems();
            title = "Load2Dv2";
        } else {
            v3_.dtype = t;
            result_ = exec::load3d(v3_);
            src_elems = v3_.c1 * v3_.h * v3_.w * v3_.c0();
            title = "Load3D";
        }
        if (result_.dst_of.empty())
            throw UsageError("nothing is moved (a step of 0); expected at least one fractal");
        const bool l3 = mode_ == 2;
        plan_ = std::make_shared<Plan>(exec::load_plan(result_, src_elems, t, title,
                                                       l3 ? "A1 [C1][H][W][C0]" : name(p.src),
                                                       l3 ? "A2" : name(p.dst)));
        gpu_.set_plan(plan_);
        gpu_.set_colours(ColourMode::source_index);
        view_.request_fit(0, -1);
        error_.clear();
    } catch (const UsageError& e) {
        error_ = e.what();
    }
}

bool LoadDataPanel::edit(const char* label, int64_t& v) {
    int x = int(v);
    ImGui::SetNextItemWidth(100 * ImGui::GetIO().FontGlobalScale);
    if (!ImGui::InputInt(label, &x)) return false;
    v = x;  // range checks are the engine's: a bad value shows its message
    return true;
}

void LoadDataPanel::controls() {
    bool ch = false;
    ImGui::SetNextItemWidth(160);
    ch |= ImGui::Combo("instruction", &mode_, kModes, 3);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(90);
    if (ImGui::BeginCombo("dtype", dtype_.c_str())) {
        for (DType t : all_dtypes())
            if (ImGui::Selectable(name(t), dtype_ == name(t))) {
                dtype_ = name(t);
                ch = true;
            }
        ImGui::EndCombo();
    }
    if (mode_ != 2) {
        ImGui::SameLine();
        ImGui::SetNextItemWidth(100);
        ch |= ImGui::Combo("path", &path_, kPaths, 6);
    }
    if (mode_ == 0) {
        ch |= edit("source fractals", v1_.src_fractals);
        ImGui::SameLine();
        ch |= edit("startIndex", v1_.start_index);
        ImGui::SameLine();
        ch |= edit("repeatTimes", v1_.repeat);
        ch |= edit("srcStride", v1_.src_stride);
        ImGui::SameLine();
        ch |= edit("dstGap", v1_.dst_gap);
        ImGui::SameLine();
        ch |= ImGui::Checkbox("ifTranspose", &v1_.transpose);
        ImGui::SameLine();
        ch |= ImGui::Checkbox("decrement", &v1_.decrement);
    } else if (mode_ == 1) {
        ch |= edit("source fractals", v2_.src_fractals);
        ImGui::SameLine();
        ch |= edit("mStart", v2_.m_start);
        ImGui::SameLine();
        ch |= edit("kStart", v2_.k_start);
        ch |= edit("mStep", v2_.m_step);
        ImGui::SameLine();
        ch |= edit("kStep", v2_.k_step);
        ImGui::SameLine();
        ch |= edit("srcStride", v2_.src_stride);
        ImGui::SameLine();
        ch |= edit("dstStride", v2_.dst_stride);
        ImGui::SameLine();
        ch |= ImGui::Checkbox("ifTranspose", &v2_.transpose);
    } else {
        ch |= edit("C1", v3_.c1);
        ImGui::SameLine();
        ch |= edit("H", v3_.h);
        ImGui::SameLine();
        ch |= edit("W", v3_.w);
        ImGui::SameLine();
        ch |= edit("Kh", v3_.kh);
        ImGui::SameLine();
        ch |= edit("Kw", v3_.kw);
        ch |= edit("dilation", v3_.dil_h);
        ImGui::SameLine();
        ch |= edit("stride", v3_.stride_h);
        ImGui::SameLine();
        ch |= edit("pad", v3_.pad_top);
        ImGui::SameLine();
        ch |= edit("repeatMode", v3_.repeat_mode);
        ImGui::SameLine();
        ch |= edit("repeatTime", v3_.repeat);
        v3_.dil_w = v3_.dil_h;
        v3_.stride_w = v3_.stride_h;
        v3_.pad_bottom = v3_.pad_left = v3_.pad_right = v3_.pad_top;
        v3_.left_top_h = v3_.left_top_w = -v3_.pad_top;
        ImGui::SameLine();
        if (ImGui::Button("document 001 example")) {
            v3_ = exec::load3d_doc_example();
            ch = true;
        }
    }
    if (ch) rebuild();
}

void LoadDataPanel::draw(AppContext& ctx) {
    controls();
    if (!error_.empty()) {
        ImGui::TextColored(kErr, "%s", error_.c_str());
        return;
    }
    if (ImGui::Button(playing_ ? "Pause" : "Play")) {
        if (!playing_ && target_ >= 1.0f) stage_ = target_ = 0;
        playing_ = !playing_;
    }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(200);
    if (ImGui::SliderFloat("L1 -> L0", &target_, 0, 1, "%.2f")) playing_ = false;
    ImGui::SameLine();
    int64_t written = 0;
    for (int64_t s : result_.dst_of) written += s >= 0;
    ImGui::Text("%zu fractal copies of %lldx%lld, %lld of %zu destination elements written",
                result_.fractals.size(), (long long)result_.geom.rows, (long long)result_.geom.cols,
                (long long)written, result_.dst_of.size());
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float lw = avail.x * 0.74f;
    render::ViewStyle vs;
    vs.dark = ctx.dark_theme;
    view_.draw(gpu_, stage_, ImVec2(lw, std::max(120.0f, avail.y - 4)), vs);
    ImGui::SameLine();
    ImGui::BeginChild("moves", ImVec2(0, std::max(120.0f, avail.y - 4)), true);
    const char* what = mode_ == 2 ? "kernel pos" : "src fractal";
    for (const auto& f : result_.fractals)
        ImGui::Text("#%lld: %s %lld -> dst %lld%s", (long long)f.iteration, what,
                    (long long)f.src_fractal, (long long)f.dst_fractal, f.transposed ? " (T)" : "");
    if (view_.hovered() >= 0) {
        ImGui::Separator();
        int64_t c = view_.hovered();
        int64_t src = result_.dst_of[size_t(c)];
        ImGui::Text("dst element %lld (fractal %lld)", (long long)c,
                    (long long)(c / result_.geom.elems()));
        if (src >= 0)
            ImGui::Text("<- src element %lld", (long long)src);
        else
            ImGui::TextUnformatted("not written (gap / padding)");
    }
    ImGui::EndChild();
}

}  // namespace

std::unique_ptr<Panel> make_loaddata_panel() {
    return std::make_unique<LoadDataPanel>();
}

}  // namespace ll::gui
