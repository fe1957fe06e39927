// Checked arithmetic and limits for numbers that come from a user: shapes,
// counts, sizes, floats. One place, used by every reader and command, so an
// overflow or an absurd request is refused with a message instead of wrapping
// around, allocating gigabytes or running for minutes.
//
// Contract:
//   checked_mul(1 << 40, 1 << 40, "shape") throws UsageError
//     "shape: 1099511627776 x 1099511627776 overflows 64-bit arithmetic; ..."
//     with key() "shape" (`what` is the key of every error here)
//   checked_product({2,3,4}, "shape", kMaxElements) == 24
//   check_rank(60001, "shape") throws "shape: rank 60001 is over the limit
//     of 32 dimensions; expected at most 32"
//   check_work(5e9, 1e8, "tiling", "steps", "max_steps") throws
//     "max_steps: tiling needs 5000000000 steps, over the limit of 100000000;
//      expected a smaller problem, or a higher limit" (key() "max_steps")
//   checked_float(nan, "ui_scale", 0.5, 4) throws "ui_scale: nan is not a
//     finite number; expected 0.5..4"
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/error.hpp"

namespace ll {

// An error about `what`, the way every check here reports one: keyed by
// `what` when it is a parameter's key (one word: "shape", "l1_tile"), else a
// plain "<what>: <detail>" (what = "img2col rows N x OH x OW").
inline UsageError usage_error(const std::string& what, const std::string& detail) {
    if (!what.empty() && what.find(' ') == std::string::npos) return UsageError(what, detail);
    return UsageError(what.empty() ? detail : what + ": " + detail);
}

// Most dimensions a shape may have (NumPy's limit was 32 for decades).
constexpr size_t kMaxRank = 32;

// a * b and a + b for non-negative operands; UsageError naming `what` when the
// result passes `limit` (default: what int64 holds).
int64_t checked_mul(int64_t a, int64_t b, const std::string& what, int64_t limit = INT64_MAX);
int64_t checked_add(int64_t a, int64_t b, const std::string& what, int64_t limit = INT64_MAX);
// Product of the entries (each must be >= 0), refused past `limit`.
int64_t checked_product(const std::vector<int64_t>& v, const std::string& what,
                        int64_t limit = INT64_MAX);

// UsageError when `rank` passes kMaxRank.
void check_rank(size_t rank, const std::string& what);

// A work budget: `need` units of work (elements, configurations, bytes,
// steps) against `limit`, checked before the work starts. The message names
// the amount and the limit; the error's key is `limit_key`, the parameter
// that raises it. `need` is a double so
// that a caller can pass an estimate that itself would overflow int64.
void check_work(double need, int64_t limit, const std::string& what, const std::string& unit,
                const std::string& limit_key);

// A float from a user: finite and within [lo, hi], else UsageError naming `what`.
double checked_float(double v, const std::string& what, double lo, double hi);
// A float that must be a whole number within [lo, hi] (JSON 16.0 is fine,
// 16.5, 1e32, nan are not); returns it as int64 without undefined behaviour.
int64_t exact_integer(double v, const std::string& what, int64_t lo, int64_t hi);

// Text of a double for messages: "nan", "inf", "1e+39", "2.5".
std::string number_text(double v);

}  // namespace ll
