#include "app/panels/img2col_settings.hpp"

#include "core/error.hpp"

namespace ll::gui {

Img2colSettings Img2colSettings::initial() {
    Img2colSettings s;
    s.spec.h = s.spec.w = 3;
    s.spec.win.kh = s.spec.win.kw = 2;
    return s;
}

nlohmann::json Img2colSettings::to_json() const {
    const exec::Window2d& w = spec.win;
    return {{"n", spec.n},
            {"c", spec.c},
            {"h", spec.h},
            {"w", spec.w},
            {"kh", w.kh},
            {"kw", w.kw},
            {"stride", {w.stride_h, w.stride_w}},
            {"dilation", {w.dil_h, w.dil_w}},
            {"pad", {w.pad_top, w.pad_bottom, w.pad_left, w.pad_right}},
            {"position", position},
            {"stage", stage},
            {"playing", playing}};
}

void Img2colSettings::read(const SceneReader& r) {
    // "counter" was written by older --dump-view files; ignored.
    r.only({"n", "c", "h", "w", "kh", "kw", "stride", "dilation", "pad", "position", "stage",
            "playing", "counter"});
    exec::Img2colSpec s = spec;
    r.get("n", s.n, 1, 4);
    r.get("c", s.c, 1, kMaxC);
    r.get("h", s.h, 1, 64);
    r.get("w", s.w, 1, 64);
    r.get("kh", s.win.kh, 1, 9);
    r.get("kw", s.win.kw, 1, 9);
    r.get_pair("stride", s.win.stride_h, s.win.stride_w, 1, 8);
    r.get_pair("dilation", s.win.dil_h, s.win.dil_w, 1, 4);
    if (r.has("pad")) {
        const auto& p = r.at("pad");
        auto ok = [](const nlohmann::json& e) {
            return e.is_number_integer() && e.get<int64_t>() >= 0 && e.get<int64_t>() <= 4;
        };
        if (ok(p)) {
            s.win.pad_top = s.win.pad_bottom = s.win.pad_left = s.win.pad_right = p.get<int64_t>();
        } else if (p.is_array() && p.size() == 4 && ok(p[0]) && ok(p[1]) && ok(p[2]) && ok(p[3])) {
            s.win.pad_top = p[0];
            s.win.pad_bottom = p[1];
            s.win.pad_left = p[2];
            s.win.pad_right = p[3];
        } else {
            r.fail("pad", p, "an integer or [top, bottom, left, right], each 0..4");
        }
    }
    try {
        s.validate();
    } catch (const UsageError& e) {
        r.rethrow(e);
    }
    int64_t pos = position < s.rows() ? position : 0;
    double st = stage;
    bool pl = playing;
    r.get("position", pos, 0, s.rows() - 1);
    r.get("stage", st, 0.0, 2.0);
    r.get("playing", pl);
    spec = s;
    position = pos;
    stage = st;
    playing = pl;
}

}  // namespace ll::gui
