#include "core/exec/buffer.hpp"

#include <vector>

#include "core/error.hpp"

namespace ll::exec {

namespace {
struct P {
    Buffer src, dst;
    Op op;
};
const std::vector<P>& paths() {
    static const std::vector<P> v = {
        {Buffer::GM, Buffer::A1, Op::load2d}, {Buffer::GM, Buffer::B1, Op::load2d},
        {Buffer::GM, Buffer::A2, Op::load2d}, {Buffer::GM, Buffer::B2, Op::load2d},
        {Buffer::A1, Buffer::A2, Op::load2d}, {Buffer::B1, Buffer::B2, Op::load2d},
        {Buffer::A1, Buffer::A2, Op::load3d}, {Buffer::B1, Buffer::B2, Op::load3d},
        {Buffer::A2, Buffer::CO1, Op::mmad},  {Buffer::B2, Buffer::CO1, Op::mmad},
        {Buffer::CO1, Buffer::GM, Op::out},
    };
    return v;
}
}  // namespace

const char* name(Buffer b) {
    switch (b) {
        case Buffer::GM:
            return "GM";
        case Buffer::A1:
            return "A1";
        case Buffer::B1:
            return "B1";
        case Buffer::A2:
            return "A2";
        case Buffer::B2:
            return "B2";
        case Buffer::CO1:
            return "CO1";
    }
    return "?";
}

const char* role(Buffer b) {
    switch (b) {
        case Buffer::GM:
            return "global memory (DDR/HBM)";
        case Buffer::A1:
            return "L1, left-matrix / feature-map side";
        case Buffer::B1:
            return "L1, right-matrix / weight side";
        case Buffer::A2:
            return "L0A, the Cube's left input";
        case Buffer::B2:
            return "L0B, the Cube's right input";
        case Buffer::CO1:
            return "L0C, the Cube's accumulator";
    }
    return "?";
}

const char* required_format(Buffer b) {
    switch (b) {
        case Buffer::GM:
            return "any (ND, NCHW, NC1HWC0, ...)";
        case Buffer::A1:
        case Buffer::B1:
            return "any, usually NZ";
        case Buffer::A2:
            return "ZZ (big Z, small Z); NZ also accepted by Load2D";
        case Buffer::B2:
            return "ZN (big Z, small N)";
        case Buffer::CO1:
            return "NZ (big N, small Z)";
    }
    return "?";
}

const char* name(Op op) {
    switch (op) {
        case Op::load2d:
            return "Load2D";
        case Op::load3d:
            return "Load3D";
        case Op::mmad:
            return "Mmad";
        case Op::out:
            return "move out";
    }
    return "?";
}

Buffer buffer_from_name(const std::string& s) {
    if (s == "GM") return Buffer::GM;
    if (s == "A1" || s == "L1A") return Buffer::A1;
    if (s == "B1" || s == "L1B") return Buffer::B1;
    if (s == "A2" || s == "L0A") return Buffer::A2;
    if (s == "B2" || s == "L0B") return Buffer::B2;
    if (s == "CO1" || s == "L0C") return Buffer::CO1;
    throw UsageError("unknown buffer '" + s + "'; expected one of GM, A1, B1, A2, B2, CO1");
}

bool path_allowed(Buffer src, Buffer dst, Op op) {
    for (const auto& p : paths())
        if (p.src == src && p.dst == dst && p.op == op) return true;
    return false;
}

std::string path_names(Op op) {
    std::string s;
    for (const auto& p : paths()) {
        if (p.op != op) continue;
        if (!s.empty()) s += ", ";
        s += std::string(name(p.src)) + "->" + name(p.dst);
    }
    return s;
}

void check_path(Buffer src, Buffer dst, Op op) {
    if (!path_allowed(src, dst, op))
        throw UsageError(std::string("path ") + name(src) + "->" + name(dst) + " is not a " +
                         name(op) + " data path; expected one of " + path_names(op));
}

Path parse_path(const std::string& text, Op op) {
    auto pos = text.find("->");
    if (pos == std::string::npos)
        throw UsageError("path",
                         "'" + text + "' is not SRC->DST; expected one of " + path_names(op));
    Path p{buffer_from_name(text.substr(0, pos)), buffer_from_name(text.substr(pos + 2))};
    check_path(p.src, p.dst, op);
    return p;
}

}  // namespace ll::exec
