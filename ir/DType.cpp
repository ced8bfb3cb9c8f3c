// DType names and promotion (see DType.h).
#include "ir/DType.h"

#include <algorithm>
#include <cmath>
#include <limits>

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

double largestFinite(DType floating) {
  switch (floating) {
  case DType::F16:
    return 65504.0; // (2 - 2^-10) * 2^15
  case DType::BF16:
    return 0x1.fep127; // (2 - 2^-7) * 2^127
  case DType::F32:
    return std::numeric_limits<float>::max();
  default:
    return std::numeric_limits<double>::max();
  }
}

bool overflowsFloatType(double v, DType floating) {
  if (!std::isfinite(v) || floating == DType::F64)
    return false;
  const float f = std::fabs(static_cast<float>(v));
  // Halfway between the largest finite value and the next power of two
  // rounds to even, which is the infinity (the largest mantissa is odd).
  if (floating == DType::F16)
    return f >= 65520.0f;
  if (floating == DType::BF16)
    return f >= 0x1.ffp127f;
  return std::isinf(f);
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
