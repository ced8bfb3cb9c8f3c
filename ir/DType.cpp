// DType names and promotion (see DType.h).
#include "ir/DType.h"

#include <algorithm>

namespace fuserc {

std::string_view dtypeName(DType t) {
  constexpr std::string_view names[] = {"bool", "i32", "i64", "f16", "bf16", "f32", "f64"};
  return names[static_cast<int>(t)];
}

std::optional<DType> parseDType(std::string_view name) {
  for (DType t : kAllDTypes)
    if (dtypeName(t) == name)
      return t;
  return std::nullopt;
}

int dtypeBytes(DType t) {
  constexpr int bytes[] = {1, 4, 8, 2, 2, 4, 8};
  return bytes[static_cast<int>(t)];
}

DType promoteTypes(DType a, DType b) {
  if (a == b)
    return a;
  if ((a == DType::F16 && b == DType::BF16) || (a == DType::BF16 && b == DType::F16))
    return DType::F32;
  // Everything else follows the enum order: bool < i32 < i64 < f16|bf16 < f32 < f64,
  // and an integer meeting a float takes the float.
  if (isFloating(a) != isFloating(b))
    return isFloating(a) ? a : b;
  return std::max(a, b);
}

} // namespace fuserc
