#include "core/motion.hpp"

#include <algorithm>
#include <unordered_map>

#include "core/error.hpp"

namespace ll {

const char* name(WaveBy w) {
    switch (w) {
        case WaveBy::none:
            return "none";
        case WaveBy::row:
            return "row";
        case WaveBy::block:
            return "block";
    }
    return "none";
}

const std::vector<WaveBy>& all_wave_modes() {
    static const std::vector<WaveBy> v = {WaveBy::none, WaveBy::row, WaveBy::block};
    return v;
}

WaveBy wave_by_from_name(const std::string& s) {
    for (WaveBy w : all_wave_modes())
        if (s == name(w)) return w;
    throw UsageError("waves", "unknown grouping '" + s + "'; expected none, row or block");
}

namespace {

// Size of one group at stage st, in offsets.
int64_t group_size(const Plan& p, const Stage& st, WaveBy by) {
    if (st.grid.linear)
        return by == WaveBy::row ? std::max<int64_t>(1, st.grid.row_elems) : fractal_elems(p.dtype);
    const Shape& s = st.shape;
    int64_t c = s.empty() ? 1 : s.back();
    int64_t r = s.size() >= 2 ? s[s.size() - 2] : 1;
    return std::max<int64_t>(1, by == WaveBy::row ? c : r * c);
}

}  // namespace

Waves stage_waves(const Plan& p, size_t k, WaveBy by, int max_waves) {
    Waves w;
    if (by == WaveBy::none || k + 1 >= p.stages.size() || p.cell_count == 0) return w;
    max_waves = std::max(1, max_waves);
    std::vector<int64_t> a = p.offsets(k), b = p.offsets(k + 1);
    int64_t ga = group_size(p, p.stages[k], by), gb = group_size(p, p.stages[k + 1], by);
    // Group key per cell: destination group, or the source group (as a
    // separate key range) for a cell not yet there.
    std::vector<int64_t> key(size_t(p.cell_count));
    int64_t nb = numel(p.stages[k + 1].shape) / gb + 1;
    for (size_t i = 0; i < key.size(); ++i)
        key[i] = b[i] >= 0 ? b[i] / gb : a[i] >= 0 ? nb + a[i] / ga : -1;
    // Number the groups in order along the destination (keys sorted).
    std::vector<int64_t> keys = key;
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    if (!keys.empty() && keys.front() < 0) keys.erase(keys.begin());
    int64_t groups = int64_t(keys.size());
    if (groups <= 1) return w;
    w.count = int(std::min<int64_t>(groups, max_waves));
    w.wave.resize(key.size());
    for (size_t i = 0; i < key.size(); ++i) {
        if (key[i] < 0) {
            w.wave[i] = 0;
            continue;
        }
        int64_t g = std::lower_bound(keys.begin(), keys.end(), key[i]) - keys.begin();
        w.wave[i] = int32_t(g * w.count / groups);
    }
    return w;
}

float wave_t(float t, int w, int count) {
    t = std::clamp(t, 0.f, 1.f);
    if (count <= 1) return t;
    float n1 = float(count + 1);
    return std::clamp((t - float(w) / n1) * n1 / 2.f, 0.f, 1.f);
}

}  // namespace ll
