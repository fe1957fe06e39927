#include "core/netplan/noc.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/checked.hpp"
#include "core/error.hpp"

namespace ll::netplan {

int64_t block_start(int64_t part, int64_t n, int64_t parts) {
    return part * n / parts;
}

int64_t block_owner(int64_t i, int64_t n, int64_t parts) {
    // Largest p with start(p) <= i; start is monotone, so a first guess plus
    // a correction step is exact.
    int64_t p = std::min(parts - 1, (i * parts) / n);
    while (p + 1 < parts && block_start(p + 1, n, parts) <= i) ++p;
    while (p > 0 && block_start(p, n, parts) > i) --p;
    return p;
}

std::pair<int64_t, int64_t> mesh_xy(int64_t pe, int64_t mesh_cols) {
    return {pe % mesh_cols, pe / mesh_cols};
}

NocPlan plan_distributed_transpose(const NocConfig& c) {
    if (c.rows <= 0 || c.cols <= 0)
        throw UsageError("shape", "the matrix needs positive rows and columns; expected e.g. 8,8");
    if (c.pes <= 0 || c.pes > 4096) throw UsageError("pes", "must be 1..4096; expected e.g. 4");
    if (c.elem_bytes <= 0) throw UsageError("elem_bytes", "must be > 0; expected e.g. 4");
    if (!(c.link_gbps > 0)) throw UsageError("link_bandwidth", "must be > 0; expected e.g. 32");
    if (c.mesh_cols < 0)
        throw UsageError("mesh_cols", std::to_string(c.mesh_cols) +
                                          " is negative; expected a divisor of the PE count, or "
                                          "0 for the most square mesh");
    numel({c.rows, c.cols});
    // Every byte count below is at most the matrix's bytes times the longest
    // route, so checking that product once rules out any overflow later.
    int64_t total = 0;
    try {
        total =
            checked_product({c.rows, c.cols, c.elem_bytes}, "matrix bytes (shape x elem_bytes)");
    } catch (const UsageError& e) {
        throw UsageError("elem_bytes", e.what());  // the factor a user sets to a huge value
    }
    checked_mul(total, 2 * c.pes, "matrix bytes x route length");
    // Work: one block and one route per PE pair, a route up to
    // mesh_rows + mesh_cols PEs long (a square-ish mesh: about 2 sqrt(P)).
    {
        int64_t mc = c.mesh_cols > 0 ? c.mesh_cols : 1;
        if (c.mesh_cols <= 0)
            for (int64_t k = 1; k * k <= c.pes; ++k)
                if (c.pes % k == 0) mc = c.pes / k;
        const double steps = double(c.pes) * double(c.pes) * double(mc + c.pes / mc);
        check_work(steps, c.max_steps, "noc", "route steps (PEs^2 x route length)", "max_steps");
    }
    NocPlan p;
    p.config = c;
    if (c.mesh_cols > 0) {
        if (c.pes % c.mesh_cols != 0)
            throw UsageError("mesh_cols", std::to_string(c.mesh_cols) + " does not divide " +
                                              std::to_string(c.pes) + " PEs; expected a divisor");
        p.mesh_cols = c.mesh_cols;
    } else {
        p.mesh_cols = 1;
        for (int64_t k = 1; k * k <= c.pes; ++k)
            if (c.pes % k == 0) p.mesh_cols = c.pes / k;  // cols >= rows
    }
    p.mesh_rows = c.pes / p.mesh_cols;
    p.sent.assign(size_t(c.pes), 0);
    p.received.assign(size_t(c.pes), 0);
    for (int64_t src = 0; src < c.pes; ++src)
        for (int64_t dst = 0; dst < c.pes; ++dst) {
            NocBlock b;
            b.src_pe = src;
            b.dst_pe = dst;
            b.row0 = block_start(src, c.rows, c.pes);
            b.row1 = block_start(src + 1, c.rows, c.pes);
            b.col0 = block_start(dst, c.cols, c.pes);
            b.col1 = block_start(dst + 1, c.cols, c.pes);
            b.bytes = (b.row1 - b.row0) * (b.col1 - b.col0) * c.elem_bytes;
            if (b.bytes == 0) continue;
            auto [x, y] = mesh_xy(src, p.mesh_cols);
            auto [tx, ty] = mesh_xy(dst, p.mesh_cols);
            b.route.push_back(src);
            while (x != tx) {  // X first ...
                x += tx > x ? 1 : -1;
                b.route.push_back(y * p.mesh_cols + x);
            }
            while (y != ty) {  // ... then Y
                y += ty > y ? 1 : -1;
                b.route.push_back(y * p.mesh_cols + x);
            }
            if (src == dst) {
                p.local_bytes += b.bytes;
            } else {
                p.network_bytes += b.bytes;
                p.sent[size_t(src)] += b.bytes;
                p.received[size_t(dst)] += b.bytes;
                for (size_t k = 0; k + 1 < b.route.size(); ++k)
                    p.link_bytes[{b.route[k], b.route[k + 1]}] += b.bytes;
            }
            p.max_hops = std::max(p.max_hops, b.hops());
            p.blocks.push_back(std::move(b));
        }
    for (const auto& [link, bytes] : p.link_bytes) {
        p.link_bytes_total += bytes;
        p.max_link_bytes = std::max(p.max_link_bytes, bytes);
    }
    p.time_us = double(p.max_link_bytes) / (c.link_gbps * 1e3);
    return p;
}

nlohmann::json noc_to_json(const NocPlan& p) {
    nlohmann::json j;
    j["shape"] = {p.config.rows, p.config.cols};
    j["pes"] = p.config.pes;
    j["mesh"] = {p.mesh_rows, p.mesh_cols};
    j["elem_bytes"] = p.config.elem_bytes;
    j["link_gbps"] = p.config.link_gbps;
    j["blocks"] = nlohmann::json::array();
    for (const auto& b : p.blocks)
        j["blocks"].push_back({{"src_pe", b.src_pe},
                               {"dst_pe", b.dst_pe},
                               {"rows", {b.row0, b.row1}},
                               {"cols", {b.col0, b.col1}},
                               {"bytes", b.bytes},
                               {"hops", b.hops()},
                               {"route", b.route}});
    j["links"] = nlohmann::json::array();
    for (const auto& [link, bytes] : p.link_bytes)
        j["links"].push_back({{"from", link.first}, {"to", link.second}, {"bytes", bytes}});
    j["sent"] = p.sent;
    j["received"] = p.received;
    j["local_bytes"] = p.local_bytes;
    j["network_bytes"] = p.network_bytes;
    j["link_bytes_total"] = p.link_bytes_total;
    j["max_link_bytes"] = p.max_link_bytes;
    j["time_us"] = p.time_us;
    return j;
}

}  // namespace ll::netplan
