// Reads PNG screenshots in tests (stb_image).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ll::test {

struct Image {
    int width = 0, height = 0;
    std::vector<uint8_t> rgba;  // row-major, top row first
    std::array<uint8_t, 4> at(int x, int y) const;
    bool empty() const { return rgba.empty(); }
};

// Empty image when the file is missing or not a PNG.
Image load_png(const std::string& path);

}  // namespace ll::test
