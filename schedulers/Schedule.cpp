// Printing, hashing and comparing schedules (see Schedule.h).
#include "schedulers/Schedule.h"

#include <functional>

namespace fuserc {

std::string scheduleValueString(const ScheduleValue &value) {
  if (const auto *n = std::get_if<int64_t>(&value))
    return std::to_string(*n);
  if (const auto *b = std::get_if<bool>(&value))
    return *b ? "true" : "false";
  if (const auto *s = std::get_if<std::string>(&value))
    return *s;
  std::string list = "[";
  for (int64_t n : std::get<std::vector<int64_t>>(value))
    list += (list.size() > 1 ? ", " : "") + std::to_string(n);
  return list + "]";
}

std::string Schedule::str() const {
  std::string s = std::string(family()) + "(";
  bool first = true;
  for (const ScheduleField &f : fields()) {
    s += (first ? "" : ", ") + f.name + "=" + scheduleValueString(f.value);
    first = false;
  }
  return s + ")";
}

size_t Schedule::hash() const {
  // Each field contributes its name, its type and its printed value.
  size_t h = std::hash<std::string_view>()(family());
  for (const ScheduleField &f : fields()) {
    const std::string item =
        f.name + "=" + std::to_string(f.value.index()) + ":" + scheduleValueString(f.value);
    h ^= std::hash<std::string>()(item) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  }
  return h;
}

bool Schedule::operator==(const Schedule &other) const {
  return family() == other.family() && fields() == other.fields();
}

} // namespace fuserc
