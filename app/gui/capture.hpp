// Headless capture: the frame's pixels, checks that an output path is
// writable before any work, and the frame-time statistics of --bench-frames.
#pragma once

#include <string>
#include <vector>

#include "app/gui/platform.hpp"

namespace ll::gui {

// The back buffer as RGBA rows, top row first, alpha forced to 255.
std::vector<unsigned char> read_pixels(Platform& pf, int& w, int& h);
// Throws UsageError naming `what` when `path` cannot be created.
void check_writable(const std::string& path, const char* what);
// The q-quantile (0..1) of v, nearest rank; 0 for no samples.
double percentile(std::vector<double> v, double q);

}  // namespace ll::gui
