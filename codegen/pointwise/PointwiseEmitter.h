// Internal to the pointwise generator (PointwiseKernel.h): the emitter that
// writes a segment's kernels. PointwiseEmitter.cpp collects the segment's
// tensors, decides which variants exist and writes the vec<V>, flat<V> and
// gen kernels (the rvec<V> ones come from PointwiseResizeVariant.h, the
// svec<V> ones from PointwiseStraddleVariant.cpp);
// PointwisePlan.cpp writes the argument struct, the host launch block that
// picks a variant, and the plan.
#pragma once

#include "codegen/core/KernelContext.h"
#include "codegen/core/KernelTensors.h"
#include "codegen/core/ValueEmitter.h"
#include "codegen/core/VariantHook.h"
#include "codegen/pointwise/PointwiseResizeVariant.h"
#include "schedulers/KernelPlan.h"
#include "schedulers/TwoPassScatter.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace fuserc::pointwise {

inline constexpr int kMaxRank = 8;
inline constexpr int kBlock = 256;
// Vectors per thread per step in the vec variants, one block per 256
// vectors: more vectors per thread cost occupancy and waves; other block
// sizes, store kinds and grids looping over the vectors were no faster
// (bench/README.md, "Measurements behind the code's constants").
inline constexpr int kUnroll = 1;

class PointwiseEmitter : public InputReader {
public:
  PointwiseEmitter(const KernelContext &cx, const IterationSchedule &schedule);
  EmittedKernel run();
  InputRead read(const Value &input, const Coords &coords) override;

private:
  // The segment and its variants (PointwiseEmitter.cpp).
  bool rvec() const;
  bool flat() const;
  std::vector<int> vectorWidths() const;
  void collectTensors();
  size_t tensorIndex(const Value &v, bool written) const;
  std::vector<std::string> symbols() const;
  std::string kernelName(const std::string &variant, bool wide) const;

  // The kernels (PointwiseEmitter.cpp): vec<V> and flat<V> (`dense`), gen.
  std::string indexTypedef(bool wide) const;
  std::string fastKernel(int vector, bool wide, bool dense);
  std::string generalKernel(bool wide);
  std::string ownElement(size_t t) const;

  // svec<V>: vectors of the iteration that may straddle rows
  // (PointwiseStraddleVariant.cpp).
  bool straddle() const;
  void planStraddle();
  std::string straddleStep(const std::string &pad) const;
  std::string straddleKernel(bool wide);
  std::string straddleHostSelect() const;
  static std::string decomposeLinear(const std::vector<size_t> &dims, const std::string &name,
                                     const std::string &sizes, const std::string &magic, bool wide,
                                     const std::string &pad);
  std::string storedValue(ValueEmitter &emitter, size_t t, const Coords &coords);
  static DType mathOf(const Value &v);
  DType storageMath(size_t t) const;

  // A two-pass scatter (PointwiseScatterPass.cpp): which ops and tensors
  // the fill computes and reads, the update pass's kernels and launches.
  std::vector<const Op *> splitAtScatter(const std::vector<const Op *> &ops);
  bool fillReads(size_t t) const;
  // The written tensors the update pass recomputes: the scatter's result
  // and the values computed from it.
  std::vector<size_t> scatterUpdatedTensors() const;
  std::string scatterKernel(bool wide);
  std::string scatterLaterWriter(int firstName, const std::string &pad);
  std::string scatterTarget(const std::string &target, const std::string &report,
                            const std::string &pad) const;
  std::string scatterKernels();
  std::string scatterArgsMembers() const;
  std::string scatterHostLaunch() const;
  std::string scatterOnlyHostLaunch() const;
  // The testing hook's alternative that runs claims where scan mode would.
  static ForcedVariant scatterClaimsAlternative() { return {"", "claims_only = 1;\n"}; }
  // Phase 2 by vectors of a row (PointwiseScatterRows.cpp).
  int scatterRowLanes() const;
  std::string scatterRowKernel(bool wide);
  std::string scatterRowSelect() const;
  bool updatesBackgroundInPlace() const;
  void addScatterToPlan(KernelPlan &plan) const;

  // The host side (PointwisePlan.cpp): the argument struct, the launch
  // block, the plan.
  std::string argsStruct(const std::string &prefix) const;
  std::string hostLaunch() const;
  std::string workStatement() const;
  std::string forcedVariants() const;
  void fillPlan(KernelPlan &plan) const;

  const KernelContext &cx_;
  const IterationSchedule &schedule_;
  std::vector<KernelTensor> tensors_;
  std::vector<const Value *> scalars_;
  std::vector<const Value *> throughOps_; // computed from tensors outside the segment
  const Value *reference_ = nullptr;
  size_t rank_ = 0;
  Layout order_;
  bool fast_ = false;
  int vmax_ = 1;
  int lanes_ = 0; // vec variants: reads come from registers, vectors of lanes_ elements
  std::optional<ResizeVectorVariant> resize_; // segments that need coordinates
  std::optional<TwoPassScatter> scatter_;     // the segment's two-pass scatter
  std::set<const Value *> fillLoads_;         // with one: the values the fill loads
  bool lineConstant_ = false;                 // its index is the same on every line
  bool fillIsIdentity_ = false;               // it updates its background in place
  std::set<size_t> rowVectorTensors_;         // moved by vector in its row variant
  std::set<size_t> straddleVectors_;          // svec: the tensors moved by vector
  bool straddling_ = false;                   // emitting svec's lanes
};

} // namespace fuserc::pointwise
