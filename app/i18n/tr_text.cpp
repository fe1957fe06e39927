#include "app/i18n/tr_text.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <set>
#include <unordered_map>

#include "app/i18n/text_audit.hpp"
#include "app/i18n/tr.hpp"

namespace ll::i18n {

// assets/i18n/zh_core.json as text, compiled in (cmake/I18n.cmake).
extern const char* const kZhCoreJson;

namespace {

// One template: fixed text and placeholders, alternating. piece.slot < 0 is
// fixed text, else the placeholder's number.
struct Piece {
    std::string text;
    int slot = -1;
};
struct Template {
    std::vector<Piece> en;
    std::vector<Piece> zh;
    size_t fixed = 0;  // characters of fixed English text (more is more specific)
    // Its fixed text joins clauses ("; ") or lines: only then may its last
    // placeholder take text that holds more of them.
    bool clauses = false, lines = false;
};

// Splits "a {0} b {1}" into pieces; false when the text has no placeholder.
bool split(const std::string& s, std::vector<Piece>& out) {
    bool any = false;
    std::string lit;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '{' && i + 2 < s.size() && s[i + 1] >= '0' && s[i + 1] <= '9' &&
            s[i + 2] == '}') {
            if (!lit.empty()) out.push_back({lit, -1}), lit.clear();
            out.push_back({"", s[i + 1] - '0'});
            any = true;
            i += 2;
        } else {
            lit += s[i];
        }
    }
    if (!lit.empty()) out.push_back({lit, -1});
    return any;
}

struct CoreCatalog {
    std::vector<std::pair<std::string, std::string>> entries;
    std::unordered_map<std::string, std::string> exact;
    std::vector<Template> templates;
    CoreCatalog() {
        const nlohmann::json j = nlohmann::json::parse(kZhCoreJson, nullptr, false);
        if (!j.is_object()) return;  // the catalog test reports a bad file
        for (auto it = j.begin(); it != j.end(); ++it) {
            if (!it.value().is_string() || it.value().get<std::string>().empty()) continue;
            entries.emplace_back(it.key(), it.value().get<std::string>());
            Template t;
            if (split(it.key(), t.en)) {
                split(entries.back().second, t.zh);
                for (const Piece& p : t.en) {
                    t.fixed += p.text.size();
                    t.clauses = t.clauses || p.text.find("; ") != std::string::npos;
                    t.lines = t.lines || p.text.find('\n') != std::string::npos;
                }
                templates.push_back(std::move(t));
            } else {
                exact.emplace(it.key(), entries.back().second);
            }
        }
        std::stable_sort(templates.begin(), templates.end(),
                         [](const Template& a, const Template& b) { return a.fixed > b.fixed; });
    }
};

const CoreCatalog& core_catalog() {
    static const CoreCatalog c;
    return c;
}

// Matches pieces[i..] against s[pos..]; placeholders take non-empty text.
bool match(const Template& t, const std::vector<Piece>& pieces, size_t i, const std::string& s,
           size_t pos, std::vector<std::string>& args) {
    if (i == pieces.size()) return pos == s.size();
    const Piece& p = pieces[i];
    if (p.slot < 0) {
        if (s.compare(pos, p.text.size(), p.text) != 0) return false;
        return match(t, pieces, i + 1, s, pos + p.text.size(), args);
    }
    if (args.size() <= size_t(p.slot)) args.resize(size_t(p.slot) + 1);
    if (i + 1 == pieces.size()) {  // the last piece takes the rest of its clause
        if (pos >= s.size()) return false;
        // "{0} in {1}" must not take "a in b; c: d" whole: "{0}; {1}" splits it.
        if (!t.clauses && s.find("; ", pos) != std::string::npos) return false;
        if (!t.lines && s.find('\n', pos) != std::string::npos) return false;
        args[size_t(p.slot)] = s.substr(pos);
        return true;
    }
    // The next piece is fixed text (two placeholders never touch): try each
    // place it occurs, shortest placeholder first. A placeholder inside a
    // template does not reach over a line, a "; " or a ": " (a clause):
    // "read {0} stride {1} (eff {2})" must not swallow the next clause.
    const std::string& next = pieces[i + 1].text;
    // Before a "; " (a template joining clauses) it may hold a ": ", not a line.
    const bool clause = next.compare(0, 2, "; ") == 0, line = !next.empty() && next[0] == '\n';
    const size_t npos = std::string::npos;
    const size_t stop =
        std::min({clause || line ? npos : s.find("; ", pos),
                  clause || line ? npos : s.find(": ", pos), line ? npos : s.find('\n', pos)});
    for (size_t at = s.find(next, pos + 1); at != std::string::npos; at = s.find(next, at + 1)) {
        if (stop != std::string::npos && at > stop) break;
        args[size_t(p.slot)] = s.substr(pos, at - pos);
        if (match(t, pieces, i + 1, s, at, args)) return true;
    }
    return false;
}

// How many levels of placeholders inside placeholders are looked up.
constexpr int kDepth = 6;

std::string lookup(const std::string& en, int depth) {
    const CoreCatalog& c = core_catalog();
    auto it = c.exact.find(en);
    if (it != c.exact.end()) return it->second;
    // The window's own catalog knows words too ("Explorer", "Tiling", ...);
    // looked up directly, so that tr() does not count a miss.
    const auto& own_entries = zh_entries();
    auto own = std::lower_bound(own_entries.begin(), own_entries.end(), en,
                                [](const auto& e, const std::string& k) { return e.first < k; });
    if (own != own_entries.end() && own->first == en) return own->second;
    if (depth <= 0) return en;
    std::vector<std::string> args;
    for (const Template& t : c.templates) {
        args.clear();
        if (!match(t, t.en, 0, en, 0, args)) continue;
        std::string out;
        for (const Piece& p : t.zh)
            out += p.slot < 0                     ? p.text
                   : size_t(p.slot) < args.size() ? lookup(args[size_t(p.slot)], depth - 1)
                                                  : std::string();
        return out;
    }
    if (depth < kDepth) audit::miss(en);  // a part of a text a template matched
    return en;
}

}  // namespace

const std::vector<std::pair<std::string, std::string>>& zh_core_entries() {
    return core_catalog().entries;
}

void note_miss(const std::string& en) {
    audit::miss(en);
    static const char* path = std::getenv("LAYOUTLAB_TR_MISSES");
    if (!path || !*path) return;
    static std::set<std::string> seen;
    if (!seen.insert(en).second) return;
    if (FILE* f = std::fopen(path, "a")) {
        std::fprintf(f, "%s\n", en.c_str());
        std::fclose(f);
    }
}

namespace {

// Text that holds a CJK character is already Chinese: a caption a panel
// composed with tr(), a lesson's Chinese title, a Chinese file name.
bool already_chinese(const std::string& s) {
    // UTF-8 lead bytes 0xE2 0xBA.. and up open U+2E80.. (CJK radicals,
    // punctuation, kana, ideographs, full-width forms).
    for (size_t i = 0; i < s.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c >= 0xE3 && c <= 0xEF) return true;
        if (c == 0xE2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0xBA)
            return true;
    }
    return false;
}

}  // namespace

std::string tr_text(const std::string& en) {
    if (language() != Lang::zh || en.empty() || already_chinese(en)) return en;
    // Bounded: tick numbers and addresses make many distinct strings.
    static std::unordered_map<std::string, std::string> cache;
    auto it = cache.find(en);
    if (it != cache.end()) return it->second;
    if (cache.size() > 20000) cache.clear();
    std::string zh = lookup(en, kDepth);
    if (zh == en) note_miss(en);
    return cache.emplace(en, std::move(zh)).first->second;
}

std::vector<std::string> tr_lines(const std::vector<std::string>& lines) {
    std::vector<std::string> out;
    if (lines.size() < 2 || language() != Lang::zh) {
        for (const std::string& l : lines) out.push_back(tr_text(l));
        return out;
    }
    std::string joined;
    for (const std::string& l : lines) joined += (joined.empty() ? "" : " ") + l;
    const std::string zh = lookup(joined, kDepth);
    if (zh == joined) {
        for (const std::string& l : lines) out.push_back(tr_text(l));
        return out;
    }
    // Code point starts, then cut near each k/n of them.
    std::vector<size_t> starts;
    for (size_t i = 0; i < zh.size(); ++i)
        if ((static_cast<unsigned char>(zh[i]) & 0xC0) != 0x80) starts.push_back(i);
    const size_t n = lines.size(), cps = starts.size();
    size_t from = 0;  // code point index where the current line starts
    for (size_t k = 1; k <= n; ++k) {
        size_t cut = k == n ? cps : std::max(from, cps * k / n);
        if (k < n) {
            // A break after a space or a Chinese comma within a few characters.
            for (size_t d = 0; d < 6 && cut + d < cps && cut >= d; ++d) {
                auto breaks_after = [&](size_t c) {
                    if (c == 0 || c > cps) return false;
                    const std::string ch =
                        zh.substr(starts[c - 1], (c < cps ? starts[c] : zh.size()) - starts[c - 1]);
                    return ch == " " || ch == "\xef\xbc\x8c" || ch == "\xef\xbc\x9b" ||
                           ch == "\xef\xbc\x9a";
                };
                if (breaks_after(cut + d)) {
                    cut += d;
                    break;
                }
                if (cut - d > from && breaks_after(cut - d)) {
                    cut -= d;
                    break;
                }
            }
        }
        const size_t b0 = from < cps ? starts[from] : zh.size();
        const size_t b1 = cut < cps ? starts[cut] : zh.size();
        std::string line = zh.substr(b0, b1 - b0);
        while (!line.empty() && line.front() == ' ') line.erase(0, 1);
        out.push_back(line);
        from = cut;
    }
    return out;
}

}  // namespace ll::i18n
