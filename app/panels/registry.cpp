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
std::unique_ptr<Panel> make_pipeline_panel();
std::unique_ptr<Panel> make_gpu_panel();
std::unique_ptr<Panel> make_systolic_panel();
std::unique_ptr<Panel> make_tables_panel();
std::unique_ptr<Panel> make_scatter_panel();

const std::vector<PanelEntry>& panel_registry() {
    static const std::vector<PanelEntry> table = {
        {"explorer", "Explorer", "Formats", make_explorer_panel},
        {"views", "Views", "Views", make_views_panel},
        {"fusion", "Fusion", "Views", make_fusion_panel},
        {"agu", "AGU / DMA", "Views", make_agu_panel},
        {"planning", "Layout planning", "Views", make_planning_panel},
        {"tiling", "Tiling", "Tiling", make_tiling_panel},
        {"img2col", "img2col", "Compute", make_img2col_panel},
        {"loaddata", "LoadData", "Compute", make_loaddata_panel},
        {"cube", "Cube", "Compute", make_cube_panel},
        {"conv", "Conv pipeline", "Compute", make_conv_panel},
        {"pipeline", "Pipeline", "Compute", make_pipeline_panel},
        {"gpu", "GPU side", "Compute", make_gpu_panel},
        {"systolic", "Systolic array vs Cube", "Compute", make_systolic_panel},
        {"tables", "Hardware tables", "Views", make_tables_panel},
        {"scatter", "Scatter", "Views", make_scatter_panel},
    };
    return table;
}

const PanelEntry* find_panel(const std::string& id) {
    for (const PanelEntry& e : panel_registry())
        if (id == e.id) return &e;
    return nullptr;
}

}  // namespace ll::gui
