// The Da Vinci AI Core's buffers and the data paths between them.
//
// Contract: a buffer has a name and the fractal format the Cube requires of
// what sits in it; check_path(src, dst, op) throws UsageError unless `op` can
// move data that way. Worked example:
//   check_path(Buffer::A1, Buffer::A2, Op::load2d)  // fine (L1 -> L0A)
//   check_path(Buffer::A1, Buffer::B2, Op::load2d)  // throws: "path A1->B2 ..."
// Paths (document 001 and the lecture's data path):
//   Load2D:  GM->A1, GM->B1, GM->A2, GM->B2, A1->A2, B1->B2
//   Load3D (img2col): A1->A2, B1->B2
//   Mmad:    A2 x B2 -> CO1
//   out:     CO1 -> GM (padding removed, back to NC1HWC0)
#pragma once

#include <string>

namespace ll::exec {

enum class Buffer { GM, A1, B1, A2, B2, CO1 };
enum class Op { load2d, load3d, mmad, out };

const char* name(Buffer b);
const char* role(Buffer b);                     // "L1 for the left matrix", ...
const char* required_format(Buffer b);          // A2: "ZZ", B2: "ZN", CO1: "NZ", ...
Buffer buffer_from_name(const std::string& s);  // "A1", "L0A" aliases; UsageError
const char* name(Op op);

bool path_allowed(Buffer src, Buffer dst, Op op);
void check_path(Buffer src, Buffer dst, Op op);

// "A1->A2" -> {A1, A2}; throws UsageError naming the accepted paths.
struct Path {
    Buffer src, dst;
};
Path parse_path(const std::string& text, Op op);
std::string path_names(Op op);  // "GM->A1, GM->B1, ..."

}  // namespace ll::exec
