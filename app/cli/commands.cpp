#include "app/cli/command.hpp"

namespace ll::cli {

// One line per command; each Setup is defined in app/cli/<name>_cmd.cpp.
Runner setup_formats(CLI::App& sub);

const std::vector<CommandEntry>& commands() {
    static const std::vector<CommandEntry> table = {
        {"formats", "list the layout formats and dtypes LayoutLab knows", setup_formats},
    };
    return table;
}

}  // namespace ll::cli
