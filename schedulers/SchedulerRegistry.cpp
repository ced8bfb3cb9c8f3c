// The scheduler registry and the built-ins' registration (see
// SchedulerRegistry.h).
#include "schedulers/SchedulerRegistry.h"

#include "schedulers/BuiltinSchedulers.h"

#include <algorithm>

namespace fuserc {

const SchedulerRegistry::Entry *SchedulerRegistry::findEntry(std::string_view name) const {
  for (const Entry &e : entries_)
    if (e.scheduler->name() == name)
      return &e;
  return nullptr;
}

bool SchedulerRegistry::add(std::unique_ptr<Scheduler> scheduler) {
  if (!scheduler)
    return false;
  if (const Entry *existing = findEntry(scheduler->name())) {
    errors_.push_back("scheduler '" + std::string(scheduler->name()) + "' is already registered (" +
                      existing->origin + ")");
    return false;
  }
  entries_.push_back({std::move(scheduler), origin_});
  return true;
}

const Scheduler *SchedulerRegistry::find(std::string_view name) const {
  const Entry *e = findEntry(name);
  return e ? e->scheduler.get() : nullptr;
}

std::string_view SchedulerRegistry::origin(std::string_view name) const {
  const Entry *e = findEntry(name);
  return e ? std::string_view(e->origin) : std::string_view();
}

std::vector<const Scheduler *> SchedulerRegistry::all() const {
  std::vector<const Scheduler *> schedulers;
  for (const Entry &e : entries_)
    schedulers.push_back(e.scheduler.get());
  return schedulers;
}

std::string SchedulerRegistry::namesList() const {
  std::string list;
  for (const Entry &e : entries_)
    list += (list.empty() ? "" : ",") + std::string(e.scheduler->name());
  return list;
}

std::variant<std::vector<const Scheduler *>, std::string>
SchedulerRegistry::select(const std::vector<std::string> &names) const {
  if (names.empty())
    return all();
  std::vector<const Scheduler *> selected;
  for (const std::string &name : names) {
    const Scheduler *s = find(name);
    if (!s)
      return "unknown scheduler '" + name + "'; known schedulers are " + namesList();
    if (std::find(selected.begin(), selected.end(), s) != selected.end())
      return "scheduler '" + name + "' is listed twice";
    selected.push_back(s);
  }
  return selected;
}

void registerBuiltinSchedulers(SchedulerRegistry &registry, const BuiltinGenerators &generators) {
  registry.add(makeAliasScheduler());
  registry.add(makeNormalizationScheduler(generators.reduction));
  registry.add(makeReductionScheduler(generators.reduction));
  registry.add(makeScanScheduler(generators.scan));
  registry.add(makeTransposeScheduler(generators.transpose));
  registry.add(makePointwiseScheduler(generators.pointwise));
}

} // namespace fuserc
