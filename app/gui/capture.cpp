#include "app/gui/capture.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "core/error.hpp"

namespace ll::gui {

std::vector<unsigned char> read_pixels(Platform& pf, int& w, int& h) {
    pf.framebuffer_size(w, h);
    std::vector<unsigned char> px(size_t(w) * size_t(h) * 4), flipped(px.size());
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
    size_t row = size_t(w) * 4;
    for (int y = 0; y < h; ++y)
        std::copy_n(&px[size_t(h - 1 - y) * row], row, &flipped[size_t(y) * row]);
    for (size_t i = 3; i < flipped.size(); i += 4) flipped[i] = 255;
    return flipped;
}

void check_writable(const std::string& path, const char* what) {
    std::string probe = path + ".probe";
    std::ofstream f(probe);
    if (!f)
        throw UsageError(std::string(what) + ": cannot write '" + path +
                         "'; expected a writable path");
    f.close();
    std::remove(probe.c_str());
}

double percentile(std::vector<double> v, double q) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    size_t i = std::min(v.size() - 1, size_t(q * double(v.size() - 1) + 0.5));
    return v[i];
}

}  // namespace ll::gui
