#include "app/i18n/tr.hpp"

#include <cstring>
#include <nlohmann/json.hpp>
#include <string_view>
#include <unordered_map>

#include "app/i18n/text_audit.hpp"

namespace ll::i18n {

// assets/i18n/zh.json as text, compiled in (cmake/I18n.cmake generates it).
extern const char* const kZhCatalogJson;

namespace {

Lang g_lang = Lang::en;

struct Catalog {
    std::vector<std::pair<std::string, std::string>> entries;
    std::unordered_map<std::string_view, const char*> zh;  // views into entries
    Catalog() {
        // A bad catalog is a build defect the catalog test reports; the
        // window then simply stays English.
        const nlohmann::json j = nlohmann::json::parse(kZhCatalogJson, nullptr, false);
        if (!j.is_object()) return;
        entries.reserve(j.size());
        for (auto it = j.begin(); it != j.end(); ++it)
            if (it.value().is_string() && !it.value().get<std::string>().empty())
                entries.emplace_back(it.key(), it.value().get<std::string>());
        for (const auto& [en, zh_text] : entries) zh.emplace(en, zh_text.c_str());
    }
};

const Catalog& catalog() {
    static const Catalog c;
    return c;
}

}  // namespace

bool parse_lang(const std::string& name, Lang& out) {
    if (name == "en") return out = Lang::en, true;
    if (name == "zh") return out = Lang::zh, true;
    return false;
}

const char* lang_name(Lang l) {
    return l == Lang::zh ? "zh" : "en";
}

void set_language(Lang l) {
    g_lang = l;
}

Lang language() {
    return g_lang;
}

const char* tr(const char* en) {
    if (g_lang == Lang::en || !en) return en;
    const auto& m = catalog().zh;
    auto it = m.find(std::string_view(en));
    if (it != m.end()) return it->second;
    audit::miss(en);
    return en;
}

std::string tr(const std::string& en) {
    if (g_lang == Lang::en) return en;
    const auto& m = catalog().zh;
    auto it = m.find(std::string_view(en));
    if (it != m.end()) return std::string(it->second);
    audit::miss(en);
    return en;
}

const char* tr_id(const char* en) {
    // Composed labels live for the whole run (a few hundred short strings).
    static std::unordered_map<std::string, std::string> made[2];
    auto& cache = made[g_lang == Lang::zh ? 1 : 0];
    auto it = cache.find(en);
    if (it != cache.end()) return it->second.c_str();
    const char* hashes = std::strstr(en, "##");
    std::string shown = hashes ? std::string(en, size_t(hashes - en)) : std::string(en);
    std::string label = tr(shown);
    if (hashes && std::strncmp(hashes, "###", 3) == 0)
        label += hashes;  // the call site already fixed the ID
    else
        label += std::string("###") + en;
    return cache.emplace(en, std::move(label)).first->second.c_str();
}

const std::vector<std::pair<std::string, std::string>>& zh_entries() {
    return catalog().entries;
}

}  // namespace ll::i18n
