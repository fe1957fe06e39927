// Validate-only runs: every check of a command's input, none of its work.
//
// work_begins() marks the point where a command has read and checked its
// whole input (sizes, ranks, work budgets) and starts the work; check_work
// (core/checked.hpp) calls it once a budget passed, and commands whose work
// has no budget call it themselves before computing and printing. Normally
// it does nothing. With set_validate_only(true) it throws ValidatedOnly, which
// the CLI dispatcher turns into exit 0 with nothing printed: the CLI fuzz
// target (tests/fuzz/cli_fuzz.cpp) runs every command's parser and checks
// thousands of times a second this way. ValidatedOnly is no error, so it is
// not a UsageError (nor a std::exception).
#pragma once

namespace ll {

struct ValidatedOnly {};

void set_validate_only(bool on);
bool validate_only();
void work_begins();

}  // namespace ll
