// The example plugin's two parts, one file each: the f32_elementwise
// scheduler (F32ElementwiseScheduler.cpp) and the generator of its kernels
// (F32ElementwiseGenerator.cpp).
#pragma once

#include "schedulers/KernelGenerator.h"

namespace example {

// The generator of f32_elementwise kernels; lives as long as the process.
const fuserc::KernelGenerator &f32ElementwiseGenerator();

} // namespace example
