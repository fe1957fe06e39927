// The headless painters (SVG, PNG) and the atomic file exports.
//
// [SECTION] SVG canvas
// [SECTION] raster canvas (PNG)
// [SECTION] file exports
#include <stb_image_write.h>

#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/plot/canvas.hpp"
#include "app/plot/plot.hpp"
#include "core/error.hpp"
#include "core/io/atomic_file.hpp"

namespace ll::plot {

namespace {

// ---- [SECTION] SVG canvas -----------------------------------------------------------

std::string xml_escape(const std::string& s) {
    std::string r;
    for (char c : s) {
        switch (c) {
            case '&':
                r += "&amp;";
                break;
            case '<':
                r += "&lt;";
                break;
            case '>':
                r += "&gt;";
                break;
            case '"':
                r += "&quot;";
                break;
            case '\'':
                r += "&apos;";
                break;
            default:
                // Control characters are not allowed in XML 1.0.
                if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n')
                    r += ' ';
                else
                    r += c;
        }
    }
    return r;
}

std::string f2(float v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.2f", double(v));
    return b;
}

std::string rgb(Color c) {
    char b[48];
    std::snprintf(b, sizeof b, "rgb(%d,%d,%d)", c.r, c.g, c.b);
    return b;
}

std::string opacity(const char* attr, Color c) {
    if (c.a == 255) return "";
    char b[48];
    std::snprintf(b, sizeof b, " %s=\"%.3f\"", attr, c.a / 255.0);
    return b;
}

class SvgCanvas : public Canvas {
  public:
    std::string body;
    void fill_rect(float x0, float y0, float x1, float y1, Color c) override {
        body += "<rect x=\"" + f2(x0) + "\" y=\"" + f2(y0) + "\" width=\"" + f2(x1 - x0) +
                "\" height=\"" + f2(y1 - y0) + "\" fill=\"" + rgb(c) + "\"" +
                opacity("fill-opacity", c) + "/>\n";
    }
    void stroke_rect(float x0, float y0, float x1, float y1, Color c, float w) override {
        body += "<rect x=\"" + f2(x0) + "\" y=\"" + f2(y0) + "\" width=\"" + f2(x1 - x0) +
                "\" height=\"" + f2(y1 - y0) + "\" fill=\"none\" stroke=\"" + rgb(c) +
                "\" stroke-width=\"" + f2(w) + "\"" + opacity("stroke-opacity", c) + "/>\n";
    }
    void polyline(const std::vector<float>& xy, Color c, float w) override {
        body += "<polyline fill=\"none\" stroke=\"" + rgb(c) + "\" stroke-width=\"" + f2(w) +
                "\" stroke-linejoin=\"round\" stroke-linecap=\"round\" points=\"";
        for (size_t i = 0; i + 1 < xy.size(); i += 2) body += f2(xy[i]) + "," + f2(xy[i + 1]) + " ";
        body += "\"/>\n";
    }
    void circle(float cx, float cy, float r, Color c) override {
        body += "<circle cx=\"" + f2(cx) + "\" cy=\"" + f2(cy) + "\" r=\"" + f2(r) + "\" fill=\"" +
                rgb(c) + "\"" + opacity("fill-opacity", c) + "/>\n";
    }
    void text(float x, float y, const std::string& s, float size, Color c, Align a,
              bool vertical) override {
        const char* anchor = a == Align::left ? "start" : a == Align::center ? "middle" : "end";
        body += "<text x=\"" + f2(x) + "\" y=\"" + f2(y) + "\" font-size=\"" + f2(size) +
                "\" fill=\"" + rgb(c) + "\" text-anchor=\"" + anchor + "\"";
        if (vertical) body += " transform=\"rotate(-90 " + f2(x) + " " + f2(y) + ")\"";
        body += ">" + xml_escape(s) + "</text>\n";
    }
    float text_width(const std::string& s, float size) override {
        return Font::get().width(s, size);
    }
    void clip(float x0, float y0, float x1, float y1) override {
        const std::string id = "clip" + std::to_string(++clips_);
        body += "<clipPath id=\"" + id + "\"><rect x=\"" + f2(x0) + "\" y=\"" + f2(y0) +
                "\" width=\"" + f2(x1 - x0) + "\" height=\"" + f2(y1 - y0) +
                "\"/></clipPath>\n<g clip-path=\"url(#" + id + ")\">\n";
    }
    void unclip() override { body += "</g>\n"; }

  private:
    int clips_ = 0;
};

// ---- [SECTION] raster canvas (PNG) ------------------------------------------------

// Straight-alpha RGBA, white background; shapes are anti-aliased by exact
// area (rectangles) or distance to the edge (lines, circles).
class RasterCanvas : public Canvas {
  public:
    RasterCanvas(int w, int h) : w_(w), h_(h), px_(size_t(w) * size_t(h) * 4, 255) { unclip(); }
    std::vector<uint8_t> take() { return std::move(px_); }

    void fill_rect(float x0, float y0, float x1, float y1, Color c) override {
        x0 = std::max(x0, cx0_), y0 = std::max(y0, cy0_), x1 = std::min(x1, cx1_),
        y1 = std::min(y1, cy1_);
        if (x1 <= x0 || y1 <= y0) return;
        for (int y = int(std::floor(y0)); y < int(std::ceil(y1)); ++y) {
            const float cy = std::min(y1, float(y + 1)) - std::max(y0, float(y));
            for (int x = int(std::floor(x0)); x < int(std::ceil(x1)); ++x) {
                const float cx = std::min(x1, float(x + 1)) - std::max(x0, float(x));
                blend(x, y, c, cx * cy);
            }
        }
    }
    void stroke_rect(float x0, float y0, float x1, float y1, Color c, float w) override {
        const float h = w / 2;
        fill_rect(x0 - h, y0 - h, x1 + h, y0 + h, c);
        fill_rect(x0 - h, y1 - h, x1 + h, y1 + h, c);
        fill_rect(x0 - h, y0 + h, x0 + h, y1 - h, c);
        fill_rect(x1 - h, y0 + h, x1 + h, y1 - h, c);
    }
    void polyline(const std::vector<float>& xy, Color c, float w) override {
        for (size_t i = 0; i + 3 < xy.size(); i += 2)
            segment(xy[i], xy[i + 1], xy[i + 2], xy[i + 3], c, w);
    }
    void circle(float cx, float cy, float r, Color c) override {
        for (int y = int(std::floor(cy - r - 1)); y <= int(std::ceil(cy + r + 1)); ++y)
            for (int x = int(std::floor(cx - r - 1)); x <= int(std::ceil(cx + r + 1)); ++x) {
                const float d = std::hypot(x + 0.5f - cx, y + 0.5f - cy);
                blend_clipped(x, y, c, std::clamp(r + 0.5f - d, 0.0f, 1.0f));
            }
    }
    void text(float x, float y, const std::string& s, float size, Color c, Align a,
              bool vertical) override {
        int tw, th, base;
        const std::vector<uint8_t> m = Font::get().render(s, size, tw, th, base);
        const float width = Font::get().width(s, size);
        const float shift = a == Align::left ? 0 : a == Align::center ? width / 2 : width;
        const int pad = 2;  // Font::render's left padding
        if (!vertical) {
            const int dx = int(std::lround(x - shift)) - pad, dy = int(std::lround(y)) - base;
            for (int j = 0; j < th; ++j)
                for (int i = 0; i < tw; ++i)
                    if (uint8_t v = m[size_t(j) * size_t(tw) + size_t(i)])
                        blend_clipped(dx + i, dy + j, c, v / 255.0f);
        } else {
            // Rotated 90 degrees counter-clockwise: (i, j) -> (j, tw - 1 - i).
            const int dx = int(std::lround(x)) - base, dy = int(std::lround(y + shift)) + pad - tw;
            for (int j = 0; j < th; ++j)
                for (int i = 0; i < tw; ++i)
                    if (uint8_t v = m[size_t(j) * size_t(tw) + size_t(i)])
                        blend_clipped(dx + j, dy + (tw - 1 - i), c, v / 255.0f);
        }
    }
    float text_width(const std::string& s, float size) override {
        return Font::get().width(s, size);
    }
    void clip(float x0, float y0, float x1, float y1) override {
        cx0_ = std::max(0.0f, x0), cy0_ = std::max(0.0f, y0);
        cx1_ = std::min(float(w_), x1), cy1_ = std::min(float(h_), y1);
    }
    void unclip() override { cx0_ = 0, cy0_ = 0, cx1_ = float(w_), cy1_ = float(h_); }

  private:
    void segment(float ax, float ay, float bx, float by, Color c, float w) {
        const float hw = w / 2;
        const int x0 = int(std::floor(std::min(ax, bx) - hw - 1)),
                  x1 = int(std::ceil(std::max(ax, bx) + hw + 1));
        const int y0 = int(std::floor(std::min(ay, by) - hw - 1)),
                  y1 = int(std::ceil(std::max(ay, by) + hw + 1));
        const float dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
        for (int y = y0; y <= y1; ++y)
            for (int x = x0; x <= x1; ++x) {
                const float px = x + 0.5f, py = y + 0.5f;
                float t = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0;
                t = std::clamp(t, 0.0f, 1.0f);
                const float d = std::hypot(px - (ax + t * dx), py - (ay + t * dy));
                const float cov = std::clamp(hw + 0.5f - d, 0.0f, 1.0f);
                if (cov > 0) blend_max(x, y, c, cov);
            }
    }
    bool inside(int x, int y) const {
        return x >= cx0_ && y >= cy0_ && x < cx1_ && y < cy1_ && x >= 0 && y >= 0 && x < w_ &&
               y < h_;
    }
    void blend_clipped(int x, int y, Color c, float cov) {
        if (inside(x, y)) blend(x, y, c, cov);
    }
    // Joints of a polyline are covered twice: keep the stronger coverage so
    // they do not darken (approximation: per-pixel max against the colour).
    void blend_max(int x, int y, Color c, float cov) {
        if (!inside(x, y)) return;
        uint8_t* p = &px_[(size_t(y) * size_t(w_) + size_t(x)) * 4];
        const float a = cov * c.a / 255.0f;
        const uint8_t src[3] = {c.r, c.g, c.b};
        for (int k = 0; k < 3; ++k) {
            const float want = p[k] * (1 - a) + src[k] * a;
            // Move toward the colour, never past what full coverage would give.
            if (std::fabs(want - src[k]) < std::fabs(p[k] - src[k]))
                p[k] = uint8_t(std::lround(want));
        }
    }
    void blend(int x, int y, Color c, float cov) {
        if (x < 0 || y < 0 || x >= w_ || y >= h_ || cov <= 0) return;
        uint8_t* p = &px_[(size_t(y) * size_t(w_) + size_t(x)) * 4];
        const float a = std::min(1.0f, cov) * c.a / 255.0f;
        p[0] = uint8_t(std::lround(p[0] * (1 - a) + c.r * a));
        p[1] = uint8_t(std::lround(p[1] * (1 - a) + c.g * a));
        p[2] = uint8_t(std::lround(p[2] * (1 - a) + c.b * a));
        p[3] = 255;
    }
    int w_, h_;
    std::vector<uint8_t> px_;
    float cx0_ = 0, cy0_ = 0, cx1_ = 0, cy1_ = 0;
};

void check_size(int w, int h) {
    if (w < 64 || h < 64 || w > 8192 || h > 8192)
        throw UsageError("plot size " + std::to_string(w) + "x" + std::to_string(h) +
                         "; expected 64..8192 pixels each way");
}

void append_bytes(void* ctx, void* data, int size) {
    static_cast<std::string*>(ctx)->append(static_cast<const char*>(data), size_t(size));
}

}  // namespace

std::string to_svg(const PlotSpec& spec, int width, int height) {
    check_size(width, height);
    SvgCanvas cv;
    paint(spec, cv, 0, 0, float(width), float(height));
    const std::string w = std::to_string(width), h = std::to_string(height);
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
           "width=\"" +
           w + "\" height=\"" + h + "\" viewBox=\"0 0 " + w + " " + h +
           "\" font-family=\"DejaVu Sans, Verdana, sans-serif\">\n<title>" +
           xml_escape(spec.title) + "</title>\n" + cv.body + "</svg>\n";
}

std::vector<uint8_t> to_rgba(const PlotSpec& spec, int width, int height) {
    check_size(width, height);
    RasterCanvas cv(width, height);
    paint(spec, cv, 0, 0, float(width), float(height));
    return cv.take();
}

// ---- [SECTION] file exports --------------------------------------------------------

void check_writable(const std::string& path) {
    if (path.empty()) throw UsageError("empty output path; expected a file name");
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
        throw UsageError("'" + path + "' is a folder; expected a file path");
    const size_t slash = path.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "."
                            : slash == 0               ? "/"
                                                       : path.substr(0, slash);
    if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
        throw UsageError("cannot write '" + path + "': folder '" + dir +
                         "' does not exist; expected an existing folder");
    if (::access(dir.c_str(), W_OK) != 0)
        throw UsageError("cannot write '" + path + "': folder '" + dir +
                         "' is not writable; expected a writable folder");
}

void write_file(const std::string& path, const std::string& bytes) {
    ll::write_file_atomic(path, bytes);
}

void write_csv(const PlotSpec& spec, const std::string& path) {
    ll::write_file_atomic(path, to_csv(spec));
}

void write_svg(const PlotSpec& spec, const std::string& path, int width, int height) {
    ll::write_file_atomic(path, to_svg(spec, width, height));
}

void write_png(const PlotSpec& spec, const std::string& path, int width, int height) {
    const std::vector<uint8_t> px = to_rgba(spec, width, height);
    std::string png;
    if (!stbi_write_png_to_func(append_bytes, &png, width, height, 4, px.data(), width * 4) ||
        png.empty())
        throw UsageError("cannot encode the PNG for '" + path + "'; expected a smaller image");
    ll::write_file_atomic(path, png);
}

}  // namespace ll::plot
