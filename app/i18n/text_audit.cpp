#include "app/i18n/text_audit.hpp"

#include <string>
#include <unordered_set>
#include <vector>

namespace ll::i18n::audit {

namespace {

// Distinct texts in the order first seen, bounded (a long run with changing
// numbers makes many).
struct Seen {
    std::unordered_set<std::string> set;
    std::vector<std::string> order;
    void add(std::string_view s) {
        while (!s.empty() && (s.front() == ' ' || s.front() == '\r')) s.remove_prefix(1);
        while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.remove_suffix(1);
        if (s.empty() || order.size() >= 20000) return;
        if (set.emplace(s).second) order.emplace_back(s);
    }
};

struct State {
    bool on = false;
    Seen lines, drawn, misses, cut;
    // The colour each line was first drawn in (its first glyph's), by line.
    std::unordered_set<std::string> inked;
    nlohmann::json ink = nlohmann::json::array();
};

State& state() {
    static State s;
    return s;
}

}  // namespace

void enable() {
    state().on = true;
}

bool enabled() {
    return state().on;
}

void add_lines(std::string_view text) {
    State& st = state();
    if (!st.on) return;
    for (size_t at = 0; at <= text.size();) {
        size_t nl = text.find('\n', at);
        if (nl == std::string_view::npos) nl = text.size();
        st.lines.add(text.substr(at, nl - at));
        at = nl + 1;
    }
}

void note(std::string_view text) {
    if (state().on) state().drawn.add(text);
}

void ink(std::string_view text, uint32_t rgba) {
    State& st = state();
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
    if (!st.on || text.empty() || st.ink.size() >= 20000) return;
    if (!st.inked.emplace(text).second) return;
    st.ink.push_back(
        {{"text", std::string(text)},
         {"rgba", {rgba & 0xFF, (rgba >> 8) & 0xFF, (rgba >> 16) & 0xFF, rgba >> 24}}});
}

void cut(std::string_view text) {
    if (state().on) state().cut.add(text);
}

void miss(std::string_view en) {
    if (state().on) state().misses.add(en);
}

nlohmann::json report() {
    const State& st = state();
    return {{"lines", st.lines.order},
            {"drawn", st.drawn.order},
            {"misses", st.misses.order},
            {"cut", st.cut.order},
            {"ink", st.ink}};
}

}  // namespace ll::i18n::audit
