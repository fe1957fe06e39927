// The LoadData scene: fractals travel from L1 (A1/B1) or GM to L0 (A2/B2).
// Every parameter of Load2D v1, Load2Dv2 and Load3D is editable (label before
// the field, the document's name for it); the plan is rebuilt on each edit so
// its effect (start, stride, gap, transpose, decrement, steps, img2col
// windows) is visible at once, and the address formula with the current
// numbers is printed above the picture. A bad value frames its field in red
// and shows the engine's own "<parameter> ...; expected <range>" message
// inline, while the last valid load stays on screen.
//
// Sections: [settings] scene file in/out, [model] rebuild, [draw] controls,
// the formula line, the picture and the list of moves.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "app/i18n/tr.hpp"
#include "app/i18n/tr_text.hpp"
#include "app/panels/compute_widgets.hpp"
#include "app/panels/panel.hpp"
#include "app/panels/playhead.hpp"
#include "app/render/plan_view.hpp"
#include "core/error.hpp"
#include "core/exec/load2d.hpp"
#include "core/exec/load3d.hpp"
#include "core/exec/plans.hpp"
#include "core/exec/product.hpp"

namespace ll::gui {

namespace {

using compute::labelled_int;
const char* kModes[] = {"Load2D (v1)", "Load2Dv2", "Load3D (img2col)"};
const char* kModeKeys[] = {"load2d", "load2dv2", "load3d"};
const char* kPaths[] = {"A1->A2", "B1->B2", "GM->A1", "GM->B1", "GM->A2", "GM->B2"};

// "A2" -> "A2 (L0A)": the buffer and the memory it lives in.
std::string level(const std::string& b) {
    static const char* const kLevels[][2] = {{"A1", "L1"},  {"B1", "L1"},  {"A2", "L0A"},
                                             {"B2", "L0B"}, {"GM", "HBM"}, {"CO1", "L0C"}};
    for (const auto& l : kLevels)
        if (b == l[0]) return b + " (" + l[1] + ")";
    return b;
}

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
        play_.seek(1);  // source and destination side by side from the first frame
    }
    const char* title() const override { return "LoadData"; }
    bool busy() const override { return play_.busy(); }
    Timeline timeline() const override { return timeline_of(play_, "stage"); }
    void seek(double t) override { seek_at_rest(play_, t); }
    void update(double dt) override { play_.update(dt); }
    void draw(AppContext& ctx) override;
    nlohmann::json save_settings() const override;
    void load_settings(const nlohmann::json& j) override;

  private:
    void rebuild();
    void controls();
    void formula_line();
    // `param`: the engine's name for the field when the label differs.
    bool field(const char* label, int64_t& v, const char* param = nullptr) {
        const bool ch = labelled_int(label, v, 90,
                                     !error_key_.empty() && error_key_ == (param ? param : label));
        fields_[label] = compute::rect_json(ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
        return ch;
    }

    int mode_ = 0, path_ = 0;
    std::string dtype_ = "fp16";
    exec::Product product_ = exec::Product::any;  // whose Table 1 applies (document 001)
    exec::Load2dParams v1_;
    exec::Load2dV2Params v2_;
    exec::Load3dParams v3_;
    exec::LoadResult result_;  // of the last valid load (drawn)
    int shown_mode_ = 0;
    std::shared_ptr<Plan> plan_;
    render::PlanGpu gpu_;
    render::PlanView view_;
    // Source and destination side by side: src_view_ rests on the source
    // buffer (stage 0) while view_ moves the cells into the destination.
    render::PlanView src_view_;
    void draw_views(AppContext& ctx, float w, float h);
    std::string error_, error_key_;  // the engine's message and its parameter
    Playhead play_{0, 1};            // 0 the source, 1 the destination
    nlohmann::json screen_ = nlohmann::json::object();
    nlohmann::json fields_ = nlohmann::json::object();  // input rectangles by label
};

// ---- [settings] ----------------------------------------------------------------

nlohmann::json LoadDataPanel::save_settings() const {
    return {{"mode", kModeKeys[mode_]},
            {"product", exec::product_id(product_)},
            {"dtype", dtype_},
            {"path", kPaths[path_]},
            {"stage", play_.target},
            {"load2d",
             {{"src_fractals", v1_.src_fractals},
              {"start_index", v1_.start_index},
              {"repeat", v1_.repeat},
              {"src_stride", v1_.src_stride},
              {"dst_gap", v1_.dst_gap},
              {"transpose", v1_.transpose},
              {"decrement", v1_.decrement}}},
            {"load2dv2",
             {{"src_fractals", v2_.src_fractals},
              {"m_start", v2_.m_start},
              {"k_start", v2_.k_start},
              {"m_step", v2_.m_step},
              {"k_step", v2_.k_step},
              {"src_stride", v2_.src_stride},
              {"dst_stride", v2_.dst_stride},
              {"transpose", v2_.transpose}}},
            {"load3d",
             {{"c1", v3_.c1},
              {"h", v3_.h},
              {"w", v3_.w},
              {"pad", {v3_.pad_left, v3_.pad_right, v3_.pad_top, v3_.pad_bottom}},
              {"c1_index", v3_.c1_index},
              {"fetch_filter", {v3_.fetch_filter_w, v3_.fetch_filter_h}},
              {"left_top", {v3_.left_top_w, v3_.left_top_h}},
              {"stride", {v3_.stride_w, v3_.stride_h}},
              {"filter", {v3_.kw, v3_.kh}},
              {"dilation", {v3_.dil_w, v3_.dil_h}},
              {"jump_stride", v3_.jump_stride},
              {"repeat_mode", v3_.repeat_mode},
              {"repeat", v3_.repeat}}},
            {"moves", int64_t(result_.fractals.size())},
            {"error", error_},
            {"screen", screen_},
            {"fields", fields_}};
}

void LoadDataPanel::load_settings(const nlohmann::json& j) {
    compute::SceneReader r(j, "LoadData");
    r.only({"mode", "product", "dtype", "path", "stage", "playing", "load2d", "load2dv2", "load3d",
            "moves", "error", "fields"});
    constexpr int64_t big = int64_t(1) << 24;  // the engine checks the real ranges
    if (r.has("mode")) {
        std::string m;
        r.get("mode", m);
        auto it = std::find(std::begin(kModeKeys), std::end(kModeKeys), m);
        if (it == std::end(kModeKeys))
            r.fail("mode", j.at("mode"), "\"load2d\", \"load2dv2\" or \"load3d\"");
        mode_ = int(it - std::begin(kModeKeys));
    }
    if (r.has("product")) {
        std::string id;
        r.get("product", id);
        try {
            product_ = exec::product_from_id(id);
        } catch (const UsageError& e) {
            throw UsageError(std::string("LoadData scene: product: ") + e.what());
        }
    }
    if (r.has("dtype")) {
        r.get("dtype", dtype_);
        try {
            dtype_ = name(dtype_from_name(dtype_));
        } catch (const UsageError& e) {
            throw UsageError(std::string("LoadData scene: dtype: ") + e.what());
        }
    }
    if (r.has("path")) {
        std::string p;
        r.get("path", p);
        auto it = std::find_if(std::begin(kPaths), std::end(kPaths),
                               [&](const char* q) { return p == q; });
        if (it == std::end(kPaths))
            r.fail("path", j.at("path"), "A1->A2, B1->B2, GM->A1, GM->B1, GM->A2 or GM->B2");
        path_ = int(it - std::begin(kPaths));
    }
    const compute::SceneReader a = r.sub("load2d");
    a.only({"src_fractals", "start_index", "repeat", "src_stride", "dst_gap", "transpose",
            "decrement"});
    a.get("src_fractals", v1_.src_fractals, -big, big);
    a.get("start_index", v1_.start_index, -big, big);
    a.get("repeat", v1_.repeat, -big, big);
    a.get("src_stride", v1_.src_stride, -big, big);
    a.get("dst_gap", v1_.dst_gap, -big, big);
    a.get("transpose", v1_.transpose);
    a.get("decrement", v1_.decrement);
    const compute::SceneReader b = r.sub("load2dv2");
    b.only({"src_fractals", "m_start", "k_start", "m_step", "k_step", "src_stride", "dst_stride",
            "transpose"});
    b.get("src_fractals", v2_.src_fractals, -big, big);
    b.get("m_start", v2_.m_start, -big, big);
    b.get("k_start", v2_.k_start, -big, big);
    b.get("m_step", v2_.m_step, -big, big);
    b.get("k_step", v2_.k_step, -big, big);
    b.get("src_stride", v2_.src_stride, -big, big);
    b.get("dst_stride", v2_.dst_stride, -big, big);
    b.get("transpose", v2_.transpose);
    const compute::SceneReader c = r.sub("load3d");
    c.only({"c1", "h", "w", "pad", "c1_index", "fetch_filter", "left_top", "stride", "filter",
            "dilation", "jump_stride", "repeat_mode", "repeat"});
    c.get("c1", v3_.c1, -big, big);
    c.get("h", v3_.h, -big, big);
    c.get("w", v3_.w, -big, big);
    if (c.has("pad")) {
        const auto& p = j.at("load3d").at("pad");
        if (!p.is_array() || p.size() != 4 ||
            !std::all_of(p.begin(), p.end(), [](const auto& e) { return e.is_number_integer(); }))
            c.fail("pad", p, "[left, right, top, bottom] integers (padList order)");
        v3_.pad_left = p[0];
        v3_.pad_right = p[1];
        v3_.pad_top = p[2];
        v3_.pad_bottom = p[3];
    }
    c.get("c1_index", v3_.c1_index, -big, big);
    c.get_pair("fetch_filter", v3_.fetch_filter_w, v3_.fetch_filter_h, -big, big);
    c.get_pair("left_top", v3_.left_top_w, v3_.left_top_h, -big, big);
    c.get_pair("stride", v3_.stride_w, v3_.stride_h, -big, big);
    c.get_pair("filter", v3_.kw, v3_.kh, -big, big);
    c.get_pair("dilation", v3_.dil_w, v3_.dil_h, -big, big);
    c.get("jump_stride", v3_.jump_stride, -big, big);
    c.get("repeat_mode", v3_.repeat_mode, -big, big);
    c.get("repeat", v3_.repeat, -big, big);
    rebuild();
    // A scene holds a load that runs: the engine's message names the parameter.
    if (!error_.empty())
        throw UsageError(std::string("LoadData scene (") + kModeKeys[mode_] + "): " + error_);
    double stage = play_.target;
    bool playing = false;
    r.get("stage", stage, 0.0, 1.0);
    r.get("playing", playing);
    play_.seek(stage);
    play_.playing = playing;
}

// ---- [model] -------------------------------------------------------------------

void LoadDataPanel::rebuild() {
    try {
        DType t = dtype_from_name(dtype_);
        exec::Path p = exec::parse_path(kPaths[path_], exec::Op::load2d);
        int64_t src_elems = 0;
        std::string title;
        exec::LoadResult r;
        if (mode_ == 0) {
            v1_.dtype = t;
            v1_.product = product_;
            v1_.src = p.src;
            v1_.dst = p.dst;
            r = exec::load2d(v1_);
            src_elems = v1_.src_fractals * r.geom.elems();
            title = "Load2D";
        } else if (mode_ == 1) {
            v2_.dtype = t;
            v2_.product = product_;
            v2_.src = p.src;
            v2_.dst = p.dst;
            r = exec::load2d_v2(v2_);
            src_elems = v2_.src_fractals * r.geom.elems();
            title = "Load2Dv2";
        } else {
            v3_.dtype = t;
            r = exec::load3d(v3_);
            src_elems = v3_.c1 * v3_.h * v3_.w * v3_.c0();
            title = "Load3D";
        }
        if (r.dst_of.empty())
            throw UsageError("nothing is moved (a step of 0); expected at least one fractal");
        const bool l3 = mode_ == 2;
        auto plan = std::make_shared<Plan>(exec::load_plan(r, src_elems, t, title,
                                                           l3 ? "A1 [C1][H][W][C0]" : name(p.src),
                                                           l3 ? "A2" : name(p.dst)));
        result_ = std::move(r);
        shown_mode_ = mode_;
        plan_ = std::move(plan);
        gpu_.set_plan(plan_);
        gpu_.set_colours(ColourMode::source_index);
        view_.request_fit(0, -1);
        src_view_.request_fit(0, 0);
        error_.clear();
        error_key_.clear();
    } catch (const UsageError& e) {
        error_ = e.what();
        error_key_ = e.key();
    }
}

// ---- [draw] --------------------------------------------------------------------

void LoadDataPanel::controls() {
    bool ch = false;
    fields_ = nlohmann::json::object();
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(tr("instruction"));
    ImGui::SameLine();
    ImGui::SetNextItemWidth(170);
    ch |= ImGui::Combo("##instruction", &mode_, kModes, 3);
    // A red frame on a combo the engine's error is about (its key).
    auto frame_if = [&](const char* key) {
        if (error_key_ != key) return;
        ImGui::GetWindowDrawList()->AddRect(ImGui::GetItemRectMin(), ImGui::GetItemRectMax(),
                                            ImGui::GetColorU32(compute::kErrColour), 0, 0, 2);
    };
    if (mode_ != 2) {
        ImGui::SameLine(0, 16);
        compute::wrap_for(260);
        ImGui::TextUnformatted(tr("product"));
        ImGui::SameLine();
        const float arrow = ImGui::GetFrameHeight() * 1.5f;
        ImGui::SetNextItemWidth(ImGui::CalcTextSize(exec::product_name(product_)).x + arrow);
        if (ImGui::BeginCombo("##product", exec::product_name(product_))) {
            for (exec::Product q : exec::all_products())
                if (ImGui::Selectable(exec::product_name(q), q == product_)) {
                    product_ = q;
                    ch = true;
                }
            ImGui::EndCombo();
        }
        frame_if("product");
    }
    ImGui::SameLine(0, 16);
    compute::wrap_for(140);
    ImGui::TextUnformatted(tr("dtype"));
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::CalcTextSize(tr("fp4x2_e2m1")).x +
                            ImGui::GetFrameHeight() * 1.5f);
    if (ImGui::BeginCombo("##dtype", dtype_.c_str())) {
        for (DType t : all_dtypes())
            if (ImGui::Selectable(name(t), dtype_ == name(t))) {
                dtype_ = name(t);
                ch = true;
            }
        ImGui::EndCombo();
    }
    frame_if("dtype");
    if (mode_ != 2) {
        ImGui::SameLine(0, 16);
        compute::wrap_for(150);
        ImGui::TextUnformatted(tr("path"));
        ImGui::SameLine();
        ImGui::SetNextItemWidth(ImGui::CalcTextSize(tr("GM->A2")).x +
                                ImGui::GetFrameHeight() * 1.5f);
        ch |= ImGui::Combo("##path", &path_, kPaths, 6);
        frame_if("path");
    }
    if (mode_ == 0) {
        ch |= field(trn("source size (fractals)"), v1_.src_fractals, "source size");
        ImGui::SameLine(0, 16);
        ch |= field("startIndex", v1_.start_index);
        ImGui::SameLine(0, 16);
        ch |= field("repeatTimes", v1_.repeat);
        ch |= field("srcStride", v1_.src_stride);
        ImGui::SameLine(0, 16);
        ch |= field("dstGap", v1_.dst_gap);
        ImGui::SameLine(0, 16);
        ch |= ImGui::Checkbox(tr_id("ifTranspose"), &v1_.transpose);
        ImGui::SameLine(0, 16);
        ch |= ImGui::Checkbox(tr_id("addrMode decrement"), &v1_.decrement);
    } else if (mode_ == 1) {
        ch |= field(trn("source size (fractals)"), v2_.src_fractals, "source size");
        ImGui::SameLine(0, 16);
        ch |= field("mStartPosition", v2_.m_start);
        ImGui::SameLine(0, 16);
        ch |= field("kStartPosition", v2_.k_start);
        ch |= field("mStep", v2_.m_step);
        ImGui::SameLine(0, 16);
        ch |= field("kStep", v2_.k_step);
        ImGui::SameLine(0, 16);
        ch |= field("srcStride", v2_.src_stride);
        ImGui::SameLine(0, 16);
        ch |= field("dstStride", v2_.dst_stride);
        ImGui::SameLine(0, 16);
        ch |= ImGui::Checkbox(tr_id("ifTranspose"), &v2_.transpose);
    } else {
        ch |= field("C1", v3_.c1);
        ImGui::SameLine();
        ch |= field("H", v3_.h);
        ImGui::SameLine();
        ch |= field("W", v3_.w);
        ImGui::SameLine(0, 16);
        ch |= field(trn("c1Index"), v3_.c1_index);
        ImGui::SameLine(0, 16);
        ch |= field("filterH", v3_.kh, "filterH");
        ImGui::SameLine();
        ch |= field("filterW", v3_.kw);
        ch |= field("padList left", v3_.pad_left);
        ImGui::SameLine();
        ch |= field(trn("right"), v3_.pad_right, "padList right");
        ImGui::SameLine();
        ch |= field(trn("top"), v3_.pad_top, "padList top");
        ImGui::SameLine();
        ch |= field(trn("bottom"), v3_.pad_bottom, "padList bottom");
        ImGui::SameLine(0, 16);
        ch |= field("leftTopH", v3_.left_top_h);
        ImGui::SameLine();
        ch |= field("leftTopW", v3_.left_top_w);
        ch |= field("strideH", v3_.stride_h);
        ImGui::SameLine();
        ch |= field("strideW", v3_.stride_w);
        ImGui::SameLine(0, 16);
        ch |= field("dilationFilterH", v3_.dil_h);
        ImGui::SameLine();
        ch |= field("dilationFilterW", v3_.dil_w);
        ImGui::SameLine(0, 16);
        ch |= field("fetchFilterH", v3_.fetch_filter_h);
        ImGui::SameLine();
        ch |= field("fetchFilterW", v3_.fetch_filter_w);
        ch |= field("jumpStride", v3_.jump_stride);
        ImGui::SameLine(0, 16);
        ch |= field("repeatMode", v3_.repeat_mode);
        ImGui::SameLine(0, 16);
        ch |= field("repeatTime", v3_.repeat);
        ImGui::SameLine(0, 16);
        if (ImGui::Button(tr_id("document 001 example"))) {
            v3_ = exec::load3d_doc_example();
            ch = true;
        }
    }
    if (ch) rebuild();
}

// The address formula of the instruction with the current numbers.
void LoadDataPanel::formula_line() {
    auto list = [&](auto f) {
        std::string s;
        const size_t n = std::min<size_t>(result_.fractals.size(), 8);
        for (size_t i = 0; i < n; ++i)
            s += (i ? ", " : "") + std::to_string(f(result_.fractals[i]));
        if (result_.fractals.size() > n) s += ", ...";
        return s;
    };
    auto src = list([](const exec::FractalMove& m) { return m.src_fractal; });
    auto dst = list([](const exec::FractalMove& m) { return m.dst_fractal; });
    if (shown_mode_ == 0) {
        ImGui::Text(
            tr("source fractal = startIndex %s i*srcStride = %s;   destination = i*(1+dstGap) "
               "= %s%s"),
            v1_.decrement ? "-" : "+", src.c_str(), dst.c_str(),
            v1_.transpose ? tr(";   each fractal transposed") : "");
    } else if (shown_mode_ == 1) {
        ImGui::Text(tr("source (i,j) = (kStart+j)*srcStride + mStart+i = %s;   destination = "
                       "j*dstStride + i = %s%s"),
                    src.c_str(), dst.c_str(), v2_.transpose ? tr(";   transposed blocks") : "");
    } else {
        ImGui::Text(tr("repeat r reads kernel position %s into destination fractal %s"),
                    src.c_str(), dst.c_str());
    }
}

void LoadDataPanel::draw(AppContext& ctx) {
    // space play/pause, left/Home: the source, right/End: the destination.
    apply_keys(play_, ctx.keys);
    controls();
    if (!error_.empty())
        ImGui::TextColored(compute::kErrColour, tr("%s  (showing the last valid load)"),
                           error_.c_str());
    if (!plan_) return;
    if (ImGui::Button(play_.playing ? tr_id("Pause") : tr_id("Play"))) play_.toggle();
    ImGui::SameLine();
    float t = float(play_.target);
    if (compute::labelled_float(trn("L1 -> L0"), t, 0, 1,
                                t < 0.5f ? "source %.2f" : "destination %.2f", 200)) {
        play_.playing = false;
        play_.go(t);
    }
    ImGui::SameLine(0, 16);
    int64_t written = 0, padded = 0;
    for (int64_t s : result_.dst_of) written += s >= 0;
    for (uint8_t b : result_.padded) padded += b;
    ImGui::Text(tr("%zu fractal copies, %lld of %zu destination elements written"),
                result_.fractals.size(), (long long)written, result_.dst_of.size());
    if (!result_.padded.empty()) {
        ImGui::SameLine(0, 8);
        ImGui::Text(tr("+ %lld padding (padValue)"), (long long)padded);
    }
    if (!result_.dst_format.empty()) {
        // The destination fractal as document 001 writes it for this buffer.
        ImGui::SameLine(0, 16);
        compute::wrap_for(260);
        ImGui::Text(tr("destination fractals %s %lld x %lld%s"), result_.dst_format.c_str(),
                    (long long)result_.dst_rows, (long long)result_.dst_cols,
                    result_.dst_format == "ZN" ? " (32 B / sizeof x 16)" : " (16 x 32 B / sizeof)");
    }
    formula_line();
    // The right-hand picture: where the cells are on their way (0 source, 1 destination).
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped(tr("left: the source at rest; right: %s (Play replays the move)"),
                       play_.value < 0.5 ? tr("the cells still at their source places")
                                         : tr("the cells in the destination"));
    ImGui::PopStyleColor();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float lw = avail.x * 0.74f, h = std::max(120.0f, avail.y - 4);
    draw_views(ctx, lw, h);
    ImGui::SameLine();
    ImGui::BeginChild("moves", ImVec2(0, h), true);
    const char* what = shown_mode_ == 2 ? tr("kernel pos") : tr("src fractal");
    for (const auto& f : result_.fractals)
        ImGui::Text(tr("#%lld: %s %lld -> dst %lld%s"), (long long)f.iteration, what,
                    (long long)f.src_fractal, (long long)f.dst_fractal, f.transposed ? " (T)" : "");
    const int64_t hov = view_.hovered() >= 0 ? view_.hovered() : src_view_.hovered();
    if (hov >= 0 && hov < int64_t(result_.dst_of.size())) {
        ImGui::Separator();
        int64_t c = hov;
        int64_t src = result_.dst_of[size_t(c)];
        ImGui::Text(tr("dst element %lld (fractal %lld)"), (long long)c,
                    (long long)(c / result_.geom.elems()));
        if (src >= 0)
            ImGui::Text(tr("<- src element %lld"), (long long)src);
        else
            ImGui::TextUnformatted(tr("not written (gap / padding)"));
    }
    ImGui::EndChild();
}

// The source buffer (left, at rest) and the destination (right, where the
// cells travel to); hovering a cell on one side outlines it on the other.
void LoadDataPanel::draw_views(AppContext& ctx, float w, float h) {
    const float gap = 8 * ctx.ui_scale, head = ImGui::GetTextLineHeightWithSpacing();
    const float sw = std::floor((w - gap) * 0.45f), dw = w - gap - sw;
    render::ViewStyle vs;
    vs.dark = ctx.dark_theme;
    ImGui::BeginGroup();
    ImGui::Text("source: %s", level(plan_->stages[0].label).c_str());
    vs.highlight = view_.hovered();
    src_view_.draw(gpu_, 0.f, ImVec2(sw, h - head), vs);
    ImGui::EndGroup();
    ImGui::SameLine(0, gap);
    ImGui::BeginGroup();
    ImGui::Text("destination: %s  (cells move %s)", level(plan_->stages[1].label).c_str(),
                play_.value < 0.5 ? "from the source" : "into place");
    vs.highlight = src_view_.hovered();
    view_.draw(gpu_, float(play_.value), ImVec2(dw, h - head), vs);
    ImGui::EndGroup();
    const ImVec2 o = view_.origin(), so = src_view_.origin();
    screen_ = {{"view",
                {{"origin", {o.x, o.y}},
                 {"size", {dw, h - head}},
                 {"zoom", view_.camera().zoom},
                 {"pan", {view_.camera().pan_x, view_.camera().pan_y}},
                 {"labels", render::labels_json(view_.drawn_labels())}}},
               {"source_view",
                {{"origin", {so.x, so.y}},
                 {"size", {sw, h - head}},
                 {"zoom", src_view_.camera().zoom},
                 {"pan", {src_view_.camera().pan_x, src_view_.camera().pan_y}},
                 {"labels", render::labels_json(src_view_.drawn_labels())}}}};
}

}  // namespace

std::unique_ptr<Panel> make_loaddata_panel() {
    return std::make_unique<LoadDataPanel>();
}

}  // namespace ll::gui
