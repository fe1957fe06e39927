#include "core/format/chain.hpp"

#include "core/error.hpp"

namespace ll {

std::vector<Pipeline> conversion_chain(const ConvertSpec& spec, std::optional<Format> via) {
    if (!via) return {make_pipeline(spec)};
    if (!is_plain(*via))
        throw UsageError(
            "via", std::string("'") + name(*via) + "' is not a plain format; expected e.g. NHWC");
    ConvertSpec first = spec, second = spec;
    first.to = *via;
    std::vector<Pipeline> chain{make_pipeline(first)};
    second.from = *via;
    second.shape = chain[0].dst_shape;
    // Heads, groups and a source fractal describe the first format only.
    second.heads = second.groups = 0;
    second.src_fractal_rows = second.src_fractal_cols = 0;
    chain.push_back(make_pipeline(second));
    return chain;
}

Shape image_tensor_shape(Format f, int64_t h, int64_t w) {
    if (f == Format::NCHW) return {1, 3, h, w};
    if (f == Format::NHWC) return {1, h, w, 3};
    throw UsageError("image", std::string("a picture is an NCHW or NHWC tensor, not ") + name(f) +
                                  "; expected a source format NCHW or NHWC");
}

std::vector<uint8_t> image_tensor_values(Format f, const uint8_t* rgb, int64_t h, int64_t w) {
    const bool nchw = f == Format::NCHW;
    image_tensor_shape(f, h, w);  // validates f
    std::vector<uint8_t> v(size_t(3 * h * w));
    for (int64_t y = 0; y < h; ++y)
        for (int64_t x = 0; x < w; ++x)
            for (int64_t c = 0; c < 3; ++c) {
                size_t dst = nchw ? size_t((c * h + y) * w + x) : size_t((y * w + x) * 3 + c);
                v[dst] = rgb[size_t((y * w + x) * 3 + c)];
            }
    return v;
}

}  // namespace ll
