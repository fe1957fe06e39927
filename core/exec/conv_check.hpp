// The convolution pipeline run on seeded random numbers against the direct
// convolution: the check the CLI (`conv --check`) and the conv panel's "Run
// on real numbers" both report. fp16 data are half-rounded uniform values in
// [-1, 1] (the pipeline accumulates in fp32, the reference in double); int8
// data are uniform in -128..127 and must match exactly.
#pragma once

#include <cstdint>

#include "core/exec/conv.hpp"

namespace ll::exec {

struct ConvCheck {
    double pipeline_s = 0, direct_s = 0;  // wall time of each (steady clock)
    double max_abs_diff = 0;              // max |pipeline - direct|
    int64_t mismatches = 0;               // int8: elements that differ
    int64_t cube_ops = 0;                 // fractal multiplications run
};

// Throws UsageError when p is too big to run (check_runnable).
ConvCheck conv_check(const ConvParams& p, uint32_t seed = 1);

}  // namespace ll::exec
