#include "tests/support/png.hpp"

#include <stb_image.h>

namespace ll::test {

std::array<uint8_t, 4> Image::at(int x, int y) const {
    size_t i = (static_cast<size_t>(y) * width + x) * 4;
    return {rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3]};
}

Image load_png(const std::string& path) {
    Image img;
    int n = 0;
    unsigned char* data = stbi_load(path.c_str(), &img.width, &img.height, &n, 4);
    if (!data) return Image{};
    img.rgba.assign(data, data + static_cast<size_t>(img.width) * img.height * 4);
    stbi_image_free(data);
    return img;
}

}  // namespace ll::test
