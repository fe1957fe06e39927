// The one plotting component of the app: a backend-independent description of
// a plot (PlotSpec), a layout pass that places every piece in a rectangle, and
// one paint routine that draws through a small Canvas interface. Three canvases
// implement it: ImGui's ImDrawList (window, with hover tooltips), SVG (vector,
// real <text>) and PNG (software rasterizer + stb_truetype). Because layout and
// painting are shared, the same plot looks the same everywhere.
//
// Immediate-mode in spirit (cf. ImPlot's BeginPlot / Setup / Plot* / EndPlot):
//   PlotBuilder p("Time vs tile size");
//   p.setup_x("tile W", "elements").setup_y("time", "us", /*log=*/true);
//   p.line("L1", Data::of(xs), Data::of(ys));
//   const PlotSpec& spec = p.spec();     // paint it now, in this frame/call
// Series read the caller's arrays through Data (pointer, count, byte stride),
// without copying: keep the arrays alive until the spec is painted/exported.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ll::plot {

struct Color {
    uint8_t r = 0, g = 0, b = 0, a = 255;
};
// A qualitative palette (Okabe-Ito, colour-blind safe), cycled by series index.
Color palette(int i);
// Viridis colour map, t in [0, 1].
Color viridis(double t);

// A view of doubles in user memory: element i is at base + i * stride bytes.
struct Data {
    const void* base = nullptr;
    int count = 0;
    int stride = sizeof(double);
    double operator[](int i) const {
        return *reinterpret_cast<const double*>(static_cast<const char*>(base) +
                                                static_cast<size_t>(i) * size_t(stride));
    }
    static Data of(const std::vector<double>& v) {
        return {v.data(), static_cast<int>(v.size()), sizeof(double)};
    }
    // A double member of an array of structs: Data::field(rows.data(), n, &Row::time).
    template <class T>
    static Data field(const T* first, int n, const double T::*member) {
        return {n ? &(first->*member) : nullptr, n, static_cast<int>(sizeof(T))};
    }
};

struct Axis {
    std::string label;  // "time"
    std::string unit;   // "us" -> drawn as "time (us)"
    bool log = false;
    bool auto_range = true;
    double min = 0, max = 1;  // used when !auto_range
    // Category axes (bars, heatmap): one label per slot, ticks at slots.
    std::vector<std::string> categories;
    std::string title() const { return unit.empty() ? label : label + " (" + unit + ")"; }
};

enum class SeriesKind : uint8_t { line, scatter, bars };

struct Series {
    std::string name;
    SeriesKind kind = SeriesKind::line;
    Data x, y;  // bars: x unused (category index), y = bar heights
    Color color;
    float size = 3.0f;     // marker radius / line width in px
    bool markers = false;  // line: also draw points
    bool in_legend = true;
};

struct Heatmap {
    int rows = 0, cols = 0;
    Data values;               // row-major rows x cols
    std::string value_label;   // colour bar title, e.g. "total time (us)"
    bool show_values = true;   // numbers in cells when they fit
    std::string value_format;  // printf format; empty = 3 significant digits, no exponent
};

struct Annotation {
    double x = 0, y = 0;  // data coordinates
    std::string text;
    Color color{0, 0, 0, 255};
};

struct PlotSpec {
    std::string title;
    Axis x, y;
    std::vector<Series> series;
    bool has_heatmap = false;
    Heatmap heatmap;  // x.categories = columns, y.categories = rows
    std::vector<Annotation> annotations;
    bool legend = true;
};

class PlotBuilder {
  public:
    explicit PlotBuilder(std::string title) { spec_.title = std::move(title); }
    PlotBuilder& setup_x(std::string label, std::string unit = "", bool log = false);
    PlotBuilder& setup_y(std::string label, std::string unit = "", bool log = false);
    PlotBuilder& x_categories(std::vector<std::string> c);
    PlotBuilder& y_categories(std::vector<std::string> c);
    PlotBuilder& y_range(double lo, double hi);
    Series& line(std::string name, Data x, Data y);
    Series& scatter(std::string name, Data x, Data y);
    Series& bars(std::string name, Data heights);  // one bar per x category
    PlotBuilder& heatmap(int rows, int cols, Data values, std::string value_label);
    PlotBuilder& annotate(double x, double y, std::string text);
    PlotBuilder& legend(bool on) {
        spec_.legend = on;
        return *this;
    }
    const PlotSpec& spec() const { return spec_; }
    PlotSpec& spec() { return spec_; }

  private:
    Series& add(std::string name, SeriesKind k, Data x, Data y);
    PlotSpec spec_;
};

// "Nice" tick values (1, 2, 5 x 10^k steps) covering [lo, hi], about `target` of them.
std::vector<double> nice_ticks(double lo, double hi, int target = 6);
// Powers of ten (and 2x, 5x when few decades) within [lo, hi], lo > 0.
std::vector<double> log_ticks(double lo, double hi);
// Short tick label: "0.5", "20", "1.5k", "2M", "1e-05".
std::string tick_label(double v);

// CSV of the data behind the plot, with a header row:
//   series plots: "series,x,y" (bars: x is the category name);
//   heatmap: "row,column,value".
// Text fields are quoted when they hold a comma, quote or newline.
std::string to_csv(const PlotSpec& spec);
// SVG document (UTF-8, well-formed XML) of width x height px.
std::string to_svg(const PlotSpec& spec, int width, int height);
// RGBA pixels, top row first, painted by the software rasterizer.
std::vector<uint8_t> to_rgba(const PlotSpec& spec, int width, int height);

// Atomic file exports through core/io/atomic_file.hpp (temp name + rename;
// no partial file on failure).
// Throw UsageError when the path cannot be written or the size is not in
// 64..8192 px.
void write_csv(const PlotSpec& spec, const std::string& path);
// Throws UsageError unless `path` names a file in an existing, writable
// folder (checked before any output is written, so a bad second path leaves
// no first file behind).
void check_writable(const std::string& path);
// Any bytes, atomically (used by the CSV of a sweep, which is not a plot).
void write_file(const std::string& path, const std::string& bytes);
void write_svg(const PlotSpec& spec, const std::string& path, int width = 900, int height = 560);
void write_png(const PlotSpec& spec, const std::string& path, int width = 900, int height = 560);

}  // namespace ll::plot
