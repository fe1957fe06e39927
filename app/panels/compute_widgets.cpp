#include "app/panels/compute_widgets.hpp"

#include "app/i18n/tr.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace ll::gui::compute {

const ImVec4 kErrColour(1.0f, 0.42f, 0.38f, 1.0f);

void wrap_for(float width) {
    if (ImGui::GetCursorPosX() > ImGui::GetStyle().WindowPadding.x + 1 &&
        ImGui::GetContentRegionAvail().x < width)
        ImGui::NewLine();
}

namespace {

// Width of an integer field: `width` at the base font (13 px) grown with the
// font, and never less than six digits plus InputInt's two step buttons (at
// UI scale 1.5 a fixed 90 px left the digits no room at all).
float int_field_width(float width) {
    const ImGuiStyle& st = ImGui::GetStyle();
    const float need = ImGui::CalcTextSize("-000000").x + 2 * st.FramePadding.x +
                       2 * (ImGui::GetFrameHeight() + st.ItemInnerSpacing.x);
    return std::max(width * ImGui::GetFontSize() / 13.f, need);
}

}  // namespace

bool labelled_int(const char* label, int64_t& v, float width, bool bad) {
    width = int_field_width(width);
    wrap_for(ImGui::CalcTextSize(tr(label)).x + 4 + width);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(tr(label));  // label: an English catalog key (trn)
    ImGui::SameLine(0, 4);
    ImGui::PushID(label);
    ImGui::SetNextItemWidth(width);
    if (bad) {
        ImGui::PushStyleColor(ImGuiCol_Border, kErrColour);
        ImGui::PushStyleColor(ImGuiCol_FrameBg, ImVec4(0.45f, 0.12f, 0.12f, 1.0f));
        ImGui::PushStyleVar(ImGuiStyleVar_FrameBorderSize, 2.0f);
    }
    int x = int(std::clamp<int64_t>(v, -(int64_t(1) << 30), int64_t(1) << 30));
    const bool changed = ImGui::InputInt("##v", &x);
    if (bad) {
        ImGui::PopStyleVar();
        ImGui::PopStyleColor(2);
    }
    ImGui::PopID();
    if (changed) v = x;
    return changed;
}

bool labelled_float(const char* label, float& v, float lo, float hi, const char* fmt, float width) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(tr(label));  // label: an English catalog key (trn)
    ImGui::SameLine(0, 4);
    ImGui::PushID(label);
    ImGui::SetNextItemWidth(width * ImGui::GetIO().FontGlobalScale);
    const bool changed = ImGui::SliderFloat("##v", &v, lo, hi, fmt);
    ImGui::PopID();
    return changed;
}

nlohmann::json rect_json(ImVec2 a, ImVec2 b) {
    return {std::lround(a.x), std::lround(a.y), std::lround(b.x), std::lround(b.y)};
}

}  // namespace ll::gui::compute
