// Inside the plotting component: the drawing surface every painter implements,
// the shared font metrics, and the one paint routine (plot_paint.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/plot/plot.hpp"

namespace ll::plot {

enum class Align : uint8_t { left, center, right };

// Pixel coordinates, y down. Text is placed by its baseline; `vertical` text
// reads bottom-to-top (rotated 90 degrees counter-clockwise) around (x, y).
class Canvas {
  public:
    virtual ~Canvas() = default;
    virtual void fill_rect(float x0, float y0, float x1, float y1, Color c) = 0;
    virtual void stroke_rect(float x0, float y0, float x1, float y1, Color c, float width) = 0;
    virtual void polyline(const std::vector<float>& xy, Color c, float width) = 0;
    virtual void circle(float cx, float cy, float r, Color fill) = 0;
    virtual void text(float x, float y, const std::string& s, float size, Color c, Align a,
                      bool vertical = false) = 0;
    virtual float text_width(const std::string& s, float size) = 0;
    virtual void clip(float x0, float y0, float x1, float y1) = 0;
    virtual void unclip() = 0;
};

// DejaVu Sans via stb_truetype: metrics for layout (SVG and PNG share them,
// so both place text identically) and glyph coverage for the rasterizer.
class Font {
  public:
    static Font& get();  // throws UsageError when the font file is missing
    float width(const std::string& utf8, float size) const;
    float ascent(float size) const;
    // Alpha coverage of `utf8` at `size` px, w x h, baseline at row `baseline`.
    std::vector<uint8_t> render(const std::string& utf8, float size, int& w, int& h,
                                int& baseline) const;

  private:
    Font();
    std::vector<unsigned char> data_;
    std::vector<unsigned char> info_;  // stbtt_fontinfo, opaque here
};

std::vector<uint32_t> decode_utf8(const std::string& s);

// Everything the paint routine decided, for tooltips in the window.
struct PlotFrame {
    float px0 = 0, py0 = 0, px1 = 0, py1 = 0;   // plot area
    double xlo = 0, xhi = 1, ylo = 0, yhi = 1;  // data range (log axes: log10 values)
    bool xlog = false, ylog = false;
    float to_px_x(double v) const;
    float to_px_y(double v) const;
};

// Lays out and paints `spec` into the rectangle (0,0)-(w,h) offset by (ox, oy).
PlotFrame paint(const PlotSpec& spec, Canvas& canvas, float ox, float oy, float w, float h);

}  // namespace ll::plot
