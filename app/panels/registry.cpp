// The ONE table of panels; the View menu is built from it (see panel.hpp).
// Titles and groups are English catalog keys (trn): the window shows tr(title).
#include "app/panels/panel.hpp"

#include "app/i18n/tr.hpp"

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
std::unique_ptr<Panel> make_compare_panel();

const std::vector<PanelEntry>& panel_registry() {
    static const std::vector<PanelEntry> table = {
        {"explorer", trn("Explorer"), trn("Formats"), make_explorer_panel},
        {"views", trn("Views"), trn("Views"), make_views_panel},
        {"fusion", trn("Fusion"), trn("Views"), make_fusion_panel},
        {"agu", trn("AGU / DMA"), trn("Views"), make_agu_panel},
        {"planning", trn("Layout planning"), trn("Views"), make_planning_panel},
        {"tiling", trn("Tiling"), trn("Tiling"), make_tiling_panel},
        {"img2col", trn("img2col"), trn("Compute"), make_img2col_panel},
        {"loaddata", trn("LoadData"), trn("Compute"), make_loaddata_panel},
        {"cube", trn("Cube"), trn("Compute"), make_cube_panel},
        {"conv", trn("Conv pipeline"), trn("Compute"), make_conv_panel},
        {"pipeline", trn("Pipeline"), trn("Compute"), make_pipeline_panel},
        {"gpu", trn("GPU side"), trn("Compute"), make_gpu_panel},
        {"systolic", trn("Systolic array vs Cube"), trn("Compute"), make_systolic_panel},
        {"tables", trn("Hardware tables"), trn("Views"), make_tables_panel},
        {"scatter", trn("Scatter"), trn("Views"), make_scatter_panel},
        {"compare", trn("Compare layouts"), trn("Formats"), make_compare_panel},
    };
    return table;
}

const PanelEntry* find_panel(const std::string& id) {
    for (const PanelEntry& e : panel_registry())
        if (id == e.id) return &e;
    return nullptr;
}

}  // namespace ll::gui
