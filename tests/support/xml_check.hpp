// A small well-formedness checker for the SVG files the app writes (xmllint is
// not always installed): balanced, properly nested tags, quoted attributes,
// known entities only, no stray '<' or '&'. Not a validator.
#pragma once

#include <cctype>
#include <string>
#include <vector>

namespace ll::test {

// Empty string when `xml` is well-formed; otherwise what is wrong and where.
inline std::string xml_problem(const std::string& xml) {
    std::vector<std::string> stack;
    size_t i = 0, roots = 0;
    auto err = [&](const std::string& what) { return what + " at byte " + std::to_string(i); };
    auto check_entity = [&](size_t at) -> bool {
        static const char* ok[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"};
        for (const char* e : ok)
            if (xml.compare(at, std::char_traits<char>::length(e), e) == 0) return true;
        return xml.compare(at, 2, "&#") == 0 && xml.find(';', at) != std::string::npos;
    };
    while (i < xml.size()) {
        const char c = xml[i];
        if (c == '&') {
            if (!check_entity(i)) return err("bad entity");
            ++i;
            continue;
        }
        if (c == '>') return err("stray '>'");
        if (c != '<') {
            if (stack.empty() && !std::isspace(static_cast<unsigned char>(c)))
                return err("text outside the root");
            ++i;
            continue;
        }
        if (xml.compare(i, 4, "<!--") == 0) {
            const size_t e = xml.find("-->", i);
            if (e == std::string::npos) return err("unclosed comment");
            i = e + 3;
            continue;
        }
        if (xml.compare(i, 2, "<?") == 0) {
            const size_t e = xml.find("?>", i);
            if (e == std::string::npos) return err("unclosed declaration");
            i = e + 2;
            continue;
        }
        const bool closing = i + 1 < xml.size() && xml[i + 1] == '/';
        size_t j = i + (closing ? 2 : 1);
        const size_t name_start = j;
        while (j < xml.size() && (std::isalnum(static_cast<unsigned char>(xml[j])) ||
                                  xml[j] == '-' || xml[j] == ':' || xml[j] == '_'))
            ++j;
        const std::string name = xml.substr(name_start, j - name_start);
        if (name.empty()) return err("tag without a name");
        bool self_closing = false;
        while (true) {  // attributes
            while (j < xml.size() && std::isspace(static_cast<unsigned char>(xml[j]))) ++j;
            if (j >= xml.size()) return err("unclosed tag <" + name);
            if (xml[j] == '>') break;
            if (xml[j] == '/' && j + 1 < xml.size() && xml[j + 1] == '>') {
                self_closing = true;
                ++j;
                break;
            }
            if (closing) return err("attribute in a closing tag");
            const size_t a = j;
            while (j < xml.size() && (std::isalnum(static_cast<unsigned char>(xml[j])) ||
                                      xml[j] == '-' || xml[j] == ':' || xml[j] == '_'))
                ++j;
            if (j == a || j >= xml.size() || xml[j] != '=') return err("bad attribute in <" + name);
            ++j;
            if (j >= xml.size() || (xml[j] != '"' && xml[j] != '\''))
                return err("unquoted attribute in <" + name);
            const char q = xml[j];
            const size_t e = xml.find(q, j + 1);
            if (e == std::string::npos) return err("unclosed attribute");
            for (size_t k = j + 1; k < e; ++k) {
                if (xml[k] == '<') return err("'<' in an attribute");
                if (xml[k] == '&' && !check_entity(k)) return err("bad entity in an attribute");
            }
            j = e + 1;
        }
        if (closing) {
            if (stack.empty() || stack.back() != name) return err("mismatched </" + name + ">");
            stack.pop_back();
        } else if (!self_closing) {
            if (stack.empty()) ++roots;
            stack.push_back(name);
        } else if (stack.empty()) {
            ++roots;
        }
        i = j + 1;
    }
    if (!stack.empty()) return "unclosed <" + stack.back() + ">";
    if (roots != 1) return "expected one root element, found " + std::to_string(roots);
    return "";
}

}  // namespace ll::test
