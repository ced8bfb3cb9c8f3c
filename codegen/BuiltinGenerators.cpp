// The built-in kernel generators (see BuiltinGenerators.h): each checks
// that it was handed its own family's schedule, then runs the family's
// emitter.
#include "codegen/BuiltinGenerators.h"

#include "codegen/columns/ColumnReductionKernel.h"
#include "codegen/pointwise/PointwiseKernel.h"
#include "codegen/rows/RowReductionKernel.h"
#include "codegen/scans/ScanKernel.h"
#include "codegen/transpose/TransposeKernel.h"
#include "schedulers/BuiltinSchedules.h"

namespace fuserc {
namespace {

template <typename S> const S &scheduleAs(const KernelRequest &request, std::string_view family) {
  const auto *schedule = dynamic_cast<const S *>(request.segment.schedule.get());
  if (!schedule || (!family.empty() && schedule->family() != family))
    throw CodegenError("internal: segment " + std::to_string(request.segment.id) +
                       " has no schedule of its generator's kind");
  return *schedule;
}

class PointwiseGenerator final : public KernelGenerator {
public:
  EmittedKernel generate(const KernelRequest &request) const override {
    EmittedKernel kernel =
        emitPointwiseKernel(request, scheduleAs<IterationSchedule>(request, "pointwise"));
    kernel.hostHelpers["pointwise"] = pointwiseHostHelpers();
    return kernel;
  }
};

class TransposeGenerator final : public KernelGenerator {
public:
  EmittedKernel generate(const KernelRequest &request) const override {
    EmittedKernel kernel =
        emitTransposeKernel(request, scheduleAs<IterationSchedule>(request, "transpose"));
    kernel.hostHelpers["pointwise"] = pointwiseHostHelpers(); // its host block uses them
    return kernel;
  }
};

class ReductionGenerator final : public KernelGenerator {
public:
  EmittedKernel generate(const KernelRequest &request) const override {
    const ReductionSchedule &schedule = scheduleAs<ReductionSchedule>(request, "");
    if (schedule.kind == ReductionSchedule::Family::Rows)
      return emitRowReductionKernel(request, schedule);
    EmittedKernel kernel = emitColumnReductionKernel(request, schedule);
    kernel.hostHelpers["reduction_columns"] = columnReductionHostHelpers();
    return kernel;
  }
};

class ScanGenerator final : public KernelGenerator {
public:
  EmittedKernel generate(const KernelRequest &request) const override {
    return emitScanKernel(request, scheduleAs<ScanSchedule>(request, "scan"));
  }
};

} // namespace

const BuiltinGenerators &builtinGenerators() {
  static const PointwiseGenerator pointwise;
  static const TransposeGenerator transpose;
  static const ReductionGenerator reduction;
  static const ScanGenerator scan;
  static const BuiltinGenerators generators{&pointwise, &transpose, &reduction, &scan};
  return generators;
}

} // namespace fuserc
