#include "app/render/grid_labels.hpp"
#include "app/render/palette.hpp"
#include "core/plan_text.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "app/i18n/tr_text.hpp"

namespace ll::render {

namespace {

constexpr float kGap = 4;  // pixels between a grid edge and its labels

ImU32 with_alpha(ImU32 c, float a) {
    unsigned al = unsigned(float((c >> IM_COL32_A_SHIFT) & 0xFF) * std::clamp(a, 0.f, 1.f));
    return (c & ~IM_COL32_A_MASK) | (al << IM_COL32_A_SHIFT);
}

// The palette's roles (app/render/palette.hpp: >= 4.5:1 on both themes).
ImU32 colour_of(Label::Kind k, bool dark) {
    switch (k) {
        case Label::tag:
        case Label::address:
            return ink(Role::accent, dark);
        case Label::tick:
            return ink(Role::dim, dark);
        case Label::axis:
        case Label::caption:
            break;
    }
    return ink(Role::text, dark);
}

float text_w(const std::string& s, float scale = 1) {
    return ImGui::CalcTextSize(s.c_str(), nullptr, true).x * scale;
}

// The text each label shows: core's English through the catalog (tr_text);
// a caption core wrapped into several labels (same x, rows just below each
// other) is translated as one text and cut back into as many lines. Ticks
// and addresses are numbers and stay as they are.
std::vector<std::string> shown_texts(const Stage& st) {
    std::vector<std::string> shown(st.labels.size());
    for (size_t i = 0; i < st.labels.size();) {
        const Label& l = st.labels[i];
        size_t j = i + 1;
        if (l.kind == Label::caption)
            while (j < st.labels.size() && st.labels[j].kind == Label::caption &&
                   st.labels[j].x == l.x && st.labels[j].y > st.labels[j - 1].y &&
                   st.labels[j].y - st.labels[j - 1].y <= 3.f)
                ++j;
        if (l.kind == Label::tick || l.kind == Label::address) {
            shown[i] = l.text;
        } else {
            std::vector<std::string> run;
            for (size_t k = i; k < j; ++k) run.push_back(st.labels[k].text);
            run = i18n::tr_lines(run);
            for (size_t k = i; k < j; ++k) shown[k] = std::move(run[k - i]);
        }
        i = j;
    }
    return shown;
}

// Left-of labels stand in lanes: lane l starts where lane l-1's widest text ends.
std::vector<float> lane_widths(const Stage& st, const std::vector<std::string>& text,
                               float scale = 1) {
    std::vector<float> w;
    for (size_t i = 0; i < st.labels.size(); ++i) {
        const Label& l = st.labels[i];
        if (l.side != Label::left_of) continue;
        if (w.size() <= l.lane) w.resize(size_t(l.lane) + 1, 0.f);
        w[l.lane] = std::max(w[l.lane], text_w(text[i], scale));
    }
    return w;
}

float lane_offset(const std::vector<float>& w, uint8_t lane) {
    float o = kGap;
    for (size_t i = 0; i < lane && i < w.size(); ++i) o += w[i] + kGap;
    return o;
}

// The smallest of 1, 2, 5, 10, 20, ... that is at least x.
int64_t nice_at_least(float x) {
    if (!(x > 1.f)) return 1;
    for (int64_t base = 1; base < (int64_t(1) << 40); base *= 10)
        for (int64_t k : {1, 2, 5})
            if (float(base * k) >= x) return base * k;
    return int64_t(1) << 40;
}

int priority(Label::Kind k) {
    switch (k) {
        case Label::caption:
            return 0;
        case Label::axis:
            return 1;
        case Label::address:
            return 2;
        case Label::tag:
            return 3;
        case Label::tick:
            return 4;
    }
    return 4;
}

// Runs of ticks (or addresses) along one edge: same side, lane and line.
using GroupKey = std::tuple<int, int, long>;
GroupKey group_of(const Label& l) {
    float across = l.side == Label::above ? l.y : l.x;
    return {int(l.side), int(l.lane), std::lround(double(across) * 64)};
}
bool thinned(const Label& l) {
    return (l.kind == Label::tick || l.kind == Label::address) &&
           (l.side == Label::above || l.side == Label::left_of);
}

struct Group {
    int count = 0;
    float first = 0, second = 0;  // anchors along the edge (cell units)
    float ext = 0;                // widest (above) or tallest (left_of) text
    float room = 0;
    int64_t keep_every = 1;
    int seen = 0;    // of the run, in the keep pass
    float last = 0;  // the previous anchor, in the keep pass
};

}  // namespace

nlohmann::json labels_json(const std::vector<DrawnLabel>& v) {
    nlohmann::json j = nlohmann::json::array();
    for (const DrawnLabel& d : v)
        j.push_back(
            {{"text", d.text}, {"kind", label_kind(d.kind)}, {"rect", {d.x, d.y, d.w, d.h}}});
    return j;
}

namespace {

// Whether every block tag of st stands over the grid's left edge (blocks
// in one column): only then may they move beside the grid, all of them.
// With blocks side by side (the fractals of FRACTAL_NZ's last stages) the
// inner ones would stay chips, and room kept for the outer ones shrank the
// grid to 40% of its view.
bool tags_on_left_edge(const Stage& st) {
    bool any = false;
    for (const Label& l : st.labels) {
        if (l.kind != Label::tag || l.side != Label::above) continue;
        if (l.x > 0) return false;
        any = true;
    }
    return any;
}

}  // namespace

bool tags_beside(float zoom, float tag_h) {
    return tag_h > 0 && (zoom - 1) / tag_h < 0.7f;
}

LabelMargins label_margins(const Stage& st, float scale) {
    LabelMargins m;
    if (st.labels.empty()) return m;
    const float lh = ImGui::GetTextLineHeight() * scale;
    const std::vector<std::string> text = shown_texts(st);
    const std::vector<float> lw = lane_widths(st, text, scale);
    const float grid_w = grid_extent(st.grid).w;
    const bool edge_tags = tags_on_left_edge(st);
    for (const Label& l : st.labels) {
        if (edge_tags && l.kind == Label::tag && l.side == Label::above) {
            const float w = text_w(text[size_t(&l - st.labels.data())], scale);
            m.tag_left = std::max(m.tag_left, lane_offset(lw, uint8_t(lw.size())) + w);
            m.tag_h = std::max(m.tag_h, lh);
        }
        if (l.side == Label::above) {
            m.top = std::max(m.top, kGap + float(l.lane + 1) * (lh + 1));
            if (l.align == Label::right && l.x <= 0)
                m.left =
                    std::max(m.left, kGap + text_w(text[size_t(&l - st.labels.data())], scale));
        } else if (l.side == Label::left_of && l.x <= 0) {
            m.left = std::max(m.left, lane_offset(lw, l.lane) + lw[l.lane]);
        } else if (l.side == Label::at && l.align == Label::right && l.x <= 0) {
            // Text ending left of the grid (the Cube's m0, m1 ...): without
            // room it was cut by the canvas and left out on a slide.
            m.left = std::max(m.left, kGap + text_w(text[size_t(&l - st.labels.data())], scale));
            m.cells_left = std::max(m.cells_left, -l.x);
        } else if (l.side == Label::at && l.align == Label::left && l.x >= grid_w) {
            // Text starting right of the grid (the Cube's "B (ZN)").
            m.right = std::max(m.right, kGap + text_w(text[size_t(&l - st.labels.data())], scale));
            m.cells_right = std::max(m.cells_right, l.x - grid_w);
        }
    }
    return m;
}

void draw_labels(const OverlayFrame& f, const Stage& st, std::vector<DrawnLabel>* drawn) {
    if (st.labels.empty()) return;
    ImDrawList* dl = f.dl;
    // Text at the frame's label scale (app/render/label_scale.hpp).
    const float ls = f.label_scale;
    const float fs = ImGui::GetFontSize() * ls, lh = ImGui::GetTextLineHeight() * ls;
    const std::vector<std::string> text = shown_texts(st);
    const std::vector<float> lw = lane_widths(st, text, ls);
    auto text_of = [&](const Label& l) -> const std::string& {
        return text[size_t(&l - st.labels.data())];
    };
    const bool edge_tags = !f.sparse_tags && tags_on_left_edge(st);

    // Pass 1: the spacing and text size of each run of ticks, so a run keeps
    // every k-th tick (k = 1, 2, 5, 10, ...) and its texts never touch.
    std::map<GroupKey, Group> groups;
    for (const Label& l : st.labels) {
        if (!thinned(l)) continue;
        Group& g = groups[group_of(l)];
        const float along = l.side == Label::above ? l.x : l.y;
        if (g.count == 0) g.first = along;
        if (g.count == 1) g.second = along;
        ++g.count;
        g.ext = std::max(g.ext, l.side == Label::above ? text_w(text_of(l), ls) : lh);
        g.room = std::max(g.room, l.room);
    }
    for (auto& kv : groups) {
        Group& g = kv.second;
        float pitch = g.count >= 2 ? std::abs(g.second - g.first) * f.zoom : g.room * f.zoom;
        if (pitch <= 0) pitch = 1e9f;
        g.keep_every = nice_at_least((g.ext + 6) / pitch);
    }
    // Which thinned labels stay (every keep_every-th of a run), and which
    // start a run: a gap wider than the group's pitch starts one (the next
    // block's row ticks), its count from 0 again.
    std::vector<char> kept(st.labels.size(), 1), starts(st.labels.size(), 0);
    for (size_t i = 0; i < st.labels.size(); ++i) {
        const Label& l = st.labels[i];
        if (!thinned(l)) continue;
        Group& g = groups[group_of(l)];
        const float along = l.side == Label::above ? l.x : l.y;
        if (g.seen == 0 || std::abs(along - g.last) > 1.5f * std::abs(g.second - g.first))
            g.seen = 0, starts[i] = 1;
        g.last = along;
        kept[i] = g.seen++ % g.keep_every == 0;
    }

    // The pitch of the tags beside the grid (pixels): blocks in one column
    // whose tags stand beside them, level with their first rows. A tag
    // taller than that pitch shrinks to it, down to kMinBeside; so do the
    // row numbers that start each block. At the projector the explorer's
    // logical view has 6-pixel cells, its blocks 17 pixels apart and its
    // text 20 pixels tall: b=1's tag and its row 0 were left out.
    constexpr float kMinBeside = 0.6f;
    float beside_pitch = 1e9f;
    if (edge_tags) {
        std::vector<float> ys;
        for (const Label& l : st.labels)
            if (l.kind == Label::tag && l.side == Label::above) ys.push_back(l.y);
        std::sort(ys.begin(), ys.end());
        for (size_t i = 1; i < ys.size(); ++i)
            if (ys[i] > ys[i - 1])
                beside_pitch = std::min(beside_pitch, (ys[i] - ys[i - 1]) * f.zoom);
    }
    // The text scale that fits a line of height h into that pitch (1 when
    // it fits already, 0 below kMinBeside: left out as before).
    auto beside_fit = [&](float h) {
        if (h + 1 <= beside_pitch) return 1.f;
        const float k = (beside_pitch - 1) / h;
        return k >= kMinBeside ? k : 0.f;
    };

    // Sparse tags (OverlayFrame::sparse_tags): the leftmost tag of each row
    // and the topmost of each column, in cell units.
    std::map<float, float> row_first, col_first;
    if (f.sparse_tags)
        for (const Label& l : st.labels) {
            if (l.kind != Label::tag) continue;
            auto r = row_first.emplace(l.y, l.x), c = col_first.emplace(l.x, l.y);
            if (!r.second) r.first->second = std::min(r.first->second, l.x);
            if (!c.second) c.first->second = std::min(c.first->second, l.y);
        }
    auto first_in_line = [&](const Label& l) {
        return row_first[l.y] == l.x || col_first[l.x] == l.y;
    };

    // Pass 2: place by priority (captions and axis names first), skipping any
    // label that would overlap one already placed or be cut by the canvas.
    std::vector<ImVec4> placed;
    auto overlaps = [&](const ImVec4& r) {
        for (const ImVec4& q : placed)
            if (r.x < q.z && q.x < r.z && r.y < q.w && q.y < r.w) return true;
        return false;
    };
    // The ticks that start a run go before the others (pass 4, the rest 5):
    // where the last of one block's row numbers and the next block's 0
    // collide, each block keeps its 0.
    for (int pass = 0; pass <= 5; ++pass) {
        for (const Label& l : st.labels) {
            const size_t i = size_t(&l - st.labels.data());
            const int order =
                l.kind == Label::tick && thinned(l) && !starts[i] ? 5 : priority(l.kind);
            if (order != pass) continue;
            if (thinned(l) && !kept[i]) continue;
            // Ticks and tags drawn on the cells need cells that hold them.
            // (A tick given room, say the PEs' pitch, is judged by that below.)
            if (l.side == Label::at && (l.kind == Label::tick || l.kind == Label::tag) &&
                l.room <= 0 && f.zoom < fs * 0.9f)
                continue;
            const std::string& shown = text_of(l);
            ImVec2 ts = ImGui::CalcTextSize(shown.c_str(), nullptr, true);
            ts = ImVec2(ts.x * ls, ts.y * ls);
            float tag_k = 1;  // the text's scale past ls (a tag or tick shrunk to its room)
            if (edge_tags && l.kind == Label::tick && l.side == Label::left_of && starts[i]) {
                const float k = beside_fit(ts.y);  // a block's first row number
                if (k > 0 && k < 1) tag_k = k, ts = ImVec2(ts.x * k, ts.y * k);
            }
            const ImVec2 p = f.at(l.x, l.y);
            float x = p.x, y = p.y - ts.y / 2;
            // A block tag stands in the gap above its block, one cell high
            // between blocks: a tag taller than the cell shrinks to fit it
            // (it reached into the block above), down to 70%; on cells
            // smaller still it moves inside the block's top-left corner as
            // a chip (cells that small print no numbers).
            // Where every tag is on the grid's left edge (tags_on_left_edge)
            // it goes instead left of the row labels, level with its
            // block's first row, where the fit left room for it
            // (label_margins' tag_left): as a chip at the projector it
            // covered three cells of each block's first rows. Where that
            // room is cut by the canvas (a camera moved by hand) it is
            // still a chip.
            Label::Side side = l.side;
            bool beside = false;
            if (l.kind == Label::tag && side == Label::above && !f.sparse_tags &&
                ts.y + 1 > f.zoom) {
                tag_k = (f.zoom - 1) / ts.y;
                if (tag_k < 0.7f) {
                    side = Label::inside, tag_k = 1;
                    // (beside, shrunk to the blocks' pitch where that holds it)
                    const float bk = edge_tags ? beside_fit(ts.y) : 1.f;
                    const ImVec2 bs = bk > 0 ? ImVec2(ts.x * bk, ts.y * bk) : ts;
                    const float bx = f.at(0, l.y).x - lane_offset(lw, uint8_t(lw.size())) - bs.x;
                    const float by = f.at(l.x, l.y + 0.5f).y - bs.y / 2;
                    const ImVec4 r(bx - 1, by, bx + bs.x + 1, by + bs.y);
                    const bool room = edge_tags && r.x >= f.clip_min.x && r.y >= f.clip_min.y &&
                                      r.w <= f.clip_max.y;
                    // (beside the tag above it, on cells that small: left
                    // out rather than a chip over the cells)
                    if (room && overlaps(r)) continue;
                    beside = room;
                    if (beside && bk > 0) tag_k = bk, ts = bs;
                } else {
                    ts = ImVec2(ts.x * tag_k, ts.y * tag_k);
                }
            }
            // Sparse tags stand above only when the one-cell gap holds them
            // whole (the tiling slide's tags reached into the blocks above).
            if (f.sparse_tags && l.kind == Label::tag && side == Label::above &&
                ts.y + kGap > f.zoom)
                side = Label::inside;
            if (f.sparse_tags && l.kind == Label::tag && side == Label::inside && !first_in_line(l))
                continue;
            switch (side) {
                case Label::at:
                    x = l.align == Label::left     ? p.x
                        : l.align == Label::centre ? p.x - ts.x / 2
                                                   : p.x - ts.x;
                    break;
                case Label::above:
                    // (a tag keeps what the cell-high gap leaves, 1 to kGap)
                    y = p.y - (l.kind == Label::tag ? std::clamp(f.zoom - ts.y, 1.f, kGap) : kGap) -
                        float(l.lane) * (lh + 1) - ts.y;
                    x = l.align == Label::left     ? p.x
                        : l.align == Label::centre ? p.x - ts.x / 2
                                                   : p.x - kGap - ts.x;
                    break;
                case Label::left_of:
                    x = p.x - lane_offset(lw, l.lane) - ts.x;
                    // Centred on its row, but never above the row's top: the
                    // first row's label would reach into the column ticks.
                    y = std::max(y, f.at(l.x, l.y - 0.5f).y);
                    break;
                case Label::inside:
                    x = p.x + 2, y = p.y + 1;
                    if (beside) {
                        x = f.at(0, l.y).x - lane_offset(lw, uint8_t(lw.size())) - ts.x;
                        y = f.at(l.x, l.y + 0.5f).y - ts.y / 2;
                    }
                    break;
            }
            // Room along the edge (a block's width, the gap beside a band). A
            // block tag that is a little too wide shrinks to fit, down to 70%.
            float font_size = fs * tag_k;
            if (l.kind == Label::tag && !beside && l.room > 0 && ts.x + 4 > l.room * f.zoom) {
                // (k * tag_k: the scale for the width alone, the same above
                // the block or as a chip)
                const float k = (l.room * f.zoom - 5) / ts.x;
                if (k * tag_k < 0.7f) continue;
                font_size *= k;
                ts = ImVec2(ts.x * k, ts.y * k);
            }
            if (l.room > 0 && !thinned(l) && !beside && ts.x + 4 > l.room * f.zoom) continue;
            if (l.room > 0 && l.kind == Label::address && l.side == Label::left_of &&
                ts.x + kGap > l.room * f.zoom)
                continue;
            if (side == Label::inside && !beside && ts.y + 2 > std::max(l.room, 4.f) * f.zoom)
                continue;  // block too small
            const ImVec4 r(x - 1, y, x + ts.x + 1, y + ts.y);
            if (r.x < f.clip_min.x || r.y < f.clip_min.y || r.z > f.clip_max.x ||
                r.w > f.clip_max.y)
                continue;
            if (overlaps(r)) continue;
            placed.push_back(r);
            const ImU32 col = with_alpha(colour_of(l.kind, f.dark), f.alpha);
            if (side == Label::inside && !beside) {
                ImU32 bg = packed(palette(f.dark)[Surface::canvas], f.dark ? 0.82f : 0.86f);
                dl->AddRectFilled(ImVec2(r.x - 1, r.y), ImVec2(r.z + 1, r.w),
                                  with_alpha(bg, f.alpha), 2.f);
            }
            dl->AddText(ImGui::GetFont(), font_size, ImVec2(x, y), col, shown.c_str());
            if (drawn) drawn->push_back({shown, l.kind, x, y, ts.x, ts.y});
        }
    }
}

}  // namespace ll::render
