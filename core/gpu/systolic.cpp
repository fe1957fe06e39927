#include "core/gpu/systolic.hpp"

#include <algorithm>
#include <memory>
#include <random>

#include "core/error.hpp"

namespace ll::gpu {

namespace {

int64_t ceil_div(int64_t a, int64_t b) {
    return (a + b - 1) / b;
}

void in_range(const char* key, int64_t v, int64_t lo, int64_t hi, const char* what) {
    if (v < lo || v > hi)
        throw UsageError(key, std::to_string(v) + " is out of range; expected " + what + " in " +
                                  std::to_string(lo) + ".." + std::to_string(hi));
}

// The tile whose cycles contain `cycle`, or -1 past the end.
int64_t tile_at(const SystolicSummary& s, int64_t cycle) {
    for (size_t t = 0; t < s.tiles.size(); ++t)
        if (cycle >= s.tiles[t].start && cycle < s.tiles[t].end) return int64_t(t);
    return -1;
}

}  // namespace

void check(const SystolicParams& p) {
    in_range("rows", p.rows, 1, 16, "PE rows");
    in_range("cols", p.cols, 1, 16, "PE columns");
    in_range("m", p.m, 1, 64, "M");
    in_range("k", p.k, 1, 64, "K");
    in_range("n", p.n, 1, 64, "N");
    in_range("load_cycles_per_row", p.load_cycles_per_row, 0, 8, "cycles per weight row");
}

SystolicSummary systolic_summary(const SystolicParams& p) {
    check(p);
    SystolicSummary s;
    int64_t t = 0;
    for (int64_t n0 = 0; n0 < p.n; n0 += p.cols)
        for (int64_t k0 = 0; k0 < p.k; k0 += p.rows) {
            SystolicTile tl;
            tl.k0 = k0, tl.n0 = n0;
            tl.kt = std::min(p.rows, p.k - k0);
            tl.nt = std::min(p.cols, p.n - n0);
            tl.start = t;
            tl.stream_start = t + tl.kt * p.load_cycles_per_row;
            tl.end = tl.stream_start + p.m + tl.kt + tl.nt - 2;
            s.load_cycles += tl.stream_start - tl.start;
            s.stream_cycles += tl.end - tl.stream_start;
            t = tl.end;
            s.tiles.push_back(tl);
        }
    s.cycles = t;
    s.macs = p.m * p.k * p.n;
    s.utilisation = double(s.macs) / double(p.rows * p.cols * s.cycles);
    s.cube_m1 = ceil_div(p.m, 16);
    s.cube_k1 = ceil_div(p.k, 16);
    s.cube_n1 = ceil_div(p.n, 16);
    s.cube_steps = s.cube_m1 * s.cube_k1 * s.cube_n1;
    s.cube_utilisation = double(s.macs) / double(s.cube_steps * 16 * 16 * 16);
    return s;
}

CycleState systolic_state(const SystolicParams& p, int64_t cycle) {
    const SystolicSummary s = systolic_summary(p);
    in_range("cycle", cycle, 0, s.cycles, "the cycle");
    CycleState c;
    c.cycle = cycle;
    c.pes.assign(size_t(p.rows * p.cols), PeState{});
    c.tile = tile_at(s, cycle);
    // C elements complete: all K tiles of their N tile done, or, in the last K
    // tile of the current N tile, the sum left the bottom row before `cycle`.
    for (int64_t t = 0; t < int64_t(s.tiles.size()); ++t) {
        const SystolicTile& tl = s.tiles[size_t(t)];
        if (tl.k0 + tl.kt != p.k) continue;  // not the last K tile of its columns
        for (int64_t m = 0; m < p.m; ++m)
            for (int64_t j = 0; j < tl.nt; ++j)
                c.outputs_done += tl.stream_start + m + tl.kt - 1 + j < cycle;
    }
    if (c.tile < 0) return c;
    const SystolicTile& tl = s.tiles[size_t(c.tile)];
    if (cycle < tl.stream_start) {
        c.loading = true;
        c.loaded_rows =
            p.load_cycles_per_row ? (cycle - tl.start) / p.load_cycles_per_row + 1 : tl.kt;
        return c;
    }
    c.loaded_rows = tl.kt;
    const int64_t u = cycle - tl.stream_start;
    for (int64_t i = 0; i < tl.kt; ++i)
        for (int64_t j = 0; j < tl.nt; ++j) {
            const int64_t m = u - i - j;
            if (m < 0 || m >= p.m) continue;
            PeState& pe = c.pes[size_t(i * p.cols + j)];
            pe.active = true;
            pe.m = m;
            pe.summed = tl.k0 + i + 1;
            ++c.active_pes;
        }
    return c;
}

SystolicRun systolic_run(const SystolicParams& p) {
    SystolicRun r;
    r.summary = systolic_summary(p);
    std::mt19937 rng(p.seed);
    auto draw = [&] { return int64_t(rng() % 9u) - 4; };  // raw mt19937: the same everywhere
    r.a.resize(size_t(p.m * p.k));
    r.b.resize(size_t(p.k * p.n));
    for (int64_t& v : r.a) v = draw();
    for (int64_t& v : r.b) v = draw();
    r.direct.assign(size_t(p.m * p.n), 0);
    for (int64_t m = 0; m < p.m; ++m)
        for (int64_t n = 0; n < p.n; ++n)
            for (int64_t k = 0; k < p.k; ++k)
                r.direct[size_t(m * p.n + n)] +=
                    r.a[size_t(m * p.k + k)] * r.b[size_t(k * p.n + n)];
    r.c.assign(size_t(p.m * p.n), 0);
    // The registers of every PE: the activation passing right and the
    // partial sum passing down, each tagged with its row m of A (-1 empty).
    const size_t pes = size_t(p.rows * p.cols);
    bool consistent = true;
    for (const SystolicTile& tl : r.summary.tiles) {
        std::vector<int64_t> w(pes, 0), a(pes, 0), am(pes, -1), ps(pes, 0), pm(pes, -1);
        for (int64_t i = 0; i < tl.kt; ++i)
            for (int64_t j = 0; j < tl.nt; ++j)
                w[size_t(i * p.cols + j)] = r.b[size_t((tl.k0 + i) * p.n + tl.n0 + j)];
        for (int64_t cyc = tl.stream_start; cyc < tl.end; ++cyc) {
            const int64_t u = cyc - tl.stream_start;
            std::vector<int64_t> na(pes, 0), nam(pes, -1), nps(pes, 0), npm(pes, -1);
            int64_t active = 0;
            for (int64_t i = 0; i < tl.kt; ++i)
                for (int64_t j = 0; j < tl.nt; ++j) {
                    const size_t e = size_t(i * p.cols + j);
                    if (j == 0) {  // row i's skewed input: A[m][k0+i] at u = m + i
                        const int64_t m = u - i;
                        if (m >= 0 && m < p.m) {
                            na[e] = r.a[size_t(m * p.k + tl.k0 + i)];
                            nam[e] = m;
                        }
                    } else {
                        na[e] = a[e - 1];
                        nam[e] = am[e - 1];
                    }
                    if (nam[e] < 0) continue;
                    const int64_t in = i == 0 ? 0 : ps[e - size_t(p.cols)];
                    const int64_t in_m = i == 0 ? nam[e] : pm[e - size_t(p.cols)];
                    consistent &= in_m == nam[e];
                    nps[e] = in + na[e] * w[e];
                    npm[e] = nam[e];
                    ++active;
                    if (i == tl.kt - 1) {
                        r.c[size_t(npm[e] * p.n + tl.n0 + j)] += nps[e];
                        r.last_output_cycle = std::max(r.last_output_cycle, cyc);
                    }
                }
            r.max_active_pes = std::max(r.max_active_pes, active);
            a.swap(na), am.swap(nam), ps.swap(nps), pm.swap(npm);
        }
    }
    r.equal = consistent && r.c == r.direct;
    return r;
}

Plan systolic_plan(const SystolicParams& p) {
    const SystolicSummary s = systolic_summary(p);
    const int64_t R = p.rows, Cc = p.cols, M = p.m, K = p.k, N = p.n;
    if ((s.cycles + 1) * R * Cc > (int64_t(1) << 18) || s.cycles > kSystolicPlanCycles)
        throw UsageError("cycles",
                         std::to_string(s.cycles) + " cycles on " + std::to_string(R) + "x" +
                             std::to_string(Cc) + " PEs is too many to draw; expected at most " +
                             std::to_string(kSystolicPlanCycles) + " cycles and 262144 PE-cycles");
    // Geometry (cell units): the queue, the array (PE pitch 3), B at its right,
    // C below it.
    struct Geo {
        int64_t ax, ay, bx, by, cx, cy, w, h;
    };
    Geo g;
    g.ay = 4;  // a tag row, a caption row, the column ticks
    g.ax = M + R + 2;
    g.bx = g.ax + 3 * Cc + 3;
    g.by = g.ay;
    g.cx = g.ax;
    g.cy = g.ay + 3 * R + 2;  // a row for the "A moves right" arrow under the PEs
    g.w = std::max(g.bx + N, g.cx + N) + 1;
    g.h = std::max(g.by + K, g.cy + 1 + M) + 1;
    // Cell ranges.
    std::vector<int64_t> a_first, ps_first;  // per tile
    int64_t cells = 0;
    for (const SystolicTile& tl : s.tiles) {
        a_first.push_back(cells);
        cells += M * tl.kt;
    }
    const int64_t b_first = cells;
    cells += K * N;
    for (const SystolicTile& tl : s.tiles) {
        ps_first.push_back(cells);
        cells += M * tl.nt;
    }
    const int64_t c_first = cells;
    cells += M * N;

    Plan plan;
    plan.title = "Systolic array (weight-stationary) vs Cube";
    plan.cell_count = cells;
    // Colour planes as the Cube's picture: red (C bright, partial sums dark),
    // green (B), blue (A); ColourMode::value.
    plan.src_shape = {3, cells};
    plan.channel_axis = 0;
    plan.src.resize(size_t(cells));
    plan.values.assign(size_t(3 * cells), 0);
    auto set_src = [&](int64_t cell, int plane, uint8_t v) {
        plan.src[size_t(cell)] = plane * cells + cell;
        plan.values[size_t(plane * cells + cell)] = v;
    };
    for (int64_t c = 0; c < b_first; ++c) set_src(c, 2, 225);
    for (int64_t c = b_first; c < b_first + K * N; ++c) set_src(c, 1, 185);
    for (size_t t = 0; t < s.tiles.size(); ++t)
        for (int64_t m = 0; m < M; ++m)
            for (int64_t j = 0; j < s.tiles[t].nt; ++j)
                set_src(ps_first[t] + m * s.tiles[t].nt + j, 0, 140);
    for (int64_t c = c_first; c < cells; ++c) set_src(c, 0, 245);

    const Shape canvas = {g.h, g.w};
    auto at = [w = g.w](int64_t x, int64_t y) { return y * w + x; };
    auto shared = std::make_shared<SystolicSummary>(s);
    const SystolicParams pp = p;
    // Offsets of every cell during cycle k (k == cycles: after the last).
    auto offsets = [shared, pp, g, a_first, ps_first, b_first, c_first, cells, at](size_t kk) {
        const SystolicSummary& su = *shared;
        const int64_t cyc = int64_t(kk);
        std::vector<int64_t> off(size_t(cells), -1);
        const int64_t cur = tile_at(su, cyc);
        // B: in the matrix, or entering / in the array during its tile.
        for (int64_t k = 0; k < pp.k; ++k)
            for (int64_t n = 0; n < pp.n; ++n)
                off[size_t(b_first + k * pp.n + n)] = at(g.bx + n, g.by + k);
        if (cur >= 0) {
            const SystolicTile& tl = su.tiles[size_t(cur)];
            // Rows entered after l load steps sit l - (kt - 1 - i) rows down.
            const int64_t steps =
                cyc < tl.stream_start
                    ? (pp.load_cycles_per_row ? (cyc - tl.start) / pp.load_cycles_per_row
                                              : tl.kt - 1)
                    : tl.kt - 1;
            for (int64_t i = 0; i < tl.kt; ++i) {
                const int64_t row = i - (tl.kt - 1 - steps);
                if (row < 0) continue;
                for (int64_t j = 0; j < tl.nt; ++j)
                    off[size_t(b_first + (tl.k0 + i) * pp.n + tl.n0 + j)] =
                        at(g.ax + 3 * j, g.ay + 3 * row);
            }
            // A copies of this tile: waiting in the skewed queue, then passing.
            const int64_t u = std::max<int64_t>(cyc - tl.stream_start, -1);
            for (int64_t m = 0; m < pp.m; ++m)
                for (int64_t i = 0; i < tl.kt; ++i) {
                    const int64_t d = m + i - u, cell = a_first[size_t(cur)] + m * tl.kt + i;
                    if (d >= 1)
                        off[size_t(cell)] = at(g.ax - 1 - d, g.ay + 3 * i);
                    else if (-d < tl.nt)
                        off[size_t(cell)] = at(g.ax + 3 * (-d) + 1, g.ay + 3 * i);
                }
            // Partial sums of this tile in the PE computing them.
            for (int64_t i = 0; i < tl.kt && u >= 0; ++i)
                for (int64_t j = 0; j < tl.nt; ++j) {
                    const int64_t m = u - i - j;
                    if (m < 0 || m >= pp.m) continue;
                    off[size_t(ps_first[size_t(cur)] + m * tl.nt + j)] =
                        at(g.ax + 3 * j + 1, g.ay + 3 * i + 1);
                }
        }
        // C: shown once every k term is summed.
        for (const SystolicTile& tl : su.tiles) {
            if (tl.k0 + tl.kt != pp.k) continue;
            for (int64_t m = 0; m < pp.m; ++m)
                for (int64_t j = 0; j < tl.nt; ++j)
                    if (tl.stream_start + m + tl.kt - 1 + j < cyc)
                        off[size_t(c_first + m * pp.n + tl.n0 + j)] =
                            at(g.cx + tl.n0 + j, g.cy + 1 + m);
        }
        return off;
    };
    plan.offsets = offsets;
    plan.offset_of = [offsets](size_t k, int64_t cell) { return offsets(k)[size_t(cell)]; };

    char buf[200];
    for (int64_t cyc = 0; cyc <= s.cycles; ++cyc) {
        const CycleState st = systolic_state(p, cyc);
        // The full sentence is the stage's formula (the caption line under
        // the picture); the label drawn in the picture stays short.
        std::string cap, tag;
        if (st.tile < 0) {
            std::snprintf(buf, sizeof buf,
                          "done: %lld cycles, %lld MACs on %lldx%lld PEs, utilisation %.1f%%",
                          static_cast<long long>(s.cycles), static_cast<long long>(s.macs),
                          static_cast<long long>(R), static_cast<long long>(Cc),
                          100 * s.utilisation);
            cap = buf;
            tag = "done";
        } else {
            const SystolicTile& tl = s.tiles[size_t(st.tile)];
            std::snprintf(buf, sizeof buf,
                          "cycle %lld of %lld, tile %lld/%zu (k %lld..%lld, n %lld..%lld): %s, "
                          "%lld PEs busy",
                          static_cast<long long>(cyc), static_cast<long long>(s.cycles),
                          static_cast<long long>(st.tile + 1), s.tiles.size(),
                          static_cast<long long>(tl.k0), static_cast<long long>(tl.k0 + tl.kt - 1),
                          static_cast<long long>(tl.n0), static_cast<long long>(tl.n0 + tl.nt - 1),
                          st.loading ? "loading weights" : "streaming A",
                          static_cast<long long>(st.active_pes));
            cap = buf;
            tag = "cycle " + std::to_string(cyc) + (st.loading ? ": load" : "");
        }
        Stage sg = stage(st.tile < 0 ? "done" : "cycle " + std::to_string(cyc), cap, canvas,
                         tensor_grid(canvas));
        sg.axes = {"y", "x"};
        // room: the PEs' pitch (3 cells) for their c/r ticks, so a projector's
        // small cells still name the PEs when the pitch holds the text.
        auto label = [&](float x, float y, std::string t, Label::Kind k, Label::Align al,
                         float room = 0) {
            Label lb;
            lb.x = x, lb.y = y, lb.text = std::move(t), lb.kind = k, lb.align = al;
            lb.room = room;
            sg.labels.push_back(lb);
        };
        label(float(g.ax), 0.5f, tag, Label::caption, Label::left);
        label(2, float(g.ay) - 1.5f, "A (skewed)", Label::caption, Label::left);
        label(float(g.bx), float(g.ay) - 1.5f, "B", Label::caption, Label::left);
        label(float(g.cx), float(g.cy) + 0.5f, "C (complete)", Label::caption, Label::left);
        for (int64_t i = 0; i < R; ++i)
            for (int64_t j = 0; j < Cc; ++j) {
                const PeState& pe = st.pes[size_t(i * Cc + j)];
                sg.boxes.push_back({float(g.ax + 3 * j), float(g.ay + 3 * i), 2, 2,
                                    pe.active ? Box::highlight : Box::outline, ""});
            }
        for (int64_t j = 0; j < Cc; ++j)
            label(float(g.ax + 3 * j) + 1, float(g.ay) - 0.5f, "c" + std::to_string(j), Label::tick,
                  Label::centre, 3);
        for (int64_t i = 0; i < R; ++i)
            label(float(g.ax + 3 * Cc) - 0.6f, float(g.ay + 3 * i) + 1, "r" + std::to_string(i),
                  Label::tick, Label::left, 3);
        sg.boxes.push_back({float(g.bx), float(g.by), float(N), float(K), Box::buffer, ""});
        sg.boxes.push_back({float(g.cx), float(g.cy + 1), float(N), float(M), Box::buffer, ""});
        if (st.tile >= 0) {
            const SystolicTile& tl = s.tiles[size_t(st.tile)];
            sg.boxes.push_back({float(g.bx + tl.n0), float(g.by + tl.k0), float(tl.nt),
                                float(tl.kt), Box::tile, ""});
        }
        // The arrow a full row under the PEs: its label (drawn above the
        // line) then clears the last row's "r" tag.
        sg.arrows.push_back({float(g.ax), float(g.ay + 3 * R) + 0.6f, float(g.ax + 3 * Cc - 1),
                             float(g.ay + 3 * R) + 0.6f, "A moves right"});
        sg.arrows.push_back(
            {float(g.ax) - 0.5f, float(g.ay), float(g.ax) - 0.5f, float(g.ay + 3 * R - 1), ""});
        plan.stages.push_back(std::move(sg));
    }
    // Highlight the cells in busy PEs (activation and sum slots).
    for (int64_t cyc = 0; cyc <= s.cycles; ++cyc) {
        const int64_t cur = tile_at(s, cyc);
        if (cur < 0) continue;
        const SystolicTile& tl = s.tiles[size_t(cur)];
        const int64_t u = cyc - tl.stream_start;
        for (int64_t i = 0; i < tl.kt && u >= 0; ++i)
            for (int64_t j = 0; j < tl.nt; ++j) {
                const int64_t m = u - i - j;
                if (m < 0 || m >= M) continue;
                plan.stages[size_t(cyc)].highlight.push_back(a_first[size_t(cur)] + m * tl.kt + i);
                plan.stages[size_t(cyc)].highlight.push_back(ps_first[size_t(cur)] + m * tl.nt + j);
            }
    }
    return plan;
}

nlohmann::json systolic_to_json(const SystolicRun& r, const SystolicParams& p) {
    const SystolicSummary& s = r.summary;
    nlohmann::json tiles = nlohmann::json::array();
    for (const SystolicTile& t : s.tiles)
        tiles.push_back({{"k0", t.k0},
                         {"n0", t.n0},
                         {"kt", t.kt},
                         {"nt", t.nt},
                         {"start", t.start},
                         {"stream_start", t.stream_start},
                         {"end", t.end}});
    return {
        {"array", {{"rows", p.rows}, {"cols", p.cols}}},
        {"gemm", {{"m", p.m}, {"k", p.k}, {"n", p.n}}},
        {"load_cycles_per_row", p.load_cycles_per_row},
        {"seed", p.seed},
        {"tiles", tiles},
        {"cycles", s.cycles},
        {"load_cycles", s.load_cycles},
        {"stream_cycles", s.stream_cycles},
        {"macs", s.macs},
        {"utilisation", s.utilisation},
        {"cube",
         {{"m1", s.cube_m1},
          {"k1", s.cube_k1},
          {"n1", s.cube_n1},
          {"steps", s.cube_steps},
          {"cycles", s.cube_steps},
          {"utilisation", s.cube_utilisation}}},
        {"check",
         {{"equal", r.equal},
          {"last_output_cycle", r.last_output_cycle},
          {"max_active_pes", r.max_active_pes}}},
        {"c", r.c},
    };
}

}  // namespace ll::gpu
