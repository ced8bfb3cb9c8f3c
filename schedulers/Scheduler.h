// The scheduler interface (docs/schedulers.md, "The scheduler interface"):
// a scheduler has a name and decides whether it can compute a segment. The segmenter gives each
// segment to the first scheduler, in priority order, that accepts it.
//
// A rejection is a sentence a user can act on, naming the values involved:
// "'t19' (sum) is a reduction". Dumps print it after the scheduler's name
// ("pointwise: 't19' (sum) is a reduction"), so it does not repeat it.
//
// A scheduler that claims segments also decides, once per segment after
// segmentation, its parameters: a typed Schedule (Schedule.h), which its
// kernel generator (KernelGenerator.h) turns into the kernel. Nothing else
// re-derives those decisions, and nothing dispatches on a scheduler's name.
//
// Plugins derive from Scheduler too (schedulers/Plugin.h): keep this class
// binary-compatible within one FUSERC_PLUGIN_ABI_VERSION.
#pragma once

#include "schedulers/Schedule.h"
#include "schedulers/Segment.h"

#include <memory>

#include <string>
#include <string_view>
#include <utility>

namespace fuserc {

class KernelGenerator;
struct ScheduledSegment;
struct SegmentedFusion;

// Accept, or reject with a reason.
class Verdict {
public:
  static Verdict accept() { return Verdict(true, {}); }
  static Verdict reject(std::string reason) { return Verdict(false, std::move(reason)); }

  bool accepted() const { return accepted_; }
  explicit operator bool() const { return accepted_; }
  // Empty when accepted.
  const std::string &reason() const { return reason_; }

private:
  Verdict(bool accepted, std::string reason) : accepted_(accepted), reason_(std::move(reason)) {}
  bool accepted_;
  std::string reason_;
};

class Scheduler {
public:
  virtual ~Scheduler() = default;

  // A short lower-case identifier, unique in the registry ("pointwise");
  // the name `--schedulers` and the dumps use.
  virtual std::string_view name() const = 0;
  // One line for people: what kind of kernel it makes.
  virtual std::string_view description() const = 0;

  // Whether this scheduler can compute every op of `segment` in one kernel
  // (or none, for view-only segments). Must be a pure function of the
  // segment: the segmenter caches and repeats calls.
  virtual Verdict canSchedule(const Segment &segment) const = 0;

  // False for schedulers whose segments need no kernel (views).
  virtual bool needsKernel() const { return true; }

  // The parameters of a kernel for `segment` of `fusion`, a segment this
  // scheduler accepted; called once, after segmentation, only when
  // needsKernel(). A pure function of its arguments.
  virtual std::unique_ptr<const Schedule> schedule(const SegmentedFusion &fusion,
                                                   const ScheduledSegment &segment) const = 0;
  // The generator of this scheduler's kernels; it receives the schedules
  // schedule() makes. Null when needsKernel() is false, or for a scheduler
  // that can claim segments but not compile them (fuserc then says so).
  virtual const KernelGenerator *generator() const = 0;
};

} // namespace fuserc
