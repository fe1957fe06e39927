#include "app/gui/lesson_deck.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "app/i18n/fonts.hpp"
#include "app/i18n/tr.hpp"

namespace ll::gui {

std::string lesson_language() {
    return i18n::lang_name(i18n::language());
}

LessonDeck::LessonDeck(lesson::Lesson l, std::string base_dir)
    : l_(std::move(l)), base_dir_(std::move(base_dir)) {}

void LessonDeck::go(size_t i) {
    if (l_.slides.empty()) return;
    i = std::min(i, l_.slides.size() - 1);
    if (i != cur_) pending_ = true;
    cur_ = i;
}

bool LessonDeck::take_pending(size_t& i) {
    if (!pending_) return false;
    pending_ = false;
    i = cur_;
    return true;
}

bool LessonDeck::take_key(int k) {
    switch (k) {
        case GLFW_KEY_PAGE_DOWN:
        case GLFW_KEY_RIGHT:
            go(cur_ + 1);
            return true;
        case GLFW_KEY_PAGE_UP:
        case GLFW_KEY_LEFT:
            go(cur_ == 0 ? 0 : cur_ - 1);
            return true;
        case GLFW_KEY_HOME:
            go(0);
            return true;
        case GLFW_KEY_END:
            go(l_.slides.size() - 1);
            return true;
        case GLFW_KEY_N:
            notes_ = !notes_;
            return true;
        case GLFW_KEY_M:
            menu_ = !menu_;
            return true;
        default:
            return false;
    }
}

void LessonDeck::start_play(double from, double to, double per_second) {
    play_ = to > from && per_second > 0;
    play_pos_ = from;
    play_to_ = to;
    play_speed_ = per_second;
}

bool LessonDeck::advance_play(double dt, double& pos) {
    if (!play_) return false;
    play_pos_ = std::min(play_to_, play_pos_ + dt * play_speed_);
    pos = play_pos_;
    if (play_pos_ >= play_to_) play_ = false;  // this last seek rests at the end
    return true;
}

nlohmann::json LessonDeck::scene_of(size_t i, bool explorer) const {
    nlohmann::json j = l_.slides.at(i).scene;
    if (explorer) j["_base_dir"] = base_dir_.empty() ? "." : base_dir_;
    return j;
}

float LessonDeck::strip(float width, float height, float ui_scale) {
    if (!notes_ || l_.slides.empty()) return 0;
    const lesson::Slide& s = l_.slides[cur_];
    const std::string title = text(s.title), notes = text(s.notes);
    // Chinese notes bake their characters into the atlas before the next frame.
    i18n::want_glyphs(title);
    i18n::want_glyphs(notes);
    char head[96];
    std::snprintf(head, sizeof head, "%zu / %zu", cur_ + 1, l_.slides.size());
    const ImGuiStyle& st = ImGui::GetStyle();
    const float pad = st.WindowPadding.x;
    const float wrap = width - 2 * pad;
    const float line = ImGui::GetTextLineHeightWithSpacing();
    const ImVec2 nt = ImGui::CalcTextSize(notes.c_str(), nullptr, false, wrap);
    // The title line (key hint beside it), a separator, the notes; at most
    // 40 % of the window.
    float h = 2 * st.WindowPadding.y + line + st.ItemSpacing.y + nt.y + 2;
    h = std::min(h, height * 0.4f);
    ImGui::SetNextWindowPos(ImVec2(0, height - h));
    ImGui::SetNextWindowSize(ImVec2(width, h));
    ImGui::PushStyleColor(ImGuiCol_WindowBg, ImGui::GetStyleColorVec4(ImGuiCol_PopupBg));
    ImGui::Begin("##presenter", nullptr,
                 ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
                     ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoFocusOnAppearing);
    ImGui::TextColored(ImGui::GetStyleColorVec4(ImGuiCol_PlotHistogram), "%s", title.c_str());
    const char* hint = tr("PgDn/PgUp: slides   N: notes   M: menu");
    const float hw = ImGui::CalcTextSize(hint).x;
    ImGui::SameLine(std::max(width - hw - ImGui::CalcTextSize(head).x - 3 * pad,
                             ImGui::CalcTextSize(title.c_str()).x + 2 * pad));
    ImGui::TextDisabled("%s   %s", hint, head);
    ImGui::Separator();
    ImGui::PushTextWrapPos(wrap + pad);
    ImGui::TextUnformatted(notes.c_str());
    ImGui::PopTextWrapPos();
    ImGui::End();
    ImGui::PopStyleColor();
    (void)ui_scale;
    return h;
}

}  // namespace ll::gui
