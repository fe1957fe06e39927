#pragma once

namespace ll::cli {

// Parses the command line and runs a command, or the window when no command
// is named. Returns the process exit code: 0 success, 2 bad input
// ("error: ..." on stderr), 1 an internal failure.
int dispatch(int argc, char** argv);

}  // namespace ll::cli
