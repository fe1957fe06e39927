// LayoutLab: `layoutlab` opens the window; `layoutlab <command>` runs headless.
#include "app/cli/dispatch.hpp"

int main(int argc, char** argv) { return ll::cli::dispatch(argc, argv); }
