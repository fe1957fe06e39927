// Validate-only runs (core/validate_only.hpp): every check, none of the work.
#include "core/validate_only.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "core/checked.hpp"
#include "core/error.hpp"

namespace {

struct ValidateOnlyScope {
    ValidateOnlyScope() { ll::set_validate_only(true); }
    ~ValidateOnlyScope() { ll::set_validate_only(false); }
};

}  // namespace

TEST(ValidateOnly, WorkBeginsIsANoOpInNormalRuns) {
    EXPECT_FALSE(ll::validate_only());
    EXPECT_NO_THROW(ll::work_begins());
    EXPECT_NO_THROW(ll::check_work(10, 100, "t", "steps", "--max-steps"));
}

TEST(ValidateOnly, ABudgetThatPassesStopsTheRunWhereTheWorkStarts) {
    ValidateOnlyScope on;
    EXPECT_TRUE(ll::validate_only());
    EXPECT_THROW(ll::work_begins(), ll::ValidatedOnly);
    EXPECT_THROW(ll::check_work(10, 100, "t", "steps", "--max-steps"), ll::ValidatedOnly);
}

TEST(ValidateOnly, ABudgetThatFailsIsStillRefused) {
    ValidateOnlyScope on;
    EXPECT_THROW(ll::check_work(1e12, 100, "t", "steps", "--max-steps"), ll::UsageError);
    EXPECT_THROW(ll::check_work(std::nan(""), 100, "t", "steps", "--max-steps"), ll::UsageError);
}
