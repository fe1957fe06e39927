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

SceneReader::SceneReader(const nlohmann::json& j, std::string panel, std::string prefix)
    : j_(j), panel_(std::move(panel)), prefix_(std::move(prefix)) {}

void SceneReader::fail(const char* key, const nlohmann::json& v,
                       const std::string& expected) const {
    throw UsageError(panel_ + " scene: " + prefix_ + key + " = " + v.dump() + "; expected " +
                     expected);
}

void SceneReader::only(std::initializer_list<const char*> known) const {
    if (!j_.is_object())
        throw UsageError(panel_ + " scene: " + (prefix_.empty() ? "the file" : prefix_) + " is " +
                         j_.dump() + "; expected a JSON object");
    for (auto it = j_.begin(); it != j_.end(); ++it) {
        const std::string& k = it.key();
        bool ok = prefix_.empty() && (k == "panel" || k == "window" || k == "screen");
        for (const char* q : known) ok = ok || k == q;
        if (ok) continue;
        std::string list;
        for (const char* q : known) list += std::string(list.empty() ? "" : ", ") + q;
        throw UsageError(panel_ + " scene: unknown key " + prefix_ + k + "; expected one of " +
                         list);
    }
}

void SceneReader::get(const char* key, int64_t& v, int64_t lo, int64_t hi) const {
    if (!has(key)) return;
    const auto& x = j_.at(key);
    const std::string range = "an integer in " + std::to_string(lo) + ".." + std::to_string(hi);
    if (!x.is_number_integer()) fail(key, x, range);
    const auto y = x.get<int64_t>();
    if (y < lo || y > hi) fail(key, x, range);
    v = y;
}

void SceneReader::get(const char* key, int& v, int lo, int hi) const {
    int64_t w = v;
    get(key, w, lo, hi);
    v = int(w);
}

void SceneReader::get(const char* key, float& v, float lo, float hi) const {
    if (!has(key)) return;
    const auto& x = j_.at(key);
    char range[96];
    std::snprintf(range, sizeof range, "a number in %g..%g", double(lo), double(hi));
    if (!x.is_number()) fail(key, x, range);
    const auto y = x.get<double>();
    if (!(y >= double(lo) && y <= double(hi))) fail(key, x, range);
    v = float(y);
}

void SceneReader::get(const char* key, bool& v) const {
    if (!has(key)) return;
    const auto& x = j_.at(key);
    if (!x.is_boolean()) fail(key, x, "true or false");
    v = x.get<bool>();
}

void SceneReader::get(const char* key, std::string& v) const {
    if (!has(key)) return;
    const auto& x = j_.at(key);
    if (!x.is_string()) fail(key, x, "a string");
    v = x.get<std::string>();
}

void SceneReader::get_pair(const char* key, int64_t& a, int64_t& b, int64_t lo, int64_t hi) const {
    if (!has(key)) return;
    const auto& x = j_.at(key);
    const std::string what = "an integer or a pair [h, w] of integers in " + std::to_string(lo) +
                             ".." + std::to_string(hi);
    auto ok = [&](const nlohmann::json& e) {
        return e.is_number_integer() && e.get<int64_t>() >= lo && e.get<int64_t>() <= hi;
    };
    if (ok(x)) {
        a = b = x.get<int64_t>();
    } else if (x.is_array() && x.size() == 2 && ok(x[0]) && ok(x[1])) {
        a = x[0].get<int64_t>();
        b = x[1].get<int64_t>();
    } else {
        fail(key, x, what);
    }
}

SceneReader SceneReader::sub(const char* key) const {
    static const nlohmann::json empty = nlohmann::json::object();
    if (!has(key)) return SceneReader(empty, panel_, prefix_ + key + ".");
    return SceneReader(j_.at(key), panel_, prefix_ + key + ".");
}

nlohmann::json rect_json(ImVec2 a, ImVec2 b) {
    return {std::lround(a.x), std::lround(a.y), std::lround(b.x), std::lround(b.y)};
}

}  // namespace ll::gui::compute
