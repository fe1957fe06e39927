#include "app/cli/command.hpp"

namespace ll::cli {

// One line per command; each Setup is defined in app/cli/<name>_cmd.cpp.
Runner setup_formats(CLI::App& sub);
Runner setup_view(CLI::App& sub);
Runner setup_fuse(CLI::App& sub);
Runner setup_agu(CLI::App& sub);
Runner setup_plan(CLI::App& sub);
Runner setup_noc(CLI::App& sub);

const std::vector<CommandEntry>& commands() {
    static const std::vector<CommandEntry> table = {
        {"formats", "list the layout formats and dtypes LayoutLab knows", setup_formats},
        {"view", "zero-copy views: permute, slice, reshape, expand; strides, offset, address", setup_view},
        {"fuse", "compose a chain of transforms into one read map; bytes moved fused vs unfused", setup_fuse},
        {"agu", "address streams of an AGU, a two-AGU DMA (--to) or scatter-gather (--gather)", setup_agu},
        {"plan", "propagate layouts through an operator graph and plan each mismatch", setup_plan},
        {"noc", "distributed transpose over PEs on a 2D mesh: blocks, routes, link loads", setup_noc},
    };
    return table;
}

}  // namespace ll::cli
