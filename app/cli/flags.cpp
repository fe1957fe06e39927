#include "app/cli/flags.hpp"

#include <map>

namespace ll::cli {

namespace {

// Keys whose flag is not the key itself in kebab case: the instructions'
// parameter names from the ISA documents and the letters of the conv shape.
const std::map<std::string, std::string>& flag_table() {
    static const std::map<std::string, std::string> t = {
        // LoadData 2-D (load2d, load2dv2)
        {"startIndex", "--start-index"},
        {"repeatTimes", "--repeat"},
        {"srcStride", "--src-stride"},
        {"dstStride", "--dst-stride"},
        {"dstGap", "--dst-gap"},
        {"sid", "--sid"},
        {"source size", "--src-fractals"},
        {"ifTranspose", "--transpose"},
        {"addrMode", "--decrement"},
        {"mStartPosition", "--m-start"},
        {"kStartPosition", "--k-start"},
        {"mStep", "--m-step"},
        {"kStep", "--k-step"},
        // Load3D
        {"C1", "--c1"},
        {"padList left", "--pad-left"},
        {"padList right", "--pad-right"},
        {"padList top", "--pad-top"},
        {"padList bottom", "--pad-bottom"},
        {"c1Index", "--c1-index"},
        {"strideW", "--stride-w"},
        {"strideH", "--stride-h"},
        {"filterW", "--kw"},
        {"filterH", "--kh"},
        {"fetchFilterW", "--fetch-w"},
        {"fetchFilterH", "--fetch-h"},
        {"dilationFilterW", "--dilation-w"},
        {"dilationFilterH", "--dilation-h"},
        {"leftTopW", "--left-top-w"},
        {"leftTopH", "--left-top-h"},
        {"jumpStride", "--jump-stride"},
        {"repeatMode", "--repeat-mode"},
        {"repeatTime", "--repeat"},
        {"cSize", "--c-size"},
        // conv shape
        {"N", "--n"},
        {"Cin", "--cin"},
        {"Cout", "--cout"},
        {"H", "--h"},
        {"W", "--w"},
        // one field for two flags
        {"heads_groups", "--heads/--groups"},
        {"from_to", "--from/--to"},
        {"dtype_elem_size", "--dtype/--elem-size"},
    };
    return t;
}

bool snake_case(const std::string& k) {
    if (k.empty() || k[0] < 'a' || k[0] > 'z') return false;
    for (char c : k)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
    return true;
}

}  // namespace

std::string flag_for(const std::string& key) {
    const auto& t = flag_table();
    if (auto it = t.find(key); it != t.end()) return it->second;
    if (key.rfind("--", 0) == 0) return key;
    if (!snake_case(key)) return "";
    std::string f = "--" + key;
    for (char& c : f)
        if (c == '_') c = '-';
    return f;
}

std::string cli_message(const UsageError& e, const std::function<bool(const std::string&)>& known) {
    const std::string& key = e.key();
    const std::string what = e.what();
    const std::string flag = flag_for(key);
    // No flag, a flag this command lacks, or the CLI gave the flag as the
    // key and the text has it already.
    if (flag.empty() || flag == key || (known && !known(flag))) return what;
    // "key: detail" -> "--flag: detail"
    if (what.rfind(key + ": ", 0) == 0) return flag + what.substr(key.size());
    // "key = 0 is ..." -> "key (--flag) = 0 is ..."
    if (what.rfind(key + " ", 0) == 0) return key + " (" + flag + ")" + what.substr(key.size());
    // Text about the key in other words (a scene file's reader, say): as it is.
    return what;
}

}  // namespace ll::cli
