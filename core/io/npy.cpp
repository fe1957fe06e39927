#include "core/io/npy.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include "core/checked.hpp"
#include "core/error.hpp"
#include "core/io/atomic_file.hpp"
#include "core/io/input_file.hpp"

namespace ll {

namespace {

const char kMagic[] = "\x93NUMPY";
const char* kSupported =
    "one of '|i1' (int8), '|u1' (uint8), '<i2' (int16), '<f2' (fp16), "
    "'<f4' (fp32), '<i4' (int32)";

[[noreturn]] void bad(const std::string& what, const std::string& msg) {
    throw UsageError(what + ": " + msg);
}

// Value of `key` in the header dict, as raw text up to the next top-level
// comma or closing brace ("'<f2'", "False", "(2, 3)").
std::string dict_value(const std::string& h, const std::string& key, const std::string& what) {
    size_t k = h.find("'" + key + "'");
    if (k == std::string::npos) k = h.find("\"" + key + "\"");
    if (k == std::string::npos)
        bad(what, "the .npy header has no '" + key + "' entry; expected a NumPy .npy file");
    size_t c = h.find(':', k + key.size() + 2);
    if (c == std::string::npos) bad(what, "malformed .npy header; expected a NumPy .npy file");
    size_t i = c + 1;
    while (i < h.size() && std::isspace(static_cast<unsigned char>(h[i]))) ++i;
    size_t j = i;
    if (j < h.size() && h[j] == '(') {
        j = h.find(')', j);
        if (j == std::string::npos) bad(what, "malformed shape in the .npy header");
        return h.substr(i, j - i + 1);
    }
    if (j < h.size() && (h[j] == '\'' || h[j] == '"')) {
        size_t e = h.find(h[j], j + 1);
        if (e == std::string::npos) bad(what, "malformed string in the .npy header");
        return h.substr(i, e - i + 1);
    }
    while (j < h.size() && h[j] != ',' && h[j] != '}') ++j;
    std::string v = h.substr(i, j - i);
    while (!v.empty() && std::isspace(static_cast<unsigned char>(v.back()))) v.pop_back();
    return v;
}

DType dtype_of_descr(const std::string& d, const std::string& what) {
    if (d == "|i1" || d == "<i1" || d == "i1") return DType::int8;
    if (d == "|u1" || d == "<u1" || d == "u1") return DType::uint8;
    if (d == "<i2") return DType::int16;
    if (d == "<f2") return DType::fp16;
    if (d == "<f4") return DType::fp32;
    if (d == "<i4") return DType::int32;
    if (!d.empty() && d[0] == '>')
        bad(what,
            "big-endian dtype '" + d + "' is not supported; expected little-endian, " + kSupported);
    if (d.find('O') != std::string::npos)
        bad(what, "object arrays ('" + d + "') are not supported; expected " + kSupported);
    bad(what, "unsupported dtype '" + d + "'; expected " + kSupported);
}

Shape parse_shape_tuple(const std::string& t, const std::string& what) {
    if (t.size() < 2 || t.front() != '(' || t.back() != ')')
        bad(what, "malformed shape '" + t + "' in the .npy header; expected a tuple like (2, 3)");
    Shape s;
    std::string body = t.substr(1, t.size() - 2);
    std::stringstream ss(body);
    std::string tok;
    while (std::getline(ss, tok, ',')) {
        size_t a = tok.find_first_not_of(" \t\nL"), b = tok.find_last_not_of(" \t\nL");
        if (a == std::string::npos) continue;  // trailing comma: (3,)
        tok = tok.substr(a, b - a + 1);
        for (char c : tok)
            if (!std::isdigit(static_cast<unsigned char>(c)))
                bad(what, "malformed shape '" + t + "' in the .npy header");
        if (tok.size() > 18) bad(what, "dimension too large in shape " + t);
        s.push_back(std::stoll(tok));
    }
    return s;
}

int itemsize(DType t) {
    return bits(t) / 8;
}

}  // namespace

std::string npy_descr(DType t) {
    switch (t) {
        case DType::int8:
            return "|i1";
        case DType::uint8:
            return "|u1";
        case DType::int16:
            return "<i2";
        case DType::fp16:
            return "<f2";
        case DType::fp32:
            return "<f4";
        case DType::int32:
            return "<i4";
        default:
            break;
    }
    throw UsageError(std::string("dtype ") + name(t) +
                     " has no NumPy .npy equivalent; expected int8, uint8, int16, fp16, fp32 "
                     "or int32 for .npy input/output");
}

NpyHeader parse_npy_header(const std::string& bytes, const std::string& what) {
    if (bytes.size() < 10 || bytes.compare(0, 6, kMagic, 6) != 0)
        bad(what, "not a .npy file (bad magic string); expected a file written by numpy.save");
    const auto major = static_cast<uint8_t>(bytes[6]);
    size_t hlen = 0, start = 0;
    if (major == 1) {
        hlen = static_cast<uint8_t>(bytes[8]) |
               (static_cast<size_t>(static_cast<uint8_t>(bytes[9])) << 8);
        start = 10;
    } else if (major == 2 || major == 3) {
        if (bytes.size() < 12) bad(what, "truncated .npy header");
        hlen = 0;
        for (int i = 0; i < 4; ++i)
            hlen |= static_cast<size_t>(static_cast<uint8_t>(bytes[8 + static_cast<size_t>(i)]))
                    << (8 * i);
        start = 12;
    } else {
        bad(what, ".npy format version " + std::to_string(major) +
                      " is not supported; expected version 1.0 or 2.0");
    }
    if (hlen > size_t(kMaxNpyHeaderBytes))
        bad(what, ".npy header of " + std::to_string(hlen) + " bytes is over the limit of " +
                      std::to_string(kMaxNpyHeaderBytes) +
                      "; expected a file written by numpy.save");
    if (bytes.size() < start + hlen) bad(what, "truncated .npy header");
    const std::string h = bytes.substr(start, hlen);
    NpyHeader a;
    std::string descr = dict_value(h, "descr", what);
    if (descr.size() < 2 || (descr.front() != '\'' && descr.front() != '"'))
        bad(what, "unsupported dtype " + descr + "; expected " + kSupported);
    a.dtype = dtype_of_descr(descr.substr(1, descr.size() - 2), what);
    std::string fo = dict_value(h, "fortran_order", what);
    if (fo == "True")
        bad(what, "fortran_order is True; expected a C-order array (numpy.ascontiguousarray)");
    if (fo != "False") bad(what, "malformed fortran_order '" + fo + "' in the .npy header");
    a.shape = parse_shape_tuple(dict_value(h, "shape", what), what);
    int64_t n = 0;
    try {
        check_rank(a.shape.size(), "shape");
        n = numel(a.shape);
    } catch (const UsageError& e) {
        bad(what, e.what());
    }
    a.data_offset = int64_t(start + hlen);
    a.data_bytes = n * itemsize(a.dtype);
    return a;
}

NpyArray parse_npy(const std::string& bytes, const std::string& what) {
    const NpyHeader hd = parse_npy_header(bytes, what);
    const size_t start = size_t(hd.data_offset);
    const size_t want = size_t(hd.data_bytes);
    const size_t have = bytes.size() - start;
    if (have < want)
        bad(what, "truncated data: " + std::to_string(have) + " bytes for shape " +
                      to_string(hd.shape) + ", expected " + std::to_string(want));
    if (have > want)
        bad(what, std::to_string(have - want) + " unexpected bytes after the data; expected " +
                      std::to_string(want) + " bytes for shape " + to_string(hd.shape));
    NpyArray a;
    a.dtype = hd.dtype;
    a.shape = hd.shape;
    a.data.assign(bytes.begin() + static_cast<std::ptrdiff_t>(start), bytes.end());
    return a;
}

NpyArray read_npy(const std::string& path, int64_t max_bytes) {
    InputFile f(path, "", max_bytes);
    // The header first (magic, version, length, dict), then the size check
    // against the file, and only then the data.
    std::string head = f.read(std::min<int64_t>(f.size(), 12));
    if (head.size() >= 10 && head.compare(0, 6, kMagic, 6) == 0) {
        const auto major = static_cast<uint8_t>(head[6]);
        int64_t hlen = 0, start = 10;
        if (major == 1) {
            hlen = static_cast<uint8_t>(head[8]) | (int64_t(static_cast<uint8_t>(head[9])) << 8);
        } else if (head.size() >= 12) {
            for (int i = 0; i < 4; ++i)
                hlen |= int64_t(static_cast<uint8_t>(head[8 + size_t(i)])) << (8 * i);
            start = 12;
        }
        const int64_t want_head = std::min(start + std::min(hlen, kMaxNpyHeaderBytes), f.size());
        if (want_head > int64_t(head.size())) head += f.read(want_head - int64_t(head.size()));
    }
    const NpyHeader hd = parse_npy_header(head, path);
    const int64_t have = f.size() - hd.data_offset;
    if (have < hd.data_bytes)
        bad(path, "truncated data: " + std::to_string(have) + " bytes for shape " +
                      to_string(hd.shape) + ", expected " + std::to_string(hd.data_bytes));
    if (have > hd.data_bytes)
        bad(path, std::to_string(have - hd.data_bytes) +
                      " unexpected bytes after the data; expected " +
                      std::to_string(hd.data_bytes) + " bytes for shape " + to_string(hd.shape));
    NpyArray a;
    a.dtype = hd.dtype;
    a.shape = hd.shape;
    a.data.resize(static_cast<size_t>(hd.data_bytes));  // read straight in: no copy
    f.read_into(a.data.data(), hd.data_bytes);
    return a;
}

namespace {

// The magic string, version, header length and header dict of a file
// holding `size` bytes of t in `shape`: what precedes the data.
std::string npy_header(DType t, const Shape& shape, size_t size) {
    const std::string descr = npy_descr(t);
    const size_t want = static_cast<size_t>(numel(shape)) * static_cast<size_t>(itemsize(t));
    if (size != want)
        throw std::invalid_argument("npy_bytes: data size does not match shape and dtype");
    std::string sh = "(";
    for (size_t i = 0; i < shape.size(); ++i) sh += (i ? ", " : "") + std::to_string(shape[i]);
    if (shape.size() == 1) sh += ",";
    sh += ")";
    std::string h = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + sh + ", }";
    // Pad so that the data starts at a multiple of 64 bytes, header ends in '\n'.
    size_t pre = 10;
    if (h.size() + 1 + pre > 65535 + pre) pre = 12;
    const size_t total = (pre + h.size() + 1 + 63) / 64 * 64;
    h.append(total - pre - h.size() - 1, ' ');
    h += '\n';
    std::string out(kMagic, 6);
    out += static_cast<char>(pre == 10 ? 1 : 2);
    out += '\0';
    const size_t hl = h.size();
    out += static_cast<char>(hl & 0xFF);
    out += static_cast<char>((hl >> 8) & 0xFF);
    if (pre == 12) {
        out += static_cast<char>((hl >> 16) & 0xFF);
        out += static_cast<char>((hl >> 24) & 0xFF);
    }
    out += h;
    return out;
}

}  // namespace

std::string npy_bytes(DType t, const Shape& shape, const void* data, size_t size) {
    std::string out = npy_header(t, shape, size);
    out.append(static_cast<const char*>(data), size);
    return out;
}

void write_npy(const std::string& path, DType t, const Shape& shape, const void* data,
               size_t size) {
    // the header, then the data where it lies: no copy of the tensor
    const std::string head = npy_header(t, shape, size);
    write_file_atomic(path, {FilePiece{head.data(), head.size()}, FilePiece{data, size}});
}

}  // namespace ll
