#include "app/panels/loaddata_settings.hpp"

#include <algorithm>
#include <iterator>

#include "core/dtype.hpp"
#include "core/error.hpp"

namespace ll::gui {

LoadDataSettings LoadDataSettings::initial() {
    LoadDataSettings s;
    s.v1.src_fractals = 8;
    s.v1.start_index = 1;
    s.v1.repeat = 3;
    s.v1.src_stride = 2;
    s.v1.dst_gap = 1;
    s.v2.src_fractals = 12;
    s.v2.m_step = 2;
    s.v2.k_step = 2;
    s.v2.src_stride = 4;
    s.v2.dst_stride = 2;
    s.v3 = exec::load3d_doc_example();
    return s;
}

nlohmann::json LoadDataSettings::to_json() const {
    return {{"mode", kModeKeys[mode]},
            {"product", exec::product_id(product)},
            {"dtype", dtype},
            {"path", kPaths[path]},
            {"stage", stage},
            {"playing", playing},
            {"load2d",
             {{"src_fractals", v1.src_fractals},
              {"start_index", v1.start_index},
              {"repeat", v1.repeat},
              {"src_stride", v1.src_stride},
              {"dst_gap", v1.dst_gap},
              {"transpose", v1.transpose},
              {"decrement", v1.decrement}}},
            {"load2dv2",
             {{"src_fractals", v2.src_fractals},
              {"m_start", v2.m_start},
              {"k_start", v2.k_start},
              {"m_step", v2.m_step},
              {"k_step", v2.k_step},
              {"src_stride", v2.src_stride},
              {"dst_stride", v2.dst_stride},
              {"transpose", v2.transpose}}},
            {"load3d",
             {{"c1", v3.c1},
              {"h", v3.h},
              {"w", v3.w},
              {"pad", {v3.pad_left, v3.pad_right, v3.pad_top, v3.pad_bottom}},
              {"c1_index", v3.c1_index},
              {"fetch_filter", {v3.fetch_filter_w, v3.fetch_filter_h}},
              {"left_top", {v3.left_top_w, v3.left_top_h}},
              {"stride", {v3.stride_w, v3.stride_h}},
              {"filter", {v3.kw, v3.kh}},
              {"dilation", {v3.dil_w, v3.dil_h}},
              {"jump_stride", v3.jump_stride},
              {"repeat_mode", v3.repeat_mode},
              {"repeat", v3.repeat}}}};
}

void LoadDataSettings::read(const SceneReader& r) {
    // "moves", "error" and "fields" were written by older --dump-view files; ignored.
    r.only({"mode", "product", "dtype", "path", "stage", "playing", "load2d", "load2dv2", "load3d",
            "moves", "error", "fields"});
    LoadDataSettings s = *this;
    constexpr int64_t big = int64_t(1) << 24;  // the engine checks the real ranges
    if (r.has("mode")) {
        std::string m;
        r.get("mode", m);
        auto it = std::find(std::begin(kModeKeys), std::end(kModeKeys), m);
        if (it == std::end(kModeKeys))
            r.fail("mode", r.at("mode"), "\"load2d\", \"load2dv2\" or \"load3d\"");
        s.mode = int(it - std::begin(kModeKeys));
    }
    if (r.has("product")) {
        std::string id;
        r.get("product", id);
        try {
            s.product = exec::product_from_id(id);
        } catch (const UsageError& e) {
            r.rethrow(e);
        }
    }
    if (r.has("dtype")) {
        std::string t;
        r.get("dtype", t);
        try {
            s.dtype = name(dtype_from_name(t));
        } catch (const UsageError& e) {
            r.rethrow(UsageError("dtype", e.what()));
        }
    }
    if (r.has("path")) {
        std::string p;
        r.get("path", p);
        auto it = std::find_if(std::begin(kPaths), std::end(kPaths),
                               [&](const char* q) { return p == q; });
        if (it == std::end(kPaths))
            r.fail("path", r.at("path"), "A1->A2, B1->B2, GM->A1, GM->B1, GM->A2 or GM->B2");
        s.path = int(it - std::begin(kPaths));
    }
    const SceneReader a = r.sub("load2d");
    a.only({"src_fractals", "start_index", "repeat", "src_stride", "dst_gap", "transpose",
            "decrement"});
    a.get("src_fractals", s.v1.src_fractals, -big, big);
    a.get("start_index", s.v1.start_index, -big, big);
    a.get("repeat", s.v1.repeat, -big, big);
    a.get("src_stride", s.v1.src_stride, -big, big);
    a.get("dst_gap", s.v1.dst_gap, -big, big);
    a.get("transpose", s.v1.transpose);
    a.get("decrement", s.v1.decrement);
    const SceneReader b = r.sub("load2dv2");
    b.only({"src_fractals", "m_start", "k_start", "m_step", "k_step", "src_stride", "dst_stride",
            "transpose"});
    b.get("src_fractals", s.v2.src_fractals, -big, big);
    b.get("m_start", s.v2.m_start, -big, big);
    b.get("k_start", s.v2.k_start, -big, big);
    b.get("m_step", s.v2.m_step, -big, big);
    b.get("k_step", s.v2.k_step, -big, big);
    b.get("src_stride", s.v2.src_stride, -big, big);
    b.get("dst_stride", s.v2.dst_stride, -big, big);
    b.get("transpose", s.v2.transpose);
    const SceneReader c = r.sub("load3d");
    c.only({"c1", "h", "w", "pad", "c1_index", "fetch_filter", "left_top", "stride", "filter",
            "dilation", "jump_stride", "repeat_mode", "repeat"});
    c.get("c1", s.v3.c1, -big, big);
    c.get("h", s.v3.h, -big, big);
    c.get("w", s.v3.w, -big, big);
    if (c.has("pad")) {
        const auto& p = c.at("pad");
        if (!p.is_array() || p.size() != 4 ||
            !std::all_of(p.begin(), p.end(), [](const auto& e) { return e.is_number_integer(); }))
            c.fail("pad", p, "[left, right, top, bottom] integers (padList order)");
        s.v3.pad_left = p[0];
        s.v3.pad_right = p[1];
        s.v3.pad_top = p[2];
        s.v3.pad_bottom = p[3];
    }
    c.get("c1_index", s.v3.c1_index, -big, big);
    c.get_pair("fetch_filter", s.v3.fetch_filter_w, s.v3.fetch_filter_h, -big, big);
    c.get_pair("left_top", s.v3.left_top_w, s.v3.left_top_h, -big, big);
    c.get_pair("stride", s.v3.stride_w, s.v3.stride_h, -big, big);
    c.get_pair("filter", s.v3.kw, s.v3.kh, -big, big);
    c.get_pair("dilation", s.v3.dil_w, s.v3.dil_h, -big, big);
    c.get("jump_stride", s.v3.jump_stride, -big, big);
    c.get("repeat_mode", s.v3.repeat_mode, -big, big);
    c.get("repeat", s.v3.repeat, -big, big);
    r.get("stage", s.stage, 0.0, 1.0);
    r.get("playing", s.playing);
    *this = s;
}

}  // namespace ll::gui
