#include "app/panels/present.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/i18n/tr.hpp"
#include "app/i18n/tr_text.hpp"

#include "app/render/present.hpp"

namespace ll::gui {

void caption_from_stage(AppContext& ctx, const Plan& p, double s, const std::string& prefix) {
    if (p.stages.empty()) return;
    const size_t last = p.stages.size() - 1;
    const size_t k = std::min(last, size_t(std::max(0.0, std::round(s))));
    const Stage& st = p.stages[k];
    // Core's label and formula are English (the CLI prints them); the
    // window shows them through the catalog (app/i18n/tr_text.hpp).
    // The prefix ("feature map   ", a plan's title) is translated without
    // its trailing spaces.
    const size_t end = prefix.find_last_not_of(' ') + 1;  // npos + 1 == 0
    std::string title = tr_text(prefix.substr(0, end)) + prefix.substr(end);
    if (last > 0) {
        char buf[64];
        std::snprintf(buf, sizeof buf, tr("stage %zu of %zu: "), k, last);
        title += buf;
    }
    title += tr_text(st.label);
    ctx.caption.title = title;
    const std::string shape = tr("shape ") + to_string(st.shape);
    ctx.caption.formula = st.formula.empty() ? shape : tr_text(st.formula) + "   " + shape;
}

void note_diagram(ImVec2 a, ImVec2 b) {
    render::diagram_note(a, b);
}

}  // namespace ll::gui
