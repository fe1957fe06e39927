// Table columns that start as wide as their text. ImGui measures a column's
// content while drawing it, so the first frame of a fitted table clipped
// every cell wider than its header ("(0,0,0,0)" drew as "(0" in the AGU
// stream table; a wrapped column one letter wide drew "NVIDIA" a letter a
// line); the widths here come from the text before the table is drawn.
#pragma once

#include <imgui.h>

#include <algorithm>
#include <array>
#include <initializer_list>
#include <string>
#include <vector>

namespace ll::gui {

// Widest of each column's header and cells, in the current font.
template <size_t N>
std::array<float, N> column_text_widths(std::initializer_list<const char*> headers,
                                        const std::vector<std::array<std::string, N>>& cells) {
    std::array<float, N> w{};
    size_t i = 0;
    for (const char* h : headers) {
        if (i < N) w[i] = ImGui::CalcTextSize(h, nullptr, true).x;
        ++i;
    }
    for (const auto& row : cells)
        for (size_t c = 0; c < N; ++c) w[c] = std::max(w[c], ImGui::CalcTextSize(row[c].c_str()).x);
    return w;
}

// TableSetupColumn for each header, fixed at its widest text.
template <size_t N>
void setup_fitted_columns(std::initializer_list<const char*> headers,
                          const std::vector<std::array<std::string, N>>& cells) {
    const std::array<float, N> w = column_text_widths(headers, cells);
    size_t i = 0;
    for (const char* h : headers)
        ImGui::TableSetupColumn(h, ImGuiTableColumnFlags_WidthFixed, w[std::min(i++, N - 1)]);
}

}  // namespace ll::gui
