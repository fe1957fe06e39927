// The CLI's names for the engine's parameters. Core reports a bad parameter
// as a UsageError carrying the parameter's key ("shape", "l1_tile",
// "repeatTimes"); its text never quotes a flag. The CLI names the flag when it
// prints the error:
//   key "shape",       what() "shape: empty shape; expected ..."
//       -> "--shape: empty shape; expected ..."
//   key "repeatTimes", what() "repeatTimes = 0 is out of range; expected 1..255"
//       -> "repeatTimes (--repeat) = 0 is out of range; expected 1..255"
//   key "load2d.repeat", what() "LoadData scene: ..." -> unchanged (the text
//       does not begin with the key: a scene file's error, not a flag's)
#pragma once

#include <functional>
#include <string>

#include "core/error.hpp"

namespace ll::cli {

// The flag of the parameter `key`: one table for the engine's own names
// (repeatTimes -> --repeat), otherwise "--" with '_' as '-' for a snake_case
// key (l1_tile -> --l1-tile); a key that is already a flag is itself; "" for
// a key that is no parameter (a sentence, a command's name).
std::string flag_for(const std::string& key);

// The text after "error: " for `e`, with the flag of its key put in when
// `known(flag)` says the command has that flag (no `known`: always).
std::string cli_message(const UsageError& e,
                        const std::function<bool(const std::string&)>& known = nullptr);

}  // namespace ll::cli
