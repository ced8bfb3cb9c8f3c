// A schedule: a scheduler's decisions for one segment, made once after
// segmentation and handed to the scheduler's kernel generator. Its
// parameters are typed fields (numbers, flags, names, lists of axes or
// dims), which the `schedule` dump prints and the manifest writes with
// their types; `hash` and `==` compare schedules by family and fields.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace fuserc {

// A parameter's value: a number, a flag, a name or text, or a list of
// numbers (axes, dims, a memory order).
using ScheduleValue = std::variant<int64_t, bool, std::string, std::vector<int64_t>>;

struct ScheduleField {
  std::string name; // snake_case, unique within a schedule
  ScheduleValue value;
  bool operator==(const ScheduleField &) const = default;
};

// "256", "true", "[0, 2]", or the text itself.
std::string scheduleValueString(const ScheduleValue &value);

class Schedule {
public:
  virtual ~Schedule() = default;

  // The kind of kernel the schedule describes ("pointwise", "rows", ...),
  // so that schedules of different generators never compare equal.
  virtual std::string_view family() const = 0;
  // Every parameter, in a fixed order.
  virtual std::vector<ScheduleField> fields() const = 0;

  // "rows(reduced_axes=[1], ...)": one line for logs and tests.
  std::string str() const;
  size_t hash() const;
  bool operator==(const Schedule &other) const;
};

} // namespace fuserc
