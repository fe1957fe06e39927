// Sections: [graph layout] [graph drawing] [stream plot] [noc grid]
#include "app/panels/planning_canvas.hpp"
#include "app/i18n/tr.hpp"
#include "app/i18n/tr_text.hpp"
#include "app/render/palette.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace ll::gui::planning {

namespace {

using namespace ll::netplan;

const ImU32 kText = IM_COL32(235, 235, 235, 255);
// 5:1 or more on every node fill (185,195,210 was 4.5:1 on the transforms' teal).
const ImU32 kSubText = IM_COL32(200, 210, 222, 255);
// The edge tags' fill (opaque: the text's contrast is judged against it).
const ImU32 kTagFill = IM_COL32(22, 26, 32, 255);
const ImU32 kEdge = IM_COL32(140, 155, 175, 255);
const ImU32 kBadText = IM_COL32(255, 160, 150, 255);

ImU32 node_fill(OpKind k) {
    if (is_layout_sensitive(k)) return IM_COL32(88, 62, 118, 255);  // reduce: layout-sensitive
    if (is_elementwise(k)) return IM_COL32(48, 70, 104, 255);       // layout-transparent
    if (k == OpKind::Input || k == OpKind::Weight) return IM_COL32(58, 78, 64, 255);
    return IM_COL32(40, 88, 92, 255);  // transpose, reshape, concat
}

}  // namespace

// ---- [graph layout] ---------------------------------------------------------------

namespace {

struct GraphLayout {
    std::vector<int> depth;
    std::vector<float> row;  // centred: 0 is the middle of the column
    int columns = 1, max_rows = 1;
};

GraphLayout layout_graph(const Graph& g) {
    GraphLayout L;
    size_t n = g.nodes.size();
    L.depth.assign(n, 0);
    L.row.assign(n, 0);
    for (size_t i = 0; i < n; ++i)
        for (const auto& in : g.nodes[i].inputs) {
            int k = g.index_of(in);
            if (k >= 0 && size_t(k) < i) L.depth[i] = std::max(L.depth[i], L.depth[size_t(k)] + 1);
        }
    for (int d : L.depth) L.columns = std::max(L.columns, d + 1);
    std::vector<std::vector<size_t>> cols(size_t(L.columns));
    for (size_t i = 0; i < n; ++i) cols[size_t(L.depth[i])].push_back(i);
    // Order each column by the mean row of its inputs (fewer crossings).
    for (auto& col : cols) {
        std::vector<std::pair<float, size_t>> key;
        for (size_t pos = 0; pos < col.size(); ++pos) {
            size_t i = col[pos];
            float sum = 0;
            int cnt = 0;
            for (const auto& in : g.nodes[i].inputs) {
                int k = g.index_of(in);
                if (k >= 0 && size_t(k) < i) {
                    sum += L.row[size_t(k)];
                    ++cnt;
                }
            }
            key.push_back({cnt ? sum / float(cnt) + float(pos) * 1e-3f : float(pos), i});
        }
        std::stable_sort(key.begin(), key.end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
        for (size_t r = 0; r < key.size(); ++r)
            L.row[key[r].second] = float(r) - float(key.size() - 1) / 2;
        L.max_rows = std::max(L.max_rows, int(col.size()));
    }
    return L;
}

struct EdgeText {
    std::string line1, line2;
    int kind = 0;  // 0 plain, 1 mismatch (with a decision), 2 fixed by an upstream decision
};

EdgeText edge_text(const Graph& g, const NetPlan& plan, size_t ei) {
    (void)g;
    const Edge& e = plan.propagation.edges[ei];
    EdgeText t;
    t.line1 = order_name(e.produced);
    for (const auto& d : plan.decisions)
        if (d.edge == ei) {
            t.kind = 1;
            t.line1 = order_name(d.source) + " -> " + order_name(d.target);
            t.line2 = i18n::tr_text(strategy_name(d.strategy));
            if (d.picked) t.line2 += " *";            // picked by hand
            if (d.appeared) t.line1 += tr(" (new)");  // appeared after an earlier decision
            return t;
        }
    if (e.mismatch()) {  // not expected after planning; shown rather than hidden
        t.kind = 1;
        t.line1 = order_name(e.produced) + " -> " + order_name(*e.expected);
        t.line2 = "undecided";
    } else if (plan.initial.edges[ei].mismatch()) {
        t.kind = 2;
        t.line2 = "fixed upstream";
    }
    return t;
}

// The mismatch marker's disc: 9 px, or more to hold a taller "!".
float marker_radius(float line_h) {
    return std::max(9.f, 0.55f * line_h);
}

// Box and gap sizes from the texts they must hold, in the current font.
struct GraphSizing {
    GraphLayout L;
    float line_h = 0, pad = 8, margin = 10, bw = 110, bh = 0, row_h = 0;
    float content_w = 0, content_h = 0;
    std::vector<std::string> op_line, layout_txt;
    std::vector<EdgeText> texts;
    std::vector<float> col_x;
};

GraphSizing size_graph(const Graph& g, const NetPlan* plan) {
    GraphSizing z;
    const auto& nodes = g.nodes;
    z.L = layout_graph(g);
    const GraphLayout& L = z.L;
    z.line_h = ImGui::GetTextLineHeight();
    const float pad = z.pad, margin = z.margin;
    float& bw = z.bw;
    z.op_line.resize(nodes.size());
    z.layout_txt.resize(nodes.size());
    for (size_t i = 0; i < nodes.size(); ++i) {
        z.op_line[i] = std::string(op_name(nodes[i].op)) + "  ";
        if (plan) z.layout_txt[i] = order_name(plan->propagation.nodes[i].layout);
        bw = std::max({bw, ImGui::CalcTextSize(nodes[i].name.c_str()).x + 2 * pad,
                       ImGui::CalcTextSize((z.op_line[i] + z.layout_txt[i]).c_str()).x + 2 * pad});
    }
    // Each gap between two columns is as wide as the widest label placed in it
    // (an edge's label sits in the gap after its producer's column).
    std::vector<float> gap(size_t(L.columns), 90.f);
    if (plan)
        for (size_t ei = 0; ei < plan->propagation.edges.size(); ++ei) {
            z.texts.push_back(edge_text(g, *plan, ei));
            float w = std::max(ImGui::CalcTextSize(z.texts.back().line1.c_str()).x,
                               ImGui::CalcTextSize(z.texts.back().line2.c_str()).x);
            if (z.texts.back().kind == 1) w += 2 * marker_radius(z.line_h) + 4;  // the marker
            float& gp = gap[size_t(L.depth[size_t(plan->propagation.edges[ei].producer)])];
            gp = std::max(gp, w + 30);
        }
    z.col_x.assign(size_t(L.columns), 0);
    for (size_t c = 1; c < z.col_x.size(); ++c) z.col_x[c] = z.col_x[c - 1] + bw + gap[c - 1];
    z.bh = 2 * z.line_h + 12;
    z.row_h = z.bh + 2 * z.line_h + 30;
    z.content_w = 2 * margin + z.col_x.back() + bw;
    z.content_h = float(L.max_rows) * z.row_h + 10;
    return z;
}

}  // namespace

ImVec2 graph_content_size(const Graph& g, const NetPlan* plan) {
    const GraphSizing z = size_graph(g, plan);
    return ImVec2(z.content_w, z.content_h);
}

// ---- [graph drawing] --------------------------------------------------------------

int graph_rows(const Graph& g) {
    return layout_graph(g).max_rows;
}

GraphClick draw_graph(const Graph& g, const NetPlan* plan, int selected_node, long selected_edge,
                      float height, bool scroll) {
    GraphClick out;
    const auto& nodes = g.nodes;
    const GraphSizing z = size_graph(g, plan);
    const GraphLayout& L = z.L;
    const float line_h = z.line_h, pad = z.pad, margin = z.margin, bw = z.bw, bh = z.bh;
    const float row_h = z.row_h, content_w = z.content_w, content_h = z.content_h;
    const std::vector<std::string>&op_line = z.op_line, &layout_txt = z.layout_txt;
    const std::vector<EdgeText>& texts = z.texts;
    const std::vector<float>& col_x = z.col_x;

    ImVec2 avail = ImGui::GetContentRegionAvail();
    ImGui::BeginChild("graph", ImVec2(avail.x, height), true,
                      scroll ? ImGuiWindowFlags_HorizontalScrollbar
                             : ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImVec2 o = ImGui::GetCursorScreenPos();
    ImVec2 inner = ImGui::GetContentRegionAvail();
    ImVec2 canvas(std::max(content_w, inner.x), std::max(content_h, inner.y));
    out.content = ImVec2(content_w, content_h);
    ImGui::InvisibleButton("canvas", canvas);
    bool clicked = ImGui::IsItemClicked(0);
    const float x0 = o.x + std::max(margin, (canvas.x - content_w) / 2 + margin);
    const float cy = o.y + canvas.y / 2;
    auto box = [&](size_t i) {
        ImVec2 p(x0 + col_x[size_t(L.depth[i])], cy + L.row[i] * row_h - bh / 2);
        return std::make_pair(p, ImVec2(p.x + bw, p.y + bh));
    };

    // Edges (from the graph, so they show even when propagation failed).
    struct LabelBox {
        ImVec2 a, b;
        size_t edge;
    };
    std::vector<LabelBox> label_boxes;
    size_t ei = 0;
    struct Pending {
        ImVec2 mid;
        size_t edge;
    };
    std::vector<Pending> pending;
    for (size_t i = 0; i < nodes.size(); ++i) {
        size_t k_in = nodes[i].inputs.size();
        for (size_t s = 0; s < k_in; ++s, ++ei) {
            int k = g.index_of(nodes[i].inputs[s]);
            if (k < 0 || size_t(k) >= i) continue;
            auto [pa, qa] = box(size_t(k));
            auto [pb, qb] = box(i);
            ImVec2 a(qa.x, (pa.y + qa.y) / 2);
            ImVec2 b(pb.x, (pb.y + qb.y) / 2 + (float(s) - float(k_in - 1) / 2) * 12);
            int kind = plan && ei < texts.size() ? texts[ei].kind : 0;
            bool sel = long(ei) == selected_edge;
            ImU32 col = kind == 1 ? kMismatch : kind == 2 ? kFixed : kEdge;
            float d = std::max(30.f, (b.x - a.x) / 2);
            dl->AddBezierCubic(a, ImVec2(a.x + d, a.y), ImVec2(b.x - d, b.y), b, col,
                               sel    ? 4.f
                               : kind ? 2.5f
                                      : 1.6f);
            dl->AddTriangleFilled(b, ImVec2(b.x - 9, b.y - 5), ImVec2(b.x - 9, b.y + 5), col);
            if (plan && ei < texts.size())
                pending.push_back({ImVec2((a.x + b.x) / 2, (a.y + b.y) / 2), ei});
        }
    }
    // Each text is drawn on a box of its own colour: kept with its place, its
    // ink and that box's fill for the probe (the light theme's contrast test
    // judges it against the box, not the window).
    auto put = [&](ImVec2 at, ImU32 ink, ImU32 under, const std::string& text, const char* kind) {
        dl->AddText(at, ink, text.c_str());
        const ImVec2 sz = ImGui::CalcTextSize(text.c_str());
        out.texts.push_back({text, kind, ink, under, at, sz});
    };
    // Nodes over the edges.
    for (size_t i = 0; i < nodes.size(); ++i) {
        auto [p, q] = box(i);
        bool sel = int(i) == selected_node;
        dl->AddRectFilled(p, q, node_fill(nodes[i].op), 6);
        dl->AddRect(p, q, sel ? kSelected : IM_COL32(15, 15, 18, 255), 6, 0, sel ? 3.f : 1.f);
        const ImU32 fill = node_fill(nodes[i].op);
        put(ImVec2(p.x + pad, p.y + 5), kText, fill, nodes[i].name, "node");
        ImVec2 l2(p.x + pad, p.y + 7 + line_h);
        put(l2, kSubText, fill, op_line[i].substr(0, op_line[i].find_last_not_of(' ') + 1), "op");
        if (plan) {
            bool changed = plan->initial.nodes[i].layout != plan->propagation.nodes[i].layout;
            put(ImVec2(l2.x + ImGui::CalcTextSize(op_line[i].c_str()).x, l2.y),
                changed ? kChanged : kText, fill, layout_txt[i], "layout");
        }
        if (clicked && ImGui::IsMouseHoveringRect(p, q)) out.node = int(i);
    }
    // Edge labels last, over everything, centred on the edge's midpoint.
    for (Pending pe : pending) {
        const EdgeText& t = texts[pe.edge];
        // A mismatch's tag and its marker on the left are centred together
        // on the edge (the marker ran into the producer's box on a slide).
        if (t.kind == 1) pe.mid.x += marker_radius(line_h) + 1;
        bool sel = long(pe.edge) == selected_edge;
        ImVec2 s1 = ImGui::CalcTextSize(t.line1.c_str());
        ImVec2 s2 = t.line2.empty() ? ImVec2(0, 0) : ImGui::CalcTextSize(t.line2.c_str());
        float w = std::max(s1.x, s2.x) + 10, h = s1.y + (t.line2.empty() ? 0 : s2.y) + 6;
        ImVec2 a(pe.mid.x - w / 2, pe.mid.y - h / 2), b(pe.mid.x + w / 2, pe.mid.y + h / 2);
        dl->AddRectFilled(a, b, kTagFill, 4);
        ImU32 border = t.kind == 1 ? kMismatch : t.kind == 2 ? kFixed : IM_COL32(70, 78, 90, 255);
        dl->AddRect(a, b, sel ? kSelected : border, 4, 0, sel || t.kind ? 2.f : 1.f);
        ImU32 tc = t.kind == 1 ? kBadText : kText;
        put(ImVec2(pe.mid.x - s1.x / 2, a.y + 3), tc, kTagFill, t.line1, "edge");
        if (!t.line2.empty())
            put(ImVec2(pe.mid.x - s2.x / 2, a.y + 3 + s1.y), t.kind == 2 ? kFixed : kSubText,
                kTagFill, t.line2, "edge");
        if (t.kind == 1) {  // the mismatch marker: a filled disc with "!" on the label's left
            // The disc grows with the type (on a slide a 9 px disc held a
            // glyph taller than itself, over relu's box).
            const float rad = marker_radius(line_h);
            ImVec2 c(a.x - rad - 2, pe.mid.y);
            dl->AddCircleFilled(c, rad, kMismatch);
            // Black on the red disc: 5.0:1 (white was 4.2:1).
            put(ImVec2(c.x - ImGui::CalcTextSize("!").x / 2, c.y - line_h / 2),
                IM_COL32(15, 15, 18, 255), kMismatch, "!", "marker");
            a.x -= 2 * rad + 2;
        }
        label_boxes.push_back({a, b, pe.edge});
    }
    if (clicked) {
        for (const LabelBox& lb : label_boxes)
            if (ImGui::IsMouseHoveringRect(lb.a, lb.b)) {
                out.edge = long(lb.edge);
                out.node = -1;
            }
    }
    ImGui::EndChild();
    return out;
}

// ---- [stream plot] ----------------------------------------------------------------

StreamPlotDrawn draw_stream_plot(const std::string& title, const std::vector<int64_t>& offsets,
                                 ImVec2 size, ImU32 colour, int64_t scale, bool dark,
                                 const std::string& note) {
    StreamPlotDrawn drawn;
    ImGui::BeginGroup();
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + size.x);  // a long title wraps, not widens
    ImGui::TextUnformatted(title.c_str());
    ImGui::PopTextWrapPos();
    // The offsets' range and the step count take their own text row above
    // the plot (drawn inside it, they sat on the line's end).
    const render::Palette& pal = render::palette(dark);
    const ImU32 sub = render::packed(pal[render::Role::dim]);
    if (offsets.size() >= 2) {
        const auto mm = std::minmax_element(offsets.begin(), offsets.end());
        const int64_t bottom = scale > 0 ? 0 : *mm.first;
        char buf[96];
        std::snprintf(buf, sizeof buf, tr("offsets %lld..%lld"), (long long)bottom,
                      (long long)*mm.second);
        std::string left = buf;
        if (!note.empty()) left += ", " + note;
        std::snprintf(buf, sizeof buf, tr("%zu steps"), offsets.size());
        const float x0 = ImGui::GetCursorScreenPos().x;
        ImGui::TextDisabled("%s", left.c_str());
        const float steps_w = ImGui::CalcTextSize(buf).x;
        if (ImGui::CalcTextSize(left.c_str()).x + steps_w + 12 < size.x) {
            ImGui::SameLine();
            ImGui::SetCursorScreenPos(ImVec2(x0 + size.x - steps_w, ImGui::GetCursorScreenPos().y));
            ImGui::TextDisabled("%s", buf);
        }
    }
    ImVec2 o = ImGui::GetCursorScreenPos();
    ImGui::Dummy(size);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImVec2 q(o.x + size.x, o.y + size.y);
    // The theme's canvas behind the plot (a dark box on a light slide read
    // as a hole); on the light canvas the pale stream colours are darkened.
    if (!dark) {
        const auto half = [&](int shift) { return ((colour >> shift) & 0xFF) * 45 / 100; };
        colour =
            IM_COL32(half(IM_COL32_R_SHIFT), half(IM_COL32_G_SHIFT), half(IM_COL32_B_SHIFT), 255);
    }
    dl->AddRectFilled(o, q, render::packed(pal[render::Surface::canvas]), 3);
    dl->AddRect(o, q, sub, 3);
    if (offsets.size() >= 2) {
        // Each stream on its own scale, lowest to highest offset it reads
        // (one scale for all drew the small streams as flat lines); scale > 0
        // still forces a shared top.
        const auto mm = std::minmax_element(offsets.begin(), offsets.end());
        const int64_t top = *mm.second, bottom = scale > 0 ? 0 : *mm.first;
        const int64_t hi = std::max<int64_t>(scale > 0 ? std::max(top, scale) : top, bottom + 1);
        const float l = 6, r = 6, t = 6, b = 6;
        std::vector<ImVec2> pts;
        for (size_t i = 0; i < offsets.size(); ++i)
            pts.push_back(ImVec2(
                o.x + l + (size.x - l - r) * float(i) / float(offsets.size() - 1),
                q.y - b - (size.y - t - b) * float(offsets[i] - bottom) / float(hi - bottom)));
        dl->AddPolyline(pts.data(), int(pts.size()), colour, 0, 1.5f);
        const auto ys = std::minmax_element(pts.begin(), pts.end(),
                                            [](ImVec2 a, ImVec2 b2) { return a.y < b2.y; });
        drawn = {bottom, top, ys.second->y - ys.first->y, size.y - t - b};
        for (const ImVec2& p : pts) dl->AddCircleFilled(p, 1.8f, colour);
    }
    ImGui::EndGroup();
    return drawn;
}

// ---- [noc grid] -------------------------------------------------------------------

float draw_noc_grid(const NocPlan& noc, float t, float cell) {
    const int64_t pes = noc.config.pes;
    ImVec2 o = ImGui::GetCursorScreenPos();
    const float half = cell * 0.28f;
    ImVec2 size(cell * float(noc.mesh_cols) + 20, cell * float(noc.mesh_rows) + 10);
    ImGui::Dummy(size);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    auto centre = [&](int64_t pe) {
        auto [x, y] = mesh_xy(pe, noc.mesh_cols);
        return ImVec2(o.x + 10 + cell * (float(x) + 0.5f), o.y + 5 + cell * (float(y) + 0.5f));
    };
    // Links: width by load; the two directions side by side; bytes written on each.
    for (const auto& [link, bytes] : noc.link_bytes) {
        ImVec2 a = centre(link.first), b = centre(link.second);
        float len = std::max(1.f, std::hypot(b.x - a.x, b.y - a.y));
        float nx = -(b.y - a.y) / len * 7, ny = (b.x - a.x) / len * 7;
        float w = 1.5f + 5 * float(bytes) / float(std::max<int64_t>(1, noc.max_link_bytes));
        dl->AddLine(ImVec2(a.x + nx, a.y + ny), ImVec2(b.x + nx, b.y + ny),
                    IM_COL32(110, 150, 215, 210), w);
        if (pes <= 16) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%lld B", (long long)bytes);
            ImVec2 ts = ImGui::CalcTextSize(buf);
            // Beside its own line: outward along the normal by the text's extent.
            float ux = nx / 7, uy = ny / 7;
            float ext = 10 + std::fabs(ux) * ts.x / 2 + std::fabs(uy) * ts.y / 2;
            ImVec2 m((a.x + b.x) / 2 + ux * ext - ts.x / 2, (a.y + b.y) / 2 + uy * ext - ts.y / 2);
            dl->AddText(m, kSubText, buf);
        }
    }
    for (int64_t pe = 0; pe < pes; ++pe) {
        ImVec2 c = centre(pe);
        dl->AddRectFilled(ImVec2(c.x - half, c.y - half), ImVec2(c.x + half, c.y + half),
                          IM_COL32(52, 76, 64, 255), 5);
        dl->AddRect(ImVec2(c.x - half, c.y - half), ImVec2(c.x + half, c.y + half),
                    IM_COL32(120, 160, 130, 255), 5);
        std::string label = "PE" + std::to_string(pe);
        ImVec2 ts = ImGui::CalcTextSize(label.c_str());
        dl->AddText(ImVec2(c.x - ts.x / 2, c.y - half + 2), kText, label.c_str());
    }
    // Blocks: a disc per block, coloured by its source PE; waiting at the
    // source at t = 0, moving one hop per unit of t, parked at the
    // destination (in a small grid by source) once arrived.
    int side = int(std::ceil(std::sqrt(double(std::max<int64_t>(1, pes)))));
    float slot = (2 * half - 8) / float(side);
    for (const auto& b : noc.blocks) {
        float hue = float(b.src_pe) / float(std::max<int64_t>(1, pes));
        ImVec4 rgb(0, 0, 0, 1);
        ImGui::ColorConvertHSVtoRGB(hue, 0.75f, 1.0f, rgb.x, rgb.y, rgb.z);
        ImU32 col = ImGui::ColorConvertFloat4ToU32(rgb);
        auto parked = [&](int64_t pe, int64_t index) {
            ImVec2 c = centre(pe);
            float x = float(index % side), y = float(index / side);
            return ImVec2(c.x - half + 4 + slot * (x + 0.5f),
                          c.y - half + 4 + 14 + (slot - 4) * (y + 0.5f));
        };
        ImVec2 p;
        if (b.src_pe == b.dst_pe || t >= float(b.hops())) {
            p = parked(b.dst_pe, b.src_pe);
        } else if (t <= 0) {
            p = parked(b.src_pe, b.dst_pe);
        } else {
            size_t k = std::min(size_t(t), b.route.size() - 2);
            float f = t - float(k);
            ImVec2 a = centre(b.route[k]), c = centre(b.route[k + 1]);
            float jitter = (float(b.dst_pe % 4) - 1.5f) * 4;
            p = ImVec2(a.x + (c.x - a.x) * f + jitter, a.y + (c.y - a.y) * f + jitter);
        }
        dl->AddCircleFilled(p, std::max(2.5f, std::min(6.f, slot * 0.35f)), col);
    }
    return size.y;
}

}  // namespace ll::gui::planning
