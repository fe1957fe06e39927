// Views: one storage drawn once as a strip, the view drawn as a grid. Apply
// the ops one step at a time and watch strides, offset and the cells each
// view index reads change while the storage stays put; a copying step adds a
// new storage strip filled in the previous view's row-major order (or, for a
// gather, through its index array). The address formula of the hovered cell
// (or of the selected one: click a cell, or "select" in a scene) is written
// out with the strides and the numbers.
//
// Scene keys: shape, layout, base, elem_bytes, ops, step (0 = input, k =
// after k ops), select (an index of the view at that step). save_settings()
// adds "screen": the selected cell's rectangle in the grid and in storage 0
// and in the view's own storage, as [x, y, size] (for tests).
//
// State: the chain and selection (saved), the views after each op (engine
// data, rebuilt when the chain changes), the step shown (saved), the hover
// (per frame) and the screen rectangles of the last frame (for dumps).
#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "app/panels/panel.hpp"
#include "app/panels/view_widgets.hpp"
#include "core/error.hpp"

namespace ll::gui {

namespace {

constexpr int64_t kMaxCells = 4096;

std::string hex(int64_t v) {
    char b[32];
    std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
    return b;
}

// Two lines: the formula in symbols, then with this view's numbers.
std::pair<std::string, std::string> address_formula(const view::View& v, const Coord& c) {
    std::string f = "index " + ll::to_string(c) + ":  address = base + (offset";
    std::string nums = hex(v.base) + " + (" + std::to_string(v.layout.offset);
    for (size_t i = 0; i < c.size(); ++i) {
        const auto& m = v.layout.modes[i];
        f += " + i" + std::to_string(i) + "*s" + std::to_string(i);
        nums += m.flat() ? " + " + std::to_string(c[i]) + "*" + std::to_string(m.subs[0].stride)
                         : " + " + std::to_string(m(c[i]));
    }
    f += ") * elem_size";
    nums += ") * " + std::to_string(v.elem_bits / 8) + " = " + hex(v.address(c)) + "   (element " +
            std::to_string(v.element_offset(c)) + " of storage " + std::to_string(v.storage) +
            (v.storage ? ", storage-0 element " + std::to_string(view::resolve(v, c)) : "") + ")";
    return {f, nums};
}

class ViewsPanel : public Panel {
  public:
    ViewsPanel() {
        ed_.ops = {"transpose:1,2", "reshape:6,4"};
        rebuild();
    }
    const char* title() const override { return "Views"; }
    void draw(AppContext& ctx) override;
    nlohmann::json save_settings() const override {
        nlohmann::json j = ed_.save();
        j["step"] = step_;
        j["select"] = select_;
        if (!screen_.empty()) j["screen"] = screen_;
        return j;
    }
    void load_settings(const nlohmann::json& j) override;

  private:
    void rebuild();
    void draw_canvas();
    bool select_valid() const {
        const view::View& v = views_[size_t(step_)];
        if (select_.size() != v.layout.rank()) return false;
        for (size_t i = 0; i < select_.size(); ++i)
            if (select_[i] < 0 || select_[i] >= v.layout.modes[i].size()) return false;
        return true;
    }

    viewui::ChainEditor ed_;
    std::vector<view::View> views_;  // views_[k]: after k ops
    std::vector<bool> copied_;
    int step_ = 2;
    Coord select_;           // selected view index (empty: none)
    int64_t hovered_ = -1;   // grid cell under the mouse last frame
    nlohmann::json screen_;  // rectangles drawn last frame
    std::string error_;
};

void ViewsPanel::load_settings(const nlohmann::json& j) {
    viewui::check_keys(j, "views",
                       {"shape", "layout", "base", "elem_bytes", "ops", "step", "select"});
    ed_.load(j);
    ed_.validate();
    rebuild();
    if (j.contains("step")) {
        const auto& s = j["step"];
        if (!s.is_number_integer() || s.get<int64_t>() < 0 ||
            s.get<int64_t>() >= int64_t(views_.size()))
            throw UsageError("scene: 'step' must be an integer 0.." +
                             std::to_string(views_.size() - 1) +
                             " (0 = the input, k = after k ops)");
        step_ = s.get<int>();
    } else {
        step_ = int(views_.size()) - 1;
    }
    select_.clear();
    if (j.contains("select") && !j["select"].is_null()) {
        const auto& s = j["select"];
        bool ints = s.is_array() && std::all_of(s.begin(), s.end(), [](const nlohmann::json& x) {
                        return x.is_number_integer();
                    });
        if (ints) select_ = s.get<Coord>();
        if (!ints || (!select_.empty() && !select_valid()))
            throw UsageError("scene: 'select' must be an index of the view at step " +
                             std::to_string(step_) + ", shape " +
                             ll::to_string(views_[size_t(step_)].shape()) + ", e.g. [0,1,2]");
    }
}

void ViewsPanel::rebuild() {
    try {
        std::vector<view::View> vs{ed_.input()};
        std::vector<bool> cp{false};
        for (const auto& op : ed_.parsed_ops()) {
            view::Applied a = view::apply(vs.back(), op);
            vs.push_back(a.view);
            cp.push_back(a.copied);
        }
        views_ = vs;
        copied_ = cp;
        error_.clear();
    } catch (const UsageError& e) {
        error_ = e.what();
    }
    step_ = std::clamp(step_, 0, std::max(0, int(views_.size()) - 1));
    if (!views_.empty() && !select_valid()) select_.clear();
}

void ViewsPanel::draw(AppContext& ctx) {
    (void)ctx;
    if (ed_.draw(true)) rebuild();
    if (!error_.empty())
        ImGui::TextColored(ImVec4(1, 0.42f, 0.38f, 1), "error: %s", error_.c_str());
    if (views_.empty()) return;
    int last = int(views_.size()) - 1;
    int before = step_;
    if (ImGui::Button("<")) step_ = std::max(0, step_ - 1);
    ImGui::SameLine();
    if (ImGui::Button(">")) step_ = std::min(last, step_ + 1);
    ImGui::SameLine();
    ImGui::PushItemWidth(200);
    ImGui::SliderInt("step", &step_, 0, last);
    ImGui::PopItemWidth();
    if (step_ != before && !select_valid()) select_.clear();
    const view::View& v = views_[size_t(step_)];
    ImGui::SameLine();
    ImGui::Text("%s", step_ == 0 ? "input" : ed_.ops[size_t(step_ - 1)].c_str());
    ImGui::Text("shape %s   strides %s   storage offset %lld   %s   storage %d%s",
                ll::to_string(v.shape()).c_str(),
                v.layout.flat() ? ll::to_string(v.layout.strides()).c_str()
                                : view::to_string(v.layout).c_str(),
                static_cast<long long>(v.layout.offset),
                view::is_contiguous(v.layout) ? "contiguous" : "not contiguous", v.storage,
                v.storage ? (v.gather ? " (gathered)" : " (a copy)") : "");
    if (step_ > 0 && copied_[size_t(step_)])
        ImGui::TextColored(ImVec4(1, 0.8f, 0.3f, 1),
                           v.gather   ? "this step COPIED: a gather whose indices are not an "
                                        "arithmetic run wrote the picked elements into storage %d"
                           : v.im2col ? "this step COPIED: one strided layout per dim cannot hold "
                                        "overlapping windows, so the im2col matrix was written "
                                        "into storage %d"
                                      : "this step COPIED: no strided layout reads the previous "
                                        "view this way, so its elements were written row-major "
                                        "into storage %d",
                           v.storage);
    // The address formula: the hovered cell (last frame), else the selected one.
    Shape s = v.shape();
    Coord shown;
    if (hovered_ >= 0 && hovered_ < v.layout.size())
        shown = unravel(hovered_, s);
    else if (select_valid())
        shown = select_;
    if (!shown.empty()) {
        auto [f, nums] = address_formula(v, shown);
        ImGui::TextColored(ImVec4(0.55f, 0.85f, 1, 1), "%s", f.c_str());
        ImGui::TextColored(ImVec4(0.55f, 0.85f, 1, 1), "%s", nums.c_str());
    } else {
        ImGui::TextDisabled("hover or click a view cell for its address formula");
        ImGui::TextDisabled(" ");
    }
    ImGui::Separator();
    draw_canvas();
}

void ViewsPanel::draw_canvas() {
    const view::View& v = views_[size_t(step_)];
    const view::View& in = views_.front();
    int64_t n0 = in.storage_elems;
    screen_ = nlohmann::json();
    if (v.layout.size() > kMaxCells || n0 > kMaxCells) {
        ImGui::TextUnformatted("(too many elements to draw; use a shape under 4096 elements)");
        return;
    }
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImVec2 o = ImGui::GetCursorScreenPos();
    float avail = std::max(200.0f, ImGui::GetContentRegionAvail().x);
    float cell = std::clamp(avail / float(std::min<int64_t>(n0, 40)), 12.0f, 40.0f);
    auto per_row = std::max<int64_t>(1, int64_t(avail / cell));

    // The storages the current view depends on: storage 0, then each copy in
    // order; chain[k] lives on storage k and was filled from chain[k-1].
    std::vector<const view::View*> chain;
    for (const view::View* p = &v; p; p = p->source.get()) chain.push_back(p);
    std::reverse(chain.begin(), chain.end());

    Shape s = v.shape();
    // What the view reads: storage-0 elements and cells of its own storage;
    // the rest is drawn dimmed (a slice or a select leaves them unread).
    std::vector<bool> read0(size_t(n0), false), read_own(size_t(v.storage_elems), false);
    for (int64_t i = 0; i < v.layout.size(); ++i) {
        Coord c = unravel(i, s);
        int64_t e = view::resolve(v, c), off = v.element_offset(c);
        if (e >= 0 && e < n0) read0[size_t(e)] = true;
        if (off >= 0 && off < v.storage_elems) read_own[size_t(off)] = true;
    }
    int64_t hovered_store = -1;
    int hovered_storage = -1;
    float y = o.y;
    std::vector<viewui::CellRow> strips;
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    for (size_t k = 0; k < chain.size(); ++k) {
        const view::View& sv = *chain[k];
        int64_t count = k == 0 ? n0 : sv.storage_elems;
        std::string label = k == 0 ? "storage 0 (never moves)"
                                   : "storage " + std::to_string(k) +
                                         (sv.gather   ? " (gathered through an index array)"
                                          : sv.im2col ? " (the im2col matrix, window by window)"
                                                      : " (a row-major copy)");
        dl->AddText(ImVec2(o.x, y), text, label.c_str());
        y += ImGui::GetTextLineHeightWithSpacing();
        viewui::CellRow row{ImVec2(o.x, y), cell, count, per_row};
        // What each element of this storage holds, as an offset of storage 0.
        auto origin = [&](int64_t e) {
            return k == 0 ? e : view::resolve(*sv.source, view::source_coord(sv, e));
        };
        bool last = k + 1 == chain.size();
        auto alpha = [&](int64_t e) {
            bool read = last ? read_own[size_t(e)] : k == 0 ? read0[size_t(e)] : true;
            return read ? 1.0f : 0.3f;
        };
        int64_t h = row.draw(
            dl, [&](int64_t e) { return viewui::element_colour(origin(e), n0, alpha(e)); },
            [&](int64_t e) { return std::to_string(origin(e)); });
        if (h >= 0) hovered_store = h, hovered_storage = int(k);
        strips.push_back(row);
        y += row.height() + cell * 0.5f;
    }
    dl->AddText(ImVec2(o.x, y), text,
                ("view " + ll::to_string(s) + ": each cell shows the storage-0 element it reads" +
                 (v.storage ? ", through storage " + std::to_string(v.storage) : "") +
                 "; dimmed storage cells are not read")
                    .c_str());
    y += ImGui::GetTextLineHeightWithSpacing();
    viewui::ViewGrid grid{ImVec2(o.x, y), std::max(cell, 30.0f), s};
    int64_t hovered_grid = grid.draw(
        dl, [&](int64_t i) { return viewui::element_colour(view::resolve(v, unravel(i, s)), n0); },
        [&](int64_t i) { return std::to_string(view::resolve(v, unravel(i, s))); });
    y += grid.height();
    ImGui::Dummy(ImVec2(avail, y - o.y + 4));
    hovered_ = hovered_grid;
    if (hovered_grid >= 0 && ImGui::IsMouseClicked(0)) select_ = unravel(hovered_grid, s);

    const ImU32 mark = IM_COL32(255, 255, 255, 255);
    const ImU32 sel = IM_COL32(255, 220, 60, 255);
    if (select_valid()) {
        int64_t i = ravel(select_, s);
        int64_t off = v.element_offset(select_), e0 = view::resolve(v, select_);
        grid.outline(dl, i, sel, 3);
        strips.back().outline(dl, off, sel, 3);
        strips.front().outline(dl, e0, sel, 3);
        screen_ = {{"select_grid", viewui::rect_json(grid.cell_pos(i), grid.cell)},
                   {"select_storage0", viewui::rect_json(strips.front().cell_pos(e0), cell)},
                   {"select_storage", viewui::rect_json(strips.back().cell_pos(off), cell)}};
    }
    if (hovered_grid >= 0) {
        Coord c = unravel(hovered_grid, s);
        grid.outline(dl, hovered_grid, mark, 3);
        strips.back().outline(dl, v.element_offset(c), mark, 3);
        strips.front().outline(dl, view::resolve(v, c), mark, 3);
    } else if (hovered_store >= 0) {
        // Every view index that reads this element (several under a broadcast).
        const view::View& sv = *chain[size_t(hovered_storage)];
        int count = 0;
        for (int64_t i = 0; i < v.layout.size(); ++i) {
            Coord c = unravel(i, s);
            // The view reads the last storage directly and storage 0 through the copies.
            bool hit = (hovered_storage == int(chain.size()) - 1 &&
                        v.element_offset(c) == hovered_store) ||
                       (hovered_storage == 0 && view::resolve(v, c) == hovered_store);
            if (hit) {
                grid.outline(dl, i, mark, 3);
                ++count;
            }
        }
        strips[size_t(hovered_storage)].outline(dl, hovered_store, mark, 3);
        ImGui::SetTooltip("storage %d element %lld: read by %d view indices", sv.storage,
                          static_cast<long long>(hovered_store), count);
    }
}

}  // namespace

std::unique_ptr<Panel> make_views_panel() {
    return std::make_unique<ViewsPanel>();
}

}  // namespace ll::gui
