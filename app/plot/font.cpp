// DejaVu Sans through stb_truetype (the implementation lives in libstb).
#include <stb_truetype.h>

#include <cmath>
#include <cstdio>

#include "app/plot/canvas.hpp"
#include "core/error.hpp"

namespace ll::plot {

namespace {
const char* kFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
}

std::vector<uint32_t> decode_utf8(const std::string& s) {
    std::vector<uint32_t> out;
    for (size_t i = 0; i < s.size();) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        int n = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : -1;
        if (n < 0 || i + size_t(n) >= s.size() + (n == 0 ? 1 : 0)) {
            out.push_back('?');
            ++i;
            continue;
        }
        uint32_t cp = n == 0 ? c : c & (0x3F >> n);
        for (int k = 1; k <= n; ++k)
            cp = (cp << 6) | (static_cast<unsigned char>(s[i + size_t(k)]) & 0x3F);
        out.push_back(cp);
        i += size_t(n) + 1;
    }
    return out;
}

Font& Font::get() {
    static Font f;
    return f;
}

Font::Font() {
    std::FILE* fp = std::fopen(kFontPath, "rb");
    if (fp) {
        unsigned char buf[65536];
        size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, fp)) > 0)
            data_.insert(data_.end(), buf, buf + n);
        std::fclose(fp);
    }
    if (data_.empty())
        throw UsageError(std::string("cannot read the plot font ") + kFontPath +
                         "; expected the fonts-dejavu-core package to be installed");
    info_.resize(sizeof(stbtt_fontinfo));
    auto* info = reinterpret_cast<stbtt_fontinfo*>(info_.data());
    if (!stbtt_InitFont(info, data_.data(), stbtt_GetFontOffsetForIndex(data_.data(), 0)))
        throw UsageError(std::string("cannot parse the plot font ") + kFontPath +
                         "; expected a TrueType file");
}

float Font::width(const std::string& utf8, float size) const {
    const auto* info = reinterpret_cast<const stbtt_fontinfo*>(info_.data());
    const float scale = stbtt_ScaleForMappingEmToPixels(info, size);
    const std::vector<uint32_t> cps = decode_utf8(utf8);
    float w = 0;
    for (size_t i = 0; i < cps.size(); ++i) {
        int adv = 0, lsb = 0;
        stbtt_GetCodepointHMetrics(info, int(cps[i]), &adv, &lsb);
        w += float(adv) * scale;
        if (i + 1 < cps.size())
            w += float(stbtt_GetCodepointKernAdvance(info, int(cps[i]), int(cps[i + 1]))) * scale;
    }
    return w;
}

float Font::ascent(float size) const {
    const auto* info = reinterpret_cast<const stbtt_fontinfo*>(info_.data());
    int a = 0, d = 0, g = 0;
    stbtt_GetFontVMetrics(info, &a, &d, &g);
    return float(a) * stbtt_ScaleForMappingEmToPixels(info, size);
}

std::vector<uint8_t> Font::render(const std::string& utf8, float size, int& w, int& h,
                                  int& baseline) const {
    const auto* info = reinterpret_cast<const stbtt_fontinfo*>(info_.data());
    const float scale = stbtt_ScaleForMappingEmToPixels(info, size);
    int a = 0, d = 0, g = 0;
    stbtt_GetFontVMetrics(info, &a, &d, &g);
    const int pad = 2;
    baseline = int(std::ceil(float(a) * scale)) + 1;
    h = baseline + int(std::ceil(float(-d) * scale)) + 2;
    w = int(std::ceil(width(utf8, size))) + 2 * pad + 2;
    std::vector<uint8_t> out(size_t(w) * size_t(h), 0);
    const std::vector<uint32_t> cps = decode_utf8(utf8);
    float pen = float(pad);
    std::vector<unsigned char> glyph;
    for (size_t i = 0; i < cps.size(); ++i) {
        const int cp = int(cps[i]);
        const float fx = pen - std::floor(pen);
        int x0, y0, x1, y1;
        stbtt_GetCodepointBitmapBoxSubpixel(info, cp, scale, scale, fx, 0, &x0, &y0, &x1, &y1);
        const int gw = x1 - x0, gh = y1 - y0;
        if (gw > 0 && gh > 0) {
            glyph.assign(size_t(gw) * size_t(gh), 0);
            stbtt_MakeCodepointBitmapSubpixel(info, glyph.data(), gw, gh, gw, scale, scale, fx, 0,
                                              cp);
            const int ox = int(std::floor(pen)) + x0, oy = baseline + y0;
            for (int yy = 0; yy < gh; ++yy)
                for (int xx = 0; xx < gw; ++xx) {
                    const int px = ox + xx, py = oy + yy;
                    if (px < 0 || py < 0 || px >= w || py >= h) continue;
                    uint8_t& dst = out[size_t(py) * size_t(w) + size_t(px)];
                    dst = uint8_t(std::min(255, dst + glyph[size_t(yy) * size_t(gw) + size_t(xx)]));
                }
        }
        int adv = 0, lsb = 0;
        stbtt_GetCodepointHMetrics(info, cp, &adv, &lsb);
        pen += float(adv) * scale;
        if (i + 1 < cps.size())
            pen += float(stbtt_GetCodepointKernAdvance(info, cp, int(cps[i + 1]))) * scale;
    }
    return out;
}

}  // namespace ll::plot
