#include "app/panels/tiling_settings.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <type_traits>
#include <vector>

#include "core/dtype.hpp"
#include "core/error.hpp"

namespace ll::gui {

namespace {

std::string upper(std::string s) {
    for (char& ch : s) ch = char(std::toupper(static_cast<unsigned char>(ch)));
    return s;
}

// Index of the name at `key` (any case) in `names`, or of a number 0..n-1.
void pick(const SceneReader& r, const char* key, int& out, const std::vector<std::string>& names) {
    if (!r.has(key)) return;
    const nlohmann::json& v = r.at(key);
    std::string all;
    for (const auto& n : names) all += (all.empty() ? "" : ", ") + n;
    if (v.is_number_integer() && v.get<int64_t>() >= 0 &&
        v.get<int64_t>() < int64_t(names.size())) {
        out = int(v.get<int64_t>());
        return;
    }
    if (v.is_string())
        for (size_t i = 0; i < names.size(); ++i)
            if (upper(names[i]) == upper(v.get<std::string>())) {
                out = int(i);
                return;
            }
    r.fail(key, v, "one of " + all);
}

// A fixed-size list of numbers at `key`, each in [lo, hi] (whole for ints).
template <class T, size_t N>
void numbers(const SceneReader& r, const char* key, T (&out)[N], double lo, double hi,
             const char* what) {
    if (!r.has(key)) return;
    const nlohmann::json& v = r.at(key);
    if (!v.is_array() || v.size() != N) r.fail(key, v, what);
    T tmp[N];
    for (size_t i = 0; i < N; ++i) {
        if (!v[i].is_number()) r.fail(key, v, what);
        const double x = v[i].get<double>();
        if (!(x >= lo && x <= hi) || (std::is_integral<T>::value && x != std::floor(x)))
            r.fail(key, v, what);
        tmp[i] = T(x);
    }
    std::copy(tmp, tmp + N, out);
}

std::vector<std::string> names(const char* const* a, size_t n) {
    return std::vector<std::string>(a, a + n);
}

}  // namespace

tiling::Config TilingSettings::config() const {
    using namespace tiling;
    Config c;
    c.shape = {shape[0], shape[1], shape[2], shape[3]};
    c.layout = offered_layouts()[size_t(layout)];
    c.dtype = all_dtypes()[size_t(dtype)];
    c.l1_tile = {l1[0], l1[1], l1[2]};
    c.l2_tile = {l2[0], l2[1], l2[2]};
    c.l1_order = all_orders()[size_t(o1)];
    c.l2_order = all_orders()[size_t(o2)];
    c.l2_passes = passes;
    c.basis = basis ? StrideBasis::destination : StrideBasis::source;
    c.mem.dram.access_bytes = access[0];
    c.mem.sram.access_bytes = access[1];
    c.mem.dram.setup_ns = setup[0];
    c.mem.sram.setup_ns = setup[1];
    c.mem.dram.bandwidth_gbps = bw[0];
    c.mem.sram.bandwidth_gbps = bw[1];
    c.mem.reg.bandwidth_gbps = bw[2];
    return c;
}

nlohmann::json TilingSettings::to_json() const {
    using namespace tiling;
    return {{"shape", shape},
            {"layout", offered_layouts()[size_t(layout)]},
            {"dtype", name(all_dtypes()[size_t(dtype)])},
            {"l1_tile", l1},
            {"l2_tile", l2},
            {"l1_order", to_string(all_orders()[size_t(o1)])},
            {"l2_order", to_string(all_orders()[size_t(o2)])},
            {"l2_passes", passes},
            {"stride_basis", basis ? "destination" : "source"},
            {"access_bytes", access},
            {"bandwidth", bw},
            {"setup_ns", setup},
            {"speed", speed},
            {"memory", memory},
            {"step", step},
            {"playing", playing},
            {"tab", kTabIds[tab]},
            {"tilesize_dim", std::string(1, "CHW"[lines_dim])},
            {"sweep", sweep},
            {"export_plot", kPlotIds[export_plot]},
            {"sidebar", sidebar}};
}

void TilingSettings::read(const SceneReader& r) {
    using namespace tiling;
    r.only({"shape",    "layout",      "dtype",        "l1_tile",      "l2_tile",   "l1_order",
            "l2_order", "l2_passes",   "stride_basis", "access_bytes", "bandwidth", "setup_ns",
            "speed",    "memory",      "step",         "playing",      "tab",       "tilesize_dim",
            "sweep",    "export_plot", "export",       "sidebar"});
    TilingSettings s = *this;
    std::vector<std::string> layouts, dtypes, orders;
    for (const std::string& l : offered_layouts()) layouts.push_back(l);
    for (DType t : all_dtypes()) dtypes.push_back(name(t));
    for (const Order& o : all_orders()) orders.push_back(to_string(o));
    numbers(r, "shape", s.shape, 1, 1 << 20, "[N,C,H,W], each 1..1048576");
    pick(r, "layout", s.layout, layouts);
    pick(r, "dtype", s.dtype, dtypes);
    numbers(r, "l1_tile", s.l1, 1, 1 << 20, "[C,H,W] tile sizes >= 1");
    numbers(r, "l2_tile", s.l2, 1, 1 << 20, "[C,H,W] sub-tile sizes >= 1");
    pick(r, "l1_order", s.o1, orders);
    pick(r, "l2_order", s.o2, orders);
    r.get("l2_passes", s.passes, 1, 1024);
    pick(r, "stride_basis", s.basis, {"source", "destination"});
    numbers(r, "access_bytes", s.access, 0, 1 << 20,
            "[DRAM,SRAM] access units in bytes, 0 = formula (8) alone");
    numbers(r, "bandwidth", s.bw, 1e-3, 1e9, "[DRAM,SRAM,registers] GB/s, each > 0");
    numbers(r, "setup_ns", s.setup, 0, 1e9, "[L1,L2] ns per tile / sub-tile, >= 0");
    r.get("speed", s.speed, 0.5f, 200.f);
    r.get("memory", s.memory, 0.f, 1.f);
    r.get("step", s.step, 0.0, 1e15);
    r.get("playing", s.playing);
    pick(r, "tab", s.tab, names(kTabIds, 5));
    pick(r, "tilesize_dim", s.lines_dim, {"C", "H", "W"});
    r.get("sweep", s.sweep);
    r.get("sidebar", s.sidebar);
    pick(r, "export_plot", s.export_plot, names(kPlotIds, 5));
    s.export_base.clear();
    if (r.has("export")) {
        const nlohmann::json& v = r.at("export");
        if (!v.is_string() || v.get<std::string>().empty())
            r.fail("export", v, "a path without extension (writes .png, .svg, .csv)");
        s.export_base = v.get<std::string>();
    }
    // Tiles are checked against the shape here (the panel's sliders clamp them).
    const char* dn[] = {"C", "H", "W"};
    for (int i = 0; i < 3; ++i) {
        if (s.l1[i] > s.shape[i + 1])
            r.fail("l1_tile", r.has("l1_tile") ? r.at("l1_tile") : nlohmann::json(s.l1),
                   std::string("a tile inside the tensor (") + dn[i] + " " +
                       std::to_string(s.l1[i]) + " > " + std::to_string(s.shape[i + 1]) + ")");
        if (s.l2[i] > s.l1[i])
            r.fail("l2_tile", r.has("l2_tile") ? r.at("l2_tile") : nlohmann::json(s.l2),
                   std::string("a sub-tile inside the tile (") + dn[i] + " " +
                       std::to_string(s.l2[i]) + " > " + std::to_string(s.l1[i]) + ")");
    }
    *this = s;
}

}  // namespace ll::gui
