// Views: one storage drawn once as a strip, the view drawn as a grid. Apply
// the ops one step at a time and watch strides, offset and the cells each
// view index reads change while the storage stays put; a copying step adds a
// new storage strip filled in the previous view's row-major order. Hovering a
// grid cell shows its address formula and marks the element it reads.
//
// State: the chain (saved), the views after each op (engine data, rebuilt
// when the chain changes), the step shown (saved) and the hover (per frame).
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
        return j;
    }
    void load_settings(const nlohmann::json& j) override {
        ed_.load(j);
        if (j.contains("step") && j["step"].is_number_integer()) step_ = j["step"].get<int>();
        rebuild();
    }

  private:
    void rebuild();
    void draw_canvas();

    viewui::ChainEditor ed_;
    std::vector<view::View> views_;  // views_[k]: after k ops
    std::vector<bool> copied_;
    int step_ = 2;
    std::string error_;
};

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
}

void ViewsPanel::draw(AppContext& ctx) {
    if (ed_.draw(true)) rebuild();
    if (!error_.empty())
        ImGui::TextColored(ImVec4(1, 0.42f, 0.38f, 1), "error: %s", error_.c_str());
    if (views_.empty()) return;
    int last = int(views_.size()) - 1;
    if (ImGui::Button("<")) step_ = std::max(0, step_ - 1);
    ImGui::SameLine();
    if (ImGui::Button(">")) step_ = std::min(last, step_ + 1);
    ImGui::SameLine();
    ImGui::PushItemWidth(200);
    ImGui::SliderInt("step", &step_, 0, last);
    ImGui::PopItemWidth();
    const view::View& v = views_[size_t(step_)];
    ImGui::SameLine();
    ImGui::Text("%s", step_ == 0 ? "input" : ed_.ops[size_t(step_ - 1)].c_str());
    ImGui::Text("layout %s   storage %d%s   %s   storage offset %lld",
                view::to_string(v.layout).c_str(), v.storage, v.storage ? " (a copy)" : "",
                view::is_contiguous(v.layout) ? "contiguous" : "not contiguous",
                static_cast<long long>(v.layout.offset));
    if (step_ > 0 && copied_[size_t(step_)])
        ImGui::TextColored(
            ImVec4(1, 0.8f, 0.3f, 1),
            "this step COPIED: no strided layout reads the previous view this way, so its "
            "elements were written row-major into storage %d",
            v.storage);
    (void)ctx;
    draw_canvas();
}

void ViewsPanel::draw_canvas() {
    const view::View& v = views_[size_t(step_)];
    const view::View& in = views_.front();
    int64_t n0 = in.storage_elems;
    if (v.layout.size() > kMaxCells || n0 > kMaxCells) {
        ImGui::TextUnformatted("(too many elements to draw; use a shape under 4096 elements)");
        return;
    }
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImVec2 o = ImGui::GetCursorScreenPos();
    float avail = std::max(200.0f, ImGui::GetContentRegionAvail().x);
    float cell = std::clamp(avail / float(std::min<int64_t>(n0, 48)), 12.0f, 26.0f);
    auto per_row = std::max<int64_t>(1, int64_t(avail / cell));

    // The storages the current view depends on: storage 0, then each copy in order.
    std::vector<const view::View*> chain;
    for (const view::View* p = &v; p; p = p->source.get()) chain.push_back(p);
    std::reverse(chain.begin(), chain.end());

    Shape s = v.shape();
    int64_t hovered_grid = -1, hovered_store = -1;
    int hovered_storage = -1;
    float y = o.y;
    std::vector<viewui::CellRow> strips;
    for (size_t k = 0; k < chain.size(); ++k) {
        const view::View& sv = *chain[k];
        int64_t count = k == 0 ? n0 : sv.storage_elems;
        dl->AddText(ImVec2(o.x, y), ImGui::GetColorU32(ImGuiCol_Text),
                    k == 0 ? "storage 0 (never moves)"
                           : ("storage " + std::to_string(k) + " (copy)").c_str());
        y += ImGui::GetTextLineHeightWithSpacing();
        viewui::CellRow row{ImVec2(o.x, y), cell, count, per_row};
        // What each element of this storage holds, as an offset of storage 0.
        const view::View* src = k == 0 ? nullptr : chain[k - 1];
        auto origin = [&](int64_t e) {
            return src ? view::resolve(*src, unravel(e, src->shape())) : e;
        };
        int64_t h = row.draw(
            dl, [&](int64_t e) { return viewui::element_colour(origin(e), n0); },
            [&](int64_t e) { return std::to_string(origin(e)); });
        if (h >= 0) hovered_store = h, hovered_storage = int(k);
        strips.push_back(row);
        y += row.height() + cell * 0.5f;
    }
    dl->AddText(
        ImVec2(o.x, y), ImGui::GetColorU32(ImGuiCol_Text),
        ("view " + ll::to_string(s) + ": each cell shows the storage-0 element it reads").c_str());
    y += ImGui::GetTextLineHeightWithSpacing();
    viewui::ViewGrid grid{ImVec2(o.x, y), std::max(cell, 20.0f), s};
    hovered_grid = grid.draw(
        dl, [&](int64_t i) { return viewui::element_colour(view::resolve(v, unravel(i, s)), n0); },
        [&](int64_t i) { return std::to_string(view::resolve(v, unravel(i, s))); });
    y += grid.height();
    ImGui::Dummy(ImVec2(avail, y - o.y + 4));

    const ImU32 mark = IM_COL32(255, 255, 255, 255);
    if (hovered_grid >= 0) {
        Coord c = unravel(hovered_grid, s);
        int64_t off = v.element_offset(c);
        grid.outline(dl, hovered_grid, mark, 3);
        strips.back().outline(dl, off, mark, 3);
        strips.front().outline(dl, view::resolve(v, c), mark, 3);
        std::string f = "index " + ll::to_string(c) + ": address = base + (offset";
        std::string nums = hex(v.base) + " + (" + std::to_string(v.layout.offset);
        for (size_t i = 0; i < c.size(); ++i) {
            const auto& m = v.layout.modes[i];
            f += " + i" + std::to_string(i) + "*s" + std::to_string(i);
            nums += m.flat() ? " + " + std::to_string(c[i]) + "*" + std::to_string(m.subs[0].stride)
                             : " + " + std::to_string(m(c[i]));
        }
        int eb = v.elem_bits / 8;
        f += ") * elem_size";
        nums += ") * " + std::to_string(eb) + " = " + hex(v.address(c)) + "  (element " +
                std::to_string(off) + " of storage " + std::to_string(v.storage) + ")";
        ImGui::SetTooltip("%s\n%s", f.c_str(), nums.c_str());
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
