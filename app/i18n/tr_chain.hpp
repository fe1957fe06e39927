// A text core builds as a chain of phrases joined by " -> " (the explorer's
// follow-one-element narration, core/format/narrate.hpp): each phrase is
// translated on its own (tr_text) and the chain joined again. A template
// whose last placeholder takes "the rest" (row {0}, column {1}) must not
// swallow the phrases after it.
#pragma once

#include <string>

#include "app/i18n/tr_text.hpp"

namespace ll::i18n {

inline std::string tr_chain(const std::string& en) {
    static const std::string sep = " -> ";
    std::string out;
    for (size_t from = 0;;) {
        const size_t at = en.find(sep, from);
        out += tr_text(en.substr(from, at == std::string::npos ? std::string::npos : at - from));
        if (at == std::string::npos) return out;
        out += sep;
        from = at + sep.size();
    }
}

}  // namespace ll::i18n

using ll::i18n::tr_chain;
