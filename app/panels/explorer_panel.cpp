// The explorer: one format conversion, animated element by element.
#include <imgui.h>

#include "app/panels/panel.hpp"

namespace ll::gui {

namespace {

class ExplorerPanel : public Panel {
public:
    const char* title() const override { return "Explorer"; }
    void draw(AppContext&) override { ImGui::TextUnformatted("Format explorer (in progress)"); }
};

}  // namespace

std::unique_ptr<Panel> make_explorer_panel() { return std::make_unique<ExplorerPanel>(); }

}  // namespace ll::gui
