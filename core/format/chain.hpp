// Conversions the explorer and `convert --via` show as one picture: a chain
// of pipelines through plain formats, and a picture as a tensor.
//
// conversion_chain: spec.from -> via -> spec.to when `via` is given (it must
//   be a plain format), else one pipeline. The second pipeline's logical
//   shape is the first one's destination. Example: NCHW (1,3,4,4) via NHWC to
//   NC1HWC0 fp16 gives two pipelines, dst shapes (1,4,4,3) and (1,1,4,4,16).
// image_tensor_shape / image_tensor_values: an RGB picture of h rows and w
//   columns (pixels row-major, 3 bytes each) as an NCHW (1,3,h,w) or NHWC
//   (1,h,w,3) tensor of its 0..255 values, in the format's own order.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/format/format.hpp"

namespace ll {

// Throws UsageError (key "via") when `via` is not plain; the pipelines' own
// errors otherwise.
std::vector<Pipeline> conversion_chain(const ConvertSpec& spec, std::optional<Format> via);

// Throws UsageError (key "image") unless f is NCHW or NHWC.
Shape image_tensor_shape(Format f, int64_t h, int64_t w);
std::vector<uint8_t> image_tensor_values(Format f, const uint8_t* rgb, int64_t h, int64_t w);

}  // namespace ll
