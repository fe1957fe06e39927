// The message catalog (app/i18n/tr.hpp) is complete: every tr / tr_id / trn
// literal in app/ has a non-empty Chinese entry in assets/i18n/zh.json, the
// catalog holds no entry the sources do not use, translations keep their
// printf conversions, and tr/tr_id behave as the call sites expect.
#include "app/i18n/tr.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

namespace fs = std::filesystem;
using ll::i18n::Lang;

namespace {

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Reads one C string literal starting at s[i] == '"'; returns its value and
// moves i past the closing quote. Understands the escapes the app uses.
bool read_literal(const std::string& s, size_t& i, std::string& out) {
    if (i >= s.size() || s[i] != '"') return false;
    for (++i; i < s.size(); ++i) {
        char c = s[i];
        if (c == '"') {
            ++i;
            return true;
        }
        if (c == '\n') return false;
        if (c != '\\') {
            out += c;
            continue;
        }
        if (++i >= s.size()) return false;
        switch (s[i]) {
            case 'n':
                out += '\n';
                break;
            case 't':
                out += '\t';
                break;
            case '"':
                out += '"';
                break;
            case '\'':
                out += '\'';
                break;
            case '\\':
                out += '\\';
                break;
            default:
                return false;  // an escape this scanner does not know: flagged
        }
    }
    return false;
}

void skip_space(const std::string& s, size_t& i) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
}

struct Use {
    std::string file;
    int line;
};

// Catalog keys the sources use: the argument of tr("..."), tr_id("...") (its
// visible part, before any "##"), trn("..."); adjacent literals concatenate.
// Calls on a variable (tr(entry->title)) are not keys.
std::map<std::string, Use> scan_keys(std::vector<std::string>& problems) {
    std::map<std::string, Use> keys;
    const fs::path app = fs::path(LAYOUTLAB_SOURCE_DIR) / "app";
    for (const auto& e : fs::recursive_directory_iterator(app)) {
        const fs::path& p = e.path();
        if (p.extension() != ".cpp" && p.extension() != ".hpp") continue;
        if (p.parent_path().filename() == "i18n") continue;  // the API's own docs
        const std::string s = slurp(p);
        for (const char* fn : {"tr(", "tr_id(", "trn("}) {
            const size_t n = std::strlen(fn);
            for (size_t at = s.find(fn); at != std::string::npos; at = s.find(fn, at + 1)) {
                const char before = at ? s[at - 1] : ' ';
                if (std::isalnum(static_cast<unsigned char>(before)) || before == '_') continue;
                size_t i = at + n;
                skip_space(s, i);
                if (i >= s.size() || s[i] != '"') continue;  // not a literal
                std::string key;
                bool ok = true;
                while (ok && i < s.size() && s[i] == '"') {
                    ok = read_literal(s, i, key);
                    skip_space(s, i);
                }
                const int line = 1 + int(std::count(s.begin(), s.begin() + long(at), '\n'));
                const std::string where = p.filename().string() + ":" + std::to_string(line);
                if (!ok || i >= s.size() || s[i] != ')') {
                    problems.push_back(where + ": " + fn +
                                       " with an argument the scan cannot read");
                    continue;
                }
                if (std::string(fn) == "tr_id(") key = key.substr(0, key.find("##"));
                if (key.empty()) {
                    problems.push_back(where + ": empty key");
                    continue;
                }
                keys.emplace(key, Use{p.filename().string(), line});
            }
        }
    }
    return keys;
}

nlohmann::json catalog_file() {
    const fs::path p = fs::path(LAYOUTLAB_SOURCE_DIR) / "assets/i18n/zh.json";
    return nlohmann::json::parse(slurp(p));
}

// The printf conversions of a format, in order, without flags, width and
// precision ("%.0f" -> "%f", "%lld" -> "%lld"); "%%" is not one. A
// translation may change precision: "%.0s" drops an English plural ending.
std::vector<std::string> conversions(const std::string& f) {
    std::vector<std::string> out;
    for (size_t i = 0; i < f.size(); ++i) {
        if (f[i] != '%') continue;
        if (i + 1 < f.size() && f[i + 1] == '%') {
            ++i;
            continue;
        }
        size_t j = i + 1;
        while (j < f.size() && std::strchr("-+ #0123456789.*", f[j])) ++j;
        const size_t mods = j;
        while (j < f.size() && std::strchr("lhzjtL", f[j])) ++j;
        out.push_back("%" + f.substr(mods, j - mods + 1));
        i = j;
    }
    return out;
}

}  // namespace

TEST(Catalog, EveryKeyInTheSourcesHasAChineseEntry) {
    std::vector<std::string> problems;
    const auto keys = scan_keys(problems);
    for (const std::string& p : problems) ADD_FAILURE() << p;
    ASSERT_GT(keys.size(), 50u) << "the scan found almost no tr() calls: is it broken?";
    const nlohmann::json zh = catalog_file();
    for (const auto& [key, use] : keys) {
        auto it = zh.find(key);
        if (it == zh.end())
            ADD_FAILURE() << use.file << ":" << use.line << ": no zh entry for \"" << key << "\"";
        else if (!it->is_string() || it->get<std::string>().empty())
            ADD_FAILURE() << "zh entry for \"" << key << "\" is empty";
    }
}

TEST(Catalog, HasNoUnusedOrEmptyEntries) {
    std::vector<std::string> problems;
    const auto keys = scan_keys(problems);
    const nlohmann::json zh = catalog_file();
    ASSERT_TRUE(zh.is_object());
    for (auto it = zh.begin(); it != zh.end(); ++it) {
        EXPECT_TRUE(keys.count(it.key())) << "zh entry \"" << it.key() << "\" is used nowhere";
        ASSERT_TRUE(it->is_string()) << it.key();
        EXPECT_FALSE(it->get<std::string>().empty()) << it.key();
        EXPECT_EQ(it->get<std::string>().find("##"), std::string::npos)
            << "\"" << it.key() << "\": '##' in a translation would change a widget's ID";
    }
    // Everything the binary compiled in is what the file says.
    EXPECT_EQ(ll::i18n::zh_entries().size(), zh.size());
}

TEST(Catalog, TranslationsKeepTheirPrintfConversions) {
    const nlohmann::json zh = catalog_file();
    for (auto it = zh.begin(); it != zh.end(); ++it)
        EXPECT_EQ(conversions(it.key()), conversions(it->get<std::string>()))
            << "\"" << it.key() << "\" -> \"" << it->get<std::string>() << "\"";
}

TEST(Catalog, ChineseUsesTheDocumentsTerms) {
    // A few terms the glossary (docs/GLOSSARY.md) fixes, as the documents write them.
    const nlohmann::json zh = catalog_file();
    std::string all;
    for (auto it = zh.begin(); it != zh.end(); ++it) all += it->get<std::string>() + "\n";
    for (const char* term : {"分形", "转置", "步长", "维度"})
        EXPECT_NE(all.find(term), std::string::npos) << term;
}

TEST(Tr, LooksUpOnlyInChinese) {
    ll::i18n::set_language(Lang::en);
    const char* view = "View";
    EXPECT_EQ(tr(view), view);  // English: the very same text, no copy
    EXPECT_STREQ(tr_id("View"), "View###View");
    ll::i18n::set_language(Lang::zh);
    EXPECT_STREQ(tr("View"), "面板");  // the menu that lists the panels
    EXPECT_EQ(tr(std::string("View")), "面板");
    EXPECT_STREQ(tr("no such key, shown as is"), "no such key, shown as is");
    ll::i18n::set_language(Lang::en);
}

TEST(Tr, WidgetIdsDoNotDependOnTheLanguage) {
    ll::i18n::set_language(Lang::zh);
    EXPECT_STREQ(tr_id("Settings"), "设置###Settings");
    // A label with its own ID suffix is translated on its visible part.
    EXPECT_STREQ(tr_id("Settings##menu"), "设置###Settings##menu");
    EXPECT_STREQ(tr_id("Settings###fixed"), "设置###fixed");
    ll::i18n::set_language(Lang::en);
    EXPECT_STREQ(tr_id("Settings##menu"), "Settings###Settings##menu");
}

TEST(Tr, ParsesLanguageNames) {
    Lang l = Lang::en;
    EXPECT_TRUE(ll::i18n::parse_lang("zh", l));
    EXPECT_EQ(l, Lang::zh);
    EXPECT_TRUE(ll::i18n::parse_lang("en", l));
    EXPECT_EQ(l, Lang::en);
    EXPECT_FALSE(ll::i18n::parse_lang("zh_CN", l));
    EXPECT_FALSE(ll::i18n::parse_lang("", l));
}
