#include "core/exec/report.hpp"

#include <iomanip>
#include <sstream>

#include "core/exec/cube.hpp"

namespace ll::exec {

nlohmann::json load_json(const LoadResult& r) {
    nlohmann::json j;
    j["fractal_rows"] = r.geom.rows;
    j["fractal_cols"] = r.geom.cols;
    j["fractal_elems"] = r.geom.elems();
    j["dst_fractals"] = r.dst_fractals();
    j["fractals"] = nlohmann::json::array();
    for (const auto& f : r.fractals)
        j["fractals"].push_back({{"iteration", f.iteration},
                                 {"src_fractal", f.src_fractal},
                                 {"dst_fractal", f.dst_fractal},
                                 {"transposed", f.transposed}});
    j["dst_of"] = r.dst_of;
    if (!r.dst_format.empty())
        j["dst_fractal"] = {{"format", r.dst_format}, {"rows", r.dst_rows}, {"cols", r.dst_cols}};
    if (!r.padded.empty()) {
        std::vector<int64_t> pads;
        for (size_t i = 0; i < r.padded.size(); ++i)
            if (r.padded[i]) pads.push_back(int64_t(i));
        j["padded"] = pads;
    }
    return j;
}

std::string load_text(const LoadResult& r, const char* src_word) {
    std::ostringstream os;
    for (const auto& f : r.fractals)
        os << "iteration " << f.iteration << ": " << src_word << " " << f.src_fractal
           << " -> dst fractal " << f.dst_fractal << (f.transposed ? " (transposed)" : "") << "\n";
    // Destination fractals: who filled each one (the last writer), or a gap.
    std::vector<int64_t> owner(size_t(r.dst_fractals()), -1);
    for (const auto& f : r.fractals) owner[size_t(f.dst_fractal)] = f.src_fractal;
    os << "dst:";
    for (size_t i = 0; i < owner.size(); ++i) {
        os << (i ? "  " : " ") << "[" << i << "]=";
        if (owner[i] < 0)
            os << "gap";
        else
            os << "src " << owner[i];
    }
    int64_t written = 0, pad = 0;
    for (int64_t s : r.dst_of) written += s >= 0;
    for (uint8_t b : r.padded) pad += b;
    os << "\n"
       << r.dst_of.size() << " destination elements (" << r.dst_fractals() << " fractals of "
       << r.geom.rows << "x" << r.geom.cols << "), " << written << " written, ";
    if (!r.padded.empty()) os << pad << " padding (padValue), ";
    os << int64_t(r.dst_of.size()) - written - pad << " untouched\n";
    if (!r.dst_format.empty())
        os << "destination fractals: " << r.dst_format << ", " << r.dst_rows << " x " << r.dst_cols
           << (r.dst_format == "ZN" ? " (K0 = 32 B / sizeof x N0 = 16, as document 001 writes B2)"
                                    : " (16 x 32 B / sizeof)")
           << "\n";
    return os.str();
}

nlohmann::json conv_json(const ConvParams& p, const ConvShapes& s) {
    nlohmann::json j;
    j["params"] = {{"n", p.n},
                   {"cin", p.cin},
                   {"cout", p.cout},
                   {"h", p.h},
                   {"w", p.w},
                   {"kh", p.win.kh},
                   {"kw", p.win.kw},
                   {"stride", {p.win.stride_h, p.win.stride_w}},
                   {"dilation", {p.win.dil_h, p.win.dil_w}},
                   {"pad", {p.win.pad_top, p.win.pad_bottom, p.win.pad_left, p.win.pad_right}},
                   {"dtype", name(p.dtype)},
                   {"c0", p.c0()},
                   {"ho", p.out_h()},
                   {"wo", p.out_w()}};
    j["stages"] = nlohmann::json::array();
    for (const auto& st : s.stages) {
        j[st.key] = st.shape;
        j["stages"].push_back(
            {{"key", st.key}, {"title", st.title}, {"shape", st.shape}, {"note", st.note}});
    }
    j["cube_ops"] = s.cube_ops;
    j["cube_loop"] = {{"order", "K,N,M"}, {"k1", s.k1}, {"n1", s.n1}, {"m1", s.m1}};
    CubeShape c = cube_shape(p.dtype);
    j["cube_step"] = {c.m0, c.k0, c.n0};
    j["macs"] = s.cube_ops * c.m0 * c.k0 * c.n0;
    j["lecture_multiplications"] = lecture_multiplications(p);
    j["lecture_formula"] = "Kh*Kw*Ho*Wo*Cin*Cout*N";
    return j;
}

std::string conv_text(const ConvParams& p, const ConvShapes& s) {
    std::ostringstream os;
    CubeShape c = cube_shape(p.dtype);
    os << "conv " << name(p.dtype) << ": N " << p.n << ", Cin " << p.cin << ", Cout " << p.cout
       << ", " << p.h << "x" << p.w << ", kernel " << p.win.kh << "x" << p.win.kw << ", stride "
       << p.win.stride_h << "," << p.win.stride_w << ", dilation " << p.win.dil_h << ","
       << p.win.dil_w << ", pad t" << p.win.pad_top << " b" << p.win.pad_bottom << " l"
       << p.win.pad_left << " r" << p.win.pad_right << " -> " << p.out_h() << "x" << p.out_w()
       << "\n\n";
    size_t width = 0;
    for (const auto& st : s.stages) width = std::max(width, st.title.size());
    for (const auto& st : s.stages)
        os << "  " << std::left << std::setw(int(width)) << st.title << "  " << std::setw(20)
           << ll::to_string(st.shape) << "  " << st.note << "\n";
    os << "\nCube loop (K -> N -> M): for k < " << s.k1 << ", n < " << s.n1 << ", m < " << s.m1
       << ": C[n][m] += A[m][k] x B[k][n]\n"
       << "  " << s.cube_ops << " fractal multiplications of " << c.m0 << "x" << c.k0 << " by "
       << c.k0 << "x" << c.n0 << " (" << s.cube_ops * c.m0 * c.k0 * c.n0 << " MACs), "
       << (p.dtype == DType::fp16 ? "fp16 in, fp32 accumulate" : "int8 in, int32 accumulate")
       << "\n";
    os << "\nmultiplications (document 004's count, no padding): Kh x Kw x Ho x Wo x Cin x Cout x N"
       << " = " << p.win.kh << " x " << p.win.kw << " x " << p.out_h() << " x " << p.out_w()
       << " x " << p.cin << " x " << p.cout << " x " << p.n << " = " << lecture_multiplications(p)
       << "\n";
    return os.str();
}

}  // namespace ll::exec
