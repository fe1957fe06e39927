#include "app/panels/compute_widgets.hpp"

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

bool labelled_int(const char* label, int64_t& v, float width, bool bad) {
    wrap_for(ImGui::CalcTextSize(label).x + 4 + width * ImGui::GetIO().FontGlobalScale);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(label);
    ImGui::SameLine(0, 4);
    ImGui::PushID(label);
    ImGui::SetNextItemWidth(width * ImGui::GetIO().FontGlobalScale);
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
    ImGui::TextUnformatted(label);
    ImGui::SameLine(0, 4);
    ImGui::PushID(label);
    ImGui::SetNextItemWidth(width * ImGui::GetIO().FontGlobalScale);
    const bool changed = ImGui::SliderFloat("##v", &v, lo, hi, fmt);
    ImGui::PopID();
    return changed;
}

bool names(const std::string& err, const char* param) {
    const std::string p(param);
    return err.compare(0, p.size(), p) == 0 &&
           (err.size() == p.size() || err[p.size()] == ' ' || err[p.size()] == '=');
}

nlohmann::json rect_json(ImVec2 a, ImVec2 b) {
    return {std::lround(a.x), std::lround(a.y), std::lround(b.x), std::lround(b.y)};
}

}  // namespace ll::gui::compute
