// The kernel generator interface: what turns a scheduler's schedule for a
// segment into a kernel. Each scheduler names its generator
// (Scheduler::generator); built-in generators live in codegen/, a plugin's
// in the plugin (schedulers/Plugin.h). Code generation hands each segment
// to its scheduler's generator, with the schedule that scheduler made.
#pragma once

#include "schedulers/KernelPlan.h"
#include "schedulers/Schedule.h"
#include "schedulers/SegmentedFusion.h"

#include <map>
#include <stdexcept>
#include <string>

namespace fuserc {

// Where each tensor passed between segments lives in the workspace
// (KernelPlan.h): its byte offset from `ws`, symbolic.
using WorkspaceOffsets = std::map<const Value *, Extent>;

// How many variants a generator compiles per kernel (--variants). Every
// level covers every shape the kernel accepts; fewer variants build faster
// and may run slower at some shapes.
//   Minimal: the fewest that cover every shape (the general variants).
//   Default: every variant that measured faster somewhere, numbers that
//            only size the launch (threads per row) passed at launch.
//   All:     Default with those numbers compiled in, a variant per value.
enum class VariantBudget { Minimal, Default, All };

// "minimal", "default", "all".
inline const char *variantBudgetName(VariantBudget budget) {
  return budget == VariantBudget::Minimal ? "minimal"
         : budget == VariantBudget::All   ? "all"
                                          : "default";
}

// One segment to generate, with everything its kernel may use.
struct KernelRequest {
  const SegmentedFusion &fusion;
  const ScheduledSegment &segment; // segment.schedule is the scheduler's schedule
  const WorkspaceOffsets &workspace;
  // Where the fusion's shared scratch area starts in the workspace
  // (KernelPlan.h); a kernel that needs scratch says how much in
  // KernelPlan::scratchBytes.
  Extent scratchOffset;
  VariantBudget variants = VariantBudget::Default;
};

// Thrown by a generator for a segment it cannot compile: the message says
// which op or segment and why ("rank 9 is above the supported 8"), for the
// user; fuserc adds the segment and exits with the internal-error code.
class CodegenError : public std::runtime_error {
public:
  explicit CodegenError(const std::string &message) : std::runtime_error(message) {}
};

class KernelGenerator {
public:
  virtual ~KernelGenerator() = default;
  // The kernel for `request.segment`. Must be deterministic: the same
  // request gives the same bytes.
  virtual EmittedKernel generate(const KernelRequest &request) const = 0;
};

} // namespace fuserc
