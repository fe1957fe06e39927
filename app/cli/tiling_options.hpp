// Options shared by `layoutlab tiling` and `layoutlab sweep`: the tensor, the
// layout and the memory hierarchy of the two-level tiling model.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "core/error.hpp"
#include "core/tiling/tiling.hpp"

namespace ll::cli {

struct TilingModelOptions {
    std::string shape = "1,64,56,56", layout = "NCHW", dtype = "fp32";
    std::string basis = "source";
    std::string access = "64,16";  // "DRAM,SRAM" access units in bytes
    int64_t l2_passes = 4;
    double dram_bw = 100, sram_bw = 500, reg_bw = 2000;
    std::string setup_ns;  // "L1,L2" in ns
    std::string capacity;  // "SRAM,REG" in bytes

    void add(CLI::App& sub, const std::string& default_setup) {
        setup_ns = default_setup;
        sub.add_option("--shape", shape, "logical activation shape N,C,H,W")->capture_default_str();
        sub.add_option("--layout", layout,
                       "NCHW, NHWC, NC1HWC0 or another order of N,C,H,W with N first")
            ->capture_default_str();
        sub.add_option("--dtype", dtype, "element type (C0 of NC1HWC0 = 32 B / size)")
            ->capture_default_str();
        sub.add_option("--l2-passes", l2_passes,
                       "SRAM->register reads of each tile (4 fits the document)")
            ->capture_default_str();
        sub.add_option(
               "--stride-basis", basis,
               "source (strides in the buffer read: tensor/tile, as section 15.2 prints 3136 "
               "and 196) or destination (strides in the tile/sub-tile written)")
            ->capture_default_str();
        sub.add_option("--access-bytes", access,
                       "DRAM,SRAM access unit in bytes (burst, word): a strided read fetches one "
                       "unit per element, so eta >= element size / unit; 0,0 = formula (8) "
                       "literally (eta = 1/stride)")
            ->capture_default_str();
        sub.add_option("--dram-bw", dram_bw, "DRAM bandwidth, GB/s")->capture_default_str();
        sub.add_option("--sram-bw", sram_bw, "SRAM bandwidth, GB/s")->capture_default_str();
        sub.add_option("--reg-bw", reg_bw, "register file bandwidth, GB/s")->capture_default_str();
        sub.add_option("--setup-ns", setup_ns, "fixed cost per tile, per sub-tile moved, ns: L1,L2")
            ->capture_default_str();
        sub.add_option("--capacity", capacity,
                       "SRAM,registers capacity in bytes (default 1048576,65536)");
    }

    tiling::Config config() const {
        tiling::Config c;
        c.shape = parse_shape(shape, "--shape");
        c.layout = tiling::check_layout(layout, "--layout");
        c.dtype = dtype_from_name(dtype);
        c.basis = tiling::stride_basis_from_name(basis);
        c.l2_passes = l2_passes;
        c.mem.dram.bandwidth_gbps = dram_bw;
        c.mem.sram.bandwidth_gbps = sram_bw;
        c.mem.reg.bandwidth_gbps = reg_bw;
        {
            const auto v = parse_int_list(access, "--access-bytes");
            if (v.size() != 2 || v[0] < 0 || v[1] < 0)
                throw UsageError("--access-bytes '" + access +
                                 "'; expected two sizes >= 0, DRAM,SRAM in bytes (0 = no bound)");
            c.mem.dram.access_bytes = v[0];
            c.mem.sram.access_bytes = v[1];
        }
        if (!setup_ns.empty()) {
            const auto v = parse_int_list(setup_ns, "--setup-ns");
            if (v.size() != 2 || v[0] < 0 || v[1] < 0)
                throw UsageError("--setup-ns '" + setup_ns +
                                 "'; expected two values >= 0, L1,L2 in ns");
            c.mem.dram.setup_ns = double(v[0]);
            c.mem.sram.setup_ns = double(v[1]);
        }
        if (!capacity.empty()) {
            const auto v = parse_int_list(capacity, "--capacity");
            if (v.size() != 2 || v[0] <= 0 || v[1] <= 0)
                throw UsageError("--capacity '" + capacity +
                                 "'; expected two sizes > 0, SRAM,registers in bytes");
            c.mem.sram.capacity_bytes = v[0];
            c.mem.reg.capacity_bytes = v[1];
        }
        return c;
    }
};

inline nlohmann::json extent_json(const tiling::Extent3& e) {
    return {e.c, e.h, e.w};
}

}  // namespace ll::cli
