// The scheduler registry: every scheduler fuserc knows, in registration
// order, each with where it came from (built-in or a plugin's path).
//
// Built-ins are registered by registerBuiltinSchedulers, in this order,
// which is also the default priority (first accept wins):
//
//   alias          view-only segments: no kernel at all, so it goes first;
//   normalization  a reduction broadcast back over its rows (persistent);
//   reduction      reductions whose outputs are all reduced;
//   scan           cumsum / cumprod, which no other built-in accepts;
//   transpose      inputs and outputs disagree on the innermost dimension;
//   pointwise      everything else without a reduction.
//
// normalization and reduction accept disjoint segments; transpose must come
// before pointwise, which would also accept a transposing segment, but with
// uncoalesced memory accesses. Plugin schedulers come after the built-ins;
// `--schedulers` restricts and reorders (select()).
//
// There is no global registry: the driver owns one per run.
#pragma once

#include "schedulers/Scheduler.h"

#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace fuserc {

class SchedulerRegistry {
public:
  // Adds `scheduler` with the current origin. A name already registered is
  // refused (the registry is unchanged) and the refusal recorded in errors().
  bool add(std::unique_ptr<Scheduler> scheduler);

  const Scheduler *find(std::string_view name) const;
  // "built-in", or the path of the plugin that registered it.
  std::string_view origin(std::string_view name) const;
  // Every scheduler, in registration order.
  std::vector<const Scheduler *> all() const;
  // "alias,normalization,..." in registration order.
  std::string namesList() const;

  // The origin recorded for the next add() calls (the plugin loader sets it).
  void setOrigin(std::string origin) { origin_ = std::move(origin); }
  // What add() refused, as sentences, in order.
  const std::vector<std::string> &errors() const { return errors_; }
  void clearErrors() { errors_.clear(); }

  // The schedulers a `--schedulers` list names, in its order; every
  // scheduler in registration order when the list is empty. An unknown or
  // repeated name gives a message listing the known ones instead.
  std::variant<std::vector<const Scheduler *>, std::string>
  select(const std::vector<std::string> &names) const;

private:
  struct Entry {
    std::unique_ptr<Scheduler> scheduler;
    std::string origin;
  };
  const Entry *findEntry(std::string_view name) const;

  std::vector<Entry> entries_;
  std::string origin_ = "built-in";
  std::vector<std::string> errors_;
};

// The generators of the built-in schedulers' kernels (codegen's
// builtinGenerators() makes them). A null one leaves its schedulers able
// to claim segments but not to compile them, which tests of segmentation
// alone use.
struct BuiltinGenerators {
  const KernelGenerator *pointwise = nullptr;
  const KernelGenerator *transpose = nullptr;
  const KernelGenerator *reduction = nullptr; // normalization and reduction segments
  const KernelGenerator *scan = nullptr;
};

// Registers alias, normalization, reduction, scan, transpose and pointwise, in
// that order, each with its generator.
void registerBuiltinSchedulers(SchedulerRegistry &registry,
                               const BuiltinGenerators &generators = {});

} // namespace fuserc
