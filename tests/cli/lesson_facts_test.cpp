// The numbers the bundled lessons quote come from the engine: each slide's
// "facts" name the CLI command that computes a number (run here with --json),
// where it is in the output and what it is. The quote must stand in the
// English notes, its numbers in every language's notes, and the quote, the
// stored value and the engine's output must agree.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/lesson/lesson.hpp"
#include "tests/support/cli.hpp"

namespace {

// The numbers written in `s` ("M1 = (2 + M0 - 1) // M0 = 1" -> 2, 1, 1): a
// digit run glued to a name (M0, K0, C1) is part of the name, not a number.
std::vector<std::string> numbers_in(const std::string& s) {
    std::vector<std::string> out;
    size_t i = 0;
    while (i < s.size()) {
        const bool starts = std::isdigit(static_cast<unsigned char>(s[i])) &&
                            (i == 0 || !(std::isalnum(static_cast<unsigned char>(s[i - 1])) ||
                                         s[i - 1] == '_' || s[i - 1] == '.'));
        if (!starts) {
            ++i;
            continue;
        }
        size_t j = i;
        while (j < s.size() && (std::isdigit(static_cast<unsigned char>(s[j])) ||
                                (s[j] == '.' && j + 1 < s.size() &&
                                 std::isdigit(static_cast<unsigned char>(s[j + 1])))))
            ++j;
        out.push_back(s.substr(i, j - i));
        i = j;
    }
    return out;
}

bool near(double a, double b, double tol) {
    return std::fabs(a - b) <= tol + 1e-9 * std::max(1.0, std::fabs(b));
}

}  // namespace

TEST(LessonFacts, NumbersSplitFromNames) {
    EXPECT_EQ(numbers_in("M1 = (2 + M0 - 1) // M0 = 1"), (std::vector<std::string>{"2", "1", "1"}));
    EXPECT_EQ(numbers_in("9.6x"), (std::vector<std::string>{"9.6"}));
    EXPECT_EQ(numbers_in("[10, 784, 288]"), (std::vector<std::string>{"10", "784", "288"}));
}

TEST(LessonFacts, EveryQuotedNumberMatchesTheEngine) {
    const std::string dir = std::string(LAYOUTLAB_SOURCE_DIR) + "/assets/lessons";
    int lessons = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        if (e.path().extension() != ".json") continue;
        ++lessons;
        const auto l = ll::lesson::read_lesson_file(e.path().string(), "--lesson");
        const std::string file = e.path().filename().string();
        int facts = 0;
        for (size_t i = 0; i < l.slides.size(); ++i) {
            const auto& s = l.slides[i];
            for (const auto& f : s.facts) {
                ++facts;
                const std::string where =
                    file + " " + ll::lesson::slide_name(l, i) + " \"" + f.quote + "\"";
                // The quote is what the notes say, in every language.
                EXPECT_NE(s.notes.at("en").find(f.quote), std::string::npos) << where;
                const std::vector<std::string> nums = numbers_in(f.quote);
                ASSERT_FALSE(nums.empty()) << where << ": the quote holds no number";
                for (const auto& [lang, text] : s.notes)
                    for (const std::string& n : nums)
                        EXPECT_NE(text.find(n), std::string::npos)
                            << where << ": '" << n << "' missing from the " << lang << " notes";
                // The quote reads the stored value.
                if (f.list) {
                    ASSERT_EQ(nums.size(), f.equals.size()) << where;
                    for (size_t k = 0; k < nums.size(); ++k)
                        EXPECT_TRUE(near(std::stod(nums[k]), f.equals[k], f.tolerance)) << where;
                } else {
                    EXPECT_TRUE(near(std::stod(nums.back()), f.equals[0], f.tolerance)) << where;
                }
                // The engine computes it.
                std::vector<std::string> args(f.args.begin() + 1, f.args.end());
                const nlohmann::json out = ll::test::command_json(f.args[0], args);
                ASSERT_FALSE(out.is_null()) << where;
                const nlohmann::json::json_pointer ptr(f.pointer);
                ASSERT_TRUE(out.contains(ptr)) << where << ": no " << f.pointer;
                const nlohmann::json& v = out.at(ptr);
                if (f.list) {
                    ASSERT_TRUE(v.is_array()) << where;
                    ASSERT_EQ(v.size(), f.equals.size()) << where << ": engine " << v.dump();
                    for (size_t k = 0; k < v.size(); ++k)
                        EXPECT_TRUE(near(v[k].get<double>(), f.equals[k], f.tolerance))
                            << where << ": engine " << v.dump();
                } else {
                    ASSERT_TRUE(v.is_number()) << where << ": engine " << v.dump();
                    EXPECT_TRUE(near(v.get<double>(), f.equals[0], f.tolerance))
                        << where << ": engine " << v.dump();
                }
            }
        }
        EXPECT_GE(facts, 5) << file << ": a lesson quotes its numbers as facts";
    }
    EXPECT_EQ(lessons, 3);
}
