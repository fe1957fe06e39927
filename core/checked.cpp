#include "core/checked.hpp"

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/error.hpp"
#include "core/validate_only.hpp"

namespace ll {

namespace {

[[noreturn]] void too_big(const std::string& what, const std::string& expr, int64_t limit) {
    if (limit == INT64_MAX)
        throw usage_error(what, expr + " overflows 64-bit arithmetic; expected smaller sizes");
    throw usage_error(
        what, expr + " is over the limit of " + std::to_string(limit) + "; expected smaller sizes");
}

}  // namespace

std::string number_text(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(int64_t(v));
    char b[64];
    std::snprintf(b, sizeof b, "%.17g", v);
    // Prefer the shortest text that reads back the same.
    for (int p = 1; p <= 17; ++p) {
        char s[64];
        std::snprintf(s, sizeof s, "%.*g", p, v);
        if (std::strtod(s, nullptr) == v) return s;
    }
    return b;
}

int64_t checked_mul(int64_t a, int64_t b, const std::string& what, int64_t limit) {
    if (a < 0 || b < 0)
        throw usage_error(
            what, "negative value " + std::to_string(a < 0 ? a : b) + "; expected sizes >= 0");
    int64_t r = 0;
    if (__builtin_mul_overflow(a, b, &r) || r > limit)
        too_big(what, std::to_string(a) + " x " + std::to_string(b), limit);
    return r;
}

int64_t checked_add(int64_t a, int64_t b, const std::string& what, int64_t limit) {
    if (a < 0 || b < 0)
        throw usage_error(
            what, "negative value " + std::to_string(a < 0 ? a : b) + "; expected sizes >= 0");
    int64_t r = 0;
    if (__builtin_add_overflow(a, b, &r) || r > limit)
        too_big(what, std::to_string(a) + " + " + std::to_string(b), limit);
    return r;
}

int64_t checked_product(const std::vector<int64_t>& v, const std::string& what, int64_t limit) {
    int64_t n = 1;
    for (int64_t d : v) {
        if (d < 0)
            throw usage_error(what,
                              "negative value " + std::to_string(d) + "; expected sizes >= 0");
        if (d == 0) return 0;
    }
    for (int64_t d : v) {
        int64_t r = 0;
        if (__builtin_mul_overflow(n, d, &r) || r > limit) {
            std::string list;
            for (size_t i = 0; i < v.size() && i < 8; ++i)
                list += (i ? " x " : "") + std::to_string(v[i]);
            if (v.size() > 8) list += " x ...";
            too_big(what, "the product " + list, limit);
        }
        n = r;
    }
    return n;
}

void check_rank(size_t rank, const std::string& what) {
    if (rank > kMaxRank)
        throw usage_error(what, "rank " + std::to_string(rank) + " is over the limit of " +
                                    std::to_string(kMaxRank) + " dimensions; expected at most " +
                                    std::to_string(kMaxRank));
}

void check_work(double need, int64_t limit, const std::string& what, const std::string& unit,
                const std::string& limit_key) {
    if (!(need <= double(limit))) {
        char n[64];
        std::snprintf(n, sizeof n, need < 1e18 ? "%.0f" : "%.3g", need);
        throw UsageError(limit_key, what + " needs " + n + " " + unit + ", over the limit of " +
                                        std::to_string(limit) +
                                        "; expected a smaller problem, or a higher limit");
    }
    work_begins();
}

namespace {
std::atomic<bool> g_validate_only{false};
}  // namespace

void set_validate_only(bool on) {
    g_validate_only = on;
}

bool validate_only() {
    return g_validate_only;
}

void work_begins() {
    if (g_validate_only) throw ValidatedOnly{};
}

double checked_float(double v, const std::string& what, double lo, double hi) {
    if (!std::isfinite(v))
        throw usage_error(what, number_text(v) + " is not a finite number; expected " +
                                    number_text(lo) + ".." + number_text(hi));
    if (v < lo || v > hi)
        throw usage_error(what, number_text(v) + " is out of range; expected " + number_text(lo) +
                                    ".." + number_text(hi));
    return v;
}

int64_t exact_integer(double v, const std::string& what, int64_t lo, int64_t hi) {
    const std::string range = std::to_string(lo) + ".." + std::to_string(hi);
    if (!std::isfinite(v))
        throw usage_error(
            what, number_text(v) + " is not a finite number; expected an " + "integer " + range);
    if (v != std::floor(v))
        throw usage_error(
            what, number_text(v) + " is not a whole number; expected an " + "integer " + range);
    // Compare as doubles first: converting an out-of-range double to int64
    // is undefined behaviour.
    if (v < double(lo) || v > double(hi) || v >= 9.2233720368547758e18)
        throw usage_error(what, number_text(v) + " is out of range; expected an integer " + range);
    return int64_t(v);
}

}  // namespace ll
