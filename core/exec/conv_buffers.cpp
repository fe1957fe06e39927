#include "core/exec/conv_buffers.hpp"

#include <cstdio>
#include <sstream>

namespace ll::exec {

std::vector<BufferUse> conv_occupancy(const ConvParams& p, const ConvShapes& s,
                                      const BufferSizes& b) {
    const int64_t eb = bits(p.dtype) / 8, acc = 4;
    auto use = [&](const char* name, const char* level, const char* holds, const char* stage,
                   int64_t cap, int64_t bytes_per) {
        BufferUse u;
        u.name = name;
        u.level = level;
        u.holds = holds;
        u.stage = stage;
        u.capacity = cap;
        u.need = numel(s.at(stage)) * bytes_per;
        return u;
    };
    return {use("A1", "L1", "input NC1HWC0", "input_5hd", b.l1, eb),
            use("B1", "L1", "weights FRACTAL_Z", "b_fractal", b.l1, eb),
            use("A2", "L0A", "A fractals", "a_fractal", b.l0a, eb),
            use("B2", "L0B", "B fractals", "b_fractal", b.l0b, eb),
            use("CO1", "L0C", "C fractals (32-bit)", "c_fractal", b.l0c, acc)};
}

nlohmann::json occupancy_json(const std::vector<BufferUse>& u) {
    nlohmann::json j = nlohmann::json::array();
    for (const BufferUse& b : u)
        j.push_back({{"buffer", b.name},
                     {"level", b.level},
                     {"holds", b.holds},
                     {"stage", b.stage},
                     {"capacity_bytes", b.capacity},
                     {"need_bytes", b.need},
                     {"occupancy", b.occupancy()},
                     {"must_tile", b.must_tile()}});
    return j;
}

std::string human_bytes(double b) {
    const char* u[] = {"B", "KB", "MB", "GB"};
    int i = 0;
    while (b >= 1024 && i < 3) {
        b /= 1024;
        ++i;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f %s", b, u[i]);
    return buf;
}

std::string occupancy_text(const std::vector<BufferUse>& u) {
    std::ostringstream o;
    o << "buffer occupancy if the whole problem were held at once:\n";
    char line[160];
    std::snprintf(line, sizeof line, "  %-4s %-4s %-20s %12s %12s %9s\n", "buf", "mem", "holds",
                  "capacity B", "needs B", "share");
    o << line;
    for (const BufferUse& b : u) {
        std::snprintf(line, sizeof line, "  %-4s %-4s %-20s %12lld %12lld %8.1f%%%s\n",
                      b.name.c_str(), b.level.c_str(), b.holds.c_str(), (long long)b.capacity,
                      (long long)b.need, b.occupancy() * 100,
                      b.must_tile() ? "  must be tiled" : "");
        o << line;
    }
    return o.str();
}

}  // namespace ll::exec
