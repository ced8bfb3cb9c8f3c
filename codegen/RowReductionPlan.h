// Internal to the row reduction generator (RowReductionKernel.h): the
// variants, the tensors a kernel reads and writes, and what the kernel
// emitter hands the host side, which writes the argument struct, the host
// launch block (variant selection by row length) and the KernelPlan.
#pragma once

#include "codegen/KernelPlan.h"
#include "codegen/KernelTensors.h"
#include "schedulers/SchedulerChecks.h"

#include <string>
#include <vector>

namespace fuserc {

inline constexpr int kRowMaxRank = 8;

// One kernel variant: `threads` per row, `items` elements per thread held
// in registers (0: looped over the row), `rowsPerBlock` rows per block.
struct RowVariant {
  const char *suffix;
  int threads;
  int items;
  int rowsPerBlock;

  int block() const { return threads * rowsPerBlock; }
  int64_t maxLength() const { return static_cast<int64_t>(threads) * items; }
  bool looped() const { return items == 0; }
};

// Ordered as the host tries them: the first persistent variant whose
// capacity holds the row wins, the looped one takes the rest (and L == 0).
inline constexpr RowVariant kRowVariants[] = {
    {"warp32x4", 32, 4, 4},        {"block256x4", 256, 4, 1}, {"block512x16", 512, 16, 1},
    {"block1024x16", 1024, 16, 1}, {"loop512", 512, 0, 1},
};

// One tensor the kernel reads or writes, and whether it holds one element
// per row (a reduced shape) rather than one per row element.
struct RowTensor : KernelTensor {
  bool perRow = false;
};

struct RowKernel {
  const SegmentedFusion *fusion = nullptr;
  const ScheduledSegment *segment = nullptr;
  std::string base; // "<fusion>_k<segment>"
  ReductionRows rows;
  std::vector<size_t> keptDims, reducedDims; // memory order, outermost first
  std::vector<RowTensor> tensors;            // inputs, then written outputs
  std::vector<const Value *> scalars;
};

std::string rowKernelName(const RowKernel &k, const RowVariant &v);
// The argument struct; `prefix` names it in host code (FUSERC_NAME_...).
std::string rowArgsStruct(const RowKernel &k, const std::string &prefix);
// Everything but the source: parameters, variants, selection, host launch.
void fillRowPlan(const RowKernel &k, KernelPlan &plan);

} // namespace fuserc
