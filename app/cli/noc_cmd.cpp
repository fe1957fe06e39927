// `layoutlab noc`: a distributed transpose over PEs on a 2D mesh
// (all-to-all exchange, XY routing) with the load on every link.
#include <cstdio>
#include <iostream>
#include <memory>

#include "app/cli/command.hpp"
#include "app/cli/limits.hpp"
#include "core/checked.hpp"
#include "core/error.hpp"
#include "core/netplan/noc.hpp"

namespace ll::cli {

Runner setup_noc(CLI::App& sub) {
    auto c = std::make_shared<netplan::NocConfig>();
    auto shape = std::make_shared<std::string>("8,8");
    auto json = std::make_shared<bool>(false);
    sub.add_option("--pes", c->pes, "number of processing elements, 1..4096 (default 4)");
    sub.add_option("--shape", *shape, "matrix rows,cols to transpose (default 8,8)");
    sub.add_option("--mesh-cols", c->mesh_cols, "mesh columns (default: most square mesh)");
    sub.add_option("--elem-bytes", c->elem_bytes, "bytes per element (default 4)");
    sub.add_option("--link-bandwidth", c->link_gbps, "GB/s per link direction (default 32)");
    sub.add_option("--max-steps", c->max_steps,
                   "refuse transposes needing more route steps (PEs^2 x route length) than this")
        ->capture_default_str()
        ->check(positive_whole());
    sub.add_flag("--json", *json, "print JSON instead of text");
    return [c, shape, json]() {
        checked_float(c->link_gbps, "--link-bandwidth", 1e-6, 1e9);
        Shape s = parse_shape(*shape, "--shape");
        if (s.size() != 2)
            throw UsageError("--shape: " + to_string(s) + " has rank " + std::to_string(s.size()) +
                             "; expected rows,cols");
        c->rows = s[0];
        c->cols = s[1];
        netplan::NocPlan p = netplan::plan_distributed_transpose(*c);
        if (*json) {
            std::cout << netplan::noc_to_json(p).dump(2) << "\n";
            return 0;
        }
        std::cout
            << "distributed transpose of " << to_string(s) << " over " << c->pes << " PEs on a "
            << p.mesh_rows << "x" << p.mesh_cols << " mesh (XY routing)\n"
            << "PE p owns rows of block p before, rows of block q of the transpose "
               "(columns of block q) after\n\nblocks (src -> dst: rows x cols, bytes, hops):\n";
        size_t shown = 0;
        for (const auto& b : p.blocks) {
            if (++shown > 64) {
                std::cout << "  ... " << p.blocks.size() - 64 << " more (see --json)\n";
                break;
            }
            std::cout << "  PE " << b.src_pe << " -> PE " << b.dst_pe << ": rows [" << b.row0 << ","
                      << b.row1 << ") x cols [" << b.col0 << "," << b.col1 << "), " << b.bytes
                      << " B, " << b.hops() << (b.src_pe == b.dst_pe ? " (local)" : "") << "\n";
        }
        std::cout << "\nlink loads (bytes):\n";
        for (const auto& [link, bytes] : p.link_bytes)
            std::cout << "  " << link.first << " -> " << link.second << ": " << bytes << "\n";
        char t[64];
        std::snprintf(t, sizeof t, "%.3f", p.time_us);
        int64_t sent = 0, recv = 0;
        for (size_t i = 0; i < p.sent.size(); ++i) {
            sent += p.sent[i];
            recv += p.received[i];
        }
        std::cout << "\nbytes sent: " << sent << ", received: " << recv
                  << ", kept local: " << p.local_bytes << "\n"
                  << "total link traffic (bytes x hops): " << p.link_bytes_total << "\n"
                  << "max link load: " << p.max_link_bytes << " B -> " << t << " us at "
                  << c->link_gbps << " GB/s\n";
        return 0;
    };
}

}  // namespace ll::cli
