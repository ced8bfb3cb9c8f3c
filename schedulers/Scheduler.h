// The scheduler interface (docs/schedulers.md, "The scheduler interface"):
// a scheduler has a name and decides
// whether it can compute a segment. The segmenter gives each segment to the
// first scheduler, in priority order, that accepts it.
//
// A rejection is a sentence a user can act on, naming the values involved:
// "'t19' (sum) is a reduction". Dumps print it after the scheduler's name
// ("pointwise: 't19' (sum) is a reduction"), so it does not repeat it.
//
// Parameter selection and kernel emission are not part of this interface:
// the code generator (FusionCodegen.h) has one for each built-in scheduler,
// chosen by name, and refuses a segment whose scheduler has none (a
// plugin's), saying it cannot be compiled yet.
//
// Plugins derive from Scheduler too (schedulers/Plugin.h): keep this class
// binary-compatible within one FUSERC_PLUGIN_ABI_VERSION.
#pragma once

#include "schedulers/Segment.h"

#include <string>
#include <string_view>
#include <utility>

namespace fuserc {

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
  // Meant as the hook of the code generator: whether this scheduler can
  // select parameters and emit CUDA C++ itself. Not consulted yet: the code
  // generator goes by the scheduler's name (see above).
  virtual bool emitsKernels() const { return false; }
};

} // namespace fuserc
