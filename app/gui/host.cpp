#include "app/gui/host.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <string>

#include "app/gui/present_caption.hpp"
#include "app/i18n/fonts.hpp"
#include "app/i18n/tr.hpp"
#include "app/i18n/tr_text.hpp"
#include "app/render/palette.hpp"
#include "app/render/present.hpp"
#include "core/error.hpp"

namespace ll::gui {

std::atomic<int> g_signal_shots{0};
std::atomic<bool> g_quit{false};

namespace {
extern "C" void on_usr1(int) {
    g_signal_shots.fetch_add(1);
}
extern "C" void on_term(int) {
    g_quit.store(true);
}

}  // namespace

void install_test_signals() {
    std::signal(SIGUSR1, on_usr1);
    std::signal(SIGTERM, on_term);
}

void Host::apply_style() {
    // New characters to show (a Chinese file name, typed text) or another
    // language: the font atlas is rebuilt with them before this frame.
    if (applied_scale_ == st_.ui_scale && i18n::glyphs_pending()) pf_.set_fonts(st_.ui_scale);
    if (applied_scale_ == st_.ui_scale && applied_dark_ == st_.dark) return;
    ImGuiStyle style;
    if (st_.dark)
        ImGui::StyleColorsDark(&style);
    else
        ImGui::StyleColorsLight(&style);
    style.WindowRounding = 0;
    style.FrameRounding = 3;
    // Hints and secondary text (TextDisabled) in the palette's dim role:
    // ImGui's light grey read at 2.6:1 on the light window, under the 4.5:1
    // the palette keeps for every text.
    const render::Colour dim = render::palette(st_.dark)[render::Role::dim];
    style.Colors[ImGuiCol_TextDisabled] =
        ImVec4(float(dim[0]) / 255.f, float(dim[1]) / 255.f, float(dim[2]) / 255.f, 1.f);
    style.ScaleAllSizes(st_.ui_scale);
    ImGui::GetStyle() = style;
    if (applied_scale_ != st_.ui_scale) pf_.set_fonts(st_.ui_scale);
    applied_scale_ = st_.ui_scale;
    applied_dark_ = st_.dark;
}

// Panels asked to show another panel on given settings (AppContext::open_requests).
void Host::open_requested() {
    for (const OpenRequest& r : ctx_.open_requests) {
        for (size_t i = 0; i < slots_.size(); ++i) {
            PanelSlot& s = slots_[i];
            if (r.panel != s.entry->id) continue;
            if (!s.panel) s.panel = s.entry->make();
            s.open = true;
            try {
                i18n::want_glyphs_in(r.settings);
                s.panel->load_settings(r.settings);
            } catch (const UsageError& e) {
                ctx_.status = std::string("error: ") + e.what();
            }
            if (i != main_) ImGui::SetWindowFocus(tr_id(s.entry->title));
        }
    }
    ctx_.open_requests.clear();
}

void Host::show_panel(const std::string& id, const nlohmann::json& settings) {
    for (size_t i = 0; i < slots_.size(); ++i) {
        if (id != slots_[i].entry->id) continue;
        // A fresh panel: a slide looks the same whichever slide came before
        // (no glide from the last one's view, no leftover selection).
        slots_[i].panel = slots_[i].entry->make();
        slots_[i].open = true;
        slots_[main_].open = main_ == i;  // the old full-window panel steps back
        main_ = i;
        i18n::want_glyphs_in(settings);  // Chinese text in the scene
        slots_[i].panel->load_settings(settings);
        return;
    }
    throw UsageError("panel: '" + id + "' is not a panel");
}

void Host::show_slide(size_t i) {
    const lesson::Lesson& l = lesson_->lesson();
    const lesson::Slide& s = l.slides.at(i);
    const std::string id = s.panel.empty() ? panel_registry().front().id : s.panel;
    if (!find_panel(id)) {
        std::string ids;
        for (const PanelEntry& e : panel_registry())
            ids += std::string(ids.empty() ? "" : ", ") + e.id;
        throw UsageError("--lesson: " + lesson::slide_name(l, i) + ": scene.panel: '" + id +
                         "' is not a panel; expected one of " + ids);
    }
    try {
        show_panel(id, lesson_->scene_of(i, id == panel_registry().front().id));
    } catch (const UsageError& e) {
        throw UsageError("--lesson: " + lesson::slide_name(l, i) + ": scene: " + e.what());
    }
    lesson_->start_play(0, 0, 1);
    if (s.has_play) {
        // Arriving at the slide shows the range's start, then plays it once.
        const Timeline tl = main_panel().timeline();
        if (tl.end > tl.begin) {
            const double from = std::clamp(s.play_from, tl.begin, tl.end);
            const double to = std::clamp(s.play_to ? *s.play_to : tl.end, from, tl.end);
            main_panel().seek(from);
            lesson_->start_play(from, to, tl.per_second);
        }
    }
    lesson_->go(i);
    size_t ignored = 0;
    lesson_->take_pending(ignored);
}

// The full-window panel; in presentation mode its diagram fills the window
// above a large caption of what it shows (AppContext::caption).
void Host::draw_main_panel(float menu_h, float strip_h) {
    ImGuiIO& io = ImGui::GetIO();
    ImGui::SetNextWindowPos(ImVec2(0, menu_h));
    ImGui::SetNextWindowSize(ImVec2(io.DisplaySize.x, io.DisplaySize.y - menu_h - strip_h));
    ImGui::Begin(tr_id(slots_[main_].entry->title), nullptr,
                 ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
                     ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoBringToFrontOnFocus |
                     ImGuiWindowFlags_NoSavedSettings);
    ctx_.dt = io.DeltaTime;
    ctx_.caption = {};
    if (!ctx_.present) {
        slots_[main_].panel->draw(ctx_);
        ImGui::End();
        return;
    }
    const float cap_h = caption_height();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    ImGui::BeginChild("slide", ImVec2(avail.x, std::max(64.f, avail.y - cap_h)), false,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    render::display().slide_min = ImGui::GetWindowPos();
    render::display().slide_max = ImVec2(ImGui::GetWindowPos().x + ImGui::GetWindowSize().x,
                                         ImGui::GetWindowPos().y + ImGui::GetWindowSize().y);
    slots_[main_].panel->draw(ctx_);
    ImGui::EndChild();
    draw_caption(ctx_.caption, tr(slots_[main_].entry->title), ImGui::GetCursorScreenPos(), avail.x,
                 st_.dark);
    ImGui::Dummy(ImVec2(avail.x, cap_h - ImGui::GetStyle().ItemSpacing.y));
    ImGui::End();
}

// The main panel (the explorer unless --panel named another) is always
// listed: choosing it closes the panels open over it, so the way back is in
// the menu (issue 13: the View menu had no entry back to the explorer).
std::vector<Host::ViewMenuItem> Host::view_menu_items() const {
    std::vector<ViewMenuItem> items{{slots_[main_].entry->id, true, true}};
    for (size_t i = 0; i < slots_.size(); ++i)
        if (i != main_) items.push_back({slots_[i].entry->id, false, slots_[i].open});
    return items;
}

PanelSlot& Host::slot_of(const std::string& id) {
    for (PanelSlot& s : slots_)
        if (id == s.entry->id) return s;
    return slots_[main_];
}

void Host::back_to_main_item() {
    const char* title = slots_[main_].entry->title;
    const std::string label = std::string(tr(title)) + " " + tr("(main window)") + "###main-window";
    if (ImGui::MenuItem(label.c_str(), nullptr, true)) {
        for (size_t i = 0; i < slots_.size(); ++i)
            if (i != main_) slots_[i].open = false;
        ImGui::SetWindowFocus(tr_id(title));
    }
    ImGui::Separator();
}

// The Settings menu's language items; the choice is remembered (settings.json).
void Host::language_menu() {
    if (!ImGui::BeginMenu(tr_id("Language"))) return;
    // "English" is never translated, "Chinese" shows as 中文 in Chinese: a
    // user lost in either language can read the way back.
    if (ImGui::MenuItem("English###lang-en", nullptr, i18n::language() == i18n::Lang::en)) {
        i18n::set_language(i18n::Lang::en);  // the atlas follows before the next frame
        st_.lang = "en";
    }
    if (ImGui::MenuItem(tr_id("Chinese"), nullptr, i18n::language() == i18n::Lang::zh)) {
        i18n::set_language(i18n::Lang::zh);
        st_.lang = "zh";
    }
    ImGui::EndMenu();
}

void Host::frame() {
    // Typed characters (an IME's Chinese) reach the atlas one frame late.
    for (ImWchar c : ImGui::GetIO().InputQueueCharacters) i18n::want_glyph(c);
    apply_style();  // between frames: may rebuild the font atlas
    size_t slide = 0;
    std::string slide_error;
    if (lesson_ && lesson_->take_pending(slide)) {
        try {
            show_slide(slide);
        } catch (const UsageError& e) {
            slide_error = std::string("error: ") + e.what();
        }
    }
    pf_.new_frame();
    ctx_.ui_scale = st_.ui_scale;
    ctx_.dark_theme = st_.dark;
    ctx_.status = slide_error;
    ctx_.keys.clear();
    for (int k : pf_.take_key_presses()) {
        // Typing into a field (a shape, a path) never turns the slide.
        if (lesson_ && !ImGui::GetIO().WantTextInput && lesson_->take_key(k)) continue;
        if (k == GLFW_KEY_SPACE) ctx_.keys.push_back(Key::space);
        if (k == GLFW_KEY_LEFT) ctx_.keys.push_back(Key::left);
        if (k == GLFW_KEY_RIGHT) ctx_.keys.push_back(Key::right);
        if (k == GLFW_KEY_HOME) ctx_.keys.push_back(Key::home);
        if (k == GLFW_KEY_END) ctx_.keys.push_back(Key::end);
        if (k == GLFW_KEY_F5) ctx_.present = !ctx_.present;
        if (k == GLFW_KEY_ESCAPE) ctx_.present = false;
    }
    render::display().ui_scale = st_.ui_scale;
    render::display().present = ctx_.present;
    render::display().dark = st_.dark;
    render::diagram_reset();
    float menu_h = 0;
    // Presentation mode shows no menu bar (the slide is the diagram alone);
    // in a lesson, M shows it again.
    if ((lesson_ ? lesson_->menu_visible() : !ctx_.present) && ImGui::BeginMainMenuBar()) {
        if (ImGui::BeginMenu(tr_id("View"))) {
            if (ImGui::MenuItem(tr_id("Presentation mode"), "F5", ctx_.present))
                ctx_.present = !ctx_.present;
            ImGui::Separator();
            std::string group;
            for (const ViewMenuItem& m : view_menu_items()) {
                if (m.main) {
                    back_to_main_item();
                    continue;
                }
                PanelSlot& s = slot_of(m.id);
                const std::string item = std::string(tr(s.entry->group)) + " > " +
                                         tr(s.entry->title) + "###" + s.entry->title;
                if (ImGui::MenuItem(item.c_str(), nullptr, s.open)) {
                    s.open = !s.open;
                    if (s.open && !s.panel) s.panel = s.entry->make();
                }
            }
            if (slots_.size() == 1) ImGui::TextDisabled("%s", tr("(no other panels yet)"));
            ImGui::EndMenu();
        }
        if (ImGui::BeginMenu(tr_id("Settings"))) {
            if (ImGui::MenuItem(tr_id("Dark theme"), nullptr, st_.dark)) st_.dark = true;
            if (ImGui::MenuItem(tr_id("Light theme"), nullptr, !st_.dark)) st_.dark = false;
            ImGui::Separator();
            for (float s : {1.0f, 1.25f, 1.5f, 2.0f}) {
                char buf[64];
                std::snprintf(buf, sizeof buf, tr("UI scale %.0f%%"), double(s * 100));
                if (ImGui::MenuItem(buf, nullptr, st_.ui_scale == s)) st_.ui_scale = s;
            }
            ImGui::Separator();
            language_menu();
            ImGui::EndMenu();
        }
        rec_.menu(main_panel(), slots_[main_].entry->id, st_.ui_scale);
        menu_h = ImGui::GetWindowSize().y;
        ImGui::EndMainMenuBar();
    }
    ImGuiIO& io = ImGui::GetIO();
    const float strip_h =
        lesson_ ? lesson_->strip(io.DisplaySize.x, io.DisplaySize.y, st_.ui_scale) : 0;
    draw_main_panel(menu_h, strip_h);
    for (size_t i = 0; i < slots_.size(); ++i) {
        PanelSlot& s = slots_[i];
        if (i == main_ || !s.open || !s.panel || ctx_.present) continue;
        ImGui::SetNextWindowSize(ImVec2(720 * st_.ui_scale, 520 * st_.ui_scale),
                                 ImGuiCond_FirstUseEver);
        if (ImGui::Begin(tr_id(s.entry->title), &s.open)) s.panel->draw(ctx_);
        ImGui::End();
    }
    open_requested();
    if (!ctx_.status.empty()) {
        const std::string status = tr_text(ctx_.status);  // core's English, translated
        i18n::want_glyphs(status);                        // may name a file
        ImDrawList* fg = ImGui::GetForegroundDrawList();
        ImVec2 ts = ImGui::CalcTextSize(status.c_str());
        ImVec2 p(io.DisplaySize.x - ts.x - 12, menu_h > 0 ? (menu_h - ts.y) / 2 : 2);
        fg->AddText(p, render::ink(render::Role::status, st_.dark), status.c_str());
    }
    rec_.end_frame(st_.ui_scale);
}

}  // namespace ll::gui
