// The ONE table of panels; the View menu is built from it (see panel.hpp).
#include "app/panels/panel.hpp"

namespace ll::gui {

// One declaration per panel; each factory is defined in app/panels/<name>_panel.cpp.
std::unique_ptr<Panel> make_explorer_panel();
std::unique_ptr<Panel> make_views_panel();
std::unique_ptr<Panel> make_fusion_panel();
std::unique_ptr<Panel> make_agu_panel();
std::unique_ptr<Panel> make_planning_panel();
std::unique_ptr<Panel> make_tiling_panel();
std::unique_ptr<Panel> make_img2col_panel();
std::unique_ptr<Panel> make_loaddata_panel();
std::unique_ptr<Panel> make_cube_panel();
std::unique_ptr<Panel> make_conv_panel();

const std::vector<PanelEntry>& panel_registry() {
    static const std::vector<PanelEntry> table = {
        {"Explorer", "Formats", make_explorer_panel},
        {"Views", "Views", make_views_panel},
        {"Fusion", "Views", make_fusion_panel},
        {"AGU / DMA", "Views", make_agu_panel},
        {"Layout planning", "Views", make_planning_panel},
        {"Tiling", "Tiling", make_tiling_panel},
        {"img2col", "Compute", make_img2col_panel},
        {"LoadData", "Compute", make_loaddata_panel},
        {"Cube", "Compute", make_cube_panel},
        {"Conv pipeline", "Compute", make_conv_panel},
    };
    return table;
}

}  // namespace ll::gui
