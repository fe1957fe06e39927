// Views: one storage drawn once as a strip, the view drawn as a grid. Apply
// the ops one step at a time and watch strides, offset and the cells each
// view index reads change while the storage stays put; a copying step adds a
// new storage strip filled in the previous view's row-major order (or, for a
// gather, through its index array). The address formula of the hovered cell
// (or of the selected one: click a cell, or "select" in a scene) is written
// out with the strides and the numbers. The picture is core's
// (view::views_scene), drawn by the cell renderer.
//
// Scene keys: shape, layout, base, elem_bytes, ops, step (0 = input, k =
// after k ops), select (an index of the view at that step). probe()
// (--dump-view) holds "screen": the selected cell's rectangle in
// the grid, in storage 0 and in the view's own storage as [x, y, size], and
// the canvas and picture rectangles.
//
// State: the settings (saved); the views after each op and the scene
// (engine data, rebuilt when the chain, the step or the canvas changes); the
// hover (per frame) and the probe of the last frame (for dumps).
#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "app/i18n/tr.hpp"
#include "app/i18n/tr_text.hpp"
#include "app/panels/compact.hpp"
#include "app/panels/panel.hpp"
#include "app/panels/present.hpp"
#include "app/panels/scene_reader.hpp"
#include "app/panels/view_widgets.hpp"
#include "app/render/present.hpp"
#include "core/error.hpp"
#include "core/view/layout.hpp"
#include "core/view/view_plans.hpp"

namespace ll::gui {

namespace {

struct ViewsSettings {
    viewui::ChainEditor chain;
    int step = 2;
    Coord select;  // a view index at `step` (empty: none)
    ViewsSettings() { chain.ops = {"transpose:1,2", "reshape:6,4"}; }
    nlohmann::json to_json() const {
        nlohmann::json j = chain.to_json(true);
        j["step"] = step;
        j["select"] = select;
        return j;
    }
};

class ViewsPanel : public Panel {
  public:
    ViewsPanel() { rebuild(); }
    const char* title() const override { return "Views"; }
    void draw(AppContext& ctx) override;
    void draw_present(AppContext& ctx);
    void step_keys(const std::vector<Key>& keys, int last);
    nlohmann::json save_settings() const override { return set_.to_json(); }
    nlohmann::json probe() const override {
        nlohmann::json p = nlohmann::json::object();
        if (!probe_.empty()) p["screen"] = probe_;
        return p;
    }
    void load_settings(const nlohmann::json& j) override;

  private:
    void rebuild();
    bool select_valid() const {
        if (chain_.views.empty()) return false;
        const view::View& v = chain_.views[size_t(set_.step)];
        if (set_.select.size() != v.layout.rank()) return false;
        for (size_t i = 0; i < set_.select.size(); ++i)
            if (set_.select[i] < 0 || set_.select[i] >= v.layout.modes[i].size()) return false;
        return true;
    }
    void draw_canvas(bool dark);
    nlohmann::json make_probe();

    ViewsSettings set_;
    view::Chain chain_;          // engine data, from the settings
    std::vector<view::Op> ops_;  // the parsed ops of the chain
    view::ViewsScene scene_;     // the picture of the current step
    viewui::Picture pic_;
    int scene_step_ = -1;  // the step scene_ shows
    std::string error_, draw_error_;
    int64_t hovered_ = -1;  // cell under the mouse last frame
    nlohmann::json probe_;  // rectangles drawn last frame
};

void ViewsPanel::load_settings(const nlohmann::json& j) {
    SceneReader r(j, "views");
    r.only({"shape", "layout", "base", "elem_bytes", "ops", "step", "select"});
    set_.chain.from_json(r);
    try {
        chain_ = view::apply_chain(set_.chain.input(), set_.chain.parsed_ops());
    } catch (const std::exception& e) {
        r.rethrow(e);
    }
    set_.step = int(chain_.views.size()) - 1;
    r.get("step", set_.step, 0, int(chain_.views.size()) - 1);
    set_.select.clear();
    if (r.has("select") && !r.at("select").is_null()) {
        const auto& s = r.at("select");
        bool ints = s.is_array() && std::all_of(s.begin(), s.end(), [](const nlohmann::json& x) {
                        return x.is_number_integer();
                    });
        if (ints) set_.select = s.get<Coord>();
        if (!ints || (!set_.select.empty() && !select_valid()))
            r.fail("select", s,
                   "an index of the view at step " + std::to_string(set_.step) + ", shape " +
                       ll::to_string(chain_.views[size_t(set_.step)].shape()) + ", e.g. [0,1,2]");
    }
    rebuild();
}

void ViewsPanel::rebuild() {
    try {
        std::vector<view::Op> ops = set_.chain.parsed_ops();
        chain_ = view::apply_chain(set_.chain.input(), ops);
        ops_ = std::move(ops);
        error_.clear();
    } catch (const UsageError& e) {
        error_ = e.what();
    }
    set_.step = std::clamp(set_.step, 0, std::max(0, int(chain_.views.size()) - 1));
    if (!chain_.views.empty() && !select_valid()) set_.select.clear();
    scene_step_ = -1;  // the picture follows on the next draw
}

// Presentation mode: the storage and the view at this step fill the slide;
// the caption names the op and the view's strides. Keys step through the ops.
// Left/right step through the ops, Home/End jump to the ends.
void ViewsPanel::step_keys(const std::vector<Key>& keys, int last) {
    for (Key k : keys) {
        if (k == Key::left) set_.step = std::max(0, set_.step - 1);
        if (k == Key::right) set_.step = std::min(last, set_.step + 1);
        if (k == Key::home) set_.step = 0;
        if (k == Key::end) set_.step = last;
    }
}

void ViewsPanel::draw_present(AppContext& ctx) {
    if (chain_.views.empty()) return;
    const int last = int(chain_.views.size()) - 1, before = set_.step;
    step_keys(ctx.keys, last);
    if (set_.step != before && !select_valid()) set_.select.clear();
    const view::View& v = chain_.views[size_t(set_.step)];
    ctx.caption.title =
        "step " + std::to_string(set_.step) + " of " + std::to_string(last) + ": " +
        (set_.step == 0 ? std::string("input") : set_.chain.ops[size_t(set_.step - 1)]);
    ctx.caption.formula =
        "shape " + ll::to_string(v.shape()) + "   strides " +
        (v.layout.flat() ? ll::to_string(v.layout.strides()) : view::to_string(v.layout)) +
        (view::is_contiguous(v.layout) ? "   contiguous" : "   not contiguous");
    draw_canvas(ctx.dark_theme);
}

void ViewsPanel::draw(AppContext& ctx) {
    if (ctx.present) {
        draw_present(ctx);
        return;
    }
    // On a short window the chain editor folds under a header naming the
    // shape and the ops, so the picture keeps the height.
    const bool compact = compact_layout();
    std::string chain_text;
    for (const std::string& o : set_.chain.ops) chain_text += "  " + o;
    if (!compact || compact_header(std::string(tr("edit: shape ")) + set_.chain.shape +
                                       std::string(tr(", ops")) + chain_text,
                                   "views_chain"))
        if (set_.chain.draw(true)) rebuild();
    if (!error_.empty())
        ImGui::TextColored(render::theme_colour(render::Role::error), tr("error: %s"),
                           tr_text(error_).c_str());
    if (chain_.views.empty()) return;
    int last = int(chain_.views.size()) - 1;
    int before = set_.step;
    if (ImGui::Button("<")) set_.step = std::max(0, set_.step - 1);
    ImGui::SameLine();
    if (ImGui::Button(">")) set_.step = std::min(last, set_.step + 1);
    ImGui::SameLine();
    ImGui::PushItemWidth(200);
    ImGui::SliderInt(tr_id("step"), &set_.step, 0, last);
    ImGui::PopItemWidth();
    step_keys(ctx.keys, last);
    if (set_.step != before && !select_valid()) set_.select.clear();
    const view::View& v = chain_.views[size_t(set_.step)];
    ImGui::SameLine();
    ImGui::Text("%s", set_.step == 0 ? tr("input") : set_.chain.ops[size_t(set_.step - 1)].c_str());
    ImGui::Text(tr("shape %s   strides %s   storage offset %lld   %s   storage %d%s"),
                ll::to_string(v.shape()).c_str(),
                v.layout.flat() ? ll::to_string(v.layout.strides()).c_str()
                                : view::to_string(v.layout).c_str(),
                static_cast<long long>(v.layout.offset),
                view::is_contiguous(v.layout) ? tr("contiguous") : tr("not contiguous"), v.storage,
                v.storage ? (v.gather ? tr(" (gathered)") : tr(" (a copy)")) : "");
    if (set_.step > 0) {
        // What the step costs, from the same core function as fusion's unfused bytes.
        const view::StepCost cost =
            view::step_cost(chain_.views[size_t(set_.step - 1)], ops_[size_t(set_.step - 1)]);
        const char* why = v.gather ? tr("a gather whose indices are not an arithmetic run")
                          : v.im2col
                              ? tr("one strided layout per dim cannot hold overlapping windows")
                              : tr("no strided layout reads the previous view this way");
        ImGui::PushTextWrapPos(0.0f);  // the copy line wraps instead of running off
        if (cost.moves)
            ImGui::TextColored(
                render::theme_colour(render::Role::accent),
                tr("this step COPIES (%s): reads %lld B, writes %lld B into storage %d"), why,
                static_cast<long long>(cost.read_bytes), static_cast<long long>(cost.write_bytes),
                v.storage);
        else
            ImGui::TextDisabled(
                "%s", tr("this step is free: a new view of the same storage, nothing moves"));
        ImGui::PopTextWrapPos();
    } else {
        ImGui::TextDisabled("%s", tr("the input: step through the ops with < > (or left / right)"));
    }
    // The address formula: the hovered grid cell (last frame), else the selected one.
    Shape s = v.shape();
    Coord shown;
    int64_t gi = hovered_ - scene_.grid_first;
    if (hovered_ >= 0 && gi >= 0 && gi < v.layout.size())
        shown = unravel(gi, s);
    else if (select_valid())
        shown = set_.select;
    ImVec4 info = render::theme_colour(render::Role::info);
    if (!shown.empty()) {
        auto [f, nums] = view::address_formula(v, shown);
        ImGui::TextColored(info, "%s", tr_text(f).c_str());
        ImGui::TextColored(info, "%s", tr_text(nums).c_str());
    } else {
        ImGui::TextDisabled("%s", tr("hover or click a view cell for its address formula"));
        ImGui::TextDisabled(" ");
    }
    ImGui::Separator();
    draw_canvas(ctx.dark_theme);
}

void ViewsPanel::draw_canvas(bool dark) {
    const view::View& v = chain_.views[size_t(set_.step)];
    view::Canvas c = viewui::canvas_here();
    if (scene_step_ != set_.step || pic_.needs_layout(c)) {
        try {
            scene_ = view::views_scene(chain_, size_t(set_.step), c);
            pic_.set(scene_.plan, c);
            draw_error_.clear();
        } catch (const UsageError& e) {
            draw_error_ = e.what();
            pic_.has_plan = false;
        }
        scene_step_ = set_.step;
    }
    probe_ = nlohmann::json();
    if (!draw_error_.empty()) {
        ImGui::TextWrapped("(%s)", tr_text(draw_error_).c_str());
        hovered_ = -1;
        return;
    }
    pic_.draw(0, ImVec2(c.w, c.h), dark);
    hovered_ = pic_.view.hovered();
    const Shape s = v.shape();
    int64_t gi = hovered_ - scene_.grid_first;
    if (pic_.view.clicked() && hovered_ >= 0 && gi >= 0 && gi < v.layout.size())
        set_.select = unravel(gi, s);
    // The cells that belong with the selection and with the hover.
    std::vector<int64_t> marks;
    if (select_valid()) {
        int64_t cell = scene_.grid_first + ravel(set_.select, s);
        marks.push_back(cell);
        for (int64_t o : scene_.links[size_t(cell)]) marks.push_back(o);
    }
    if (hovered_ >= 0 && hovered_ < int64_t(scene_.links.size()))
        for (int64_t o : scene_.links[size_t(hovered_)]) marks.push_back(o);
    pic_.outline(marks, 0, dark);
    probe_ = make_probe();
    // Storage cells: core links storage 0's and the view's own storage's
    // cells to the grid; the copies in between are read by the next copy.
    const auto& first = scene_.strip_first;
    bool between = first.size() > 2 && hovered_ >= first[1] && hovered_ < first.back();
    if (hovered_ >= 0 && (gi < 0 || gi >= v.layout.size()) && !between) {
        const Plan& p = scene_.plan;
        ImGui::SetTooltip(tr("storage-0 element %lld: read by %zu view indices"),
                          static_cast<long long>(p.src[size_t(hovered_)]),
                          scene_.links[size_t(hovered_)].size());
    }
}

nlohmann::json ViewsPanel::make_probe() {
    nlohmann::json j = pic_.probe();
    if (!select_valid()) return j;
    const view::View& v = chain_.views[size_t(set_.step)];
    int64_t cell = scene_.grid_first + ravel(set_.select, v.shape());
    // The storage cells core linked to the grid cell: its own storage's
    // cell first, then storage 0's (when the view reads through copies).
    const std::vector<int64_t>& reads = scene_.links[size_t(cell)];
    j["select_grid"] = pic_.rect(cell, 0);
    if (!reads.empty()) {
        j["select_storage"] = pic_.rect(reads.front(), 0);
        j["select_storage0"] = pic_.rect(reads.back(), 0);
    }
    return j;
}

}  // namespace

std::unique_ptr<Panel> make_views_panel() {
    return std::make_unique<ViewsPanel>();
}

}  // namespace ll::gui
