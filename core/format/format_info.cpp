// What the `formats` listing says about each format: its logical axes, the
// conversion that introduces it, and the pipeline formula read off that
// conversion's steps (so the formula is the engine's, not a second copy).
#include <stdexcept>

#include "core/format/format.hpp"

namespace ll {

std::vector<std::string> axis_names(Format f) {
    switch (f) {
        case Format::ND:
            return {"..."};
        case Format::FRACTAL_NZ:
        case Format::ND_ALIGN:
            return {"...", "M", "N"};
        case Format::FRACTAL_ZZ:
            return {"...", "M", "K"};
        case Format::FRACTAL_ZN:
            return {"...", "K", "N"};
        case Format::NC1HWC0:
            return {"N", "H", "W", "C"};  // built from NHWC (or NCHW)
        case Format::FRACTAL_Z:
        case Format::NCHW16C:
        case Format::NCHW8H8W:
            return {"N", "C", "H", "W"};
        case Format::NDC1HWC0:
        case Format::FRACTAL_Z_3D:
            return {"N", "D", "H", "W", "C"};
        case Format::BNGS1S2:
            return {"B", "N", "G", "S1", "S2"};
        default:
            break;
    }
    std::vector<std::string> r;
    for (char c : axis_letters(f)) r.push_back(std::string(1, c));
    return r;
}

ConvertSpec example_conversion(Format f, DType t) {
    ConvertSpec s;
    s.dtype = t;
    s.to = f;
    switch (f) {
        case Format::FRACTAL_NZ:
        case Format::FRACTAL_ZZ:
        case Format::FRACTAL_ZN:
            s.from = Format::ND;
            s.shape = {2, 2, 28};  // document 000's worked example
            break;
        case Format::NC1HWC0:
            s.from = Format::NHWC;
            s.shape = {1, 4, 4, 20};
            break;
        case Format::FRACTAL_Z:
            s.from = Format::NCHW;
            s.shape = {20, 20, 3, 3};
            break;
        case Format::NCHW16C:
            s.from = Format::NCHW;
            s.shape = {1, 20, 2, 2};
            break;
        case Format::NCHW8H8W:
            s.from = Format::NCHW;
            s.shape = {1, 2, 10, 12};
            break;
        case Format::NDC1HWC0:
        case Format::FRACTAL_Z_3D:
            s.from = Format::NDHWC;
            s.shape = {20, 2, 3, 3, 20};
            break;
        case Format::ND_ALIGN:
            s.from = Format::ND;
            s.shape = {4, 7};  // document 000: int32 C with N = 7 -> 8
            break;
        case Format::BSH:
            s.from = Format::BSH;
            s.to = Format::BSNGD;
            s.shape = {2, 3, 8};
            s.heads = 2;
            s.groups = 1;
            break;
        case Format::SBH:
            s.from = Format::SBH;
            s.to = Format::SBNGD;
            s.shape = {3, 2, 8};
            s.heads = 2;
            s.groups = 1;
            break;
        case Format::BSNGD:
            s.from = f;
            s.to = Format::BMNK;
            s.shape = {2, 3, 2, 1, 4};
            break;
        case Format::SBNGD:
            s.from = f;
            s.to = Format::BMNK;
            s.shape = {3, 2, 2, 1, 4};
            break;
        case Format::BNGS1S2:
            s.from = f;
            s.to = Format::BMNK;
            s.shape = {2, 2, 1, 3, 3};
            break;
        case Format::BMNK:
            s.from = f;
            s.to = Format::FRACTAL_NZ;
            s.shape = {2, 3, 20};
            break;
        case Format::VECTOR:
            s.from = f;
            s.to = Format::FRACTAL_NZ;
            s.shape = {20};
            break;
        case Format::ND:
            s.from = f;
            s.shape = {2, 3};
            break;
        default:  // the other plain formats: themselves
            s.from = f;
            s.shape = Shape(static_cast<size_t>(plain_rank(f)), 2);
            break;
    }
    return s;
}

std::string pipeline_formula(Format f) {
    const ConvertSpec s = example_conversion(f);
    const Pipeline p = make_pipeline(s);
    auto join = [](const std::vector<std::string>& a) {
        std::string r = "(";
        for (size_t i = 0; i < a.size(); ++i) r += (i ? ", " : "") + a[i];
        return r + ")";
    };
    if (p.steps.empty()) return join(axis_names(f)) + ", row-major";
    std::string r = std::string(name(p.from)) + " -> " + name(p.to) + ": ";
    // Each caption is "(before) -> kind -> (after)"; chain them, writing
    // every intermediate tuple once.
    for (size_t i = 0; i < p.steps.size(); ++i) {
        const std::string& c = p.steps[i].caption;
        if (i == 0) {
            r += c;
            continue;
        }
        const size_t arrow = c.find(" -> ");
        r += arrow == std::string::npos ? " -> " + c : c.substr(arrow);
    }
    return r;
}

}  // namespace ll
