// The ONE table of panels; the View menu is built from it (see panel.hpp).
#include "app/panels/panel.hpp"

namespace ll::gui {

// One declaration per panel; each factory is defined in app/panels/<name>_panel.cpp.
std::unique_ptr<Panel> make_explorer_panel();

const std::vector<PanelEntry>& panel_registry() {
    static const std::vector<PanelEntry> table = {
        {"Explorer", "Formats", make_explorer_panel},
    };
    return table;
}

}  // namespace ll::gui
