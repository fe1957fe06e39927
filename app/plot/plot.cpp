// Plot description helpers, tick placement, CSV, and the shared layout + paint
// routine that every canvas (ImGui, SVG, PNG) draws through.
//
// [SECTION] builder and colours
// [SECTION] ticks and labels
// [SECTION] CSV
// [SECTION] layout + paint
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "app/plot/canvas.hpp"
#include "app/plot/plot.hpp"

namespace ll::plot {

// ---- [SECTION] builder and colours ----------------------------------------------

Color palette(int i) {
    static const Color k[] = {{0, 114, 178, 255},   {230, 159, 0, 255},  {0, 158, 115, 255},
                              {204, 121, 167, 255}, {86, 180, 233, 255}, {213, 94, 0, 255},
                              {120, 120, 120, 255}, {240, 228, 66, 255}};
    const int n = int(sizeof k / sizeof k[0]);
    return k[((i % n) + n) % n];
}

Color viridis(double t) {
    // Nine samples of matplotlib's viridis, interpolated linearly.
    static const float k[9][3] = {{68, 1, 84},    {71, 44, 122},  {59, 81, 139},
                                  {44, 113, 142}, {33, 144, 141}, {39, 173, 129},
                                  {92, 200, 99},  {170, 220, 50}, {253, 231, 37}};
    if (!(t >= 0)) t = 0;
    if (t > 1) t = 1;
    const double f = t * 8;
    const int i = std::min(7, int(f));
    const double u = f - i;
    Color c;
    c.r = uint8_t(std::lround(k[i][0] + (k[i + 1][0] - k[i][0]) * u));
    c.g = uint8_t(std::lround(k[i][1] + (k[i + 1][1] - k[i][1]) * u));
    c.b = uint8_t(std::lround(k[i][2] + (k[i + 1][2] - k[i][2]) * u));
    return c;
}

PlotBuilder& PlotBuilder::setup_x(std::string label, std::string unit, bool log) {
    spec_.x.label = std::move(label);
    spec_.x.unit = std::move(unit);
    spec_.x.log = log;
    return *this;
}

PlotBuilder& PlotBuilder::setup_y(std::string label, std::string unit, bool log) {
    spec_.y.label = std::move(label);
    spec_.y.unit = std::move(unit);
    spec_.y.log = log;
    return *this;
}

PlotBuilder& PlotBuilder::x_categories(std::vector<std::string> c) {
    spec_.x.categories = std::move(c);
    return *this;
}

PlotBuilder& PlotBuilder::y_categories(std::vector<std::string> c) {
    spec_.y.categories = std::move(c);
    return *this;
}

PlotBuilder& PlotBuilder::y_range(double lo, double hi) {
    spec_.y.auto_range = false;
    spec_.y.min = lo;
    spec_.y.max = hi;
    return *this;
}

Series& PlotBuilder::add(std::string name, SeriesKind k, Data x, Data y) {
    Series s;
    s.name = std::move(name);
    s.kind = k;
    s.x = x;
    s.y = y;
    s.color = palette(int(spec_.series.size()));
    spec_.series.push_back(s);
    return spec_.series.back();
}

Series& PlotBuilder::line(std::string name, Data x, Data y) {
    Series& s = add(std::move(name), SeriesKind::line, x, y);
    s.size = 2.0f;
    return s;
}

Series& PlotBuilder::scatter(std::string name, Data x, Data y) {
    return add(std::move(name), SeriesKind::scatter, x, y);
}

Series& PlotBuilder::bars(std::string name, Data heights) {
    return add(std::move(name), SeriesKind::bars, Data{}, heights);
}

PlotBuilder& PlotBuilder::heatmap(int rows, int cols, Data values, std::string value_label) {
    spec_.has_heatmap = true;
    spec_.heatmap.rows = rows;
    spec_.heatmap.cols = cols;
    spec_.heatmap.values = values;
    spec_.heatmap.value_label = std::move(value_label);
    spec_.legend = false;
    return *this;
}

PlotBuilder& PlotBuilder::annotate(double x, double y, std::string text) {
    spec_.annotations.push_back({x, y, std::move(text), {0, 0, 0, 255}});
    return *this;
}

// ---- [SECTION] ticks and labels -------------------------------------------------

std::vector<double> nice_ticks(double lo, double hi, int target) {
    std::vector<double> t;
    if (!std::isfinite(lo) || !std::isfinite(hi)) return t;
    if (hi < lo) std::swap(lo, hi);
    if (hi == lo) return {lo};
    const double raw = (hi - lo) / std::max(1, target);
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = 10 * mag;
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * mag >= raw * 0.999) {
            step = m * mag;
            break;
        }
    for (double k = std::ceil(lo / step - 1e-9); k * step <= hi + step * 1e-9; k += 1) {
        double v = k * step;
        if (std::fabs(v) < step * 1e-9) v = 0;
        t.push_back(v);
        if (t.size() > 100) break;
    }
    return t;
}

std::vector<double> log_ticks(double lo, double hi) {
    std::vector<double> t;
    if (!(lo > 0) || !(hi >= lo)) return t;
    const int d0 = int(std::floor(std::log10(lo) + 1e-9)),
              d1 = int(std::ceil(std::log10(hi) - 1e-9));
    const int decades = d1 - d0;
    const bool minor = std::log10(hi / lo) < 2.6;  // few decades: also label 2x and 5x
    const int every = std::max(1, decades / 8);    // at most ~8 labelled decades
    for (int d = d0; d <= d1; ++d) {
        for (double m : {1.0, 2.0, 5.0}) {
            if (m != 1.0 && !minor) continue;
            if (m == 1.0 && (d - d0) % every) continue;
            const double v = m * std::pow(10.0, d);
            if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) t.push_back(v);
        }
    }
    if (t.size() < 2) {
        t.clear();
        for (double v : nice_ticks(lo, hi, 4))
            if (v > 0) t.push_back(v);
    }
    return t;
}

std::string tick_label(double v) {
    char b[32];
    const double a = std::fabs(v);
    if (a == 0) return "0";
    if (a >= 1e4) {
        const char* suf[] = {"k", "M", "G", "T"};
        double s = v / 1e3;
        int i = 0;
        while (std::fabs(s) >= 1e3 && i < 3) {
            s /= 1e3;
            ++i;
        }
        std::snprintf(b, sizeof b, "%.4g%s", s, suf[i]);
    } else if (a < 1e-3) {
        std::snprintf(b, sizeof b, "%.0e", v);
    } else {
        std::snprintf(b, sizeof b, "%.4g", v);
    }
    return b;
}

// ---- [SECTION] CSV -----------------------------------------------------------------

namespace {

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string r = "\"";
    for (char c : s) {
        if (c == '"') r += '"';
        r += c;
    }
    return r + "\"";
}

std::string num(double v) {
    char b[40];
    std::snprintf(b, sizeof b, "%.10g", v);
    return b;
}

}  // namespace

std::string to_csv(const PlotSpec& spec) {
    std::string out;
    if (spec.has_heatmap) {
        const Heatmap& h = spec.heatmap;
        out = "row,column," + csv_field(h.value_label.empty() ? "value" : h.value_label) + "\n";
        for (int r = 0; r < h.rows; ++r)
            for (int c = 0; c < h.cols; ++c) {
                const std::string rl = r < int(spec.y.categories.size())
                                           ? spec.y.categories[size_t(r)]
                                           : std::to_string(r);
                const std::string cl = c < int(spec.x.categories.size())
                                           ? spec.x.categories[size_t(c)]
                                           : std::to_string(c);
                out += csv_field(rl) + "," + csv_field(cl) + "," + num(h.values[r * h.cols + c]) +
                       "\n";
            }
        return out;
    }
    out = "series," + csv_field(spec.x.title().empty() ? "x" : spec.x.title()) + "," +
          csv_field(spec.y.title().empty() ? "y" : spec.y.title()) + "\n";
    for (const Series& s : spec.series) {
        for (int i = 0; i < s.y.count; ++i) {
            std::string x;
            if (s.kind == SeriesKind::bars)
                x = i < int(spec.x.categories.size()) ? spec.x.categories[size_t(i)]
                                                      : std::to_string(i);
            else
                x = num(s.x[i]);
            out += csv_field(s.name) + "," + csv_field(x) + "," + num(s.y[i]) + "\n";
        }
    }
    return out;
}

// ---- [SECTION] layout + paint -------------------------------------------------------

float PlotFrame::to_px_x(double v) const {
    if (xlog) v = v > 0 ? std::log10(v) : -1e300;
    return float(px0 + (v - xlo) / (xhi - xlo) * (px1 - px0));
}

float PlotFrame::to_px_y(double v) const {
    if (ylog) v = v > 0 ? std::log10(v) : -1e300;
    return float(py1 - (v - ylo) / (yhi - ylo) * (py1 - py0));
}

namespace {

const Color kText{34, 34, 34, 255};
const Color kGrid{229, 229, 229, 255};
const Color kAxis{60, 60, 60, 255};
const Color kWhite{255, 255, 255, 255};

struct Range {
    double lo = std::numeric_limits<double>::infinity();
    double hi = -std::numeric_limits<double>::infinity();
    void add(double v, bool log) {
        if (!std::isfinite(v) || (log && !(v > 0))) return;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    bool empty() const { return !(lo <= hi); }
};

// Final [lo, hi] in axis space (log10 for log axes), padded a little.
void finish(const Axis& a, Range r, double& lo, double& hi, bool pad) {
    if (!a.auto_range) {
        lo = a.log ? std::log10(std::max(a.min, 1e-300)) : a.min;
        hi = a.log ? std::log10(std::max(a.max, 1e-300)) : a.max;
        if (hi <= lo) hi = lo + 1;
        return;
    }
    if (r.empty()) r = a.log ? Range{1, 10} : Range{0, 1};
    lo = a.log ? std::log10(r.lo) : r.lo;
    hi = a.log ? std::log10(r.hi) : r.hi;
    if (hi - lo < 1e-12 * std::max(1.0, std::fabs(hi))) {
        const double d = a.log ? 0.5 : std::max(1.0, std::fabs(hi) * 0.1);
        lo -= d;
        hi += d;
    }
    if (pad) {
        const double p = (hi - lo) * 0.05;
        lo -= p;
        hi += p;
    }
}

struct TickSet {
    std::vector<double> at;  // axis space
    std::vector<std::string> label;
};

TickSet ticks_for(const Axis& a, double lo, double hi, bool top_down) {
    TickSet t;
    if (!a.categories.empty()) {
        const double n = double(a.categories.size());
        for (size_t i = 0; i < a.categories.size(); ++i) {
            // Category 0 sits left on x and on top on y (read like a table).
            t.at.push_back(top_down ? n - double(i) - 0.5 : double(i) + 0.5);
            t.label.push_back(a.categories[i]);
        }
        return t;
    }
    const std::vector<double> v =
        a.log ? log_ticks(std::pow(10.0, lo), std::pow(10.0, hi)) : nice_ticks(lo, hi, 6);
    for (double x : v) {
        t.at.push_back(a.log ? std::log10(x) : x);
        t.label.push_back(tick_label(x));
    }
    return t;
}

std::string fmt_value(const char* f, double v) {
    char b[48];
    std::snprintf(b, sizeof b, f, v);
    return b;
}

// Three significant digits, never an exponent for values a person reads in a cell.
std::string cell_label(double v) {
    const double a = std::fabs(v);
    if (a >= 1000 && a < 1e7) return fmt_value("%.0f", v);
    return fmt_value("%.3g", v);
}

}  // namespace

PlotFrame paint(const PlotSpec& spec, Canvas& cv, float ox, float oy, float W, float H) {
    const float title_sz = 17, label_sz = 14, tick_sz = 12, legend_sz = 12.5f;
    cv.fill_rect(ox, oy, ox + W, oy + H, kWhite);

    const bool cat_x = !spec.x.categories.empty(), cat_y = !spec.y.categories.empty();
    const bool has_bars = std::any_of(spec.series.begin(), spec.series.end(),
                                      [](const Series& s) { return s.kind == SeriesKind::bars; });
    // ---- data ranges
    Range rx, ry;
    if (cat_x) rx = {0, double(spec.x.categories.size())};
    if (cat_y) ry = {0, double(spec.y.categories.size())};
    for (const Series& s : spec.series) {
        for (int i = 0; i < s.y.count; ++i) {
            if (!cat_x && s.kind != SeriesKind::bars && i < s.x.count) rx.add(s.x[i], spec.x.log);
            if (!cat_y) ry.add(s.y[i], spec.y.log);
        }
    }
    for (const Annotation& a : spec.annotations) {
        if (!cat_x) rx.add(a.x, spec.x.log);
        if (!cat_y) ry.add(a.y, spec.y.log);
    }
    if (has_bars && !spec.y.log) ry.add(0, false);
    PlotFrame f;
    f.xlog = spec.x.log && !cat_x;
    f.ylog = spec.y.log && !cat_y;
    finish(spec.x, rx, f.xlo, f.xhi, !cat_x);
    finish(spec.y, ry, f.ylo, f.yhi, !cat_y);
    if (has_bars && !spec.y.log && spec.y.auto_range) {
        f.ylo = std::min(0.0, f.ylo + (f.yhi - f.ylo) * 0.0);
        if (ry.lo >= 0) f.ylo = 0;
    }
    const TickSet tx = ticks_for(spec.x, f.xlo, f.xhi, false),
                  ty = ticks_for(spec.y, f.ylo, f.yhi, true);

    // ---- layout: title on top, y labels left, x labels below, legend / colour bar right
    float ytick_w = 0;
    for (const auto& l : ty.label) ytick_w = std::max(ytick_w, cv.text_width(l, tick_sz));
    float legend_w = 0;
    int legend_n = 0;
    if (spec.legend)
        for (const Series& s : spec.series)
            if (s.in_legend) {
                legend_w = std::max(legend_w, cv.text_width(s.name, legend_sz));
                ++legend_n;
            }
    float right = 18;
    if (legend_n) right = legend_w + 50;  // box (legend_w + 36) + margins, border inside
    double vmin = 0, vmax = 1;
    std::vector<double> cticks;
    float cbar_tick_w = 0;
    if (spec.has_heatmap) {
        Range vr;
        const Heatmap& h = spec.heatmap;
        for (int i = 0; i < h.rows * h.cols && i < h.values.count; ++i) vr.add(h.values[i], false);
        if (vr.empty()) vr = {0, 1};
        vmin = vr.lo;
        vmax = vr.hi > vr.lo ? vr.hi : vr.lo + 1;
        cticks = nice_ticks(vmin, vmax, 5);
        for (double v : cticks)
            cbar_tick_w = std::max(cbar_tick_w, cv.text_width(tick_label(v), tick_sz));
        right = 18 + 16 + 6 + cbar_tick_w + 8 + label_sz * 1.6f;
    }
    const float top = oy + 10 + (spec.title.empty() ? 0 : title_sz * 1.7f);
    const float left = ox + 10 + (spec.y.title().empty() ? 0 : label_sz * 1.7f) + ytick_w + 8;
    const float bottom =
        oy + H - (10 + (spec.x.title().empty() ? 0 : label_sz * 1.7f) + tick_sz * 1.6f + 6);
    f.px0 = left;
    f.py0 = top;
    f.px1 = std::max(left + 10, ox + W - right);
    f.py1 = std::max(top + 10, bottom);

    // ---- grid
    for (double v : tx.at) {
        const float x = float(f.px0 + (v - f.xlo) / (f.xhi - f.xlo) * (f.px1 - f.px0));
        if (!cat_x && x > f.px0 + 0.5f && x < f.px1 - 0.5f)
            cv.fill_rect(x - 0.5f, f.py0, x + 0.5f, f.py1, kGrid);
    }
    for (double v : ty.at) {
        const float y = float(f.py1 - (v - f.ylo) / (f.yhi - f.ylo) * (f.py1 - f.py0));
        if (!cat_y && y > f.py0 + 0.5f && y < f.py1 - 0.5f)
            cv.fill_rect(f.px0, y - 0.5f, f.px1, y + 0.5f, kGrid);
    }

    cv.clip(f.px0, f.py0, f.px1, f.py1);
    // ---- heatmap cells (row 0 on top)
    if (spec.has_heatmap) {
        const Heatmap& h = spec.heatmap;
        const float cw = (f.px1 - f.px0) / float(std::max(1, h.cols));
        const float ch = (f.py1 - f.py0) / float(std::max(1, h.rows));
        for (int r = 0; r < h.rows; ++r)
            for (int c = 0; c < h.cols; ++c) {
                if (r * h.cols + c >= h.values.count) continue;
                const double v = h.values[r * h.cols + c];
                const double t = (v - vmin) / (vmax - vmin);
                const float x0 = f.px0 + c * cw, y0 = f.py0 + r * ch;
                cv.fill_rect(x0, y0, x0 + cw, y0 + ch, viridis(t));
                cv.stroke_rect(x0, y0, x0 + cw, y0 + ch, kWhite, 1);
                if (h.show_values) {
                    const std::string s = h.value_format.empty()
                                              ? cell_label(v)
                                              : fmt_value(h.value_format.c_str(), v);
                    if (cv.text_width(s, tick_sz) < cw - 4 && ch > tick_sz + 2)
                        cv.text(x0 + cw / 2, y0 + ch / 2 + tick_sz * 0.35f, s, tick_sz,
                                t < 0.6 ? kWhite : kText, Align::center);
                }
            }
    }
    // ---- bars, grouped per category
    {
        int nb = 0;
        for (const Series& s : spec.series) nb += s.kind == SeriesKind::bars;
        int k = 0;
        const float slot = (f.px1 - f.px0) / float(std::max<size_t>(1, spec.x.categories.size()));
        for (const Series& s : spec.series) {
            if (s.kind != SeriesKind::bars) continue;
            const float group = slot * 0.8f, bw = group / float(nb);
            for (int i = 0; i < s.y.count; ++i) {
                const float x0 = f.px0 + slot * i + slot * 0.1f + bw * k;
                const float yb = f.to_px_y(f.ylog ? std::pow(10.0, f.ylo) : std::max(0.0, f.ylo));
                const float yt = f.to_px_y(s.y[i]);
                cv.fill_rect(x0 + 1, std::min(yt, yb), x0 + bw - 1, std::max(yt, yb), s.color);
            }
            ++k;
        }
    }
    // ---- lines and points
    for (const Series& s : spec.series) {
        if (s.kind == SeriesKind::bars) continue;
        const int n = std::min(s.x.count, s.y.count);
        if (s.kind == SeriesKind::line) {
            std::vector<float> xy;
            auto flush = [&] {
                if (xy.size() >= 4) cv.polyline(xy, s.color, s.size);
                xy.clear();
            };
            for (int i = 0; i < n; ++i) {
                if ((f.xlog && !(s.x[i] > 0)) || (f.ylog && !(s.y[i] > 0)) ||
                    !std::isfinite(s.y[i])) {
                    flush();
                    continue;
                }
                xy.push_back(f.to_px_x(s.x[i]));
                xy.push_back(f.to_px_y(s.y[i]));
            }
            flush();
        }
        if (s.kind == SeriesKind::scatter || s.markers) {
            const float r = s.kind == SeriesKind::scatter ? s.size : s.size + 1.5f;
            for (int i = 0; i < n; ++i) {
                if ((f.xlog && !(s.x[i] > 0)) || (f.ylog && !(s.y[i] > 0))) continue;
                cv.circle(f.to_px_x(s.x[i]), f.to_px_y(s.y[i]), r, s.color);
            }
        }
    }
    cv.unclip();

    // ---- frame, ticks, labels
    cv.stroke_rect(f.px0, f.py0, f.px1, f.py1, kAxis, 1);
    for (size_t i = 0; i < tx.at.size(); ++i) {
        const float x = float(f.px0 + (tx.at[i] - f.xlo) / (f.xhi - f.xlo) * (f.px1 - f.px0));
        if (x < f.px0 - 0.5f || x > f.px1 + 0.5f) continue;
        cv.fill_rect(x - 0.5f, f.py1, x + 0.5f, f.py1 + 5, kAxis);
        cv.text(x, f.py1 + 6 + tick_sz, tx.label[i], tick_sz, kText, Align::center);
    }
    for (size_t i = 0; i < ty.at.size(); ++i) {
        const float y = float(f.py1 - (ty.at[i] - f.ylo) / (f.yhi - f.ylo) * (f.py1 - f.py0));
        if (y < f.py0 - 0.5f || y > f.py1 + 0.5f) continue;
        cv.fill_rect(f.px0 - 5, y - 0.5f, f.px0, y + 0.5f, kAxis);
        cv.text(f.px0 - 8, y + tick_sz * 0.35f, ty.label[i], tick_sz, kText, Align::right);
    }
    if (!spec.x.title().empty())
        cv.text((f.px0 + f.px1) / 2, f.py1 + 6 + tick_sz * 1.6f + label_sz * 1.3f, spec.x.title(),
                label_sz, kText, Align::center);
    if (!spec.y.title().empty())
        cv.text(ox + 10 + label_sz, (f.py0 + f.py1) / 2, spec.y.title(), label_sz, kText,
                Align::center, true);
    if (!spec.title.empty())
        cv.text(ox + W / 2, oy + 8 + title_sz, spec.title, title_sz, kText, Align::center);

    // ---- annotations: a ringed point and its text
    for (const Annotation& a : spec.annotations) {
        if ((f.xlog && !(a.x > 0)) || (f.ylog && !(a.y > 0))) continue;
        const float x = f.to_px_x(a.x), y = f.to_px_y(a.y);
        cv.circle(x, y, 6, a.color);
        cv.circle(x, y, 3.5f, kWhite);
        const float tw = cv.text_width(a.text, legend_sz);
        const bool left_side = x + 10 + tw > f.px1;
        const float ty_ = std::max(f.py0 + legend_sz + 2, y - 9);
        cv.fill_rect(left_side ? x - 12 - tw : x + 8, ty_ - legend_sz,
                     left_side ? x - 8 : x + 12 + tw, ty_ + 4, Color{255, 255, 255, 210});
        cv.text(left_side ? x - 10 : x + 10, ty_, a.text, legend_sz, a.color,
                left_side ? Align::right : Align::left);
    }

    // ---- legend (outside, right)
    if (legend_n) {
        const float lx = f.px1 + 12, row = legend_sz * 1.6f;
        float ly = f.py0 + 4;
        cv.stroke_rect(lx - 4, ly - 2, lx + legend_w + 32, ly + row * legend_n + 2, kGrid, 1);
        for (const Series& s : spec.series) {
            if (!s.in_legend) continue;
            const float cy = ly + row / 2;
            if (s.kind == SeriesKind::bars) {
                cv.fill_rect(lx + 2, cy - 5, lx + 18, cy + 5, s.color);
            } else if (s.kind == SeriesKind::line) {
                cv.polyline({lx, cy, lx + 20, cy}, s.color, s.size);
                if (s.markers) cv.circle(lx + 10, cy, s.size + 1.5f, s.color);
            } else {
                cv.circle(lx + 10, cy, std::max(3.0f, s.size), s.color);
            }
            cv.text(lx + 26, cy + legend_sz * 0.35f, s.name, legend_sz, kText, Align::left);
            ly += row;
        }
    }

    // ---- colour bar
    if (spec.has_heatmap) {
        const float bx0 = f.px1 + 18, bx1 = bx0 + 16;
        const int steps = 64;
        for (int i = 0; i < steps; ++i) {
            const float y0 = f.py1 - (f.py1 - f.py0) * float(i + 1) / steps;
            const float y1 = f.py1 - (f.py1 - f.py0) * float(i) / steps;
            cv.fill_rect(bx0, y0, bx1, y1 + 0.5f, viridis((i + 0.5) / steps));
        }
        cv.stroke_rect(bx0, f.py0, bx1, f.py1, kAxis, 1);
        for (double v : cticks) {
            const float y = float(f.py1 - (v - vmin) / (vmax - vmin) * (f.py1 - f.py0));
            if (y < f.py0 - 0.5f || y > f.py1 + 0.5f) continue;
            cv.fill_rect(bx1, y - 0.5f, bx1 + 4, y + 0.5f, kAxis);
            cv.text(bx1 + 6, y + tick_sz * 0.35f, tick_label(v), tick_sz, kText, Align::left);
        }
        if (!spec.heatmap.value_label.empty())
            cv.text(bx1 + 6 + cbar_tick_w + 8 + label_sz * 0.8f, (f.py0 + f.py1) / 2,
                    spec.heatmap.value_label, label_sz, kText, Align::center, true);
    }
    return f;
}

}  // namespace ll::plot
