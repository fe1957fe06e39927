// `layoutlab formats`: what the engine knows, for newcomers and scripts.
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/cli/command.hpp"
#include "core/dtype.hpp"

namespace ll::cli {

Runner setup_formats(CLI::App& sub) {
    auto json = std::make_shared<bool>(false);
    sub.add_flag("--json", *json, "print JSON instead of text");
    return [json]() {
        if (*json) {
            nlohmann::json j;
            for (DType t : all_dtypes())
                j["dtypes"].push_back({{"name", name(t)}, {"bits", bits(t)}});
            std::cout << j.dump(2) << "\n";
        } else {
            std::cout << "dtypes:";
            for (DType t : all_dtypes()) std::cout << " " << name(t) << "(" << bits(t) << "b)";
            std::cout << "\n";
        }
        return 0;
    };
}

}  // namespace ll::cli
