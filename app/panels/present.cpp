#include "app/panels/present.hpp"

#include <algorithm>
#include <cmath>

#include "app/render/present.hpp"

namespace ll::gui {

void caption_from_stage(AppContext& ctx, const Plan& p, double s, const std::string& prefix) {
    if (p.stages.empty()) return;
    const size_t last = p.stages.size() - 1;
    const size_t k = std::min(last, size_t(std::max(0.0, std::round(s))));
    const Stage& st = p.stages[k];
    std::string title = prefix;
    if (last > 0) title += "stage " + std::to_string(k) + " of " + std::to_string(last) + ": ";
    title += st.label;
    ctx.caption.title = title;
    ctx.caption.formula = st.formula.empty() ? "shape " + to_string(st.shape)
                                             : st.formula + "   shape " + to_string(st.shape);
}

void note_diagram(ImVec2 a, ImVec2 b) {
    render::diagram_note(a, b);
}

}  // namespace ll::gui
